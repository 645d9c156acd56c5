// cli/record_args.hpp — arguments written as data rather than word by word: a record
// from a file (`attacker=@party.yaml#ivan`, or `=@ivan.yaml` for a file that is one
// record), an entry of a `--with` file by its name (`attacker=ivan`), and bare words
// inside a record typed on the command line (`attacker='{colour: red, pool: 2}'`).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/ruleset_commands.hpp"
#include "interpreter/rulesets/record_file.hpp"

namespace alea::cli {

// The files of records one command reads, each once: those `--with` names, every entry
// of which is available by name, the state file, whose "characters" are too, and those
// an `@FILE` word names. A relative name is relative to the current directory.
class RecordFiles {
 public:
  RecordFiles(RecordSources sources, const Limits& limits) : sources_(std::move(sources)), limits_(limits) {}
  // The file `name`, read on first use; null when it cannot be read or is no file of
  // records, with what is wrong in `problems` (nothing for a missing file when `missing_ok`).
  const RecordFile* get(const std::string& name, Diagnostics& problems, bool missing_ok = false);
  [[nodiscard]] const RecordSources& sources() const { return sources_; }
  // An argument came from the file `name`.
  void used(const std::string& name) { used_.push_back(name); }
  // The --with files no argument came from.
  [[nodiscard]] std::vector<std::string> unused_with() const;

 private:
  std::vector<std::string> used_;
  RecordSources sources_;
  Limits limits_;
  std::map<std::string, RecordFile> read_;
  std::map<std::string, bool> missing_;
};

// `@FILE#ENTRY` (or `@FILE`, the whole file) as written after `name=`: the file, and the
// entry with `entry_at` its offset in `value`; nullopt when `value` does not start with '@'.
struct RecordRef {
  std::string file;
  std::optional<std::string> entry;  // none: the whole file
  std::size_t entry_at = 0;
};
[[nodiscard]] std::optional<RecordRef> record_ref(const std::string& value);

// Makes each setting's value the language's text for it: an `@FILE#ENTRY` reference or an
// entry named by a bare word becomes the entry's literal, checked against the type of the
// parameter (or field) it sets, with a mistake shown in the file; a bare word inside a
// record literal, given to a label or string field, becomes that text. `typed` is the
// command line the settings' positions point into. Returns the problems found.
[[nodiscard]] Diagnostics resolve_record_values(const Ruleset& r, const MechanicInfo& m, std::vector<Setting>& settings,
                                                const SourceFile& typed, RecordFiles& files);

}  // namespace alea::cli
