// dsl/parse_tree_selector.hpp — which grammar rules become parse-tree nodes, and
// the parse tree itself. Shared by parser.cpp (which parses and fills the tree)
// and ast_builder.cpp (which reads it).
//
// The tree is flat: one array of nodes in post-order, each a rule, a byte range
// and the size of its subtree, with no allocation per node. A kept rule adds its
// node when it succeeds; any rule that fails drops every node its attempt added,
// so a failed alternative leaves nothing behind. A "folded" rule with exactly
// one child is not added, and that child stands for it, like PEGTL's fold_one
// (but a folded rule that is kept has its own span).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "dsl/grammar.hpp"
#include "dsl/pool_ops.hpp"

namespace alea {
namespace pegtl = tao::pegtl;
}

namespace alea::grammar {

template <class... Rules>
struct rule_list {
  // 1 + the position of Rule in the list, or 0 when it is not in it.
  template <class Rule>
  static constexpr std::uint16_t position() {
    std::uint16_t i = 0;
    bool found = false;
    ((found || (std::is_same_v<Rule, Rules> ? (found = true) : (++i, false))), ...);
    return found ? static_cast<std::uint16_t>(i + 1) : 0;
  }
  static constexpr std::uint16_t size = sizeof...(Rules);
};

// clang-format off
// The rules of pool operations and their parameters (grammar.hpp's pool_op,
// op_is and op_param) are kept without being listed: see node_kind.
using kept_rules = rule_list<
    integer, neg_integer, count_num, string_body, true_lit, false_lit, none_lit, none_arg, name_path,
    percent, fudge, faces, face_range, sides, arg, cmp_op,
    counted_dice, named_dice, single_dice, paren_group,
    opposed_word, rule_name, by_clause, vs_clause,
    list_lit, record_lit, record_field, field_name, call, call_name, named_arg, arg_name, name_ref,
    if_expr, let_expr, let_name, repeat_expr, for_expr, for_var, loop_expr, loop_var, loop_mode,
    field_access, index_access, neg_op, mul_op, add_op, compare_op, not_op, and_op, or_op,
    tiers_block, tier, tier_else, tier_cmp, tier_value, tier_label,
    fn_def, fn_name, param, param_name, global_let, global_name, main_expr>;
// Kept too; a node of one of these with a single child is replaced by it.
using folded_rules = rule_list<versus, postfix, unary, product, sum, tiered, comparison, negation,
                               conjunction, disjunction>;
// clang-format on

// The node kinds: the kept rules, the folded ones, then one per row for the
// rule of a pool operation (pool_op), one per row for op_is, and one per
// parameter name (kPoolOpParamNames) for op_param.
inline constexpr std::uint16_t kFirstFoldedKind = kept_rules::size + 1;
inline constexpr std::uint16_t kFirstPoolOpKind = kFirstFoldedKind + folded_rules::size;
inline constexpr std::uint16_t kFirstOpIsKind = kFirstPoolOpKind + kPoolOpCount;
inline constexpr std::uint16_t kFirstOpParamKind = kFirstOpIsKind + kPoolOpCount;

template <class Rule>
constexpr std::uint16_t node_kind_of() {
  if constexpr (requires { Rule::pool_op_id; }) {
    return static_cast<std::uint16_t>(kFirstPoolOpKind +
                                      static_cast<std::size_t>(Rule::pool_op_id));
  } else if constexpr (requires { Rule::pool_op_is; }) {
    return static_cast<std::uint16_t>(kFirstOpIsKind + static_cast<std::size_t>(Rule::pool_op_is));
  } else if constexpr (requires { Rule::pool_op_param; }) {
    return static_cast<std::uint16_t>(kFirstOpParamKind +
                                      kPoolOpParamNames.index(Rule::pool_op_param));
  } else if constexpr (kept_rules::position<Rule>() != 0) {
    return kept_rules::position<Rule>();
  } else if constexpr (std::is_base_of_v<cmp_op, Rule>) {
    // A comparison under a name of its own, expected with a message of its
    // own (cancel_op), is a comparison.
    return kept_rules::position<cmp_op>();
  } else if constexpr (folded_rules::position<Rule>() != 0) {
    return static_cast<std::uint16_t>(kFirstFoldedKind - 1 + folded_rules::position<Rule>());
  } else {
    return 0;
  }
}
// The node kind of a rule: 0 for a rule that makes no node.
template <class Rule>
inline constexpr std::uint16_t node_kind = node_kind_of<Rule>();
inline constexpr bool is_folded_kind(std::uint16_t kind) {
  return kind >= kFirstFoldedKind && kind < kFirstPoolOpKind;
}

// Whether matching a rule may add nodes: it makes one, or a rule it is made of
// may (looked for `Depth` levels down; deeper, assumed so). A rule that cannot
// needs no clean-up when it fails.
template <class Rule, unsigned Depth>
constexpr bool may_add_nodes() {
  if constexpr (node_kind<Rule> != 0 || Depth == 0) {
    return true;
  } else {
    return []<class... Subs>(pegtl::type_list<Subs...>) {
      return (may_add_nodes<Subs, Depth - 1>() || ...);
    }(typename Rule::subs_t());
  }
}
template <class Rule, unsigned Depth>
inline constexpr bool may_hold_node = may_add_nodes<Rule, Depth>();

class ParseTree {
 public:
  struct Entry {
    std::uint32_t begin = 0, end = 0;  // bytes of the source
    std::uint32_t size = 0;            // nodes in this node's subtree, itself included
    std::uint32_t first_kid = 0;       // this node's children: kids_[first_kid, first_kid + kid_count)
    std::uint32_t kid_count = 0;
    std::uint16_t kind = 0;
  };

  // Empties the tree for a parse of `text`; keeps the memory of earlier parses.
  void reset(std::string_view text) {
    text_ = text;
    size_ = 0;
    kids_.clear();
  }

  // Called by the parser as rules start, succeed and fail. Nodes are stored in
  // post-order (a node after its subtree), so a rule adds its node when it
  // succeeds and a failed attempt truncates back to where it started.
  // entries_ only grows; size_ says how many of its entries are nodes.
  [[nodiscard]] std::uint32_t mark() const { return size_; }
  void truncate(std::uint32_t at) { size_ = at; }
  // A kept rule that started at `at` (mark) and `begin` (byte) matched up to `end`.
  [[gnu::always_inline]] void add(std::uint16_t kind, std::uint32_t at, std::uint32_t begin, std::uint32_t end) {
    if (size_ == capacity_) [[unlikely]] grow();
    Entry& e = data_[size_];
    e.begin = begin;
    e.end = end;
    e.size = size_ - at + 1;
    e.kind = kind;
    ++size_;
  }
  // A folded rule matched: it becomes a node unless it holds exactly one.
  void add_folded(std::uint16_t kind, std::uint32_t at, std::uint32_t begin, std::uint32_t end) {
    if (size_ > at && size_ - data_[size_ - 1].size == at) return;  // one child: it stands for the rule
    add(kind, at, begin, end);
  }

  // After a successful parse: lists every node's children in order. The root's
  // children (the top-level nodes) come last.
  void finish() {
    const std::uint32_t n = size_;
    kids_.resize(n);  // every node is the child of one node or of the root
    std::uint32_t* out = kids_.data();
    std::uint32_t used = 0;
    const auto list = [&](std::uint32_t from, std::uint32_t to) {  // the subtrees that make up [from, to)
      const std::uint32_t first = used;
      for (std::uint32_t c = to; c > from; c -= data_[c - 1].size) out[used++] = c - 1;
      std::reverse(out + first, out + used);
      return first;
    };
    for (std::uint32_t i = 0; i < n; ++i) {
      Entry& e = data_[i];
      e.first_kid = list(i + 1 - e.size, i);
      e.kid_count = used - e.first_kid;
    }
    root_kids_ = list(0, n);
  }

  // Gives back the memory of an unusually large parse.
  void trim() {
    if (entries_.size() > 4096) {
      entries_ = {};
      kids_ = {};
      data_ = nullptr;
      size_ = capacity_ = 0;
    }
  }

  class Node;
  class Children;
  [[nodiscard]] Children root() const;

 private:
  friend class Node;
  friend class Children;

  [[gnu::noinline]] void grow() {
    entries_.resize(entries_.size() * 2 + 64);
    data_ = entries_.data();
    capacity_ = static_cast<std::uint32_t>(entries_.size());
  }

  std::string_view text_;
  std::vector<Entry> entries_;
  Entry* data_ = nullptr;  // entries_.data()
  std::uint32_t size_ = 0, capacity_ = 0;
  std::vector<std::uint32_t> kids_;
  std::uint32_t root_kids_ = 0;
};

// A node of a finished ParseTree; a cheap handle, valid while the tree is.
class ParseTree::Node {
 public:
  Node(const ParseTree& tree, std::uint32_t index) : tree_(&tree), index_(index) {}

  template <class Rule>
  [[nodiscard]] bool is_type() const {
    static_assert(node_kind<Rule> != 0, "this rule makes no node");
    return entry().kind == node_kind<Rule>;
  }
  // The row of a pool operation's rule (grammar.hpp's pool_op).
  [[nodiscard]] std::optional<PoolOpId> pool_op() const { return row_in(kFirstPoolOpKind); }
  // The row an op_is names.
  [[nodiscard]] std::optional<PoolOpId> op_is() const { return row_in(kFirstOpIsKind); }
  // The name of the parameter an op_param fills.
  [[nodiscard]] std::optional<std::string_view> op_param() const {
    const std::uint16_t k = entry().kind;
    if (k < kFirstOpParamKind || k >= kFirstOpParamKind + kPoolOpParamNames.size) {
      return std::nullopt;
    }
    return kPoolOpParamNames.names[k - kFirstOpParamKind];
  }
  [[nodiscard]] Children children() const;
  [[nodiscard]] std::uint32_t begin() const { return entry().begin; }
  [[nodiscard]] std::uint32_t end() const { return entry().end; }
  [[nodiscard]] std::string_view string_view() const { return tree_->text_.substr(begin(), end() - begin()); }
  [[nodiscard]] std::string string() const { return std::string(string_view()); }

 private:
  [[nodiscard]] const Entry& entry() const { return tree_->data_[index_]; }
  [[nodiscard]] std::optional<PoolOpId> row_in(std::uint16_t first) const {
    const std::uint16_t k = entry().kind;
    if (k < first || k >= first + kPoolOpCount) return std::nullopt;
    return static_cast<PoolOpId>(k - first);
  }
  const ParseTree* tree_;
  std::uint32_t index_;
};

// The children of a node (or the top-level nodes), in order.
class ParseTree::Children {
 public:
  Children(const ParseTree& tree, std::uint32_t first, std::uint32_t count)
      : tree_(&tree), first_(first), count_(count) {}

  [[nodiscard]] std::size_t size() const { return count_; }
  [[nodiscard]] bool empty() const { return count_ == 0; }
  [[nodiscard]] Node operator[](std::size_t i) const { return {*tree_, tree_->kids_[first_ + i]}; }
  [[nodiscard]] Node at(std::size_t i) const {
    if (i >= count_) throw std::out_of_range("parse tree: no such child");
    return (*this)[i];
  }
  [[nodiscard]] Node front() const { return at(0); }

  class iterator {
   public:
    iterator(const Children& c, std::size_t i) : c_(&c), i_(i) {}
    Node operator*() const { return (*c_)[i_]; }
    iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator!=(const iterator& o) const { return i_ != o.i_; }

   private:
    const Children* c_;
    std::size_t i_;
  };
  [[nodiscard]] iterator begin() const { return {*this, 0}; }
  [[nodiscard]] iterator end() const { return {*this, count_}; }

 private:
  const ParseTree* tree_;
  std::uint32_t first_, count_;
};

inline ParseTree::Children ParseTree::root() const {
  return {*this, root_kids_, static_cast<std::uint32_t>(kids_.size()) - root_kids_};
}
inline ParseTree::Children ParseTree::Node::children() const {
  return {*tree_, entry().first_kid, entry().kid_count};
}

}  // namespace alea::grammar
