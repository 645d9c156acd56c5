// dsl/reads.cpp — the settable names a mechanic reads, through every function it calls.
#include "dsl/reads.hpp"

#include <algorithm>
#include <unordered_set>

#include "dsl/ast_walk.hpp"

namespace alea::ast {
namespace {

class Reads {
 public:
  void function(const FnDef& fn) {
    if (!seen_fns_.insert(&fn).second) return;
    for (const auto& d : fn.defaults) expr(d.get());
    expr(fn.body.get());
    for (const auto& c : fn.changes) {
      if (c.op == StateChange::Add || c.op == StateChange::Subtract) read_.insert(c.counter);
      if (c.value) function(*c.value);
      if (c.when) function(*c.when);
    }
  }
  void expr(const Expr* e) {
    if (!e) return;
    if (const auto* n = std::get_if<Name>(&e->kind); n && n->constant) read_.insert(n->constant);
    if (const auto* c = std::get_if<Call>(&e->kind); c && c->target == CallTarget::User && c->fn) function(*c->fn);
    for_each_child(*e, [&](const Expr& child) { expr(&child); });
  }
  [[nodiscard]] bool reads(const Constant* c) const { return read_.count(c) != 0; }
  [[nodiscard]] std::vector<const Constant*> all() const { return {read_.begin(), read_.end()}; }

 private:
  std::unordered_set<const FnDef*> seen_fns_;
  std::unordered_set<const Constant*> read_;
};

}  // namespace

std::vector<const Constant*> settable_reads(const FnDef& fn, const std::vector<const Constant*>& candidates) {
  Reads r;
  r.function(fn);
  std::vector<const Constant*> out;
  std::copy_if(candidates.begin(), candidates.end(), std::back_inserter(out),
               [&](const Constant* c) { return r.reads(c); });
  return out;
}

std::vector<const Constant*> settable_reads(const Program& program) {
  Reads r;
  for (const auto& st : program.statements) {
    if (const auto* g = std::get_if<GlobalLet>(&st)) r.expr(g->value.get());
  }
  r.expr(program.main.get());
  return r.all();
}

}  // namespace alea::ast
