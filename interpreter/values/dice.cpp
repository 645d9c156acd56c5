// interpreter/values/dice.cpp — die kinds and the three dice sources.
#include "interpreter/values/dice.hpp"

#include <algorithm>
#include <random>

#include <fmt/format.h>

namespace alea {

DieKind DieKind::sides(std::int64_t n) {
  DieKind k;
  k.sides_ = n;
  return k;
}

DieKind DieKind::fudge() { return faces({-1, 0, 1}); }

DieKind DieKind::faces(std::vector<std::int64_t> faces) {
  DieKind k;
  k.faces_ = std::move(faces);
  return k;
}

std::int64_t DieKind::face_count() const {
  return sides_ > 0 ? sides_ : static_cast<std::int64_t>(faces_.size());
}

std::int64_t DieKind::face(std::int64_t index) const {
  return sides_ > 0 ? index + 1 : faces_[static_cast<std::size_t>(index)];
}

std::int64_t DieKind::min_face() const {
  return sides_ > 0 ? 1 : *std::min_element(faces_.begin(), faces_.end());
}

std::int64_t DieKind::max_face() const {
  return sides_ > 0 ? sides_ : *std::max_element(faces_.begin(), faces_.end());
}

bool DieKind::has_face(std::int64_t value) const {
  if (sides_ > 0) return value >= 1 && value <= sides_;
  return std::find(faces_.begin(), faces_.end(), value) != faces_.end();
}

std::int64_t DieKind::distinct_faces() const {
  if (sides_ > 0) return sides_;
  std::vector<std::int64_t> f = faces_;
  std::sort(f.begin(), f.end());
  return std::unique(f.begin(), f.end()) - f.begin();
}

std::string DieKind::name() const {
  if (sides_ > 0) return fmt::format("d{}", sides_);
  if (faces_ == std::vector<std::int64_t>{-1, 0, 1}) return "dF";
  return fmt::format("d{{{}}}", fmt::join(faces_, ","));
}

std::uint64_t fresh_seed() {
  std::random_device rd;
  return (std::uint64_t{rd()} << 32) | rd();
}

RandomDice::RandomDice(std::uint64_t seed) : rng_(seed) {}

// Ranges wider than 32 bits (never needed by dice below 2^32 faces): rejection on 64 bits.
std::uint64_t RandomDice::below_wide(pcg32& rng, std::uint64_t n) {
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  std::uint64_t x;
  do {
    x = (std::uint64_t{rng()} << 32) | rng();
  } while (x >= limit);
  return x % n;
}

void RandomDice::roll(const DieKind& kind, std::span<std::int64_t> faces) {
  const auto n = static_cast<std::uint64_t>(kind.face_count());
  if (kind.is_plain()) {  // kind.face(i) is i + 1
    each_below(n, faces.size(), [&](std::size_t i, std::uint64_t x) { faces[i] = static_cast<std::int64_t>(x) + 1; });
    return;
  }
  each_below(n, faces.size(), [&](std::size_t i, std::uint64_t x) { faces[i] = kind.face(static_cast<std::int64_t>(x)); });
}

void ScriptedDice::roll(const DieKind& kind, std::span<std::int64_t> faces) {
  if (const std::size_t left = remaining(); left < faces.size()) {
    const std::size_t need = faces.size();
    const std::size_t given = faces_.size();
    std::string had;
    if (given == 0) had = "none were given";
    else if (left == given) had = fmt::format("only {} {} given", given, given == 1 ? "was" : "were");
    else if (left == 0) had = given == 1 ? "an earlier die took the only one given" : fmt::format("earlier dice took all {} given", given);
    else had = fmt::format("only {} of the {} given {} left", left, given, left == 1 ? "is" : "are");
    throw DiceSourceError(DiceSourceError::Kind::Exhausted,
                          fmt::format("ran out of scripted dice: this roll needs {} {}, and {}; give at least {} more",
                                      need == 1 ? "a" : std::to_string(need), kind.name(), had, need - left));
  }
  for (auto& f : faces) {
    const std::int64_t v = faces_[next_];
    if (!kind.has_face(v)) {
      throw DiceSourceError(DiceSourceError::Kind::InvalidFace,
                            fmt::format("scripted die #{} is {}, which a {} cannot show", next_ + 1, v,
                                        kind.name()));
    }
    ++next_;
    f = v;
  }
}

void ExtremeDice::roll(const DieKind& kind, std::span<std::int64_t> faces) {
  const std::int64_t v = end_ == End::Min ? kind.min_face() : kind.max_face();
  std::fill(faces.begin(), faces.end(), v);
}

}  // namespace alea
