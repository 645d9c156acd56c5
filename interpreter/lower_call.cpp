// interpreter/lower_call.cpp — lowering calls of builtins (see lowerer.hpp).
#include "interpreter/lowerer.hpp"

namespace alea {

using namespace lowered;

Lowerer::Typed Lowerer::node(const ast::Call& k, const ast::Expr& e) {
  if (k.target != ast::CallTarget::Builtin) unsupported(fmt::format("the function '{}'", k.name));
  const std::string& f = k.name;
  const auto n = k.args.size();
  auto b = std::make_unique<BuiltinNode>();
  b->span = e.span;
  if (n >= 2) b->divisor_span = k.args[1]->span;
  const auto one_pool = [&](Builtin fn) {
    // One pool: its faces. One number: itself. Several: each a number.
    if (n == 1) {
      Typed t = any(*k.args[0]);
      if (t.type == Type::Pool) {
        b->fn = fn;
        b->check = !safe(t.bound);
        b->pool = std::move(t.pool);
        return;
      }
      b->args.push_back(as_number(std::move(t)));
      return;
    }
    for (const auto& a : k.args) b->args.push_back(number(*a));
  };
  if (f == "sum") {
    b->fn = Builtin::SumArgs;
    one_pool(Builtin::SumFaces);
  } else if (f == "min" || f == "max") {
    b->fn = f == "min" ? Builtin::MinArgs : Builtin::MaxArgs;
    one_pool(f == "min" ? Builtin::MinFaces : Builtin::MaxFaces);
  } else if (f == "len" && n == 1) {
    Typed t = pool(*k.args[0]);
    b->fn = Builtin::Len;
    b->pool = std::move(t.pool);
  } else if ((f == "abs" && n == 1) || (f == "clamp" && n == 3) ||
             (n == 2 && (f == "floor_div" || f == "ceil_div" || f == "trunc_div" || f == "round_div"))) {
    b->fn = f == "abs"         ? Builtin::Abs
            : f == "clamp"     ? Builtin::Clamp
            : f == "floor_div" ? Builtin::FloorDiv
            : f == "ceil_div"  ? Builtin::CeilDiv
            : f == "trunc_div" ? Builtin::TruncDiv
                               : Builtin::RoundDiv;
    for (const auto& a : k.args) b->args.push_back(number(*a));
  } else {
    unsupported(fmt::format("the builtin '{}'", f));
  }
  return scalar(Type::Int, std::move(b));
}

}  // namespace alea
