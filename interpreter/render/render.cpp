// interpreter/render/render.cpp — an Outcome as the line a person reads at the table.
//
//   4d6kh3 → 4 4 6 ~3~ = 14          ~x~   removed (dropped, cancelled, failed, rerolled)
//   3d6! → 6! 4 1 +3 = 14            x!    exploded;  +x  came from an explosion
//   5d10>=8 → 9* 2 8* 10* 1 = 3      x*    success;   x**  counts twice;  x_  failure
//   2d6r1 → ~1~→5 3 = 8              a→b   rerolled (or clamped) from a to b
//   3d6!! → 6!+6!+2 3 1 = 18         compounding rolls joined with +
//   d20 + bonus → [14] + bonus:5 = 19  a host's variable, with its value
//
// The same line for chat (Markdown, Discord) or a terminal's colours: BreakdownStyle.
#include <algorithm>
#include <cctype>
#include <map>

#include <fmt/format.h>

#include "dsl/ast_walk.hpp"
#include "interpreter/api.hpp"
#include "interpreter/program.hpp"

namespace alea {
namespace {

bool removed(DieFate f) {
  return f == DieFate::Dropped || f == DieFate::Cancelled || f == DieFate::Failed || f == DieFate::Rerolled;
}

// What a style writes around each part of the line.
struct Look {
  std::string_view removed_open = "~", removed_close = "~";  // a die dropped, cancelled, failed or rerolled
  std::string_view high_open, high_close;  // a die showing its highest face
  std::string_view low_open, low_close;    // its lowest
  std::string_view total_open, total_close;
  std::string_view code;                  // around the expression as written
  std::string_view line = "\n  ";         // what starts a further line
  bool escape = false;                    // Markdown: the text's own marks escaped
};

Look look_of(const BreakdownStyle& style) {
  Look l;
  if (style.format == BreakdownFormat::Text) {
    if (!style.color) return l;
    l.removed_open = "\x1b[2;9m~";
    l.removed_close = "~\x1b[0m";
    l.high_open = "\x1b[32m";
    l.low_open = "\x1b[31m";
    l.total_open = "\x1b[1m";
    l.high_close = l.low_close = l.total_close = "\x1b[0m";
    return l;
  }
  l.removed_open = l.removed_close = "~~";
  l.high_open = l.high_close = l.low_open = l.low_close = l.total_open = l.total_close = "**";
  l.code = "`";
  l.line = style.format == BreakdownFormat::Markdown ? "\n- " : "\n> ";
  l.escape = true;
  return l;
}

// `text` with the characters Markdown reads as marks escaped, when `l` asks for it.
std::string escaped(std::string_view text, const Look& l) {
  if (!l.escape) return std::string(text);
  std::string out;
  for (const char c : text) {
    if (c == '*' || c == '_' || c == '~' || c == '`' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// The expression as written, in a code span for Markdown (longer fences when it holds backquotes).
std::string code(std::string_view src, const Look& l) {
  if (l.code.empty()) return std::string(src);
  const std::string fence = src.find('`') == std::string_view::npos ? "`" : "`` ";
  const std::string close = fence.size() == 1 ? "`" : " ``";
  return fence + std::string(src) + close;
}

class DiceText {
 public:
  // `max`: the bytes a group's text may pass before the rest is left out.
  DiceText(const Trace& t, std::size_t max, const Look& look)
      : t_(t), max_(max), look_(look), children_(t.dice.size()), by_group_(t.groups.size()) {
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
      // ~+3~ for a dropped explosion die
      out += chain(i, d.origin == DieOrigin::Exploded || d.origin == DieOrigin::Penetrated ? "+" : "");
    }
    return out;
  }

 private:
  const Trace& t_;
  std::size_t max_;
  const Look& look_;
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
    return s.empty() ? "" : "(" + escaped(s, look_) + ")";
  }

  // A die's text, marked as removed, or as showing its highest or lowest face.
  std::string wrapped(const DieRecord& d, std::string s) const {
    if (removed(d.fate)) {
      return fmt::format("{}{}{}", look_.removed_open, s, look_.removed_close);
    }
    const DieKind& k = t_.kinds[d.kind];
    if (k.min_face() == k.max_face() || (d.marks & MarkClamped)) return s;
    if (d.rolled == k.max_face()) return fmt::format("{}{}{}", look_.high_open, s, look_.high_close);
    if (d.rolled == k.min_face()) return fmt::format("{}{}{}", look_.low_open, s, look_.low_close);
    return s;
  }

  std::string marks(const DieRecord& d) const {
    std::string s;
    if (d.marks & MarkExploded) s += '!';
    if (d.marks & MarkDouble) s += "**";
    else if (d.marks & MarkSuccess) s += '*';
    if (d.marks & MarkFailure) s += '_';
    return s;
  }

  // One die with its rerolls and compounding rolls; `prefix` ("+" for an explosion's die) goes
  // inside its marks.
  std::string chain(std::uint32_t id, std::string_view prefix = "") const {
    const auto& d = t_.dice[id];
    std::string s(prefix);
    if (d.origin == DieOrigin::Penetrated) {
      s += fmt::format("{}", d.face);
    } else if (!children_[id].empty() && t_.dice[children_[id].front()].origin == DieOrigin::Compounded) {
      // 6!+6!+2: follow the compounding rolls.
      s += fmt::format("{}!", d.rolled);
      std::uint32_t cur = children_[id].front();
      while (true) {
        const auto& c = t_.dice[cur];
        s += fmt::format("+{}{}", c.rolled, (c.marks & MarkExploded) ? "!" : "");
        if (children_[cur].empty()) break;
        cur = children_[cur].front();
      }
      std::string m = marks(d);
      if (!m.empty() && m.front() == '!') m.erase(0, 1);
      return wrapped(d, s + escaped(m, look_));
    } else if (d.marks & MarkClamped) {
      s += fmt::format("{}→{}", d.rolled, d.face);
    } else {
      s += fmt::format("{}", d.face);
    }
    s = wrapped(d, s + escaped(marks(d), look_) + tags(d));
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

// The free names of `e` that `variables` bind, and no top-level `let` of `prog` hides, as the
// spans to show them at.
std::vector<Span> variable_spans(const ast::Program& prog, const ast::Expr& e, const Bindings* variables) {
  std::vector<Span> out;
  if (!variables || variables->all().empty()) return out;
  const auto visit = [&](const ast::Expr& x, auto& self) -> void {
    const auto* n = std::get_if<ast::Name>(&x.kind);
    if (n && n->slot < 0 && !n->constant && variables->find(n->name) &&
        std::none_of(prog.statements.begin(), prog.statements.end(), [&](const ast::Statement& st) {
          const auto* g = std::get_if<ast::GlobalLet>(&st);
          return g && g->name == n->name;
        })) {
      out.push_back(x.span);
    }
    ast::for_each_child(x, [&](const ast::Expr& child) { self(child, self); });
  };
  visit(e, visit);
  return out;
}

}  // namespace

std::string breakdown_total(std::string_view value, const BreakdownStyle& style) {
  const Look l = look_of(style);
  return fmt::format("{}{}{}", l.total_open, escaped(value, l), l.total_close);
}

std::string_view breakdown_line(const BreakdownStyle& style) { return look_of(style).line; }

std::string breakdown_text(std::string_view text, const BreakdownStyle& style) {
  return escaped(text, look_of(style));
}

std::string render_breakdown(const Outcome& o, std::int64_t max_bytes) {
  return render_breakdown(o, max_bytes, BreakdownStyle{});
}

std::string render_breakdown(const Outcome& o, std::int64_t max_bytes, const BreakdownStyle& style) {
  const std::size_t max = max_bytes <= 0 ? 0 : static_cast<std::size_t>(max_bytes);
  const Look look = look_of(style);
  if (!o.program || !o.value) return o.value ? breakdown_total(to_display(*o.value, max_bytes), style) : std::string();
  const Trace& t = o.trace;
  const ast::Program& prog = *o.program->ast;
  const SourceFile& file = *o.program->source;
  // What the line shows: the main expression, or the last top-level `let`.
  const ast::Expr* shown_expr = prog.main.get();
  if (!shown_expr) {
    for (const auto& st : prog.statements) {
      if (const auto* let = std::get_if<ast::GlobalLet>(&st)) shown_expr = let->value.get();
    }
  }
  const Span shown = shown_expr ? shown_expr->span : Span{};
  std::string value = to_display(*o.value, max_bytes);
  // A value that came out of tiers shows the number it was sorted by: "= 9 → partial".
  // Lines of their own (note(), a change of state) are not tiers.
  const auto last = std::find_if(t.events.rbegin(), t.events.rend(), [](const TraceEvent& e) { return !e.note; });
  if (last != t.events.rend() && last->result == value && last->span.file == shown.file &&
      last->span.begin >= shown.begin && last->span.end <= shown.end) {
    value = last->text;
  }
  const std::string plain_value = value;
  value = breakdown_total(value, style);
  DiceText dice(t, max, look);
  if (shown.empty()) return value;
  const std::string written = one_line(file.slice(shown));
  const std::string src = code(written, look);
  // What replaces a part of the shown text: a group's dice, or a variable with its value.
  std::map<std::uint32_t, std::pair<std::uint32_t, std::string>> pieces;  // begin → end, text
  const auto variables = [&](bool outside_groups) {
    for (const Span& v : variable_spans(prog, *shown_expr, style.variables)) {
      const auto in_group = [&](const RollGroup& g) { return v.begin >= g.chain.begin && v.end <= g.chain.end; };
      if (outside_groups && std::any_of(t.groups.begin(), t.groups.end(), in_group)) continue;
      const std::string name(file.slice(v));
      pieces[v.begin] = {v.end, escaped(fmt::format("{}:{}", name, to_display(*style.variables->find(name), max_bytes)), look)};
    }
  };
  // The shown text, its pieces replaced.
  const auto replaced = [&] {
    std::string body;
    std::uint32_t pos = shown.begin;
    for (const auto& [begin, piece] : pieces) {
      if (body.size() > max) break;  // cut below
      body += escaped(one_line(file.text().substr(pos, begin - pos)), look) + piece.second;
      pos = piece.first;
    }
    return body + escaped(one_line(file.text().substr(pos, shown.end - pos)), look);
  };
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
    variables(false);
    if (!pieces.empty()) out = fmt::format("{} → {} = {}", src, replaced(), value);
    else out = written == plain_value ? value : fmt::format("{} = {}", src, value);  // not "1 = 1"
  } else if (inline_ok && t.groups.size() == 1 && t.groups[0].chain.begin == shown.begin &&
             t.groups[0].chain.end == shown.end) {
    const std::string rolled = dice.group(0);
    out = fmt::format("{} → {} = {}", src, rolled.empty() ? "[]" : rolled, value);
  } else if (inline_ok) {
    for (const auto& [begin, g] : by_start) {
      pieces[begin] = {t.groups[g].chain.end, "[" + dice.group(g) + "]"};
    }
    variables(true);
    out = fmt::format("{} → {} = {}", src, replaced(), value);
  } else {
    variables(false);
    out = pieces.empty() ? fmt::format("{} = {}", src, value) : fmt::format("{} → {} = {}", src, replaced(), value);
    for (std::uint32_t g = 0; g < t.groups.size(); ++g) {
      if (out.size() > max) {
        lines_left = t.groups.size() - g;
        break;
      }
      const Span c = t.groups[g].chain;
      const std::string rolled = dice.group(g);
      out += fmt::format("{}{}: {}", look.line, c.file ? code(one_line(c.file->slice(c)), look) : "",
                         rolled.empty() ? "no dice" : rolled);
    }
  }
  if (const std::string c = cancellations(t, max); !c.empty()) out += std::string(look.line) + escaped(c, look);
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    if (!t.events[i].note) continue;
    if (out.size() > max) {
      lines_left += static_cast<std::size_t>(
          std::count_if(t.events.begin() + static_cast<std::ptrdiff_t>(i), t.events.end(),
                        [](const TraceEvent& e) { return e.note; }));
      break;
    }
    out += std::string(look.line) + escaped(t.events[i].text, look);
  }
  return capped(std::move(out), max, lines_left);
}

}  // namespace alea
