// interpreter/rulesets/ruleset_loader_parts.hpp — internal to the ruleset loader: what
// the Loader (ruleset_loader.cpp) offers the sections read in other files
// (ruleset_loader_values.cpp: values and types; ruleset_loader_state.cpp:
// `state`, `choices`, `tiers` and a mechanic's `changes`). Only the loader's
// files include this header (and record_file.cpp, which reads YAML values the same
// way), so YAML stays behind the loader.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "dsl/ast.hpp"
#include "dsl/diagnostic.hpp"
#include "dsl/source.hpp"
#include "interpreter/rulesets/ruleset.hpp"
#include "interpreter/rulesets/ruleset_loader.hpp"

namespace alea::detail {

// A YAML file the loaded document's nodes come from: the file loaded (start 0), then the
// rulesets it extends, each parsed after `start` bytes of padding, so that the offset in a
// node's mark says which file it is in and where.
struct YamlFile {
  std::shared_ptr<const SourceFile> file;
  std::uint32_t start = 0;
  // Without their line breaks; shared with every text embedded in the file.
  std::shared_ptr<const std::vector<std::string>> lines;
};
[[nodiscard]] std::shared_ptr<const std::vector<std::string>> split_lines(std::string_view text);

// A `functions:` block of the document: the base's own, a variant's overrides of some of its
// functions, or the functions a variant adds (`add: {functions: …}`).
struct FunctionBlock {
  enum Mode { Own, Override, Add };
  YAML::Node code;
  Mode mode = Own;
  std::string variant;  // the ruleset whose block it is, for Override and Add
  std::string base;     // the ruleset it extends
};

class RulesetReader {
 public:
  struct Key {
    std::string name;
    bool required;
  };

  RulesetReader() = default;
  RulesetReader(const RulesetReader&) = delete;
  RulesetReader& operator=(const RulesetReader&) = delete;
  virtual ~RulesetReader() = default;

  virtual Diagnostic& error(DiagCode code, Span span, std::string message) = 0;
  [[nodiscard]] virtual Span span_of(const YAML::Node& n) const = 0;
  // Checks a mapping's keys: every key known, none twice, the required ones present.
  virtual bool keys(const YAML::Node& map, Span where, std::string_view what, const std::vector<Key>& allowed) = 0;
  virtual std::optional<std::string> text(const YAML::Node& n, std::string_view what) = 0;
  // A name the language can use; a ruleset-level one must be new in the ruleset.
  virtual bool name(const YAML::Node& key, std::string_view what, bool ruleset_level) = 0;
  // A parameter's description: type, default, bounds, choices, doc, and the `extra` keys.
  virtual std::optional<ParamInfo> param(const YAML::Node& key, const YAML::Node& spec, std::string_view what,
                                         bool default_required, const std::vector<Key>& extra) = 0;
  // The expression text of a scalar, positioned in the YAML file; null after an error.
  virtual std::shared_ptr<const SourceFile> code(const YAML::Node& n, std::string_view what) = 0;
  virtual std::unique_ptr<ast::Program> parse_code(const std::shared_ptr<const SourceFile>& src) = 0;
  [[nodiscard]] virtual const SourceFile& file() const = 0;
  virtual ast::Program& program() = 0;
  virtual Ruleset& ruleset() = 0;
  // The record types declared under `types:` so far, by name.
  using RecordTypes = std::map<std::string, std::shared_ptr<const ast::RecordType>>;
  virtual RecordTypes& record_types() = 0;
  // Sources the program's spans point into, kept alive with it.
  virtual void keep_source(std::shared_ptr<const SourceFile> src) = 0;
  // The files the document's nodes come from (a variant's bases after it), for ruleset_loader_extends.cpp.
  virtual std::vector<YamlFile>& yaml_files() = 0;
};

// In ruleset_loader_values.cpp:
// A whole number; nullopt after an error.
std::optional<std::int64_t> read_integer(RulesetReader& r, const YAML::Node& n, std::string_view what);
// A YAML value as a value of the language: none, numbers, true/false, text, lists, records.
Value to_value(const YAML::Node& n);
// The same value as a literal expression, positioned in the YAML file.
ast::ExprPtr to_expr(RulesetReader& r, const YAML::Node& n);
// The same, positioned by `span_of` (interpreter/rulesets/record_file.cpp reads files of records).
using SpanOf = std::function<Span(const YAML::Node&)>;
ast::ExprPtr to_expr(const YAML::Node& n, const SpanOf& span_of);
// `int`, `int?`, `label`, a declared record type…; nullopt after an error.
std::optional<ast::TypeSpec> read_type(RulesetReader& r, const YAML::Node& n);
// `items: die` on a list: the type every item must have; or `items: {type: int, min: 1}`, a type
// with bounds, choices, a face or items of its own.
void read_items(RulesetReader& r, const YAML::Node& spec, ast::TypeSpec& t);
// Bounds and choices (under `choices_key`) of a parameter or field. With `sibling_bounds` (a
// field of a record type or a side), `min` and `max` may name another int field of the record.
void read_constraints(RulesetReader& r, const YAML::Node& spec, ast::TypeSpec& t, std::string_view choices_key,
                      bool sibling_bounds = false);
// The type a constant or a table's cells declare (`{type: int, min: 0}` in `spec`, which may also
// hold the `extra` keys): each of `values`, named by its text ("the constant 'x'"), must be a
// value of it.
void check_declared(RulesetReader& r, const YAML::Node& spec, const std::vector<std::pair<YAML::Node, std::string>>& values,
                    const std::vector<RulesetReader::Key>& extra = {});
// `types:` — record types, which parameters, fields and results may name.
void read_types(RulesetReader& r, const YAML::Node& n);
// The fields of `rt` bounded by a sibling (`max: max_lives`) name an int field of it;
// `fields` is the YAML they were read from.
void check_sibling_bounds(RulesetReader& r, const YAML::Node& fields, const ast::RecordType& rt);

// In ruleset_loader_state.cpp:
// `state:` — counters kept between rolls, each a settable name of the ruleset.
void read_state(RulesetReader& r, const YAML::Node& n);
// `choices:` — decisions a player makes after seeing a roll.
void read_choices(RulesetReader& r, const YAML::Node& n);
// `tiers:` — named scales of outcomes; each adds two functions.
void read_tiers(RulesetReader& r, const YAML::Node& n);
// A mechanic's `changes:`, added to `fn` (and its hidden functions to the program).
void read_changes(RulesetReader& r, const YAML::Node& n, ast::FnDef& fn, MechanicInfo& m);
// A mechanic's `requires:` — checks of its arguments, each a require() call run before its body.
void read_requires(RulesetReader& r, const YAML::Node& n, ast::FnDef& fn, MechanicInfo& m);
// A mechanic's `refusal:` — which field of its record result says the action is allowed, and
// which says why not; read after its result.
void read_refusal(RulesetReader& r, const YAML::Node& n, MechanicInfo& m);
// Once every statement is in place: points each change at its hidden functions.
void link_changes(ast::Program& program);
// Once changes are linked: each mechanic keeps as settable only the ruleset-wide names it can
// read (dsl/reads.hpp), listed in its MechanicInfo; a call in the ruleset that sets another
// one is an error at the argument.
void keep_settables_read(RulesetReader& r);

// In ruleset_loader_extends.cpp:
// A document with `extends: NAME`: the base ruleset's document (found on `options.search_dirs`,
// itself perhaps a variant) with the variant's entries in place of the base's of the same name
// and its `add:` entries after them; each node keeps the file and line it was written at. Fills
// the ruleset's `extends` and `overrides`. nullopt after an error.
struct Extended {
  YAML::Node root;
  std::vector<FunctionBlock> functions;
};
std::optional<Extended> read_extends(RulesetReader& r, const YAML::Node& root, const RulesetLoadOptions& options);

// In ruleset_loader_examples.cpp:
// A mechanic's `examples:` (after its result is read): calls, each with what it gives if stated.
void read_examples(RulesetReader& r, const YAML::Node& n, MechanicInfo& m);

}  // namespace alea::detail
