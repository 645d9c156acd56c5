// cli/serve_ops.cpp — what `alea serve` does with one request: read it, check every field, run
// the operation as the matching command does (roll_once, answer_stats, describe, the loader),
// and wrap the command's document in the reply. See docs/serve.md.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cli/roll.hpp"
#include "cli/ruleset_commands.hpp"
#include "cli/serve.hpp"
#include "cli/stats_command.hpp"
#include "interpreter/io/read_file.hpp"
#include "interpreter/rulesets/ruleset.hpp"
#include "interpreter/stats.hpp"

namespace alea::cli {

namespace {

using json = nlohmann::json;

struct BadRequest : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Requests nest no deeper than this: the parser and the values built from a request are then
// shallow, whatever the line holds.
constexpr int max_request_depth = 64;

// The fields of each operation, besides id, op, limits and timeout_ms.
const std::map<std::string, std::vector<std::string>, std::less<>>& operations() {
  static const std::map<std::string, std::vector<std::string>, std::less<>> ops = {
      {"roll", {"expr", "seed", "dice", "state", "choices"}},
      {"stats", {"expr", "exact", "sampled", "samples", "seed", "max_branches", "time_limit", "explosion_depth"}},
      {"describe", {"ruleset", "mechanic"}},
      {"check", {"expr", "yaml", "file", "name"}},
      {"load", {"ruleset", "yaml", "file", "name"}},
      {"cancel", {"target"}},
  };
  return ops;
}

std::vector<std::string> operation_names() {
  std::vector<std::string> names;
  for (const auto& [name, fields] : operations()) names.push_back(name);
  return names;
}

// Whether the text nests arrays and objects deeper than `max`, strings skipped.
bool nests_deeper(std::string_view text, int max) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

// ---- the fields of a request -------------------------------------------------------------

const json* field(const json& body, std::string_view name) {
  const auto it = body.find(std::string(name));
  return it == body.end() ? nullptr : &*it;
}

std::optional<std::string> text_field(const json& body, std::string_view name) {
  const json* f = field(body, name);
  if (!f) return std::nullopt;
  if (!f->is_string()) throw BadRequest(fmt::format("\"{}\" must be a string", name));
  return f->get<std::string>();
}

std::string required_text(const json& body, std::string_view name, std::string_view example) {
  auto t = text_field(body, name);
  if (!t) throw BadRequest(fmt::format("give \"{}\", as in {}", name, example));
  return std::move(*t);
}

// Whether `v` is a whole number from `low` to `high` (JSON reads 0 and up as unsigned).
bool in_range(const json& v, std::int64_t low, std::int64_t high) {
  if (!v.is_number_integer()) return false;
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    return u <= static_cast<std::uint64_t>(high) && (low <= 0 || u >= static_cast<std::uint64_t>(low));
  }
  const auto i = v.get<std::int64_t>();
  return i >= low && i <= high;
}

std::optional<std::int64_t> int_field(const json& body, std::string_view name, std::int64_t low, std::int64_t high) {
  const json* f = field(body, name);
  if (!f) return std::nullopt;
  if (!in_range(*f, low, high)) throw BadRequest(fmt::format("\"{}\" must be a whole number from {} to {}", name, low, high));
  return f->get<std::int64_t>();
}

std::optional<std::uint64_t> seed_field(const json& body) {
  const json* f = field(body, "seed");
  if (!f) return std::nullopt;
  if (!f->is_number_unsigned()) throw BadRequest("\"seed\" must be a whole number from 0 to 18446744073709551615");
  return f->get<std::uint64_t>();
}

// A time limit in seconds (a number, whole or not), as --time-limit takes it.
std::optional<double> seconds_field(const json& body, std::string_view name) {
  const json* f = field(body, name);
  if (!f) return std::nullopt;
  if (!f->is_number() || !valid_time_limit(f->get<double>())) {
    throw BadRequest(fmt::format("\"{}\" must be a number of seconds, {}", name, time_limit_rule()));
  }
  return f->get<double>();
}

bool bool_field(const json& body, std::string_view name) {
  const json* f = field(body, name);
  if (!f) return false;
  if (!f->is_boolean()) throw BadRequest(fmt::format("\"{}\" must be true or false", name));
  return f->get<bool>();
}

// Exactly one of `names` is given; returns it.
std::string one_of(const json& body, const std::vector<std::string_view>& names, std::string_view op) {
  std::vector<std::string> given;
  for (auto n : names) {
    if (field(body, n)) given.emplace_back(n);
  }
  if (given.size() != 1) {
    std::vector<std::string> quoted;
    for (auto n : names) quoted.push_back(fmt::format("\"{}\"", n));
    throw BadRequest(fmt::format("{} takes exactly one of {}{}", op, fmt::join(quoted, ", "),
                                 given.empty() ? "" : fmt::format(" (given: {})", fmt::join(given, ", "))));
  }
  return given.front();
}

// The server's limits, lowered where the request's "limits" say: a request may not raise one.
Limits request_limits(const ServeContext& ctx, const json& body) {
  Limits limits = ctx.limits();
  const json* f = field(body, "limits");
  if (!f) return limits;
  if (!f->is_object()) throw BadRequest("\"limits\" must be an object, as in {\"max_steps\": 100000}");
  for (const auto& [name, value] : f->items()) {
    const LimitInfo* found = find_limit(name);
    if (!found) throw BadRequest("\"limits\": " + unknown_limit(name));
    const std::int64_t server = limits.*(found->member);
    if (!in_range(value, 1, server)) {
      throw BadRequest(fmt::format("\"limits\": {} must be a whole number from 1 to {}, the server's (a request may "
                                   "lower a limit, not raise it)", name, server));
    }
    limits.*(found->member) = value.get<std::int64_t>();
  }
  return limits;
}

// The options of `engine` with the request's limits, and no compile cache of its own: each
// request's Engine lives for that request only.
EngineOptions options_with(const Engine& engine, const Limits& limits) {
  EngineOptions options = engine.options();
  options.limits = limits;
  options.compile_cache = 0;
  return options;
}

// ---- replies ---------------------------------------------------------------------------------

// A document on one line, its keys in their order.
std::string compact(const std::string& document) { return nlohmann::ordered_json::parse(document).dump(); }

// An error as the operation's reply: alea.error/1.
std::string error_reply(const ServeJob& job, const Diagnostic& d) {
  return reply_line(job.id, job.op, false, error_document(job.op, error_report(d)));
}

// An error that stopped a run because the time limit set the cancel flag is that limit's.
Diagnostic timed(const ServeJob& job, Diagnostic d) {
  if (job.timed_out.load() && d.code == DiagCode::Interrupted) {
    Diagnostic t(DiagCode::TimeLimitExceeded, Span{},
                 fmt::format("the request ran longer than its time limit of {} ms (timeout_ms)", job.timeout_ms));
    return t;
  }
  return d;
}

std::string refuse_files(std::string_view what) {
  return fmt::format("{}: this server reads no files (start it with --allow-files to let requests name them)", what);
}

// ---- the operations --------------------------------------------------------------------------

std::string op_roll(ServeContext& ctx, const json& body, ServeJob& job, const Limits& limits) {
  const std::string expr = required_text(body, "expr", "{\"op\": \"roll\", \"expr\": \"4d6kh3\"}");
  const auto seed_given = seed_field(body);
  if (seed_given && field(body, "dice")) throw BadRequest("give \"seed\" or \"dice\", not both");
  std::vector<std::int64_t> faces;
  if (const json* f = field(body, "dice")) {
    if (!f->is_array() || f->empty()) throw BadRequest("\"dice\" must be a list of whole numbers, as in [6, 4, 1]");
    for (const auto& face : *f) {
      if (!in_range(face, INT64_MIN, INT64_MAX)) {
        throw BadRequest("\"dice\" must be a list of whole numbers, as in [6, 4, 1]");
      }
      faces.push_back(face.get<std::int64_t>());
    }
  }
  const auto failed = [&](const Diagnostic& d) {
    return reply_line(job.id, job.op, false, failed_roll_document(expr, error_report(timed(job, d))));
  };
  if (Diagnostics d = ctx.load_mentioned(expr); !d.empty()) return failed(d.front());
  // What the request reads of the rulesets' state and choices, each {"my-game": {"edge": 3}}.
  std::optional<State> state;
  std::optional<Choices> choices;
  for (const char* name : {"state", "choices"}) {
    const json* f = field(body, name);
    if (!f) continue;
    if (!f->is_object()) throw BadRequest(fmt::format("\"{}\" must be an object, as in {{\"my-game\": {{\"edge\": 3}}}}", name));
    StateParse parsed = parse_state_json(f->dump(), fmt::format("<{}>", name));
    if (!parsed.state) return failed(parsed.diagnostics.front());
    for (const auto& [ruleset, values] : parsed.state->all()) {
      if (Diagnostics d = ctx.load_from_path(ruleset); !d.empty()) return failed(d.front());
      if (!ctx.engine()->find_ruleset(ruleset)) {
        return failed(Diagnostic(DiagCode::StateInvalid, Span{},
                                 fmt::format("\"{}\" has values for the ruleset '{}', which is neither loaded nor on the "
                                             "ruleset path", name, ruleset)));
      }
    }
    if (std::string(name) == "state") {
      state = std::move(*parsed.state);
    } else {
      choices.emplace();
      for (const auto& [ruleset, values] : parsed.state->all()) {
        for (const auto& [key, value] : values) choices->set(ruleset, key, value);
      }
    }
  }
  const std::shared_ptr<const Engine> shared = ctx.engine();
  const Engine engine(*shared, options_with(*shared, limits));
  if (state) {
    if (const auto problems = engine.check_state(*state); !problems.empty()) {
      return failed(Diagnostic(DiagCode::StateInvalid, Span{}, fmt::format("\"state\": {}", problems.front())));
    }
  }
  std::unique_ptr<DiceSource> dice;
  const ScriptedDice* scripted = nullptr;
  std::optional<std::uint64_t> seed;
  if (!faces.empty()) {
    auto s = std::make_unique<ScriptedDice>(std::move(faces));
    scripted = s.get();
    dice = std::move(s);
  } else {
    seed = seed_given ? *seed_given : fresh_seed();
    dice = std::make_unique<RandomDice>(*seed);
  }
  const Choices none;
  RollInput input{expr, "<input>", dice.get(), scripted, "leave out \"dice\"", state ? &*state : nullptr,
                  choices ? &*choices : &none, "this roll", &job.cancel, false};
  RollRun run;
  try {
    run = roll_once(engine, input);
  } catch (const UsageError& e) {
    return failed(Diagnostic(DiagCode::BadRequest, Span{}, e.what()));
  }
  if (run.outcome.error) run.outcome.error = timed(job, *run.outcome.error);
  const std::int64_t max_bytes = limits.max_render_size;
  const std::string doc = state ? render_json_with_state(run.outcome, expr, seed, run.what_if, max_bytes)
                                : render_json(run.outcome, expr, seed, max_bytes);
  return reply_line(job.id, job.op, run.outcome.ok() && !refused_json(doc), doc);
}

std::string op_stats(ServeContext& ctx, const json& body, ServeJob& job, const Limits& limits) {
  const std::string expr = required_text(body, "expr", "{\"op\": \"stats\", \"expr\": \"3d6\"}");
  StatsQuery q;
  q.options.exact_only = bool_field(body, "exact");
  q.options.sampled_only = bool_field(body, "sampled");
  if (q.options.exact_only && q.options.sampled_only) throw BadRequest("\"exact\" and \"sampled\" exclude each other");
  q.options.samples = static_cast<std::uint64_t>(int_field(body, "samples", 1, INT64_MAX).value_or(100'000));
  q.options.seed = seed_field(body).value_or(0);
  if (const auto cap = int_field(body, "max_branches", 1, INT64_MAX)) q.options.max_branches = static_cast<std::uint64_t>(*cap);
  q.options.time_limit = seconds_field(body, "time_limit");
  q.options.explosion_depth = int_field(body, "explosion_depth", 0, limits.max_explosion_depth);
  q.options.threads = 1;  // requests run side by side (--jobs), each on one thread
  q.options.cancel = &job.cancel;
  q.shown = expr;
  q.max_branches_name = "\"max_branches\"";
  q.time_limit_name = "\"time_limit\"";
  q.to_sample = "leave out \"exact\" to sample";
  if (Diagnostics d = ctx.load_mentioned(expr); !d.empty()) return error_reply(job, d.front());
  const std::shared_ptr<const Engine> shared = ctx.engine();
  const Engine engine(*shared, options_with(*shared, limits));
  const Compiled compiled = engine.compile(expr, "<input>");
  if (!compiled.ok()) return error_reply(job, compiled.diagnostics.front());
  StatsAnswer answer = answer_stats(engine, compiled, std::move(q));
  if (!answer.stats) return error_reply(job, timed(job, answer.diagnostics.front()));
  if (answer.stats->interrupted && job.timed_out.load()) {
    // Sampling stopped by the time limit answers with the samples drawn, and says which limit.
    answer.stats->interrupted = false;
    answer.stats->cut_short = "timeout_ms";
  }
  const std::optional<std::string> doc = stats_document(*answer.stats, answer.context);
  if (!doc) return error_reply(job, too_large("the JSON", answer.context));
  return reply_line(job.id, job.op, true, compact(*doc));
}

// A ruleset as a request names it: a name on the path or, with --allow-files, a file.
void check_ruleset_word(const ServeContext& ctx, const std::string& word, std::string_view field_name) {
  if (is_ruleset_file(word)) {
    if (!ctx.args().allow_files) throw BadRequest(refuse_files(fmt::format("\"{}\": '{}'", field_name, word)));
  } else if (!is_ruleset_name(word)) {
    throw BadRequest(fmt::format("\"{}\": '{}' is not a ruleset's name (a-z, 0-9, '_' and '-')", field_name, word));
  }
}

std::string op_describe(ServeContext& ctx, const json& body, ServeJob& job) {
  const std::string ruleset = required_text(body, "ruleset", "{\"op\": \"describe\", \"ruleset\": \"my-game\"}");
  const auto mechanic = text_field(body, "mechanic");
  check_ruleset_word(ctx, ruleset, "ruleset");
  if (mechanic && is_ruleset_file(ruleset)) throw BadRequest("a ruleset file is described whole: leave out \"mechanic\"");
  const std::shared_ptr<const Engine> engine = ctx.engine();
  const Described d = describe(mechanic ? ruleset + "." + *mechanic : ruleset, ctx.path(), true, engine.get());
  if (d.ok()) return reply_line(job.id, job.op, true, compact(d.text));
  if (!d.diagnostics.empty()) return error_reply(job, d.diagnostics.front());
  return error_reply(job, Diagnostic(d.error_code, Span{}, d.error));
}

// The text a request gives or names, as `field`: at most max_file_bytes.
std::optional<std::string> read_text(const ServeContext& ctx, const json& body, const std::string& which,
                                     const Limits& limits, ServeJob& job, std::string& reply) {
  const std::size_t max = static_cast<std::size_t>(limits.max_file_bytes);
  if (which == "file") {
    const std::string file = *text_field(body, "file");
    if (!ctx.args().allow_files) throw BadRequest(refuse_files(fmt::format("\"file\": '{}'", file)));
    FileText read = read_file_capped(file, max);
    if (read.text) return std::move(read.text);
    reply = error_reply(job, Diagnostic(DiagCode::FileUnreadable, Span{},
                                        fmt::format("cannot read '{}': it {}{}", file, read.error,
                                                    read.too_large ? " (max_file_bytes)" : "")));
    return std::nullopt;
  }
  std::string text = *text_field(body, which);
  if (text.size() > max) {
    reply = error_reply(job, Diagnostic(DiagCode::SizeLimitExceeded, Span{},
                                        fmt::format("\"{}\" is {} bytes; at most {} may be read (max_file_bytes)", which,
                                                    text.size(), max)));
    return std::nullopt;
  }
  return text;
}

bool is_yaml_name(std::string_view file) { return file.ends_with(".yaml") || file.ends_with(".yml"); }

std::string op_check(ServeContext& ctx, const json& body, ServeJob& job, const Limits& limits) {
  const std::string which = one_of(body, {"expr", "yaml", "file"}, "check");
  std::string reply;
  const auto text = read_text(ctx, body, which, limits, job, reply);
  if (!text) return reply;
  const std::string shown =
      which == "file" ? *text_field(body, "file") : text_field(body, "name").value_or(which == "yaml" ? "<yaml>" : "<input>");
  const bool yaml = which == "yaml" || (which == "file" && is_yaml_name(shown));
  Diagnostics problems = yaml ? Diagnostics{} : ctx.load_mentioned(*text);
  if (problems.empty()) {
    // One snapshot of the rulesets, taken after any the program named were loaded.
    const std::shared_ptr<const Engine> shared = ctx.engine();
    Engine engine(*shared, options_with(*shared, limits));
    problems = yaml ? engine.load_ruleset_text(*text, shown) : engine.compile(*text, shown).diagnostics;
  }
  CheckedFile checked{shown, {}};
  for (const auto& d : problems) checked.errors.push_back(error_report(d));
  return reply_line(job.id, job.op, problems.empty(), compact(check_document({checked})));
}

std::string op_load(ServeContext& ctx, const json& body, ServeJob& job, const Limits& limits) {
  const std::string which = one_of(body, {"ruleset", "yaml", "file"}, "load");
  ServeContext::Loaded loaded;
  if (which == "ruleset") {
    const std::string name = *text_field(body, "ruleset");
    check_ruleset_word(ctx, name, "ruleset");
    if (is_ruleset_file(name)) throw BadRequest("\"ruleset\" names a ruleset on the path; give a file as \"file\"");
    const auto file = ctx.path().find(name);
    if (!file) {
      return error_reply(job, Diagnostic(DiagCode::RulesetNotFound, Span{},
                                         no_such_ruleset(name, ctx.path(), ctx.engine().get())));
    }
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(*file, ec);
    loaded = ctx.load(ec ? 0 : bytes, [&](Engine& e) { return load_ruleset(e, *file, ctx.path().origin_of(*file)); });
  } else {
    std::string reply;
    const auto text = read_text(ctx, body, which, limits, job, reply);
    if (!text) return reply;
    const std::string shown = which == "file" ? *text_field(body, "file") : text_field(body, "name").value_or("<yaml>");
    loaded = ctx.load(text->size(), [&](Engine& e) { return e.load_ruleset_text(*text, shown); });
  }
  if (!loaded.problems.empty()) return error_reply(job, loaded.problems.front());
  return reply_line(job.id, job.op, true, compact(describe_ruleset_document(*loaded.ruleset)));
}

}  // namespace

std::string reply_line(const json& id, std::string_view op, bool ok, std::string_view result) {
  std::string out = R"({"schema":")" + std::string(reply_schema) + R"(","id":)" + id.dump();
  out += R"(,"op":)" + json(std::string(op)).dump(-1, ' ', false, json::error_handler_t::replace);
  out += ok ? R"(,"ok":true,"result":)" : R"(,"ok":false,"result":)";
  out += result;
  return out + "}";
}

std::string bad_request(const json& id, std::string_view op, const std::string& message) {
  const Diagnostic d(DiagCode::BadRequest, Span{}, message);
  return reply_line(id, op, false, error_document(op, {d, fmt::format("alea serve: {}\n", message)}));
}

std::optional<std::string> read_request(ServeContext& ctx, std::string_view line, ServeJob& job, json& body) {
  job.id = nullptr;
  job.op.clear();
  job.timeout_ms = ctx.args().timeout_ms;
  if (nests_deeper(line, max_request_depth)) {
    return bad_request(nullptr, "", fmt::format("the request nests lists and objects deeper than {}", max_request_depth));
  }
  try {
    body = json::parse(line);
  } catch (const json::exception& e) {  // a parse error, or a number out of range
    // The parser's words, without its "[json.exception.parse_error.101] " tag.
    std::string why = e.what();
    if (const auto tag = why.find("] "); why.starts_with("[json.exception") && tag != std::string::npos) why.erase(0, tag + 2);
    return bad_request(nullptr, "", fmt::format("the request is not valid JSON: {}", why));
  }
  if (!body.is_object()) return bad_request(nullptr, "", "a request is a JSON object: {\"id\": 1, \"op\": \"roll\", …}");
  const json* id = field(body, "id");
  if (!id) return bad_request(nullptr, "", "the request has no \"id\"; give each request one, a number or a string");
  if (!(id->is_number_integer() || (id->is_string() && id->get_ref<const std::string&>().size() <= 256))) {
    return bad_request(nullptr, "", "\"id\" must be a whole number or a string of at most 256 bytes");
  }
  job.id = *id;
  const json* op = field(body, "op");
  if (!op || !op->is_string() || !operations().contains(op->get_ref<const std::string&>())) {
    const std::string given = !op ? "no \"op\"" : fmt::format("\"op\" {}", op->dump(-1, ' ', false, json::error_handler_t::replace));
    return bad_request(job.id, "", fmt::format("{}: the operations are {}", given, fmt::join(operation_names(), ", ")));
  }
  job.op = op->get<std::string>();
  const auto& known = operations().find(job.op)->second;
  for (const auto& [key, value] : body.items()) {
    if (key == "id" || key == "op" || key == "limits" || key == "timeout_ms") continue;
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      return bad_request(job.id, job.op,
                         fmt::format("{} has no field \"{}\"; its fields are {} (and id, op, limits, timeout_ms)", job.op,
                                     key, fmt::join(known, ", ")));
    }
  }
  try {
    job.timeout_ms = int_field(body, "timeout_ms", 1, ctx.args().timeout_ms).value_or(ctx.args().timeout_ms);
  } catch (const BadRequest& e) {
    return bad_request(job.id, job.op, fmt::format("{} (the server's --timeout)", e.what()));
  }
  return std::nullopt;
}

std::string answer_request(ServeContext& ctx, const json& body, ServeJob& job) {
  try {
    const Limits limits = request_limits(ctx, body);
    if (job.op == "roll") return op_roll(ctx, body, job, limits);
    if (job.op == "stats") return op_stats(ctx, body, job, limits);
    if (job.op == "describe") return op_describe(ctx, body, job);
    if (job.op == "check") return op_check(ctx, body, job, limits);
    if (job.op == "load") return op_load(ctx, body, job, limits);
    return bad_request(job.id, job.op, fmt::format("{} is not answered here", job.op));
  } catch (const BadRequest& e) {
    return bad_request(job.id, job.op, e.what());
  } catch (const std::bad_alloc&) {
    return error_reply(job, Diagnostic(DiagCode::SizeLimitExceeded, Span{},
                                       "the request ran out of memory; lower its limits (\"limits\")"));
  }
}

std::optional<json> cancel_target(const json& body) {
  const json* t = field(body, "target");
  if (!t || !(t->is_number_integer() || t->is_string())) return std::nullopt;
  return *t;
}

}  // namespace alea::cli
