// cli/serve.hpp — `alea serve`: requests as JSON lines on standard input, replies as JSON lines on
// standard output (docs/serve.md), for a host in any language that does not link the library.
//
//   → {"id": 1, "op": "roll", "expr": "3d6", "seed": 7}
//   ← {"schema": "alea.reply/1", "id": 1, "op": "roll", "ok": true, "result": {"schema": "alea.roll/1", …}}
//
// Every request runs under the server's limits (tightened by its own "limits", never loosened),
// within a time limit, and can be cancelled by another request. With --jobs N, N requests run at
// once and replies come as each finishes.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "cli/ruleset_path.hpp"
#include "interpreter/api.hpp"

namespace alea::cli {

struct ServeArgs {
  unsigned jobs = 1;                  // --jobs N: requests run at once (1: one at a time, in order)
  bool allow_files = false;           // --allow-files: requests may read files by name
  std::int64_t timeout_ms = 60'000;   // --timeout MS: the longest a request may run
  std::int64_t max_request_bytes = 8'000'000;   // --max-request-bytes: one request line
  std::int64_t max_loaded_bytes = 32'000'000;   // --max-loaded-bytes: YAML of the rulesets loaded, in all
};

// The server's shared state: its settings, and the Engine every request uses, replaced whole
// when a request loads a ruleset (requests running keep the one they started with).
class ServeContext {
 public:
  ServeContext(ServeArgs args, const Limits& limits, std::vector<std::string> ruleset_dirs);

  [[nodiscard]] const ServeArgs& args() const { return args_; }
  [[nodiscard]] const Limits& limits() const { return limits_; }
  [[nodiscard]] const RulesetPath& path() const { return path_; }
  [[nodiscard]] std::shared_ptr<const Engine> engine() const;

  // Loads into a copy of the Engine, which replaces it when the load succeeds. `bytes` is the
  // ruleset's size, counted against max_loaded_bytes (a ruleset replaced gives its bytes back).
  // `load` gets the copy and returns the problems.
  struct Loaded {
    Diagnostics problems;
    std::shared_ptr<const Engine> engine;  // holds `ruleset`
    const Ruleset* ruleset = nullptr;      // the one loaded; null when the load found it loaded already
  };
  Loaded load(std::size_t bytes, const std::function<Diagnostics(Engine&)>& load);
  // Loads each ruleset that `source` mentions, is not loaded and is on the path.
  [[nodiscard]] Diagnostics load_mentioned(std::string_view source);
  // Loads the ruleset `name` from the path, unless it is loaded already or is not on the path.
  [[nodiscard]] Diagnostics load_from_path(std::string_view name);

 private:
  ServeArgs args_;
  Limits limits_;
  RulesetPath path_;
  mutable std::mutex engine_mutex_;  // held while engine_ is read or replaced
  std::shared_ptr<const Engine> engine_;
  std::mutex load_mutex_;  // one load at a time
  std::map<std::string, std::size_t, std::less<>> loaded_bytes_;  // by ruleset name
};

// One request being answered: its id, its cancel flag (set by a `cancel` request, the time limit
// or Ctrl-C) and whether the time limit set it.
struct ServeJob {
  nlohmann::json id;
  std::string op;
  std::int64_t timeout_ms = 0;
  std::atomic<bool> cancel{false};
  std::atomic<bool> timed_out{false};
};

// Reads one request line into `body`, and the job's id, op and time limit from it. Returns the
// reply when the request is refused (BadRequest: not JSON, nested too deep, no id, an unknown op
// or field, a bad timeout_ms); nothing when it may run.
[[nodiscard]] std::optional<std::string> read_request(ServeContext& context, std::string_view line, ServeJob& job,
                                                      nlohmann::json& body);
// The reply to a request that read_request let through, as one line of JSON (no newline), for
// every op but `cancel`, which the server answers itself. Never throws but std::bad_alloc.
[[nodiscard]] std::string answer_request(ServeContext& context, const nlohmann::json& body, ServeJob& job);
// A cancel request's target id, or nothing when it has none (or one of the wrong type).
[[nodiscard]] std::optional<nlohmann::json> cancel_target(const nlohmann::json& body);

// The envelope of a reply: {"schema": "alea.reply/1", "id", "op", "ok", "result"}, `result` a
// document as JSON text (compact or indented) or "null".
[[nodiscard]] std::string reply_line(const nlohmann::json& id, std::string_view op, bool ok, std::string_view result);

// A request refused before it ran, as its reply: an alea.error/1 result with code BadRequest.
[[nodiscard]] std::string bad_request(const nlohmann::json& id, std::string_view op, const std::string& message);

// `alea serve`: reads requests until end of input, answers each, and returns the exit code
// (0; 130 after Ctrl-C; 1 when standard output cannot be written).
int serve_command(const ServeArgs& args, const Limits& limits, const std::vector<std::string>& ruleset_dirs);

}  // namespace alea::cli
