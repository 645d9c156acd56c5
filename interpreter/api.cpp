// interpreter/api.cpp — Engine and Session.
#include "interpreter/api.hpp"

#include <algorithm>

#include "dsl/resolver.hpp"
#include "interpreter/builtins.hpp"

namespace alea {

Compiled Engine::compile(std::string_view source, std::string name, Imports imports) const {
  Compiled out;
  auto file = SourceFile::make(std::move(name), std::string(source));
  ParseResult parsed = parse(*file, options_.parse);
  if (!parsed.ok()) {
    out.diagnostics = std::move(parsed.diagnostics);
    return out;
  }
  ResolveContext ctx;
  ctx.builtins = &builtin_signatures();
  for (const auto& prog : imports) {
    for (const auto& st : prog->ast->statements) {
      if (const auto* fn = std::get_if<ast::FnDef>(&st)) ctx.imported.push_back(fn);
    }
  }
  Diagnostics problems = resolve(*parsed.program, ctx);
  if (!problems.empty()) {
    out.diagnostics = std::move(problems);
    return out;
  }
  auto prog = std::make_shared<CompiledProgram>();
  prog->source = std::move(file);
  prog->ast = std::move(parsed.program);
  prog->imports.assign(imports.begin(), imports.end());
  out.program = std::move(prog);
  return out;
}

Outcome Engine::run(std::shared_ptr<const CompiledProgram> program, const Bindings& bindings,
                    DiceSource& dice) const {
  return evaluate(std::move(program), bindings, dice, options_.limits);
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

Outcome Engine::roll(std::string_view source, std::uint64_t seed) const {
  RandomDice dice(seed);
  return roll(source, dice);
}

Outcome Session::eval(std::string_view source, DiceSource& dice, std::string name) {
  Compiled c = engine_.compile(source, std::move(name), programs_);
  if (!c.ok()) {
    Outcome o;
    o.error = std::move(c.diagnostics.front());
    return o;
  }
  Outcome o = engine_.run(c.program, variables_, dice);
  if (!o.ok()) return o;
  for (const auto& [k, v] : o.globals) variables_.set(k, v);
  const auto& statements = c.program->ast->statements;
  if (std::any_of(statements.begin(), statements.end(),
                  [](const ast::Statement& s) { return std::holds_alternative<ast::FnDef>(s); })) {
    programs_.push_back(c.program);
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

}  // namespace alea
