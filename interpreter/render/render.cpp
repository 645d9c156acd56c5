// interpreter/render/render.cpp — an Outcome as the line a person reads at the table.
//
//   4d6kh3 → 4 4 6 ~3~ = 14          ~x~   removed (dropped, cancelled, failed, rerolled)
//   3d6! → 6! 4 1 +3 = 14            x!    exploded;  +x  came from an explosion
//   5d10>=8 → 9* 2 8* 10* 1 = 3      x*    success;   x**  counts twice;  x_  failure
//   2d6r1 → ~1~→5 3 = 8              a→b   rerolled (or clamped) from a to b
//   3d6!! → 6!+6!+2 3 1 = 18         compounding rolls joined with +
#include <algorithm>
#include <cctype>
#include <map>

#include <fmt/format.h>

#include "interpreter/api.hpp"
#include "interpreter/program.hpp"

namespace alea {
namespace {

bool removed(DieFate f) {
  return f == DieFate::Dropped || f == DieFate::Cancelled || f == DieFate::Failed || f == DieFate::Rerolled;
}

class DiceText {
 public:
  // `max`: the bytes a group's text may pass before the rest is left out.
  DiceText(const Trace& t, std::size_t max) : t_(t), max_(max), children_(t.dice.size()), by_group_(t.groups.size()) {
    for (std::uint32_t i = 0; i < t.dice.size(); ++i) {
      const auto& d = t.dice[i];
      if (d.parent != no_die && (d.origin == DieOrigin::Rerolled || d.origin == DieOrigin::Compounded)) {
        children_[static_cast<std::size_t>(d.parent)].push_back(i);
      } else if (d.group < by_group_.size()) {
        by_group_[d.group].push_back(i);
      }
    }
  }

  // The dice of one group in the order they were rolled.
  std::string group(std::uint32_t g) const {
    std::string out;
    for (const std::uint32_t i : by_group_[g]) {
      const auto& d = t_.dice[i];
      if (out.size() > max_) break;  // the caller cuts the text and says so
      if (!out.empty()) out += ' ';
      std::string one = chain(i);
      if (d.origin == DieOrigin::Exploded || d.origin == DieOrigin::Penetrated) {
        one.insert(one.front() == '~' ? 1 : 0, "+");  // ~+3~ for a dropped explosion die
      }
      out += one;
    }
    return out;
  }

 private:
  const Trace& t_;
  std::size_t max_;
  std::vector<std::vector<std::uint32_t>> children_;
  std::vector<std::vector<std::uint32_t>> by_group_;  // a group's first rolls of its dice, in order

  // "(attack red special)": a described die's tags, each text as it is, a
  // true flag by its name, other values as name=value; false and none say nothing.
  std::string tags(const DieRecord& d) const {
    if (d.tags == 0) return "";
    const RecordData* r = t_.tags[d.tags - 1].as_record();
    if (!r) return "";
    std::string s;
    for (std::size_t i = 0; i < r->names.size(); ++i) {
      const Value& v = r->values[i];
      std::string one;
      if (const auto* str = v.as_str()) one = *str;
      else if (const auto* b = v.as_bool()) one = *b ? r->names[i] : "";
      else if (!v.is_none()) one = fmt::format("{}={}", r->names[i], to_display(v, static_cast<std::int64_t>(max_)));
      if (one.empty()) continue;
      s += (s.empty() ? "" : " ") + one;
    }
    return s.empty() ? "" : "(" + s + ")";
  }

  std::string marks(const DieRecord& d) const {
    std::string s;
    if (d.marks & MarkExploded) s += '!';
    if (d.marks & MarkDouble) s += "**";
    else if (d.marks & MarkSuccess) s += '*';
    if (d.marks & MarkFailure) s += '_';
    return s;
  }

  // One die with its rerolls and compounding rolls.
  std::string chain(std::uint32_t id) const {
    const auto& d = t_.dice[id];
    std::string s;
    if (d.origin == DieOrigin::Penetrated) {
      s = fmt::format("{}", d.face);
    } else if (!children_[id].empty() && t_.dice[children_[id].front()].origin == DieOrigin::Compounded) {
      // 6!+6!+2: follow the compounding rolls.
      s = fmt::format("{}!", d.rolled);
      std::uint32_t cur = children_[id].front();
      while (true) {
        const auto& c = t_.dice[cur];
        s += fmt::format("+{}{}", c.rolled, (c.marks & MarkExploded) ? "!" : "");
        if (children_[cur].empty()) break;
        cur = children_[cur].front();
      }
      std::string m = marks(d);
      if (!m.empty() && m.front() == '!') m.erase(0, 1);
      s += m;
      return d.fate != DieFate::Kept && d.fate != DieFate::Added ? "~" + s + "~" : s;
    } else if (d.marks & MarkClamped) {
      s = fmt::format("{}→{}", d.rolled, d.face);
    } else {
      s = fmt::format("{}", d.face);
    }
    s += marks(d) + tags(d);
    if (removed(d.fate)) s = "~" + s + "~";
    if (d.fate == DieFate::Rerolled && !children_[id].empty()) s += "→" + chain(children_[id].front());
    return s;
  }
};

// The cancellations, as "5 cancelled 4" (the canceller first), or "3+2
// cancelled 5" when cancellers combined.
std::string cancellations(const Trace& t, std::size_t max) {
  std::map<std::size_t, std::vector<std::int64_t>> cancellers;  // victim → faces
  for (const auto& c : t.dice) {
    if ((c.marks & MarkCancelling) && c.partner != no_die) {
      cancellers[static_cast<std::size_t>(c.partner)].push_back(c.face);
    }
  }
  std::map<std::size_t, std::string> by_victim;  // "3+2", highest first
  for (auto& [victim, faces] : cancellers) {
    std::sort(faces.begin(), faces.end(), std::greater<>());
    for (auto f : faces) by_victim[victim] += fmt::format("{}{}", by_victim[victim].empty() ? "" : "+", f);
  }
  std::string out;
  for (std::size_t i = 0; i < t.dice.size(); ++i) {
    const auto& d = t.dice[i];
    if (d.fate != DieFate::Cancelled || d.partner == no_die) continue;
    if (out.size() > max) break;  // the caller cuts the text and says so
    std::string by = by_victim[i];
    if (by.empty()) by = fmt::format("{}", t.dice[static_cast<std::size_t>(d.partner)].face);
    out += fmt::format("{}{} cancelled {}", out.empty() ? "" : ", ", by, d.face);
  }
  return out;
}

// Source text on one line: each line break, with the blanks around it, becomes
// one space, and comments are left out.
std::string one_line(std::string_view text) {
  std::string out;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (in_string && text[i] == '\\' && i + 1 < text.size()) {
      out += text[i];
      out += text[++i];
      continue;
    }
    if (text[i] == '"') in_string = !in_string;
    if (text[i] == '#' && !in_string) {
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
      continue;
    }
    if (text[i] == '\n' || text[i] == '\r') {
      in_string = false;
      while (!out.empty() && (out.back() == ' ' || out.back() == '\t')) out.pop_back();
      while (i + 1 < text.size() && std::isspace(static_cast<unsigned char>(text[i + 1]))) ++i;
      out += ' ';
    } else {
      out += text[i];
    }
  }
  return out;
}


// `text` cut to `max` bytes with a marker naming the limit, if it is longer or
// `lines_left` lines were left out of it.
std::string capped(std::string text, std::size_t max, std::size_t lines_left) {
  if (text.size() <= max && lines_left == 0) return text;
  constexpr std::size_t marker_room = 128;
  text.resize(std::min(text.size(), max > marker_room ? max - marker_room : 0));
  trim_partial_utf8(text);
  if (lines_left == 0) {
    return text + fmt::format(" … [the rest left out: the breakdown passed {} bytes (max_render_size)]", max);
  }
  return text + fmt::format("\n  … [{} more line{} left out: the breakdown passed {} bytes (max_render_size)]",
                            lines_left, lines_left == 1 ? "" : "s", max);
}

}  // namespace

std::string render_breakdown(const Outcome& o, std::int64_t max_bytes) {
  const std::size_t max = max_bytes <= 0 ? 0 : static_cast<std::size_t>(max_bytes);
  if (!o.program || !o.value) return o.value ? to_display(*o.value, max_bytes) : std::string();
  const Trace& t = o.trace;
  const ast::Program& prog = *o.program->ast;
  const SourceFile& file = *o.program->source;
  // What the line shows: the main expression, or the last top-level `let`.
  Span shown;
  if (prog.main) {
    shown = prog.main->span;
  } else {
    for (const auto& s : prog.statements) {
      if (const auto* let = std::get_if<ast::GlobalLet>(&s)) shown = let->value->span;
    }
  }
  std::string value = to_display(*o.value, max_bytes);
  // A value that came out of tiers shows the number it was sorted by: "= 9 → partial".
  // Lines of their own (note(), a change of state) are not tiers.
  const auto last = std::find_if(t.events.rbegin(), t.events.rend(), [](const TraceEvent& e) { return !e.note; });
  if (last != t.events.rend() && last->result == value && last->span.file == shown.file &&
      last->span.begin >= shown.begin && last->span.end <= shown.end) {
    value = last->text;
  }
  DiceText dice(t, max);
  if (shown.empty()) return value;
  const std::string src = one_line(file.slice(shown));
  // Substitute each group's dice into the source, if every group was rolled
  // once, inside the shown text, and no two chains overlap.
  bool inline_ok = true;
  std::map<std::uint32_t, std::uint32_t> by_start;  // chain begin → group
  for (std::uint32_t g = 0; g < t.groups.size(); ++g) {
    const Span c = t.groups[g].chain;
    if (c.file != &file || c.begin < shown.begin || c.end > shown.end || by_start.count(c.begin)) {
      inline_ok = false;
      break;
    }
    by_start[c.begin] = g;
  }
  std::uint32_t prev_end = shown.begin;
  for (const auto& [begin, g] : by_start) {
    if (begin < prev_end) inline_ok = false;
    prev_end = t.groups[g].chain.end;
  }
  std::string out;
  std::size_t lines_left = 0;  // lines of dice and notes left out past max_render_size
  if (t.groups.empty()) {
    out = src == value ? value : fmt::format("{} = {}", src, value);  // not "1 = 1"
  } else if (inline_ok && t.groups.size() == 1 && t.groups[0].chain.begin == shown.begin &&
             t.groups[0].chain.end == shown.end) {
    const std::string rolled = dice.group(0);
    out = fmt::format("{} → {} = {}", src, rolled.empty() ? "[]" : rolled, value);
  } else if (inline_ok) {
    std::string body;
    std::uint32_t pos = shown.begin;
    for (const auto& [begin, g] : by_start) {
      if (body.size() > max) break;  // cut below
      body += file.text().substr(pos, begin - pos);
      body += "[" + dice.group(g) + "]";
      pos = t.groups[g].chain.end;
    }
    body += file.text().substr(pos, shown.end - pos);
    out = fmt::format("{} → {} = {}", src, one_line(body), value);
  } else {
    out = fmt::format("{} = {}", src, value);
    for (std::uint32_t g = 0; g < t.groups.size(); ++g) {
      if (out.size() > max) {
        lines_left = t.groups.size() - g;
        break;
      }
      const Span c = t.groups[g].chain;
      const std::string rolled = dice.group(g);
      out += fmt::format("\n  {}: {}", c.file ? one_line(c.file->slice(c)) : "", rolled.empty() ? "no dice" : rolled);
    }
  }
  if (const std::string c = cancellations(t, max); !c.empty()) out += "\n  " + c;
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    if (!t.events[i].note) continue;
    if (out.size() > max) {
      lines_left += static_cast<std::size_t>(
          std::count_if(t.events.begin() + static_cast<std::ptrdiff_t>(i), t.events.end(),
                        [](const TraceEvent& e) { return e.note; }));
      break;
    }
    out += "\n  " + t.events[i].text;
  }
  return capped(std::move(out), max, lines_left);
}

}  // namespace alea
