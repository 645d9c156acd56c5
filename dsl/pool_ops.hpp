// dsl/pool_ops.hpp — the pool operations of dsl/pool_ops.def as C++: their ids,
// their families, and what each of them is written with.
//
// Everything that treats every operation alike (the AST builder, the printer,
// the child walk and so the resolver, the depth guard, the demand and order
// analyses) reads this table. Everything that gives an operation its meaning lives in
// interpreter/ops/<family>.cpp, and each engine reaches it through a switch
// generated from the same rows:
//   switch (op.id) {
//   #define ALEA_POOL_OP(Id, family, ...) case PoolOpId::Id: return ops::family::eval(…);
//   #include "dsl/pool_ops.def"
//   #undef ALEA_POOL_OP
//   }
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace alea {

enum class PoolOpId : std::uint8_t {
#define ALEA_POOL_OP(Id, family, word, written, shorthand, sees_order, ...) Id,
#include "dsl/pool_ops.def"
#undef ALEA_POOL_OP
};

// The parameters of each operation by name: `param::Explode::limit` is the
// index of explode's limit in ast::PoolOp::params.
namespace param {
#define ALEA_COND(name, keyword) name,
#define ALEA_NUMBER(name, keyword) name,
#define ALEA_POOL(name) name,
#define ALEA_WORD(word)
#define ALEA_POOL_OP(Id, family, word, written, shorthand, sees_order, ...) \
  namespace Id {                                               \
  enum : std::uint8_t { __VA_ARGS__ size_ };  /* size_: how many */ \
  }
#include "dsl/pool_ops.def"
#undef ALEA_POOL_OP
#undef ALEA_COND
#undef ALEA_NUMBER
#undef ALEA_POOL
#undef ALEA_WORD
}  // namespace param

// One part of an operation as written after its first words.
struct PoolOpPart {
  enum Kind : std::uint8_t {
    None,    // past the last part
    Cond,    // a die condition; its value is a number
    Number,  // a number: the engines need its total
    Pool,    // a pool: the engines need its dice
    Word,    // a fixed word
  } kind = None;
  std::string_view text;  // Cond, Number: the keyword before it ("" for none); Word: the word
  std::string_view name;  // Cond, Number, Pool: the parameter's name
  [[nodiscard]] constexpr bool is_param() const { return kind == Cond || kind == Number || kind == Pool; }
};

struct PoolOpInfo {
  PoolOpId id;
  std::string_view name;       // "keep": in traces and messages
  std::string_view written;    // "keep highest"
  std::string_view shorthand;  // "kh"
  bool sees_order;             // its result depends on the order of the faces
  std::array<PoolOpPart, 4> parts;

  [[nodiscard]] constexpr std::size_t param_count() const {
    std::size_t n = 0;
    for (const auto& p : parts) n += p.is_param() ? 1 : 0;
    return n;
  }
  // The i-th parameter's part.
  [[nodiscard]] constexpr const PoolOpPart& param(std::size_t i) const {
    for (const auto& p : parts) {
      if (p.is_param() && i-- == 0) return p;
    }
    return parts.back();  // unreachable for a valid index: a None part
  }
  // The index of the parameter called `param`; param_count() if there is none.
  [[nodiscard]] constexpr std::size_t param_index(std::string_view param) const {
    std::size_t i = 0;
    for (const auto& p : parts) {
      if (!p.is_param()) continue;
      if (p.name == param) return i;
      ++i;
    }
    return i;
  }
};

inline constexpr PoolOpInfo kPoolOps[] = {
#define ALEA_COND(name, keyword) PoolOpPart{PoolOpPart::Cond, keyword, #name},
#define ALEA_NUMBER(name, keyword) PoolOpPart{PoolOpPart::Number, keyword, #name},
#define ALEA_POOL(name) PoolOpPart{PoolOpPart::Pool, "", #name},
#define ALEA_WORD(word) PoolOpPart{PoolOpPart::Word, word, ""},
#define ALEA_POOL_OP(Id, family, word, written, shorthand, sees_order, ...) \
  PoolOpInfo{PoolOpId::Id, word, written, shorthand, sees_order, {{__VA_ARGS__}}},
#include "dsl/pool_ops.def"
#undef ALEA_POOL_OP
#undef ALEA_COND
#undef ALEA_NUMBER
#undef ALEA_POOL
#undef ALEA_WORD
};

inline constexpr std::size_t kPoolOpCount = std::size(kPoolOps);

[[nodiscard]] constexpr const PoolOpInfo& pool_op_info(PoolOpId id) { return kPoolOps[static_cast<std::size_t>(id)]; }

// Every parameter name of the rows, once each, in the order of first use. The
// grammar tags the rule that fills a parameter with its name (dsl/grammar.hpp's
// op_param), and the parse tree gives each name a node kind of its own.
struct PoolOpParamNames {
  std::array<std::string_view, std::size(kPoolOps) * 4> names{};
  std::size_t size = 0;
  // The position of `name`; size if no row has a parameter of that name.
  [[nodiscard]] constexpr std::size_t index(std::string_view name) const {
    for (std::size_t i = 0; i < size; ++i) {
      if (names[i] == name) return i;
    }
    return size;
  }
};
inline constexpr PoolOpParamNames kPoolOpParamNames = [] {
  PoolOpParamNames n;
  for (const PoolOpInfo& row : kPoolOps) {
    for (const PoolOpPart& p : row.parts) {
      if (p.is_param() && n.index(p.name) == n.size) n.names[n.size++] = p.name;
    }
  }
  return n;
}();

// Rows are in the order of their ids.
static_assert([] {
  for (std::size_t i = 0; i < kPoolOpCount; ++i) {
    if (static_cast<std::size_t>(kPoolOps[i].id) != i) return false;
  }
  return true;
}());

}  // namespace alea
