// interpreter/exact/exact_compose.hpp — internal: the composed exact engine, an
// evaluator whose every expression gives a distribution of values.
//
// Names always hold one value: a `let` (a parameter, a program-level `let`)
// bound to something random is evaluated once for each of its values, so that
// `let x = d6 in x + x` sees the same die twice. A spine of lets runs as a
// distribution over the names that the rest of it still reads, so what
// follows a let is computed once per distinct value of those, the others
// summed out. Everything else combines independent parts: the two sides of
// `+` are evaluated once each and their distributions multiplied. A roll
// whose dice nothing inspects is computed as its total (exact_pool.hpp);
// otherwise as its multisets (exact_multiset.hpp).
// Whatever the evaluator would report as an error on some roll (other than an
// explosion chain cut off at the depth, or one die rerolled too often) stops
// composing with NotComposable, and the program is enumerated instead.
#pragma once

#include <algorithm>
#include <atomic>
#include <map>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "dsl/ast.hpp"
#include "interpreter/values/bindings.hpp"
#include "interpreter/exact/exact_demand.hpp"
#include "interpreter/exact/exact_dist.hpp"
#include "interpreter/exact/exact_multiset.hpp"
#include "interpreter/limits.hpp"

namespace alea::compose {

class Composer {
 public:
  Composer(const Bindings& bindings, const Limits& limits, std::uint64_t max_branches,
           const std::atomic<bool>* cancel = nullptr)
      : bindings_(bindings), limits_(limits) {
    budget_.max = max_branches;
    budget_.max_work = static_cast<std::uint64_t>(std::max<std::int64_t>(0, limits.max_odds_work));
    budget_.max_memory = static_cast<std::uint64_t>(std::max<std::int64_t>(0, limits.max_odds_memory));
    budget_.cancel = cancel;
  }
  // The attempt's clock: started at `start`, given up at `deadline` (time_limit).
  void set_clock(Budget::Clock::time_point start, Budget::Clock::time_point deadline,
                 const std::function<void(double)>* progress) {
    budget_.set_clock(start, deadline, progress);
  }
  void cut_rare_chains(std::uint64_t one_in) { budget_.rare_chains = one_in; }
  // Whether the program may read the order of a roll's dice (may_read_order):
  // then a run of alike dice that roll_each draws keeps its order.
  void keep_order(bool on) { keep_order_ = on; }
  // Whether any combination of chains was rare enough to be cut.
  [[nodiscard]] bool cut_rare_chains() const { return budget_.cut_rare_chains; }

  // The distribution of the program's value, pools counted as their totals.
  Dist run_program(const ast::Program& program);
  [[nodiscard]] std::uint64_t branches() const { return budget_.branches; }
  [[nodiscard]] std::uint64_t work() const { return budget_.work; }
  // Before holding `bytes` more: fails now if they would pass max_odds_memory.
  void expect_memory(std::uint64_t bytes) const { budget_.expect(0, 0, bytes); }
  // The fewest rounds after which a loop's live mass was left uncounted
  // (Failures::loop); 0 when none was.
  [[nodiscard]] std::int64_t loop_rounds() const { return loop_rounds_; }
  // The fields of loops' states that were moved as counters, sorted.
  [[nodiscard]] std::vector<std::string> loop_counters() const { return {counters_.begin(), counters_.end()}; }

  // As the evaluator's conform: `v` checked against `t`, a record type's
  // missing fields given their defaults; not composable where it would fail.
  Value conform(const ast::TypeSpec& t, const Value& v);

  // The targets of a let whose pool what follows reads only through its
  // summary (exact_compose_summary.cpp): the numbers, and the slots of the
  // let's frame, whose largest value is the reach.
  struct SummaryUse {
    std::vector<std::int64_t> literals;
    std::vector<std::int32_t> slots;
  };
  // How many lets' pools were held as summaries (for the conformance tests).
  [[nodiscard]] std::uint64_t summarised() const { return summarised_.size(); }
  // A record field's default, which must not be random (for the type walk, conform.hpp).
  Value field_default(const ast::FieldSpec& f);

 private:
  const Bindings& bindings_;
  const Limits& limits_;
  Budget budget_;
  bool keep_order_ = true;
  Demands demands_;
  PoolKinds kinds_;
  std::vector<Value> stack_;
  std::size_t base_ = 0;
  std::vector<std::pair<std::string, Value>> globals_;
  // The frame the program-level names were last bound in: one for each of their values.
  std::uint64_t globals_frame_ = 0;
  std::vector<std::pair<const ast::Constant*, Value>> overrides_;
  std::vector<std::pair<const ast::Constant*, Value>> constants_;
  // Counters of a ruleset's state set by a call's argument, while the call
  // runs; and those a call has set or changed, which depend on its branch.
  std::vector<std::pair<const ast::Constant*, Value>> state_;
  std::vector<const ast::Constant*> changed_;
  std::vector<const ast::Constant*> touched_;  // by the calls under way, until the outer one returns
  std::int64_t depth_ = 0;
  // One level of nesting composed (an expression, a spine carried into a
  // branch); deeper programs are enumerated. Lower than the evaluator's 2,000
  // levels: a level here takes more stack.
  static constexpr std::int64_t max_eval_depth = 400;
  struct Nested {
    explicit Nested(std::int64_t& d) : depth(d) {
      if (++depth > max_eval_depth) not_composable("expressions nest too deep");
    }
    Nested(const Nested&) = delete;
    Nested& operator=(const Nested&) = delete;
    ~Nested() { --depth; }
    std::int64_t& depth;
  };
  std::int64_t call_depth_ = 0;
  std::int64_t loop_rounds_ = 0;
  std::set<std::string> counters_;
  std::unordered_map<const ast::Let*, std::optional<SummaryUse>> summary_uses_;
  const std::optional<SummaryUse>& summary_use(const ast::Let& l);
  // While a let's value is composed as summaries: that value, and the reach.
  struct Summarising {
    const ast::Let* let = nullptr;
    std::int64_t reach = 0;
  } summarising_;
  std::set<const ast::Let*> summarised_;
  // A name of a spine bound to an independent value, not yet joined (exact_compose_let.cpp).
  struct Waiting {
    std::int32_t slot;
    Dist dist;
  };
  // The reach of l's summaries now, or none: no summary, or a target whose
  // slot does not hold its value (a waiting name, or one of `unset`).
  std::optional<std::int64_t> reach(const ast::Let& l, const std::vector<Waiting>& waiting,
                                    const std::vector<std::int32_t>& unset = {});
  // l's value, its pools held as summaries reaching `reach`.
  Dist summarised(const ast::Let& l, Demand d, std::int64_t reach);
  // Pools merged before one step that changes only the dice passing its test, where the step's
  // pools are read only through summaries (summary_of_failing): the pool before the step
  // (parts[0], pool_chain), or a name of the let spine that only the step reads (env).
  void merge_failing(const ast::PoolOp& op, std::vector<Dist>& parts, std::int64_t reach);
  void merge_failing_names(const ast::Let& l, Dist& env, const std::vector<std::int32_t>& live,
                           const std::vector<Waiting>& waiting);
  std::optional<PoolStep> only_passing_step(const ast::PoolOp& op, const Dist* params, std::size_t n);
  // d's values, or with `item` that item of each list of names, mapped by summary_of_failing.
  void merge_by_failing(Dist& d, const PoolStep& s, std::int64_t reach, std::optional<std::size_t> item);
  // Distributions already computed for an expression, by the values of the
  // slots it reads, within one activation of a frame (`frame_`): a body that
  // only depends on some of the names bound around it is computed once per
  // value of those.
  struct MemoKey {
    std::uint64_t frame;
    const ast::Expr* expr;
    Demand demand;
    std::vector<Value> slots;
  };
  struct MemoHash {
    std::size_t operator()(const MemoKey& k) const;
  };
  struct MemoEq {
    bool operator()(const MemoKey& a, const MemoKey& b) const;
  };
  using Memo = std::unordered_map<MemoKey, Dist, MemoHash, MemoEq>;
  Memo memo_;
  // How often a memo's lookups for one expression hit: one that keeps meeting
  // new values is computed without it, since keeping what it gave costs a copy
  // and a hash each time, for nothing.
  struct MemoUse {
    std::uint64_t lookups = 0, hits = 0;
    [[nodiscard]] bool pays() const { return lookups < 1024 || hits * 32 >= lookups; }
  };
  std::unordered_map<const ast::Expr*, MemoUse> memo_use_;  // by expression, in every frame
  // What a call gave, by its place and everything its body can read (frame 0,
  // the call's expression, and as slots: its depth, the frame of the values of
  // the program-level names (globals_frame_), the counters changed, its
  // arguments, then each constant overridden or counter set around it, as its
  // address and its value;
  // exact_compose_calls.cpp). A loop's rounds call the same functions on the
  // same values again and again.
  Memo calls_;
  std::unordered_map<const ast::Expr*, MemoUse> call_use_;
  // What each pool operation of a chain computed for part of a pool, by the
  // chain, the operation and its parameters' values (exact_compose_pool.cpp);
  // null for an operation that draws no dice.
  std::unordered_map<MemoKey, StepMemo, MemoHash, MemoEq> step_memos_;
  StepMemo* step_memo(const ast::Expr& chain, std::size_t op, const PoolStep& step, const Value* params,
                      std::size_t n, std::optional<std::int64_t> reach);
  std::uint64_t frame_ = 0, frames_ = 0;
  // Names whose value is a whole distribution while a let's value that reads
  // each of them once is computed (exact_compose_let.cpp): the stack index of
  // each, with the marker its slot holds and the distribution node(Name) gives.
  struct Spread {
    std::size_t at;
    Value marker;
    const Dist* dist;
  };
  std::vector<Spread> spread_;
  // How `eval` computes an expression (exact_compose_calls.cpp), decided once
  // per expression; a run that fails sends it to Walk for good:
  // - Plain: it needs no dice and reads only its frame's names and fixed
  //   constants (no state or program-level name, no loop, whose cut-off is a
  //   distribution of its own), so the plain evaluator runs it once, faster
  //   than the composer walks it. The evaluator is given the constants the
  //   composer knows and the parameters calls have set.
  // - Paths: the same but for a few single dice (below), run once per path.
  // - Walk: the composer walks it node by node.
  enum class Route : std::uint8_t { Walk, Plain, Paths };
  std::unordered_map<const ast::Expr*, Route> routes_;
  Route route(const ast::Expr& e);
  bool plain(const ast::Expr& e) { return route(e) == Route::Plain; }
  std::unordered_map<const ast::FnDef*, bool> plain_fns_[2];  // without, with single dice
  bool plain_fn(const ast::FnDef& fn, bool dice = false);
  std::unordered_map<const ast::Constant*, bool> plain_constants_;
  bool plain_constant(const ast::Constant& c);
  // With a scan, a single die (`d6`, `1d6`) is allowed too, and the scan
  // notes whether e also calls a user function or binds a name.
  struct DiceScan {
    bool heavy = false;
  };
  bool plain_here(const ast::Expr& e, std::vector<const ast::FnDef*>& callees, DiceScan* scan = nullptr);
  // `e`'s one value, from the plain evaluator; null when it cannot run there
  // now (a name of its frame holds a whole distribution).
  std::optional<Dist> run_plain(const ast::Expr& e);
  // Whether e is a call that call_memo keeps while it pays.
  bool memoised_call(const ast::Expr& e);
  // The frame those runs see: null while a name of it holds a whole distribution.
  std::optional<std::span<const Value>> plain_frame() const;
  // Expressions like plain ones but for a few single dice, with a call or a
  // let that makes walking them node by node costly: the evaluator runs them
  // once for each path through their dice (a loop's round in a duel: a d6 and
  // a dozen calls). `run_enumerated` gives null when a path fails or holds a
  // pool, or when the paths pass max_enumerated_runs or their steps
  // max_enumerated_steps; the composer then walks e itself, and does so from
  // then on.
  static constexpr std::uint64_t max_enumerated_runs = 512;
  static constexpr std::uint64_t max_enumerated_steps = 1 << 20;
  std::optional<Dist> run_enumerated(const ast::Expr& e);
  std::uint64_t spreads_ = 0;
  std::map<std::pair<const ast::Expr*, std::int32_t>, bool> read_once_;
  // Whether `e` reads `slot` once at most in any run: one name, outside any
  // loop, and not bound again inside.
  bool read_once(const ast::Expr& e, std::int32_t slot);
  // The frame whose spine of lets has several values (node(Let)); none at first.
  std::uint64_t sharing_ = UINT64_MAX;
  Dist memo_eval(const ast::Expr& e, Demand d);

  Dist statements_from(const ast::Program& program, std::size_t i, const Value* last);
  Dist eval(const ast::Expr& e, Demand d);
  Dist eval(const ast::ExprPtr& e, Demand d) { return eval(*e, d); }
  // What eval does with a node's distribution: the node counted as a step,
  // the limits checked, pools given as totals where only those are needed.
  Dist checked(Dist r, Demand d);
  template <class T>
  Dist node(const T& k, const ast::Expr& e, Demand d);

  Value& slot(std::int32_t s) { return stack_[base_ + static_cast<std::size_t>(s)]; }
  // `f` with the slot holding v, restoring it after.
  template <class F>
  Dist with_slot(std::int32_t s, const Value& v, F f) {
    Value saved = std::move(slot(s));
    slot(s) = v;
    Dist r = f();
    slot(s) = std::move(saved);
    return r;
  }
  Dist constant(const ast::Constant& c);
  // A mechanic's `changes` once its body gave `result` (exact_compose_calls.cpp).
  void apply_changes(const ast::FnDef& fn, std::size_t frame, const Value& result,
                     std::vector<const ast::Constant*>& touched);
  Value call_hidden(const ast::FnDef& h, std::size_t frame, std::size_t params, const Value& result);
  void write_counter(const ast::Constant& c, Value v, bool clamp);
  Dist lookup(const ast::Name& n);
  // A spine of lets: exact_compose_let.cpp.
  // `env` holds the values of the names `live` that a spine around this one
  // still reads, one list per outcome (none at first).
  Dist let_spine(const ast::Let& k, Demand d, Dist env = Dist::point(make_list({})),
                 const std::vector<std::int32_t>& live = {});
  // Each of the names `live` set to its value in `names`, one of env's lists.
  void enter_names(const std::vector<std::int32_t>& live, const Value& names) {
    const auto& values = *names.as_list();
    for (std::size_t j = 0; j < live.size(); ++j) slot(live[j]) = values[j];
  }
  // What follows a spine: `rest` once per outcome of env, or, when it is an
  // `if` or another let, env split or carried into it.
  Dist spine_rest(const ast::Expr& rest, Demand d, const Dist& env, const std::vector<std::int32_t>& live,
                  bool inside);
  Dist binary(const ast::Binary& b);
  struct TierDists {
    std::vector<std::optional<Dist>> lows, highs, results;
  };
  Dist tiers_from(const ast::Tiers& k, std::size_t i, std::int64_t x, TierDists& cache, Demand d);
  // The values of several expressions evaluated in order, as one list per outcome.
  Dist joint(const std::vector<const ast::Expr*>& exprs, const std::vector<Demand>& demands);
  Dist call_user(const ast::Call& c, const ast::Expr& e, Demand d);
  Dist call_frame(const ast::Call& c, const ast::Expr& e, Demand d, const std::vector<Value>& args);
  Dist call_memo(const ast::Call& c, const ast::Expr& e, Demand d, const std::vector<Value>& args);
  Dist call_builtin(const ast::Call& c, const ast::Expr& e, Demand d);
  // The builtin of `c` on these arguments' values, its dice (if it rolls any) from
  // `dice`; not composable where it fails. Its steps are charged as work.
  Value apply_builtin(const ast::Call& c, const ast::Expr& e, std::vector<Value> args, DiceSource* dice = nullptr);
  // A builtin that rolls dice itself, on these arguments' values, draw by draw.
  Dist drawn_items(const ast::Call& c, const ast::Expr& e, const std::vector<Value>& args);
  Dist fold_repeat(const ast::Call& c, const ast::Expr& e, const ast::Repeat& k);
  // A `repeat`'s count, refused where the evaluator would fail.
  std::int64_t repeat_count(const Value& count);
  Dist opposed(const ast::Opposed& k, Demand d);
  // `loop` as a Markov chain over its merged states: exact_compose_loop.cpp.
  Dist loop(const ast::Loop& k, const ast::Expr& e);
  // The int fields of `state`, a record, that the loop's next state only moves:
  // exact_compose_counters.cpp.
  std::vector<std::string> loop_counters(const ast::Loop& k, const ast::Expr& e, const Value& state);
  // Pool operations: exact_compose_pool.cpp.
  Dist pool_chain(const ast::Expr& e, Demand d);
  // Appends the distribution of each of op's parameters to `out`.
  void op_params(const ast::PoolOp& op, std::vector<Dist>& out);
  PoolStep make_step(const ast::PoolOp& op, const Value* params);
  std::optional<Dist> on_rolls(const std::vector<const ast::PoolOp*>& ops, const std::vector<Dist>& parts);
  std::optional<Dist> keep_after_draws(const DieKind& kind, std::int64_t n, const std::vector<PoolStep>& steps);
  DieKind die_kind(const ast::Dice& k, const Value& sides);
};

// A value as a number, failing composition where the evaluator would fail.
std::int64_t to_int(const Value& v);
bool to_bool(const Value& v);

}  // namespace alea::compose
