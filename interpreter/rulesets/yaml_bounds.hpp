// interpreter/rulesets/yaml_bounds.hpp — the size of a YAML document once its aliases are expanded.
//
// An alias (`*a`) names a node written elsewhere, so a short file can stand for a huge tree
// (ten aliases of ten aliases of … — a "billion laughs") or an endless one (`a: &a [1, *a]`).
// Every reader of a ruleset walks the tree as expanded; this check comes first and bounds it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <yaml-cpp/yaml.h>

namespace alea {

struct YamlBounds {
  std::size_t max_nodes = 200'000;  // nodes of the expanded tree, keys and values
  std::size_t max_depth = 128;      // lists and mappings inside one another
};

// Where the expanded document passes a bound: the node at which it did, and what it passed.
struct YamlOverflow {
  YAML::Mark mark;
  bool too_deep = false;  // else too many nodes
  bool as_written = false;  // counted before aliases are expanded
};

[[nodiscard]] std::optional<YamlOverflow> yaml_overflow(const YAML::Node& root, const YamlBounds& bounds = {});

// The same bounds on the first document of `text` as written (an alias counts as one node),
// counted on the parser's events: yaml-cpp builds its tree only for a document that passes,
// so a file of a million tiny values never becomes a million nodes in memory. Throws
// YAML::ParserException for what is not YAML, as YAML::Load does.
[[nodiscard]] std::optional<YamlOverflow> yaml_event_overflow(const std::string& text, const YamlBounds& bounds = {});

// At least as many nodes as the first document of `text` has as written, counted on its bytes
// alone: every node is the root or comes from a token that one of the bytes - ? : , [ { begins,
// or from a key the scanner holds unverified when a broken text ends.
[[nodiscard]] std::size_t written_nodes_bound(std::string_view text);

// The first document of `text` as a tree within `bounds`, or where it passes them: as written
// (the events' count) before its aliases are expanded (the tree's). Throws
// YAML::ParserException for what is not YAML.
struct BoundedYaml {
  YAML::Node root;
  std::optional<YamlOverflow> over;
};
[[nodiscard]] BoundedYaml load_bounded_yaml(const std::string& text, const YamlBounds& bounds = {});

}  // namespace alea
