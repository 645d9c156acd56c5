// capi/alea.cpp — the C API (include/alea/alea.h) over the C++ one (interpreter/api.hpp).
//
// Each entry point turns its C arguments into the C++ API's, and every exception into a status
// and an alea_error: none crosses the boundary. The handles are C++ objects behind opaque C
// names; an alea_value is a `const alea::Value*` into the result or stats that owns it.
#include "alea/alea.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "interpreter/api.hpp"
#include "interpreter/render/json_documents.hpp"
#include "interpreter/stats.hpp"

struct alea_error {
  alea_status status = ALEA_ERROR_INTERNAL;
  std::string code, message, file, text, json;
  int line = 0, column = 0;
};

struct alea_limits {
  alea::Limits limits;
};

struct alea_engine {
  explicit alea_engine(alea::EngineOptions options) : engine(std::move(options)) {}
  alea::Engine engine;
};

struct alea_program {
  alea::Compiled compiled;
  std::string source;  // for a roll's JSON ("expression") and its scripted-dice error
  std::string name;
};

struct alea_cancel {
  std::atomic<bool> flag{false};
};

struct alea_state {
  alea::State state;
};

struct alea_run_options {
  std::optional<std::uint64_t> seed;
  std::optional<std::vector<std::int64_t>> dice;
  const alea_state* state = nullptr;
  unsigned threads = 0;
  std::uint64_t samples = 0;
  bool exact_only = false;
  std::optional<double> time_limit;
  const alea_cancel* cancel = nullptr;
};

struct alea_result {
  alea::Outcome outcome;
  std::string expression;
  std::optional<std::uint64_t> seed;
  std::int64_t max_render_size = 0;
  std::optional<alea_state> state;
  // Rendered on first use: a host that reads only the value does not pay for them.
  std::optional<std::string> text, json;
  std::vector<std::string> die_kinds;
};

struct alea_stats {
  alea::Stats stats;
  alea::StatsContext context;  // for its JSON document
  std::optional<std::string> json;
  std::vector<std::vector<std::string>> fractions;  // per distribution, per entry
  std::string unresolved;
};

namespace {

using alea::Value;

const Value* cpp(const alea_value* v) { return reinterpret_cast<const Value*>(v); }
const alea_value* c_value(const Value* v) { return reinterpret_cast<const alea_value*>(v); }

// A copy the caller frees with alea_string_free (malloc'd: any C code may hold it).
char* c_string(const std::string& s) {
  char* out = static_cast<char*>(std::malloc(s.size() + 1));
  if (out == nullptr) throw std::bad_alloc();
  std::memcpy(out, s.c_str(), s.size() + 1);
  return out;
}

// Thrown inside an entry point for a call that is wrong in itself; becomes ALEA_ERROR_USAGE.
struct UsageError {
  std::string message;
};

// Thrown for refused input; becomes ALEA_ERROR_INPUT with the diagnostic's code and place.
struct InputError {
  alea::Diagnostic diagnostic;
};

void fill(alea_error& e, const alea::Diagnostic& d) {
  e.status = ALEA_ERROR_INPUT;
  e.code = std::string(alea::code_name(d.code));
  e.message = d.message;
  if (!d.span.empty()) {
    const alea::LineColumn lc = d.span.file->line_column(d.span.begin);
    e.file = d.span.file->name();
    e.line = static_cast<int>(lc.line);
    e.column = static_cast<int>(lc.column);
  }
  const alea::ErrorReport report = alea::error_report(d);
  e.text = report.rendered;
  e.json = alea::diagnostic_document_json(report);
}

// An error that is no diagnostic of the language: a wrong call, memory, a fault. Shaped as a
// diagnostic without a place, so that a host reads every error the same way.
void fill(alea_error& e, alea_status status, std::string code, std::string message) {
  e.status = status;
  e.code = std::move(code);
  e.message = std::move(message);
  e.text = fmt::format("error: {} [{}]\n", e.message, e.code);
  e.json = fmt::format(R"({{"code":"{}","message":{},"location":null,"notes":[],"rendered":{}}})", e.code,
                       alea::render_value_json(Value(e.message)), alea::render_value_json(Value(e.text)));
}

// Runs one entry point's body: its status, or the status and error of what it threw.
template <class F>
alea_status guarded(alea_error** error, F&& body) {
  auto fail = [&](auto&&... how) {
    // The status stands even when there is no memory left for the error itself.
    alea_status status = ALEA_ERROR_INPUT;
    if constexpr (sizeof...(how) == 3) status = std::get<0>(std::forward_as_tuple(how...));
    try {
      auto e = std::make_unique<alea_error>();
      fill(*e, how...);
      status = e->status;
      if (error != nullptr) *error = e.release();
    } catch (...) {  // no memory left even for the error: the status must do
    }
    return status;
  };
  try {
    body();
    return ALEA_OK;
  } catch (const InputError& e) {
    return fail(e.diagnostic);
  } catch (const UsageError& e) {
    return fail(ALEA_ERROR_USAGE, std::string("InvalidArgument"), e.message);
  } catch (const std::bad_alloc&) {
    return fail(ALEA_ERROR_MEMORY, std::string("OutOfMemory"), std::string("memory ran out"));
  } catch (const std::exception& e) {
    return fail(ALEA_ERROR_INTERNAL, std::string("Internal"), std::string(e.what()));
  } catch (...) {
    return fail(ALEA_ERROR_INTERNAL, std::string("Internal"), std::string("an unknown failure"));
  }
}

template <class T>
const T& need(const T* p, const char* what) {
  if (p == nullptr) throw UsageError{fmt::format("{} is NULL", what)};
  return *p;
}
template <class T>
T& need(T* p, const char* what) {
  if (p == nullptr) throw UsageError{fmt::format("{} is NULL", what)};
  return *p;
}

// A string argument, which must not be NULL.
const char* need_text(const char* p, const char* what) {
  if (p == nullptr) throw UsageError{fmt::format("{} is NULL", what)};
  return p;
}

const alea::LimitInfo& limit_named(const char* name) {
  need_text(name, "the limit's name");
  if (const alea::LimitInfo* l = alea::find_limit(name)) return *l;
  throw UsageError{alea::unknown_limit(name)};
}

void check_diagnostics(const alea::Diagnostics& ds) {
  if (!ds.empty()) throw InputError{ds.front()};
}

const alea_run_options default_options;

}  // namespace

extern "C" {

const char* alea_version(void) { return alea::version().data(); }  // a literal: NUL-terminated
int alea_abi_version(void) { return ALEA_ABI_VERSION; }

void alea_string_free(char* text) { std::free(text); }

// ---- errors -----------------------------------------------------------------------------

alea_status alea_error_status(const alea_error* e) { return e ? e->status : ALEA_OK; }
const char* alea_error_code(const alea_error* e) { return e ? e->code.c_str() : ""; }
const char* alea_error_message(const alea_error* e) { return e ? e->message.c_str() : ""; }
const char* alea_error_file(const alea_error* e) { return e ? e->file.c_str() : ""; }
int alea_error_line(const alea_error* e) { return e ? e->line : 0; }
int alea_error_column(const alea_error* e) { return e ? e->column : 0; }
const char* alea_error_text(const alea_error* e) { return e ? e->text.c_str() : ""; }
const char* alea_error_json(const alea_error* e) { return e ? e->json.c_str() : "null"; }
void alea_error_free(alea_error* e) { delete e; }

// ---- limits and engines -----------------------------------------------------------------

alea_limits* alea_limits_new(void) { return new (std::nothrow) alea_limits(); }
void alea_limits_free(alea_limits* limits) { delete limits; }

alea_status alea_limits_set(alea_limits* limits, const char* name, int64_t value, alea_error** error) {
  return guarded(error, [&] {
    alea_limits& l = need(limits, "limits");
    const alea::LimitInfo& info = limit_named(name);
    if (value < 0) throw UsageError{fmt::format("the limit {} cannot be negative, got {}", info.name, value)};
    l.limits.*info.member = value;
  });
}

alea_status alea_limits_get(const alea_limits* limits, const char* name, int64_t* value, alea_error** error) {
  return guarded(error, [&] {
    const alea_limits& l = need(limits, "limits");
    need(value, "value");
    *value = l.limits.*limit_named(name).member;
  });
}

alea_status alea_engine_new(const alea_limits* limits, alea_engine** engine, alea_error** error) {
  return guarded(error, [&] {
    need(engine, "engine");
    alea::EngineOptions options;
    if (limits != nullptr) options.limits = limits->limits;
    *engine = new alea_engine(std::move(options));
  });
}

void alea_engine_free(alea_engine* engine) { delete engine; }

alea_status alea_engine_load_ruleset(alea_engine* engine, const char* name, const char* const* dirs, size_t count,
                                     alea_error** error) {
  return guarded(error, [&] {
    alea_engine& e = need(engine, "engine");
    need_text(name, "name");
    if (count > 0) need(dirs, "dirs");
    std::vector<std::string> directories;
    for (size_t i = 0; i < count; ++i) directories.emplace_back(need_text(dirs[i], "a directory"));
    check_diagnostics(e.engine.load_ruleset(name, directories));
  });
}

alea_status alea_engine_load_ruleset_file(alea_engine* engine, const char* path, alea_error** error) {
  return guarded(error, [&] {
    alea_engine& e = need(engine, "engine");
    check_diagnostics(e.engine.load_ruleset_file(need_text(path, "path")));
  });
}

alea_status alea_engine_load_ruleset_text(alea_engine* engine, const char* yaml, const char* shown_as,
                                          alea_error** error) {
  return guarded(error, [&] {
    alea_engine& e = need(engine, "engine");
    check_diagnostics(e.engine.load_ruleset_text(need_text(yaml, "yaml"), shown_as ? shown_as : "<ruleset>"));
  });
}

// ---- programs, options, runs ----------------------------------------------------------------

alea_status alea_compile(const alea_engine* engine, const char* source, const char* name, alea_program** program,
                         alea_error** error) {
  return guarded(error, [&] {
    const alea_engine& e = need(engine, "engine");
    need(program, "program");
    auto p = std::make_unique<alea_program>();
    p->source = need_text(source, "source");
    p->name = name ? name : "<input>";
    p->compiled = e.engine.compile(p->source, p->name);
    check_diagnostics(p->compiled.diagnostics);
    *program = p.release();
  });
}

void alea_program_free(alea_program* program) { delete program; }

alea_cancel* alea_cancel_new(void) { return new (std::nothrow) alea_cancel(); }
void alea_cancel_set(alea_cancel* cancel) {
  if (cancel) cancel->flag.store(true);
}
void alea_cancel_reset(alea_cancel* cancel) {
  if (cancel) cancel->flag.store(false);
}
void alea_cancel_free(alea_cancel* cancel) { delete cancel; }

alea_run_options* alea_run_options_new(void) { return new (std::nothrow) alea_run_options(); }
void alea_run_options_free(alea_run_options* options) { delete options; }
void alea_run_options_set_seed(alea_run_options* options, uint64_t seed) {
  if (options) options->seed = seed;
}
alea_status alea_run_options_set_dice(alea_run_options* options, const int64_t* faces, size_t count,
                                      alea_error** error) {
  return guarded(error, [&] {
    alea_run_options& o = need(options, "options");
    if (count > 0) need(faces, "faces");
    o.dice.emplace(faces, faces + count);
  });
}
void alea_run_options_set_state(alea_run_options* options, const alea_state* state) {
  if (options) options->state = state;
}
void alea_run_options_set_threads(alea_run_options* options, unsigned threads) {
  if (options) options->threads = threads;
}
void alea_run_options_set_samples(alea_run_options* options, uint64_t samples) {
  if (options) options->samples = samples;
}
void alea_run_options_set_exact_only(alea_run_options* options, int exact_only) {
  if (options) options->exact_only = exact_only != 0;
}
alea_status alea_run_options_set_time_limit(alea_run_options* options, double seconds, alea_error** error) {
  return guarded(error, [&] {
    alea_run_options& o = need(options, "options");
    if (!alea::valid_time_limit(seconds)) {
      throw UsageError{fmt::format("the time limit must be {}, not {}", alea::time_limit_rule(), seconds)};
    }
    o.time_limit = seconds;
  });
}
void alea_run_options_set_cancel(alea_run_options* options, const alea_cancel* cancel) {
  if (options) options->cancel = cancel;
}

alea_status alea_run(const alea_engine* engine, const alea_program* program, const alea_run_options* options,
                     alea_result** result, alea_error** error) {
  return guarded(error, [&] {
    const alea_engine& e = need(engine, "engine");
    const alea_program& p = need(program, "program");
    need(result, "result");
    const alea_run_options& o = options ? *options : default_options;
    // What a roll cannot use is refused, not ignored.
    if (o.threads != 0) throw UsageError{"a roll runs on one thread: set threads for alea_stats_run only"};
    if (o.samples != 0) throw UsageError{"a roll draws no samples: set samples for alea_stats_run only"};
    if (o.exact_only) throw UsageError{"exact_only is for alea_stats_run only"};
    if (o.time_limit) throw UsageError{"time_limit is for alea_stats_run only"};
    if (o.dice && o.seed) throw UsageError{"scripted dice and a seed were both given: a roll uses one or the other"};
    auto r = std::make_unique<alea_result>();
    r->expression = p.source;
    r->max_render_size = e.engine.options().limits.max_render_size;
    std::unique_ptr<alea::DiceSource> dice;
    alea::ScriptedDice* scripted = nullptr;
    if (o.dice) {
      auto s = std::make_unique<alea::ScriptedDice>(*o.dice);
      scripted = s.get();
      dice = std::move(s);
    } else {
      r->seed = o.seed ? *o.seed : alea::fresh_seed();
      dice = std::make_unique<alea::RandomDice>(*r->seed);
    }
    alea::RunInput input;
    input.state = o.state ? &o.state->state : nullptr;
    input.cancel = o.cancel ? &o.cancel->flag : nullptr;
    r->outcome = e.engine.run(p.compiled.program, {}, *dice, input);
    if (scripted) r->outcome = alea::refuse_unused_dice(std::move(r->outcome), p.source, p.name, scripted->used(), "give none");
    if (!r->outcome.ok()) throw InputError{*r->outcome.error};
    if (r->outcome.state) r->state.emplace(alea_state{*r->outcome.state});
    for (const alea::DieKind& k : r->outcome.trace.kinds) r->die_kinds.push_back(k.name());
    *result = r.release();
  });
}

alea_status alea_roll(const alea_engine* engine, const char* source, const alea_run_options* options,
                      alea_result** result, alea_error** error) {
  alea_program* program = nullptr;
  alea_status status = alea_compile(engine, source, nullptr, &program, error);
  if (status == ALEA_OK) status = alea_run(engine, program, options, result, error);
  alea_program_free(program);
  return status;
}

void alea_result_free(alea_result* result) { delete result; }

const alea_value* alea_result_value(const alea_result* r) {
  return r && r->outcome.value ? c_value(&*r->outcome.value) : nullptr;
}

const char* alea_result_text(const alea_result* r) {
  if (r == nullptr) return "";
  auto& self = const_cast<alea_result&>(*r);  // rendered once, on first use; a result has one thread
  try {
    if (!self.text) self.text = alea::render_breakdown(r->outcome, r->max_render_size);
  } catch (...) {
    return "";
  }
  return self.text->c_str();
}

const char* alea_result_json(const alea_result* r) {
  if (r == nullptr) return "null";
  auto& self = const_cast<alea_result&>(*r);
  try {
    if (!self.json) self.json = alea::render_json(r->outcome, r->expression, r->seed, r->max_render_size);
  } catch (...) {
    return "null";
  }
  return self.json->c_str();
}

size_t alea_result_dice_count(const alea_result* r) { return r ? r->outcome.trace.dice.size() : 0; }

int64_t alea_result_die_face(const alea_result* r, size_t i) {
  return r && i < r->outcome.trace.dice.size() ? r->outcome.trace.dice[i].face : 0;
}

const char* alea_result_die_kind(const alea_result* r, size_t i) {
  if (r == nullptr || i >= r->outcome.trace.dice.size()) return nullptr;
  return r->die_kinds[r->outcome.trace.dice[i].kind].c_str();
}

const char* alea_result_die_fate(const alea_result* r, size_t i) {
  if (r == nullptr || i >= r->outcome.trace.dice.size()) return nullptr;
  return alea::fate_name(r->outcome.trace.dice[i].fate).data();  // names are string literals
}

const alea_state* alea_result_state(const alea_result* r) { return r && r->state ? &*r->state : nullptr; }

// ---- values -----------------------------------------------------------------------------------

alea_kind alea_value_kind(const alea_value* value) {
  if (value == nullptr) return ALEA_KIND_NONE;
  switch (cpp(value)->kind()) {
    case alea::ValueKind::Int: return ALEA_KIND_INT;
    case alea::ValueKind::Bool: return ALEA_KIND_BOOL;
    case alea::ValueKind::Str: return ALEA_KIND_STRING;
    case alea::ValueKind::Pool: return ALEA_KIND_POOL;
    case alea::ValueKind::List: return ALEA_KIND_LIST;
    case alea::ValueKind::Record: return ALEA_KIND_RECORD;
    case alea::ValueKind::None: return ALEA_KIND_NONE;
  }
  return ALEA_KIND_NONE;
}

alea_status alea_value_int(const alea_value* value, int64_t* out) {
  if (value == nullptr || out == nullptr) return ALEA_ERROR_USAGE;
  if (const auto* i = cpp(value)->as_int()) {
    *out = *i;
    return ALEA_OK;
  }
  if (const auto* p = cpp(value)->as_pool()) {
    if (auto total = alea::pool_total(*p)) {
      *out = *total;
      return ALEA_OK;
    }
    return ALEA_ERROR_INPUT;  // a total past 64 bits
  }
  return ALEA_ERROR_USAGE;
}

alea_status alea_value_bool(const alea_value* value, int* out) {
  if (value == nullptr || out == nullptr) return ALEA_ERROR_USAGE;
  const auto* b = cpp(value)->as_bool();
  if (b == nullptr) return ALEA_ERROR_USAGE;
  *out = *b ? 1 : 0;
  return ALEA_OK;
}

const char* alea_value_string(const alea_value* value, size_t* length) {
  const std::string* s = value ? cpp(value)->as_str() : nullptr;
  if (s == nullptr) return nullptr;
  if (length) *length = s->size();
  return s->c_str();
}

size_t alea_value_count(const alea_value* value) {
  if (value == nullptr) return 0;
  if (const auto* l = cpp(value)->as_list()) return l->size();
  if (const auto* r = cpp(value)->as_record()) return r->values.size();
  if (const auto* p = cpp(value)->as_pool()) return p->dice.size();
  return 0;
}

const alea_value* alea_value_item(const alea_value* value, size_t index) {
  if (value == nullptr) return nullptr;
  if (const auto* l = cpp(value)->as_list()) return index < l->size() ? c_value(&(*l)[index]) : nullptr;
  if (const auto* r = cpp(value)->as_record()) return index < r->values.size() ? c_value(&r->values[index]) : nullptr;
  return nullptr;
}

const char* alea_value_field_name(const alea_value* value, size_t index) {
  const auto* r = value ? cpp(value)->as_record() : nullptr;
  return r && index < r->names.size() ? r->names[index].c_str() : nullptr;
}

const alea_value* alea_value_field(const alea_value* value, const char* name) {
  const auto* r = value ? cpp(value)->as_record() : nullptr;
  if (r == nullptr || name == nullptr) return nullptr;
  for (size_t i = 0; i < r->names.size(); ++i) {
    if (r->names[i] == name) return c_value(&r->values[i]);
  }
  return nullptr;
}

alea_status alea_value_json(const alea_value* value, char** json, alea_error** error) {
  return guarded(error, [&] {
    need(value, "value");
    need(json, "json");
    *json = c_string(alea::render_value_json(*cpp(value)));
  });
}

// ---- odds ---------------------------------------------------------------------------------------

alea_status alea_stats_run(const alea_engine* engine, const alea_program* program, const alea_run_options* options,
                           alea_stats** stats, alea_error** error) {
  return guarded(error, [&] {
    const alea_engine& e = need(engine, "engine");
    const alea_program& p = need(program, "program");
    need(stats, "stats");
    const alea_run_options& o = options ? *options : default_options;
    if (o.dice) throw UsageError{"scripted dice are for a roll: odds consider every face"};
    if (o.state) throw UsageError{"the odds are of the rulesets' default state: set a state for a roll only"};
    alea::StatsOptions so;
    so.seed = o.seed ? *o.seed : alea::fresh_seed();
    so.threads = o.threads;
    if (o.samples != 0) so.samples = o.samples;
    so.exact_only = o.exact_only;
    so.time_limit = o.time_limit;
    so.cancel = o.cancel ? &o.cancel->flag : nullptr;
    auto s = std::make_unique<alea_stats>();
    s->stats = alea::compute_stats(e.engine, p.compiled.program, {}, so);
    s->context.expression = p.source;
    s->context.seed = so.seed;
    s->context.engine_explosion_limit = e.engine.options().limits.max_explosion_depth;
    s->context.max_render_size = e.engine.options().limits.max_render_size;
    if (s->stats.first_error && s->stats.value.entries.empty()) throw InputError{*s->stats.first_error};
    auto fractions = [](const alea::Distribution& d) {
      std::vector<std::string> out;
      for (const auto& entry : d.entries) out.push_back(entry.probability.exact());
      return out;
    };
    s->fractions.push_back(fractions(s->stats.value));
    for (const auto& f : s->stats.fields) s->fractions.push_back(fractions(f));
    s->unresolved = s->stats.unresolved.exact();
    *stats = s.release();
  });
}

void alea_stats_free(alea_stats* stats) { delete stats; }

int alea_stats_exact(const alea_stats* s) { return s && s->stats.method == alea::StatsMethod::Exact ? 1 : 0; }
uint64_t alea_stats_runs(const alea_stats* s) { return s ? s->stats.runs : 0; }
size_t alea_stats_distribution_count(const alea_stats* s) { return s ? 1 + s->stats.fields.size() : 0; }

namespace {
const alea::Distribution* distribution(const alea_stats* s, size_t d) {
  if (s == nullptr) return nullptr;
  if (d == 0) return &s->stats.value;
  return d - 1 < s->stats.fields.size() ? &s->stats.fields[d - 1] : nullptr;
}
}  // namespace

const char* alea_stats_distribution_name(const alea_stats* s, size_t d) {
  const auto* dist = distribution(s, d);
  return dist ? dist->name.c_str() : nullptr;
}

size_t alea_stats_entry_count(const alea_stats* s, size_t d) {
  const auto* dist = distribution(s, d);
  return dist ? dist->entries.size() : 0;
}

const alea_value* alea_stats_entry_value(const alea_stats* s, size_t d, size_t i) {
  const auto* dist = distribution(s, d);
  return dist && i < dist->entries.size() ? c_value(&dist->entries[i].value) : nullptr;
}

const char* alea_stats_entry_fraction(const alea_stats* s, size_t d, size_t i) {
  const auto* dist = distribution(s, d);
  return dist && i < dist->entries.size() ? s->fractions[d][i].c_str() : nullptr;
}

double alea_stats_entry_probability(const alea_stats* s, size_t d, size_t i) {
  const auto* dist = distribution(s, d);
  return dist && i < dist->entries.size() ? dist->entries[i].probability.value : 0.0;
}

const char* alea_stats_unresolved_fraction(const alea_stats* s) { return s ? s->unresolved.c_str() : ""; }

const char* alea_stats_json(const alea_stats* s) {
  if (s == nullptr) return nullptr;
  auto& self = const_cast<alea_stats&>(*s);  // rendered once, on first use; a stats has one thread
  try {
    if (!self.json) self.json = alea::stats_document(s->stats, s->context).value_or("");
  } catch (...) {
    return nullptr;
  }
  return self.json->empty() ? nullptr : self.json->c_str();
}

// ---- state ------------------------------------------------------------------------------------------

alea_status alea_state_from_json(const char* json, const char* name, alea_state** state, alea_error** error) {
  return guarded(error, [&] {
    need(state, "state");
    alea::StateParse parsed = alea::parse_state_json(need_text(json, "json"), name ? name : "<state>");
    check_diagnostics(parsed.diagnostics);
    *state = new alea_state{std::move(*parsed.state)};
  });
}

alea_status alea_state_check(const alea_engine* engine, const alea_state* state, alea_error** error) {
  return guarded(error, [&] {
    const alea_engine& e = need(engine, "engine");
    const std::vector<std::string> problems = e.engine.check_state(need(state, "state").state);
    if (!problems.empty()) {
      throw InputError{alea::Diagnostic(alea::DiagCode::StateInvalid, {}, problems.front())};
    }
  });
}

alea_status alea_state_to_json(const alea_state* state, char** json, alea_error** error) {
  return guarded(error, [&] {
    need(json, "json");
    *json = c_string(alea::state_to_json(need(state, "state").state));
  });
}

void alea_state_free(alea_state* state) { delete state; }

}  // extern "C"
