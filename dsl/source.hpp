// dsl/source.hpp — source text, byte spans into it, and line/column lookup.
//
// A Span is a half-open byte range into one SourceFile. Lines and columns are
// computed only when a diagnostic is rendered; columns are 1-based and count
// code points, so carets line up under Greek and Cyrillic text.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace alea {

class SourceFile;

struct Span {
  const SourceFile* file = nullptr;
  std::uint32_t begin = 0;
  std::uint32_t end = 0;

  [[nodiscard]] bool empty() const { return file == nullptr; }
  // Whether the span points into library code (SourceOrigin::Library).
  [[nodiscard]] bool in_library() const;
  // The smallest span covering both; either may be empty.
  [[nodiscard]] Span merge(const Span& other) const;
};

struct LineColumn {
  std::uint32_t line = 1;    // 1-based
  std::uint32_t column = 1;  // 1-based, in code points
};

// Where a file's text came from when it is embedded in another file (an
// expression inside a YAML ruleset): line i of the text is line first_line + i
// of `outer_name`, and its first `indent` columns are the YAML indentation.
struct Embedding {
  std::string outer_name;
  std::uint32_t first_line = 1;
  std::uint32_t first_column = 1;  // column of the text's first character on its first line
  std::uint32_t indent = 0;        // columns added to every following line
  // The outer file's lines, for the caret snippet: shared by every text embedded in it.
  std::shared_ptr<const std::vector<std::string>> outer_lines;
};

// Who wrote a file's code. An error inside library code (the embedded stdlib,
// a shipped ruleset) is reported where the user's code called into it
// (locate_in_user_code, dsl/diagnostic.hpp); everything else is user code:
// the input, a program file, the REPL, a homebrewer's own ruleset.
enum class SourceOrigin { User, Library };

// Immutable once built; always held by shared_ptr so diagnostics can keep it alive.
class SourceFile : public std::enable_shared_from_this<SourceFile> {
 public:
  static std::shared_ptr<const SourceFile> make(std::string name, std::string text,
                                                SourceOrigin origin = SourceOrigin::User);
  static std::shared_ptr<const SourceFile> make_embedded(std::string text, Embedding embedding,
                                                         SourceOrigin origin = SourceOrigin::User);

  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] SourceOrigin origin() const { return origin_; }
  [[nodiscard]] bool is_library() const { return origin_ == SourceOrigin::Library; }
  [[nodiscard]] const std::string& text() const { return text_; }
  [[nodiscard]] Span span(std::uint32_t begin, std::uint32_t end) const { return {this, begin, end}; }
  [[nodiscard]] std::string_view slice(const Span& s) const;

  // Position of a byte offset as shown to people (mapped into the outer file if embedded).
  [[nodiscard]] LineColumn line_column(std::uint32_t offset) const;
  // The text of the line that holds `offset`, as shown to people, without its newline.
  [[nodiscard]] std::string_view line_text(std::uint32_t offset) const;
  // Column (1-based, code points) of `offset` within the line that holds it, in this file's text.
  [[nodiscard]] std::uint32_t local_column(std::uint32_t offset) const;

 private:
  struct Private {
    explicit Private() = default;
  };

 public:
  SourceFile(Private, std::string name, std::string text, SourceOrigin origin);  // through make() or make_embedded()

 private:
  // The line (0-based) that holds `offset`, and where a line begins.
  [[nodiscard]] std::uint32_t line_of(std::uint32_t offset) const;
  [[nodiscard]] std::uint32_t line_start(std::uint32_t line) const { return line == 0 ? 0 : line_starts_[line - 1]; }
  // Code points before byte `offset`, from a checkpoint every chunk_bytes: a column costs at most
  // a chunk's scan however long its line, so that ten thousand errors on one 4 MB line of YAML
  // are placed (and sorted) in linear time.
  static constexpr std::uint32_t chunk_bytes = 1024;
  [[nodiscard]] std::uint32_t code_points_before(std::uint32_t offset) const;

  std::string name_;
  std::string text_;
  SourceOrigin origin_ = SourceOrigin::User;
  std::vector<std::uint32_t> line_starts_;  // where the second line, the third … begin
  std::vector<std::uint32_t> chunk_code_points_;  // code points before byte k * chunk_bytes
  std::unique_ptr<Embedding> embedding_;
};

// Number of code points in UTF-8 text (invalid bytes count one each).
[[nodiscard]] std::uint32_t count_code_points(std::string_view text);

}  // namespace alea
