// cli/repl_dice.hpp — the REPL's dice: random, except for faces typed in
// with :dice (dice rolled by hand at the table), which come first.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "interpreter/api.hpp"

namespace alea::cli {

// Random faces, except that faces given with :dice come first: dice rolled by
// hand at the table, typed in before the roll that uses them.
class ReplDice final : public DiceSource {
 public:
  explicit ReplDice(std::uint64_t seed) : random_(seed), seed_(seed) {}

  void reseed(std::uint64_t seed) {
    random_ = RandomDice(seed);
    seed_ = seed;
  }
  [[nodiscard]] std::uint64_t seed() const { return seed_; }

  void script(const std::vector<std::int64_t>& faces) {
    queued_.assign(faces.begin(), faces.end());
  }
  void clear_script() { queued_.clear(); }
  [[nodiscard]] const std::deque<std::int64_t>& queued() const { return queued_; }

  // An input that fails rolled nothing as far as the user is concerned, so
  // it gives its scripted faces back.
  void begin_input() {
    saved_ = queued_;
    scripted_ = 0;
    random_after_script_ = 0;
  }
  void undo_input() { queued_ = saved_; }
  [[nodiscard]] std::size_t scripted_used() const { return scripted_; }
  [[nodiscard]] std::size_t random_after_script() const { return random_after_script_; }

  void roll(const DieKind& kind, std::span<std::int64_t> faces) override;

 private:
  RandomDice random_;
  std::uint64_t seed_;
  std::deque<std::int64_t> queued_, saved_;
  std::size_t scripted_ = 0, random_after_script_ = 0;
};

// "6,4,1", "6 4 1" or "6, 4, 1": the faces, or nothing when an item is not a whole number.
[[nodiscard]] std::optional<std::vector<std::int64_t>> parse_faces(std::string_view text);

}  // namespace alea::cli
