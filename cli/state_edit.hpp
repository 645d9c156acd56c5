// cli/state_edit.hpp — `alea state show FILE` and `alea state set FILE RULESET.COUNTER=VALUE…`:
// a character's state file, read and changed on purpose rather than by a mechanic.
#pragma once

#include <string>
#include <vector>

#include "cli/ruleset_path.hpp"

namespace alea::cli {

struct StateArgs {
  std::string action;                 // "show", "set" or "set-character"
  std::string file;
  std::vector<std::string> settings;  // set: RULESET.COUNTER=VALUE
  std::string character, from;        // set-character: NAME and @FILE#ENTRY
};

// Prints every counter of the rulesets the file holds (or one of them, for `set`, the changes),
// checked against the rulesets. `set` takes the file's lock, checks each new value against its
// counter's type and bounds, and writes all of them or none. Exit 0, 1 for a bad file, ruleset or
// value; throws UsageError for a malformed setting. `set-character` keeps an entry of a file of
// records (docs/party.md) as the named character, under the lock, replacing one of that name.
int state_command(const StateArgs& a, const RulesetPath& path);

}  // namespace alea::cli
