// interpreter/ruleset.hpp — a game's rules as loaded from its ruleset file:
// what `alea describe` shows, and the compiled mechanics that `alea roll` runs.
//
// Independent of YAML: the loader (ruleset_loader.cpp) is the only code that
// knows the file format. Immutable once loaded and shared by shared_ptr.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dsl/ast.hpp"
#include "interpreter/program.hpp"
#include "interpreter/value.hpp"

namespace alea {

// A parameter of a mechanic, or a ruleset-wide parameter.
struct ParamInfo {
  std::string name;
  ast::TypeSpec type;
  std::optional<Value> default_value;  // empty: the argument is required
  std::string doc;
  std::vector<ParamInfo> fields;  // a record of a declared shape: its fields, as `type.fields`
};

// A field of a mechanic's record result.
struct FieldInfo {
  std::string name;
  ast::TypeSpec type;  // for a label, `choices` are its named outcomes
  std::string doc;
};

struct MechanicInfo {
  std::string name;
  std::string doc;
  std::string group;
  std::vector<ParamInfo> params;        // the sides first, for an opposed mechanic
  std::vector<std::string> sides;       // an opposed mechanic's sides: "attacker", "defender"
  std::vector<ParamInfo> side_fields;   // what each side gives: "pool", "ST"
  std::vector<FieldInfo> result;        // a record result's fields, in order
  std::optional<ast::TypeSpec> returns;  // or the type of a plain result
  std::string returns_doc;
  std::vector<std::string> examples;    // command-line calls, "my-game.check dice=3"
  // `odds: sampled`: `alea stats` samples it at once, without trying an exact
  // answer (a loop with no bound, such as a battle to the death).
  bool sampled_odds = false;
};

struct NamedValue {
  std::string name;
  std::string doc;
  Value value;
};

struct Ruleset {
  int schema = 1;
  std::string name;   // as in the file: "my-game"
  std::string ident;  // as in the language: "my_game"
  std::string title;
  std::string source;
  std::string doc;
  std::string file;   // as shown in diagnostics
  std::vector<ParamInfo> parameters;
  std::vector<NamedValue> constants;
  std::vector<NamedValue> tables;
  std::vector<std::string> functions;  // the helper functions' names
  std::vector<MechanicInfo> mechanics;
  // The mechanics as functions named `ident.mechanic`, with everything they use.
  std::shared_ptr<const CompiledProgram> program;

  [[nodiscard]] const MechanicInfo* mechanic(std::string_view mechanic_name) const {
    for (const auto& m : mechanics) {
      if (m.name == mechanic_name) return &m;
    }
    return nullptr;
  }
};

// "my-game" → "my_game": how a ruleset is named in the language.
[[nodiscard]] inline std::string ruleset_ident(std::string_view name) {
  std::string s(name);
  for (char& c : s) {
    if (c == '-') c = '_';
  }
  return s;
}

}  // namespace alea
