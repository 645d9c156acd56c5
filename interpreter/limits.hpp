// interpreter/limits.hpp — the ceilings that keep hostile or mistaken input finite.
//
// Reaching one is an ordinary diagnostic naming the limit, never a crash, a
// hang or a silent truncation. The defaults suit a chat bot fed by strangers.
#pragma once

#include <cstdint>

namespace alea {

struct Limits {
  std::int64_t max_dice = 10'000;             // dice rolled per evaluation, rerolls and explosions included
  std::int64_t max_sides = 1'000'000;         // faces of a plain `dN`
  std::int64_t max_explosion_depth = 100;     // extra dice one die may add when no `limit` is written
  std::int64_t max_rerolls = 100;             // times one die may be rerolled
  std::int64_t max_loop_iterations = 10'000;  // iterations of one `repeat`, `for` or `loop`
  std::int64_t max_call_depth = 64;           // nested calls of user functions
  std::int64_t max_steps = 1'000'000;         // expression nodes evaluated
  std::int64_t max_collection_size = 10'000;  // items in one list or record
  std::int64_t max_value_depth = 100;         // lists and records nested in one another
};

}  // namespace alea
