// cli/repl_dice.cpp — the REPL's dice and the faces :dice reads.
#include "cli/repl_dice.hpp"

#include <charconv>

#include <fmt/format.h>

namespace alea::cli {

void ReplDice::roll(const DieKind& kind, std::span<std::int64_t> faces) {
  std::size_t i = 0;
  for (; i < faces.size() && !queued_.empty(); ++i) {
    const std::int64_t face = queued_.front();
    if (!kind.has_face(face)) {
      throw DiceSourceError(DiceSourceError::Kind::InvalidFace,
                            fmt::format("the scripted face {} cannot be shown by a {} "
                                        "(change it with :dice, or forget it with :dice clear)",
                                        face, kind.name()));
    }
    faces[i] = face;
    queued_.pop_front();
    ++scripted_;
  }
  if (i == faces.size()) return;
  if (scripted_ > 0) random_after_script_ += faces.size() - i;
  random_.roll(kind, faces.subspan(i));
}

std::optional<std::vector<std::int64_t>> parse_faces(std::string_view text) {
  std::vector<std::int64_t> faces;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto end = text.find_first_of(", \t", pos);
    const std::string_view item =
        text.substr(pos, end == std::string_view::npos ? text.npos : end - pos);
    if (!item.empty()) {
      std::int64_t v = 0;
      const auto r = std::from_chars(item.data(), item.data() + item.size(), v);
      if (r.ec != std::errc() || r.ptr != item.data() + item.size()) return std::nullopt;
      faces.push_back(v);
    }
    if (end == std::string_view::npos) break;
    pos = end + 1;
  }
  if (faces.empty()) return std::nullopt;
  return faces;
}

}  // namespace alea::cli
