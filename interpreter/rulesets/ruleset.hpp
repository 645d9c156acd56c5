// interpreter/rulesets/ruleset.hpp — a game's rules as loaded from its ruleset file:
// what `alea describe` shows, and the compiled mechanics that `alea roll` runs.
//
// Independent of YAML: the loader (ruleset_loader.cpp) is the only code that
// knows the file format. Immutable once loaded and shared by shared_ptr.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dsl/ast.hpp"
#include "dsl/source.hpp"
#include "interpreter/program.hpp"
#include "interpreter/values/value.hpp"

namespace alea {

// A parameter of a mechanic, or a ruleset-wide parameter.
struct ParamInfo {
  std::string name;
  ast::TypeSpec type;
  std::optional<Value> default_value;  // empty: the argument is required
  std::string doc;
};

// A field of a mechanic's record result.
struct FieldInfo {
  std::string name;
  ast::TypeSpec type;  // for a label, `choices` are its named outcomes
  std::string doc;
};

// A counter kept between rolls (a ruleset's `state`): its default is its value
// at the start; a change past its bounds stops at them when `clamp`, else it
// is an error.
struct StateInfo : ParamInfo {
  bool clamp = true;
};

// A decision the player makes after seeing a roll (a ruleset's `choices`);
// `none` to a mechanic when the player did not decide. `flag` is the
// command-line flag that decides it true (`use-edge`), or "".
struct ChoiceInfo : ParamInfo {
  std::string flag;
};

// A named scale of outcomes, lowest first (a ruleset's `tiers`): a level holds
// the values from its `from` up to the next level's; the first has no `from`.
struct TierLevel {
  std::string name;
  std::optional<std::int64_t> from;
  std::string doc;
};
struct TierScale {
  std::string name;
  std::string doc;
  std::vector<TierLevel> levels;
};

// What a mechanic does to a counter when it returns, for `alea describe`.
struct ChangeInfo {
  std::string counter;
  std::string op;      // "add", "subtract", "set", "reset"
  std::string value;   // the expression, as written; "" for reset
  std::string when;    // the condition, as written; "" for always
};

// What a mechanic requires of its arguments before its body runs (its `requires:`).
struct RequirementInfo {
  std::string check;     // the expression, as written
  std::string message;   // the refusal, a sentence
  std::string argument;  // the parameter the refusal is shown at, or ""
};

// An example of a mechanic (its `examples:`): a command-line call, and what it
// gives when stated (`expect:`). `alea check` and `alea test` run it.
struct ExampleInfo {
  std::string call;              // "my-game.check dice=3 red=1 --dice 4,5,5,4"
  std::optional<Value> expect;   // a value; a record names only the fields compared
  Span call_span;                // where the call is written, in the ruleset file
  Span expect_span;              // where `expect` is written; empty without one
  // An example a variant inherits with a mechanic it does not override: the ruleset it was
  // written for ("my-game"), its call renamed to the variant's. It is run, but its `expect`,
  // written for the base, is not checked: the variant may change the result on purpose.
  std::string inherited_from;
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
  std::vector<ExampleInfo> examples;
  std::vector<ChangeInfo> changes;      // what it does to the ruleset's state
  std::vector<RequirementInfo> requirements;  // checked in order, before the body
  // The ruleset's parameters, counters and choices it can read, in the file's order: the only
  // ones a call may set (a counter it only sets or resets is not among them).
  std::vector<std::string> settable;
  // `odds: sampled`: `alea stats` samples it at once, without trying an exact
  // answer (a loop with no bound, such as a fight to the end).
  bool sampled_odds = false;
  // `refusal: {allowed: FIELD, why: FIELD}`: the rules forbid the action when the record's bool
  // field `allowed` is false, and `why` (a text, a list of texts, or a label with docs) says
  // why; the command line then prints that sentence instead of the record. Empty: no refusal.
  std::string refusal_allowed, refusal_why;
};

// The ruleset-wide parameters, counters or choices in `all` that `m` reads: the ones a call of
// it may set.
template <class P>
[[nodiscard]] std::vector<P> read_by(const MechanicInfo& m, const std::vector<P>& all) {
  std::vector<P> out;
  for (const auto& p : all) {
    if (std::find(m.settable.begin(), m.settable.end(), p.name) != m.settable.end()) out.push_back(p);
  }
  return out;
}

// A record type the ruleset declares under `types:`, with its fields.
struct TypeInfo {
  std::string name;
  std::string doc;
  std::vector<ParamInfo> fields;  // a field without a default is required
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
  // A variant (`extends: NAME`): the ruleset it extends, and what it changes, as shown by
  // describe ("parameter difficulty (default 8)", "mechanic check", "adds function bonus").
  std::string extends;
  std::vector<std::string> overrides;
  std::vector<TypeInfo> types;
  std::vector<ParamInfo> parameters;
  std::vector<StateInfo> state;       // counters kept between rolls
  std::vector<ChoiceInfo> choices;    // decisions a player makes after seeing a roll
  std::vector<TierScale> tiers;       // named scales of outcomes
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
  // The declared type of a record parameter or field (`type: fighter`); null for
  // any other type, a list of records included.
  [[nodiscard]] const TypeInfo* record_type(const ast::TypeSpec& t) const {
    if (!t.record) return nullptr;
    for (const auto& d : types) {
      if (d.name == t.record->name) return &d;
    }
    return nullptr;
  }
  [[nodiscard]] const StateInfo* state_counter(std::string_view counter) const {
    for (const auto& s : state) {
      if (s.name == counter) return &s;
    }
    return nullptr;
  }
  [[nodiscard]] const ChoiceInfo* choice(std::string_view choice_name) const {
    for (const auto& c : choices) {
      if (c.name == choice_name) return &c;
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
