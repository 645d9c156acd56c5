// interpreter/values/trace.hpp — what happened to every die during one evaluation.
//
// Append-only while evaluating. A die's index in `dice` is its id; pools refer
// to dice by id. Spans point into the program's sources, which the Outcome
// keeps alive.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dsl/source.hpp"
#include "interpreter/values/dice.hpp"
#include "interpreter/values/value.hpp"

namespace alea {

enum class DieFate : std::uint8_t {
  Kept,       // still in its pool
  Dropped,    // removed by keep/drop
  Rerolled,   // replaced by a reroll
  Cancelled,  // removed by another pool's die (`cancel`)
  Failed,     // removed by `under` (did not roll under the target)
  Added,      // a compounding roll added into its parent die
};

enum class DieOrigin : std::uint8_t { Rolled, Exploded, Compounded, Penetrated, Rerolled };

// Marks that do not remove a die.
enum DieMark : std::uint16_t {
  MarkExploded = 1 << 0,    // this die caused an explosion (or compounding roll)
  MarkSuccess = 1 << 1,     // counted as a success
  MarkFailure = 1 << 2,     // counted as a failure (subtracted)
  MarkDouble = 1 << 3,      // counted twice
  MarkClamped = 1 << 4,     // raised or lowered by clamp
  MarkCancelling = 1 << 5,  // used up cancelling a die of another pool
};

inline constexpr std::int32_t no_die = -1;

struct DieRecord {
  std::uint32_t kind = 0;       // index into Trace::kinds
  std::int64_t rolled = 0;      // the face as drawn
  std::int64_t face = 0;        // the face it counts as now (compounded, penetrated, clamped)
  DieFate fate = DieFate::Kept;
  DieOrigin origin = DieOrigin::Rolled;
  std::uint16_t marks = 0;
  std::int32_t parent = no_die;   // the die whose explosion or reroll made this one
  std::int32_t partner = no_die;  // the die that cancelled this one, or that this one cancelled
  std::uint32_t group = 0;        // index into Trace::groups
  std::uint32_t tags = 0;         // 1 + index into Trace::tags; 0: the die has none
  Span fate_by;                   // the operation that last changed it
};

// The dice drawn by one evaluation of one roll (`3d6`), and the chain of
// operations written after it (`3d6 explode 6 keep highest 2`).
struct RollGroup {
  Span roll;   // the dice term
  Span chain;  // the dice term and the operations applied to it
};

// An event that is not about one die: which tier a value fell into, or a
// line a program asked for with note().
struct TraceEvent {
  Span span;
  std::string text;    // "9 → partial", "extra successes: 2"
  std::string result;  // "partial", "2"
  bool note = false;   // from note(): shown on a line of its own
};

struct Trace {
  std::vector<DieKind> kinds;
  std::vector<DieRecord> dice;
  std::vector<RollGroup> groups;
  std::vector<TraceEvent> events;
  // What a described die is, beyond its faces (`{type: "attack", colour:
  // "red"}`): the records of the dice roll_each rolled, without `die` and `face`.
  std::vector<Value> tags;

  [[nodiscard]] std::uint32_t kind_index(const DieKind& k) {
    for (std::uint32_t i = 0; i < kinds.size(); ++i) {
      if (kinds[i] == k) return i;
    }
    kinds.push_back(k);
    return static_cast<std::uint32_t>(kinds.size() - 1);
  }
};

[[nodiscard]] std::string_view fate_name(DieFate f);
[[nodiscard]] std::string_view origin_name(DieOrigin o);

}  // namespace alea
