// interpreter/rulesets/record_file.hpp — a file of records that a call's arguments may
// name: a party of characters, a bestiary, an army (`attacker=@party.yaml#ivan`).
//
// The file is YAML or JSON (read as YAML, of which it is a subset): a mapping of entries,
// each a value of the language written as in a ruleset's defaults (`colour: red` is the
// text "red", `stat: +1` the number 1). Every entry is kept as a literal positioned in
// the file, so that checking it against a parameter's type shows the field that does
// not fit at its line and column.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dsl/ast.hpp"
#include "dsl/diagnostic.hpp"
#include "dsl/source.hpp"
#include "interpreter/limits.hpp"
#include "interpreter/values/value.hpp"

namespace alea {

// An entry of the file, or the whole file: the literal as written and its value.
struct RecordEntry {
  const ast::Expr* literal = nullptr;  // null: there is no such entry
  const Value* value = nullptr;
  explicit operator bool() const { return literal != nullptr; }
  // The field `name` of a record entry; none when it has no such field or is no record.
  [[nodiscard]] RecordEntry field(std::string_view name) const;
  // The names of its fields, in the file's order; none when it is no record.
  [[nodiscard]] std::vector<std::string> names() const;
};

struct RecordFile {
  std::shared_ptr<const SourceFile> source;
  ast::ExprPtr root;  // the whole file as a literal record; null after an error
  Value value;        // the same, as a value
  Diagnostics diagnostics;  // not YAML, too large, too deep, or not a mapping

  [[nodiscard]] bool ok() const { return root != nullptr; }
  [[nodiscard]] RecordEntry whole() const { return {root.get(), root ? &value : nullptr}; }
  // The names of the entries, in the file's order.
  [[nodiscard]] std::vector<std::string> names() const { return whole().names(); }
  [[nodiscard]] RecordEntry entry(std::string_view name) const { return whole().field(name); }
};

// Reads `text` (the file `file_name`, as diagnostics show it). The file's values are
// bounded as a ruleset's are: bytes (max_file_bytes), nodes and nesting (yaml_bounds.hpp,
// max_value_depth), items in one list or mapping (max_collection_size). No name twice.
[[nodiscard]] RecordFile read_record_file(std::string text, std::string file_name, const Limits& limits = {});

// The first problem of `e` (of a file read above) as an argument of type `t`, located in
// the file; `what` names it: "the argument 'attacker'".
[[nodiscard]] std::optional<Diagnostic> entry_problem(const ast::TypeSpec& t, const RecordEntry& e,
                                                      std::string_view what);

}  // namespace alea
