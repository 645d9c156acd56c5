// cli/stats_variants.cpp — the words of `alea stats` as variants, shared settings and sweeps.
#include "cli/stats_variants.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>

#include "cli/file_mechanic.hpp"
#include "cli/ruleset_commands.hpp"
#include "cli/ruleset_path.hpp"
#include "dsl/resolver.hpp"
#include "cli/stats_command.hpp"

namespace alea::cli {

namespace {

// The most cells one command computes: each is at least a compile and an odds computation.
constexpr std::size_t max_cells = 100'000;

std::string key_of(std::string_view setting) { return std::string(setting.substr(0, setting.find('='))); }
std::string value_of(std::string_view setting) { return std::string(setting.substr(setting.find('=') + 1)); }

std::optional<std::int64_t> whole_number(std::string_view s) {
  std::int64_t v = 0;
  const char* begin = s.data() + (!s.empty() && s.front() == '+');
  const auto r = std::from_chars(begin, s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size() || begin == s.data() + s.size()) return std::nullopt;
  return v;
}

std::string plural_variants(std::size_t n) { return n == 1 ? "1 variant" : fmt::format("{} variants", n); }

// Whether `source` is an expression of its own: it compiles in the session and every name it
// reads from the host is one of the session's variables, which a word that is only a name
// (`oops`) is not. With `variables` given on the command line it only has to compile: a name
// none of them sets is then a misspelt variable, which the line reports as such.
bool is_expression(const StatsSession& session, const std::string& source, bool variables = false) {
  if (!load_mentioned(session.engine, session.path, source).empty()) return false;
  const Compiled c = session.engine.compile(source, "<input>", session.imports);
  if (!c.ok()) return false;
  if (variables) return true;
  const std::vector<std::string> read = host_names_read(c);
  return std::all_of(read.begin(), read.end(),
                     [&](const std::string& n) { return session.variables && session.variables->find(n); });
}

}  // namespace

std::size_t StatsPlan::combinations() const {
  std::size_t n = 1;
  for (const auto& a : axes) n *= a.values.size();
  return n;
}

std::optional<std::vector<std::string>> sweep_values(std::string_view value, std::string_view word) {
  if (const auto dots = value.find(".."); dots != std::string_view::npos) {
    const auto low = whole_number(value.substr(0, dots)), high = whole_number(value.substr(dots + 2));
    if (low && high) {
      if (*low > *high) {
        throw UsageError(fmt::format("'{}': the range {} goes down; write it from low to high ({}..{})", word, value,
                                     *high, *low));
      }
      if (static_cast<std::uint64_t>(*high - *low) >= max_cells) {
        throw UsageError(fmt::format("'{}': the range {} has more than {} values", word, value, max_cells));
      }
      std::vector<std::string> out;
      for (std::int64_t v = *low; v <= *high; ++v) out.push_back(std::to_string(v));
      return out;
    }
  }
  // A list: the commas outside brackets, braces, parentheses and quotes.
  std::vector<std::string> items;
  int depth = 0;
  char quote = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= value.size(); ++i) {
    const char c = i < value.size() ? value[i] : ',';
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') --depth;
    else if (c == ',' && depth == 0) {
      items.emplace_back(value.substr(start, i - start));
      start = i + 1;
    }
  }
  if (items.size() < 2) return std::nullopt;
  for (const auto& item : items) {
    if (item.find_first_not_of(" \t") == std::string::npos) {
      throw UsageError(fmt::format("'{}': the list {} has an empty item", word, value));
    }
  }
  return items;
}

StatsPlan plan_stats(const StatsSession& session, const std::vector<std::string>& words,
                     const std::vector<std::string>& labels, bool variants) {
  const RulesetPath& path = session.path;
  StatsPlan plan;
  std::map<std::filesystem::path, std::shared_ptr<Engine>> file_engines;  // one per file named
  // `PATH#MECHANIC`: the file in an engine of its own (with the session's options, so that
  // `extends:` searches as the session does), the call's target in it.
  const auto file_variant = [&](const std::string& word) {
    const std::filesystem::path file = std::filesystem::path(file_mechanic_word(word)->file).lexically_normal();
    auto& engine = file_engines[file];
    StatsVariant v{word, {}, true, {}, nullptr, {}};
    if (!engine) engine = std::make_shared<Engine>(session.engine.options());
    v.engine = engine;
    FileMechanic m = load_file_mechanic(*engine, word, "stats");
    v.target = m.target.empty() ? word : m.target;
    v.load_problems = std::move(m.problems);
    if (!v.load_problems.empty()) v.load_problems.front().note({}, fmt::format("'{}' names this file", word));
    return v;
  };
  bool any_mechanic = false;
  for (std::size_t i = 0; i < words.size(); ++i) any_mechanic = any_mechanic || calls_mechanic(path, words, i);
  const bool any_setting = std::any_of(words.begin(), words.end(), [](const auto& w) { return is_setting(w); });
  // `3d6 + 2` is one expression; `3d6 4d6kh3` is two. Variables may follow either:
  // `'d20 + bonus' bonus=5`.
  std::size_t end = words.size();
  while (end > 1 && is_setting(words[end - 1])) --end;
  const std::vector<std::string> leading(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(end));
  const std::string joined = fmt::format("{}", fmt::join(leading, " "));
  bool one_expression =
      !any_mechanic && (leading.size() == 1 || (!variants && is_expression(session, joined, words.size() > end)));
  if (!one_expression && !any_mechanic && !any_setting && !variants) {
    const auto alone = std::count_if(words.begin(), words.end(), [&](const auto& w) { return is_expression(session, w); });
    one_expression = alone < 2;  // then the error is the whole line's
  }
  if (one_expression) {
    plan.variants.push_back({joined, joined, false, {}, nullptr, {}});
    plan.shared.assign(words.begin() + static_cast<std::ptrdiff_t>(end), words.end());
  } else {
    for (std::size_t i = 0; i < words.size(); ++i) {
      if (file_mechanic_word(words[i])) {
        plan.variants.push_back(file_variant(words[i]));
      } else if (calls_mechanic(path, words, i)) {
        plan.variants.push_back({words[i], words[i], true, {}, nullptr, {}});
      } else if (is_setting(words[i])) {
        if (plan.variants.empty()) {
          throw UsageError(fmt::format("stats: '{}' comes before the mechanic it would set; write RULESET.MECHANIC "
                                       "first, as in: alea stats my-game.check {}",
                                       words[i], words[i]));
        }
        plan.variants.back().settings.push_back(words[i]);
      } else if (!plan.variants.empty() && plan.variants.back().mechanic && !is_expression(session, words[i])) {
        // Neither a setting nor an expression: a mistyped setting, as `alea roll` says.
        throw UsageError(fmt::format("stats: '{}' is not a parameter setting; after {} write name=value words, as "
                                     "in dice=3",
                                     words[i], plan.variants.back().label));
      } else {
        plan.variants.push_back({words[i], words[i], false, {}, nullptr, {}});
      }
    }
    // The settings after the last variant are everyone's.
    plan.shared = std::move(plan.variants.back().settings);
    plan.variants.back().settings.clear();
  }
  // A shared setting sets a mechanic's parameter (which the call checks), or an expression's
  // variable: one that no variant reads is a mistake.
  if (!any_mechanic && !plan.shared.empty()) {
    std::vector<std::string> read;
    for (const auto& v : plan.variants) {
      const Compiled c = session.engine.compile(v.target, "<input>", session.imports);
      if (!c.ok()) continue;  // its cell reports it
      for (auto& n : host_names_read(c)) {
        if (std::find(read.begin(), read.end(), n) == read.end()) read.push_back(std::move(n));
      }
    }
    for (const auto& s : plan.shared) {
      const std::string key = key_of(s);
      if (std::find(read.begin(), read.end(), key) != read.end()) continue;
      const std::string near = closest_name(key, read);
      throw UsageError(fmt::format("stats: the variable '{}' is given but {} reads it{}", key,
                                   plan.variants.size() == 1 ? "the expression never" : "no expression",
                                   !near.empty()  ? fmt::format(" (did you mean '{}'?)", near)
                                   : read.empty() ? std::string(" (they read no variables)")
                                                  : fmt::format(" (they read {})", fmt::join(read, ", "))));
    }
  }
  // A label names each variant: its words, and the shared settings another variant sets itself
  // (`A dice=3 A dice=4`: "A dice=3", "A dice=4").
  for (auto& v : plan.variants) {
    std::vector<std::string> shown{v.label};
    for (const auto& s : v.settings) shown.push_back(s);
    for (const auto& s : plan.shared) {
      const std::string key = key_of(s);
      const auto own = [&](const StatsVariant& other) {
        return std::any_of(other.settings.begin(), other.settings.end(), [&](const auto& o) { return key_of(o) == key; });
      };
      if (!own(v) && std::any_of(plan.variants.begin(), plan.variants.end(), own)) shown.push_back(s);
    }
    v.label = fmt::format("{}", fmt::join(shown, " "));
  }
  if (!labels.empty()) {
    if (labels.size() != plan.variants.size()) {
      throw UsageError(fmt::format("stats: {} --label for {}; give one per variant, in order",
                                   labels.size(), plural_variants(plan.variants.size())));
    }
    for (std::size_t i = 0; i < labels.size(); ++i) plan.variants[i].label = labels[i];
  }
  // The swept settings, each name once.
  const auto add_axes = [&](const std::vector<std::string>& settings) {
    for (const auto& s : settings) {
      auto values = sweep_values(value_of(s), s);
      if (!values) continue;
      const std::string key = key_of(s);
      const auto same = std::find_if(plan.axes.begin(), plan.axes.end(), [&](const auto& a) { return a.name == key; });
      if (same == plan.axes.end()) {
        plan.axes.push_back({key, std::move(*values)});
      } else if (same->values != *values) {
        throw UsageError(fmt::format("stats: '{}' is swept twice with different values; sweep it once, after the "
                                     "last variant, to give it to all",
                                     key));
      }
    }
  };
  for (const auto& v : plan.variants) add_axes(v.settings);
  add_axes(plan.shared);
  std::size_t cells = plan.variants.size();
  for (const auto& a : plan.axes) {
    if (cells > max_cells / a.values.size()) {
      throw UsageError(fmt::format("stats: the sweep has more than {} cells; sweep fewer values", max_cells));
    }
    cells *= a.values.size();
  }
  return plan;
}

std::vector<std::string> combination(const StatsPlan& plan, std::size_t index) {
  std::vector<std::string> values(plan.axes.size());
  for (std::size_t k = plan.axes.size(); k-- > 0;) {
    const auto& a = plan.axes[k].values;
    values[k] = a[index % a.size()];
    index /= a.size();
  }
  return values;
}

std::vector<std::string> cell_settings(const StatsPlan& plan, const StatsVariant& v,
                                       const std::vector<std::string>& values) {
  std::vector<std::string> out = v.settings;
  for (const auto& s : plan.shared) {
    const std::string key = key_of(s);
    if (std::none_of(v.settings.begin(), v.settings.end(), [&](const auto& o) { return key_of(o) == key; })) {
      out.push_back(s);
    }
  }
  for (auto& s : out) {
    const std::string key = key_of(s);
    for (std::size_t k = 0; k < plan.axes.size(); ++k) {
      if (plan.axes[k].name == key) s = key + "=" + values[k];
    }
  }
  return out;
}

}  // namespace alea::cli
