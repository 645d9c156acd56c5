// interpreter/rulesets/ruleset_loader_state.cpp — the sections of a ruleset about what
// lives beyond one roll: `state` (counters kept between rolls), `choices`
// (what a player decides after seeing a roll), `tiers` (named scales of
// outcomes) and a mechanic's `changes` (what it does to the state), and which of them each
// mechanic reads.
#include <algorithm>
#include <charconv>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dsl/ast_walk.hpp"
#include "dsl/parser.hpp"
#include "dsl/reads.hpp"
#include "dsl/resolver.hpp"
#include "interpreter/rulesets/ruleset_loader_parts.hpp"

namespace alea::detail {

namespace {

// The constant a ruleset's state counter or choice becomes: a settable name
// whose run-time value comes from the host before its default.
void add_settable(RulesetReader& r, const YAML::Node& key, const ParamInfo& p, const YAML::Node& default_node,
                  ast::Constant::Source source, bool clamp) {
  auto c = std::make_unique<ast::Constant>();
  c->name = p.name;
  c->span = r.span_of(key);
  c->parameter = true;
  c->type = p.type;
  c->source = source;
  c->owner = r.ruleset().name;
  c->clamp = clamp;
  if (default_node) {
    c->value = to_expr(r, default_node);
  } else {
    c->value = std::make_unique<ast::Expr>();
    c->value->kind = ast::NoneLit{};
    c->value->span = r.span_of(key);
  }
  r.program().constants.push_back(std::move(c));
}

const ast::Constant* find_counter(const ast::Program& p, std::string_view name) {
  for (const auto& c : p.constants) {
    if (c->source == ast::Constant::Source::State && c->name == name) return c.get();
  }
  return nullptr;
}

// A hidden function of the mechanic `fn`: its parameters, then `result`. Its
// name holds a '$', which no source can write, so only the evaluator calls it.
ast::FnDef hidden_function(const ast::FnDef& fn, std::string name, ast::ExprPtr body, Span span) {
  ast::FnDef h;
  h.name = std::move(name);
  h.params = fn.params;
  h.params.emplace_back("result");
  h.param_spans = fn.param_spans;
  h.param_spans.push_back(span);
  for (std::size_t i = 0; i < h.params.size(); ++i) h.defaults.push_back(nullptr);
  h.body = std::move(body);
  h.span = span;
  return h;
}

}  // namespace

void read_state(RulesetReader& r, const YAML::Node& n) {
  if (!n.IsMap()) {
    r.error(DiagCode::RulesetFieldType, r.span_of(n), "'state' must be a mapping from names to the counters they keep");
    return;
  }
  for (auto it = n.begin(); it != n.end(); ++it) {
    if (!r.name(it->first, "state", true)) continue;
    auto p = r.param(it->first, it->second, "state", true, {{"at_limit", false}});
    if (!p) continue;
    bool clamp = true;
    if (const YAML::Node lim = it->second["at_limit"]) {
      const auto how = r.text(lim, "'at_limit'");
      if (how && *how == "error") {
        clamp = false;
      } else if (how && *how != "clamp") {
        r.error(DiagCode::RulesetInvalidValue, r.span_of(lim),
                fmt::format("'at_limit' is 'clamp' (a change stops at the bound) or 'error', not '{}'", *how));
      }
      if (p->type.kind != ast::TypeSpec::Int) {
        r.error(DiagCode::RulesetInvalidValue, r.span_of(lim), "'at_limit' applies to the type int");
      }
    }
    if (p->type.kind == ast::TypeSpec::Pool || p->type.kind == ast::TypeSpec::Any) {
      const YAML::Node type = it->second["type"];  // absent when the type came from elsewhere
      r.error(DiagCode::RulesetInvalidValue, r.span_of(type ? type : it->first),
              fmt::format("a state holds an int, bool, string, label, list or record, not {}", ast::type_name(p->type)));
      continue;
    }
    add_settable(r, it->first, *p, it->second["default"], ast::Constant::Source::State, clamp);
    StateInfo s;
    static_cast<ParamInfo&>(s) = std::move(*p);
    s.clamp = clamp;
    r.ruleset().state.push_back(std::move(s));
  }
}

void read_choices(RulesetReader& r, const YAML::Node& n) {
  if (!n.IsMap()) {
    r.error(DiagCode::RulesetFieldType, r.span_of(n), "'choices' must be a mapping from names to the decisions they are");
    return;
  }
  for (auto it = n.begin(); it != n.end(); ++it) {
    if (!r.name(it->first, "choice", true)) continue;
    auto p = r.param(it->first, it->second, "choice", false, {{"flag", false}});
    if (!p) continue;
    if (it->second["default"]) {
      r.error(DiagCode::RulesetInvalidValue, r.span_of(it->second["default"]),
              "a choice has no default: when the player does not decide, it is none and the mechanic decides by its policy");
      continue;
    }
    p->type.optional = true;  // none: not decided
    ChoiceInfo c;
    if (const YAML::Node f = it->second["flag"]) {
      const auto flag = r.text(f, "'flag'");
      const bool ok = flag && !flag->empty() && std::islower(static_cast<unsigned char>((*flag)[0])) &&
                      std::all_of(flag->begin(), flag->end(), [](char ch) {
                        return std::islower(static_cast<unsigned char>(ch)) ||
                               std::isdigit(static_cast<unsigned char>(ch)) || ch == '-';
                      });
      if (!ok) {
        r.error(DiagCode::RulesetInvalidValue, r.span_of(f),
                "a flag is written without its '--', in lower case, with '-' between words: use-edge");
      } else if (p->type.kind != ast::TypeSpec::Bool) {
        r.error(DiagCode::RulesetInvalidValue, r.span_of(f), "a flag decides a choice true, so the choice must be a bool");
      } else {
        c.flag = *flag;
      }
    }
    add_settable(r, it->first, *p, YAML::Node(), ast::Constant::Source::Choice, true);
    static_cast<ParamInfo&>(c) = std::move(*p);
    r.ruleset().choices.push_back(std::move(c));
  }
}

void read_tiers(RulesetReader& r, const YAML::Node& n) {
  if (!n.IsMap()) {
    r.error(DiagCode::RulesetFieldType, r.span_of(n), "'tiers' must be a mapping from names to scales of outcomes");
    return;
  }
  for (auto it = n.begin(); it != n.end(); ++it) {
    const std::string sname = it->first.Scalar();
    if (!r.name(it->first, "tier scale", true)) continue;
    const std::string context = fmt::format("the tier scale '{}'", sname);
    if (!r.keys(it->second, r.span_of(it->first), context, {{"doc", true}, {"levels", true}})) continue;
    TierScale scale;
    scale.name = sname;
    if (it->second["doc"]) scale.doc = r.text(it->second["doc"], "'doc'").value_or("");
    const YAML::Node levels = it->second["levels"];
    if (!levels) continue;
    if (!levels.IsMap() || levels.size() < 2) {
      r.error(DiagCode::RulesetFieldType, r.span_of(levels),
              "'levels' maps each outcome, lowest first, to {from: N, doc: …}; a scale has at least two");
      continue;
    }
    bool ok = true;
    for (auto l = levels.begin(); l != levels.end(); ++l) {
      if (!r.name(l->first, "level", false)) {
        ok = false;
        continue;
      }
      TierLevel level;
      level.name = l->first.Scalar();
      const std::string lcontext = fmt::format("the level '{}'", level.name);
      const bool first = scale.levels.empty();
      if (!r.keys(l->second, r.span_of(l->first), lcontext, {{"from", !first}, {"doc", true}})) {
        ok = false;
        continue;
      }
      if (l->second["doc"]) level.doc = r.text(l->second["doc"], "'doc'").value_or("");
      if (const YAML::Node f = l->second["from"]) {
        if (first) {
          r.error(DiagCode::RulesetInvalidValue, r.span_of(f),
                  "the lowest level has no 'from': it holds every value below the next level's");
          ok = false;
        } else if (auto v = f.IsScalar() ? std::optional<std::string>(f.Scalar()) : std::nullopt; v) {
          std::int64_t x = 0;
          const auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), x);
          if (ec != std::errc() || p != v->data() + v->size()) {
            r.error(DiagCode::RulesetFieldType, r.span_of(f), fmt::format("'from' must be a whole number, got '{}'", *v));
            ok = false;
          } else if (scale.levels.size() > 1 && x <= *scale.levels.back().from) {
            r.error(DiagCode::RulesetInvalidValue, r.span_of(f),
                    fmt::format("the levels go lowest first: {} is not above the previous level's 'from', {}", x,
                                *scale.levels.back().from));
            ok = false;
          } else {
            level.from = x;
          }
        } else {
          r.error(DiagCode::RulesetFieldType, r.span_of(f), "'from' must be a whole number");
          ok = false;
        }
      }
      scale.levels.push_back(std::move(level));
    }
    if (!ok) continue;
    // Two functions, written in the language: the level's name, shown in the
    // trace; and its rank from 0, for comparing levels without showing them.
    std::string label = "x tiers { ";
    for (std::size_t i = 0; i + 1 < scale.levels.size(); ++i) {
      label += fmt::format("<{}: \"{}\", ", *scale.levels[i + 1].from, scale.levels[i].name);
    }
    label += fmt::format("else: \"{}\" }}", scale.levels.back().name);
    // From the top down: if x < from(1) then 0 else (if x < from(2) then 1 else (… n - 1)).
    std::string rank_expr = fmt::format("{}", scale.levels.size() - 1);
    for (std::size_t i = scale.levels.size() - 1; i >= 1; --i) {
      rank_expr = fmt::format("if x < {} then {} else ({})", *scale.levels[i].from, i - 1, rank_expr);
    }
    const std::string source = fmt::format("fn {0}(x) = note(\"{0}\", {1})\nfn {0}_rank(x) = {2}\n", sname, label,
                                           rank_expr);
    auto src = SourceFile::make(fmt::format("{} (tiers: {})", r.file().name(), sname), source, r.file().origin());
    r.keep_source(src);
    auto prog = r.parse_code(src);
    if (!prog) continue;
    for (auto& st : prog->statements) r.program().statements.push_back(std::move(st));
    r.ruleset().functions.push_back(sname);
    r.ruleset().functions.push_back(sname + "_rank");
    r.ruleset().tiers.push_back(std::move(scale));
  }
}

void read_changes(RulesetReader& r, const YAML::Node& n, ast::FnDef& fn, MechanicInfo& m) {
  if (!n.IsMap() || n.size() == 0) {
    r.error(DiagCode::RulesetFieldType, r.span_of(n),
            "'changes' maps each state counter the mechanic changes to how: reset, {add: …}, {subtract: …} or {set: …}");
    return;
  }
  if (std::find(fn.params.begin(), fn.params.end(), "result") != fn.params.end()) {
    r.error(DiagCode::RulesetInvalidValue, r.span_of(n),
            "a mechanic with 'changes' cannot have a parameter named 'result': its changes see its result by that name");
    return;
  }
  std::vector<std::string> seen;
  for (auto it = n.begin(); it != n.end(); ++it) {
    const std::string cname = it->first.Scalar();
    const Span at = r.span_of(it->first);
    const ast::Constant* counter = find_counter(r.program(), cname);
    if (!counter) {
      std::vector<std::string> names;
      for (const auto& s : r.ruleset().state) names.push_back(s.name);
      auto& d = r.error(DiagCode::RulesetInvalidValue, at,
                        fmt::format("'{}' is not a counter of this ruleset's 'state'", cname));
      if (const auto near = closest_name(cname, names); !near.empty()) d.note({}, fmt::format("did you mean '{}'?", near));
      else if (names.empty()) d.note({}, "declare the counters a mechanic changes under 'state'");
      continue;
    }
    if (std::find(seen.begin(), seen.end(), cname) != seen.end()) {
      r.error(DiagCode::RulesetInvalidValue, at, fmt::format("'{}' is changed twice", cname));
      continue;
    }
    seen.push_back(cname);
    ast::StateChange change;
    change.counter = counter;
    change.span = at;
    ChangeInfo info;
    info.counter = cname;
    const YAML::Node how = it->second;
    if (how.IsScalar() && how.Scalar() == "reset") {
      change.op = ast::StateChange::Reset;
      info.op = "reset";
      fn.changes.push_back(change);
      m.changes.push_back(std::move(info));
      continue;
    }
    const std::string context = fmt::format("the change of '{}'", cname);
    if (!how.IsMap()) {
      r.error(DiagCode::RulesetFieldType, r.span_of(how),
              fmt::format("{} is reset, or a mapping with one of add, subtract, set or reset, and maybe when", context));
      continue;
    }
    if (!r.keys(how, r.span_of(how), context,
                {{"add", false}, {"subtract", false}, {"set", false}, {"reset", false}, {"when", false}})) {
      continue;
    }
    std::vector<std::string> ops;
    for (const char* op : {"add", "subtract", "set", "reset"}) {
      if (how[op]) ops.emplace_back(op);
    }
    if (ops.size() != 1) {
      r.error(DiagCode::RulesetInvalidValue, r.span_of(how),
              fmt::format("{} needs exactly one of add, subtract, set or reset{}", context,
                          ops.empty() ? "" : fmt::format(", not {}", fmt::join(ops, " and "))));
      continue;
    }
    info.op = ops[0];
    const Span counter_span = counter->span;
    if ((ops[0] == "add" || ops[0] == "subtract") && counter->type && counter->type->kind != ast::TypeSpec::Int) {
      r.error(DiagCode::RulesetInvalidValue, r.span_of(how[ops[0]]),
              fmt::format("'{}' applies to an int counter; '{}' is {}", ops[0], cname, ast::type_name(*counter->type)))
          .note(counter_span, "it is declared here");
      continue;
    }
    bool ok = true;
    const auto hidden = [&](const YAML::Node& e, std::string_view what, std::string suffix) -> bool {
      auto src = r.code(e, what);
      if (!src) return false;
      auto prog = r.parse_code(src);
      if (!prog) return false;
      if (!prog->statements.empty() || !prog->main) {
        r.error(DiagCode::RulesetInvalidValue, r.span_of(e), fmt::format("{} is one expression", what));
        return false;
      }
      r.program().statements.emplace_back(
          hidden_function(fn, fmt::format("{}${}${}", fn.name, cname, suffix), std::move(prog->main), at));
      return true;
    };
    if (ops[0] == "reset") {
      const YAML::Node v = how["reset"];
      if (!v.IsScalar() || v.Scalar() != "true") {
        r.error(DiagCode::RulesetInvalidValue, r.span_of(v),
                "write 'reset: true' (and 'when: …' for a condition), or 'reset' alone");
        continue;
      }
      change.op = ast::StateChange::Reset;
    } else {
      change.op = ops[0] == "add" ? ast::StateChange::Add : ops[0] == "subtract" ? ast::StateChange::Subtract
                                                                                 : ast::StateChange::Set;
      info.value = how[ops[0]].Scalar();
      ok = hidden(how[ops[0]], fmt::format("the '{}' of '{}'", ops[0], cname), "value") && ok;
    }
    if (const YAML::Node w = how["when"]) {
      info.when = w.IsScalar() ? w.Scalar() : "";
      ok = hidden(w, fmt::format("the 'when' of '{}'", cname), "when") && ok;
    }
    if (!ok) continue;
    fn.changes.push_back(change);
    m.changes.push_back(std::move(info));
  }
}

void link_changes(ast::Program& program) {
  std::map<std::string, const ast::FnDef*, std::less<>> by_name;
  for (const auto& st : program.statements) {
    if (const auto* fn = std::get_if<ast::FnDef>(&st)) by_name[fn->name] = fn;
  }
  const auto find = [&](const std::string& name) -> const ast::FnDef* {
    const auto it = by_name.find(name);
    return it == by_name.end() ? nullptr : it->second;
  };
  for (auto& st : program.statements) {
    auto* fn = std::get_if<ast::FnDef>(&st);
    if (!fn) continue;
    for (auto& c : fn->changes) {
      const std::string base = fmt::format("{}${}$", fn->name, c.counter->name);
      if (c.op != ast::StateChange::Reset) c.value = find(base + "value");
      c.when = find(base + "when");
    }
  }
}

void read_refusal(RulesetReader& r, const YAML::Node& n, MechanicInfo& m) {
  const Span at = r.span_of(n);
  if (!n.IsMap()) {
    r.error(DiagCode::RulesetFieldType, at, "'refusal' is a mapping: {allowed: FIELD, why: FIELD}");
    return;
  }
  if (!r.keys(n, at, "'refusal'", {{"allowed", true}, {"why", true}}) || !n["allowed"] || !n["why"]) return;
  if (m.result.empty()) {
    r.error(DiagCode::RulesetInvalidValue, at, "'refusal' names fields of the mechanic's record 'result', and it has none");
    return;
  }
  std::vector<std::string> names;
  for (const auto& f : m.result) names.push_back(f.name);
  // The field `key` names, checked: one of the result's, and a bool for `allowed`.
  const auto field = [&](const char* key) -> std::optional<std::string> {
    const auto name = r.text(n[key], fmt::format("'{}'", key));
    if (!name) return std::nullopt;
    const auto f = std::find_if(m.result.begin(), m.result.end(), [&](const FieldInfo& x) { return x.name == *name; });
    if (f == m.result.end()) {
      auto& d = r.error(DiagCode::RulesetInvalidValue, r.span_of(n[key]),
                        fmt::format("'{}' is not a field of the mechanic's result; its fields: {}", *name,
                                    fmt::join(names, ", ")));
      if (const auto near = closest_name(*name, names); !near.empty()) d.note({}, fmt::format("did you mean '{}'?", near));
      return std::nullopt;
    }
    if (std::string_view(key) == "allowed" && f->type.kind != ast::TypeSpec::Bool) {
      r.error(DiagCode::RulesetInvalidValue, r.span_of(n[key]),
              fmt::format("'allowed' names a bool field (true: the action is allowed), and '{}' is {}", *name,
                          ast::type_name(f->type)));
      return std::nullopt;
    }
    return name;
  };
  const auto allowed = field("allowed");
  const auto why = field("why");
  if (!allowed || !why) return;
  m.refusal_allowed = *allowed;
  m.refusal_why = *why;
}

void read_requires(RulesetReader& r, const YAML::Node& n, ast::FnDef& fn, MechanicInfo& m) {
  if (!n.IsSequence() || n.size() == 0) {
    r.error(DiagCode::RulesetFieldType, r.span_of(n),
            "'requires' lists checks of the arguments: - {check: index < len(roll), message: …, argument: index}");
    return;
  }
  // Innermost first: the body, then each check around it, the last written outermost.
  std::vector<ast::ExprPtr> checks;
  for (const auto& item : n) {
    const Span at = r.span_of(item);
    if (!item.IsMap()) {
      r.error(DiagCode::RulesetFieldType, at, "a requirement is a mapping: {check: …, message: …, argument: …}");
      continue;
    }
    if (!r.keys(item, at, "a requirement", {{"check", true}, {"message", true}, {"argument", false}}) ||
        !item["check"] || !item["message"]) {
      continue;
    }
    RequirementInfo info;
    const auto message = r.text(item["message"], "'message'");
    if (!message) continue;
    info.message = *message;
    if (const YAML::Node a = item["argument"]) {
      const auto name = r.text(a, "'argument'");
      if (!name) continue;
      if (std::find(fn.params.begin(), fn.params.end(), *name) == fn.params.end()) {
        auto& d = r.error(DiagCode::RulesetInvalidValue, r.span_of(a),
                          fmt::format("'{}' is not a parameter of the mechanic '{}'", *name, fn.name));
        if (const auto near = closest_name(*name, fn.params); !near.empty()) d.note({}, fmt::format("did you mean '{}'?", near));
        continue;
      }
      info.argument = *name;
    }
    auto src = r.code(item["check"], "a requirement's 'check'");
    if (!src) continue;
    auto prog = r.parse_code(src);
    if (!prog) continue;
    if (!prog->statements.empty() || !prog->main) {
      r.error(DiagCode::RulesetInvalidValue, r.span_of(item["check"]), "a requirement's 'check' is one expression");
      continue;
    }
    info.check = item["check"].Scalar();
    const Span cspan = prog->main->span;
    auto text = [&](std::string s) {
      auto e = std::make_unique<ast::Expr>();
      e->kind = ast::StrLit{std::move(s)};
      e->span = cspan;
      return e;
    };
    ast::Call call;
    call.name = "require";
    call.name_span = cspan;
    call.args.push_back(std::move(prog->main));
    call.args.push_back(text(info.message));
    if (!info.argument.empty()) call.args.push_back(text(info.argument));
    call.arg_names.assign(call.args.size(), "");
    call.arg_name_spans.assign(call.args.size(), Span{});
    auto e = std::make_unique<ast::Expr>();
    e->depth = call.args.front()->depth + 1;
    e->kind = std::move(call);
    e->span = cspan;
    checks.push_back(std::move(e));
    m.requirements.push_back(std::move(info));
  }
  if (!fn.body) return;
  for (auto it = checks.rbegin(); it != checks.rend(); ++it) {
    auto let = std::make_unique<ast::Expr>();
    let->span = fn.body->span;
    let->depth = std::max((*it)->depth, fn.body->depth) + 1;
    let->kind = ast::Let{std::string("$require"), -1, std::move(*it), std::move(fn.body), false};
    fn.body = std::move(let);
  }
}

void keep_settables_read(RulesetReader& r) {
  ast::Program& program = r.program();
  for (auto& st : program.statements) {
    auto* fn = std::get_if<ast::FnDef>(&st);
    if (!fn || fn->settable.empty()) continue;
    fn->settable = ast::settable_reads(*fn, fn->settable);
    for (auto& m : r.ruleset().mechanics) {
      if (m.name != fn->name) continue;
      for (const auto* c : fn->settable) m.settable.push_back(c->name);
    }
  }
  // The ruleset's own calls were resolved against every settable name; each must still be one.
  const auto check = [&](const ast::Expr& e, auto& self) -> void {
    if (const auto* c = std::get_if<ast::Call>(&e.kind); c && c->fn) {
      for (std::size_t i = 0; i < c->sets.size(); ++i) {
        const ast::Constant* k = c->sets[i];
        if (!k || std::find(c->fn->settable.begin(), c->fn->settable.end(), k) != c->fn->settable.end()) continue;
        r.error(DiagCode::UnknownArgument, c->arg_name_spans[i],
                fmt::format("'{}' never reads '{}': setting it here would change nothing", c->name, k->name));
      }
    }
    ast::for_each_child(e, [&](const ast::Expr& child) { self(child, self); });
  };
  for (const auto& st : program.statements) {
    std::visit([&](const auto& s) {
      using T = std::decay_t<decltype(s)>;
      if constexpr (std::is_same_v<T, ast::FnDef>) {
        for (const auto& d : s.defaults) if (d) check(*d, check);
        if (s.body) check(*s.body, check);
      } else {
        if (s.value) check(*s.value, check);
      }
    }, st);
  }
}

}  // namespace alea::detail
