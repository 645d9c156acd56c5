// interpreter/rulesets/yaml_syntax.cpp — where a YAML syntax error starts (see yaml_syntax.hpp).
#include "interpreter/rulesets/yaml_syntax.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

#include <yaml-cpp/eventhandler.h>

namespace alea {

namespace {

// The lists and mappings open at each point of the parse, for the flow ones ('{', '[')
// still open where the parser fails.
class OpenCollections final : public YAML::EventHandler {
 public:
  struct Open {
    YAML::Mark mark;
    bool flow = false;
    bool map = false;
  };
  std::vector<Open> open;

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value style) override {
    open.push_back({mark, style == YAML::EmitterStyle::Flow, false});
  }
  void OnSequenceEnd() override { open.pop_back(); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value style) override {
    open.push_back({mark, style == YAML::EmitterStyle::Flow, true});
  }
  void OnMapEnd() override { open.pop_back(); }
};

// The innermost '{' or '[' still open where parsing `text` fails, if any.
std::optional<OpenCollections::Open> unclosed_flow(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  OpenCollections handler;
  try {
    while (parser.HandleNextDocument(handler)) {
    }
  } catch (const YAML::Exception&) {
    for (auto it = handler.open.rbegin(); it != handler.open.rend(); ++it) {
      if (it->flow) return *it;
    }
  }
  return std::nullopt;
}

std::uint32_t clamp_offset(int pos, std::size_t size) {
  return pos < 0 ? 0 : static_cast<std::uint32_t>(std::min(static_cast<std::size_t>(pos), size));
}

// The start of the key whose ':' is at `colon`: after the last ': ' before it on its line, or
// else after the line's indentation and any '- '.
std::uint32_t key_start(const std::string& text, std::uint32_t colon) {
  const auto nl = text.rfind('\n', colon == 0 ? 0 : colon - 1);
  std::size_t start = (nl == std::string::npos || nl >= colon) ? 0 : nl + 1;
  const std::string_view line(text.data() + start, colon - start);
  if (const auto sep = line.rfind(": "); sep != std::string_view::npos) {
    start += sep + 2;
  }
  while (start < colon && (text[start] == ' ' || (text[start] == '-' && start + 1 < colon && text[start + 1] == ' '))) {
    ++start;
  }
  return static_cast<std::uint32_t>(start < colon ? start : colon);
}

}  // namespace

YamlSyntaxError explain_yaml_error(const std::string& text, const YAML::ParserException& e) {
  YamlSyntaxError out;
  out.offset = clamp_offset(e.mark.pos, text.size());
  out.message = e.msg;
  if (e.msg == YAML::ErrorMsg::END_OF_MAP_FLOW || e.msg == YAML::ErrorMsg::END_OF_SEQ_FLOW) {
    if (const auto open = unclosed_flow(text)) {
      out.noticed = out.offset;
      out.offset = clamp_offset(open->mark.pos, text.size());
      out.message = open->map ? "this '{' is never closed with '}'" : "this '[' is never closed with ']'";
    }
  } else if (e.msg == YAML::ErrorMsg::MAP_VALUE) {
    out.offset = key_start(text, out.offset);
    out.message = "a key cannot start here: it is indented deeper than the keys of its mapping, or follows a key "
                  "on the same line";
  } else if (e.msg == YAML::ErrorMsg::END_OF_MAP) {
    out.message = "this line is indented to match none of the mappings above it: line it up with the keys it "
                  "belongs with";
  } else if (e.msg == YAML::ErrorMsg::END_OF_SEQ) {
    out.message = "this line is indented to match none of the lists above it: line it up with its list's '- ' "
                  "or with the keys of its item";
  }
  return out;
}

}  // namespace alea
