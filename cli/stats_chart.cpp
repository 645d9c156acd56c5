// cli/stats_chart.cpp — the SVG charts of a comparison or a sweep: the variants' distributions
// as overlaid curves with a legend (each value's probability, or at least / at most, as
// AnyDice draws them), a sweep of one setting as a curve per variant for each measure, and a
// sweep of two settings as a heatmap of one measure.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "cli/output.hpp"
#include "cli/ruleset_commands.hpp"
#include "cli/stats_compare.hpp"
#include "cli/stats_render_parts.hpp"

namespace alea::cli {

using namespace detail;

namespace {

constexpr double chart_width = 800, chart_left = 72, chart_right = 24, panel_height = 330;
constexpr const char* palette[] = {"#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2",
                                   "#b279a2", "#eeca3b", "#9d755d", "#ff9da6", "#bab0ac"};
constexpr std::size_t colours = std::size(palette);

std::string colour(std::size_t i) { return palette[i % colours]; }

std::string document(double height, const std::string& title, const std::vector<std::string>& subtitles,
                     const std::string& body) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif\">\n",
      num(chart_width), num(height));
  out += fmt::format("<title>{}</title>\n", xml(title));
  out += "<style>\n"
         ".title{font-size:18px;font-weight:600;fill:#222}\n"
         ".subtitle{font-size:13px;fill:#555}\n"
         ".panel-title{font-size:14px;font-weight:600;fill:#333}\n"
         ".tick{font-size:11px;fill:#555}\n"
         ".axis-title{font-size:12px;fill:#333}\n"
         ".label{font-size:12px;fill:#333}\n"
         ".cell{font-size:11px}\n"
         ".grid{stroke:#e4e4e4;stroke-width:1}\n"
         ".axis{stroke:#888;stroke-width:1}\n"
         ".series{fill:none;stroke-width:2.2;stroke-linejoin:round}\n"
         "</style>\n"
         "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  std::string shown = title;
  if (columns(shown) > 70) shown = shown.substr(0, 68) + "…";
  out += fmt::format("<text x=\"{}\" y=\"30\" class=\"title\">{}</text>\n", num(chart_left), xml(shown));
  for (std::size_t i = 0; i < subtitles.size(); ++i) {
    out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"subtitle\">{}</text>\n", num(chart_left),
                       num(52 + 18 * static_cast<double>(i)), xml(subtitles[i]));
  }
  return out + body + "</svg>\n";
}

struct Series {
  std::string name;
  std::vector<std::optional<double>> y;  // one per x label
};

// A panel of curves over `xs`: the y axis from 0 (or the lowest value, for numbers that go
// below it) to a round number above the highest, in percent when `percent_axis`; the legend
// above the plot.
std::string curves_panel(double top, const std::string& title, const std::vector<std::string>& xs,
                         const std::string& x_title, const std::string& y_title, const std::vector<Series>& series,
                         bool percent_axis) {
  const double x0 = chart_left, x1 = chart_width - chart_right;
  const double legend_rows = std::ceil(static_cast<double>(series.size()) / 3);
  const double y0 = top + 34 + 18 * legend_rows, y1 = top + panel_height - 46;
  double high = 0, low = 0;
  for (const auto& s : series) {
    for (const auto& v : s.y) {
      if (v) high = std::max(high, *v), low = std::min(low, *v);
    }
  }
  if (percent_axis) high = std::min(std::max(high, 0.0001), 1.0);
  const double step = nice_step(std::max(high - low, 1e-9));
  const double ymin = low < 0 ? std::floor(low / step) * step : 0;
  const double ymax = std::max(ymin + step, std::ceil(high / step - 1e-9) * step);
  const auto y_of = [&](double v) { return y1 - (y1 - y0) * (v - ymin) / (ymax - ymin); };
  const double slot = (x1 - x0) / static_cast<double>(std::max<std::size_t>(xs.size(), 1));
  const auto x_of = [&](std::size_t i) { return x0 + slot * (static_cast<double>(i) + 0.5); };
  std::string out = "<g class=\"panel\">\n";
  out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"panel-title\">{}</text>\n", num(x0), num(top + 18), xml(title));
  for (std::size_t i = 0; i < series.size(); ++i) {
    const double lx = x0 + 240 * static_cast<double>(i % 3), ly = top + 38 + 18 * std::floor(static_cast<double>(i) / 3);
    out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"series\" stroke=\"{}\"/>\n", num(lx),
                       num(ly - 4), num(lx + 22), num(ly - 4), colour(i));
    std::string name = series[i].name;
    if (columns(name) > 30) name = name.substr(0, 29) + "…";
    out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"label\">{}</text>\n", num(lx + 28), num(ly), xml(name));
  }
  for (double t = ymin; t <= ymax + step / 2; t += step) {
    const double y = y_of(t);
    out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"grid\"/>\n", num(x0), num(y), num(x1), num(y));
    out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"end\">{}</text>\n", num(x0 - 6), num(y + 4),
                       percent_axis ? axis_percent(t, step) : decimal(t, 4));
  }
  out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"axis\"/>\n", num(x0), num(y1), num(x1), num(y1));
  std::size_t label_chars = 1;
  for (const auto& x : xs) label_chars = std::max(label_chars, columns(x));
  const auto every = static_cast<std::size_t>(std::max(1.0, std::ceil((static_cast<double>(label_chars) * 7 + 8) / slot)));
  for (std::size_t i = 0; i < xs.size(); i += every) {
    out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"middle\">{}</text>\n", num(x_of(i)),
                       num(y1 + 16), xml(xs[i]));
  }
  out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"axis-title\" text-anchor=\"middle\">{}</text>\n",
                     num((x0 + x1) / 2), num(y1 + 36), xml(x_title));
  out += fmt::format("<text class=\"axis-title\" text-anchor=\"middle\" transform=\"translate({},{}) rotate(-90)\">{}</text>\n",
                     num(x0 - 54), num((y0 + y1) / 2), xml(y_title));
  for (std::size_t i = 0; i < series.size(); ++i) {
    std::string points, dots;
    for (std::size_t k = 0; k < series[i].y.size(); ++k) {
      const auto& v = series[i].y[k];
      if (!v) continue;
      points += fmt::format("{}{},{}", points.empty() ? "" : " ", num(x_of(k)), num(y_of(*v)));
      dots += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"><title>{} at {}: {}</title></circle>\n",
                          num(x_of(k)), num(y_of(*v)), slot >= 8 ? 3 : 1.5, colour(i), xml(series[i].name), xml(xs[k]),
                          percent_axis ? percent(*v) : decimal(*v));
    }
    out += fmt::format("<polyline points=\"{}\" class=\"series\" stroke=\"{}\"/>\n", points, colour(i));
    out += dots;
  }
  return out + "</g>\n";
}

// The comparison: each variant's distribution of the value (or of the field --field names, or
// the first numeric field) as a curve.
std::optional<std::string> compare_svg(const StatsReport& r, std::string_view cumulative) {
  const Stats* first = nullptr;
  for (const auto& c : r.cells) {
    if (c.stats && !first) first = &*c.stats;
  }
  if (!first) return document(80, "no variant has a distribution", {}, "");
  std::string field;
  if (is_record_value(*first)) {
    if (!r.filter.fields.empty()) {
      field = r.filter.fields.front();
    } else {
      for (const auto& f : first->fields) {
        if (f.numeric && field.empty()) field = f.name;
      }
      if (field.empty() && !first->fields.empty()) field = first->fields.front().name;
    }
  }
  std::vector<Value> values;
  bool numeric = true;
  for (const auto& c : r.cells) {
    const Distribution* d = c.stats ? distribution_of(*c.stats, field) : nullptr;
    if (!d) continue;
    numeric = numeric && d->numeric;
    for (const auto& e : d->entries) {
      if (std::find(values.begin(), values.end(), e.value) == values.end()) values.push_back(e.value);
    }
  }
  if (numeric) {
    std::sort(values.begin(), values.end(), [](const Value& a, const Value& b) { return *a.as_int() < *b.as_int(); });
    // Every whole number in between, when not too many, so that gaps show.
    if (!values.empty()) {
      const std::int64_t lo = *values.front().as_int(), hi = *values.back().as_int();
      if (hi - lo < 400) {
        values.clear();
        for (std::int64_t v = lo; v <= hi; ++v) values.emplace_back(v);
      }
    }
  }
  if (!numeric && !cumulative.empty()) throw UsageError("--chart at-least and at-most need a numeric distribution");
  std::vector<std::string> xs;
  for (const auto& v : values) xs.push_back(shown_value(v));
  std::vector<Series> series;
  std::vector<std::string> subtitles;
  for (const auto& c : r.cells) {
    const std::string& label = r.plan->variants[c.variant].label;
    Series s{label, std::vector<std::optional<double>>(values.size())};
    const Distribution* d = c.stats ? distribution_of(*c.stats, field) : nullptr;
    if (d) {
      // The cumulative shares as the table gives them (exact fractions when exact).
      const Analysis a = analyse(*c.stats, *d);
      for (std::size_t k = 0; k < values.size(); ++k) {
        double p = 0;
        const auto& es = d->entries;
        if (cumulative.empty()) {
          for (const auto& e : es) p += e.value == values[k] ? e.probability.value : 0;
        } else if (cumulative == "at-least") {
          // The least entry at or above the value.
          for (std::size_t i = es.size(); i-- > 0 && *es[i].value.as_int() >= *values[k].as_int();) p = a.at_least[i];
        } else {
          for (std::size_t i = 0; i < es.size() && *es[i].value.as_int() <= *values[k].as_int(); ++i) p = a.at_most[i];
        }
        s.y[k] = p;
      }
    }
    series.push_back(std::move(s));
    std::string method = !c.stats                                 ? "error"
                         : c.stats->method == StatsMethod::Exact ? "exact"
                                                                  : fmt::format("sampled, {} runs", c.stats->runs);
    subtitles.push_back(fmt::format("{}: {}{}", label, method,
                                    d && d->numeric ? fmt::format(", mean {}", decimal(d->mean)) : ""));
  }
  const std::string what = field.empty() ? "value" : field;
  const std::string y_title = cumulative == "at-least" ? fmt::format("P({} ≥ x)", what)
                              : cumulative == "at-most" ? fmt::format("P({} ≤ x)", what)
                                                        : "probability";
  std::vector<std::string> labels;
  for (const auto& v : r.plan->variants) labels.push_back(v.label);
  const std::string title = fmt::format("{}", fmt::join(labels, " vs "));
  const double top = 44 + 18 * static_cast<double>(subtitles.size());
  const std::string body = curves_panel(top, cumulative.empty() ? what : fmt::format("{}, {}", what, cumulative), xs,
                                        what, y_title, series, true);
  return document(top + panel_height + 8, title, subtitles, body);
}

// Each measure as a panel, a curve per variant over the one swept setting.
std::string sweep_curves_svg(const StatsReport& r) {
  const SweepAxis& axis = r.plan->axes.front();
  std::vector<std::string> keys;
  std::vector<std::vector<Measure>> rows;
  for (const auto& c : r.cells) {
    rows.emplace_back();
    if (!c.stats) continue;
    for (auto& m : measures(*c.stats)) {
      if (!r.filter.keeps(m)) continue;
      if (std::find(keys.begin(), keys.end(), m.key) == keys.end()) keys.push_back(m.key);
      rows.back().push_back(std::move(m));
    }
  }
  std::string body;
  const double top0 = 62;
  double top = top0;
  for (const auto& key : keys) {
    std::vector<Series> series;
    bool probability = true;
    for (const auto& v : r.plan->variants) series.push_back({v.label, std::vector<std::optional<double>>(axis.values.size())});
    for (std::size_t i = 0; i < r.cells.size(); ++i) {
      const auto m = std::find_if(rows[i].begin(), rows[i].end(), [&](const Measure& x) { return x.key == key; });
      if (m == rows[i].end()) continue;
      probability = probability && m->probability;
      series[r.cells[i].variant].y[i / r.plan->variants.size()] = m->value;
    }
    body += curves_panel(top, key, axis.values, axis.name, key, series, probability);
    top += panel_height;
  }
  std::vector<std::string> labels;
  for (const auto& v : r.plan->variants) labels.push_back(v.label);
  return document(top + 8, fmt::format("{} by {}", fmt::join(labels, " vs "), axis.name), {}, body);
}

// One measure over two swept settings: a cell per pair, pale (low) to deep blue (high).
std::string heatmap_svg(const StatsReport& r, const std::string& key) {
  const auto& rows = r.plan->axes[0];
  const auto& cols = r.plan->axes[1];
  std::vector<std::optional<Measure>> found(rows.values.size() * cols.values.size());
  double low = 1e300, high = -1e300;
  bool probability = true;
  for (std::size_t i = 0; i < r.cells.size(); ++i) {
    if (!r.cells[i].stats) continue;
    for (const auto& m : measures(*r.cells[i].stats)) {
      if (m.key != key) continue;
      found[i] = m;
      low = std::min(low, m.value), high = std::max(high, m.value);
      probability = probability && m.probability;
    }
  }
  const double top = 84, x0 = chart_left + 40, x1 = chart_width - chart_right - 60;
  const double cw = (x1 - x0) / static_cast<double>(cols.values.size());
  const double ch = std::clamp(cw * 0.6, 14.0, 40.0);
  std::string body;
  body += fmt::format("<text x=\"{}\" y=\"{}\" class=\"axis-title\" text-anchor=\"middle\">{}</text>\n",
                      num((x0 + x1) / 2), num(top - 22), xml(cols.name));
  body += fmt::format("<text class=\"axis-title\" text-anchor=\"middle\" transform=\"translate({},{}) rotate(-90)\">{}</text>\n",
                      num(chart_left - 24), num(top + ch * static_cast<double>(rows.values.size()) / 2), xml(rows.name));
  for (std::size_t b = 0; b < cols.values.size(); ++b) {
    body += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"middle\">{}</text>\n",
                        num(x0 + cw * (static_cast<double>(b) + 0.5)), num(top - 6), xml(cols.values[b]));
  }
  for (std::size_t a = 0; a < rows.values.size(); ++a) {
    const double y = top + ch * static_cast<double>(a);
    body += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"end\">{}</text>\n", num(x0 - 6),
                        num(y + ch / 2 + 4), xml(rows.values[a]));
    for (std::size_t b = 0; b < cols.values.size(); ++b) {
      const auto& m = found[a * cols.values.size() + b];
      const double f = m && high > low ? (m->value - low) / (high - low) : 0.5;
      const Rgb c = heat_colour(f);
      const std::string text = m ? (probability ? percent(m->value) : decimal(m->value, 2)) : "—";
      body += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"#fff\">"
                          "<title>{}={}, {}={}: {}</title></rect>\n",
                          num(x0 + cw * static_cast<double>(b)), num(y), num(cw), num(ch),
                          m ? fmt::format("rgb({},{},{})", c.red, c.green, c.blue) : std::string("#eee"), xml(rows.name),
                          xml(rows.values[a]), xml(cols.name), xml(cols.values[b]), text);
      if (cw >= static_cast<double>(columns(text)) * 6.5 + 4) {
        body += fmt::format("<text x=\"{}\" y=\"{}\" class=\"cell\" text-anchor=\"middle\" fill=\"{}\">{}</text>\n",
                            num(x0 + cw * (static_cast<double>(b) + 0.5)), num(y + ch / 2 + 4),
                            f > 0.45 ? "#fff" : "#111", text);
      }
    }
  }
  // The scale, at the right.
  const double sx = x1 + 16, sh = ch * static_cast<double>(rows.values.size());
  for (int k = 0; k < 20; ++k) {
    const double f = 1 - (k + 0.5) / 20;
    const Rgb c = heat_colour(f);
    body += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"{}\" fill=\"rgb({},{},{})\"/>\n", num(sx),
                        num(top + sh * k / 20), num(sh / 20 + 0.5), c.red, c.green, c.blue);
  }
  if (high >= low) {
    const auto shown = [&](double v) { return probability ? percent(v) : decimal(v, 2); };
    body += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\">{}</text>\n", num(sx + 18), num(top + 10), shown(high));
    body += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\">{}</text>\n", num(sx + 18), num(top + sh), shown(low));
  }
  return document(top + sh + 24, fmt::format("{} of {}", key, r.plan->variants.front().label), {}, body);
}

}  // namespace

namespace detail {

Rgb heat_colour(double f) {
  static constexpr Rgb stops[] = {{255, 250, 205}, {65, 182, 196}, {37, 52, 148}};
  f = std::clamp(f, 0.0, 1.0) * 2;
  const Rgb& a = stops[f < 1 ? 0 : 1];
  const Rgb& b = stops[f < 1 ? 1 : 2];
  const double t = f < 1 ? f : f - 1;
  const auto mix = [t](int x, int y) { return static_cast<int>(std::lround(x + (y - x) * t)); };
  return {mix(a.red, b.red), mix(a.green, b.green), mix(a.blue, b.blue)};
}

}  // namespace detail

std::optional<std::string> report_svg(const StatsReport& r, std::string_view cumulative) {
  std::string out;
  if (!r.plan->sweeping()) {
    auto svg = compare_svg(r, cumulative);
    if (!svg) return std::nullopt;
    out = std::move(*svg);
  } else {
    if (!cumulative.empty()) throw UsageError("--chart at-least and at-most shape a comparison's chart, not a sweep's");
    if (r.plan->axes.size() == 1) {
      out = sweep_curves_svg(r);
    } else {
      std::vector<std::string> keys;
      for (const auto& c : r.cells) {
        if (!c.stats) continue;
        for (const auto& m : measures(*c.stats)) {
          if (r.filter.keeps(m) && std::find(keys.begin(), keys.end(), m.key) == keys.end()) keys.push_back(m.key);
        }
      }
      if (r.plan->axes.size() != 2 || r.plan->comparing() || keys.size() != 1) {
        throw UsageError("--svg of a sweep draws one swept setting, or a heatmap of two for one variant and one "
                         "measure (pick it with --outcome or --field)");
      }
      out = heatmap_svg(r, keys.front());
    }
  }
  if (out.size() > static_cast<std::uint64_t>(std::max<std::int64_t>(0, r.max_render_size))) return std::nullopt;
  return out;
}

}  // namespace alea::cli
