// dsl/parse_tree_selector.hpp — which grammar rules become parse-tree nodes.
// Shared by parser.cpp (which parses) and ast_builder.cpp (which reads the tree).
#pragma once

#include <tao/pegtl/contrib/parse_tree.hpp>

#include "dsl/grammar.hpp"

namespace alea {
namespace pegtl = tao::pegtl;
}

namespace alea::grammar {

namespace pt = pegtl::parse_tree;

// Replaces a node that has one child by that child, like PEGTL's fold_one, but
// keeps the content (and so the span) of a node it does not fold.
struct fold_keep : pt::apply<fold_keep> {
  template <class Node, class... States>
  static void transform(std::unique_ptr<Node>& n, States&&...) {
    if (n->children.size() == 1) n = std::move(n->children.front());
  }
};

// clang-format off
template <class Rule>
using selector = pt::selector<Rule,
    pt::store_content::on<
        integer, neg_integer, count_num, string_body, true_lit, false_lit, none_lit, none_arg, name_path,
        percent, fudge, faces, face_range, sides, arg, cond, word_cond, cmp_op,
        counted_dice, named_dice, single_dice, paren_group,
        sh_compound, sh_penetrate, sh_explode, sh_kh, sh_kl, sh_dh, sh_dl, sh_reroll_once,
        sh_reroll, sh_success, sh_count, sh_fail, sh_min, sh_max, sh_sort_desc, sh_sort, sh_unique,
        w_explode, explode_kind, limit_clause, w_reroll, once_word, w_keep, keep_word, drop_word,
        which_high, which_low, keep_cond, w_count, fail_clause, double_clause, w_under, w_cancel, cancel_op,
        combine_word, except_clause, under_head, opposed_word, rule_name, by_clause, vs_clause,
        w_sort, sort_desc, w_unique, w_clamp, clamp_min, clamp_max,
        list_lit, record_lit, record_field, field_name, call, call_name, named_arg, arg_name, name_ref,
        if_expr, let_expr, let_name, repeat_expr, for_expr, for_var, loop_expr, loop_var, loop_mode,
        field_access, index_access, neg_op, mul_op, add_op, compare_op, not_op, and_op, or_op,
        tiers_block, tier, tier_else, tier_cmp, tier_value, tier_label,
        fn_def, fn_name, param, param_name, global_let, global_name, main_expr>,
    fold_keep::on<versus, postfix, unary, product, sum, tiered, comparison, negation, conjunction,
                     disjunction>>;
// clang-format on

}  // namespace alea::grammar
