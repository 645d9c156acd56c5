// dsl/ast.hpp — the abstract syntax tree produced by alea::parse().
//
// Plain data: nodes own their children and remember the span of text they came
// from. The resolver fills the `slot`/`target` fields once, before a program is
// shared; after that the tree is never written again, so one Program may be
// evaluated from many threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "dsl/pool_ops.hpp"
#include "dsl/source.hpp"

namespace alea::ast {

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;
struct FnDef;

enum class CmpOp { Eq, Ne, Lt, Le, Gt, Ge };
enum class BinOp { Add, Sub, Mul, Div, Mod, Eq, Ne, Lt, Le, Gt, Ge, And, Or };
enum class UnOp { Neg, Not };

// A comparison against a value: `>=5`, `6` (equal), `<>1`. Used by per-die operations.
struct Cond {
  CmpOp op = CmpOp::Eq;
  ExprPtr value;
  Span span;
};

struct IntLit { std::int64_t value = 0; };
struct BoolLit { bool value = false; };
struct StrLit { std::string value; };
struct NoneLit {};

struct Constant;

// How a name was resolved: a slot in the current call frame, or looked up by
// name at run time (program-level `let`s first, then the host's bindings).
struct Name {
  std::string name;
  std::int32_t slot = -1;  // >= 0: local slot; -1: free name
  std::string near_local;  // for a free name: a local in scope it may be a typo of
  const Constant* constant = nullptr;  // a ruleset's constant, table or parameter
};

enum class DieShape { Sides, Percent, Fudge, Faces };

// `NdS`, `dS`, `d%`, `dF`, `d{1,1,2}`; `count` is null for a single die.
struct Dice {
  ExprPtr count;
  DieShape shape = DieShape::Sides;
  ExprPtr sides;                   // DieShape::Sides
  std::vector<std::int64_t> faces; // DieShape::Faces
};

// One pool operation applied to the value of `pool`: `… explode 6`, `…kh3`.
// Which one is `id`; what it means is in interpreter/ops/. `params` holds one
// entry per parameter its row in dsl/pool_ops.def lists, in that order (index
// them with param::<Id>::<name>): for a condition its comparison and value; for
// a number or a pool only the value (a pool's `op` is how its dice compare, as
// cancel's `<=`). An optional parameter not written has a null value.
struct PoolOp {
  ExprPtr pool;
  PoolOpId id = PoolOpId::Sort;
  std::vector<Cond> params;
  Span op_span;  // the operation's own text, for traces and errors

  [[nodiscard]] const Cond& param(std::size_t i) const { return params[i]; }
  // The value of parameter i, or null when it was not written.
  [[nodiscard]] const Expr* arg(std::size_t i) const { return params[i].value.get(); }
};

struct Unary { UnOp op; ExprPtr operand; };
struct Binary { BinOp op; ExprPtr lhs, rhs; Span op_span; };
struct If { ExprPtr cond, then_, else_; };
struct Let {
  std::string name;
  std::int32_t slot = -1;
  ExprPtr value, body;
  bool vs = false;  // the `let $first` of a desugared `vs` (see Opposed), printed back as written
};

enum class CallTarget { Unresolved, Builtin, User };
struct Call {
  std::string name;               // `check`, or `ruleset.check` for a ruleset's mechanic
  std::vector<ExprPtr> args;      // as written
  std::vector<std::string> arg_names;  // parallel to args; "" for a positional argument
  std::vector<Span> arg_name_spans;    // parallel to args; empty span for a positional argument
  Span name_span;
  CallTarget target = CallTarget::Unresolved;
  std::int32_t builtin = -1;      // index into the builtin table
  const FnDef* fn = nullptr;      // user function (may live in another program)
  // For a user function, set by the resolver, parallel to args: the parameter
  // each argument binds (>= 0), or -1 when it sets a ruleset parameter instead
  // (then `sets` holds which).
  std::vector<std::int32_t> arg_param;
  std::vector<const Constant*> sets;
};

struct ListLit { std::vector<ExprPtr> items; };
struct RecordLit {
  std::vector<std::string> names;
  std::vector<ExprPtr> values;
  // Parallel to names, or empty: where each name is written, for a literal read from a
  // file of records (a field the type does not have is shown at its name).
  std::vector<Span> name_spans;
};
struct Index { ExprPtr object, index; };
struct Field { ExprPtr object; std::string name; };

struct TierTest {
  enum Kind { Cmp, Range, Else } kind = Cmp;
  CmpOp op = CmpOp::Eq;
  ExprPtr low, high;  // Cmp uses low
  Span span;
};
struct Tier {
  TierTest test;
  ExprPtr result;
};
struct Tiers {
  ExprPtr subject;
  std::vector<Tier> tiers;
};

// The names a desugared `vs` binds; no identifier can be written with a '$'.
inline constexpr std::string_view vs_first = "$first", vs_second = "$second";

// `A vs B by f(x…)` is built as `let $first = A in let $second = B in
// f($first, $second, x…)` (`contest` without `by`), the outer let marked `vs`;
// the call's span is the `by` clause's (or the whole `vs …` clause's). `E vs
// opposed by f(x…)` is the same with this node for B: E again, with the side
// fields of the enclosing opposed mechanic bound to its second side. `side` is
// E, owned by the `let $first` this node sits in; the resolver fills the slots.
struct Opposed {
  const Expr* side = nullptr;
  std::vector<std::int32_t> field_slots;
  std::vector<std::string> field_names;
  std::int32_t other_side_slot = -1;
};

struct Repeat { ExprPtr count, body; };
struct For {
  std::string var;
  std::int32_t slot = -1;
  ExprPtr list, body;
};
struct Loop {
  std::string var;
  std::int32_t slot = -1;
  ExprPtr init;
  bool until = true;  // `until`: stop when cond holds; `while`: stop when it does not
  ExprPtr cond, next;
};

struct Expr {
  using Kind = std::variant<IntLit, BoolLit, StrLit, NoneLit, Name, Dice, PoolOp, Unary, Binary, If, Let,
                            Call, ListLit, RecordLit, Index, Field, Tiers, Opposed, Repeat, For, Loop>;
  Kind kind;
  Span span;
  std::uint32_t depth = 1;  // levels of nodes from here down, leaves being 1
};

struct RecordType;

// The values a parameter, a ruleset parameter or a result field admits.
struct TypeSpec {
  enum Kind { Any, Int, Bool, Str, Label, List, Record, Pool } kind = Any;
  bool optional = false;                 // `int?`: none is admitted too
  std::optional<std::int64_t> min, max;  // Int
  // Int, as a field of a record type: bounded by a sibling field's value too
  // (`lives: {max: max_lives}`); "" when not declared.
  std::string min_field, max_field;
  // Int: `face: d6`, a face a die of this kind can show (then min and max are its lowest and
  // highest); a List with `face:` has such items. "" when not declared.
  std::string face;
  std::optional<std::int64_t> min_length, max_length;  // List: `min_length:`, `max_length:`
  std::vector<std::string> choices;      // Str/Label; empty: any text
  // Parallel to choices, or empty: what each means, as a sentence (a result field's outcomes
  // given as a mapping, `blocked: the way is closed`).
  std::vector<std::string> choice_docs;
  // Record: a record type a ruleset declares under `types:`, whose fields are
  // checked (and missing ones given their defaults). Null: any record.
  std::shared_ptr<const RecordType> record;
  // List: what every item must be (`items:`). Null: any items.
  std::shared_ptr<const TypeSpec> items;
};

// A field of a declared record type: described like a parameter.
struct FieldSpec {
  std::string name;
  TypeSpec type;
  ExprPtr default_value;  // a literal; null: the field is required
  std::string doc;
  Span span;
};

// A record type declared under a ruleset's `types:` ("die": its shape, colour…).
struct RecordType {
  std::string name;
  std::string doc;
  std::vector<FieldSpec> fields;
  Span span;
};

// What a function promises to return: a record with these fields, checked at
// run time (a ruleset's mechanic); or, with no fields, a value of `returns`.
struct ResultSpec {
  std::vector<std::string> fields;
  std::vector<TypeSpec> types;     // parallel to fields
  std::vector<Span> spans;         // parallel to fields: where each is declared
  std::optional<TypeSpec> returns;
  Span span;
};

// One change a mechanic makes to a counter kept between rolls, once its body
// has given its result. `value` and `when` are hidden functions of the same
// program that take the mechanic's parameters and then `result`.
struct StateChange {
  enum Op { Add, Subtract, Set, Reset } op = Set;
  const Constant* counter = nullptr;
  const FnDef* value = nullptr;  // Add, Subtract, Set: the amount or the new value
  const FnDef* when = nullptr;   // null: always
  Span span;
};

// `fn name(a, b = 1) = body` at the top level of a program, or a ruleset's mechanic.
struct FnDef {
  std::string name;
  std::vector<std::string> params;
  std::vector<ExprPtr> defaults;        // parallel to params; null: the argument is required
  std::vector<std::optional<TypeSpec>> types;  // parallel to params or empty: unchecked
  std::vector<Span> param_spans;        // parallel to params
  ExprPtr body;
  Span span;
  std::int32_t frame_size = 0;  // slots: parameters first, then locals
  std::optional<ResultSpec> result;
  // The ruleset parameters a call of this function may set by name.
  std::vector<const Constant*> settable;
  // An opposed mechanic: its first `side_count` parameters are records (the
  // sides), records of the type "side" with these fields, which the body sees as names bound to the
  // first side's values.
  std::int32_t side_count = 0;
  std::vector<std::string> side_fields;
  std::vector<std::int32_t> side_field_slots;  // set by the resolver
  // A mechanic that changes a ruleset's state when it returns (its `changes`).
  std::vector<StateChange> changes;
};

// A ruleset's constant, table or parameter: a name with a fixed value (a
// literal built from YAML), which a call may override when it is a parameter.
struct Constant {
  std::string name;
  ExprPtr value;
  Span span;
  bool parameter = false;
  std::optional<TypeSpec> type;
  // Where a run looks before `value`, which is then the default: the state the
  // host keeps between rolls, or the player's choices for this roll, each
  // under the ruleset `owner`.
  enum class Source { Fixed, State, Choice } source = Source::Fixed;
  std::string owner;
  bool clamp = true;  // State: a change past min/max stops there (false: an error)
};

// `let name = value` at the top level: a program-level variable.
struct GlobalLet {
  std::string name;
  ExprPtr value;
  Span span;
};

using Statement = std::variant<FnDef, GlobalLet>;

// One parsed source: statements in order, then an optional final expression.
struct Program {
  std::vector<Statement> statements;
  std::vector<std::unique_ptr<Constant>> constants;  // a ruleset's; visible to its functions
  ExprPtr main;                  // null when the source has only definitions
  std::int32_t frame_size = 0;   // slots used by the top-level lets and the main expression
};

[[nodiscard]] std::string_view spelling(CmpOp op);
[[nodiscard]] std::string_view spelling(BinOp op);
// `int`, `int?`, `label` …, as written in a ruleset.
[[nodiscard]] std::string type_name(const TypeSpec& t);

}  // namespace alea::ast
