// dsl/resolver.cpp — scopes, slots and calls.
#include "dsl/resolver.hpp"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "dsl/ast_walk.hpp"

namespace alea {
namespace {

// Edits (insert, delete, substitute, swap two neighbours) that turn a into b.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

class Resolver {
 public:
  Resolver(const ResolveContext& context, Diagnostics& out) : ctx_(context), out_(out) {}

  void program(ast::Program& p) {
    for (const auto& f : ctx_.imported) functions_[f.name] = f.fn;
    for (auto& c : p.constants) constants_[c->name] = c.get();
    for (auto& s : p.statements) {
      if (auto* fn = std::get_if<ast::FnDef>(&s)) declare(*fn);
    }
    for (auto& s : p.statements) {
      if (auto* fn = std::get_if<ast::FnDef>(&s)) {
        begin_frame();
        current_fn_ = fn;
        for (const auto& param : fn->params) bind(param);
        // An opposed mechanic's side fields are locals, bound at the call to the first side.
        fn->side_field_slots.clear();
        for (const auto& field : fn->side_fields) fn->side_field_slots.push_back(bind(field));
        // A default sees the parameters before its own.
        for (std::size_t i = 0; i < fn->defaults.size(); ++i) {
          if (!fn->defaults[i]) continue;
          auto all = scope_;
          scope_.resize(i);
          expr(*fn->defaults[i]);
          scope_ = std::move(all);
        }
        expr(*fn->body);
        fn->frame_size = frame_size_;
        current_fn_ = nullptr;
      }
    }
    begin_frame();
    for (auto& s : p.statements) {
      if (auto* let = std::get_if<ast::GlobalLet>(&s)) expr(*let->value);
    }
    if (p.main) expr(*p.main);
    p.frame_size = frame_size_;
  }

 private:
  const ResolveContext& ctx_;
  Diagnostics& out_;
  std::unordered_map<std::string, const ast::FnDef*> functions_;
  std::unordered_map<std::string, const ast::FnDef*> local_functions_;
  std::unordered_map<std::string, const ast::Constant*> constants_;
  const ast::FnDef* current_fn_ = nullptr;
  std::vector<std::pair<std::string, std::int32_t>> scope_;
  std::int32_t frame_size_ = 0;

  void declare(const ast::FnDef& fn) {
    if (builtin_index(fn.name) >= 0) {
      out_.emplace_back(DiagCode::DuplicateDefinition, fn.span,
                        fmt::format("'{}' is a builtin function and cannot be redefined", fn.name));
      return;
    }
    if (auto it = local_functions_.find(fn.name); it != local_functions_.end()) {
      out_.emplace_back(DiagCode::DuplicateDefinition, fn.span,
                        fmt::format("function '{}' is defined twice", fn.name))
          .note(it->second->span, "the first definition is here");
      return;
    }
    for (std::size_t i = 0; i < fn.params.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (fn.params[i] == fn.params[j]) {
          out_.emplace_back(DiagCode::DuplicateDefinition, fn.span,
                            fmt::format("parameter '{}' appears twice", fn.params[i]));
        }
      }
    }
    local_functions_[fn.name] = &fn;
    functions_[fn.name] = &fn;
  }

  void begin_frame() {
    scope_.clear();
    frame_size_ = 0;
  }

  std::int32_t bind(const std::string& name) {
    const std::int32_t slot = frame_size_++;
    scope_.emplace_back(name, slot);
    return slot;
  }

  std::int32_t lookup(const std::string& name) const {
    for (auto it = scope_.rbegin(); it != scope_.rend(); ++it) {
      if (it->first == name) return it->second;
    }
    return -1;
  }

  // The locals a name may be a typo of: not the hidden ones of a `vs`, which cannot be written.
  std::vector<std::string> visible_locals() const {
    std::vector<std::string> names;
    for (const auto& entry : scope_) {
      if (entry.first != ast::vs_first && entry.first != ast::vs_second) names.push_back(entry.first);
    }
    return names;
  }

  int builtin_index(std::string_view name) const {
    if (!ctx_.builtins) return -1;
    for (std::size_t i = 0; i < ctx_.builtins->size(); ++i) {
      if ((*ctx_.builtins)[i].name == name) return static_cast<int>(i);
    }
    return -1;
  }

  void call(ast::Call& c, const Span& span) {
    for (auto& a : c.args) expr(*a);
    const int argc = static_cast<int>(c.args.size());
    if (const int b = builtin_index(c.name); b >= 0) {
      const auto& sig = (*ctx_.builtins)[b];
      c.target = ast::CallTarget::Builtin;
      c.builtin = b;
      for (std::size_t i = 0; i < c.arg_names.size(); ++i) {
        if (!c.arg_names[i].empty()) {
          out_.emplace_back(DiagCode::UnknownArgument, c.arg_name_spans[i],
                            fmt::format("the builtin '{}' takes no named arguments", c.name));
          return;
        }
      }
      if (argc < sig.min_args || (sig.max_args >= 0 && argc > sig.max_args)) {
        const std::string want = sig.max_args < 0 ? fmt::format("at least {}", sig.min_args)
                                 : sig.min_args == sig.max_args
                                     ? fmt::format("{}", sig.min_args)
                                     : fmt::format("{} to {}", sig.min_args, sig.max_args);
        out_.emplace_back(DiagCode::WrongArgumentCount, span,
                          fmt::format("'{}' takes {} argument{}, got {}", c.name, want,
                                      sig.max_args == 1 ? "" : "s", argc));
      }
      return;
    }
    if (auto it = functions_.find(c.name); it != functions_.end()) {
      c.target = ast::CallTarget::User;
      c.fn = it->second;
      bind_arguments(c, span);
      return;
    }
    std::vector<std::string> names;
    if (ctx_.builtins) {
      for (const auto& b : *ctx_.builtins) names.push_back(b.name);
    }
    for (const auto& [name, fn] : functions_) names.push_back(name);
    auto& d = out_.emplace_back(DiagCode::UnknownFunction, c.name_span,
                                fmt::format("unknown function '{}'", c.name));
    if (auto near = closest_name(c.name, names); !near.empty()) {
      d.note({}, fmt::format("did you mean '{}'?", near));
    }
  }

  // Matches a user function's arguments to its parameters: positional ones in
  // order, then named ones by name; the rest take their defaults.
  void bind_arguments(ast::Call& c, const Span& span) {
    const ast::FnDef& fn = *c.fn;
    const std::size_t n = fn.params.size();
    std::vector<bool> bound(n, false);
    c.arg_param.assign(c.args.size(), -1);
    c.sets.assign(c.args.size(), nullptr);
    std::size_t positional = 0;
    bool seen_named = false;
    bool ok = true;
    for (std::size_t i = 0; i < c.args.size(); ++i) {
      const std::string& name = i < c.arg_names.size() ? c.arg_names[i] : std::string();
      if (name.empty()) {
        if (seen_named) {
          out_.emplace_back(DiagCode::UnknownArgument, c.args[i]->span,
                            "a positional argument cannot follow a named one");
          ok = false;
          continue;
        }
        if (positional >= n) {
          out_.emplace_back(DiagCode::WrongArgumentCount, span,
                            fmt::format("'{}' takes {} argument{}, got {}", c.name, n, n == 1 ? "" : "s",
                                        c.args.size()))
              .note(fn.span, fmt::format("'{}' is defined here", c.name));
          return;
        }
        bound[positional] = true;
        c.arg_param[i] = static_cast<std::int32_t>(positional++);
        continue;
      }
      seen_named = true;
      const Span at = c.arg_name_spans[i];
      auto p = std::find(fn.params.begin(), fn.params.end(), name);
      if (p != fn.params.end()) {
        const auto k = static_cast<std::size_t>(p - fn.params.begin());
        if (bound[k]) {
          out_.emplace_back(DiagCode::DuplicateArgument, at,
                            fmt::format("argument '{}' is given twice", name));
          ok = false;
          continue;
        }
        bound[k] = true;
        c.arg_param[i] = static_cast<std::int32_t>(k);
        continue;
      }
      auto q = std::find_if(fn.settable.begin(), fn.settable.end(),
                            [&](const ast::Constant* k) { return k->name == name; });
      if (q != fn.settable.end()) {
        for (std::size_t j = 0; j < i; ++j) {
          if (c.sets[j] == *q) {
            out_.emplace_back(DiagCode::DuplicateArgument, at,
                              fmt::format("argument '{}' is given twice", name));
            ok = false;
          }
        }
        c.sets[i] = *q;
        continue;
      }
      std::vector<std::string> names = fn.params;
      for (const auto* k : fn.settable) names.push_back(k->name);
      auto& d = out_.emplace_back(DiagCode::UnknownArgument, at,
                                  fmt::format("'{}' has no parameter '{}'", c.name, name));
      if (auto near = closest_name(name, names); !near.empty()) {
        d.note({}, fmt::format("did you mean '{}'?", near));
      } else {
        d.note({}, fmt::format("its parameters are: {}", names.empty() ? "none" : join_names(names)));
      }
      ok = false;
    }
    if (!ok) return;
    for (std::size_t k = 0; k < n; ++k) {
      if (!bound[k] && !(k < fn.defaults.size() && fn.defaults[k])) {
        out_.emplace_back(DiagCode::MissingArgument, span,
                          fmt::format("'{}' needs the argument '{}'", c.name, fn.params[k]))
            .note(k < fn.param_spans.size() ? fn.param_spans[k] : fn.span,
                  fmt::format("'{}' is declared here", fn.params[k]));
      }
    }
  }

  static std::string join_names(const std::vector<std::string>& names) {
    std::string s;
    for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
    return s;
  }

  void expr(ast::Expr& e) {
    std::visit(
        [&](auto& k) {
          using T = std::decay_t<decltype(k)>;
          if constexpr (std::is_same_v<T, ast::Name>) {
            k.slot = lookup(k.name);
            if (k.slot < 0) {
              if (auto c = constants_.find(k.name); c != constants_.end()) {
                k.constant = c->second;
                return;
              }
            }
            if (k.slot < 0 && ctx_.free_names_are_errors) {
              std::vector<std::string> known = visible_locals();
              for (const auto& [name, c] : constants_) known.push_back(name);
              auto& d = out_.emplace_back(DiagCode::UnknownName, e.span, fmt::format("unknown name '{}'", k.name));
              if (auto near = closest_name(k.name, known); !near.empty()) {
                d.note({}, fmt::format("did you mean '{}'?", near));
              }
              return;
            }
            if (k.slot < 0 && !scope_.empty()) {
              // A free name is looked up at run time; if that fails, this is the hint.
              k.near_local = closest_name(k.name, visible_locals());
            }
          } else if constexpr (std::is_same_v<T, ast::Let>) {
            expr(*k.value);
            const auto mark = scope_.size();
            k.slot = bind(k.name);
            expr(*k.body);
            scope_.resize(mark);
          } else if constexpr (std::is_same_v<T, ast::Call>) {
            call(k, e.span);
          } else if constexpr (std::is_same_v<T, ast::Opposed>) {
            opposed(k, e);
          } else if constexpr (std::is_same_v<T, ast::For>) {
            expr(*k.list);
            const auto mark = scope_.size();
            k.slot = bind(k.var);
            expr(*k.body);
            scope_.resize(mark);
          } else if constexpr (std::is_same_v<T, ast::Loop>) {
            expr(*k.init);
            const auto mark = scope_.size();
            k.slot = bind(k.var);
            expr(*k.cond);
            expr(*k.next);
            scope_.resize(mark);
          } else if constexpr (ast::is_one_of<T, ast::IntLit, ast::BoolLit, ast::StrLit, ast::NoneLit, ast::Dice,
                                              ast::PoolOp, ast::Unary, ast::Binary, ast::If, ast::ListLit,
                                              ast::RecordLit, ast::Index, ast::Field, ast::Tiers, ast::Repeat>) {
            // no names of their own to bind or look up
            ast::for_each_child(e, [&](ast::Expr& c) { expr(c); });
          } else {
            static_assert(ast::dependent_false<T>, "Resolver::expr: an expression kind left out");
          }
        },
        e.kind);
  }

  // `E vs opposed`: E itself was resolved as the value of the `let $first` around.
  void opposed(ast::Opposed& o, const ast::Expr& e) {
    if (!current_fn_ || current_fn_->side_count < 2) {
      out_.emplace_back(DiagCode::OpposedWithoutSides, e.span,
                        "'vs opposed' rolls the same dice for the other side, so it belongs in a mechanic with 'sides'");
      return;
    }
    o.field_slots = current_fn_->side_field_slots;
    o.field_names = current_fn_->side_fields;
    o.other_side_slot = 1;  // the sides are the first parameters
  }
};

}  // namespace

std::string closest_name(std::string_view name, const std::vector<std::string>& candidates) {
  if (name.size() > 64) return {};  // nobody mistypes a name that long; keep the search cheap
  std::string best;
  // Short names allow one edit, longer ones two; never as many edits as letters.
  std::size_t best_d = name.size() <= 3 ? 2 : 3;
  for (const auto& c : candidates) {
    if (c.size() > 64) continue;
    const std::size_t d = edit_distance(name, c);
    if (d < best_d && d < name.size()) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

Diagnostics resolve(ast::Program& program, const ResolveContext& context) {
  Diagnostics out;
  Resolver(context, out).program(program);
  return out;
}

}  // namespace alea
