// interpreter/ops/ops.hpp — internal: what each family of pool operations gives
// each engine. One file per family, interpreter/ops/<family>.cpp, defines all
// three for its rows of dsl/pool_ops.def:
//
//   eval   the tracing evaluator: the operation on a pool, every die's fate
//          marked in the trace (through ops::PoolEval, ops/eval_support.hpp);
//   exact  the composed exact engine: the operation with its parameters'
//          values as a compose::PoolStep, with the hooks that apply it: on a
//          die's face, per die drawing more (on totals, exact_die.hpp), or on
//          a multiset of dice (exact_multiset.hpp);
//   lower  the sampler: the lowered node (ops/sample_support.hpp), or why the
//          operation is not lowered (LowerOp::unsupported).
//
// The declarations come from the registry, so a family that leaves one out, or
// a row whose family has no file, does not link. Each engine dispatches with a
// switch generated from the same rows (Evaluator::apply_pool_op,
// Composer::make_step, Lowerer::node).
//
// Shared loops. A decision made die by die is written once, in
// ops/<family>.hpp, for every engine that makes it; so are the rounds of the
// families that draw dice in rounds (explode, reroll, unique), and keep's
// choice of the highest or lowest dice (keep.hpp), for the evaluator and the
// sampler. A family's `rounds` is a template run on the engine's adaptor over
// the pool, ops::EvalDice (eval_support.hpp) or lowered::RunDice
// (sample_support.hpp), extended in <family>.cpp with its test and its
// errors. An adaptor names a die by a handle of its own, E, and gives:
//   active, next     lists of E, the dice that go on this round and the next,
//                    filled by the kernel
//   size(), die(i)   the number of dice in the pool; its die i as an E
//   face(e), set_face(e, f)  a die's face
//   draw()           one face for each die in `active`, drawn as one pool per
//                    kind of die; valid until the next draw
//   reroll(e, f)     f replaces e's die: the new die's E
// and what its family's kernel asks for besides.
#pragma once

#include <cstdint>

#include "dsl/ast.hpp"

namespace alea {

class Value;
struct PoolData;
struct Limits;
class LowerOp;
namespace compose {
struct PoolStep;
}

namespace ops {

class PoolEval;

// explode, compound and penetrate: what happens to an exploding die's new die.
enum class ExplodeMode : std::uint8_t {
  Explode,    // it joins the pool
  Compound,   // it is added to the die that exploded
  Penetrate,  // it joins the pool, one less
};

#define ALEA_POOL_OP(Id, family, ...)                                                             \
  namespace family {                                                                              \
  Value eval(PoolEval& ev, const ast::PoolOp& op, PoolData pool);                                 \
  void exact(const ast::PoolOp& op, const Value* params, const Limits& limits, compose::PoolStep& step); \
  void lower(LowerOp& cx, const ast::PoolOp& op);                                                 \
  }
#include "dsl/pool_ops.def"
#undef ALEA_POOL_OP

}  // namespace ops
}  // namespace alea
