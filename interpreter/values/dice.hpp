// interpreter/values/dice.hpp — kinds of dice and where their faces come from.
//
// Randomness is injected: an evaluation draws every face from a DiceSource.
// A source hands out a whole pool at a time (all dice of one roll, or one round
// of explosions or rerolls), so that an exact-probability engine can treat each
// call as one choice among the pool's multisets.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <pcg_random.hpp>

namespace alea {

// The faces a die can show: 1..sides, -1..1 (Fate), or an explicit list.
class DieKind {
 public:
  static DieKind sides(std::int64_t n);  // n >= 1
  static DieKind fudge();
  static DieKind faces(std::vector<std::int64_t> faces);  // non-empty

  [[nodiscard]] std::int64_t face_count() const;
  [[nodiscard]] std::int64_t face(std::int64_t index) const;  // index in [0, face_count)
  [[nodiscard]] std::int64_t min_face() const;
  [[nodiscard]] std::int64_t max_face() const;
  [[nodiscard]] bool has_face(std::int64_t value) const;
  [[nodiscard]] bool is_plain() const { return sides_ > 0; }  // faces 1..n
  [[nodiscard]] std::int64_t distinct_faces() const;
  [[nodiscard]] std::string name() const;  // "d6", "dF", "d{1,1,2}"
  friend bool operator==(const DieKind&, const DieKind&) = default;

 private:
  std::int64_t sides_ = 0;           // > 0: a plain die with faces 1..sides_
  std::vector<std::int64_t> faces_;  // otherwise, the faces in order
};

// Thrown by a DiceSource that cannot give the faces asked for (scripted dice ran
// out or do not fit); the evaluator turns it into a diagnostic at the roll.
struct DiceSourceError : std::runtime_error {
  enum class Kind { Exhausted, InvalidFace } kind;
  DiceSourceError(Kind k, const std::string& message) : std::runtime_error(message), kind(k) {}
};

class DiceSource {
 public:
  virtual ~DiceSource() = default;
  // Fills `faces` with one face of `kind` per element: one pool, drawn at once.
  virtual void roll(const DieKind& kind, std::span<std::int64_t> faces) = 0;
  // The faces given in advance that no die has taken yet; none for a source that draws them.
  [[nodiscard]] virtual std::span<const std::int64_t> unused() const { return {}; }
};

// A seed from the operating system's entropy (std::random_device): for a roll given none.
[[nodiscard]] std::uint64_t fresh_seed();

// Uniform faces from PCG32 (pcg-cpp), with Lemire's unbiased bounded integers:
// the faces for a seed are the same on every platform and compiler.
class RandomDice final : public DiceSource {
 public:
  explicit RandomDice(std::uint64_t seed);
  void roll(const DieKind& kind, std::span<std::int64_t> faces) override;
  // A uniform integer in [0, n); n >= 1.
  std::uint64_t below(std::uint64_t n) { return below(rng_, n); }
  // Calls f(below(n)) `count` times, with the generator kept in a local copy
  // (in registers, not stored and reloaded per die) and written back at the
  // end. Inline: the fast sampler draws every die through it, as roll() does.
  template <class F>
  void each_below(std::uint64_t n, std::size_t count, F&& f) {
    pcg32 rng = rng_;
    for (std::size_t i = 0; i < count; ++i) f(i, below(rng, n));
    rng_ = rng;
  }
  // Whether two generators are in the same state: they will draw the same faces.
  friend bool operator==(const RandomDice& a, const RandomDice& b) { return a.rng_ == b.rng_; }

 private:
  // Lemire, "Fast Random Integer Generation in an Interval" (2019): unbiased,
  // one multiplication and almost never a division.
  static std::uint64_t below(pcg32& rng, std::uint64_t n) {
    if (n <= 0xFFFFFFFFu) [[likely]] {
      const auto bound = static_cast<std::uint32_t>(n);
      std::uint64_t m = std::uint64_t{rng()} * bound;
      auto low = static_cast<std::uint32_t>(m);
      if (low < bound) [[unlikely]] {
        const std::uint32_t threshold = static_cast<std::uint32_t>(-bound) % bound;
        while (low < threshold) {
          m = std::uint64_t{rng()} * bound;
          low = static_cast<std::uint32_t>(m);
        }
      }
      return m >> 32;
    }
    return below_wide(rng, n);
  }
  static std::uint64_t below_wide(pcg32& rng, std::uint64_t n);
  pcg32 rng_;
};

// Faces given in advance: for tests and for dice rolled at a real table.
class ScriptedDice final : public DiceSource {
 public:
  explicit ScriptedDice(std::vector<std::int64_t> faces) : faces_(std::move(faces)) {}
  void roll(const DieKind& kind, std::span<std::int64_t> faces) override;
  [[nodiscard]] std::size_t used() const { return next_; }
  [[nodiscard]] std::size_t remaining() const { return faces_.size() - next_; }
  [[nodiscard]] std::span<const std::int64_t> unused() const override {
    return std::span<const std::int64_t>(faces_).subspan(next_);
  }

 private:
  std::vector<std::int64_t> faces_;
  std::size_t next_ = 0;
};

// Every die shows its lowest (or highest) face: the bounds of an expression.
class ExtremeDice final : public DiceSource {
 public:
  enum class End { Min, Max };
  explicit ExtremeDice(End end) : end_(end) {}
  void roll(const DieKind& kind, std::span<std::int64_t> faces) override;

 private:
  End end_;
};

}  // namespace alea
