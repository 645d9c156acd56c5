// interpreter/exact/exact_compose_summary.cpp — a let's pool that what follows
// reads only through its total, its size and how few of its largest dice reach
// a target.
//
// `let pool = kept explode 6 limit 3 in … sum(pool) … spare_dice(pool, d) …`:
// the exploded pools are many, but what follows reads of each only what
// summary_pool keeps: its total, its number of dice and its largest dice up to
// the first whose running sum reaches the largest target read. The let then
// holds one pool per such summary (exact_multiset.hpp), made as the value is
// composed, so what follows runs once per summary, not once per pool.
//
// This file finds such lets. The name's every read must be, directly or as a
// parameter of a user function it is passed to, argument 1 of a builtin that
// gives the same value for a summary (detail::OnSummary): sum, len,
// fewest_reaching with a target known when the let is computed (a number, or a
// name of the let's frame that what follows does not bind), and cover with
// such a target. cover's value is then a record (or none) whose lists are not
// the pool's: it may be compared with none, and its lists only taken as
// fields, passed through note, bound to names and passed to user functions
// under the same rules; they must never reach anything else: not a
// comparison, not another builtin, not a result. A trace shows them; the
// composed engine computes none. Anything else, or a scan past its budget of
// nodes, and the pool is composed whole, as before.
#include <algorithm>
#include <array>

#include "dsl/ast_walk.hpp"
#include "interpreter/eval/builtin_table.hpp"
#include "interpreter/exact/exact_compose.hpp"

namespace alea::compose {
namespace {

// What a value is to the scan: nothing of the pool, the summary pool itself,
// a cover of it (a record or none), or lists no one may read.
enum class Kind : std::uint8_t { Clean, Pool, Cover, Lists };

// Where a target's value comes from: a number, a name of the let's frame, or
// anything else (then no summary).
struct Source {
  enum : std::uint8_t { Unknown, Int, Slot } kind = Unknown;
  std::int64_t value = 0;
};

class Scan {
 public:
  explicit Scan(const ast::Let& let) : body_(*let.body) {
    top_.kinds.emplace_back(let.slot, Kind::Pool);
  }

  std::optional<Composer::SummaryUse> run(const ast::Expr& rest) {
    const auto k = walk(rest, top_);
    if (!k || *k != Kind::Clean || !ok_) return std::nullopt;
    return std::move(use_);
  }

 private:
  struct Frame {
    std::vector<std::pair<std::int32_t, Kind>> kinds;  // the slots holding something of the pool
    // A function's: each parameter's argument and the frame it is read in, for where a target
    // comes from (source), found only when one is asked.
    std::vector<std::pair<const ast::Expr*, const Frame*>> params;
    bool top = true;
  };
  const ast::Expr& body_;  // what follows the let
  std::optional<std::vector<std::int32_t>> bound_;  // the slots of the let's frame it binds, once asked
  Frame top_;
  Composer::SummaryUse use_;
  bool ok_ = true;
  std::vector<const ast::FnDef*> calls_;  // the functions being scanned, outermost first
  static constexpr std::size_t max_calls = 32;
  // Each call is scanned where it is made, so functions that call each other
  // twice over could be met 2^32 times: past this many nodes, no summary.
  std::uint64_t nodes_ = 0;
  static constexpr std::uint64_t max_nodes = 1 << 16;

  static std::vector<std::int32_t> bound_in(const ast::Expr& e) {
    std::vector<std::int32_t> out;
    auto walk = [&](auto&& self, const ast::Expr& x) -> void {
      std::visit(
          [&](const auto& k) {
            using T = std::decay_t<decltype(k)>;
            if constexpr (ast::is_one_of<T, ast::Let, ast::For, ast::Loop>) {
              out.push_back(k.slot);
            } else if constexpr (std::is_same_v<T, ast::Opposed>) {
              out.push_back(k.other_side_slot);
              out.insert(out.end(), k.field_slots.begin(), k.field_slots.end());
            }
          },
          x.kind);
      ast::for_each_child(x, [&](const ast::Expr& c) { self(self, c); });
    };
    walk(walk, e);
    std::sort(out.begin(), out.end());
    return out;
  }

  static Kind kind_of(const Frame& f, std::int32_t slot) {
    for (auto it = f.kinds.rbegin(); it != f.kinds.rend(); ++it) {
      if (it->first == slot) return it->second;
    }
    return Kind::Clean;
  }

  std::optional<Kind> fail() {
    ok_ = false;
    return std::nullopt;
  }

  Source source(const ast::Expr& t, const Frame& f) {
    if (const auto* i = std::get_if<ast::IntLit>(&t.kind)) return {Source::Int, i->value};
    const auto* n = std::get_if<ast::Name>(&t.kind);
    if (!n || n->slot < 0 || kind_of(f, n->slot) != Kind::Clean) return {};
    if (!f.top) {
      const auto p = static_cast<std::size_t>(n->slot);
      return p < f.params.size() && f.params[p].first ? source(*f.params[p].first, *f.params[p].second) : Source{};
    }
    if (!bound_) bound_ = bound_in(body_);
    if (std::binary_search(bound_->begin(), bound_->end(), n->slot)) return {};
    return {Source::Slot, n->slot};
  }

  bool add_target(const ast::Expr& t, const Frame& f) {
    const Source s = source(t, f);
    if (s.kind == Source::Int) use_.literals.push_back(s.value);
    else if (s.kind == Source::Slot) use_.slots.push_back(static_cast<std::int32_t>(s.value));
    return s.kind != Source::Unknown;
  }

  // Whether e may read a slot of f that holds something of the pool: whether any name in it is of
  // such a slot, bound again inside or not (then no summary, which is only slower). Its nodes
  // count against the budget; past it, it may.
  bool reads_pool(const ast::Expr& e, const Frame& f) {
    const auto tainted = [&](std::int32_t slot) {
      return slot >= 0 && std::any_of(f.kinds.begin(), f.kinds.end(),
                                      [&](const auto& k) { return k.first == slot && k.second != Kind::Clean; });
    };
    bool found = false;
    auto visit = [&](auto&& self, const ast::Expr& x) -> void {
      if (found || ++nodes_ > max_nodes) {
        found = true;
        return;
      }
      if (const auto* n = std::get_if<ast::Name>(&x.kind); n && tainted(n->slot)) found = true;
      if (const auto* o = std::get_if<ast::Opposed>(&x.kind);
          o && (tainted(o->other_side_slot) || std::any_of(o->field_slots.begin(), o->field_slots.end(), tainted))) {
        found = true;
      }
      ast::for_each_child(x, [&](const ast::Expr& c) { self(self, c); });
    };
    visit(visit, e);
    return found;
  }

  // Every child of e clean.
  std::optional<Kind> clean_children(const ast::Expr& e, Frame& f) {
    bool ok = true;
    ast::for_each_child(e, [&](const ast::Expr& c) {
      if (!ok) return;
      const auto k = walk(c, f);
      ok = k && *k == Kind::Clean;
    });
    if (!ok) return fail();
    return Kind::Clean;
  }

  std::optional<Kind> walk(const ast::Expr& e, Frame& f) {
    if (!ok_ || ++nodes_ > max_nodes) return fail();
    return std::visit(
        [&](const auto& k) -> std::optional<Kind> {
          using T = std::decay_t<decltype(k)>;
          if constexpr (std::is_same_v<T, ast::Name>) {
            return k.slot >= 0 ? kind_of(f, k.slot) : Kind::Clean;
          } else if constexpr (std::is_same_v<T, ast::Let>) {
            const auto v = walk(*k.value, f);
            if (!v) return v;
            f.kinds.emplace_back(k.slot, *v);  // Clean too: it hides an outer binding of the slot
            const auto r = walk(*k.body, f);
            f.kinds.pop_back();
            return r;
          } else if constexpr (std::is_same_v<T, ast::If>) {
            const auto c = walk(*k.cond, f);
            if (!c || *c != Kind::Clean) return fail();
            const auto a = walk(*k.then_, f);
            const auto b = a ? walk(*k.else_, f) : a;
            if (!a || !b) return fail();
            if (*a == *b || *b == Kind::Clean) return a;
            if (*a == Kind::Clean) return b;
            return fail();
          } else if constexpr (std::is_same_v<T, ast::Field>) {
            const auto o = walk(*k.object, f);
            if (!o) return o;
            if (*o == Kind::Clean) return o;
            if (*o == Kind::Cover && (k.name == "used" || k.name == "leftover")) return Kind::Lists;
            return fail();
          } else if constexpr (std::is_same_v<T, ast::Call>) {
            return call(k, f);
          } else if constexpr (std::is_same_v<T, ast::Binary>) {
            // `c == none`: whether cover gave none is the same for the summary.
            const bool is_none_test = k.op == ast::BinOp::Eq || k.op == ast::BinOp::Ne;
            const auto a = walk(*k.lhs, f);
            const auto b = a ? walk(*k.rhs, f) : a;
            if (!a || !b) return fail();
            if (*a == Kind::Clean && *b == Kind::Clean) return Kind::Clean;
            const auto none_lit = [](const ast::Expr& x) { return std::holds_alternative<ast::NoneLit>(x.kind); };
            if (is_none_test && ((*a == Kind::Cover && none_lit(*k.rhs)) || (*b == Kind::Cover && none_lit(*k.lhs)))) {
              return Kind::Clean;
            }
            return fail();
          } else if constexpr (ast::is_one_of<T, ast::For, ast::Loop, ast::Opposed, ast::Repeat>) {
            // Bound again, or run more than once: none of the pool may be read there.
            if (reads_pool(e, f)) return fail();
            return Kind::Clean;
          } else {
            return clean_children(e, f);
          }
        },
        e.kind);
  }

  std::optional<Kind> call(const ast::Call& c, Frame& f) {
    std::array<Kind, 8> few{};  // (most calls: no allocation)
    std::vector<Kind> many(c.args.size() > few.size() ? c.args.size() : 0);
    Kind* const kinds = many.empty() ? few.data() : many.data();
    for (std::size_t i = 0; i < c.args.size(); ++i) {
      const auto k = walk(*c.args[i], f);
      if (!k) return k;
      kinds[i] = *k;
    }
    const auto tainted = [&](std::size_t i) { return kinds[i] != Kind::Clean; };
    std::size_t n = 0;
    for (std::size_t i = 0; i < c.args.size(); ++i) n += tainted(i) ? 1 : 0;
    if (n == 0) return Kind::Clean;
    if (c.target == ast::CallTarget::Builtin) {
      const auto& caps = detail::builtin_caps(c.builtin);
      if (n > 1) return fail();
      if (kinds[0] == Kind::Pool) {
        switch (caps.on_summary) {
          case detail::OnSummary::No: return fail();
          case detail::OnSummary::Same: return Kind::Clean;
          case detail::OnSummary::Reach:
          case detail::OnSummary::Shape:
            if (c.args.size() != 2 || !add_target(*c.args[1], f)) return fail();
            return caps.on_summary == detail::OnSummary::Reach ? Kind::Clean : Kind::Cover;
        }
      }
      // A value given back as it is (note): what it holds, it still holds.
      for (std::size_t i = 0; i < c.args.size(); ++i) {
        if (tainted(i) && caps.arg(i) == detail::ArgUse::Passed && kinds[i] != Kind::Pool) return kinds[i];
      }
      return fail();
    }
    const ast::FnDef* fn = c.fn;
    if (c.target != ast::CallTarget::User || !fn || !fn->changes.empty() || calls_.size() >= max_calls ||
        std::find(calls_.begin(), calls_.end(), fn) != calls_.end()) {
      return fail();
    }
    Frame callee;
    callee.top = false;
    callee.params.resize(fn->params.size());
    for (std::size_t i = 0; i < c.args.size(); ++i) {
      const std::int32_t p = i < c.arg_param.size() ? c.arg_param[i] : static_cast<std::int32_t>(i);
      if (p < 0 || static_cast<std::size_t>(p) >= fn->params.size()) {
        if (tainted(i)) return fail();
        continue;
      }
      const auto at = static_cast<std::size_t>(p);
      callee.params[at] = {c.args[i].get(), &f};
      if (!tainted(i)) continue;
      // A parameter whose type is checked, or a side of an opposed mechanic, sees more of it.
      if (p < fn->side_count || (at < fn->types.size() && fn->types[at])) return fail();
      callee.kinds.emplace_back(p, kinds[i]);
    }
    calls_.push_back(fn);
    bool ok = true;
    // Defaults run in the callee's frame and may read the parameters before them.
    for (const auto& dflt : fn->defaults) {
      if (dflt && ok) {
        const auto k = walk(*dflt, callee);
        ok = k && *k == Kind::Clean;
      }
    }
    const auto r = ok ? walk(*fn->body, callee) : std::nullopt;
    calls_.pop_back();
    if (!r) return fail();
    // A result checked against its type would see the lists.
    if (*r != Kind::Clean && fn->result) return fail();
    return r;
  }
};

}  // namespace

const std::optional<Composer::SummaryUse>& Composer::summary_use(const ast::Let& l) {
  if (auto it = summary_uses_.find(&l); it != summary_uses_.end()) return it->second;
  std::optional<SummaryUse> use;
  if (std::holds_alternative<ast::PoolOp>(l.value->kind) || std::holds_alternative<ast::Dice>(l.value->kind)) {
    use = Scan(l).run(*l.body);
  }
  return summary_uses_[&l] = std::move(use);
}

}  // namespace alea::compose
