// cli/stats_render_svg.cpp — `alea stats --svg`: a distribution as a
// standalone SVG bar chart, one panel per field of a record, with the
// at-least curve for numbers and the 95% intervals when sampled.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "cli/stats_render.hpp"
#include "cli/output.hpp"
#include "cli/stats_render_parts.hpp"

namespace alea::cli {

namespace detail {

std::string xml(std::string_view s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string num(double x) { return decimal(x, 1); }

// A round step for an axis from 0 to `max` with at most about five lines.
double nice_step(double max) {
  if (max <= 0) return 0.1;
  const double raw = max / 5;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * mag >= raw) return m * mag;
  }
  return 10 * mag;
}

std::string axis_percent(double p, double step) {
  // As many decimals as the step needs.
  int digits = 0;
  for (double scaled = step * 100; digits < 6 && std::abs(scaled - std::round(scaled)) > 1e-9; scaled *= 10) ++digits;
  return fmt::format("{:.{}f}%", p * 100, digits);
}

}  // namespace detail

using namespace detail;

namespace {

constexpr double svg_width = 760;
// Numbers get a tall panel with the at-least curve; a few labels a short one.
double panel_height(const Distribution& d) { return d.numeric ? 300 : 220; }
constexpr double left = 64, right = 64;

// One chart: bars for `d`'s entries, with the at-least curve for numbers and
// the 95% intervals when sampled. `top` is where the panel starts.
std::string panel_svg(const Stats& s, const Distribution& raw, const std::string& title, double top) {
  const Shape shape = shape_of(raw);
  Distribution d = shape == Shape::Bool ? with_both_bools(s, raw) : raw;
  Analysis a = analyse(s, d);
  const bool exact = s.method == StatsMethod::Exact;
  const bool numeric = d.numeric;
  const double x0 = left, x1 = svg_width - right;
  const double y0 = top + 40, y1 = top + panel_height(raw) - 44;
  std::string out;
  out += fmt::format("<g class=\"panel\">\n");
  // A long tail too thin to see (under 0.05% beyond it) is not drawn, and the chart says so:
  // the axis then spans what the bars show.
  if (numeric && d.entries.size() > 20) {
    constexpr double thin = 0.0005;
    std::size_t lo = 0, hi = d.entries.size();
    while (hi - lo > 10 && a.at_least[hi - 1] < thin) --hi;
    while (hi - lo > 10 && a.at_most[lo] < thin) ++lo;
    std::vector<std::string> cut;
    if (lo > 0) cut.push_back(fmt::format("below {} ({})", shown_value(d.entries[lo].value), share(a.at_most[lo - 1])));
    if (hi < d.entries.size()) {
      cut.push_back(fmt::format("above {} ({})", shown_value(d.entries[hi - 1].value), share(a.at_least[hi])));
    }
    if (!cut.empty()) {
      out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"end\">values {} not drawn</text>\n",
                         num(x1), num(y1 + 34), xml(fmt::format("{}", fmt::join(cut, " and "))));
      const auto first = static_cast<std::ptrdiff_t>(lo), last = static_cast<std::ptrdiff_t>(hi);
      d.entries = std::vector<DistributionEntry>(d.entries.begin() + first, d.entries.begin() + last);
      a.at_least = std::vector<double>(a.at_least.begin() + first, a.at_least.begin() + last);
      a.at_most = std::vector<double>(a.at_most.begin() + first, a.at_most.begin() + last);
    }
  }
  if (!title.empty()) {
    out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"panel-title\">{}</text>\n", num(x0), num(top + 22), xml(title));
  }
  if (d.entries.empty()) {
    out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"label\">no value</text>\n</g>\n", num(x0), num((y0 + y1) / 2));
    return out;
  }
  double max = 0;
  for (const auto& e : d.entries) max = std::max(max, exact ? e.probability.value : std::max(e.probability.value, e.probability.high));
  if (!numeric && d.entries.size() <= 16) max *= 1.12;  // room for the values above the bars
  const double step = nice_step(max);
  // Never past 100%: the room above a bar of 100% is the panel's title line.
  const double ymax = std::min(std::max(step, std::ceil(max / step - 1e-9) * step), std::max(step, 1.0));
  auto y_of = [&](double p) { return y1 - (y1 - y0) * std::min(p, ymax) / ymax; };

  // Grid and the left axis.
  for (double t = 0; t <= ymax + step / 2; t += step) {
    const double y = y_of(t);
    out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"grid\"/>\n", num(x0), num(y), num(x1), num(y));
    out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"end\">{}</text>\n", num(x0 - 6), num(y + 4),
                       axis_percent(t, step));
  }
  out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"axis\"/>\n", num(x0), num(y1), num(x1), num(y1));
  // The axes' titles: what the bars are of, and that their height is a probability.
  out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"axis-title\" text-anchor=\"middle\">{}</text>\n",
                     num((x0 + x1) / 2), num(y1 + 34), xml(raw.name.empty() ? "value" : raw.name));
  out += fmt::format(
      "<text class=\"axis-title\" text-anchor=\"middle\" transform=\"translate({},{}) rotate(-90)\">probability</text>\n",
      num(x0 - 50), num((y0 + y1) / 2));

  // Slots: one per whole number from the least value to the greatest when the
  // values are numbers not too far apart, so that gaps show; else one per entry.
  std::vector<double> slot_of(d.entries.size());
  std::size_t slots = d.entries.size();
  std::int64_t lowest = 0;
  bool by_number = false;
  if (numeric) {
    lowest = *d.entries.front().value.as_int();
    const std::int64_t span = *d.entries.back().value.as_int() - lowest + 1;
    by_number = span > 0 && span <= 400 && static_cast<std::size_t>(span) <= 4 * d.entries.size();
    if (by_number) slots = static_cast<std::size_t>(span);
  }
  for (std::size_t i = 0; i < d.entries.size(); ++i) {
    slot_of[i] = by_number ? static_cast<double>(*d.entries[i].value.as_int() - lowest) : static_cast<double>(i);
  }
  const double slot = (x1 - x0) / static_cast<double>(slots);
  const double bar_w = std::clamp(slot * 0.8, 1.0, 90.0);
  auto centre = [&](double k) { return x0 + slot * (k + 0.5); };

  // Labels under the axis, thinned so that they do not overlap.
  std::size_t label_chars = 1;
  std::vector<std::string> labels;
  for (const auto& e : d.entries) {
    labels.push_back(shown_value(e.value));
    label_chars = std::max(label_chars, columns(labels.back()));
  }
  const double label_px = static_cast<double>(label_chars) * 7.5 + 8;
  auto every = static_cast<std::size_t>(std::max(1.0, std::ceil(label_px / slot)));
  if (by_number) {
    // Whole numbers are labelled at round steps: every 2, 5, 10, 20, 50…
    std::size_t round = 1;
    for (std::size_t m = 1; round < every; m *= 10) {
      for (const std::size_t f : {1, 2, 5}) {
        if (round < every) round = f * m;
      }
    }
    every = round;
    for (std::size_t k = 0; k < slots; ++k) {
      const std::int64_t v = lowest + static_cast<std::int64_t>(k);
      if (v % static_cast<std::int64_t>(every) != 0 && every > 1) continue;
      out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"middle\">{}</text>\n",
                         num(centre(static_cast<double>(k))), num(y1 + 16), v);
    }
  } else {
    for (std::size_t i = 0; i < d.entries.size(); i += every) {
      out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"middle\">{}</text>\n",
                         num(centre(slot_of[i])), num(y1 + 16), xml(labels[i]));
    }
  }

  // Bars, each with a tooltip; the 95% interval as a whisker when sampled.
  for (std::size_t i = 0; i < d.entries.size(); ++i) {
    const Probability& p = d.entries[i].probability;
    const double cx = centre(slot_of[i]);
    const double y = y_of(p.value);
    std::string tip = fmt::format("{}: {}", labels[i], percent(p.value));
    if (exact && !short_fraction(p, 24).empty()) tip += fmt::format(" ({})", short_fraction(p, 24));
    if (!exact) tip += fmt::format(" (95%: {})", interval(p));
    if (numeric) tip += fmt::format("; at least {}, at most {}", percent(a.at_least[i]), percent(a.at_most[i]));
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"bar\"><title>{}</title></rect>\n",
                       num(cx - bar_w / 2), num(y), num(bar_w), num(std::max(0.0, y1 - y)), xml(tip));
    if (!numeric && d.entries.size() <= 16) {
      // A few labels: each bar's probability above it.
      out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"value\" text-anchor=\"middle\">{}</text>\n", num(cx),
                         num(y_of(exact ? p.value : p.high) - 5), percent(p.value));
    }
    if (!exact && slot >= 4) {
      out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"whisker\"/>\n", num(cx), num(y_of(p.low)),
                         num(cx), num(y_of(p.high)));
    }
  }

  // The at-least curve, on its own axis at the right (0–100%); not for a single value, which
  // has no curve to draw.
  if (numeric && d.entries.size() > 1) {
    std::string points;
    auto y_least = [&](double p) { return y1 - (y1 - y0) * p; };
    for (std::size_t i = 0; i < d.entries.size(); ++i) {
      points += fmt::format("{}{},{}", points.empty() ? "" : " ", num(centre(slot_of[i])), num(y_least(a.at_least[i])));
    }
    out += fmt::format("<polyline points=\"{}\" class=\"least\"/>\n", points);
    for (const double t : {0.0, 0.25, 0.5, 0.75, 1.0}) {
      out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick least-tick\">{}%</text>\n", num(x1 + 6),
                         num(y_least(t) + 4), static_cast<int>(t * 100));
    }
    // The legend, top right of the panel.
    const double lx = x1 - 230, ly = top + 17;
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"10\" class=\"bar\"/>\n", num(lx), num(ly - 5));
    out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"label\">probability</text>\n", num(lx + 17), num(ly + 4));
    out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"least\"/>\n", num(lx + 110), num(ly),
                       num(lx + 128), num(ly));
    out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"label\">at least (right axis)</text>\n", num(lx + 133),
                       num(ly + 4));
  }
  out += "</g>\n";
  return out;
}

// What the runs without a value were, in a few words.
std::string unresolved_cause(const Stats& s) {
  const int causes = (s.cut_off.value > 0) + (s.errors.value > 0) + (s.still_looping.value > 0);
  if (causes > 1) return "chains cut off, errors or loops still running";
  if (s.errors.value > 0) return "an error";
  if (s.still_looping.value > 0) return "a loop still running";
  return "an explosion chain cut off";
}

std::string panel_title(const Stats& s, const Distribution& d, const std::string& name) {
  switch (shape_of(d)) {
    case Shape::Numeric: return fmt::format("{}: mean {}, sd {}", name, decimal(d.mean), decimal(d.sd));
    case Shape::Bool: return fmt::format("{}: {}", name, bool_text(s, d));
    case Shape::Other: break;
  }
  return name;
}

}  // namespace

std::optional<std::string> stats_svg(const Stats& s, const StatsContext& c) {
  constexpr std::uint64_t bar_bytes = 64;  // a bar takes more
  if (too_many_entries(s, bar_bytes, c.max_render_size)) return std::nullopt;
  const bool record = is_record_value(s);
  std::vector<std::pair<const Distribution*, std::string>> panels;
  if (record) {
    for (const auto& f : s.fields) panels.emplace_back(&f, panel_title(s, f, f.name));
  } else {
    panels.emplace_back(&s.value, "");
  }
  const bool exact = s.method == StatsMethod::Exact;
  const std::string method =
      exact ? (s.exact_method == "composed" ? std::string("exact: composed")
                                            : fmt::format("exact: {}", plural(s.runs, "outcome", "outcomes")))
            : fmt::format("sampled: {} on {}, seed {}; whiskers show 95% intervals", plural(s.runs, "run", "runs"),
                          plural(s.threads, "thread", "threads"), c.seed);
  std::string summary;
  if (!record && s.value.numeric) {
    summary = fmt::format("mean {}{}, sd {}", decimal(s.value.mean),
                          exact && !s.value.exact_mean.empty() && s.value.exact_mean.size() <= 40 &&
                                  !s.value.exact_mean.ends_with("/1")
                              ? fmt::format(" ({})", s.value.exact_mean)
                              : "",
                          decimal(s.value.sd));
  } else if (!record && shape_of(s.value) == Shape::Bool) {
    summary = bool_text(s, s.value);
  }
  if (s.unresolved.value > 0) {
    summary += fmt::format("{}{} of the runs gave no value ({}) and are not shown", summary.empty() ? "" : "; ",
                           share(s.unresolved.value),
                           unresolved_cause(s));
  }
  // The title is the expression, in a smaller font if it is long, cut if still too long.
  const double room = svg_width - 2 * left + right / 2;
  std::string title = c.expression;
  double title_size = 18;
  const auto title_px = [&](double size) { return static_cast<double>(columns(title)) * size * 0.6; };
  while (title_size > 12 && title_px(title_size) > room) title_size -= 1;
  if (title_px(title_size) > room) {
    const auto keep = static_cast<std::size_t>(room / (title_size * 0.6)) - 1;
    title = shown_value(Value(title.substr(0, keep))) + "…";
  }
  std::vector<std::string> lines{method};
  if (!exact) lines.push_back(fmt::format("sampled because {}", s.reason));
  if (!summary.empty()) lines.push_back(summary);
  const double header = 44 + 18 * static_cast<double>(lines.size());
  double height = header + 8;
  for (const auto& [d, name] : panels) height += panel_height(*d);
  std::string out;
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif\">\n",
      num(svg_width), num(height));
  out += fmt::format("<title>{}</title>\n", xml(c.expression + " — " + method));
  out += "<style>\n"
         ".title{font-weight:600;fill:#222}\n"
         ".subtitle{font-size:13px;fill:#555}\n"
         ".panel-title{font-size:14px;font-weight:600;fill:#333}\n"
         ".tick{font-size:11px;fill:#555}\n"
         ".least-tick{fill:#c0590a}\n"
         ".label{font-size:12px;fill:#333}\n"
         ".axis-title{font-size:12px;fill:#333}\n"
         ".value{font-size:11px;fill:#333}\n"
         ".grid{stroke:#e4e4e4;stroke-width:1}\n"
         ".axis{stroke:#888;stroke-width:1}\n"
         ".bar{fill:#4c78a8}\n"
         ".bar:hover{fill:#2f5b8c}\n"
         ".whisker{stroke:#1d3557;stroke-width:1.2}\n"
         ".least{fill:none;stroke:#f58518;stroke-width:2;stroke-linejoin:round}\n"
         "</style>\n";
  out += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  out += fmt::format("<text x=\"{}\" y=\"30\" class=\"title\" font-size=\"{}\">{}</text>\n", num(left),
                     num(title_size), xml(title));
  for (std::size_t i = 0; i < lines.size(); ++i) {
    out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"subtitle\">{}</text>\n", num(left),
                       num(52 + 18 * static_cast<double>(i)), xml(lines[i]));
  }
  double top = header;
  for (const auto& [d, name] : panels) {
    out += panel_svg(s, *d, name, top);
    top += panel_height(*d);
  }
  out += "</svg>\n";
  if (out.size() > static_cast<std::uint64_t>(std::max<std::int64_t>(0, c.max_render_size))) return std::nullopt;
  return out;
}

}  // namespace alea::cli
