// interpreter/exact/exact_demand.hpp — internal: what the rest of a program can see
// of a value, so that a pool nothing inspects is computed as its total.
//
// A value is needed Counted where every pool in it (at any depth) could be
// replaced by its total without changing anything: arithmetic, comparisons,
// `==`, conditions, counts, tiers, the program's own value (shown as totals),
// and names, fields and function parameters used only in such places. It is
// needed Full anywhere else (a pool operation, len, sort…). The analysis is
// static and conservative: in doubt, Full.
#pragma once

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "dsl/ast.hpp"

namespace alea::compose {

enum class Demand { Full, Counted };

class Demands {
 public:
  // How the variable in `slot` of the current frame is needed by `body`, whose
  // own value is needed `d`.
  Demand slot(std::int32_t slot, const ast::Expr& body, Demand d);
  // How parameter `param` of `fn` is needed when the call's value is needed `d`.
  Demand param(const ast::FnDef& fn, std::size_t param, Demand d);
  // How the body of `fn` is needed when the call's value is needed `d`.
  static Demand body(const ast::FnDef& fn, Demand d);
  // How argument i of n of a builtin (its id) is needed when its value is needed `d`.
  static Demand builtin_arg(std::int32_t builtin, std::size_t i, std::size_t n, Demand d);
  // The slots of the current frame that `e` reads before binding them itself
  // (ascending): all its value can depend on, besides names outside the frame.
  const std::vector<std::int32_t>& free_slots(const ast::Expr& e);

 private:
  std::map<std::tuple<const void*, std::int32_t, Demand>, Demand> slots_;
  std::map<std::tuple<const ast::FnDef*, std::size_t, Demand>, Demand> params_;
  std::map<const ast::Expr*, std::vector<std::int32_t>> free_;

  // Whether every use of `slot` in `e`, needed `d`, is Counted.
  bool counted_only(std::int32_t slot, const ast::Expr& e, Demand d);
  bool counted_only(std::int32_t slot, const ast::ExprPtr& e, Demand d) {
    return !e || counted_only(slot, *e, d);
  }
};

}  // namespace alea::compose
