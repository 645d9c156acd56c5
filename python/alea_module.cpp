// python/alea_module.cpp — the extension module alea._alea: an Engine over the C++ API
// (interpreter/api.hpp), whose rolls and distributions python/alea/__init__.py turns into
// Python objects. Each entry point does what the C API's does (capi/alea.cpp) with the same
// library calls; the GIL is released while the library works.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <fmt/format.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "interpreter/api.hpp"
#include "interpreter/render/json_documents.hpp"
#include "interpreter/rulesets/ruleset.hpp"
#include "interpreter/rulesets/ruleset_files.hpp"
#include "interpreter/stats.hpp"
#include "python/convert.hpp"

namespace alea::python {
namespace {

// One roll: its outcome, and what its JSON document tells besides (the expression, the seed).
struct Roll {
  Outcome outcome;
  std::string expression;
  std::optional<std::uint64_t> seed;
  std::int64_t max_render_size = 0;
  bool state_given = false;
};

// One distribution with what its alea.stats/1 document tells besides.
struct StatsResult {
  Stats stats;
  StatsContext context;
};

// The rulesets' values (a state, or choices) from their JSON text, by the state files' parser.
State parse_values(const std::string& json, const std::string& name) {
  StateParse parsed;
  {
    py::gil_scoped_release release;
    parsed = parse_state_json(json, name);
  }
  check(parsed.diagnostics);
  return std::move(*parsed.state);
}

class PyEngine {
 public:
  PyEngine(const std::optional<py::dict>& limits, std::filesystem::path shipped) : engine_(options(limits, shipped)) {}

  [[nodiscard]] py::dict limits() const {
    py::dict out;
    for (const LimitInfo& l : limit_table()) out[py::str(std::string(l.name))] = engine_.options().limits.*l.member;
    return out;
  }

  void load_ruleset(const std::string& name, const std::vector<std::string>& dirs) {
    Diagnostics d;
    {
      py::gil_scoped_release release;
      d = engine_.load_ruleset(name, dirs);
    }
    check(d);
  }

  void load_ruleset_file(const std::filesystem::path& file) {
    Diagnostics d;
    {
      py::gil_scoped_release release;
      d = engine_.load_ruleset_file(file);
    }
    check(d);
  }

  void load_ruleset_text(const std::string& yaml, const std::string& shown_as) {
    Diagnostics d;
    {
      py::gil_scoped_release release;
      d = engine_.load_ruleset_text(yaml, shown_as);
    }
    check(d);
  }

  // As the command line does: each ruleset that `source` names (`my_game.check(…)`) and that is
  // not loaded is loaded by name, when there is one of that name; a name that is none is left
  // for the compiler to report.
  void load_mentioned(const std::string& source) {
    for (const auto& name : detail::mentioned_rulesets(source)) {
      if (engine_.find_ruleset(name)) continue;
      Diagnostics d;
      {
        py::gil_scoped_release release;
        d = engine_.load_ruleset(name);
      }
      if (!d.empty() && d.front().code != DiagCode::RulesetNotFound) check(d);
    }
  }

  // The loaded ruleset `name`, loaded by name first when it is not (as the command line does).
  const Ruleset& ruleset(const std::string& name) {
    if (const Ruleset* r = engine_.find_ruleset(name)) return *r;
    load_ruleset(name, {});
    return *engine_.find_ruleset(name);
  }

  [[nodiscard]] std::vector<std::string> rulesets() const {
    std::vector<std::string> out;
    for (const Ruleset* r : engine_.rulesets()) out.push_back(r->name);
    return out;
  }

  // The alea.describe/1 document of a ruleset ("my-game") or of one of its mechanics
  // ("my-game.check").
  std::string describe(const std::string& what) {
    const auto dot = what.find('.');
    if (dot == std::string::npos) return describe_ruleset_document(ruleset(what));
    if (!detail::is_mechanic_word(what)) {
      throw py::value_error(fmt::format("'{}' is neither RULESET nor RULESET.MECHANIC", what));
    }
    const Ruleset& r = ruleset(what.substr(0, dot));
    const MechanicInfo* m = r.mechanic(what.substr(dot + 1));
    if (m == nullptr) {
      const auto src = SourceFile::make("<describe>", what);
      throw InputError{Diagnostic(DiagCode::UnknownFunction,
                                  src->span(static_cast<std::uint32_t>(dot + 1), static_cast<std::uint32_t>(what.size())),
                                  fmt::format("the ruleset {} has no mechanic '{}'", r.name, what.substr(dot + 1)))};
    }
    return describe_mechanic_document(r, *m);
  }

  // The call of mechanic `target` ("my-game.check") with `arguments` named, each given by the
  // variable of the same position in `variables`: `my_game.check(dice: dice, red: red)`. The
  // values are never written into the text, so no argument can change what is called.
  std::string call_source(const std::string& target, const std::vector<std::string>& arguments,
                          const std::vector<std::string>& variables) {
    if (!detail::is_mechanic_word(target)) {
      throw py::value_error(fmt::format(
          "'{}' is not RULESET.MECHANIC: a ruleset's name (a-z, 0-9, '-', '_'), a dot, a mechanic's name", target));
    }
    const Ruleset& r = ruleset(target.substr(0, target.find('.')));
    std::string source = fmt::format("{}.{}(", r.ident, target.substr(target.find('.') + 1));
    for (std::size_t i = 0; i < arguments.size(); ++i) {
      if (!detail::is_identifier(arguments[i]) || !detail::is_identifier(variables.at(i))) {
        throw py::value_error(fmt::format("'{}' is not a parameter's name", arguments[i]));
      }
      source += fmt::format("{}{}: {}", i == 0 ? "" : ", ", arguments[i], variables[i]);
    }
    return source + ")";
  }

  Roll roll(const std::string& source, const std::string& name, std::optional<std::uint64_t> seed,
            const std::optional<std::vector<std::int64_t>>& faces, const std::optional<std::string>& state_json,
            const std::optional<std::string>& choices_json, const py::dict& variables) {
    Bindings bindings = to_bindings(variables);
    load_mentioned(source);
    std::optional<State> state;
    if (state_json) {
      state = parse_values(*state_json, "<state>");
      if (const auto problems = engine_.check_state(*state); !problems.empty()) {
        throw InputError{Diagnostic(DiagCode::StateInvalid, {}, problems.front())};
      }
    }
    Choices choices;
    if (choices_json) choices = to_choices(parse_values(*choices_json, "<choices>"));
    Roll r;
    r.expression = source;
    r.max_render_size = engine_.options().limits.max_render_size;
    r.state_given = state.has_value();
    {
      py::gil_scoped_release release;
      Compiled c = engine_.compile(source, name);
      if (!c.ok()) {
        r.outcome.error = std::move(c.diagnostics.front());
      } else if (faces) {
        ScriptedDice dice(*faces);
        r.outcome = engine_.run(c.program, bindings, dice, {state ? &*state : nullptr, &choices, nullptr});
        r.outcome = refuse_unused_dice(std::move(r.outcome), source, name, dice.used(), "leave out dice=");
      } else {
        r.seed = seed ? *seed : fresh_seed();
        RandomDice dice(*r.seed);
        r.outcome = engine_.run(c.program, bindings, dice, {state ? &*state : nullptr, &choices, nullptr});
      }
    }
    if (!r.outcome.ok()) throw InputError{*r.outcome.error};
    return r;
  }

  StatsResult stats(const std::string& source, const std::string& name, std::optional<std::uint64_t> seed,
                    std::uint64_t samples, unsigned threads, bool exact_only, std::optional<double> time_limit,
                    const py::dict& variables) {
    Bindings bindings = to_bindings(variables);
    load_mentioned(source);
    StatsOptions so;
    so.seed = seed ? *seed : fresh_seed();
    if (samples != 0) so.samples = samples;
    so.threads = threads;
    so.exact_only = exact_only;
    so.time_limit = time_limit;  // checked by the Python side
    // Ctrl-C: the calling thread reports progress every 0.1 s while sampling, and the time spent
    // while it tries for an exact answer; there Python's signal handlers run, and a
    // KeyboardInterrupt stops the work and is raised.
    std::atomic<bool> cancel{false};
    std::optional<py::error_already_set> interrupt;
    so.cancel = &cancel;
    so.progress = [&](double) {
      py::gil_scoped_acquire acquire;
      if (!interrupt && PyErr_CheckSignals() != 0) {
        interrupt.emplace();  // takes the exception Python raised
        cancel.store(true);
      }
    };
    so.exact_progress = so.progress;
    StatsResult s;
    {
      py::gil_scoped_release release;
      Compiled c = engine_.compile(source, name);
      if (!c.ok()) {
        s.stats.first_error = std::move(c.diagnostics.front());
      } else {
        s.stats = compute_stats(engine_, c.program, bindings, so);
      }
    }
    if (interrupt) throw std::move(*interrupt);
    if (s.stats.first_error && s.stats.value.entries.empty()) throw InputError{*s.stats.first_error};
    s.context.expression = source;
    s.context.seed = so.seed;
    s.context.engine_explosion_limit = engine_.options().limits.max_explosion_depth;
    s.context.max_render_size = engine_.options().limits.max_render_size;
    return s;
  }

 private:
  static EngineOptions options(const std::optional<py::dict>& limits, std::filesystem::path shipped) {
    EngineOptions o;
    o.shipped_rulesets = std::move(shipped);
    if (!limits) return o;
    for (auto [key, value] : *limits) {
      const std::string name = py::str(key).cast<std::string>();
      const LimitInfo* info = find_limit(name);
      if (info == nullptr || !py::isinstance<py::str>(key)) throw py::value_error("limits: " + unknown_limit(name));
      if (!py::isinstance<py::int_>(value) || py::isinstance<py::bool_>(value)) {
        throw py::type_error(fmt::format("limits: '{}' must be an int", name));
      }
      const Value v = from_python(value, fmt::format("limits: '{}'", name));
      if (*v.as_int() < 0) throw py::value_error(fmt::format("limits: '{}' cannot be negative, got {}", name, *v.as_int()));
      o.limits.*info->member = *v.as_int();
    }
    return o;
  }

  static Bindings to_bindings(const py::dict& variables) {
    Bindings b;
    for (auto [key, value] : variables) {
      const std::string name = key.cast<std::string>();
      b.set(name, from_python(value, fmt::format("the argument '{}'", name)));
    }
    return b;
  }

  // Choices in a state's shape: each must be one that a loaded ruleset declares.
  Choices to_choices(const State& parsed) const {
    Choices out;
    for (const auto& [ruleset_name, values] : parsed.all()) {
      const Ruleset* r = engine_.find_ruleset(ruleset_name);
      for (const auto& [name, value] : values) {
        if (r == nullptr || r->choice(name) == nullptr) {
          throw py::value_error(fmt::format("choices: {} has no choice '{}'{}", ruleset_name, name,
                                            r == nullptr ? " (that ruleset is not loaded)" : ""));
        }
        out.set(ruleset_name, name, value);
      }
    }
    return out;
  }

  Engine engine_;
};

py::list dice_of(const Roll& r) {
  py::list out;
  for (const DieRecord& d : r.outcome.trace.dice) {
    out.append(py::make_tuple(d.face, r.outcome.trace.kinds[d.kind].name(), std::string(fate_name(d.fate))));
  }
  return out;
}

py::list distributions_of(const StatsResult& s) {
  py::list out;
  auto add = [&](const Distribution& d) {
    py::list entries;
    for (const DistributionEntry& e : d.entries) {
      entries.append(py::make_tuple(to_python(e.value), e.probability.exact(), e.probability.value,
                                    e.probability.low, e.probability.high));
    }
    py::dict one;
    one["name"] = d.name;
    one["entries"] = entries;
    one["numeric"] = d.numeric;
    one["mean"] = d.mean;
    one["sd"] = d.sd;
    one["exact_mean"] = d.exact_mean;
    out.append(one);
  };
  add(s.stats.value);
  for (const Distribution& f : s.stats.fields) add(f);
  return out;
}

}  // namespace
}  // namespace alea::python

PYBIND11_MODULE(_alea, m) {
  using namespace alea::python;
  m.doc() = "alea's engine; use the package alea, which wraps it";
  register_errors();
  m.def("version", [] { return std::string(alea::version()); });
  m.def("default_limits", [] {
    py::dict out;
    for (const alea::LimitInfo& l : alea::limit_table()) out[py::str(std::string(l.name))] = l.default_value;
    return out;
  });

  py::class_<Roll>(m, "Roll")
      .def_property_readonly("value", [](const Roll& r) { return r.outcome.value ? to_python(*r.outcome.value) : py::none(); })
      .def_property_readonly("dice", &dice_of)
      .def_property_readonly("breakdown", [](const Roll& r) { return alea::render_breakdown(r.outcome, r.max_render_size); })
      .def_property_readonly("json", [](const Roll& r) {
        return alea::render_json(r.outcome, r.expression, r.seed, r.max_render_size);
      })
      .def_property_readonly("state", [](const Roll& r) -> std::optional<std::string> {
        // None for a roll given no state that keeps none.
        if (!r.outcome.state || (!r.state_given && r.outcome.state->empty())) return std::nullopt;
        return alea::state_to_json(*r.outcome.state);
      })
      .def_readonly("seed", &Roll::seed);

  py::class_<StatsResult>(m, "Stats")
      .def_property_readonly("exact", [](const StatsResult& s) { return s.stats.method == alea::StatsMethod::Exact; })
      .def_property_readonly("runs", [](const StatsResult& s) { return s.stats.runs; })
      .def_property_readonly("reason", [](const StatsResult& s) { return s.stats.reason; })
      .def_property_readonly("interrupted", [](const StatsResult& s) { return s.stats.interrupted; })
      .def_property_readonly("cut_short", [](const StatsResult& s) { return s.stats.cut_short; })
      .def_property_readonly("unresolved", [](const StatsResult& s) {
        return py::make_tuple(s.stats.unresolved.exact(), s.stats.unresolved.value);
      })
      .def_property_readonly("distributions", &distributions_of)
      .def_property_readonly("json", [](const StatsResult& s) { return alea::stats_document(s.stats, s.context); });

  py::class_<PyEngine>(m, "Engine")
      .def(py::init<const std::optional<py::dict>&, std::filesystem::path>(), py::arg("limits"),
           py::arg("shipped_rulesets"))
      .def("limits", &PyEngine::limits)
      .def("load_ruleset", &PyEngine::load_ruleset, py::arg("name"), py::arg("dirs"))
      .def("load_ruleset_file", &PyEngine::load_ruleset_file, py::arg("path"))
      .def("load_ruleset_text", &PyEngine::load_ruleset_text, py::arg("yaml"), py::arg("name"))
      .def("rulesets", &PyEngine::rulesets)
      .def("describe", &PyEngine::describe, py::arg("what"))
      .def("call_source", &PyEngine::call_source, py::arg("target"), py::arg("arguments"), py::arg("variables"))
      .def("roll", &PyEngine::roll, py::arg("source"), py::arg("name"), py::arg("seed"), py::arg("dice"),
           py::arg("state"), py::arg("choices"), py::arg("variables"))
      .def("stats", &PyEngine::stats, py::arg("source"), py::arg("name"), py::arg("seed"), py::arg("samples"),
           py::arg("threads"), py::arg("exact_only"), py::arg("time_limit"),
           py::arg("variables"));
}
