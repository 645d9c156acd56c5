// interpreter/rulesets/yaml_bounds.cpp — see yaml_bounds.hpp.
#include "interpreter/rulesets/yaml_bounds.hpp"

#include <sstream>
#include <vector>

#include <yaml-cpp/eventhandler.h>

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

namespace {

// Counts nodes and nesting; throws the overflow to stop the parser at once.
class Counter final : public YAML::EventHandler {
 public:
  explicit Counter(const YamlBounds& bounds) : bounds_(bounds) {}

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { node(mark); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { node(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string&) override {
    node(mark);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    open(mark);
  }
  void OnSequenceEnd() override { --depth_; }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    open(mark);
  }
  void OnMapEnd() override { --depth_; }

 private:
  const YamlBounds& bounds_;
  std::size_t nodes_ = 0, depth_ = 0;

  void node(const YAML::Mark& mark) {
    if (++nodes_ > bounds_.max_nodes) throw YamlOverflow{mark, false, true};
  }
  void open(const YAML::Mark& mark) {
    node(mark);
    if (++depth_ > bounds_.max_depth) throw YamlOverflow{mark, true, true};
  }
};

}  // namespace

std::optional<YamlOverflow> yaml_event_overflow(const std::string& text, const YamlBounds& bounds) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  Counter counter(bounds);
  try {
    parser.HandleNextDocument(counter);
  } catch (const YamlOverflow& over) {
    return over;
  }
  return std::nullopt;
}

}  // namespace alea
