// cli/words.cpp — a REPL line split into words (words.hpp).
#include "cli/words.hpp"

namespace alea::cli {

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  int depth = 0;
  bool quoted = false;
  bool had_quotes = false;  // `''` is an empty word
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '\\' && i + 1 < text.size()) {  // an escape: `\"` does not end the string
        word += c;
        word += text[++i];
        continue;
      }
      if (c == '"') quoted = false;
    } else if (c == '\'') {
      const auto end = text.find('\'', i + 1);
      word += text.substr(i + 1, end == std::string_view::npos ? std::string_view::npos : end - i - 1);
      had_quotes = true;
      if (end == std::string_view::npos) break;
      i = end;
      continue;
    } else if (c == '"') {
      quoted = true;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
      --depth;
    } else if ((c == ' ' || c == '\t') && depth == 0) {
      if (!word.empty() || had_quotes) words.push_back(std::move(word));
      word.clear();
      had_quotes = false;
      continue;
    }
    word += c;
  }
  if (!word.empty() || had_quotes) words.push_back(std::move(word));
  return words;
}

}  // namespace alea::cli
