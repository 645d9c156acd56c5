// interpreter/ops/eval_support.cpp — see eval_support.hpp.
#include "interpreter/ops/eval_support.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace alea::ops {

DieTest PoolEval::test(std::size_t i, bool highest) {
  DieTest t;
  t.highest = highest;
  const ast::Cond& c = op_.param(i);
  if (c.value) {
    t.fixed = true;
    t.op = c.op;
    t.value = ev_.eval_int(*c.value, "a condition's value");
  }
  return t;
}

std::optional<DieTest> PoolEval::optional_test(std::size_t i) {
  const ast::Cond& c = op_.param(i);
  if (!c.value) return std::nullopt;
  const Value v = ev_.eval(*c.value);
  if (v.is_none()) return std::nullopt;
  DieTest t;
  t.fixed = true;
  t.op = c.op;
  t.value = ev_.to_int(v, c.value->span, "a condition's value");
  return t;
}

std::string PoolEval::text(const DieTest& t) {
  return t.fixed ? fmt::format("{}{}", ast::spelling(t.op), t.value)
                 : std::string(t.highest ? "its highest face" : "its lowest face");
}

std::vector<std::uint32_t> PoolEval::kinds_in(const PoolData& pool) {
  std::vector<std::uint32_t> kinds;
  for (const auto& d : pool.dice) {
    const std::uint32_t k = rec(d.id).kind;
    if (std::find(kinds.begin(), kinds.end(), k) == kinds.end()) kinds.push_back(k);
  }
  return kinds;
}

std::vector<std::int64_t> PoolEval::draw_for(const std::vector<Active>& active) {
  std::vector<std::int64_t> out(active.size());
  std::vector<bool> done(active.size(), false);
  for (std::size_t i = 0; i < active.size(); ++i) {
    if (done[i]) continue;
    const std::uint32_t k = rec(active[i].last_id).kind;
    std::vector<std::size_t> same;
    for (std::size_t j = i; j < active.size(); ++j) {
      if (!done[j] && rec(active[j].last_id).kind == k) same.push_back(j);
    }
    const auto faces = ev_.draw(kind(k), static_cast<std::int64_t>(same.size()), span_);
    for (std::size_t j = 0; j < same.size(); ++j) {
      out[same[j]] = faces[j];
      done[same[j]] = true;
    }
  }
  return out;
}

std::uint32_t PoolEval::add_die(std::uint32_t parent, std::int64_t face, DieOrigin origin) {
  const std::uint32_t id =
      ev_.add_die(rec(parent).kind, face, origin, static_cast<std::int32_t>(parent), rec(parent).group);
  rec(id).fate_by = span_;
  return id;
}

}  // namespace alea::ops
