// dsl/diagnostic.hpp — the one diagnostic type shared by every phase.
//
// Rendered like gcc/clang so editors can jump to it:
//   <input>:1:5: error: expected the number of sides after 'd' [ExpectedSides]
//       1 | 3d6+d
//         |     ^
#pragma once

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

enum class Phase { Parse, Resolve, Eval, Ruleset };

[[nodiscard]] std::string_view code_name(DiagCode code);
[[nodiscard]] Phase code_phase(DiagCode code);
// Every code, in declaration order (for coverage tests and documentation).
[[nodiscard]] const std::vector<DiagCode>& all_codes();

// A secondary location: "to close this '('", "in a call to 'bonus'".
struct Note {
  Span span;  // empty for a note without a location
  std::string message;
};

struct Diagnostic {
  DiagCode code{};
  Span span;
  std::string message;  // lower case, no trailing period
  std::vector<Note> notes;
  bool at_end_of_input = false;  // more input could fix it (the REPL keeps reading)
  // Keeps the files that spans point into alive as long as the diagnostic.
  std::vector<std::shared_ptr<const SourceFile>> files;

  Diagnostic() = default;
  Diagnostic(DiagCode c, Span s, std::string m);
  Diagnostic& note(Span s, std::string m);
};

using Diagnostics = std::vector<Diagnostic>;

// Renders a diagnostic with its source line and a caret under the span.
[[nodiscard]] std::string render_text(const Diagnostic& d);
[[nodiscard]] std::string render_text(const Diagnostics& ds);
// `file:line:col: error: message [Code]`, nothing else.
[[nodiscard]] std::string render_headline(const Diagnostic& d);

}  // namespace alea
