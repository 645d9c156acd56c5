// cli/stats_command.cpp — `alea stats`: the arguments as `alea roll` reads them,
// compute_stats, and the report as text, JSON or an SVG chart.
#include "cli/stats_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>

#include "cli/exit_codes.hpp"
#include "cli/ruleset_commands.hpp"
#include "cli/state_commands.hpp"
#include "cli/state_file.hpp"
#include "cli/stats_render.hpp"
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
                  "The expression, e.g. \"4d6kh3\" (several words are joined with spaces); or "
                  "RULESET.MECHANIC followed by name=value words");
  cmd->add_flag("--json", a.json, "Print the distribution as one JSON document");
  cmd->add_option("--svg", a.svg, "Also write a bar chart of the distribution to FILE (SVG)")->option_text("FILE");
  cmd->add_option("--samples", a.samples, "Runs to draw when sampling (default 100000)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1'000'000'000'000}));
  cmd->add_option("--seed", a.seed, "Seed of the sampler (default 0): the same seed and threads give the same result");
  cmd->add_option("--threads", a.threads, "Threads that sample (default: every core)")
      ->check(CLI::Range(1u, 1024u));
  auto* exact = cmd->add_flag("--exact", a.exact, "Give the exact answer or fail; never sample");
  auto* sampled = cmd->add_flag("--sampled", a.sampled, "Sample even when an exact answer is within the budget");
  exact->excludes(sampled);
  cmd->add_option("--max-branches", a.max_branches,
                  fmt::format("Runs an exact answer may take before sampling instead (default {})",
                              StatsOptions{}.max_branches))
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1'000'000'000'000}));
  cmd->add_option("--explosion-depth", a.explosion_depth,
                  fmt::format("Exact: extra dice followed per explosion chain; the rest is reported as "
                              "unresolved (default {}, at most 100)", StatsOptions{}.explosion_depth))
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
              "  alea stats '10d10>=8' --svg hits.svg\n"
              "  alea stats '3d6 explode 6' --explosion-depth 5\n"
              "  alea stats RULESET.MECHANIC stat=1 --state hero.json\n"
              "Exact when the enumeration fits in --max-branches runs and the value does not depend\n"
              "on the order of the dice within a roll; sampled otherwise. See docs/stats.md.");
  return cmd;
}

StatsAnswer answer_stats(const Engine& engine, const Compiled& compiled, StatsQuery q) {
  StatsAnswer answer;
  StatsOptions options = std::move(q.options);
  const bool exact = options.exact_only, sampled = options.sampled_only;
  options.sampled_only = sampled || (!q.sampled_mechanic.empty() && !exact);
  Stats s = compute_stats(engine, compiled.program, {}, options);
  if (!q.sampled_mechanic.empty() && !exact && !sampled) {
    s.reason = fmt::format("{} has no bound, and its ruleset asks for sampling (odds: sampled)", q.sampled_mechanic);
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
  context.explosion_depth = options.explosion_depth;
  context.engine_explosion_limit = engine.options().limits.max_explosion_depth;
  context.max_render_size = engine.options().limits.max_render_size;
  answer.stats = std::move(s);
  return answer;
}

int stats_command(const StatsArgs& a, const RulesetPath& path) {
  std::vector<std::string> words;
  for (const auto& w : a.words) words.push_back(w.substr(!w.empty() && w.front() == ' '));
  if (words.empty()) throw UsageError("stats: give an expression, as in: alea stats 3d6");
  Engine engine(engine_options(a.limits));
  std::string source, name, shown;
  DeclaredOutcomes declared;
  bool mechanic = false;
  std::string sampled_mechanic;  // a mechanic whose ruleset marks it `odds: sampled`
  // As in `alea roll`: `my-game.check dice=3` calls a mechanic.
  if (is_mechanic_word(words[0])) {
    const std::string rname = words[0].substr(0, words[0].find('.'));
    if (path.find(rname) || rname.find('-') != std::string::npos ||
        (words.size() > 1 && is_setting(words[1]))) {
      mechanic = true;
      const std::vector<std::string> settings(words.begin() + 1, words.end());
      MechanicCall call = mechanic_call(engine, path, words[0], settings, "stats", {a.with, a.state_file});
      if (call.diagnostics.empty()) call.diagnostics = load_mentioned(engine, path, call.source);
      if (!call.diagnostics.empty()) return fail(a, call.diagnostics);
      source = call.source;
      name = "<command line>";
      const Ruleset* r = engine.find_ruleset(rname);
      const MechanicInfo* m = r ? r->mechanic(words[0].substr(words[0].find('.') + 1)) : nullptr;
      if (m && !source.empty() && source.back() == ')') {
        // The state and the choices become named arguments: a run of the
        // statistics engine keeps no state and decides nothing itself.
        std::vector<std::string> given;
        for (std::size_t i = 1; i < words.size(); ++i) given.push_back(parse_setting(words[i]).parts[0]);
        State state;
        if (!a.state_file.empty()) {
          try {
            state = read_state_file(a.state_file);
            check_state_file(a.state_file, state, engine, path);
          } catch (const StateFileError& e) {
            if (a.json) fmt::print("{}\n", error_document("stats", state_file_error_report(a.state_file, e)));
            std::fflush(stdout);
            std::fputs(e.what(), stderr);
            return exit_bad_input;
          }
        }
        Choices choices;
        for (const auto& w : a.choose) add_choice(engine, w, choices, "--choose");
        for (const auto& f : a.flags) {
          if (!add_flag_choice(engine, f, choices)) throw UsageError(fmt::format("stats: unknown option '{}'", f));
        }
        std::vector<RulesetName> read;
        for (const auto& c : m->settable) {
          if (r->choice(c)) read.push_back({r->name, c});
        }
        check_choices_read(engine, choices, read, words[0]);
        const auto extra = state_and_choice_arguments(*r, *m, state, choices, given);
        if (!extra.empty()) {
          source.pop_back();
          source += fmt::format("{}{})", source.back() == '(' ? "" : ", ", fmt::join(extra, ", "));
        }
      }
      shown = source;
      if (m) {
        declared = declared_outcomes(*m);
        if (m->sampled_odds) sampled_mechanic = r->ident + "." + m->name;
      }
    }
  }
  if (!mechanic) {
    if (!a.state_file.empty() || !a.choose.empty() || !a.flags.empty()) {
      throw UsageError("stats: --state, --choose and the choices' flags apply to a mechanic (alea stats "
                       "RULESET.MECHANIC name=value…); in an expression, give them as named arguments");
    }
    source = fmt::format("{}", fmt::join(words, " "));
    name = "<input>";
    shown = source;
    if (const auto d = load_mentioned(engine, path, source); !d.empty()) return fail(a, d);
  }
  const Compiled compiled = engine.compile(source, name);
  if (!compiled.ok()) return fail(a, compiled.diagnostics);

  StatsQuery query;
  query.options.samples = a.samples;
  query.options.seed = a.seed;
  query.options.threads = a.threads;
  query.options.exact_only = a.exact;
  query.options.sampled_only = a.sampled;
  query.options.max_branches = a.max_branches;
  query.options.explosion_depth = a.explosion_depth;
  query.options.cancel = a.cancel;
  ProgressLine progress;
  query.options.progress = [&progress](double f) { progress.update(f); };
  query.shown = shown;
  query.declared = std::move(declared);
  query.sampled_mechanic = sampled_mechanic;
  StatsAnswer answer = answer_stats(engine, compiled, std::move(query));
  progress.finish();
  if (!answer.stats) return fail(a, answer.diagnostics);
  const Stats& s = *answer.stats;
  const StatsContext& context = answer.context;
  if (!a.svg.empty()) {
    const std::optional<std::string> svg = stats_svg(s, context);
    if (!svg) return fail(a, {too_large("the chart", context)});
    if (const std::string problem = write_atomically(a.svg, *svg); !problem.empty()) {
      throw UsageError(fmt::format("--svg: {}", problem));
    }
  }
  if (a.json) {
    const std::optional<std::string> doc = stats_document(s, context);
    if (!doc) return fail(a, {too_large("the JSON", context)});
    fmt::print("{}\n", *doc);
  } else {
    fmt::print("{}", stats_text(s, context));
  }
  std::fflush(stdout);
  return exit_ok;
}

}  // namespace alea::cli
