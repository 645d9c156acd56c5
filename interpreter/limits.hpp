// interpreter/limits.hpp — the ceilings that keep hostile or mistaken input finite.
//
// Reaching one is an ordinary diagnostic naming the limit, never a crash, a
// hang or a silent truncation. The defaults suit a chat bot fed by strangers.
// The list itself is interpreter/limits.def.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace alea {

struct Limits {
#define ALEA_LIMIT(name, default_value, counts) std::int64_t name = default_value;
#include "interpreter/limits.def"
#undef ALEA_LIMIT
};

// One limit, as a host or the command line names it.
struct LimitInfo {
  std::string_view name;  // "max_dice"
  std::int64_t Limits::*member;
  std::int64_t default_value;
  std::string_view counts;  // what it counts, for --help
};

// Every limit, in the order of limits.def.
[[nodiscard]] inline std::span<const LimitInfo> limit_table() {
  static constexpr LimitInfo table[] = {
#define ALEA_LIMIT(name, default_value, counts) {#name, &Limits::name, default_value, counts},
#include "interpreter/limits.def"
#undef ALEA_LIMIT
  };
  return table;
}

// The limit named `name` ("max_steps"), or null.
[[nodiscard]] inline const LimitInfo* find_limit(std::string_view name) {
  for (const LimitInfo& l : limit_table()) {
    if (l.name == name) return &l;
  }
  return nullptr;
}

// Why `name` names no limit, for every place a host or a user sets one by name:
// "there is no limit 'max_stepz' (did you mean 'max_steps'?); the limits are max_dice, …".
[[nodiscard]] std::string unknown_limit(std::string_view name);

// A byte limit (max_render_size) as a size: a negative one allows nothing.
[[nodiscard]] inline std::size_t byte_limit(std::int64_t max_bytes) {
  return max_bytes <= 0 ? 0 : static_cast<std::size_t>(max_bytes);
}

// Why `limits` cannot be used, or "": every limit is a count or a size, so
// none may be negative.
[[nodiscard]] inline std::string limits_problem(const Limits& limits) {
  for (const LimitInfo& l : limit_table()) {
    if (limits.*l.member < 0) {
      return std::string("the limit ") + std::string(l.name) + " cannot be negative, got " +
             std::to_string(limits.*l.member);
    }
  }
  return "";
}

}  // namespace alea
