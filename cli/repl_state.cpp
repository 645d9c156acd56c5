// cli/repl_state.cpp — :state, :choose and the REPL's state file.
#include "cli/repl_state.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "cli/output.hpp"
#include "cli/ruleset_commands.hpp"
#include "cli/state_commands.hpp"
#include "cli/state_file.hpp"

namespace alea::cli {

namespace {

std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto b = text.find_first_not_of(" \t", pos);
    if (b == std::string_view::npos) break;
    const auto e = text.find_first_of(" \t", b);
    out.emplace_back(text.substr(b, e == std::string_view::npos ? text.npos : e - b));
    pos = e == std::string_view::npos ? text.size() : e;
  }
  return out;
}

}  // namespace

std::string ReplState::open() {
  if (file_.empty()) return {};
  try {
    State state = read_state_file(file_);
    for (const auto& [name, values] : state.all()) {
      if (engine_.find_ruleset(name) || !is_ruleset_name(name)) continue;
      if (const auto found = path_.find(name)) {
        if (const Diagnostics d = load_ruleset(engine_, *found, path_.origin_of(*found)); !d.empty()) return render_text(d);
      }
    }
    check_state_file(file_, state, engine_, path_);
    session_.set_state(std::move(state));
  } catch (const StateFileError& e) {
    return e.what();
  }
  return {};
}

std::optional<StateLock> ReplState::lock() {
  std::optional<StateLock> held;
  if (!file_.empty()) held.emplace(file_);
  return held;
}

std::optional<StateLock> ReplState::lock_and_refresh() {
  std::optional<StateLock> held = lock();
  if (!held) return held;
  try {
    State on_disk = read_state_file(file_);
    check_state_file(file_, on_disk, engine_, path_);
    if (!(on_disk == session_.state())) {
      report("note: {} was changed by another process; its state is used\n", file_);
      session_.set_state(std::move(on_disk));
    }
  } catch (const StateFileError& e) {
    report("{}", e.what());
  }
  return held;
}

void ReplState::command(std::string_view arg) {
  if (arg == "reset") {
    std::optional<StateLock> held;
    try {
      held = lock_and_refresh();
    } catch (const StateFileError& e) {
      report("{}error: the state was not reset\n", e.what());
      return;
    }
    const State before = session_.state();
    session_.set_state({});
    changed(before, false);
    fmt::print("every counter is back at its start\n");
    return;
  }
  if (!arg.empty()) {
    report("error: ':state' shows the state; ':state reset' puts every counter back to its start; got '{}'\n", arg);
    return;
  }
  const std::string text = state_text(engine_, session_.state());
  if (text.empty()) {
    fmt::print("no state: the rulesets loaded keep nothing between rolls{}\n",
               engine_.rulesets().empty() ? " (none is loaded; :rulesets lists them)" : "");
    return;
  }
  fmt::print("{}", text);
  if (!file_.empty()) fmt::print("(kept in {})\n", file_);
}

std::optional<Outcome> ReplState::choose(std::string_view arg, DiceSource& more) {
  if (arg.empty()) {
    const std::string text = choices_text(engine_, session_.last_choices());
    if (text.empty()) {
      fmt::print("no choices: the rulesets loaded let the player decide nothing after a roll\n");
    } else {
      fmt::print("{}decide with ':choose NAME' (true) or ':choose NAME=VALUE'; the last roll is made again\n", text);
    }
    return std::nullopt;
  }
  if (!session_.can_revise()) {
    report("error: there is no roll to decide on yet; roll first, then ':choose {}' decides on that roll\n", arg);
    return std::nullopt;
  }
  Choices decided = session_.last_choices();
  try {
    Choices added;
    for (const auto& w : words(arg)) {
      if (w.starts_with("--")) {
        if (!add_flag_choice(engine_, w, added)) throw UsageError(fmt::format(":choose: there is no flag '{}'", w));
      } else {
        add_choice(engine_, w, added, ":choose");
      }
    }
    for (const auto& [ruleset, values] : added.all()) {
      for (const auto& [name, v] : values) decided.set(ruleset, name, v);
    }
  } catch (const UsageError& e) {
    report("error: {}\n", e.what());
    return std::nullopt;
  }
  return session_.revise(decided, more);
}

void ReplState::changed(const State& before, bool shown_in_trace) {
  if (session_.state() == before) return;
  if (!shown_in_trace) fmt::print("{}", state_changes_text(engine_, before, session_.state()));
  std::fflush(stdout);
  if (file_.empty()) return;
  try {
    write_state_file(file_, session_.state());
  } catch (const StateFileError& e) {
    report("{}", e.what());
  }
}

}  // namespace alea::cli
