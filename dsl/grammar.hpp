// dsl/grammar.hpp — the PEG grammar of the alea language. Rules only: no actions
// and no AST types. parse_tree_selector.hpp selects the rules kept in the parse
// tree; ast_builder.cpp turns that tree into ast::Program.
//
// Two lexical rules carry most of the language's shape:
//  * Shorthand modifiers are written attached to a roll (`4d6kh3`, `3d6!`,
//    `10d10>=8`); anything after whitespace is an operator or a word
//    modifier. So `3d6>=5` counts dice showing 5 or more, while `3d6 >= 5`
//    compares the total.
//  * A condition written attached to `!` belongs to the explosion: `3d6!=5`
//    explodes on 5 and `3d6!>=5` on 5 and 6. Count successes after an explosion
//    with the word form: `3d6! count >=5`.
#pragma once

#include <cstddef>
#include <string_view>

#include <tao/pegtl.hpp>

#include "dsl/pool_ops.hpp"

namespace alea::grammar {

namespace pegtl = tao::pegtl;
using pegtl::at;
using pegtl::eof;
using pegtl::if_must;
using pegtl::list;
using pegtl::must;
using pegtl::not_at;
using pegtl::one;
using pegtl::opt;
using pegtl::plus;
using pegtl::seq;
using pegtl::sor;
using pegtl::star;
using pegtl::string;
using enum PoolOpId;  // the rows' ids, named in the rules of pool operations

// Parser state: how deeply the rules below are nested right now.
struct ParseState {
  std::size_t depth = 0;
  std::size_t max_depth = 0;
};

inline ParseState* pick_state(ParseState& s, ParseState*) { return &s; }
template <class T>
ParseState* pick_state(T&, ParseState* found) {
  return found;
}
// The ParseState among a rule's states, wherever PEGTL's parse tree put it.
template <class... States>
ParseState& parse_state(States&... st) {
  ParseState* found = nullptr;
  ((found = pick_state(st, found)), ...);
  return *found;
}

// Matches seq<Rules...> one nesting level deeper. Every recursion in the grammar
// passes through one of these, so `((((…` and `- - - …` end in a diagnostic
// long before the stack ends.
template <class... Rules>
struct nested {
  using rule_t = nested;
  using subs_t = pegtl::type_list<Rules...>;

  template <pegtl::apply_mode A, pegtl::rewind_mode M, template <class...> class Action,
            template <class...> class Control, class Input, class... States>
  static bool match(Input& in, States&&... st) {
    ParseState& ps = parse_state(st...);
    if (ps.depth > ps.max_depth) {  // the top level plus max_depth nested levels
      throw pegtl::parse_error("NestingTooDeep|expression is nested too deeply", in);
    }
    ++ps.depth;
    struct Leave {
      std::size_t& depth;
      ~Leave() { --depth; }
    } leave{ps.depth};
    return pegtl::match<seq<Rules...>, A, M, Action, Control>(in, st...);
  }
};

// ---- pool operations ----------------------------------------------------------
// The rule of a pool operation names its row of dsl/pool_ops.def, and the rule
// of each parameter the parameter's name, so that the parse tree keeps them
// (without a list in parse_tree_selector.hpp) and the builder makes any of them
// an ast::PoolOp from its row alone:
//   pool_op<Id, Rules...>   the operation, seq<Rules...>: row Id, unless…
//   op_is<Id>               …this is matched within it: it matches nothing, and
//                           makes the operation row Id (`reroll … once` is
//                           RerollOnce). A word that picks among rows so needs
//                           no rule per row that would parse the rest twice.
//   op_param<"name", Rule>  Rule, the value of the row's parameter `name` (an
//                           optional one not matched is absent). op_param is
//                           Rule under another name, so its node holds the
//                           nodes inside Rule, as the row's part reads them:
//                             ALEA_COND   [cmp_op,] value   (cond, word_cond, seq<cmp_op, arg>)
//                             ALEA_NUMBER value             (arg, signed_int, sh_count_arg)
//                             ALEA_POOL   value, comparison (cancel_pool: a rule
//                                         derived from cmp_op is a cmp_op node)
//                           A value that is one leaf node (`integer`) is
//                           wrapped in a rule that holds it (sh_count_arg).
// Both forms of an operation, shorthand and words, are rules like these, each
// listed in `shorthand` or `word_mod` below.

// A parameter's name as a template argument: op_param<"limit", arg>.
template <std::size_t N>
struct op_param_name {
  char text[N]{};
  constexpr op_param_name(const char (&s)[N]) {  // NOLINT: implicit, to be written as a string
    for (std::size_t i = 0; i < N; ++i) text[i] = s[i];
  }
  [[nodiscard]] constexpr std::string_view view() const { return {text, N - 1}; }
};

template <PoolOpId Id, class... Rules>
struct pool_op : seq<Rules...> {
  static constexpr PoolOpId pool_op_id = Id;
};
template <PoolOpId Id>
struct op_is : pegtl::success {
  static constexpr PoolOpId pool_op_is = Id;
};
template <op_param_name Name, class Rule>
struct op_param : Rule {
  static constexpr std::string_view pool_op_param = Name.view();
  static_assert(kPoolOpParamNames.index(pool_op_param) < kPoolOpParamNames.size,
                "no row of dsl/pool_ops.def has a parameter of this name");
};

// clang-format off
struct comment      : seq<one<'#'>, star<pegtl::not_one<'\n'>>> {};
struct ws           : star<sor<pegtl::space, comment>> {};          // may be empty
struct blank        : plus<one<' ', '\t'>> {};
struct ident_other  : pegtl::identifier_other {};

#define ALEA_KW(name, text) struct name : TAO_PEGTL_KEYWORD(text) {}
ALEA_KW(kw_let, "let");        ALEA_KW(kw_in, "in");           ALEA_KW(kw_fn, "fn");
ALEA_KW(kw_if, "if");          ALEA_KW(kw_then, "then");       ALEA_KW(kw_else, "else");
ALEA_KW(kw_and, "and");        ALEA_KW(kw_or, "or");           ALEA_KW(kw_not, "not");
ALEA_KW(kw_true, "true");      ALEA_KW(kw_false, "false");     ALEA_KW(kw_tiers, "tiers");
ALEA_KW(kw_repeat, "repeat");  ALEA_KW(kw_for, "for");         ALEA_KW(kw_loop, "loop");
ALEA_KW(kw_until, "until");    ALEA_KW(kw_while, "while");     ALEA_KW(kw_keep, "keep");
ALEA_KW(kw_drop, "drop");      ALEA_KW(kw_highest, "highest"); ALEA_KW(kw_lowest, "lowest");
ALEA_KW(kw_explode, "explode");ALEA_KW(kw_compound, "compound");ALEA_KW(kw_penetrate, "penetrate");
ALEA_KW(kw_reroll, "reroll");  ALEA_KW(kw_once, "once");       ALEA_KW(kw_limit, "limit");
ALEA_KW(kw_count, "count");    ALEA_KW(kw_fail, "fail");       ALEA_KW(kw_double, "double");
ALEA_KW(kw_under, "under");    ALEA_KW(kw_cancel, "cancel");   ALEA_KW(kw_sort, "sort");
ALEA_KW(kw_unique, "unique");  ALEA_KW(kw_clamp, "clamp");     ALEA_KW(kw_asc, "asc");
ALEA_KW(kw_desc, "desc");      ALEA_KW(kw_min, "min");         ALEA_KW(kw_max, "max");
ALEA_KW(kw_none, "none");      ALEA_KW(kw_combine, "combine"); ALEA_KW(kw_except, "except");
ALEA_KW(kw_vs, "vs");          ALEA_KW(kw_opposed, "opposed"); ALEA_KW(kw_by, "by");
#undef ALEA_KW

// `min` and `max` are also builtin function names, so they are not reserved.
struct keyword : sor<kw_let, kw_in, kw_fn, kw_if, kw_then, kw_else, kw_and, kw_or, kw_not,
                     kw_true, kw_false, kw_tiers, kw_repeat, kw_for, kw_loop, kw_until, kw_while,
                     kw_keep, kw_drop, kw_highest, kw_lowest, kw_explode, kw_compound,
                     kw_penetrate, kw_reroll, kw_once, kw_limit, kw_count, kw_fail, kw_double,
                     kw_under, kw_cancel, kw_sort, kw_unique, kw_clamp, kw_asc, kw_desc,
                     kw_none, kw_combine, kw_except, kw_vs, kw_opposed, kw_by> {};

// A word that reads as a die (`d6`, `d20x`, `dF`) is never a name (language.md §4.3).
struct die_like     : seq<one<'d'>, sor<pegtl::digit, seq<one<'F'>, not_at<ident_other>>>> {};
struct identifier   : seq<not_at<keyword>, not_at<die_like>, pegtl::identifier> {};
// Where a new name is defined, a reserved word is an error of its own.
struct reserved     : seq<sor<keyword, die_like>, star<ident_other>> {};
struct reserved_as_name : seq<at<reserved>, pegtl::raise<reserved>> {};
template <class Name>
struct new_name     : sor<Name, reserved_as_name> {};
struct integer      : plus<pegtl::digit> {};
struct neg_integer  : seq<one<'-'>, integer> {};
struct signed_int   : sor<neg_integer, integer> {};

struct escape       : seq<one<'\\'>, pegtl::any> {};
struct string_char  : sor<escape, pegtl::not_one<'"', '\\', '\n'>> {};
struct string_body  : star<string_char> {};
struct string_close : one<'"'> {};
struct string_lit   : if_must<one<'"'>, string_body, string_close> {};

struct expression;
struct open_paren   : one<'('> {};
struct close_paren  : one<')'> {};
struct parens       : if_must<open_paren, ws, expression, ws, close_paren> {};

// ---- dice -------------------------------------------------------------------
struct face_range   : seq<signed_int, string<'.', '.'>, signed_int> {};
struct face         : sor<face_range, signed_int> {};
struct faces_close  : one<'}'> {};
struct comma        : seq<ws, one<','>, ws> {};
struct face_list    : list<face, comma> {};
struct faces        : if_must<one<'{'>, ws, face_list, ws, faces_close> {};
struct percent      : one<'%'> {};
struct fudge        : seq<one<'F'>, not_at<ident_other>> {};
struct sides        : sor<integer, percent, fudge, faces, parens> {};
struct die          : seq<one<'d'>, sides> {};

struct name_path    : seq<identifier, star<one<'.'>, identifier>> {};
struct count_num    : integer {};
struct count_name   : seq<name_path, blank> {};     // `pool d12`: a name, blanks, then a die

// An argument written after a modifier: a number, a name or a parenthesised expression.
struct none_arg     : kw_none {};
struct arg          : sor<signed_int, parens, none_arg, name_path> {};
struct cmp_op       : sor<string<'>', '='>, string<'<', '='>, string<'<', '>'>, string<'!', '='>,
                          string<'=', '='>, one<'>'>, one<'<'>, one<'='>> {};
struct bare_arg     : sor<integer, parens> {};
struct cond         : sor<seq<cmp_op, arg>, bare_arg> {};      // attached: `>=5`, `6`
struct word_cond    : sor<seq<cmp_op, ws, arg>, arg> {};       // after a word: `>= 5`, `6`

// Shorthand modifiers, attached to the roll: each a pool operation.
struct sh_opt_cond  : opt<op_param<"cond", cond>> {};          // `!`, `!>=5`
struct sh_compound  : pool_op<Compound, string<'!', '!'>, sh_opt_cond> {};
struct sh_penetrate : pool_op<Penetrate, string<'!', 'p'>, sh_opt_cond> {};
struct sh_explode   : pool_op<Explode, one<'!'>, sh_opt_cond> {};
struct sh_count_arg : sor<integer, parens> {};
struct sh_opt_count : opt<op_param<"count", sh_count_arg>> {};  // `kh`, `kh3`, `kh(n)`
struct sh_kh        : pool_op<KeepHighest, sor<string<'k', 'h'>, one<'k'>>, sh_opt_count> {};
struct sh_kl        : pool_op<KeepLowest, string<'k', 'l'>, sh_opt_count> {};
struct sh_dh        : pool_op<DropHighest, string<'d', 'h'>, sh_opt_count> {};
struct sh_dl        : pool_op<DropLowest, sor<string<'d', 'l'>, one<'d'>>, sh_opt_count> {};
struct sh_reroll_once : pool_op<RerollOnce, string<'r', 'o'>, sh_opt_cond> {};
struct sh_reroll    : pool_op<Reroll, one<'r'>, sh_opt_cond> {};
struct sh_fail      : seq<one<'f'>, op_param<"fail", cond>> {};
struct sh_success   : pool_op<Count, sor<string<'c', 's'>, string<'c', 'f'>>, op_param<"success", cond>,
                              opt<sh_fail>> {};
struct sh_count     : pool_op<Count, op_param<"success", seq<cmp_op, arg>>, opt<sh_fail>> {};
struct sh_min       : pool_op<Clamp, string<'m', 'i', 'n'>, op_param<"low", signed_int>> {};
struct sh_max       : pool_op<Clamp, string<'m', 'a', 'x'>, op_param<"high", signed_int>> {};
struct sh_sort_desc : pool_op<SortDesc, string<'s', 'd'>> {};
struct sh_sort      : pool_op<Sort, one<'s'>, opt<one<'a'>>> {};
struct sh_unique_once : pool_op<UniqueOnce, string<'u', 'o'>> {};
struct sh_unique    : pool_op<Unique, one<'u'>> {};
struct shorthand    : sor<sh_compound, sh_penetrate, sh_explode, sh_kl, sh_kh, sh_dh, sh_dl,
                          sh_reroll_once, sh_reroll, sh_success, sh_min, sh_max, sh_sort_desc,
                          sh_sort, sh_unique_once, sh_unique, sh_count> {};
struct no_letters   : not_at<ident_other> {};   // `4d6kx` is an unknown modifier, not `4d6k` + `x`
struct dice_suffix  : seq<star<shorthand>, must<no_letters>> {};
// Each form commits after its first token, so nothing is parsed twice (a
// parenthesised count is parsed once whether or not a `d` follows it).
struct counted_dice : seq<count_num, one<'d'>, must<sides>, dice_suffix> {};
struct named_dice   : seq<count_name, die, dice_suffix> {};
struct single_dice  : seq<die, dice_suffix> {};
struct paren_group  : seq<parens, opt<one<'d'>, must<sides>, dice_suffix>> {};

// ---- word modifiers, after whitespace -----------------------------------------
// Each a pool operation that commits after its first word.
struct limit_clause : if_must<kw_limit, ws, op_param<"limit", arg>> {};
struct explode_rest : seq<opt<ws, op_param<"cond", word_cond>>, opt<ws, limit_clause>> {};
struct w_explode    : pool_op<Explode, kw_explode, explode_rest> {};
struct w_compound   : pool_op<Compound, kw_compound, explode_rest> {};
struct w_penetrate  : pool_op<Penetrate, kw_penetrate, explode_rest> {};
struct w_reroll     : pool_op<Reroll, kw_reroll, opt<ws, op_param<"cond", word_cond>>,
                              opt<ws, kw_once, op_is<RerollOnce>>> {};
struct keep_cond    : seq<cmp_op, ws, arg> {};
// `keep 3` could mean "keep the highest 3" or "keep the 3s": refused, with both spellings.
struct keep_count_or_face : seq<at<arg>, pegtl::raise<keep_count_or_face>> {};
template <PoolOpId Highest, PoolOpId Lowest, PoolOpId Matching>
struct keep_what    : sor<seq<kw_highest, op_is<Highest>, opt<ws, op_param<"count", arg>>>,
                          seq<kw_lowest, op_is<Lowest>, opt<ws, op_param<"count", arg>>>,
                          seq<op_param<"cond", keep_cond>, op_is<Matching>>, keep_count_or_face> {};
struct w_keep       : pool_op<KeepHighest,
                              if_must<kw_keep, ws, keep_what<KeepHighest, KeepLowest, KeepMatching>>> {};
struct w_drop       : pool_op<DropHighest,
                              if_must<kw_drop, ws, keep_what<DropHighest, DropLowest, DropMatching>>> {};
struct fail_clause  : if_must<kw_fail, ws, op_param<"fail", word_cond>> {};
struct double_clause: if_must<kw_double, ws, op_param<"twice", word_cond>> {};
struct count_extras : star<ws, sor<fail_clause, double_clause>> {};  // in either order
struct w_count      : pool_op<Count,
                              if_must<kw_count, ws, op_param<"success", word_cond>, count_extras>> {};
struct except_clause: if_must<kw_except, ws, op_param<"except", word_cond>> {};
struct w_under      : pool_op<Under, if_must<kw_under, ws, op_param<"target", arg>>,
                              opt<ws, except_clause>> {};
struct cancel_op    : cmp_op {};
struct cancel_pool  : seq<must<arg>, ws, must<cancel_op>> {};  // `red<=`
struct w_cancel     : pool_op<Cancel, kw_cancel, ws, op_param<"by", cancel_pool>,
                              opt<ws, kw_combine, op_is<CancelCombine>, opt<ws, except_clause>>> {};
struct w_sort       : pool_op<Sort, kw_sort,
                              opt<ws, sor<kw_asc, seq<kw_desc, op_is<SortDesc>>>>> {};
struct w_unique     : pool_op<Unique, kw_unique, opt<ws, kw_once, op_is<UniqueOnce>>> {};
struct clamp_min    : if_must<kw_min, ws, op_param<"low", arg>> {};
struct clamp_max    : if_must<kw_max, ws, op_param<"high", arg>> {};
struct clamp_bounds : sor<seq<clamp_min, opt<ws, clamp_max>>, clamp_max> {};
struct w_clamp      : pool_op<Clamp, if_must<kw_clamp, ws, clamp_bounds>> {};
struct word_mod     : sor<w_explode, w_compound, w_penetrate, w_reroll, w_keep, w_drop, w_count,
                          w_under, w_cancel, w_sort, w_unique, w_clamp> {};

// ---- primaries ----------------------------------------------------------------
struct close_bracket: one<']'> {};
struct trailing_comma : opt<ws, one<','>> {};
struct list_items   : opt<list<expression, comma>, trailing_comma, ws> {};
struct list_lit     : if_must<one<'['>, ws, list_items, close_bracket> {};
struct field_name   : pegtl::identifier {};  // any word, keywords included: `r.count`, `{keep: 1}`
struct record_field : if_must<field_name, ws, one<':'>, ws, expression> {};
struct close_brace  : one<'}'> {};
struct record_items : opt<list<record_field, comma>, trailing_comma, ws> {};
struct record_lit   : if_must<one<'{'>, ws, record_items, close_brace> {};
struct arg_name     : identifier {};
struct named_arg    : seq<arg_name, ws, one<':'>, ws, must<expression>> {};   // `red: 1`
struct call_arg     : sor<named_arg, expression> {};
struct call_items   : opt<list<call_arg, comma>, ws> {};
struct call_args    : if_must<one<'('>, ws, call_items, close_paren> {};
// `check(…)`, a ruleset's mechanic `my_game.check(…)`, the builtins sort() and clamp().
struct call_name    : sor<seq<identifier, opt<one<'.'>, identifier>>, kw_sort, kw_clamp> {};
struct call         : seq<call_name, call_args> {};
struct name_ref     : identifier {};
struct true_lit     : kw_true {};
struct none_lit     : kw_none {};
struct false_lit    : kw_false {};

struct if_expr      : if_must<kw_if, ws, expression, ws, kw_then, ws, expression, ws, kw_else, ws,
                              expression> {};
struct let_name     : new_name<identifier> {};
struct let_expr     : if_must<kw_let, ws, let_name, ws, one<'='>, ws, expression, ws, kw_in, ws,
                              expression> {};
struct block        : if_must<one<'{'>, ws, expression, ws, close_brace> {};
struct repeat_expr  : if_must<kw_repeat, ws, expression, ws, block> {};
struct for_var      : new_name<identifier> {};
struct for_expr     : if_must<kw_for, ws, for_var, ws, kw_in, ws, expression, ws, block> {};
struct loop_var     : new_name<identifier> {};
struct loop_mode    : sor<kw_until, kw_while> {};
struct loop_expr    : if_must<kw_loop, ws, loop_var, ws, one<'='>, ws, expression, ws, loop_mode, ws,
                              expression, ws, block> {};

struct primary      : sor<counted_dice, named_dice, single_dice, paren_group, integer,
                          string_lit, true_lit, false_lit, none_lit, list_lit,
                          record_lit, if_expr, let_expr, repeat_expr, for_expr, loop_expr, call,
                          name_ref> {};

struct field_access : seq<one<'.'>, must<field_name>> {};
struct index_access : if_must<one<'['>, ws, expression, ws, close_bracket> {};
struct postfix_item : sor<field_access, index_access, seq<ws, word_mod>> {};
struct postfix      : seq<primary, star<postfix_item>> {};

struct neg_op       : one<'-'> {};
struct unary;
struct negated      : nested<neg_op, ws, must<unary>> {};
struct unary        : sor<negated, postfix> {};
struct mul_op       : one<'*', '/', '%'> {};
struct product      : seq<unary, star<ws, mul_op, ws, must<unary>>> {};
struct add_op       : one<'+', '-'> {};
struct sum          : seq<product, star<ws, add_op, ws, must<product>>> {};

struct tier_label   : seq<identifier, at<ws, sor<one<','>, one<'}'>>>> {};
struct range_high   : seq<ws, string<'.', '.'>, ws, must<arg>> {};
struct tier_value   : seq<arg, opt<range_high>> {};        // `7`, `7..9`
struct tier_cmp     : seq<cmp_op, ws, must<arg>> {};        // `<=6`
struct tier_else    : kw_else {};
struct tier_test    : sor<tier_else, tier_cmp, tier_value> {};
struct tier_result  : sor<tier_label, expression> {};
struct tier         : seq<tier_test, ws, must<one<':'>>, ws, must<tier_result>> {};
struct tier_list    : seq<list<tier, comma>, ws, opt<one<','>, ws>> {};
struct tiers_block  : if_must<kw_tiers, ws, one<'{'>, ws, tier_list, close_brace> {};
struct tiered       : seq<sum, opt<ws, tiers_block>> {};

struct compare_op   : sor<string<'=', '='>, string<'!', '='>, string<'<', '='>, string<'>', '='>,
                          one<'<'>, one<'>'>> {};
struct comparison   : seq<tiered, opt<ws, compare_op, ws, must<tiered>>> {};
struct not_op       : kw_not {};
struct negation;
struct not_negated  : nested<not_op, ws, must<negation>> {};
struct negation     : sor<not_negated, comparison> {};
struct and_op       : kw_and {};
struct conjunction  : seq<negation, star<ws, and_op, ws, must<negation>>> {};
struct or_op        : kw_or {};
struct disjunction  : seq<conjunction, star<ws, or_op, ws, must<conjunction>>> {};
// `A vs B [by rule(args)]`, `E vs opposed [by rule(args)]`: an opposed roll,
// compared by a function of the two results.
struct opposed_word : kw_opposed {};
struct rule_name    : sor<seq<identifier, opt<one<'.'>, identifier>>, kw_sort, kw_clamp> {};
struct by_clause    : seq<if_must<kw_by, ws, rule_name>, opt<call_args>> {};
struct vs_rhs       : sor<opposed_word, disjunction> {};
struct vs_clause    : seq<if_must<kw_vs, ws, vs_rhs>, opt<ws, by_clause>> {};
struct versus       : seq<disjunction, opt<ws, vs_clause>> {};
struct expression   : nested<versus> {};

// ---- programs -----------------------------------------------------------------
struct fn_name      : new_name<identifier> {};
struct param_name   : new_name<identifier> {};
struct param        : seq<param_name, opt<ws, one<'='>, ws, must<expression>>> {};  // `red = 0`
struct param_items  : opt<list<param, comma>, ws> {};
struct params       : if_must<one<'('>, ws, param_items, close_paren> {};
struct fn_def       : if_must<kw_fn, ws, fn_name, ws, params, ws, one<'='>, ws, expression> {};
struct global_name  : new_name<identifier> {};
struct global_let   : seq<kw_let, ws, global_name, ws, one<'='>, ws, must<expression>,
                          not_at<ws, kw_in>> {};
struct statement    : sor<fn_def, global_let> {};
struct separator    : opt<one<';'>, ws> {};
struct main_expr    : expression {};
struct end_of_input : eof {};
struct program      : seq<ws, star<statement, ws, separator>, opt<main_expr, ws, separator>,
                          must<end_of_input>> {};
// clang-format on

}  // namespace alea::grammar
