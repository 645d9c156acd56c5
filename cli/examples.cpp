// cli/examples.cpp — a ruleset's examples, each run as `alea roll` runs its words
// (parse_args, mechanic_call, roll_once), and its result compared with what it states.
#include "cli/examples.hpp"

#include <cstdio>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/args.hpp"
#include "cli/exit_codes.hpp"
#include "cli/interrupt.hpp"
#include "cli/roll.hpp"
#include "cli/ruleset_commands.hpp"
#include "interpreter/rulesets/ruleset.hpp"

namespace alea::cli {

// The words of an example as a POSIX shell splits them: blanks separate words,
// and '…' or "…" quote (a value such as 'grades=["easy", "hard"]').
std::vector<std::string> shell_words(std::string_view line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(std::exchange(word, {}));
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\'' || c == '"') {
      const auto close = line.find(c, i + 1);
      const auto stop = close == std::string_view::npos ? line.size() : close;
      word += line.substr(i + 1, stop - i - 1);
      i = stop;
    } else {
      word += c;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

namespace {

// The options of `alea roll` that have no place in an example: it runs with the rulesets and
// limits of the command that runs it, and keeps no state.
constexpr std::string_view kNotInExamples[] = {"--state", "--json", "--rulesets", "--limit"};

std::uint64_t example_seed() { return 1; }

// The name the call is compiled under.
constexpr std::string_view kExampleName = "<example>";

// What `got` lacks of `want`, as "expected …, got …", or "" when it has everything `want`
// states: a record expected names only the fields compared (in a record inside it too), a
// number is compared with a pool's total.
std::string expect_mismatch(const Value& want, const Value& got, const std::string& where = "") {
  const auto shown = [&](const Value& v) { return where.empty() ? to_display(v) : fmt::format("{}: {}", where, to_display(v)); };
  if (const auto* w = want.as_record()) {
    if (!got.as_record()) return fmt::format("expected {}, got {}", shown(want), shown(got));
    for (std::size_t i = 0; i < w->names.size(); ++i) {
      const std::string field = where.empty() ? w->names[i] : fmt::format("{}.{}", where, w->names[i]);
      const Value* g = got.field(w->names[i]);
      if (!g) return fmt::format("expected {}: {}, got a record without '{}'", field, to_display(w->values[i]), w->names[i]);
      if (std::string m = expect_mismatch(w->values[i], *g, field); !m.empty()) return m;
    }
    return "";
  }
  if (const auto* w = want.as_list(); w && got.as_list() && got.as_list()->size() == w->size()) {
    for (std::size_t i = 0; i < w->size(); ++i) {
      if (!expect_mismatch((*w)[i], (*got.as_list())[i]).empty()) return fmt::format("expected {}, got {}", shown(want), shown(got));
    }
    return "";
  }
  const auto* n = want.as_int();
  const bool same = n ? (!got.as_bool() && got.number() == *n) : want == got;
  return same ? "" : fmt::format("expected {}, got {}", shown(want), shown(got));
}

// The problem `d`, found running the example, shown at the example: its message after the
// call, its notes, and where it was found as a note of its own.
// A place in the call as the example runs it (`my_game.check(dice: 3)`, not as written) says
// no more than the example's own place, so it is left out.
Diagnostic at_example(const ExampleInfo& ex, const Diagnostic& d) {
  const auto in_call = [](const Span& s) { return !s.empty() && s.file->name() == kExampleName; };
  Diagnostic out(d.code, ex.call_span, fmt::format("example '{}': {}", ex.call, d.message));
  if (!d.span.empty() && !in_call(d.span)) out.note(d.span, "found here");
  for (const auto& n : d.notes) {
    if (!in_call(n.span)) out.note(n.span, n.message);
  }
  return out;
}

Diagnostics run_example(Engine& engine, const RulesetPath& path, const ExampleInfo& ex) {
  const auto failed = [&](std::string message) {
    return Diagnostics{Diagnostic(DiagCode::ExampleFailed, ex.call_span, fmt::format("example '{}': {}", ex.call, message))};
  };
  std::vector<std::string> words = shell_words(ex.call);
  for (const auto& w : words) {
    for (const std::string_view option : kNotInExamples) {
      if (w == option || w.starts_with(fmt::format("{}=", option))) {
        return failed(fmt::format("{} has no place in an example, which runs with the rulesets and limits of the "
                                  "command that runs it, and keeps no state", option));
      }
    }
  }
  words.insert(words.begin(), {"alea", "roll"});
  ParsedArgs parsed = parse_args(words);
  if (parsed.exit_code || parsed.command != Command::Roll) {
    std::string why = parsed.err.substr(0, parsed.err.find('\n'));
    if (why.starts_with("alea: ")) why.erase(0, 6);
    return failed(why.empty() ? "this is not a call that alea roll takes" : why);
  }
  RollArgs& a = parsed.roll;
  for (auto& w : a.words) w = w.substr(!w.empty() && w.front() == ' ');
  if (a.words.empty() || !is_mechanic_word(a.words.front())) {
    return failed("an example calls a mechanic: RULESET.MECHANIC name=value…, then --dice, --choose or a choice's flag");
  }
  try {
    const std::vector<std::string> settings(a.words.begin() + 1, a.words.end());
    MechanicCall call = mechanic_call(engine, path, a.words.front(), settings, "example");
    if (call.diagnostics.empty()) call.diagnostics = load_mentioned(engine, path, call.source);
    Diagnostics out;
    for (const auto& d : call.diagnostics) out.push_back(at_example(ex, d));
    if (!out.empty()) return out;
    const Choices choices = command_choices(engine, a);
    RollDice dice = roll_dice(a, example_seed);
    const RollInput input{call.source, std::string(kExampleName), dice.source.get(), dice.scripted, "leave out --dice",
                          nullptr, &choices, a.words.front(), &cancel_flag()};
    const RollRun run = roll_once(engine, input);
    for (const auto& d : run.diagnostics()) out.push_back(at_example(ex, d));
    // An inherited example's `expect` was written for the base: it runs, unchecked.
    if (!out.empty() || !ex.expect || !ex.inherited_from.empty()) return out;
    const Outcome& o = run.outcome;
    if (!dice.scripted && !a.min && !a.max && !o.trace.dice.empty()) {
      out.emplace_back(DiagCode::ExampleFailed, ex.expect_span,
                       fmt::format("example '{}': its result depends on {} {} not scripted: give the faces with "
                                   "--dice, or leave out 'expect'",
                                   ex.call, o.trace.dice.size(), o.trace.dice.size() == 1 ? "die" : "dice"));
      return out;
    }
    if (std::string m = expect_mismatch(*ex.expect, *o.value); !m.empty()) {
      out.emplace_back(DiagCode::ExampleFailed, ex.expect_span, fmt::format("example '{}': {}", ex.call, m));
    }
    return out;
  } catch (const UsageError& e) {
    std::string why = e.what();
    if (why.starts_with("example: ")) why.erase(0, 9);
    return failed(why);
  }
}

}  // namespace

std::vector<ExampleRun> run_examples(Engine& engine, const RulesetPath& path, const Ruleset& r) {
  std::vector<ExampleRun> out;
  for (const auto& m : r.mechanics) {
    for (const auto& ex : m.examples) out.push_back({&m, &ex, run_example(engine, path, ex)});
  }
  return out;
}

const Ruleset* loaded_from(const Engine& engine, const std::filesystem::path& file) {
  const std::string shown = display_path(file);
  for (const Ruleset* r : engine.rulesets()) {
    if (r->file == shown) return r;
  }
  return nullptr;
}

// ---- alea test ------------------------------------------------------------------

namespace {

using TestJson = nlohmann::ordered_json;

TestJson diagnostics_json(const Diagnostics& ds) {
  TestJson out = TestJson::array();
  for (const auto& d : ds) out.push_back(TestJson::parse(diagnostic_document_json(error_report(d))));
  return out;
}

// What the tests found, for the summary line and the document.
struct Tally {
  int passed = 0, failed = 0, skipped = 0, examples = 0;
  bool broken = false;  // a ruleset that is not found or does not load
};

// Tests one ruleset, `what` as given; prints its lines (unless `quiet`) and returns its entry
// of the document.
TestJson test_ruleset(Engine& engine, const RulesetPath& path, const std::string& what, Tally& t, bool quiet) {
  TestJson entry = {{"ruleset", what}, {"file", nullptr}, {"ok", false}, {"diagnostics", TestJson::array()},
                {"mechanics", TestJson::array()}};
  Diagnostics problems;
  std::optional<std::filesystem::path> file;
  if (is_ruleset_file(what)) {
    std::error_code ec;
    if (std::filesystem::exists(what, ec)) file = what;
    else problems.emplace_back(DiagCode::RulesetNotFound, Span{}, fmt::format("cannot read the ruleset file '{}' (is it there?)", what));
  } else {
    file = is_ruleset_name(what) ? path.find(what) : std::nullopt;
    if (!file) problems.emplace_back(DiagCode::RulesetNotFound, Span{}, no_such_ruleset(what, path));
  }
  // Loaded as the user's own code, even a shipped one: its mistakes are shown in its file.
  if (file) {
    entry["file"] = display_path(*file);
    problems = load_ruleset(engine, *file);
  }
  const Ruleset* r = problems.empty() ? loaded_from(engine, *file) : nullptr;
  if (!r) {
    t.broken = true;
    std::fflush(stdout);
    if (!problems.front().span.empty()) {
      std::fputs(render_text(problems).c_str(), stderr);
    } else {
      fmt::print(stderr, "alea: test: {}\n", problems.front().message);
    }
    if (!quiet) fmt::print("FAIL {}: {}\n", what, file ? "the ruleset has errors" : "no such ruleset");
    entry["diagnostics"] = diagnostics_json(problems);
    return entry;
  }
  const std::vector<ExampleRun> runs = run_examples(engine, path, *r);
  bool all_ok = true;
  for (const auto& m : r->mechanics) {
    Diagnostics failures;
    int count = 0, inherited = 0;
    std::string base;  // the ruleset the inherited examples were written for
    for (const auto& run : runs) {
      if (run.mechanic != &m) continue;
      ++count;
      if (!run.example->inherited_from.empty()) {
        ++inherited;
        base = run.example->inherited_from;
      }
      failures.insert(failures.end(), run.problems.begin(), run.problems.end());
    }
    t.examples += count;
    const std::string name = fmt::format("{}.{}", r->name, m.name);
    entry["mechanics"].push_back({{"mechanic", name}, {"examples", count}, {"ok", failures.empty()},
                                  {"diagnostics", diagnostics_json(failures)}, {"inherited", inherited}});
    // "(2 examples, inherited from my-game: ran, results not checked)"
    const std::string unchecked =
        inherited == 0 ? ""
        : fmt::format(", {}inherited from {}: ran, result{} not checked", inherited == count ? "" : fmt::format("{} ", inherited),
                      base, inherited == 1 ? "" : "s");
    if (count == 0) {
      ++t.skipped;
      if (!quiet) fmt::print("SKIP {} (no examples)\n", name);
    } else if (failures.empty()) {
      ++t.passed;
      if (!quiet) fmt::print("PASS {} ({} example{}{})\n", name, count, count == 1 ? "" : "s", unchecked);
    } else {
      ++t.failed;
      all_ok = false;
      const Diagnostic& d = failures.front();
      const std::string where = fmt::format("{}:{}", d.span.file->name(), d.span.file->line_column(d.span.begin).line);
      // The message after "example 'CALL': ", which the line already says with where.
      const auto colon = d.message.find("': ");
      const std::string why = colon == std::string::npos ? d.message : d.message.substr(colon + 3);
      if (!quiet) {
        fmt::print("FAIL {}: example at {}: {}{}\n", name, where, why,
                   failures.size() > 1 ? fmt::format(" (and {} more)", failures.size() - 1) : "");
      }
      std::fflush(stdout);
      std::fputs(render_text(failures).c_str(), stderr);
    }
  }
  entry["ok"] = all_ok;
  return entry;
}

}  // namespace

int test_command(const std::vector<std::string>& rulesets, const RulesetPath& path, const Limits& limits, bool json_out) {
  Engine engine(engine_options(limits, path));
  Tally t;
  TestJson entries = TestJson::array();
  for (const auto& what : rulesets) entries.push_back(test_ruleset(engine, path, what, t, json_out));
  const bool ok = t.failed == 0 && !t.broken;
  if (json_out) {
    const TestJson doc = {{"schema", test_schema}, {"ok", ok}, {"passed", t.passed}, {"failed", t.failed},
                      {"skipped", t.skipped}, {"examples", t.examples}, {"rulesets", entries}};
    fmt::print("{}\n", doc.dump(2));
  } else {
    fmt::print("{} passed, {} failed, {} without examples ({} example{} run){}\n", t.passed, t.failed, t.skipped,
               t.examples, t.examples == 1 ? "" : "s", t.broken ? "; a ruleset did not load" : "");
  }
  std::fflush(stdout);
  return ok ? exit_ok : exit_bad_input;
}

}  // namespace alea::cli
