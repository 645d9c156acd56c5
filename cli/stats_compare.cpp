// cli/stats_compare.cpp — the reports of a comparison or a sweep as text, CSV and JSON (the
// SVG charts are in stats_chart.cpp).
#include "cli/stats_compare.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

#include "cli/output.hpp"
#include "cli/ruleset_commands.hpp"
#include "cli/stats_render_parts.hpp"
#include "interpreter/render/json_documents.hpp"

namespace alea::cli {

using namespace detail;

namespace {

// A label distribution with more values than this gives no measure per value.
constexpr std::size_t max_outcomes = 24;
constexpr std::size_t report_columns = 80;
// A variant is named by its label in a table's heading when every label is at most this wide.
constexpr std::size_t widest_heading = 16;

void add_measures(std::vector<Measure>& out, const Stats& s, const Distribution& d, const std::string& field) {
  const std::string prefix = field.empty() ? "" : field + " ";
  switch (shape_of(d)) {
    case Shape::Numeric:
      out.push_back({prefix + "mean", field, "", false, d.mean, s.method == StatsMethod::Exact ? d.exact_mean : ""});
      if (field.empty()) out.push_back({"sd", field, "", false, d.sd, ""});
      return;
    case Shape::Bool: {
      const Distribution both = with_both_bools(s, d);
      const Probability& p = both.entries.back().probability;  // true
      const std::string outcome = field.empty() ? "true" : field;
      out.push_back({fmt::format("P({})", outcome), field, outcome, true, p.value, p.exact()});
      return;
    }
    case Shape::Other:
      // Named outcomes are labels (and plain values); a list or a record is no outcome to ask for.
      if (d.entries.size() > max_outcomes) return;
      if (std::any_of(d.entries.begin(), d.entries.end(), [](const DistributionEntry& e) {
            return e.value.as_list() || e.value.as_record() || e.value.as_pool();
          })) {
        return;
      }
      for (const auto& e : d.entries) {
        const std::string label = shown_value(e.value);
        out.push_back({field.empty() ? fmt::format("P({})", label) : fmt::format("P({}={})", field, label), field, label,
                       true, e.probability.value, e.probability.exact()});
      }
  }
}

std::string letter(std::size_t i) { return i < 26 ? std::string(1, static_cast<char>('A' + i)) : fmt::format("V{}", i + 1); }

std::string method_text(const StatsCell& c) {
  if (!c.stats) return "error";
  const Stats& s = *c.stats;
  if (s.method == StatsMethod::Exact) return s.exact_method == "composed" ? "exact (composed)" : "exact";
  if (s.interrupted) return fmt::format("sampled, interrupted after {}", plural(s.runs, "run", "runs"));
  if (!s.cut_short.empty()) return fmt::format("sampled ({}, cut short by {})", plural(s.runs, "run", "runs"), s.cut_short);
  return fmt::format("sampled ({})", plural(s.runs, "run", "runs"));
}

std::string short_method(const StatsCell& c) {
  return !c.stats ? "error" : c.stats->method == StatsMethod::Exact ? "exact" : "sampled";
}

std::string measure_text(const Measure& m) { return m.probability ? percent(m.value) : decimal(m.value); }

std::string difference_text(const Measure& m, const Measure& first) {
  const double d = m.value - first.value;
  if (m.probability) {
    if (std::abs(d) < 0.00005) return "0 pp";
    return fmt::format("{:+.2f} pp", d * 100);
  }
  const std::string t = decimal(d);
  return t == "0" || t.starts_with('-') ? t : "+" + t;
}

// The measures each cell keeps, and the keys of all in the order first met.
struct Table {
  std::vector<std::vector<Measure>> rows;  // one per cell
  std::vector<std::string> keys;
  [[nodiscard]] const Measure* find(std::size_t row, const std::string& key) const {
    for (const auto& m : rows[row]) {
      if (m.key == key) return &m;
    }
    return nullptr;
  }
};

Table table_of(const StatsReport& r) {
  Table t;
  for (const auto& c : r.cells) {
    std::vector<Measure> kept;
    if (c.stats) {
      for (auto& m : measures(*c.stats)) {
        if (!r.filter.keeps(m)) continue;
        if (std::find(t.keys.begin(), t.keys.end(), m.key) == t.keys.end()) t.keys.push_back(m.key);
        kept.push_back(std::move(m));
      }
    }
    t.rows.push_back(std::move(kept));
  }
  return t;
}

// Lines of cells, each column as wide as its widest cell; column k is aligned as align[k] says
// ('l' left, 'r' right), and those past its end right.
std::string columns_text(const std::vector<std::vector<std::string>>& lines, std::string_view align) {
  std::vector<std::size_t> width;
  for (const auto& line : lines) {
    width.resize(std::max(width.size(), line.size()));
    for (std::size_t k = 0; k < line.size(); ++k) width[k] = std::max(width[k], columns(line[k]));
  }
  std::string out;
  for (const auto& line : lines) {
    std::string text;
    for (std::size_t k = 0; k < line.size(); ++k) {
      if (k > 0) text += "  ";
      text += k < align.size() && align[k] == 'l' ? pad_right(line[k], width[k]) : pad_left(line[k], width[k]);
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  }
  return out;
}

std::vector<std::string> headings(const StatsReport& r) {
  std::vector<std::string> out;
  const auto& vs = r.plan->variants;
  const bool by_label =
      std::all_of(vs.begin(), vs.end(), [](const auto& v) { return columns(v.label) <= widest_heading; });
  for (std::size_t i = 0; i < vs.size(); ++i) out.push_back(by_label ? vs[i].label : letter(i));
  return out;
}

// What no cell can show: each failed cell's first line, and an interruption.
std::string problems_text(const StatsReport& r) {
  std::string out;
  for (const auto& c : r.cells) {
    if (c.stats || c.diagnostics.empty()) continue;
    std::string where = r.plan->variants[c.variant].label;
    for (std::size_t k = 0; k < c.values.size(); ++k) where += fmt::format(" {}={}", r.plan->axes[k].name, c.values[k]);
    out += fmt::format("{}: {}\n", where, c.diagnostics.front().message);
  }
  if (r.interrupted()) {
    out += fmt::format("interrupted after {} of {} cells: the rows above are those done\n", r.cells.size(),
                       r.cells_asked);
  }
  return out;
}

// The distributions the histograms show: the value when it is not a record, else the fields
// --field names, else the first numeric field; none when --outcome alone picks the measures.
std::vector<std::string> histogram_fields(const StatsReport& r) {
  const Stats* first = nullptr;
  for (const auto& c : r.cells) {
    if (c.stats) {
      first = &*c.stats;
      break;
    }
  }
  // Only --outcome: the probabilities asked for, and no histogram.
  if (!first || (r.filter.fields.empty() && !r.filter.outcomes.empty())) return {};
  if (!is_record_value(*first)) {
    // true or false: the table's P(true) says it all.
    return shape_of(first->value) == Shape::Bool ? std::vector<std::string>{} : std::vector<std::string>{""};
  }
  if (!r.filter.fields.empty()) return r.filter.fields;
  for (const auto& f : first->fields) {
    if (f.numeric) return {f.name};
  }
  return {};
}

// Each value's probability under each variant, a line per variant, the value on the first.
std::string histogram_text(const StatsReport& r, const std::string& field) {
  std::vector<const Distribution*> ds;
  for (const auto& c : r.cells) ds.push_back(c.stats ? distribution_of(*c.stats, field) : nullptr);
  std::vector<Value> values;
  bool numeric = true;
  double max = 0;
  for (const auto* d : ds) {
    if (!d) continue;
    numeric = numeric && d->numeric;
    for (const auto& e : d->entries) {
      max = std::max(max, e.probability.value);
      if (std::find(values.begin(), values.end(), e.value) == values.end()) values.push_back(e.value);
    }
  }
  if (values.empty()) return "";
  if (numeric) {
    std::sort(values.begin(), values.end(), [](const Value& a, const Value& b) { return *a.as_int() < *b.as_int(); });
  }
  std::vector<std::vector<std::string>> lines{{"value", "", "probability"}};
  std::vector<double> ps;
  for (const auto& v : values) {
    for (std::size_t i = 0; i < ds.size(); ++i) {
      double p = 0;
      if (ds[i]) {
        for (const auto& e : ds[i]->entries) {
          if (e.value == v) p = e.probability.value;
        }
      }
      lines.push_back({i == 0 ? shown_value(v) : "", letter(r.cells[i].variant), percent(p)});
      ps.push_back(p);
    }
  }
  const std::string table = columns_text(lines, numeric ? "rl" : "ll");
  std::size_t used = 0;
  for (std::size_t from = 0; from < table.size();) {
    const auto nl = table.find('\n', from);
    used = std::max(used, columns(std::string_view(table).substr(from, nl - from)));
    from = nl + 1;
  }
  const std::size_t width = used + 12 <= report_columns ? report_columns - used - 2 : 10;
  std::string out = (field.empty() ? std::string() : field + ":\n");
  std::size_t from = 0, row = 0;
  for (std::size_t k = 0; from < table.size(); ++k) {
    const auto nl = table.find('\n', from);
    std::string line = table.substr(from, nl - from);
    if (k > 0) {
      line = pad_right(line, used) + "  " + bar(ps[row++], max, width);
      while (!line.empty() && line.back() == ' ') line.pop_back();
    }
    out += line + "\n";
    from = nl + 1;
  }
  return out;
}

std::string compare_text(const StatsReport& r) {
  const Table t = table_of(r);
  const std::vector<std::string> heads = headings(r);
  std::string out;
  std::vector<std::vector<std::string>> legend;
  for (std::size_t i = 0; i < r.cells.size(); ++i) {
    legend.push_back({letter(i), r.plan->variants[r.cells[i].variant].label + ":", method_text(r.cells[i])});
  }
  out += columns_text(legend, "lll") + "\n";
  const std::size_t n = r.cells.size();
  std::vector<std::vector<std::string>> lines;
  std::vector<std::string> head{""};
  for (std::size_t i = 0; i < n; ++i) head.push_back(heads[r.cells[i].variant]);
  for (std::size_t i = 1; i < n; ++i) head.push_back(n == 2 ? "Δ" : fmt::format("{}−{}", heads[i], heads[0]));
  lines.push_back(head);
  for (const auto& key : t.keys) {
    std::vector<std::string> line{key};
    for (std::size_t i = 0; i < n; ++i) {
      const Measure* m = t.find(i, key);
      line.push_back(m ? measure_text(*m) : "—");
    }
    const Measure* first = t.find(0, key);
    for (std::size_t i = 1; i < n; ++i) {
      const Measure* m = t.find(i, key);
      line.push_back(m && first ? difference_text(*m, *first) : "—");
    }
    lines.push_back(line);
  }
  out += columns_text(lines, "l");
  for (const auto& field : histogram_fields(r)) {
    if (const std::string h = histogram_text(r, field); !h.empty()) out += "\n" + h;
  }
  if (const std::string p = problems_text(r); !p.empty()) out += "\n" + p;
  return out;
}

// The 2-D table of one measure: a row per value of the first swept setting, a column per value
// of the second; coloured from light (low) to dark (high) on a terminal.
std::string heatmap_text(const StatsReport& r, const Table& t) {
  const auto& key = t.keys.front();
  const auto& rows = r.plan->axes[0].values;
  const auto& cols = r.plan->axes[1].values;
  std::vector<std::vector<std::string>> lines;
  lines.push_back({fmt::format("{} \\ {}", r.plan->axes[0].name, r.plan->axes[1].name)});
  for (const auto& c : cols) lines.back().push_back(c);
  double low = 1e300, high = -1e300;
  for (std::size_t i = 0; i < r.cells.size(); ++i) {
    if (const Measure* m = t.find(i, key)) low = std::min(low, m->value), high = std::max(high, m->value);
  }
  std::vector<std::vector<const Measure*>> found(rows.size(), std::vector<const Measure*>(cols.size()));
  for (std::size_t i = 0; i < r.cells.size(); ++i) {
    found[i / cols.size()][i % cols.size()] = t.find(i, key);
  }
  for (std::size_t a = 0; a < rows.size(); ++a) {
    lines.push_back({rows[a]});
    for (std::size_t b = 0; b < cols.size(); ++b) {
      const Measure* m = found[a][b];
      const bool done = a * cols.size() + b < r.cells.size();
      lines.back().push_back(m ? measure_text(*m) : done ? "error" : "");
    }
  }
  std::string table = columns_text(lines, "l");
  if (r.colour) {
    // Colour each cell's text in place: split the aligned lines back into their cells.
    std::string coloured;
    std::size_t from = 0;
    for (std::size_t a = 0; from < table.size(); ++a) {
      const auto nl = table.find('\n', from);
      std::string line = table.substr(from, nl - from);
      from = nl + 1;
      if (a == 0) {
        coloured += line + "\n";
        continue;
      }
      std::string out;
      std::size_t at = line.find("  ");  // after the row's heading
      out += line.substr(0, at);
      for (std::size_t b = 0; b < cols.size() && at < line.size(); ++b) {
        const std::size_t start = line.find_first_not_of(' ', at);
        std::size_t end = line.find(' ', start);
        if (end == std::string::npos) end = line.size();
        const Measure* m = found[a - 1][b];
        const double f = m && high > low ? (m->value - low) / (high - low) : 0.5;
        const Rgb c = heat_colour(f);
        out += line.substr(at, start - at);
        if (m) {
          out += fmt::format("\x1b[48;2;{};{};{}m\x1b[38;2;{}m{}\x1b[0m", c.red, c.green, c.blue,
                             f > 0.45 ? "255;255;255" : "0;0;0", line.substr(start, end - start));
        } else {
          out += line.substr(start, end - start);
        }
        at = end;
      }
      coloured += out + "\n";
    }
    table = coloured;
  }
  return fmt::format("{}{}\n", key, r.plan->variants.size() == 1 && r.plan->variants[0].label.empty()
                                         ? ""
                                         : fmt::format(" of {}", r.plan->variants[0].label)) +
         table;
}

std::string grid_text(const StatsReport& r) {
  const Table t = table_of(r);
  const bool several = r.plan->comparing();
  if (r.plan->axes.size() == 2 && !several && t.keys.size() == 1) {
    std::string out = heatmap_text(r, t);
    if (const std::string p = problems_text(r); !p.empty()) out += "\n" + p;
    return out;
  }
  const std::vector<std::string> heads = headings(r);
  std::vector<std::vector<std::string>> lines;
  std::vector<std::string> head;
  for (const auto& a : r.plan->axes) head.push_back(a.name);
  if (several && t.keys.size() == 1) {
    // One measure of several variants: a column each, and the differences against the first.
    const std::size_t n = r.plan->variants.size();
    for (std::size_t v = 0; v < n; ++v) head.push_back(heads[v]);
    for (std::size_t v = 1; v < n; ++v) head.push_back(n == 2 ? "Δ" : fmt::format("{}−{}", heads[v], heads[0]));
    lines.push_back(head);
    for (std::size_t at = 0; at < r.cells.size(); at += n) {
      std::vector<std::string> line = r.cells[at].values;
      const Measure* first = t.find(at, t.keys.front());
      for (std::size_t v = 0; v < n; ++v) {
        const Measure* m = at + v < r.cells.size() ? t.find(at + v, t.keys.front()) : nullptr;
        line.push_back(m ? measure_text(*m) : at + v < r.cells.size() ? "error" : "");
      }
      for (std::size_t v = 1; v < n; ++v) {
        const Measure* m = at + v < r.cells.size() ? t.find(at + v, t.keys.front()) : nullptr;
        line.push_back(m && first ? difference_text(*m, *first) : "—");
      }
      lines.push_back(std::move(line));
    }
    std::string out;
    if (heads.front() == letter(0)) {
      std::vector<std::vector<std::string>> legend;
      for (std::size_t i = 0; i < n; ++i) legend.push_back({letter(i), r.plan->variants[i].label});
      out += columns_text(legend, "ll") + "\n";
    }
    out += fmt::format("{}\n", t.keys.front()) + columns_text(lines, std::string(r.plan->axes.size(), 'l'));
    if (const std::string p = problems_text(r); !p.empty()) out += "\n" + p;
    return out;
  }
  if (several) head.push_back("variant");
  head.push_back("method");
  for (const auto& k : t.keys) head.push_back(k);
  lines.push_back(head);
  for (std::size_t i = 0; i < r.cells.size(); ++i) {
    const StatsCell& c = r.cells[i];
    std::vector<std::string> line = c.values;
    if (several) line.push_back(heads[c.variant]);
    line.push_back(short_method(c));
    for (const auto& k : t.keys) {
      const Measure* m = t.find(i, k);
      line.push_back(m ? measure_text(*m) : "—");
    }
    lines.push_back(line);
  }
  std::string out;
  if (several && heads.front() == letter(0)) {
    std::vector<std::vector<std::string>> legend;
    for (std::size_t i = 0; i < r.plan->variants.size(); ++i) legend.push_back({letter(i), r.plan->variants[i].label});
    out += columns_text(legend, "ll") + "\n";
  }
  // The swept values and the names are left-aligned; the numbers right.
  out += columns_text(lines, std::string(r.plan->axes.size() + (several ? 2 : 1), 'l'));
  if (const std::string p = problems_text(r); !p.empty()) out += "\n" + p;
  return out;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

nlohmann::ordered_json setting_json(const std::string& text) {
  std::int64_t v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec == std::errc() && r.ptr == text.data() + text.size()) return v;
  return text;
}

nlohmann::ordered_json measure_json(const Measure& m) {
  nlohmann::ordered_json j = {{"key", m.key}, {"field", m.field.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(m.field)},
                      {"outcome", m.outcome.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(m.outcome)},
                      {"probability", m.probability}};
  return j;
}

}  // namespace

const Distribution* distribution_of(const Stats& s, const std::string& field) {
  if (field.empty()) return &s.value;
  for (const auto& f : s.fields) {
    if (f.name == field) return &f;
  }
  return nullptr;
}


std::vector<Measure> measures(const Stats& s) {
  std::vector<Measure> out;
  if (is_record_value(s)) {
    for (const auto& f : s.fields) add_measures(out, s, f, f.name);
  } else {
    add_measures(out, s, s.value, "");
  }
  if (s.unresolved.value > 0) {
    out.push_back({"unresolved", "", "", true, s.unresolved.value, s.unresolved.exact()});
  }
  return out;
}

// How --outcome names a measure: "true" or a label of the value itself, a bool field's name,
// or FIELD=LABEL.
std::string outcome_name(const Measure& m) {
  return m.field.empty() || m.field == m.outcome ? m.outcome : m.field + "=" + m.outcome;
}

bool MeasureFilter::keeps(const Measure& m) const {
  if (empty()) return true;
  if (!m.field.empty() && std::find(fields.begin(), fields.end(), m.field) != fields.end()) return true;
  if (!m.probability || m.key == "unresolved") return false;
  return std::find(outcomes.begin(), outcomes.end(), outcome_name(m)) != outcomes.end();
}

MeasureFilter resolve_filter(const MeasureFilter& filter, const Stats& s) {
  const std::vector<Measure> all = measures(s);
  std::vector<std::string> fields, outcomes;
  for (const auto& m : all) {
    if (!m.field.empty() && std::find(fields.begin(), fields.end(), m.field) == fields.end()) fields.push_back(m.field);
    if (m.probability && m.key != "unresolved") outcomes.push_back(outcome_name(m));
  }
  for (const auto& f : filter.fields) {
    if (std::find(fields.begin(), fields.end(), f) != fields.end()) continue;
    throw UsageError(fields.empty() ? fmt::format("--field {}: the value is not a record; it has no fields", f)
                                    : fmt::format("--field {}: no such field; the fields are {}", f,
                                                  fmt::join(fields, ", ")));
  }
  MeasureFilter out{filter.fields, {}};
  for (const auto& o : filter.outcomes) {
    // `success` is the bool field of that name if there is one, else every label `success`.
    if (std::find(outcomes.begin(), outcomes.end(), o) != outcomes.end()) {
      out.outcomes.push_back(o);
      continue;
    }
    const auto before = out.outcomes.size();
    for (const auto& m : all) {
      if (m.probability && m.key != "unresolved" && m.outcome == o) out.outcomes.push_back(outcome_name(m));
    }
    if (out.outcomes.size() > before) continue;
    throw UsageError(outcomes.empty() ? fmt::format("--outcome {}: the value has no named outcomes", o)
                                      : fmt::format("--outcome {}: no such outcome; the outcomes are {}", o,
                                                    fmt::join(outcomes, ", ")));
  }
  return out;
}

std::string report_text(const StatsReport& r) {
  return r.plan->sweeping() ? grid_text(r) : compare_text(r);
}

std::string report_csv(const StatsReport& r) {
  const Table t = table_of(r);
  std::vector<std::string> head;
  for (const auto& a : r.plan->axes) head.push_back(csv_field(a.name));
  head.push_back("variant");
  head.push_back("method");
  for (const auto& k : t.keys) head.push_back(csv_field(k));
  std::string out = fmt::format("{}\n", fmt::join(head, ","));
  for (std::size_t i = 0; i < r.cells.size(); ++i) {
    const StatsCell& c = r.cells[i];
    std::vector<std::string> line;
    for (const auto& v : c.values) line.push_back(csv_field(v));
    line.push_back(csv_field(r.plan->variants[c.variant].label));
    line.push_back(short_method(c));
    for (const auto& k : t.keys) {
      const Measure* m = t.find(i, k);
      line.push_back(m ? fmt::format("{:.10g}", m->value) : "");
    }
    out += fmt::format("{}\n", fmt::join(line, ","));
  }
  return out;
}

std::optional<std::string> report_json(const StatsReport& r) {
  const Table t = table_of(r);
  nlohmann::ordered_json doc;
  nlohmann::ordered_json measures_json = nlohmann::ordered_json::array();
  for (const auto& k : t.keys) {
    for (const auto& row : t.rows) {
      const auto m = std::find_if(row.begin(), row.end(), [&](const Measure& x) { return x.key == k; });
      if (m != row.end()) {
        measures_json.push_back(measure_json(*m));
        break;
      }
    }
  }
  const auto values_of = [&](std::size_t i) {
    nlohmann::ordered_json values = nlohmann::ordered_json::object();
    for (const auto& k : t.keys) {
      const Measure* m = t.find(i, k);
      values[k] = m ? nlohmann::ordered_json(m->value) : nlohmann::ordered_json();
    }
    return values;
  };
  // The exact fraction of each measure that has one.
  const auto exact_of = [&](std::size_t i) {
    nlohmann::ordered_json exact = nlohmann::ordered_json::object();
    for (const auto& k : t.keys) {
      const Measure* m = t.find(i, k);
      if (m && !m->exact.empty()) exact[k] = m->exact;
    }
    return exact;
  };
  const auto error_of = [&](const StatsCell& c) {
    return c.stats || c.diagnostics.empty()
               ? nlohmann::ordered_json()
               : nlohmann::ordered_json{{"code", std::string(code_name(c.diagnostics.front().code))},
                                {"message", c.diagnostics.front().message}};
  };
  if (!r.plan->sweeping()) {
    doc["schema"] = compare_schema;
    doc["variants"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < r.cells.size(); ++i) {
      const StatsCell& c = r.cells[i];
      nlohmann::ordered_json v = {{"label", r.plan->variants[c.variant].label}, {"expression", c.shown},
                                  {"values", values_of(i)}, {"exact", exact_of(i)}};
      if (c.stats) {
        // Each variant's document in its share of the limit (and the comparison's own keys in
        // one more): a long distribution lists its most likely values (left_out).
        StatsContext share = c.context;
        share.max_render_size = c.context.max_render_size / static_cast<std::int64_t>(r.cells.size() + 1);
        const auto stats = stats_document(*c.stats, share);
        if (!stats) return std::nullopt;
        v["stats"] = nlohmann::ordered_json::parse(*stats);
      } else {
        v["stats"] = nullptr;
      }
      v["error"] = error_of(c);
      doc["variants"].push_back(std::move(v));
    }
  } else {
    doc["schema"] = sweep_schema;
    doc["parameters"] = nlohmann::ordered_json::array();
    for (const auto& a : r.plan->axes) {
      nlohmann::ordered_json values = nlohmann::ordered_json::array();
      for (const auto& v : a.values) values.push_back(setting_json(v));
      doc["parameters"].push_back({{"name", a.name}, {"values", values}});
    }
    doc["variants"] = nlohmann::ordered_json::array();
    for (const auto& v : r.plan->variants) doc["variants"].push_back(v.label);
    doc["rows"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < r.cells.size(); ++i) {
      const StatsCell& c = r.cells[i];
      nlohmann::ordered_json settings = nlohmann::ordered_json::object();
      for (std::size_t k = 0; k < c.values.size(); ++k) settings[r.plan->axes[k].name] = setting_json(c.values[k]);
      nlohmann::ordered_json row = {{"variant", r.plan->variants[c.variant].label},
                            {"settings", settings},
                            {"expression", c.shown},
                            {"method", c.stats ? nlohmann::ordered_json(short_method(c)) : nlohmann::ordered_json()},
                            {"values", values_of(i)},
                            {"exact", exact_of(i)},
                            {"error", error_of(c)}};
      doc["rows"].push_back(std::move(row));
    }
  }
  doc["measures"] = measures_json;
  doc["cells"] = r.cells_asked;
  doc["interrupted"] = r.interrupted();
  std::string out = doc.dump(2);
  if (out.size() > static_cast<std::uint64_t>(std::max<std::int64_t>(0, r.max_render_size))) return std::nullopt;
  return out;
}

}  // namespace alea::cli
