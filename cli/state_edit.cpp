// cli/state_edit.cpp — `alea state show` and `alea state set`.
#include "cli/state_edit.hpp"

#include <cstdio>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/exit_codes.hpp"
#include "cli/record_args.hpp"
#include "cli/ruleset_commands.hpp"
#include "cli/state_commands.hpp"
#include "cli/state_file.hpp"
#include "dsl/resolver.hpp"
#include "interpreter/rulesets/ruleset.hpp"
#include "interpreter/rulesets/ruleset_files.hpp"

namespace alea::cli {
namespace {

// Loads the ruleset `name` from the path into `engine`; "" when it is loaded, else the problem.
std::string load(Engine& engine, const RulesetPath& path, const std::string& name) {
  if (engine.find_ruleset(name)) return "";
  const auto file = is_ruleset_name(name) ? path.find(name) : std::nullopt;
  if (!file) return no_such_ruleset(name, path, &engine);
  const Diagnostics d = load_ruleset(engine, *file, path.origin_of(*file));
  return d.empty() ? "" : render_text(d);
}

// RULESET.COUNTER=VALUE as the new value of that counter, checked against its declaration.
void apply(Engine& engine, const RulesetPath& path, const std::string& word, State& state) {
  const auto eq = word.find('=');
  const auto dot = word.rfind('.', eq);
  if (eq == std::string::npos || dot == std::string::npos || dot == 0 || dot + 1 == eq || eq + 1 == word.size()) {
    throw UsageError(fmt::format("state set: '{}' is not RULESET.COUNTER=VALUE, as in my-game.edge=4",
                                 word));
  }
  const std::string rname = word.substr(0, dot), counter = word.substr(dot + 1, eq - dot - 1);
  if (const std::string problem = load(engine, path, rname); !problem.empty()) {
    throw UsageError(fmt::format("state set: {}", problem));
  }
  const Ruleset& r = *engine.find_ruleset(rname);
  const StateInfo* info = r.state_counter(counter);
  if (!info) {
    std::vector<std::string> names;
    for (const auto& s : r.state) names.push_back(s.name);
    const std::string near = closest_name(counter, names);
    throw UsageError(fmt::format("state set: {} keeps no counter '{}'{}", r.name, counter,
                                 !near.empty()      ? fmt::format(" (did you mean '{}'?)", near)
                                 : names.empty()    ? std::string("; it keeps no state")
                                                    : fmt::format("; its counters: {}", fmt::join(names, ", "))));
  }
  ScriptedDice no_dice({});
  const Outcome o = engine.roll(argument_text(info, word.substr(eq + 1)), no_dice);
  if (!o.ok() || !o.value) {
    throw UsageError(fmt::format("state set: '{}' is not a value for {}.{}: {}", word.substr(eq + 1), r.name, counter,
                                 o.error ? o.error->message : "it gives no value"));
  }
  state.set(r.name, counter, *o.value);
}

// `set-character FILE NAME @FILE#ENTRY`: the entry as the character NAME of `state`.
void set_character(const StateArgs& a, State& state) {
  if (!alea::detail::is_identifier(a.character)) {
    throw UsageError(fmt::format("state set-character: '{}' is not a name an argument can give (as in ivan)",
                                 a.character));
  }
  const auto ref = record_ref(a.from);
  if (!ref || ref->file.empty()) {
    throw UsageError(fmt::format("state set-character: give the character as @FILE#ENTRY, as in @party.yaml#{}, "
                                 "not '{}'", a.character, a.from));
  }
  RecordFiles files({}, Limits{});
  Diagnostics problems;
  const RecordFile* f = files.get(ref->file, problems);
  if (!f) throw StateFileError(render_text(problems));
  const RecordEntry e = ref->entry ? f->entry(*ref->entry) : f->whole();
  if (!e) {
    const auto names = f->names();
    const std::string near = closest_name(*ref->entry, names);
    throw StateFileError(fmt::format("{}: error: there is no entry '{}'{}; its entries: {}\n", ref->file, *ref->entry,
                                     near.empty() ? "" : fmt::format(" (did you mean '{}'?)", near),
                                     names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "))));
  }
  state.set(characters_key, a.character, *e.value);
}

}  // namespace

int state_command(const StateArgs& a, const RulesetPath& path) {
  Engine engine(engine_options({}, path));
  try {
    std::optional<StateLock> lock;
    if (a.action != "show") lock.emplace(a.file);
    const State before = read_state_file(a.file);
    for (const auto& [rname, values] : before.all()) {
      (void)values;
      if (rname == characters_key) continue;
      if (const std::string problem = load(engine, path, rname); !problem.empty()) {
        throw StateFileError(fmt::format("{}: error: the state's entry '{}': {}\n", a.file, rname, problem));
      }
    }
    check_state_file(a.file, before, engine, path);
    if (a.action == "show") {
      if (before.empty()) {
        fmt::print("{} holds no state: every counter is at its default\n", a.file);
        return exit_ok;
      }
      fmt::print("{}", state_text(engine, before));
      if (const auto c = before.all().find(characters_key); c != before.all().end()) {
        std::vector<std::string> names;
        for (const auto& [name, v] : c->second) names.push_back(name);
        fmt::print("characters, each a record argument by its name with --state {}: {}\n", a.file, fmt::join(names, ", "));
      }
      return exit_ok;
    }
    if (a.action == "set-character") {
      State after = before;
      set_character(a, after);
      write_state_file(a.file, after);
      fmt::print("{}: the character {} is {}\n", a.file, a.character, to_display(*after.find(characters_key, a.character)));
      return exit_ok;
    }
    if (a.settings.empty()) throw UsageError("state set: give RULESET.COUNTER=VALUE, as in my-game.edge=4");
    State after = before;
    for (const auto& w : a.settings) apply(engine, path, w, after);
    // Bounds and types, as any state file is checked; nothing is written unless every value fits.
    try {
      check_state_file(a.file, after, engine, path);
    } catch (const StateFileError& e) {
      std::fputs(std::string(e.what()).c_str(), stderr);
      fmt::print(stderr, "{} was left as it was\n", a.file);
      return exit_bad_input;
    }
    if (!(after == before)) write_state_file(a.file, after);
    const std::string changes = state_changes_text(engine, before, after);
    fmt::print("{}", changes.empty() ? fmt::format("{} already held those values\n", a.file) : changes);
    return exit_ok;
  } catch (const StateFileError& e) {
    std::fputs(e.what(), stderr);
    return exit_bad_input;
  }
}

}  // namespace alea::cli
