// dsl/diagnostic.cpp — names of codes and the caret renderer.
#include "dsl/diagnostic.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace alea {
namespace {

struct CodeInfo {
  std::string_view name;
  Phase phase;
};

constexpr CodeInfo code_table[] = {
#define ALEA_DIAGNOSTIC(Name, P) {#Name, Phase::P},
#include "dsl/diagnostic_codes.def"
#undef ALEA_DIAGNOSTIC
};

void keep_alive(Diagnostic& d, const Span& s) {
  if (s.empty()) return;
  auto file = s.file->shared_from_this();
  if (std::find(d.files.begin(), d.files.end(), file) == d.files.end()) d.files.push_back(file);
}

std::string location(const Span& s) {
  if (s.empty()) return {};
  const LineColumn lc = s.file->line_column(s.begin);
  return fmt::format("{}:{}:{}: ", s.file->name(), lc.line, lc.column);
}

// The source line with a gutter, and a caret line under `s`.
void render_snippet(std::string& out, const Span& s) {
  if (s.empty() || s.file->text().empty()) return;  // nothing to show (a file that could not be read)
  const LineColumn lc = s.file->line_column(s.begin);
  std::string_view line = s.file->line_text(s.begin);
  // Keep snippets readable when the line is huge (a megabyte of input on one line).
  constexpr std::uint32_t window = 100;
  std::uint32_t col = lc.column;
  std::string shown(line);
  if (count_code_points(line) > 2 * window && col > window / 2) {
    std::size_t skip = 0, cps = 0;
    while (skip < line.size() && cps < col - window / 2) {
      ++skip;
      while (skip < line.size() && (static_cast<unsigned char>(line[skip]) & 0xC0) == 0x80) ++skip;
      ++cps;
    }
    shown = "…" + std::string(line.substr(skip));
    col = col - static_cast<std::uint32_t>(cps) + 1;
  }
  if (count_code_points(shown) > 2 * window) {
    std::size_t cut = 0, cps = 0;
    while (cut < shown.size() && cps < 2 * window) {
      ++cut;
      while (cut < shown.size() && (static_cast<unsigned char>(shown[cut]) & 0xC0) == 0x80) ++cut;
      ++cps;
    }
    shown = shown.substr(0, cut) + "…";
  }
  for (char& c : shown) {
    if (c == '\t') c = ' ';
  }
  const std::string gutter = fmt::format("{}", lc.line);
  out += fmt::format(" {} | {}\n", gutter, shown);
  // Span length in code points, limited to the rest of this line.
  std::uint32_t len = 1;
  if (s.end > s.begin) {
    const std::string_view text = s.file->slice(s);
    const std::string_view first_line = text.substr(0, text.find('\n'));
    len = std::max<std::uint32_t>(1, count_code_points(first_line));
  }
  const std::uint32_t room = count_code_points(shown) + 1 >= col ? count_code_points(shown) + 2 - col : 1;
  len = std::min(len, std::max<std::uint32_t>(1, room));
  out += fmt::format(" {} | {}^{}\n", std::string(gutter.size(), ' '), std::string(col - 1, ' '),
                     std::string(len - 1, '~'));
}

Note make_note(Span s, std::string message, NoteKind kind = NoteKind::Info, std::string callee = {}) {
  Note n;
  n.span = s;
  n.message = std::move(message);
  n.kind = kind;
  n.callee = std::move(callee);
  return n;
}

std::string depth_text(const Note& n) {
  return n.depth > 1 ? fmt::format(" ({} calls deep)", n.depth) : std::string();
}

std::string call_message(const Note& n) { return fmt::format("in a call to '{}'{}", n.callee, depth_text(n)); }

}  // namespace

std::string_view code_name(DiagCode code) { return code_table[static_cast<int>(code)].name; }
Phase code_phase(DiagCode code) { return code_table[static_cast<int>(code)].phase; }

const std::vector<DiagCode>& all_codes() {
  static const std::vector<DiagCode> codes = [] {
    std::vector<DiagCode> v;
    for (std::size_t i = 0; i < std::size(code_table); ++i) v.push_back(static_cast<DiagCode>(i));
    return v;
  }();
  return codes;
}

Diagnostic::Diagnostic(DiagCode c, Span s, std::string m) : code(c), span(s), message(std::move(m)) {
  keep_alive(*this, s);
}

Diagnostic& Diagnostic::note(Span s, std::string m) {
  keep_alive(*this, s);
  notes.push_back(make_note(s, std::move(m)));
  return *this;
}

Diagnostic& Diagnostic::note_call(Span s, std::string_view callee) {
  if (!notes.empty()) {
    Note& last = notes.back();
    if (last.kind == NoteKind::CallSite && last.callee == callee && last.span.file == s.file &&
        last.span.begin == s.begin) {
      ++last.depth;
      last.message = call_message(last);
      return *this;
    }
  }
  if (notes.size() >= 16) return *this;
  keep_alive(*this, s);
  Note n = make_note(s, {}, NoteKind::CallSite, std::string(callee));
  n.message = call_message(n);
  notes.push_back(std::move(n));
  return *this;
}

void locate_in_user_code(Diagnostic& d) {
  if (!d.span.in_library()) return;
  std::vector<const Note*> calls, info;  // each in the order added: the innermost call first
  for (const Note& n : d.notes) (n.kind == NoteKind::CallSite ? calls : info).push_back(&n);
  const auto user = std::find_if(calls.begin(), calls.end(),
                                 [](const Note* n) { return !n->span.empty() && !n->span.in_library(); });
  if (user == calls.end()) return;
  const auto k = static_cast<std::size_t>(user - calls.begin());
  std::vector<Note> notes;
  // The library's call sites in call order: calls[j] is inside the function calls[j + 1] called.
  for (std::size_t j = k; j-- > 0;) {
    Note n = *calls[j];
    n.message = fmt::format("'{}' calls '{}' here{}", calls[j + 1]->callee, n.callee, depth_text(n));
    notes.push_back(std::move(n));
  }
  notes.push_back(make_note(d.span, fmt::format("the error is here, in '{}'", calls[0]->callee)));
  for (const Note* n : info) notes.push_back(*n);
  // The callers of the user's call site, nearest first, as before.
  for (std::size_t j = k + 1; j < calls.size(); ++j) notes.push_back(*calls[j]);
  d.message = fmt::format("'{}' failed: {}", calls[k]->callee, d.message);
  d.span = calls[k]->span;
  d.notes = std::move(notes);
}

std::string render_headline(const Diagnostic& d) {
  return fmt::format("{}error: {} [{}]", location(d.span), d.message, code_name(d.code));
}

std::string render_text(const Diagnostic& d) {
  std::string out = render_headline(d) + "\n";
  render_snippet(out, d.span);
  for (const Note& n : d.notes) {
    out += fmt::format("{}note: {}\n", location(n.span), n.message);
    if (!n.span.empty() && n.span.file != d.span.file) render_snippet(out, n.span);
  }
  return out;
}

std::string render_text(const Diagnostics& ds) {
  std::string out;
  for (const auto& d : ds) out += render_text(d);
  return out;
}

Diagnostics reported(Diagnostics all, std::int64_t max_bytes) {
  std::size_t keep = 0, bytes = 0;
  const std::size_t max = max_bytes <= 0 ? 0 : static_cast<std::size_t>(max_bytes);
  while (keep < all.size() && keep < max_reported_diagnostics) {
    bytes += render_text(all[keep]).size();
    if (keep > 0 && bytes > max) break;
    ++keep;
  }
  if (keep == all.size()) return all;
  const std::size_t left = all.size() - keep;
  all.resize(keep);
  all.back().note({}, fmt::format("{} more error{} after this one, not shown (a report shows the first {}, within "
                                  "max_render_size)", left, left == 1 ? "" : "s", max_reported_diagnostics));
  return all;
}

}  // namespace alea
