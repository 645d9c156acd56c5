// interpreter/rulesets/yaml_bounds.cpp — see yaml_bounds.hpp.
#include "interpreter/rulesets/yaml_bounds.hpp"

#include <algorithm>
#include <set>
#include <sstream>
#include <vector>

#include <yaml-cpp/eventhandler.h>

namespace alea {

namespace {

// Where the tree passes the bounds, if it does; else each text key written twice in one
// mapping, added to `twice` once (an alias walks what it names again), in the order met.
std::optional<YamlOverflow> walk(const YAML::Node& root, const YamlBounds& bounds,
                                 std::vector<YamlDuplicateKey>& twice) {
  // Depth-first with an explicit stack, so that no document can exhaust the call stack.
  struct Item {
    YAML::Node node;
    std::size_t depth;
  };
  std::vector<Item> todo{{root, 0}};
  std::size_t nodes = 0;
  std::vector<std::pair<const std::string*, std::size_t>> keys;  // a mapping's text keys, and their places
  std::vector<std::pair<std::size_t, std::size_t>> pairs;  // the places of a key's first entry and another
  std::set<int> reported;
  while (!todo.empty()) {
    Item item = std::move(todo.back());
    todo.pop_back();
    if (++nodes > bounds.max_nodes) return YamlOverflow{item.node.Mark(), false};
    if (item.depth > bounds.max_depth) return YamlOverflow{item.node.Mark(), true};
    if (item.node.IsSequence()) {
      for (const auto& child : item.node) todo.push_back({child, item.depth + 1});
    } else if (item.node.IsMap()) {
      keys.clear();
      for (auto it = item.node.begin(); it != item.node.end(); ++it) {
        if (it->first.IsScalar()) keys.emplace_back(&it->first.Scalar(), keys.size());
        todo.push_back({it->first, item.depth + 1});
        todo.push_back({it->second, item.depth + 1});
      }
      std::stable_sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) { return *a.first < *b.first; });
      pairs.clear();
      for (std::size_t i = 1, first = 0; i < keys.size(); ++i) {
        if (*keys[i].first != *keys[first].first) first = i;
        else pairs.emplace_back(keys[first].second, keys[i].second);
      }
      if (!pairs.empty()) {  // one more pass over the entries, however many keys are written twice
        std::vector<YAML::Node> written;
        for (auto it = item.node.begin(); it != item.node.end(); ++it) {
          if (it->first.IsScalar()) written.push_back(it->first);
        }
        for (const auto& [a, b] : pairs) {
          if (reported.insert(written[b].Mark().pos).second) twice.push_back({written[a], written[b]});
        }
      }
    }
    // The stack holds at most the children of the nodes on one path: bounded by the nodes.
    if (todo.size() > bounds.max_nodes) return YamlOverflow{item.node.Mark(), false};
  }
  return std::nullopt;
}

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
    if (auto over = yaml_event_overflow(text, bounds)) return {{}, over, {}};
  }
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException&) {
    if (!may_pass) {
      if (auto over = yaml_event_overflow(text, bounds)) return {{}, over, {}};
    }
    throw;
  }
  std::vector<YamlDuplicateKey> twice;
  if (auto over = walk(root, bounds, twice)) {
    if (!may_pass) {
      if (auto written = yaml_event_overflow(text, bounds)) return {{}, written, {}};
    }
    return {{}, over, {}};
  }
  // In the order written; not sorted in place: assigning a YAML::Node rewrites the node it refers to.
  std::vector<std::size_t> order(twice.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return twice[a].again.Mark().pos < twice[b].again.Mark().pos; });
  BoundedYaml out{std::move(root), std::nullopt, {}};
  for (const std::size_t i : order) out.twice.push_back(twice[i]);
  return out;
}

}  // namespace alea
