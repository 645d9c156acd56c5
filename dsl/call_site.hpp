// dsl/call_site.hpp — where an error leaving a call of a user function is shown in that call.
//
// Both engines note the calls an error leaves (the evaluator's call_user and the exact composer's)
// through this one function: a rule's refusal that names a parameter, require(cond, message,
// "index"), is shown at the argument the call gave for it, and when that argument came from a
// parameter of the caller, at the argument its own caller gave; anything else at the whole call.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <variant>

#include "dsl/ast.hpp"
#include "dsl/diagnostic.hpp"

namespace alea::ast {

// The parameter of the calling function (or of the ruleset) that `e` reads its value from,
// when `e` is that parameter or a part of it (`moves`, `moves[k]`, `m.die`); else null.
inline const Name* blamed_parameter(const Expr& e) {
  const Expr* x = &e;
  for (;;) {
    if (const auto* i = std::get_if<Index>(&x->kind); i && i->object) {
      x = i->object.get();
    } else if (const auto* f = std::get_if<Field>(&x->kind); f && f->object) {
      x = f->object.get();
    } else {
      break;
    }
  }
  const auto* n = std::get_if<Name>(&x->kind);
  return n && (n->slot >= 0 || (n->constant && n->constant->parameter)) ? n : nullptr;
}

// The span of the call `c` (at `whole`) to note for `d`: the argument for d.argument when `c`
// calls a function with that parameter and gave it, or sets the ruleset parameter of that name
// (`table: {…}`); else `whole`. When that argument is a parameter of the function the call is
// written in, or a part of one, the blame moves up to it for the next call out; else
// d.argument is used up.
inline Span call_site(const Call& c, Diagnostic& d, Span whole) {
  if (d.argument.empty() || !c.fn) return whole;
  const auto give = [&](const Expr& arg) {
    const Name* up = blamed_parameter(arg);
    d.argument = up ? up->name : std::string();
    d.argument_slot = up ? up->slot : -1;
    return arg.span;
  };
  if (d.argument_slot < 0) {
    for (std::size_t i = 0; i < c.sets.size() && i < c.args.size(); ++i) {
      if (c.sets[i] && c.sets[i]->name == d.argument && c.args[i]) return give(*c.args[i]);
    }
  }
  const auto& params = c.fn->params;
  const auto p = std::find(params.begin(), params.end(), d.argument);
  const auto k = static_cast<std::int32_t>(p - params.begin());
  if (d.argument_slot >= 0 && (p == params.end() || d.argument_slot != k)) {
    // A value of the caller's that is none of its parameters: no argument to blame.
    d.argument.clear();
    d.argument_slot = -1;
    return whole;
  }
  // A name of the rule's own (a ruleset parameter read deep inside) waits for the call that sets it.
  if (p == params.end()) return whole;
  for (std::size_t i = 0; i < c.args.size(); ++i) {
    const std::int32_t bound = i < c.arg_param.size() ? c.arg_param[i] : static_cast<std::int32_t>(i);
    if (bound == k && c.args[i]) return give(*c.args[i]);
  }
  d.argument.clear();
  d.argument_slot = -1;
  return whole;
}

}  // namespace alea::ast
