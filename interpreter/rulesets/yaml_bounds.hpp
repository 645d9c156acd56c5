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
#include <vector>

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

// The bounds on the first document of `text` as written (an alias counts as one node),
// counted on the parser's events: yaml-cpp builds its tree only for a document that passes,
// so a file of a million tiny values never becomes a million nodes in memory. Throws
// YAML::ParserException for what is not YAML, as YAML::Load does.
[[nodiscard]] std::optional<YamlOverflow> yaml_event_overflow(const std::string& text, const YamlBounds& bounds = {});

// At least as many nodes as the first document of `text` has as written, counted on its bytes
// alone: every node is the root or comes from a token that one of the bytes - ? : , [ { begins,
// or from a key the scanner holds unverified when a broken text ends.
[[nodiscard]] std::size_t written_nodes_bound(std::string_view text);

// A text key written twice in one mapping. YAML forbids it, but yaml-cpp keeps both entries,
// and a reader that looks the key up sees only the first: the second would be silently ignored.
// Keys compare as written: `a` and `"a"` are the same key, `1` and `01` are not.
struct YamlDuplicateKey {
  YAML::Node first, again;
};

// The first document of `text` as a tree within `bounds`, or where it passes them: as written
// (the events' count) before its aliases are expanded (the tree's). For a tree within them,
// every key written twice, once each, in the order written. Throws YAML::ParserException for
// what is not YAML.
struct BoundedYaml {
  YAML::Node root;
  std::optional<YamlOverflow> over;
  std::vector<YamlDuplicateKey> twice;
};
[[nodiscard]] BoundedYaml load_bounded_yaml(const std::string& text, const YamlBounds& bounds = {});

}  // namespace alea
