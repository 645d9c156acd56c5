// dsl/diagnostic.hpp — the one diagnostic type shared by every phase.
//
// Rendered like gcc/clang so editors can jump to it:
//   <input>:1:5: error: expected the number of sides after 'd' [ExpectedSides]
//       1 | 3d6+d
//         |     ^
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dsl/source.hpp"

namespace alea {

enum class DiagCode {
#define ALEA_DIAGNOSTIC(Name, Phase) Name,
#include "dsl/diagnostic_codes.def"
#undef ALEA_DIAGNOSTIC
};

enum class Phase { Parse, Resolve, Eval, Ruleset, Command };

[[nodiscard]] std::string_view code_name(DiagCode code);
[[nodiscard]] Phase code_phase(DiagCode code);
// Every code, in declaration order (for coverage tests and documentation).
[[nodiscard]] const std::vector<DiagCode>& all_codes();

enum class NoteKind {
  Info,      // "to close this '('", "did you mean 'a'?"
  CallSite,  // "in a call to 'bonus'": the error happened inside this call
};

// A secondary location: "to close this '('", "in a call to 'bonus'".
struct Note {
  Span span;  // empty for a note without a location
  std::string message;
  NoteKind kind = NoteKind::Info;
  // For a call site: the function called, and how many calls deep a
  // recursion through this same site went (1: not recursive).
  std::string callee;
  long depth = 1;
};

struct Diagnostic {
  DiagCode code{};
  Span span;
  std::string message;  // lower case, no trailing period
  std::vector<Note> notes;
  bool at_end_of_input = false;  // more input could fix it (the REPL keeps reading)
  // Set by require(cond, message, "name"): the parameter at whose argument the call that gave it
  // shows this error (dsl/call_site.hpp). When that argument was itself a parameter of the
  // calling function (`helper(moves[k])` inside a mechanic with `moves`), the blame moves up to
  // it: `argument` becomes its name, and `argument_slot` its place among the caller's
  // parameters (-1: any parameter of that name). Cleared once no call can take it further.
  std::string argument;
  std::int32_t argument_slot = -1;
  // Keeps the files that spans point into alive as long as the diagnostic.
  std::vector<std::shared_ptr<const SourceFile>> files;

  Diagnostic() = default;
  Diagnostic(DiagCode c, Span s, std::string m);
  Diagnostic& note(Span s, std::string m);
  // The error happened inside a call of `callee` at `s` (added while the
  // error leaves the call, so the innermost call comes first). A recursion
  // through one site is one note with its depth. No note is added once the
  // diagnostic has 16 (the outermost calls of a very deep chain go unnoted).
  Diagnostic& note_call(Span s, std::string_view callee);
};

using Diagnostics = std::vector<Diagnostic>;

// An error whose own place is in library code (SourceOrigin::Library) is
// moved to the innermost call site in the user's code:
//   <input>:1:1: error: 'sum_field' failed: the record has no field 'b'
// with the library's call sites after it as notes, outermost first, ending at
// the original place ("the error is here, in 'column'") and its own notes;
// the callers of the user's call site follow, as before. Does nothing when
// the error is in user code or no call site of the chain is.
void locate_in_user_code(Diagnostic& d);

// Renders a diagnostic with its source line and a caret under the span.
[[nodiscard]] std::string render_text(const Diagnostic& d);
[[nodiscard]] std::string render_text(const Diagnostics& ds);
// The problems a report shows, as a compiler's error limit does: the first
// max_reported_diagnostics, and no more than `max_bytes` as render_text writes them (always the
// first one). When some are left out, the last one kept gets a note saying how many, so that a
// file with a million errors costs a bounded report, in text and in JSON.
inline constexpr std::size_t max_reported_diagnostics = 100;
[[nodiscard]] Diagnostics reported(Diagnostics all, std::int64_t max_bytes);

// `file:line:col: error: message [Code]`, nothing else.
[[nodiscard]] std::string render_headline(const Diagnostic& d);

}  // namespace alea
