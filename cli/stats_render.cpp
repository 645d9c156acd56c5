// cli/stats_render.cpp — `alea stats` output: the terminal report and the progress line (the
// SVG chart is in stats_render_svg.cpp, the JSON document in the library's
// interpreter/render/stats_json.cpp). Cumulative columns and percentiles come from analyse()
// (interpreter/render/stats_analysis.hpp).
#include "cli/stats_render.hpp"
#include "cli/output.hpp"
#include "cli/stats_render_parts.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "interpreter/rulesets/ruleset.hpp"

namespace alea::cli {

namespace {

constexpr int screen_width = 80;

// Wilson's 95% interval for 0 of n: an outcome that was never drawn.
double wilson_high_for_zero(double n) {
  constexpr double z = 1.959963984540054;
  return n > 0 ? z * z / (n + z * z) : 1.0;
}

}  // namespace

namespace detail {

// ---- numbers as people read them --------------------------------------------------

// A number with at most `digits` decimals, without trailing zeros: 10.5, 12.2446, 7.
std::string decimal(double x, int digits) {
  std::string s = fmt::format("{:.{}f}", x, digits);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s;
}

// A probability as a percentage with two decimals; one too small (or too near
// 1) to show that way says so instead of printing 0.00% (or 100.00%).
std::string percent(double p) {
  if (p <= 0) return "0.00%";
  if (p < 0.00005) return "<0.01%";
  if (p >= 1) return "100.00%";
  if (p > 0.99995) return ">99.99%";
  return fmt::format("{:.2f}%", p * 100);
}

// A share of the runs for a sentence: "0.46%", or for a tiny one its decimal
// with two significant digits, "0.0000000012".
std::string share(double p) {
  if (p >= 0.0001 || p <= 0) return percent(p);
  const int digits = static_cast<int>(std::ceil(-std::log10(p))) + 1;
  return fmt::format("{:.{}f}", p, digits);
}

// The exact fraction when it is short enough to read at a glance: "1/216".
std::string short_fraction(const Probability& p, std::size_t longest) {
  std::string exact = p.exact_within(longest);
  if (exact.empty()) return "";
  if (exact == "0/1") return "0";
  if (exact == "1/1") return "1";
  return exact;
}

std::string interval(const Probability& p) {
  return fmt::format("{:.2f}–{:.2f}%", p.low * 100, p.high * 100);
}

std::string thousands(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string plural(std::uint64_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string shown_value(const Value& v) {
  std::string s = to_display(v);
  if (columns(s) > 40) {
    std::size_t cut = 0, cols = 0;
    while (cut < s.size() && cols < 39) {
      ++cut;
      while (cut < s.size() && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) ++cut;
      ++cols;
    }
    s = s.substr(0, cut) + "…";
  }
  return s;
}

// ---- what a distribution says ------------------------------------------------------

Shape shape_of(const Distribution& d) {
  if (d.numeric) return Shape::Numeric;
  if (!d.entries.empty() && std::all_of(d.entries.begin(), d.entries.end(),
                                        [](const DistributionEntry& e) { return e.value.as_bool(); })) {
    return Shape::Bool;
  }
  return Shape::Other;
}

bool is_record_value(const Stats& s) {
  return !s.fields.empty() &&
         std::all_of(s.value.entries.begin(), s.value.entries.end(),
                     [](const DistributionEntry& e) { return e.value.as_record() != nullptr; });
}

// Bool distributions always list false and true.
Distribution with_both_bools(const Stats& s, Distribution d) {
  for (const bool b : {false, true}) {
    if (std::any_of(d.entries.begin(), d.entries.end(),
                    [&](const DistributionEntry& e) { return e.value == Value(b); })) {
      continue;
    }
    Probability p;
    if (s.method == StatsMethod::Exact) p.set_exact("0/1");
    else p.high = wilson_high_for_zero(static_cast<double>(s.runs));
    DistributionEntry e{Value(b), p};
    if (b) d.entries.push_back(e);
    else d.entries.insert(d.entries.begin(), e);
  }
  return d;
}

std::string bool_text(const Stats& s, const Distribution& d) {
  const Distribution both = with_both_bools(s, d);
  const Probability& p = both.entries.back().probability;  // true
  if (s.method == StatsMethod::Exact) {
    if (p.exact() == "0/1") return "P(true) = 0";
    const std::string f = short_fraction(p, 24);
    return f.empty() ? fmt::format("P(true) = {}", percent(p.value))
                     : fmt::format("P(true) = {} ({})", percent(p.value), f);
  }
  return fmt::format("P(true) = {} (95% interval {})", percent(p.value), interval(p));
}

std::string pad_left(std::string_view s, std::size_t width) {
  const std::size_t n = columns(s);
  return std::string(width > n ? width - n : 0, ' ') + std::string(s);
}

std::string pad_right(std::string_view s, std::size_t width) {
  const std::size_t n = columns(s);
  return std::string(s) + std::string(width > n ? width - n : 0, ' ');
}

// A histogram bar `width` columns long at `max`, in eighths of a column.
std::string bar(double p, double max, std::size_t width) {
  if (max <= 0 || p <= 0) return "";
  static constexpr const char* partial[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
  const auto eighths = static_cast<std::size_t>(std::lround(p / max * static_cast<double>(width) * 8));
  std::string s;
  for (std::size_t i = 0; i < eighths / 8; ++i) s += "█";
  s += partial[eighths % 8];
  return s;
}

}  // namespace detail

using namespace detail;

namespace {

// ---- text --------------------------------------------------------------------------

std::string rtrim_lines(const std::string& text) {
  std::string out;
  std::size_t from = 0;
  while (from < text.size()) {
    auto nl = text.find('\n', from);
    if (nl == std::string::npos) nl = text.size();
    std::string_view line(text.data() + from, nl - from);
    while (!line.empty() && line.back() == ' ') line.remove_suffix(1);
    out += line;
    if (nl < text.size()) out += '\n';
    from = nl + 1;
  }
  return out;
}

std::string mean_text(const Stats& s, const Distribution& d) {
  std::string out = fmt::format("mean {}", decimal(d.mean));
  if (s.method == StatsMethod::Exact) {
    if (!d.exact_mean.empty() && d.exact_mean.size() <= 40 && decimal(d.mean) != d.exact_mean) {
      const std::string shown = d.exact_mean.ends_with("/1")
                                    ? d.exact_mean.substr(0, d.exact_mean.size() - 2)
                                    : d.exact_mean;
      if (shown != decimal(d.mean)) out += fmt::format(" (exact: {})", shown);
    }
  } else {
    // The mean's 95% interval, from the runs that gave a value.
    const double resolved = static_cast<double>(s.runs) * (1 - s.unresolved.value);
    if (resolved > 1) out += fmt::format(" ±{} (95%)", decimal(1.959963984540054 * d.sd / std::sqrt(resolved)));
  }
  out += fmt::format(", sd {}", decimal(d.sd));
  return out;
}

std::string percentiles_text(const Analysis& a) {
  std::string out = "percentiles";
  for (std::size_t i = 0; i < a.percentiles.size(); ++i) {
    if (!a.percentiles[i]) continue;
    out += fmt::format("  {}%: {}", percentile_points[i], *a.percentiles[i]);
  }
  return out;
}

// The table of a distribution: value, probability (with the exact fraction or
// the 95% interval), at least and at most for numbers, and a histogram bar.
// Only the rows that a text cut at `max_bytes` can show are made (their widths
// set the columns); the others are added to `left_out`, one line each, so that
// the work is bounded by the text shown and not by the distribution.
std::string table_text(const Stats& s, const Distribution& d, const Analysis& a, std::size_t max_bytes,
                       std::uint64_t& left_out) {
  const bool exact = s.method == StatsMethod::Exact;
  const bool numeric = d.numeric;
  double max = 0;  // the bars' scale, of every row
  for (const auto& e : d.entries) max = std::max(max, e.probability.value);
  std::vector<std::string> values, details, least, most;
  std::size_t detail_width = 0;
  std::size_t rows = 0;
  for (std::size_t bytes = 0; rows < d.entries.size() && bytes <= max_bytes; ++rows) {
    const DistributionEntry& e = d.entries[rows];
    values.push_back(shown_value(e.value));
    details.push_back(exact ? short_fraction(e.probability) : interval(e.probability));
    detail_width = std::max(detail_width, columns(details.back()));
    if (numeric) {
      least.push_back(percent(a.at_least[rows]));
      most.push_back(percent(a.at_most[rows]));
    }
    // The least the row holds, its trailing spaces trimmed: the value, the percentage (7 wide)
    // and for numbers both shares, each after two spaces, and the newline.
    bytes += columns(values.back()) + 2 + 7 + 1;
    if (numeric) bytes += 2 + columns(least.back()) + 2 + columns(most.back());
  }
  left_out += d.entries.size() - rows;
  const std::string prob_header = exact ? "probability" : "probability, 95% interval";
  std::vector<std::string> probs;
  for (std::size_t i = 0; i < rows; ++i) {
    std::string cell = pad_left(percent(d.entries[i].probability.value), 7);
    if (detail_width > 0) cell += "  " + pad_right(details[i], detail_width);
    probs.push_back(cell);
  }
  auto width_of = [](const std::vector<std::string>& cells, std::string_view header) {
    std::size_t w = columns(header);
    for (const auto& c : cells) w = std::max(w, columns(c));
    return w;
  };
  const std::size_t vw = width_of(values, "value");
  const std::size_t pw = width_of(probs, prob_header);
  const std::size_t lw = numeric ? width_of(least, "at least") : 0;
  const std::size_t mw = numeric ? width_of(most, "at most") : 0;
  std::size_t used = vw + 2 + pw + 2;
  if (numeric) used += lw + 2 + mw + 2;
  const std::size_t bar_width = used + 10 <= screen_width ? screen_width - used : 10;

  // Numbers are right-aligned, words left-aligned.
  auto value_cell = [&](const std::string& v) { return numeric ? pad_left(v, vw) : pad_right(v, vw); };
  std::string out = value_cell("value") + "  " + pad_right(prob_header, pw);
  if (numeric) out += "  " + pad_left("at least", lw) + "  " + pad_left("at most", mw);
  out += "\n";
  for (std::size_t i = 0; i < rows; ++i) {
    out += value_cell(values[i]) + "  " + pad_right(probs[i], pw);
    if (numeric) out += "  " + pad_left(least[i], lw) + "  " + pad_left(most[i], mw);
    out += "  " + bar(d.entries[i].probability.value, max, bar_width) + "\n";
  }
  return out;
}

// A distribution's summary and table; `title` is "" for the value itself. The table's rows past
// what a text of `max_bytes` can show are counted in `left_out` (table_text).
std::string distribution_text(const Stats& s, const Distribution& d, const std::string& title, std::size_t max_bytes,
                              std::uint64_t& left_out) {
  const std::string lead = title.empty() ? "" : title + ": ";
  switch (shape_of(d)) {
    case Shape::Numeric: {
      const Analysis a = analyse(s, d);
      return fmt::format("{}{}\n{}\n\n{}", lead, mean_text(s, d), percentiles_text(a),
                         table_text(s, d, a, max_bytes, left_out));
    }
    case Shape::Bool: {
      const Distribution both = with_both_bools(s, d);
      if (!title.empty()) return lead + bool_text(s, d) + "\n";
      return bool_text(s, d) + "\n\n" + table_text(s, both, analyse(s, both), max_bytes, left_out);
    }
    case Shape::Other:
      break;
  }
  if (d.entries.empty()) return lead + "no value\n";
  return (title.empty() ? "\n" : title + ":\n") + table_text(s, d, analyse(s, d), max_bytes, left_out);
}

// Sampling that ended early says so, and of how many runs its answer is.
std::string partial_text(const Stats& s) {
  if (s.interrupted) {
    return fmt::format("interrupted after {} of {} samples: the answer is of those, and partial\n",
                       thousands(s.runs), thousands(s.samples_asked));
  }
  if (!s.cut_short.empty()) {
    return fmt::format("sampling stopped at {} after {} of {} samples: the answer is of those\n", s.cut_short,
                       thousands(s.runs), thousands(s.samples_asked));
  }
  return "";
}

std::string header_text(const Stats& s, const StatsContext& c) {
  if (s.method == StatsMethod::Exact) {
    if (s.exact_method == "composed") return fmt::format("{}: exact (composed)\n", c.expression);
    return fmt::format("{}: exact ({})\n", c.expression, plural(s.runs, "outcome", "outcomes"));
  }
  return fmt::format("{}: sampled ({} on {}, seed {}) — {}\n", c.expression, plural(s.runs, "run", "runs"),
                     plural(s.threads, "thread", "threads"), c.seed, s.reason) +
         partial_text(s);
}

// One line per kind of run that gave no value: chains cut off, then errors.
std::string unresolved_text(const Stats& s, const StatsContext& c) {
  const bool exact = s.method == StatsMethod::Exact;
  auto amount = [&](const Probability& p) {
    if (!exact) {
      return fmt::format("{} of the {}", std::llround(p.value * static_cast<double>(s.runs)),
                         plural(s.runs, "run", "runs"));
    }
    const std::string f = short_fraction(p, 20);
    return share(p.value) + (f.empty() ? " of the runs" : fmt::format(" ({}) of the runs", f));
  };
  std::string out;
  if (s.cut_off.value > 0) {
    const std::int64_t depth = exact ? s.explosion_depth : c.engine_explosion_limit;
    const std::string rare =
        exact && s.rare_chains > 0
            ? fmt::format(", or into a pool's combination of chains rarer than {:g},", 1.0 / static_cast<double>(s.rare_chains))
            : "";
    out += fmt::format("{} went past {} in an explosion chain{} and are not counted\n", amount(s.cut_off),
                       plural(static_cast<std::uint64_t>(depth), "extra die", "extra dice"), rare);
  }
  if (s.still_looping.value > 0) {
    out += fmt::format("{} were still looping after {} and are not counted\n", amount(s.still_looping),
                       plural(static_cast<std::uint64_t>(s.loop_rounds), "round", "rounds"));
  }
  if (s.errors.value > 0) {
    out += fmt::format("{} ended in an error and are not counted; the first:\n", amount(s.errors));
    if (s.first_error) out += render_text(*s.first_error);
  }
  return out;
}

}  // namespace

// ---- declared outcomes -------------------------------------------------------------

DeclaredOutcomes declared_outcomes(const MechanicInfo& m) {
  DeclaredOutcomes out;
  if (m.returns && m.returns->kind == ast::TypeSpec::Label && !m.returns->choices.empty()) {
    out[""] = m.returns->choices;
  }
  for (const auto& f : m.result) {
    if (f.type.kind == ast::TypeSpec::Label && !f.type.choices.empty()) out[f.name] = f.type.choices;
  }
  return out;
}

void add_declared_outcomes(Stats& stats, const DeclaredOutcomes& declared) {
  auto complete = [&](Distribution& d, const std::vector<std::string>& labels) {
    // Only a distribution of labels: a field that gave other values is left as it is.
    if (d.entries.empty() || !std::all_of(d.entries.begin(), d.entries.end(),
                                          [](const DistributionEntry& e) { return e.value.as_str(); })) {
      return;
    }
    std::vector<DistributionEntry> ordered;
    for (const auto& l : labels) {
      auto it = std::find_if(d.entries.begin(), d.entries.end(),
                             [&](const DistributionEntry& e) { return *e.value.as_str() == l; });
      if (it != d.entries.end()) {
        ordered.push_back(*it);
        d.entries.erase(it);
        continue;
      }
      Probability p;
      if (stats.method == StatsMethod::Exact) p.set_exact("0/1");
      else p.high = wilson_high_for_zero(static_cast<double>(stats.runs));
      ordered.push_back({Value(l), p});
    }
    for (auto& e : d.entries) ordered.push_back(std::move(e));  // undeclared ones, last
    d.entries = std::move(ordered);
  };
  for (const auto& [name, labels] : declared) {
    if (name.empty()) {
      complete(stats.value, labels);
      continue;
    }
    for (auto& f : stats.fields) {
      if (f.name == name) complete(f, labels);
    }
  }
}

// ---- the renderers -----------------------------------------------------------------

std::string stats_text(const Stats& s, const StatsContext& c) {
  const auto max = static_cast<std::size_t>(std::max<std::int64_t>(0, c.max_render_size));
  std::uint64_t not_made = 0;  // rows no text within max can show: never made
  std::string out = header_text(s, c);
  out += unresolved_text(s, c);
  if (is_record_value(s)) {
    for (const auto& f : s.fields) out += "\n" + distribution_text(s, f, f.name, max, not_made);
  } else {
    out += distribution_text(s, s.value, "", max, not_made);
  }
  out = rtrim_lines(out);
  if (out.size() <= max) return out;  // (rows not made mean it is not: table_text)
  // Cut at the end of a line, then say how much was left out.
  std::size_t cut = out.rfind('\n', max);
  cut = cut == std::string::npos ? 0 : cut + 1;
  const auto left_out =
      not_made + static_cast<std::uint64_t>(std::count(out.begin() + static_cast<std::ptrdiff_t>(cut), out.end(), '\n'));
  out.resize(cut);
  out += fmt::format("… {} more {} left out: the text passed {} bytes (max_render_size)\n", thousands(left_out),
                     left_out == 1 ? "line" : "lines", max);
  return out;
}

Diagnostic too_large(std::string_view what, const StatsContext& c) {
  return Diagnostic(DiagCode::SizeLimitExceeded, Span{},
                    fmt::format("{} would pass {} bytes (max_render_size)", what, std::max<std::int64_t>(0, c.max_render_size)));
}

std::string write_atomically(const std::string& file, const std::string& text) {
  namespace fs = std::filesystem;
  const fs::path target(file);
  fs::path temp = target;
  temp += fmt::format(".tmp-{}", ::getpid());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) return fmt::format("cannot write '{}' (is the directory there?)", file);
    out << text;
    out.flush();
    if (!out) {
      std::error_code ec;
      fs::remove(temp, ec);
      return fmt::format("cannot write '{}'", file);
    }
  }
  std::error_code ec;
  fs::rename(temp, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    return fmt::format("cannot write '{}': {}", file, ec.message());
  }
  return "";
}

// ---- progress ----------------------------------------------------------------------

ProgressLine::ProgressLine() : terminal_(::isatty(STDERR_FILENO) != 0), start_(std::chrono::steady_clock::now()) {}

void ProgressLine::update(double fraction, std::string_view what) {
  if (!terminal_) return;
  if (!shown_ && std::chrono::steady_clock::now() - start_ < std::chrono::seconds(1)) return;
  show(fmt::format("{}… {}%", what, static_cast<int>(std::clamp(fraction, 0.0, 1.0) * 100)));
}

void ProgressLine::elapsed(double seconds, std::string_view what) {
  if (!terminal_ || seconds < 1) return;
  show(fmt::format("{}… {:.1f} s", what, std::floor(seconds * 10) / 10));
}

// The line, written over the one before only when it changes.
void ProgressLine::show(const std::string& text) {
  if (shown_ && text == last_) return;
  std::fflush(stdout);
  // Padded to the width of the line it replaces.
  std::fprintf(stderr, "\r%s%*s", text.c_str(), static_cast<int>(last_.size() > text.size() ? last_.size() - text.size() : 0), "");
  std::fflush(stderr);
  shown_ = true;
  last_ = text;
}

void ProgressLine::finish() {
  if (!shown_) return;
  std::fprintf(stderr, "\r%*s\r", static_cast<int>(last_.size()), "");
  std::fflush(stderr);
  shown_ = false;
  last_.clear();
}

}  // namespace alea::cli
