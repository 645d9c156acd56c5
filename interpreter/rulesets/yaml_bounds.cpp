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

std::size_t written_nodes_bound(std::string_view text) {
  // yaml-cpp's parser (singledocparser.cpp) makes one node for the root and one for each
  // HandleNode or OnNull of its loops. A block sequence makes one per '-' it takes; a block or
  // flow mapping two (a key and a value) per key or value token it takes; a compact mapping two
  // per key or value; a flow sequence or mapping at most two per ',' it takes and two for its
  // last entry, before ']' or '}'. A collection's own node is one of those of its parent. A key
  // token is a '?', or the implicit key a ':' verifies, or one the scanner still holds
  // unverified when the text ends (scanner.cpp returns those as they are): at most one for the
  // block context and one for each flow collection open then. Bytes inside scalars and
  // comments count too: the bound only grows.
  std::size_t n = 3;  // the root, and the block context's key left unverified
  for (const char c : text) {
    switch (c) {
      case '-': n += 1; break;
      case ':': n += 4; break;  // the value, and the implicit key it verifies
      case '?':
      case ',': n += 2; break;
      case '[':
      case '{': n += 4; break;  // the last entry, and a key left unverified inside
      default: break;
    }
  }
  return n;
}

BoundedYaml load_bounded_yaml(const std::string& text, const YamlBounds& bounds) {
  // Counting the events scans the text as building the tree does, and costs about as much (37%
  // of a process that loads a 140 KB ruleset and answers one call). So it comes first only for a
  // text that may hold more nodes than allowed; for any other, only when the tree fails, to say
  // where the text passes the bounds as written. Either way no tree of more nodes than allowed,
  // as written, is built, and yaml-cpp's own depth guard bounds its recursion.
  const bool may_pass = written_nodes_bound(text) > bounds.max_nodes;
  if (may_pass) {
    if (auto over = yaml_event_overflow(text, bounds)) return {{}, over};
  }
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException&) {
    if (!may_pass) {
      if (auto over = yaml_event_overflow(text, bounds)) return {{}, over};
    }
    throw;
  }
  if (auto over = yaml_overflow(root, bounds)) {
    if (!may_pass) {
      if (auto written = yaml_event_overflow(text, bounds)) return {{}, written};
    }
    return {{}, over};
  }
  return {std::move(root), std::nullopt};
}

}  // namespace alea
