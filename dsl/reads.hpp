// dsl/reads.hpp — which of a ruleset's parameters, counters and choices a mechanic can read.
//
// A ruleset-wide name that a call may set (`policy=never`, `edge=5`, `--use-edge`) is
// part of a mechanic's interface only when the mechanic can read it: in its body, its
// parameters' defaults, its state changes, or any function it calls, at any depth. The loader
// keeps only those as the mechanic's settable names, so that a call setting another one is an
// error rather than a value silently ignored. Runs on a resolved program.
#pragma once

#include <vector>

#include "dsl/ast.hpp"

namespace alea::ast {

// The settable constants (Constant::parameter) that a call of `fn` can read, in the order of
// `candidates`. A change that adds to or subtracts from a counter reads it; one that sets or
// resets it does not.
[[nodiscard]] std::vector<const Constant*> settable_reads(const FnDef& fn,
                                                         const std::vector<const Constant*>& candidates);
// The settable constants that running `program` can read: its main expression and its
// top-level values, through every function they call, in no particular order.
[[nodiscard]] std::vector<const Constant*> settable_reads(const Program& program);

}  // namespace alea::ast
