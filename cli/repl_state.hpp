// cli/repl_state.hpp — the REPL's :state and :choose, and the state file it
// keeps up to date (`alea --state FILE`).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "cli/ruleset_path.hpp"
#include "cli/state_file.hpp"
#include "interpreter/api.hpp"

namespace alea::cli {

class ReplState {
 public:
  // `file`: the state file, or "" for a state kept only for the session.
  ReplState(Engine& engine, Session& session, const RulesetPath& path, std::string file)
      : engine_(engine), session_(session), path_(path), file_(std::move(file)) {}

  // The state file, or "" (its named characters are arguments by name, as with --state).
  [[nodiscard]] const std::string& file() const { return file_; }

  // Reads the state file into the session, loading the rulesets it names.
  // Returns the problems, or "" when all is well.
  [[nodiscard]] std::string open();

  // `:state` shows the state; `:state reset` puts every counter back to its
  // start. Output goes to stdout, errors to stderr.
  void command(std::string_view arg);

  // `:choose NAME[=VALUE]…`: the last roll made again with the same dice and
  // these decisions added to the ones it had. Returns its outcome, or nothing
  // when there was none to make (the reason was reported); an outcome with an
  // error leaves the session as it was. `:choose` alone lists the choices.
  std::optional<Outcome> choose(std::string_view arg, DiceSource& more);

  // Before an input that may change the state: takes the state file's lock
  // (held until the returned guard ends, after changed() has saved) and reads
  // the file again, so that what another process wrote meanwhile is not lost.
  // Nothing when there is no file. Throws StateFileError when the lock is
  // not had in time; a file that cannot be read again is reported, and the
  // session's state kept.
  [[nodiscard]] std::optional<StateLock> lock_and_refresh();
  // The lock alone, for a decision remade from the state its roll started from.
  [[nodiscard]] std::optional<StateLock> lock();

  // After an input or a decision changed the session's state from `before`:
  // saves it to the file, and shows the change unless the trace showed it.
  void changed(const State& before, bool shown_in_trace);

 private:
  Engine& engine_;
  Session& session_;
  const RulesetPath& path_;
  std::string file_;
};

}  // namespace alea::cli
