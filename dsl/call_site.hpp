// dsl/call_site.hpp — where an error leaving a call of a user function is shown in that call.
//
// Both engines note the calls an error leaves (the evaluator's call_user and the exact composer's)
// through this one function: a rule's refusal that names a parameter, require(cond, message,
// "index"), is shown at the argument the call gave for it; anything else at the whole call.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "dsl/ast.hpp"
#include "dsl/diagnostic.hpp"

namespace alea::ast {

// The span of the call `c` (at `whole`) to note for `d`: the argument for d.argument when `c`
// calls a function with that parameter and gave it (d.argument is then used up), or sets the
// ruleset parameter of that name (`table: {…}`); else `whole`.
inline Span call_site(const Call& c, Diagnostic& d, Span whole) {
  if (d.argument.empty() || !c.fn) return whole;
  for (std::size_t i = 0; i < c.sets.size() && i < c.args.size(); ++i) {
    if (c.sets[i] && c.sets[i]->name == d.argument && c.args[i]) {
      d.argument.clear();
      return c.args[i]->span;
    }
  }
  const auto& params = c.fn->params;
  const auto p = std::find(params.begin(), params.end(), d.argument);
  if (p == params.end()) return whole;
  d.argument.clear();
  const auto k = static_cast<std::int32_t>(p - params.begin());
  for (std::size_t i = 0; i < c.args.size(); ++i) {
    const std::int32_t bound = i < c.arg_param.size() ? c.arg_param[i] : static_cast<std::int32_t>(i);
    if (bound == k && c.args[i]) return c.args[i]->span;
  }
  return whole;
}

}  // namespace alea::ast
