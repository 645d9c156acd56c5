// interpreter/render/stats_json.cpp — alea.stats/1: a computed distribution as `alea stats --json`
// prints it (json_documents.hpp; its keys are described in docs/stats.md §5 and docs/json.md).
#include <algorithm>

#include "interpreter/render/json_documents.hpp"
#include "interpreter/render/json_parts.hpp"
#include "interpreter/render/stats_analysis.hpp"
#include "interpreter/stats.hpp"

namespace alea {

namespace {

using namespace render_json_parts;

json probability_json(const Stats& s, const Probability& p) {
  json o;
  o["probability"] = p.value;
  if (s.method == StatsMethod::Exact) {
    const std::string exact = p.exact();
    o["exact"] = exact.empty() ? "0/1" : exact;
  } else {
    o["low"] = p.low;
    o["high"] = p.high;
  }
  return o;
}

// One distribution of the document (the value's, or a field's) and what of it is shown: when its
// entries cannot all fit in max_render_size, the most likely ones (the earlier of equals), in the
// table's order, and `left_out` says how many others and their share of the runs.
struct Part {
  const Distribution* d = nullptr;
  Analysis analysis;
  std::size_t indent = 0;                // where its entries stand in the indented document
  std::vector<std::size_t> by_chance;    // its entries' indices, most likely first
  std::vector<std::uint64_t> bytes{0};   // bytes[k]: the JSON of the k most likely, as placed
};

json entry_json(const Stats& s, const Part& part, std::size_t i) {
  const Distribution& d = *part.d;
  json e;
  e["value"] = value_json(d.entries[i].value);
  e.update(probability_json(s, d.entries[i].probability));
  if (d.numeric) {
    e["at_least"] = part.analysis.at_least[i];
    e["at_most"] = part.analysis.at_most[i];
  }
  return e;
}

// The summary of a distribution with the `keep` most likely of its entries.
json distribution_json(const Stats& s, const Part& part, std::size_t keep) {
  const Distribution& d = *part.d;
  json o;
  o["mean"] = d.numeric ? json(d.mean) : json(nullptr);
  o["sd"] = d.numeric ? json(d.sd) : json(nullptr);
  o["exact_mean"] = d.numeric && !d.exact_mean.empty() ? json(d.exact_mean) : json(nullptr);
  if (d.numeric) {
    json p = json::object();
    for (std::size_t i = 0; i < part.analysis.percentiles.size(); ++i) {
      p[std::to_string(percentile_points[i])] =
          part.analysis.percentiles[i] ? json(*part.analysis.percentiles[i]) : json(nullptr);
    }
    o["percentiles"] = p;
  } else {
    o["percentiles"] = nullptr;
  }
  keep = std::min(keep, d.entries.size());
  std::vector<std::size_t> shown(part.by_chance.begin(), part.by_chance.begin() + static_cast<std::ptrdiff_t>(keep));
  std::sort(shown.begin(), shown.end());
  json list = json::array();
  for (const std::size_t i : shown) list.push_back(entry_json(s, part, i));
  o["distribution"] = list;
  if (keep == d.entries.size()) {
    o["left_out"] = nullptr;
  } else {
    double share = 0;  // the least likely first, so that small shares are not lost
    for (std::size_t k = d.entries.size(); k-- > keep;) share += d.entries[part.by_chance[k]].probability.value;
    json left;
    left["values"] = d.entries.size() - keep;
    left["probability"] = std::min(1.0, share);
    o["left_out"] = left;
  }
  return o;
}

// A distribution of the document, its entries ordered most likely first.
Part part_of(const Stats& s, const Distribution& d, std::size_t indent) {
  Part part;
  part.d = &d;
  part.analysis = analyse(s, d);
  part.indent = indent;
  part.by_chance.resize(d.entries.size());
  for (std::size_t i = 0; i < d.entries.size(); ++i) part.by_chance[i] = i;
  std::stable_sort(part.by_chance.begin(), part.by_chance.end(), [&](std::size_t a, std::size_t b) {
    return d.entries[a].probability.value > d.entries[b].probability.value;
  });
  return part;
}

// The bytes of the JSON of `part`'s entries, most likely first, as the document places them
// (nlohmann's two-space indent: `indent` spaces before each of their lines, ",\n" after), measured
// only while they could fit in `max` bytes.
void measure(const Stats& s, Part& part, std::uint64_t max) {
  const auto& entries = part.d->entries;
  for (std::size_t k = 0; k < entries.size() && part.bytes.back() <= max; ++k) {
    const std::string text = dump(entry_json(s, part, part.by_chance[k]), 2);
    const auto lines = static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n')) + 1;
    part.bytes.push_back(part.bytes.back() + text.size() + lines * part.indent + 2);
  }
}

// The bytes of `part`'s entries when at most `keep` are shown: none fit when more are needed than
// were measured.
std::uint64_t entry_bytes(const Part& part, std::size_t keep, std::uint64_t too_many) {
  constexpr std::uint64_t left_out_bytes = 128;  // "left_out": {"values": …, "probability": …}
  const std::size_t n = part.d->entries.size();
  const std::size_t k = std::min(keep, n);
  if (k >= part.bytes.size()) return too_many;
  return part.bytes[k] + (k < n ? left_out_bytes : 0);
}

}  // namespace

std::optional<std::string> stats_document(const Stats& s, const StatsContext& c) {
  const auto max = static_cast<std::uint64_t>(std::max<std::int64_t>(0, c.max_render_size));
  std::vector<Part> parts;
  parts.push_back(part_of(s, s.value, 4));  // doc, "distribution", an entry
  for (const auto& f : s.fields) parts.push_back(part_of(s, f, 8));  // doc, "fields", f, "distribution", an entry
  json doc = document_head(stats_schema);
  doc["expression"] = c.expression;
  const bool exact = s.method == StatsMethod::Exact;
  doc["method"] = exact ? "exact" : "sampled";
  doc["reason"] = exact ? json(nullptr) : json(s.reason);
  doc["runs"] = s.runs;
  doc["exact_method"] = exact ? json(s.exact_method) : json(nullptr);
  doc["threads"] = s.threads;
  doc["seed"] = exact ? json(nullptr) : json(c.seed);
  doc["sampler"] = s.sampler == SamplerPath::Lowered     ? json("lowered")
                   : s.sampler == SamplerPath::Evaluator ? json("evaluator")
                                                         : json(nullptr);
  doc["sampler_note"] = s.sampler_note.empty() ? json(nullptr) : json(s.sampler_note);
  // Sampling that ended early: "partial" says so, "stopped_by" why
  // ("max_sample_work", or "interrupted"), "samples" how many were asked for.
  doc["partial"] = s.interrupted || !s.cut_short.empty();
  doc["stopped_by"] = s.interrupted ? json("interrupted")
                      : !s.cut_short.empty() ? json(s.cut_short)
                                             : json(nullptr);
  doc["samples"] = exact ? json(nullptr) : json(s.samples_asked);
  doc["time_limit"] = s.time_limit ? json(*s.time_limit) : json(nullptr);
  doc["exact_seconds"] = s.exact_seconds ? json(*s.exact_seconds) : json(nullptr);
  doc["seconds"] = s.seconds;
  doc.update(distribution_json(s, parts[0], 0));
  json fields = json::object();
  for (std::size_t i = 0; i < s.fields.size(); ++i) fields[s.fields[i].name] = distribution_json(s, parts[1 + i], 0);
  doc["fields"] = fields;
  json u = probability_json(s, s.unresolved);
  // One cause by name; "both" when there are several.
  const int causes = (s.cut_off.value > 0) + (s.errors.value > 0) + (s.still_looping.value > 0);
  u["cause"] = s.unresolved.value <= 0 ? json(nullptr)
               : causes > 1           ? json("both")
               : s.errors.value > 0   ? json("error")
               : s.still_looping.value > 0 ? json("loop")
                                      : json("explosion");
  u["cut_off"] = probability_json(s, s.cut_off);
  u["errors"] = probability_json(s, s.errors);
  // Only an exact answer can leave a loop's tail out; a sample runs every loop to its end.
  u["still_looping"] = exact ? probability_json(s, s.still_looping) : json(nullptr);
  u["loop_rounds"] = s.loop_rounds > 0 ? json(s.loop_rounds) : json(nullptr);
  u["explosion_depth"] = exact ? s.explosion_depth : c.engine_explosion_limit;
  // How rare a pool's combination of chains was cut off as well, if any was.
  u["rare_chains"] = exact && s.rare_chains > 0 ? json(1.0 / static_cast<double>(s.rare_chains)) : json(nullptr);
  u["error"] = s.first_error ? diagnostic_json(error_report(*s.first_error)) : json(nullptr);
  doc["unresolved"] = u;
  // The document with no entries, then as many of each distribution's as fit: all, or the same
  // number of the most likely of each that is cut (the largest that fits).
  const std::uint64_t head = dump(doc, 2).size() + 16 * parts.size();
  if (head > max) return std::nullopt;
  std::size_t most = 0;
  for (auto& part : parts) {
    measure(s, part, max - head);
    most = std::max(most, part.d->entries.size());
  }
  const std::uint64_t too_many = max + 1;
  auto fits = [&](std::size_t keep) {
    std::uint64_t bytes = head;
    for (const auto& part : parts) bytes = std::min(too_many, bytes + entry_bytes(part, keep, too_many));
    return bytes <= max;
  };
  std::size_t keep = most;
  if (!fits(keep)) {
    std::size_t lo = 0, hi = most;  // fits(lo) or lo == 0; !fits(hi)
    while (hi - lo > 1) {
      const std::size_t mid = lo + (hi - lo) / 2;
      (fits(mid) ? lo : hi) = mid;
    }
    keep = lo;
  }
  json value = distribution_json(s, parts[0], keep);
  for (auto it = value.begin(); it != value.end(); ++it) doc[it.key()] = *it;
  for (std::size_t i = 0; i < s.fields.size(); ++i) {
    doc["fields"][s.fields[i].name] = distribution_json(s, parts[1 + i], keep);
  }
  std::string out = dump(doc, 2);
  if (out.size() > max) return std::nullopt;
  return out;
}

}  // namespace alea
