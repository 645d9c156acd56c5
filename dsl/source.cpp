// dsl/source.cpp — line tables and code-point columns.
#include "dsl/source.hpp"

#include <algorithm>

namespace alea {

Span Span::merge(const Span& other) const {
  if (empty()) return other;
  if (other.empty()) return *this;
  return {file, std::min(begin, other.begin), std::max(end, other.end)};
}

std::uint32_t count_code_points(std::string_view text) {
  std::uint32_t n = 0;
  for (unsigned char c : text) {
    if ((c & 0xC0) != 0x80) ++n;  // count every byte that is not a continuation byte
  }
  return n;
}

bool Span::in_library() const { return file != nullptr && file->is_library(); }

SourceFile::SourceFile(Private, std::string name, std::string text, SourceOrigin origin)
    : name_(std::move(name)), text_(std::move(text)), origin_(origin) {
  chunk_code_points_.reserve(text_.size() / chunk_bytes + 1);
  std::uint32_t code_points = 0;
  for (std::uint32_t i = 0; i < text_.size(); ++i) {
    if (i % chunk_bytes == 0) chunk_code_points_.push_back(code_points);
    const auto c = static_cast<unsigned char>(text_[i]);
    if ((c & 0xC0) != 0x80) ++code_points;
    if (c == '\n') line_starts_.push_back(i + 1);
  }
}

std::uint32_t SourceFile::code_points_before(std::uint32_t offset) const {
  const std::uint32_t chunk = offset / chunk_bytes;
  if (chunk >= chunk_code_points_.size()) {  // at the very end, past the last checkpoint
    return chunk_code_points_.empty() ? count_code_points(std::string_view(text_).substr(0, offset))
                                      : chunk_code_points_.back() +
                                            count_code_points(std::string_view(text_).substr(
                                                (chunk_code_points_.size() - 1) * std::size_t{chunk_bytes},
                                                offset - (chunk_code_points_.size() - 1) * std::size_t{chunk_bytes}));
  }
  return chunk_code_points_[chunk] +
         count_code_points(std::string_view(text_).substr(std::size_t{chunk} * chunk_bytes, offset % chunk_bytes));
}

std::shared_ptr<const SourceFile> SourceFile::make(std::string name, std::string text, SourceOrigin origin) {
  return std::make_shared<const SourceFile>(Private(), std::move(name), std::move(text), origin);
}

std::shared_ptr<const SourceFile> SourceFile::make_embedded(std::string text, Embedding embedding,
                                                            SourceOrigin origin) {
  auto file = std::make_shared<SourceFile>(Private(), embedding.outer_name, std::move(text), origin);
  file->embedding_ = std::make_unique<Embedding>(std::move(embedding));
  return file;
}

std::uint32_t SourceFile::line_of(std::uint32_t offset) const {
  return static_cast<std::uint32_t>(std::upper_bound(line_starts_.begin(), line_starts_.end(), offset) -
                                    line_starts_.begin());
}

std::string_view SourceFile::slice(const Span& s) const {
  const auto b = std::min<std::size_t>(s.begin, text_.size());
  const auto e = std::min<std::size_t>(std::max(s.begin, s.end), text_.size());
  return std::string_view(text_).substr(b, e - b);
}

std::uint32_t SourceFile::local_column(std::uint32_t offset) const {
  offset = std::min<std::uint32_t>(offset, static_cast<std::uint32_t>(text_.size()));
  const std::uint32_t start = line_start(line_of(offset));
  return 1 + code_points_before(offset) - code_points_before(start);
}

LineColumn SourceFile::line_column(std::uint32_t offset) const {
  offset = std::min<std::uint32_t>(offset, static_cast<std::uint32_t>(text_.size()));
  const std::uint32_t line = line_of(offset);
  const std::uint32_t column = local_column(offset);
  if (!embedding_) return {line + 1, column};
  if (line == 0) return {embedding_->first_line, embedding_->first_column + column - 1};
  return {embedding_->first_line + line, embedding_->indent + column};
}

std::string_view SourceFile::line_text(std::uint32_t offset) const {
  if (embedding_) {
    const LineColumn lc = line_column(offset);
    const auto& lines = embedding_->outer_lines;
    if (lines && lc.line >= 1 && lc.line <= lines->size()) {
      return (*lines)[lc.line - 1];
    }
    return {};
  }
  offset = std::min<std::uint32_t>(offset, static_cast<std::uint32_t>(text_.size()));
  std::string_view rest = std::string_view(text_).substr(line_start(line_of(offset)));
  auto line = rest.substr(0, rest.find('\n'));
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

}  // namespace alea
