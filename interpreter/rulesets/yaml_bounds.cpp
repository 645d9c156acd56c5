// interpreter/rulesets/yaml_bounds.cpp — see yaml_bounds.hpp.
#include "interpreter/rulesets/yaml_bounds.hpp"

#include <vector>

namespace alea {

std::optional<YamlOverflow> yaml_overflow(const YAML::Node& root, const YamlBounds& bounds) {
  // Depth-first with an explicit stack, so that no document can exhaust the call stack.
  struct Item {
    YAML::Node node;
    std::size_t depth;
  };
  std::vector<Item> todo{{root, 0}};
  std::size_t nodes = 0;
  while (!todo.empty()) {
    Item item = std::move(todo.back());
    todo.pop_back();
    if (++nodes > bounds.max_nodes) return YamlOverflow{item.node.Mark(), false};
    if (item.depth > bounds.max_depth) return YamlOverflow{item.node.Mark(), true};
    if (item.node.IsSequence()) {
      for (const auto& child : item.node) todo.push_back({child, item.depth + 1});
    } else if (item.node.IsMap()) {
      for (auto it = item.node.begin(); it != item.node.end(); ++it) {
        todo.push_back({it->first, item.depth + 1});
        todo.push_back({it->second, item.depth + 1});
      }
    }
    // The stack holds at most the children of the nodes on one path: bounded by the nodes.
    if (todo.size() > bounds.max_nodes) return YamlOverflow{item.node.Mark(), false};
  }
  return std::nullopt;
}

}  // namespace alea
