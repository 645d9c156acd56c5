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

json distribution_json(const Stats& s, const Distribution& d) {
  json o;
  o["mean"] = d.numeric ? json(d.mean) : json(nullptr);
  o["sd"] = d.numeric ? json(d.sd) : json(nullptr);
  o["exact_mean"] = d.numeric && !d.exact_mean.empty() ? json(d.exact_mean) : json(nullptr);
  const Analysis a = analyse(s, d);
  if (d.numeric) {
    json p = json::object();
    for (std::size_t i = 0; i < a.percentiles.size(); ++i) {
      p[std::to_string(percentile_points[i])] =
          a.percentiles[i] ? json(*a.percentiles[i]) : json(nullptr);
    }
    o["percentiles"] = p;
  } else {
    o["percentiles"] = nullptr;
  }
  json list = json::array();
  for (std::size_t i = 0; i < d.entries.size(); ++i) {
    json e;
    e["value"] = value_json(d.entries[i].value);
    e.update(probability_json(s, d.entries[i].probability));
    if (d.numeric) {
      e["at_least"] = a.at_least[i];
      e["at_most"] = a.at_most[i];
    }
    list.push_back(e);
  }
  o["distribution"] = list;
  return o;
}

}  // namespace

std::optional<std::string> stats_document(const Stats& s, const StatsContext& c) {
  constexpr std::uint64_t entry_bytes = 48;  // an entry takes more as JSON
  if (too_many_entries(s, entry_bytes, c.max_render_size)) return std::nullopt;
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
  doc.update(distribution_json(s, s.value));
  json fields = json::object();
  for (const auto& f : s.fields) fields[f.name] = distribution_json(s, f);
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
  std::string out = dump(doc, 2);
  if (out.size() > static_cast<std::uint64_t>(std::max<std::int64_t>(0, c.max_render_size))) return std::nullopt;
  return out;
}

}  // namespace alea
