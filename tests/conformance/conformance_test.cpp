// tests/conformance/conformance_test.cpp — one corpus of language cases, run
// through every engine: the tracing evaluator with scripted dice, the lowered
// sampler against the evaluator roll for roll, and the composed exact odds
// against the full enumeration.
//
// The cases are the files tests/conformance/*.alea (see README.md there). A
// file is a series of chunks separated by blank lines; a chunk is one case:
//
//   # case: keep-sees-explosion-dice      (optional: names the test)
//   # keep sees exploded dice as dice of their own.   (free comment)
//   # dice: 6, 2, 5                        (the scripted faces; may be empty)
//   # expect: 6                            (to_display of the value, or
//                                           "error: Code: message")
//   2d6!kh1                                (the source: every line after the
//                                           header, to the end of the chunk)
//
// The header is the chunk's leading lines that start with '#'. A header line
// "# word: …" (a lowercase word, dashes allowed, then a colon) is a directive,
// and must be one of:
//
//   case: NAME               the case's name, [a-z0-9-]+, unique in the file
//   dice: F, F, …            required; the faces the evaluator is given, in order
//   expect: TEXT             required; the evaluator's value or error, exactly
//   ruleset: NAME, …         load rulesets/NAME.yaml (or this folder's rulesets/NAME.yaml)
//   bind: NAME = EXPR        a host binding (EXPR is evaluated without dice)
//   explosion-depth: N       the exact engine's explosion depth (default 6)
//   counters: F, F | none    the fields of loops' states the exact engine moves as
//                            counters, sorted (checked when given)
//   summaries: N             how many times the exact engine held a let's pools as
//                            summaries (checked when given)
//   tight-limits: errors     under the tight limits, some seeded runs must fail
//   skip-sampler: REASON     the program does not lower (checked: it must not)
//   skip-exact: REASON       the exact engine does not compose it (checked)
//   skip-enumeration: REASON it composes, but the enumeration cannot give the
//                            exact answer to compare with (checked)
//   exact-unchecked: REASON  the exact check is not run at all and the claim is
//                            not checked: a debt, listed by the SkipLists test
//
// Any other header line starting with '#' is a free comment. A chunk with no
// source and no directive is a comment (a file's heading). Anything else that
// does not fit — an unknown directive, a directive after the source, a missing
// dice or expect line, a malformed number — is a failing test that names the
// file and line, never a skipped case.
//
// Each case is three tests, named by file and case: Evaluator (the scripted
// dice give the expected value, and a successful run uses every scripted face),
// Sampler (the lowered program agrees with the evaluator from 200 seeds, at the
// default limits and at tight limits: the same value or error at the same
// place, and the same dice drawn) and Exact (the composed distribution equals
// the enumerated one exactly). The skip lists are the skip-* lines; the test
// Conformance.SkipLists prints them.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "interpreter/api.hpp"
#include "interpreter/sample/lowered.hpp"
#include "interpreter/stats.hpp"
#include "tests/support/lowered_agree.hpp"
#include "tests/support/roll.hpp"
#include "tests/support/same_stats.hpp"

namespace alea {
namespace conformance_test {

namespace fs = std::filesystem;

fs::path corpus_dir() { return fs::path(ALEA_SOURCE_DIR) / "tests" / "conformance"; }

struct Case {
  std::string file;  // "explode.alea"
  int line = 0;      // the chunk's first line
  std::string name;  // the test's name: file stem and case
  std::string label;  // `# case:` or the source's first line
  std::string source;
  std::vector<std::int64_t> dice;
  std::string expect;
  std::vector<std::string> rulesets;
  std::vector<std::pair<std::string, std::string>> bindings;
  int explosion_depth = 6;
  bool tight_errors = false;
  std::optional<std::string> skip_sampler, skip_exact, skip_enumeration, exact_unchecked;
  std::optional<std::vector<std::string>> counters;
  std::optional<std::uint64_t> summaries;
  std::string malformed;  // a problem with the chunk or the file: the case fails with it

  [[nodiscard]] std::string where() const { return fmt::format("{}:{} [{}]", file, line, label); }
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.where(); }

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

// A shipped ruleset, or one of the corpus's own (tests/conformance/rulesets/).
std::optional<fs::path> ruleset_file(const std::string& name) {
  for (const fs::path dir : {fs::path(ALEA_SOURCE_DIR) / "rulesets", fs::path(ALEA_SOURCE_DIR) / "tests" / "conformance" / "rulesets"}) {
    if (fs::exists(dir / (name + ".yaml"))) return dir / (name + ".yaml");
  }
  return std::nullopt;
}

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  if (trim(s).empty()) return out;
  std::size_t start = 0;
  for (;;) {
    const auto comma = s.find(',', start);
    out.push_back(trim(s.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

std::optional<std::int64_t> parse_int(const std::string& s) {
  std::int64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

// An identifier for GoogleTest: letters, digits and underscores; symbols as words.
std::string slug(std::string_view text) {
  static const std::vector<std::pair<std::string_view, std::string_view>> words = {
      {">=", "ge"}, {"<=", "le"}, {"<>", "ne"}, {"!=", "ne"}, {"==", "eq"}, {">", "gt"}, {"<", "lt"},
      {"=", "eq"},  {"!", "x"},   {"+", "plus"}, {"-", "minus"}, {"*", "times"}, {"/", "div"}, {"%", "pct"}};
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const char ch = text[i];
    if (std::isalnum(static_cast<unsigned char>(ch))) {
      out += ch;
      ++i;
      continue;
    }
    bool matched = false;
    for (const auto& [sym, word] : words) {
      if (text.substr(i, sym.size()) == sym) {
        if (!out.empty() && out.back() != '_') out += '_';
        out += word;
        out += '_';
        i += sym.size();
        matched = true;
        break;
      }
    }
    if (matched) continue;
    if (!out.empty() && out.back() != '_') out += '_';
    ++i;
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  if (out.size() > 60) out.resize(60);
  return out;
}

Case broken(std::string file, std::string label, std::string problem) {
  Case c;
  c.file = std::move(file);
  c.label = std::move(label);
  c.malformed = c.file + ": " + problem;
  return c;
}

// Reads one file's chunks; a problem becomes a case that fails with it.
void read_file(const fs::path& path, std::vector<Case>& out) {
  const std::string file = path.filename().string();
  std::ifstream in(path);
  if (!in) {
    out.push_back(broken(file, "the file", "cannot read the file"));
    return;
  }
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  static const std::regex directive(R"(^#\s*([a-z][a-z-]*):(.*)$)");
  static const std::regex case_name("^[a-z0-9][a-z0-9-]*$");
  static const std::regex binding(R"(^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.+)$)");
  std::set<std::string> names;
  std::size_t i = 0;
  while (i < lines.size()) {
    if (trim(lines[i]).empty()) {
      ++i;
      continue;
    }
    const std::size_t first = i;
    std::size_t end = i;
    while (end < lines.size() && !trim(lines[end]).empty()) ++end;
    i = end;
    Case c;
    c.file = file;
    c.line = static_cast<int>(first) + 1;
    std::string problem;
    auto fail = [&](std::size_t at, const std::string& what) {
      if (problem.empty()) problem = fmt::format("{}:{}: {}", file, at + 1, what);
    };
    bool any_directive = false, has_dice = false, has_expect = false;
    std::size_t k = first;
    std::set<std::string> seen;
    for (; k < end && lines[k].starts_with('#'); ++k) {
      std::smatch m;
      if (!std::regex_match(lines[k], m, directive)) continue;  // a free comment
      any_directive = true;
      const std::string key = m[1], value = trim(m[2].str());
      if (key != "bind" && key != "ruleset" && !seen.insert(key).second) fail(k, "'" + key + "' given twice");
      if (key == "case") {
        if (!std::regex_match(value, case_name)) fail(k, "a case name is [a-z0-9-]+, not '" + value + "'");
        if (!names.insert(value).second) fail(k, "the case name '" + value + "' is used twice in the file");
        c.label = value;
      } else if (key == "dice") {
        has_dice = true;
        for (const std::string& f : split_commas(value)) {
          const auto v = parse_int(f);
          if (!v) fail(k, "a face must be an integer, not '" + f + "'");
          else c.dice.push_back(*v);
        }
      } else if (key == "expect") {
        has_expect = true;
        c.expect = value;
        if (value.empty()) fail(k, "'expect' needs the value or error");
      } else if (key == "ruleset") {
        for (const std::string& r : split_commas(value)) {
          if (r.empty() || !ruleset_file(r)) fail(k, "no ruleset rulesets/" + r + ".yaml or tests/conformance/rulesets/" + r + ".yaml");
          c.rulesets.push_back(r);
        }
        std::sort(c.rulesets.begin(), c.rulesets.end());
      } else if (key == "bind") {
        std::smatch b;
        if (!std::regex_match(value, b, binding)) fail(k, "'bind' is 'NAME = EXPRESSION'");
        else c.bindings.emplace_back(b[1], trim(b[2].str()));
      } else if (key == "explosion-depth") {
        const auto v = parse_int(value);
        if (!v || *v < 0) fail(k, "'explosion-depth' needs a count, not '" + value + "'");
        else c.explosion_depth = static_cast<int>(*v);
      } else if (key == "tight-limits") {
        if (value != "errors") fail(k, "'tight-limits' can only be 'errors'");
        c.tight_errors = true;
      } else if (key == "counters") {
        std::vector<std::string> names;
        for (std::size_t at = 0; value != "none" && at <= value.size();) {
          const std::size_t comma = std::min(value.find(',', at), value.size());
          names.push_back(trim(std::string_view(value).substr(at, comma - at)));
          if (names.back().empty()) fail(k, "'counters' is a list of field names, or none");
          at = comma + 1;
        }
        c.counters = names;
      } else if (key == "summaries") {
        const auto v = parse_int(value);
        if (!v || *v < 0) fail(k, "'summaries' needs a count, not '" + value + "'");
        else c.summaries = static_cast<std::uint64_t>(*v);
      } else if (key == "exact-unchecked") {
        if (value.empty()) fail(k, "'" + key + "' needs its reason");
        c.exact_unchecked = value;
      } else if (key == "skip-sampler" || key == "skip-exact" || key == "skip-enumeration") {
        if (value.empty()) fail(k, "'" + key + "' needs its reason");
        (key == "skip-sampler" ? c.skip_sampler : key == "skip-exact" ? c.skip_exact : c.skip_enumeration) = value;
      } else {
        fail(k, "unknown directive '" + key + "' (a free comment must not start with 'word:')");
      }
    }
    if (int{c.skip_exact.has_value()} + int{c.skip_enumeration.has_value()} + int{c.exact_unchecked.has_value()} > 1)
      fail(first, "only one of 'skip-exact', 'skip-enumeration' and 'exact-unchecked'");
    std::vector<std::string> source;
    for (; k < end; ++k) {
      if (std::regex_match(lines[k], directive)) fail(k, "a directive after the source starts");
      source.push_back(lines[k]);
    }
    if (source.empty()) {
      if (!any_directive) continue;  // a comment
      fail(first, "the chunk has no source");
    } else {
      if (!has_dice) fail(first, "the chunk has no '# dice:' line (write '# dice:' for none)");
      if (!has_expect) fail(first, "the chunk has no '# expect:' line");
    }
    for (std::size_t s = 0; s < source.size(); ++s) c.source += (s ? "\n" : "") + source[s];
    if (c.label.empty()) c.label = source.empty() ? "?" : source[0];
    c.malformed = problem;
    out.push_back(std::move(c));
  }
}

const std::vector<Case>& corpus() {
  static const std::vector<Case> cases = [] {
    std::vector<Case> all;
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(corpus_dir(), ec))
      if (e.path().extension() == ".alea") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    if (files.empty()) all.push_back(broken(corpus_dir().string(), "the corpus", "it has no .alea files"));
    for (const fs::path& f : files) read_file(f, all);
    std::map<std::string, int> used;
    for (Case& c : all) {
      std::string base = slug(fs::path(c.file).stem().string()) + "_" + slug(c.label);
      const int n = ++used[base];
      c.name = n == 1 ? base : fmt::format("{}_{}", base, n);
    }
    // A name made unique by a suffix may meet another case's own name: number again.
    std::set<std::string> taken;
    for (Case& c : all)
      for (int n = 2; !taken.insert(c.name).second; ++n) c.name = fmt::format("{}_{}", c.name, n);
    return all;
  }();
  return cases;
}

// An engine with the case's rulesets loaded, at the default or the tight limits.
const Engine& engine_for(const Case& c, bool tight = false) {
  static std::map<std::string, std::unique_ptr<Engine>> engines;
  std::string key = tight ? "tight:" : "default:";
  for (const std::string& r : c.rulesets) key += r + ",";
  auto& e = engines[key];
  if (!e) {
    auto made = std::make_unique<Engine>(EngineOptions{tight ? testing::tight_limits() : Limits{}, {}});
    for (const std::string& r : c.rulesets) {
      const Diagnostics d = made->load_ruleset_file(*ruleset_file(r));
      if (!d.empty()) throw std::runtime_error(render_text(d));
    }
    e = std::move(made);
  }
  return *e;
}

Bindings bindings_for(const Case& c) {
  Bindings b;
  for (const auto& [name, expr] : c.bindings) {
    ScriptedDice none({});
    const Outcome o = engine_for(c).roll(expr, none);
    if (!o.ok() || !o.value) throw std::runtime_error(fmt::format("{}: the binding {} = {} has no value: {}",
                                                                  c.where(), name, expr, testing::show(o)));
    b.set(name, *o.value);
  }
  return b;
}

// --- the sampler: the lowered program against the evaluator -------------------

// Whether the case lowers at the default limits, and if not, why.
bool lowers(const Case& c, std::string& why) {
  const Compiled compiled = engine_for(c).compile(c.source);
  if (!compiled.ok()) {
    why = "it does not compile";
    return false;
  }
  return LoweredProgram::lower(*compiled.program, bindings_for(c), Limits{}, why) != nullptr;
}

// --- the exact engine: composed against enumerated ------------------------------

StatsOptions options_for(const Case& c, bool compose) {
  StatsOptions o;
  o.explosion_depth = c.explosion_depth;
  o.compose = compose;
  o.exact_only = true;
  // A cap, not the time, decides (the skip lists name it): the same verdict on any machine.
  o.max_branches = compose ? 100'000 : 1'000'000;
  return o;
}

std::optional<Stats> stats_of(const Case& c, bool compose) {
  const Engine& engine = engine_for(c);
  const Compiled compiled = engine.compile(c.source);
  if (!compiled.ok()) return std::nullopt;
  return compute_stats(engine, compiled.program, bindings_for(c), options_for(c, compose));
}

// Whether the composed engine answers the case; if not, why (the composer's
// own reason; compute_stats would enumerate first, and lose it).
bool composes(const Case& c, std::string& why, std::vector<std::string>* counters = nullptr,
              std::uint64_t* summaries = nullptr) {
  const Engine& engine = engine_for(c);
  const Compiled compiled = engine.compile(c.source);
  if (!compiled.ok()) {
    why = "it does not compile";
    return false;
  }
  const compose::Composed attempt = testing::compose_only(engine, *compiled.program, bindings_for(c),
                                                          options_for(c, true));
  why = attempt.why_not.empty() ? "no reason given" : attempt.why_not;
  if (counters) *counters = attempt.loop_counters;
  if (summaries) *summaries = attempt.summaries;
  return attempt.stats.has_value();
}

void expect_same(const Stats& fast, const Stats& slow, std::string_view what) {
  ASSERT_EQ(slow.method, StatsMethod::Exact) << what << ": " << (slow.first_error ? slow.first_error->message : "");
  std::string diff;
  for (const std::string& d : testing::stats_differences(fast, slow)) diff += "\n  " + d;
  EXPECT_TRUE(diff.empty()) << what << ": the composed and the enumerated distributions differ:" << diff;
}

// --- the tests ----------------------------------------------------------------

class Conformance : public ::testing::TestWithParam<Case> {};

TEST_P(Conformance, Evaluator) {
  const Case& c = GetParam();
  if (!c.malformed.empty()) FAIL() << c.malformed;
  SCOPED_TRACE(c.where());
  ScriptedDice dice(c.dice);
  const Outcome o = engine_for(c).roll(c.source, dice, bindings_for(c));
  EXPECT_EQ(testing::show(o), c.expect) << c.where() << "\n" << c.source;
  if (o.ok()) {
    EXPECT_EQ(dice.remaining(), 0u) << c.where() << ": " << dice.remaining() << " of the scripted dice were not used";
  }
}

TEST_P(Conformance, Sampler) {
  const Case& c = GetParam();
  if (!c.malformed.empty()) FAIL() << c.malformed;
  SCOPED_TRACE(c.where());
  std::string why;
  const bool lowered = lowers(c, why);
  if (c.skip_sampler) {
    EXPECT_FALSE(lowered) << c.where() << " is on the sampler's skip list (" << *c.skip_sampler
                          << ") but it lowers: remove its '# skip-sampler:' line";
    return;
  }
  ASSERT_TRUE(lowered) << c.where() << " does not lower (" << why << "): fix that, or add '# skip-sampler: "
                       << why << "'";
  const Bindings b = bindings_for(c);
  testing::agree(engine_for(c), c.source, b, 200);
  const int errors = testing::agree(engine_for(c, true), c.source, b, 200);
  if (c.tight_errors) {
    EXPECT_GT(errors, 0) << c.where() << " was meant to meet an error at the tight limits";
  }
}

TEST_P(Conformance, Exact) {
  const Case& c = GetParam();
  if (!c.malformed.empty()) FAIL() << c.malformed;
  SCOPED_TRACE(c.where());
  if (c.exact_unchecked) GTEST_SKIP() << c.where() << ": exact-unchecked: " << *c.exact_unchecked;
  std::string why;
  std::vector<std::string> counters;
  std::uint64_t summaries = 0;
  const bool composed = composes(c, why, &counters, &summaries);
  if (c.counters) {
    EXPECT_EQ(counters, *c.counters) << c.where() << ": the fields moved as counters";
  }
  if (c.summaries) {
    EXPECT_EQ(summaries, *c.summaries) << c.where() << ": the let values held as summaries";
  }
  if (c.skip_exact) {
    EXPECT_FALSE(composed) << c.where() << " is on the exact engine's skip list (" << *c.skip_exact
                           << ") but it composes: remove its '# skip-exact:' line";
    return;
  }
  ASSERT_TRUE(composed) << c.where() << " is not composed (" << why << "): fix that, or add '# skip-exact: " << why
                        << "'";
  // compute_stats takes the composer's answer: the one the user sees.
  const std::optional<Stats> fast = stats_of(c, true);
  ASSERT_TRUE(fast && fast->exact_method == "composed") << c.where() << ": composed alone but not by compute_stats";
  const std::optional<Stats> slow = stats_of(c, false);
  ASSERT_TRUE(slow);
  // With exact_only, an enumeration that gives up comes back with no entries
  // and the reason as its first error ("no exact answer: …"), not as `reason`.
  const bool enumerated = slow->exact_method == "enumerated";
  const std::string why_not = !slow->reason.empty() ? slow->reason
                              : slow->first_error  ? slow->first_error->message
                                                   : "no reason given";
  if (c.skip_enumeration) {
    EXPECT_FALSE(enumerated) << c.where() << " is on the enumeration's skip list (" << *c.skip_enumeration
                             << ") but the enumeration answers it: remove its '# skip-enumeration:' line";
    return;
  }
  ASSERT_TRUE(enumerated) << c.where() << ": the enumeration does not answer (" << why_not
                          << "): add '# skip-enumeration: " << why_not << "'";
  expect_same(*fast, *slow, c.where());
}

INSTANTIATE_TEST_SUITE_P(Corpus, Conformance, ::testing::ValuesIn(corpus()),
                         [](const ::testing::TestParamInfo<Case>& p) { return p.param.name; });

// The skip lists, printed, and the counts of each engine.
TEST(ConformanceCorpus, SkipLists) {
  std::size_t sampler = 0, exact = 0, enumeration = 0, unchecked = 0, malformed = 0;
  std::string sampler_list, exact_list, enumeration_list, unchecked_list;
  for (const Case& c : corpus()) {
    if (!c.malformed.empty()) ++malformed;
    if (c.skip_sampler) sampler_list += fmt::format("  {}: {}\n", c.where(), *c.skip_sampler), ++sampler;
    if (c.skip_exact) exact_list += fmt::format("  {}: {}\n", c.where(), *c.skip_exact), ++exact;
    if (c.skip_enumeration)
      enumeration_list += fmt::format("  {}: {}\n", c.where(), *c.skip_enumeration), ++enumeration;
    if (c.exact_unchecked) unchecked_list += fmt::format("  {}: {}\n", c.where(), *c.exact_unchecked), ++unchecked;
  }
  const std::size_t n = corpus().size();
  std::printf("conformance corpus: %zu cases (%zu malformed)\n", n, malformed);
  std::printf("evaluator: %zu cases\n", n);
  std::printf("sampler: %zu cases; skipped %zu:\n%s", n - sampler, sampler, sampler_list.c_str());
  std::printf("exact, composed = enumerated: %zu cases; not composed %zu:\n%s", n - exact - enumeration - unchecked,
              exact, exact_list.c_str());
  std::printf("exact, not checked %zu:\n%s", unchecked, unchecked_list.c_str());
  std::printf("exact, composed but not enumerable %zu:\n%s", enumeration, enumeration_list.c_str());
  EXPECT_EQ(malformed, 0u);
}

// The comparison finds a difference (the fuzz harness fuzz_exact relies on it
// as much as this driver): 2d6 composed against 2d6kh1 enumerated.
TEST(ConformanceCorpus, DifferencesAreFound) {
  const Engine engine;
  StatsOptions o;
  o.exact_only = true;
  const Stats fast = compute_stats(engine, engine.compile("2d6").program, {}, o);
  o.compose = false;
  const Stats same = compute_stats(engine, engine.compile("2d6").program, {}, o);
  const Stats other = compute_stats(engine, engine.compile("2d6kh1").program, {}, o);
  ASSERT_EQ(fast.exact_method, "composed");
  ASSERT_EQ(same.exact_method, "enumerated");
  EXPECT_TRUE(testing::stats_differences(fast, same).empty());
  const std::vector<std::string> d = testing::stats_differences(fast, other);
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d.front(), "value P(0:1): composed none, enumerated 1/36");  // kind 0: a number
  EXPECT_NE(std::find(d.begin(), d.end(), "mean: composed 7/1, enumerated 161/36"), d.end());
}

// The corpus meets the tight limits often enough to check the errors at them.
TEST(ConformanceCorpus, MeetsTheLimitsOften) {
  const auto n = std::count_if(corpus().begin(), corpus().end(), [](const Case& c) { return c.tight_errors; });
  EXPECT_GT(n, 40);
}

}  // namespace conformance_test
}  // namespace alea
