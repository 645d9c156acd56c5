// interpreter/api.cpp — Engine and Session.
#include "interpreter/api.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dsl/ast_walk.hpp"
#include "dsl/parser.hpp"
#include "dsl/reads.hpp"
#include "dsl/resolver.hpp"
#include "interpreter/eval/builtins.hpp"
#include "interpreter/eval/evaluator.hpp"
#include "interpreter/io/read_file.hpp"
#include "interpreter/program.hpp"
#include "interpreter/rulesets/ruleset.hpp"
#include "interpreter/rulesets/ruleset_files.hpp"
#include "interpreter/rulesets/ruleset_loader.hpp"
#include "interpreter/rulesets/stdlib.hpp"

namespace alea {

namespace {

void add_functions(const CompiledProgram& prog, std::vector<ImportedFn>& out, std::string_view prefix = {}) {
  for (const auto& st : prog.ast->statements) {
    if (const auto* fn = std::get_if<ast::FnDef>(&st)) {
      out.push_back({prefix.empty() ? fn->name : fmt::format("{}.{}", prefix, fn->name), fn});
    }
  }
}

}  // namespace

struct Engine::StdlibSet {
  std::vector<std::shared_ptr<const CompiledProgram>> programs;
  std::vector<StdlibFunction> functions;
};

// The stdlib files are compiled in name order, each seeing the ones before it,
// under the default parse limits; once per process, on first need (most rolls
// never call it, and compiling it is most of a short process's time), and then
// shared by every Engine.
const Engine::StdlibSet& Engine::shared_stdlib() {
  static const StdlibSet stdlib = [] {
    StdlibSet out;
    const Engine bare;
    for (const auto& src : stdlib_sources()) {
      Compiled c = bare.compile_with(*bare.snapshot(), src.text, std::string("stdlib/") + std::string(src.name), out.programs, false,
                                     SourceOrigin::Library);
      if (!c.ok()) {
        throw std::logic_error("the embedded stdlib does not compile: " + render_text(c.diagnostics));
      }
      for (const auto& st : c.program->ast->statements) {
        if (const auto* fn = std::get_if<ast::FnDef>(&st)) {
          if (fn->name.empty() || fn->name[0] != '_') {
            out.functions.push_back({fn->name, fn->params, std::string(src.name)});
          }
        }
      }
      out.programs.push_back(std::move(c.program));
    }
    return out;
  }();
  return stdlib;
}

const std::vector<StdlibFunction>& Engine::stdlib_functions() const { return shared_stdlib().functions; }

Diagnostics Engine::load_ruleset_text(std::string_view yaml, std::string shown_as,
                                      std::optional<std::string> expected_name, SourceOrigin origin,
                                      const std::filesystem::path& extends_dir) {
  RulesetLoadOptions opts;
  const std::optional<std::filesystem::path> shipped =
      options_.shipped_rulesets.empty() ? detail::shipped_rulesets_dir() : options_.shipped_rulesets;
  // The variant's own directory, then the host's (--rulesets), then $ALEA_PATH and the shipped.
  std::vector<std::string> first;
  if (!extends_dir.empty()) first.push_back(extends_dir.string());
  for (const auto& d : options_.ruleset_dirs) {
    if (std::find(first.begin(), first.end(), d.string()) == first.end()) first.push_back(d.string());
  }
  opts.search_dirs = detail::ruleset_search_dirs(first, shipped);
  opts.parse = options_.parse;
  for (const auto& p : shared_stdlib().programs) add_functions(*p, opts.imports);
  opts.import_programs = shared_stdlib().programs;
  opts.expected_name = std::move(expected_name);
  opts.origin = origin;
  opts.max_collection_size = options_.limits.max_collection_size;
  opts.max_file_bytes = options_.limits.max_file_bytes;
  RulesetLoad load = alea::load_ruleset(std::string(yaml), std::move(shown_as), opts);
  if (!load.ruleset) return reported(std::move(load.diagnostics), options_.limits.max_render_size);
  const std::lock_guard one_load(load_mutex_);
  auto next = std::make_shared<RulesetSet>(*snapshot());
  ++next->generation;
  auto same = std::find_if(next->rulesets.begin(), next->rulesets.end(),
                           [&](const auto& r) { return r->ident == load.ruleset->ident; });
  if (same != next->rulesets.end()) {
    retired_.push_back(std::move(*same));
    *same = std::move(load.ruleset);
  } else {
    next->rulesets.push_back(std::move(load.ruleset));
  }
  const std::uint64_t generation = next->generation;
  {
    const std::lock_guard lock(set_mutex_);
    set_ = std::move(next);
  }
  cache_.clear(generation);  // a name may mean another mechanic now
  return {};
}

// The rulesets a load replaced in `other` stay there: the copy never handed out pointers to them.
Engine::Engine(const Engine& other) : options_(other.options_), set_(other.snapshot()), cache_(other.cache_) {
  cache_.clear(set_->generation);
}

Engine::Engine(const Engine& rulesets_from, EngineOptions options)
    : options_(std::move(options)), set_(rulesets_from.snapshot()), cache_(options_.compile_cache) {
  if (std::string problem = limits_problem(options_.limits); !problem.empty()) throw std::invalid_argument(problem);
}

std::shared_ptr<const Engine::RulesetSet> Engine::snapshot() const {
  const std::lock_guard lock(set_mutex_);
  return set_;
}

Diagnostics Engine::load_ruleset_file(const std::filesystem::path& file, std::string shown_as,
                                      SourceOrigin origin) {
  if (shown_as.empty()) shown_as = file.string();
  const auto max_bytes = static_cast<std::size_t>(std::max<std::int64_t>(0, options_.limits.max_file_bytes));
  FileText read = read_file_capped(file, max_bytes);
  if (!read.text) {
    auto src = SourceFile::make(shown_as, "");
    Diagnostics out;
    out.emplace_back(DiagCode::RulesetNotFound, src->span(0, 0),
                     fmt::format("cannot read the ruleset file '{}': it {}{}", shown_as, read.error,
                                 read.too_large ? " (max_file_bytes)" : ""));
    return out;
  }
  const std::filesystem::path dir = file.parent_path().empty() ? std::filesystem::path(".") : file.parent_path();
  return load_ruleset_text(*read.text, std::move(shown_as), file.stem().string(), origin, dir);
}

Diagnostics Engine::load_ruleset(std::string_view name, const std::vector<std::string>& dirs) {
  const std::optional<std::filesystem::path> shipped =
      options_.shipped_rulesets.empty() ? detail::shipped_rulesets_dir() : options_.shipped_rulesets;
  const auto search = detail::ruleset_search_dirs(dirs, shipped);
  if (const auto file = detail::find_ruleset_file(name, search)) {
    const bool library = shipped && !search.empty() && search.back() == *shipped &&
                         file->parent_path() == (*shipped / "x").parent_path();
    return load_ruleset_file(*file, file->string(), library ? SourceOrigin::Library : SourceOrigin::User);
  }
  auto src = SourceFile::make("<ruleset name>", std::string(name));
  Diagnostics out;
  std::string where;
  for (const auto& d : search) where += (where.empty() ? "" : ", ") + d.string();
  out.emplace_back(DiagCode::RulesetNotFound, src->span(0, static_cast<std::uint32_t>(name.size())),
                   detail::is_ruleset_name(name)
                       ? fmt::format("there is no ruleset '{}' in {}", name, where.empty() ? "no directory" : where)
                       : fmt::format("'{}' is not a ruleset name: a-z, 0-9, '_' and '-' only", name));
  return out;
}

RulesetSummary ruleset_summary(const Ruleset& ruleset) {
  RulesetSummary out{.name = ruleset.name,
                     .ident = ruleset.ident,
                     .title = ruleset.title,
                     .doc = ruleset.doc,
                     .file = ruleset.file,
                     .mechanics = {},
                     .parameters = {},
                     .state = {},
                     .choices = {}};
  for (const MechanicInfo& m : ruleset.mechanics) {
    RulesetSummary::Mechanic& s = out.mechanics.emplace_back();
    s.name = m.name;
    s.doc = m.doc;
    s.group = m.group;
    for (const ParamInfo& p : m.params) s.params.push_back(p.name);
    for (const FieldInfo& f : m.result) s.result.push_back(f.name);
    s.settable = m.settable;
  }
  for (const ParamInfo& p : ruleset.parameters) out.parameters.push_back(p.name);
  for (const StateInfo& c : ruleset.state) out.state.push_back(c.name);
  for (const ChoiceInfo& c : ruleset.choices) out.choices.push_back(c.name);
  return out;
}

std::vector<RulesetName> choices_read(const Compiled& program) {
  std::vector<RulesetName> out;
  if (!program.ok()) return out;
  for (const ast::Constant* c : ast::settable_reads(*program.program->ast)) {
    if (c->source == ast::Constant::Source::Choice) out.push_back({c->owner, c->name});
  }
  return out;
}

namespace {

// Calls f on every expression of `p`: its top-level lets, its functions' bodies, its main
// expression, and everything inside them.
template <class F>
void each_expr(const ast::Program& p, F&& f) {
  const auto visit = [&](const ast::Expr& e, auto& self) -> void {
    f(e);
    ast::for_each_child(e, [&](const ast::Expr& child) { self(child, self); });
  };
  for (const auto& st : p.statements) {
    if (const auto* g = std::get_if<ast::GlobalLet>(&st); g && g->value) visit(*g->value, visit);
    if (const auto* fn = std::get_if<ast::FnDef>(&st); fn && fn->body) visit(*fn->body, visit);
  }
  if (p.main) visit(*p.main, visit);
}

}  // namespace

std::vector<RulesetName> counters_set(const Compiled& program) {
  std::vector<RulesetName> out;
  if (!program.ok()) return out;
  each_expr(*program.program->ast, [&](const ast::Expr& e) {
    const auto* c = std::get_if<ast::Call>(&e.kind);
    if (!c) return;
    for (const ast::Constant* k : c->sets) {
      if (!k || k->source != ast::Constant::Source::State) continue;
      RulesetName n{k->owner, k->name};
      if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(std::move(n));
    }
  });
  return out;
}

std::vector<std::string> host_names_read(const Compiled& program) {
  std::vector<std::string> out;
  if (!program.ok()) return out;
  const ast::Program& p = *program.program->ast;
  std::vector<std::string_view> lets;
  for (const auto& st : p.statements) {
    if (const auto* g = std::get_if<ast::GlobalLet>(&st)) lets.push_back(g->name);
  }
  each_expr(p, [&](const ast::Expr& e) {
    const auto* n = std::get_if<ast::Name>(&e.kind);
    if (n && n->slot < 0 && !n->constant && std::find(lets.begin(), lets.end(), n->name) == lets.end() &&
        std::find(out.begin(), out.end(), n->name) == out.end()) {
      out.push_back(n->name);
    }
  });
  return out;
}

const Ruleset* Engine::find_ruleset(std::string_view name) const {
  const std::string ident = ruleset_ident(name);
  for (const auto& r : snapshot()->rulesets) {
    if (r->ident == ident) return r.get();
  }
  return nullptr;
}

std::vector<const Ruleset*> Engine::rulesets() const {
  std::vector<const Ruleset*> out;
  for (const auto& r : snapshot()->rulesets) out.push_back(r.get());
  return out;
}

Compiled Engine::compile(std::string_view source, std::string name, Imports imports) const {
  const auto set = snapshot();  // the rulesets as they are now, whatever a load does meanwhile
  const bool cacheable = imports.empty() && cache_.admits(source);
  if (cacheable) {
    if (auto program = cache_.find(name, source, set->generation)) return Compiled{std::move(program), {}};
  }
  // Without the stdlib first: a program that calls none of it never waits for it.
  Compiled out = compile_with(*set, source, name, imports, false);
  const bool wants_stdlib = std::any_of(out.diagnostics.begin(), out.diagnostics.end(), [](const Diagnostic& d) {
    return d.code == DiagCode::UnknownFunction;
  });
  if (wants_stdlib) out = compile_with(*set, source, name, imports, true);
  if (cacheable && out.ok()) cache_.insert(name, source, out.program, set->generation);
  return out;
}

Compiled Engine::compile_with(const RulesetSet& set, std::string_view source, std::string name, Imports imports,
                              bool with_stdlib, SourceOrigin origin) const {
  Compiled out;
  auto file = SourceFile::make(std::move(name), std::string(source), origin);
  ParseResult parsed = parse(*file, options_.parse);
  if (!parsed.ok()) {
    out.diagnostics = std::move(parsed.diagnostics);
    return out;
  }
  ResolveContext ctx;
  ctx.builtins = &builtin_signatures();
  if (with_stdlib) {
    for (const auto& prog : shared_stdlib().programs) add_functions(*prog, ctx.imported);
  }
  for (const auto& r : set.rulesets) add_functions(*r->program, ctx.imported, r->ident);
  for (const auto& prog : imports) add_functions(*prog, ctx.imported);
  Diagnostics problems = resolve(*parsed.program, ctx);
  if (!problems.empty()) {
    out.diagnostics = reported(std::move(problems), options_.limits.max_render_size);
    return out;
  }
  auto prog = std::make_shared<CompiledProgram>();
  prog->source = std::move(file);
  prog->ast = std::move(parsed.program);
  prog->imports.assign(imports.begin(), imports.end());
  if (with_stdlib) {
    const auto& std_programs = shared_stdlib().programs;
    prog->imports.insert(prog->imports.end(), std_programs.begin(), std_programs.end());
  }
  for (const auto& r : set.rulesets) prog->imports.push_back(r->program);
  out.program = std::move(prog);
  return out;
}

Outcome Engine::run(std::shared_ptr<const CompiledProgram> program, const Bindings& bindings,
                    DiceSource& dice) const {
  return run(std::move(program), bindings, dice, RunInput{});
}

Outcome Engine::roll(std::string_view source, DiceSource& dice, const Bindings& bindings) const {
  Compiled c = compile(source);
  if (!c.ok()) {
    Outcome o;
    o.error = std::move(c.diagnostics.front());
    return o;
  }
  return run(std::move(c.program), bindings, dice);
}

std::string_view version() { return ALEA_VERSION_TEXT; }

Outcome refuse_unused_dice(Outcome o, std::string_view source, std::string name, std::size_t took,
                           std::string_view give_none) {
  if (!o.ok() || o.unused_dice.empty()) return o;
  const std::size_t n = o.unused_dice.size();
  const auto file = SourceFile::make(std::move(name), std::string(source));
  Diagnostic d(DiagCode::ScriptedDiceUnused, file->span(0, static_cast<std::uint32_t>(source.size())),
               fmt::format("{} scripted {} not used ({}): the roll took {} of the {} given", n,
                           n == 1 ? "die was" : "dice were", fmt::join(o.unused_dice, ", "), took, took + n));
  d.note({}, took == 0 ? fmt::format("it rolls no dice: {}", give_none) : fmt::format("give only the {} it takes", took));
  Outcome out;
  out.error = std::move(d);
  out.program = std::move(o.program);
  return out;
}

Outcome Engine::roll(std::string_view source, std::uint64_t seed) const {
  RandomDice dice(seed);
  return roll(source, dice);
}

namespace {

// Passes faces through from another source, keeping a copy of each.
class RecordingDice final : public DiceSource {
 public:
  explicit RecordingDice(DiceSource& inner) : inner_(inner) {}
  void roll(const DieKind& kind, std::span<std::int64_t> faces) override {
    inner_.roll(kind, faces);
    drawn.insert(drawn.end(), faces.begin(), faces.end());
  }
  std::vector<std::int64_t> drawn;

 private:
  DiceSource& inner_;
};

// The faces of an earlier run again, in order, then faces from `more`.
class ReplayDice final : public DiceSource {
 public:
  ReplayDice(const std::vector<std::int64_t>& faces, DiceSource& more) : faces_(faces), more_(more) {}
  void roll(const DieKind& kind, std::span<std::int64_t> faces) override {
    std::size_t i = 0;
    for (; i < faces.size() && next_ < faces_.size(); ++i, ++next_) {
      if (!kind.has_face(faces_[next_])) {
        throw DiceSourceError(DiceSourceError::Kind::InvalidFace,
                              fmt::format("the roll cannot be made again with these choices: its die #{} showed {}, "
                                          "which a {} cannot show",
                                          next_ + 1, faces_[next_], kind.name()));
      }
      faces[i] = faces_[next_];
    }
    if (i < faces.size()) more_.roll(kind, faces.subspan(i));
  }

 private:
  const std::vector<std::int64_t>& faces_;
  DiceSource& more_;
  std::size_t next_ = 0;
};

}  // namespace

Outcome Engine::run(std::shared_ptr<const CompiledProgram> program, const Bindings& bindings, DiceSource& dice,
                    const RunInput& input) const {
  Outcome o = evaluate(std::move(program), bindings, dice, options_.limits, input);
  if (o.error) locate_in_user_code(*o.error);
  const auto unused = dice.unused();
  o.unused_dice.assign(unused.begin(), unused.end());
  return o;
}

std::vector<std::string> Engine::check_state(const State& state) const {
  std::vector<std::string> out;
  for (const auto& r : snapshot()->rulesets) {
    for (auto& p : state_problems(*r, state)) out.push_back(std::move(p));
  }
  return out;
}

std::optional<Diagnostic> Session::over_session_budget(const Bindings& variables,
                                                       const CompiledProgram& program) const {
  const std::uint64_t max = static_cast<std::uint64_t>(std::max<std::int64_t>(engine_.options().limits.max_session_size, 0));
  std::uint64_t total = 0;
  for (const auto& [k, v] : variables.all()) total += v.size();  // each at most max_value_size
  if (total <= max) return std::nullopt;
  // Shown at the largest value this input defines.
  Span at;
  std::uint64_t largest = 0;
  for (const auto& st : program.ast->statements) {
    const auto* let = std::get_if<ast::GlobalLet>(&st);
    if (!let) continue;
    const Value* v = variables.find(let->name);
    if (v && (at.empty() || v->size() > largest)) {
      at = let->span;
      largest = v->size();
    }
  }
  if (at.empty()) at = program.source->span(0, static_cast<std::uint32_t>(program.source->text().size()));
  Diagnostic d(DiagCode::SizeLimitExceeded, at,
               fmt::format("the session would keep values of {} items in all; the limit is {} (max_session_size)",
                           total, max));
  d.note({}, "nothing was defined; give a variable a new value to replace its old one");
  return d;
}

std::optional<Diagnostic> Session::set_variable(std::string name, Value v) {
  const std::uint64_t max = static_cast<std::uint64_t>(std::max<std::int64_t>(engine_.options().limits.max_session_size, 0));
  std::uint64_t total = v.size();
  for (const auto& [k, old] : variables_.all()) {
    if (k != name) total += old.size();
  }
  if (total > max) {
    return Diagnostic(DiagCode::SizeLimitExceeded, Span{},
                      fmt::format("setting '{}' would make the session keep values of {} items in all; the limit "
                                  "is {} (max_session_size)",
                                  name, total, max));
  }
  variables_.set(std::move(name), std::move(v));
  return std::nullopt;
}

Outcome Session::eval(std::string_view source, DiceSource& dice, std::string name, const Choices& choices) {
  return eval_recorded(source, dice, std::move(name), choices);
}

Outcome Session::eval_recorded(std::string_view source, DiceSource& dice, std::string name, const Choices& choices) {
  Compiled c = engine_.compile(source, name, programs_);
  if (!c.ok()) {
    Outcome o;
    o.error = std::move(c.diagnostics.front());
    return o;
  }
  RecordingDice recording(dice);
  Outcome o = engine_.run(c.program, variables_, recording, {&state_, &choices, cancel_});
  if (!o.ok()) return o;
  Bindings next = variables_;
  for (const auto& [k, v] : o.globals) next.set(k, v);
  if (auto too_much = over_session_budget(next, *c.program)) {
    o.value.reset();
    o.state.reset();
    o.globals.clear();
    o.error = std::move(*too_much);
    return o;
  }
  Last last{std::string(source), std::move(name), choices, std::move(recording.drawn), std::move(variables_),
            programs_.size(), state_};
  variables_ = std::move(next);
  const auto& statements = c.program->ast->statements;
  if (std::any_of(statements.begin(), statements.end(),
                  [](const ast::Statement& s) { return std::holds_alternative<ast::FnDef>(s); })) {
    programs_.push_back(c.program);
  }
  if (o.state) state_ = *o.state;
  last_ = std::move(last);
  return o;
}

const Choices& Session::last_choices() const {
  static const Choices none;
  return last_ ? last_->choices : none;
}

Outcome Session::revise(const Choices& choices, DiceSource& more) {
  if (!last_) {
    Outcome o;
    auto src = SourceFile::make("<input>", "");
    o.error = Diagnostic(DiagCode::InvalidArgument, src->span(0, 0), "there is no roll to decide on yet");
    return o;
  }
  // The session as it is now, kept in case the revised input fails.
  Bindings now_variables = variables_;
  auto now_programs = programs_;
  State now_state = state_;
  Last before = *last_;
  variables_ = before.variables;
  programs_.resize(before.programs);
  state_ = before.state;
  ReplayDice replay(before.faces, more);
  Outcome o = eval_recorded(before.source, replay, before.name, choices);
  if (!o.ok()) {
    variables_ = std::move(now_variables);
    programs_ = std::move(now_programs);
    state_ = std::move(now_state);
    last_ = std::move(before);
  }
  return o;
}

std::vector<Session::Function> Session::functions() const {
  std::vector<Function> out;
  for (std::size_t i = 0; i < programs_.size(); ++i) {
    for (const auto& st : programs_[i]->ast->statements) {
      if (const auto* fn = std::get_if<ast::FnDef>(&st)) {
        auto it = std::find_if(out.begin(), out.end(), [&](const Function& f) { return f.name == fn->name; });
        if (it == out.end()) {
          out.push_back({fn->name, fn->params, i});
        } else {
          it->params = fn->params;
          it->defined_by = i;
        }
      }
    }
  }
  return out;
}

std::string unknown_limit(std::string_view name) {
  std::vector<std::string> names;
  for (const LimitInfo& l : limit_table()) names.emplace_back(l.name);
  const std::string near = closest_name(name, names);
  return fmt::format("there is no limit '{}'{}; the limits are {}", name,
                     near.empty() ? std::string() : fmt::format(" (did you mean '{}'?)", near), fmt::join(names, ", "));
}

}  // namespace alea
