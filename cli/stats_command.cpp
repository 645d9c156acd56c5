// cli/stats_command.cpp — `alea stats`: the arguments as `alea roll` reads them,
// compute_stats, and the report as text, JSON or an SVG chart.
#include "cli/stats_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>

#include "cli/exit_codes.hpp"
#include "cli/ruleset_commands.hpp"
#include "cli/state_commands.hpp"
#include "cli/state_file.hpp"
#include "cli/stats_compare.hpp"
#include "cli/stats_render.hpp"
#include "cli/stats_variants.hpp"
#include "cli/roll.hpp"
#include "interpreter/api.hpp"
#include "interpreter/rulesets/ruleset.hpp"
#include "interpreter/stats.hpp"

namespace alea::cli {

namespace {

// Every problem on stderr and, for --json, the first as alea.error/1: there is no distribution.
int fail(const StatsArgs& a, const Diagnostics& d) {
  if (a.json) fmt::print("{}\n", error_document("stats", error_report(d.front())));
  std::fflush(stdout);
  std::fputs(render_text(d).c_str(), stderr);
  return exit_bad_input;
}

}  // namespace

CLI::App* add_stats_command(CLI::App& app, StatsArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "stats", "Show how an expression or a ruleset's mechanic is distributed: exactly, or by sampling");
  cmd->add_option("expression", a.words,
                  "The expression, e.g. \"4d6kh3\" (words that make one expression together are joined "
                  "with spaces), then NAME=VALUE words for its variables; or RULESET.MECHANIC followed by "
                  "name=value words (FILE#MECHANIC: a mechanic of that ruleset file). Several expressions or "
                  "mechanics are compared side by side; a value written LOW..HIGH or A,B,C is swept");
  auto* json = cmd->add_flag("--json", a.json, "Print the distribution (the comparison, the sweep) as one JSON document");
  auto* csv = cmd->add_flag("--csv", a.csv, "Print a comparison or a sweep as CSV: a row per cell, a column per measure");
  json->excludes(csv);
  cmd->add_option("--svg", a.svg, "Also write a chart to FILE (SVG): bars, overlaid curves, or a heatmap")
      ->option_text("FILE");
  cmd->add_option("--chart", a.chart, "The curves of a comparison's SVG: at-least or at-most (default: each value's probability)")
      ->check(CLI::IsMember({"at-least", "at-most"}));
  cmd->add_option("--label", a.labels, "Name the variants in the report, one --label each, in order")
      ->option_text("TEXT")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--field", a.fields, "Report only this field of a record (its distribution, mean, outcomes)")
      ->option_text("NAME")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--outcome", a.outcomes,
                  "Report only this outcome's probability: a bool field, a label, or FIELD=LABEL")
      ->option_text("NAME")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--samples", a.samples, "Runs to draw when sampling (default 100000)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1'000'000'000'000}));
  cmd->add_option("--seed", a.seed, "Seed of the sampler (default 0): the same seed and threads give the same result");
  cmd->add_option("--threads", a.threads, "Threads that sample (default: every core)")
      ->check(CLI::Range(1u, 1024u));
  auto* exact = cmd->add_flag("--exact", a.exact, "Give the exact answer or fail; never sample");
  auto* sampled = cmd->add_flag("--sampled", a.sampled, "Sample even when an exact answer is within the budget");
  exact->excludes(sampled);
  cmd->add_option("--time-limit", a.time_limit,
                  fmt::format("Seconds an exact answer may take before sampling instead (default {:g}; with "
                              "--exact, none: it waits as long as it takes, unless this is given)",
                              default_time_limit()))
      ->option_text("SECONDS")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            char* end = nullptr;
            const double t = std::strtod(text.c_str(), &end);
            if (text.empty() || end != text.c_str() + text.size() || !valid_time_limit(t)) {
              return fmt::format("'{}' is not a time limit: give seconds, {}", text, time_limit_rule());
            }
            return "";
          },
          "SECONDS"));
  cmd->add_option("--max-branches", a.max_branches,
                  "Also cap the branches (or runs) an exact answer may take before sampling instead, whatever "
                  "the time (default: no cap; the same method on any machine)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1'000'000'000'000}));
  cmd->add_option("--explosion-depth", a.explosion_depth,
                  fmt::format("Exact: extra dice followed per explosion chain; the rest is reported as "
                              "unresolved (at most 100; default {}, then deeper while more than {:g} of the runs "
                              "go past it and time allows)",
                              StatsOptions::first_explosion_depth, StatsOptions::max_cut_off))
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{100}));
  cmd->add_option("--state", a.state_file,
                  "A mechanic starts from the ruleset's state in this JSON file (which is only read)")
      ->option_text("FILE");
  cmd->add_option("--choose", a.choose, "Decide a ruleset's choice for every run: NAME (true) or NAME=VALUE")
      ->option_text("NAME[=VALUE]")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->allow_extras();  // the flags rulesets declare for their choices (--use-edge)
  cmd->footer("Examples:\n  alea stats 3d6\n  alea stats 4d6kh3 --json\n"
              "  alea stats RULESET.MECHANIC dice=3\n"
              "  alea stats 'd20 + bonus >= 15' bonus=3         a variable of the expression\n"
              "  alea stats 'd20 + bonus >= 15' bonus=3..7      the variable swept, a row per value\n"
              "  alea stats 3d6 4d6kh3 --label plain --label 'best 3 of 4'\n"
              "  alea stats RULESET.MECHANIC mine/RULESET.yaml#MECHANIC dice=3   a copy of a ruleset beside it\n"
              "  alea stats RULESET.MECHANIC dice=1..8 difficulty=8,10,12 --outcome success --csv\n"
              "  alea stats '10d10>=8' --svg hits.svg\n"
              "  alea stats '3d6 explode 6' --explosion-depth 5\n"
              "  alea stats RULESET.MECHANIC stat=1 --state hero.json\n"
              "  alea stats '20d10 kh 3' --time-limit 5\n"
              "NAME=VALUE words after an expression set its variables, as for alea roll: each value\n"
              "is an expression that rolls no dice; a variable no expression reads is an error.\n"
              "Exact when it is found within --time-limit seconds (and --max-branches, when given);\n"
              "sampled otherwise. See docs/stats.md.");
  return cmd;
}

StatsAnswer answer_stats(const Engine& engine, const Compiled& compiled, StatsQuery q) {
  StatsAnswer answer;
  StatsOptions options = std::move(q.options);
  const bool exact = options.exact_only, sampled = options.sampled_only;
  // A mechanic whose ruleset asks for sampling (a loop with no bound) is
  // composed if it can be (a loop as a Markov chain) within the time limit,
  // never enumerated.
  if (!q.sampled_mechanic.empty() && !exact) options.enumerate = false;
  Stats s = compute_stats(engine, compiled.program, q.variables ? *q.variables : Bindings{}, options);
  if (!q.sampled_mechanic.empty() && !exact && !sampled && s.method != StatsMethod::Exact) {
    s.reason = fmt::format("{} has no bound, and its ruleset asks for sampling (odds: sampled); {}", q.sampled_mechanic,
                           s.reason);
  }

  if (s.runs == 0 && s.first_error && s.first_error->code == DiagCode::Interrupted) {
    answer.diagnostics = {*s.first_error};
    return answer;
  }
  if (s.runs == 0 && s.first_error) {
    // Exact only, and no exact answer.
    Diagnostic d = *s.first_error;
    if (d.message.find("(max_odds_") != std::string::npos) {
      const std::string limit = d.message.find("max_odds_memory") != std::string::npos ? "max_odds_memory" : "max_odds_work";
      d.note({}, fmt::format("raise the limit {} (now {}), or {}", limit,
                             limit == "max_odds_memory" ? engine.options().limits.max_odds_memory
                                                        : engine.options().limits.max_odds_work,
                             q.to_sample));
    } else if (d.message.find("(time_limit)") != std::string::npos) {
      d.note({}, fmt::format("raise {} (now {}), or leave it out to wait as long as it takes", q.time_limit_name,
                             seconds_text(time_limit_of(options).value_or(0))));
    } else if (d.message.find("max_branches") != std::string::npos) {
      d.note({}, fmt::format("raise {} (now {}), or {}", q.max_branches_name, options.max_branches, q.to_sample));
    } else {
      d.note({}, fmt::format("{} instead", q.to_sample));
    }
    answer.diagnostics = {d};
    return answer;
  }
  if (s.value.entries.empty() && s.first_error) {
    // Every run ended in an error, or sampling stopped before it had enough
    // runs to say anything: there is no distribution to show.
    answer.diagnostics = {*s.first_error};
    return answer;
  }
  add_declared_outcomes(s, q.declared);

  StatsContext& context = answer.context;
  context.expression = q.shown;
  context.seed = options.seed;
  context.engine_explosion_limit = engine.options().limits.max_explosion_depth;
  context.max_render_size = engine.options().limits.max_render_size;
  answer.stats = std::move(s);
  return answer;
}

namespace {

// What one cell compiles: the expression, or the mechanic's call with the state and the choices
// as named arguments (a run of the statistics engine keeps no state and decides nothing itself).
struct Prepared {
  std::string source, name;
  DeclaredOutcomes declared;
  std::string sampled_mechanic;  // a mechanic whose ruleset marks it `odds: sampled`
  Diagnostics diagnostics;
};

Prepared prepare(const StatsSession& session, const StatsArgs& a, const State* state, const StatsVariant& v,
                 const std::vector<std::string>& settings) {
  Engine& engine = session.engine;
  const RulesetPath& path = session.path;
  Prepared p;
  if (!v.mechanic) {
    p.source = v.target;
    p.name = "<input>";
    p.diagnostics = load_mentioned(engine, path, p.source);
    return p;
  }
  MechanicCall call = mechanic_call(engine, path, v.target, settings, "stats", {a.with, a.state_file});
  if (call.diagnostics.empty()) call.diagnostics = load_mentioned(engine, path, call.source);
  if (!call.diagnostics.empty()) {
    p.diagnostics = std::move(call.diagnostics);
    return p;
  }
  p.source = call.source;
  p.name = "<command line>";
  const std::string rname = v.target.substr(0, v.target.find('.'));
  const Ruleset* r = engine.find_ruleset(rname);
  const MechanicInfo* m = r ? r->mechanic(v.target.substr(v.target.find('.') + 1)) : nullptr;
  if (m && !p.source.empty() && p.source.back() == ')') {
    std::vector<std::string> given;
    for (const auto& w : settings) given.push_back(parse_setting(w).parts[0]);
    Choices choices;
    for (const auto& w : a.choose) add_choice(engine, w, choices, "--choose");
    for (const auto& f : a.flags) {
      if (!add_flag_choice(engine, f, choices)) throw UsageError(fmt::format("stats: unknown option '{}'", f));
    }
    std::vector<RulesetName> read;
    for (const auto& c : m->settable) {
      if (r->choice(c)) read.push_back({r->name, c});
    }
    check_choices_read(engine, choices, read, v.target);
    const auto extra = state_and_choice_arguments(*r, *m, state ? *state : State{}, choices, given);
    if (!extra.empty()) {
      p.source.pop_back();
      p.source += fmt::format("{}{})", p.source.back() == '(' ? "" : ", ", fmt::join(extra, ", "));
    }
  }
  if (m) {
    p.declared = declared_outcomes(*m);
    if (m->sampled_odds) p.sampled_mechanic = r->ident + "." + m->name;
  }
  return p;
}

StatsQuery query_of(const StatsArgs& a) {
  StatsQuery query;
  query.options.samples = a.samples;
  query.options.seed = a.seed;
  query.options.threads = a.threads;
  query.options.exact_only = a.exact;
  query.options.sampled_only = a.sampled;
  query.options.max_branches = a.max_branches;
  if (a.time_limit > 0) query.options.time_limit = a.time_limit;
  if (a.explosion_depth >= 0) query.options.explosion_depth = a.explosion_depth;
  query.options.cancel = a.cancel;
  return query;
}

StatsCell compute_cell(const StatsSession& shared, const StatsArgs& a, const State* state, const StatsPlan& plan,
                       std::size_t variant, std::vector<std::string> values,
                       const std::function<void(double)>& progress,
                       const std::function<void(double)>& exact_progress) {
  StatsCell cell;
  cell.variant = variant;
  const StatsVariant& v = plan.variants[variant];
  // A mechanic of a ruleset file (PATH#MECHANIC) compiles and runs in that file's engine.
  const StatsSession session = v.engine ? StatsSession{*v.engine, shared.path} : shared;
  if (!v.load_problems.empty()) {
    cell.values = std::move(values);
    cell.shown = v.label;
    cell.diagnostics = v.load_problems;
    return cell;
  }
  Prepared p = prepare(session, a, state, v, cell_settings(plan, v, values));
  cell.values = std::move(values);
  cell.shown = p.source.empty() ? v.label : p.source;
  if (!p.diagnostics.empty()) {
    cell.diagnostics = std::move(p.diagnostics);
    return cell;
  }
  const Compiled compiled = session.engine.compile(p.source, p.name, session.imports);
  if (!compiled.ok()) {
    cell.diagnostics = compiled.diagnostics;
    return cell;
  }
  // An expression's settings are its variables (`bonus=5`), with the session's: each of its own
  // must be read, and the shared ones it does not read are another variant's.
  Bindings variables = session.variables ? *session.variables : Bindings{};
  if (!v.mechanic) {
    const std::vector<std::string> settings = cell_settings(plan, v, cell.values);
    const Bindings given = variable_bindings(session.engine, settings);
    Bindings own;
    for (const auto& w : v.settings) {
      const std::string name = w.substr(0, w.find('='));
      if (const Value* x = given.find(name)) own.set(name, *x);
    }
    check_variables_read(compiled, own);
    const std::vector<std::string> read = host_names_read(compiled);
    std::vector<std::string> shown;
    for (const auto& [name, value] : given.all()) {
      if (std::find(read.begin(), read.end(), name) == read.end()) continue;
      variables.set(name, value);
      shown.push_back(fmt::format("{}={}", name, to_display(value)));
    }
    if (!shown.empty()) cell.shown = fmt::format("{} with {}", p.source, fmt::join(shown, ", "));
  }
  StatsQuery query = query_of(a);
  query.variables = &variables;
  query.options.progress = progress;
  query.options.exact_progress = exact_progress;
  query.shown = cell.shown;
  query.declared = std::move(p.declared);
  query.sampled_mechanic = p.sampled_mechanic;
  StatsAnswer answer = answer_stats(session.engine, compiled, std::move(query));
  cell.stats = std::move(answer.stats);
  cell.context = std::move(answer.context);
  cell.diagnostics = std::move(answer.diagnostics);
  return cell;
}

// The seconds an exact attempt has taken, on `progress`; none when it shows nothing (not a
// terminal), so that the engine never reads the clock for it.
std::function<void(double)> exact_progress(ProgressLine& progress, std::string what) {
  if (!progress.shows()) return {};
  return [&progress, what = std::move(what)](double seconds) { progress.elapsed(seconds, what); };
}

// A record's field as a distribution of its own: `--field result` of one call.
Stats narrowed(const Stats& s, const std::string& field) {
  Stats out = s;
  out.fields.clear();
  for (const auto& f : s.fields) {
    if (f.name == field) out.value = f;
  }
  out.value.name.clear();
  return out;
}

// too_large, with what the command line can do about it.
Diagnostic too_large_here(std::string_view what, const StatsContext& context) {
  Diagnostic d = too_large(what, context);
  d.note({}, "raise the limit with --limit max_render_size=BYTES, or, for a record, report one of its fields "
             "with --field NAME");
  return d;
}

int write_svg(const StatsArgs& a, const std::optional<std::string>& svg, const StatsContext& context) {
  if (!svg) return fail(a, {too_large_here("the chart", context)});
  if (const std::string problem = write_atomically(a.svg, *svg); !problem.empty()) {
    throw UsageError(fmt::format("--svg: {}", problem));
  }
  return exit_ok;
}

// One distribution, reported in full (or the fields --field names, each in full).
int single_report(const StatsArgs& a, StatsCell&& cell) {
  if (!cell.stats) return fail(a, cell.diagnostics);
  std::vector<std::pair<Stats, StatsContext>> shown;
  if (a.fields.empty()) {
    shown.emplace_back(std::move(*cell.stats), std::move(cell.context));  // not copied: it may hold millions of rows
  } else {
    (void)resolve_filter({a.fields, {}}, *cell.stats);
    for (const auto& f : a.fields) {
      StatsContext c = cell.context;
      c.expression += "." + f;
      shown.emplace_back(narrowed(*cell.stats, f), c);
    }
  }
  if (!a.svg.empty()) {
    if (shown.size() > 1) throw UsageError("--svg draws one distribution; give one --field");
    if (const int code = write_svg(a, stats_svg(shown[0].first, shown[0].second), shown[0].second)) return code;
  }
  for (std::size_t i = 0; i < shown.size(); ++i) {
    const auto& [s, c] = shown[i];
    if (a.json) {
      const std::optional<std::string> doc = stats_document(s, c);
      if (!doc) return fail(a, {too_large_here("the JSON", c)});
      fmt::print("{}\n", *doc);
    } else {
      fmt::print("{}{}", i ? "\n" : "", stats_text(s, c));
    }
  }
  std::fflush(stdout);
  return exit_ok;
}

}  // namespace

int stats_command(const StatsArgs& a, const RulesetPath& path) {
  Engine engine(engine_options(a.limits, path));
  return run_stats({engine, path}, a);
}

int run_stats(const StatsSession& session, const StatsArgs& a, bool variants) {
  std::vector<std::string> words;
  for (const auto& w : a.words) words.push_back(w.substr(!w.empty() && w.front() == ' '));
  if (words.empty()) throw UsageError("stats: give an expression, as in: alea stats 3d6");
  Engine& engine = session.engine;
  const RulesetPath& path = session.path;
  const StatsPlan plan = plan_stats(session, words, a.labels, variants);
  const bool any_mechanic =
      std::any_of(plan.variants.begin(), plan.variants.end(), [](const StatsVariant& v) { return v.mechanic; });
  if (!any_mechanic && (!a.state_file.empty() || !a.choose.empty() || !a.flags.empty())) {
    throw UsageError("stats: --state, --choose and the choices' flags apply to a mechanic (alea stats "
                     "RULESET.MECHANIC name=value…); in an expression, give them as named arguments");
  }
  std::optional<State> state;
  if (!a.state_file.empty()) {
    try {
      state = read_state_file(a.state_file);
      check_state_file(a.state_file, *state, engine, path);
    } catch (const StateFileError& e) {
      if (a.json) fmt::print("{}\n", error_document("stats", state_file_error_report(a.state_file, e)));
      std::fflush(stdout);
      std::fputs(e.what(), stderr);
      return exit_bad_input;
    }
  }
  const State* st = state ? &*state : nullptr;
  ProgressLine progress;
  const bool single = !plan.comparing() && !plan.sweeping() && a.outcomes.empty() && !a.csv;
  if (single) {
    if (!a.chart.empty()) {
      throw UsageError("--chart shapes a comparison's chart; one distribution's chart draws its bars and the "
                       "at-least curve");
    }
    StatsCell cell = compute_cell(session, a, st, plan, 0, {}, [&progress](double f) { progress.update(f); },
                                  exact_progress(progress, "exact odds"));
    progress.finish();
    if (!a.labels.empty()) cell.context.expression = plan.variants.front().label;  // the title
    return single_report(a, std::move(cell));
  }
  if (!a.chart.empty() && a.svg.empty()) throw UsageError("--chart shapes the SVG chart; give --svg FILE too");
  if (!a.chart.empty() && plan.sweeping()) {
    throw UsageError("--chart at-least and at-most shape a comparison's chart, not a sweep's");
  }
  if (!a.svg.empty() && (plan.axes.size() > 2 || (plan.axes.size() == 2 && plan.comparing()))) {
    throw UsageError("--svg of a sweep draws one swept setting, or a heatmap of two for one variant and one "
                     "measure (pick it with --outcome or --field)");
  }
  StatsReport report;
  report.plan = &plan;
  report.filter = {a.fields, a.outcomes};
  report.cells_asked = plan.variants.size() * plan.combinations();
  report.max_render_size = engine.options().limits.max_render_size;
  report.colour = ::isatty(STDOUT_FILENO) != 0 && std::getenv("NO_COLOR") == nullptr;
  bool checked = report.filter.empty();
  for (std::size_t i = 0; i < report.cells_asked; ++i) {
    if (a.cancel && a.cancel->load()) break;
    const std::string what = fmt::format("cell {}/{}", i + 1, report.cells_asked);
    const double total = static_cast<double>(report.cells_asked);
    const auto at = static_cast<double>(i);
    progress.update(at / total, what);
    StatsCell cell = compute_cell(session, a, st, plan, i % plan.variants.size(),
                                  combination(plan, i / plan.variants.size()),
                                  [&](double f) { progress.update((at + f) / total, what); },
                                  exact_progress(progress, what + ": exact odds"));
    const bool stopped = a.cancel && a.cancel->load();
    if (stopped && !cell.stats) break;
    if (!checked && cell.stats) {
      progress.finish();
      report.filter = resolve_filter(report.filter, *cell.stats);
      checked = true;
    }
    report.cells.push_back(std::move(cell));
    if (stopped) break;
  }
  progress.finish();
  const auto failed = std::find_if(report.cells.begin(), report.cells.end(),
                                   [](const StatsCell& c) { return !c.stats && !c.diagnostics.empty(); });
  const StatsContext& context = report.cells.empty() ? StatsContext{} : report.cells.front().context;
  if (!a.svg.empty()) {
    StatsContext limits = context;
    limits.max_render_size = report.max_render_size;
    if (const int code = write_svg(a, report_svg(report, a.chart), limits)) return code;
  }
  if (a.json) {
    const std::optional<std::string> doc = report_json(report);
    if (!doc) {
      StatsContext limits = context;
      limits.max_render_size = report.max_render_size;
      return fail(a, {too_large_here("the JSON", limits)});
    }
    fmt::print("{}\n", *doc);
  } else if (a.csv) {
    fmt::print("{}", report_csv(report));
  } else {
    fmt::print("{}", report_text(report));
  }
  std::fflush(stdout);
  if (failed != report.cells.end()) {
    // The first failure in full: the report above gives each its first line.
    std::fputs(render_text(failed->diagnostics).c_str(), stderr);
    return exit_bad_input;
  }
  return exit_ok;
}

}  // namespace alea::cli
