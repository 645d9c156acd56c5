// interpreter/rulesets/yaml_syntax.hpp — a YAML syntax error placed where the problem starts.
//
// yaml-cpp reports where its parser gave up, which is often later than the mistake: a '{'
// left open is noticed on a later line, a key indented too deep at the ':' after it. This
// finds the start of the mistake and says what it is in the words of someone editing the file.
// Included only by the ruleset loader, the one reader of YAML.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <yaml-cpp/yaml.h>

namespace alea {

struct YamlSyntaxError {
  std::uint32_t offset = 0;               // where the problem starts
  std::string message;                    // what it is, after "this is not valid YAML: "
  std::optional<std::uint32_t> noticed;   // where the parser noticed it, when that is elsewhere
};

[[nodiscard]] YamlSyntaxError explain_yaml_error(const std::string& text, const YAML::ParserException& e);

}  // namespace alea
