// fuzz/fuzz_serve.cpp — libFuzzer harness: any bytes, as one request line to `alea serve`, read
// and answered as the server does (read_request, then answer_request or the cancel's reply),
// by a fresh server context with tight limits and no files.
// Invariants: every input gets exactly one reply; the reply is one line of JSON, an alea.reply/1
// whose id is the request's when it had a valid one and whose result is a document or null; it
// stays within a bound of the render limit and the request's size (a reply may quote the request).
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "cli/serve.hpp"

namespace {

alea::Limits tight() {
  alea::Limits l;
  l.max_dice = 200;
  l.max_steps = 20'000;
  l.max_loop_iterations = 200;
  l.max_collection_size = 200;
  l.max_render_size = 20'000;
  l.max_odds_work = 200'000;
  l.max_odds_memory = 4'000'000;
  l.max_sample_work = 200'000;
  l.max_file_bytes = 8'192;
  return l;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 8192) return 0;
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  alea::cli::ServeArgs args;
  args.max_loaded_bytes = 64 * 1024;
  alea::cli::ServeContext context(args, tight(), {});
  alea::cli::ServeJob job;
  nlohmann::json body;
  std::string reply;
  if (auto refused = alea::cli::read_request(context, line, job, body)) {
    reply = std::move(*refused);
  } else if (job.op == "cancel") {
    // Nothing runs here to cancel: the server's reply names the target as unknown, or the missing one.
    const auto target = alea::cli::cancel_target(body);
    reply = alea::cli::bad_request(job.id, "cancel", target ? "no such request" : "no target");
  } else {
    reply = alea::cli::answer_request(context, body, job);
  }
  if (reply.find('\n') != std::string::npos) __builtin_trap();
  // A report of errors is cut at max_render_size as text (dsl/diagnostic.hpp, reported); as JSON
  // each error also repeats its message and notes, escaped. A message may quote the request.
  if (reply.size() > 16 * 20'000 + 4096 + 8 * size) __builtin_trap();
  const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(reply, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || doc.begin().key() != "schema" || doc["schema"] != "alea.reply/1") {
    __builtin_trap();
  }
  if (!doc.contains("id") || !doc.contains("ok") || !doc["ok"].is_boolean() || !doc.contains("result")) __builtin_trap();
  const auto& result = doc["result"];
  if (!(result.is_null() || (result.is_object() && result.contains("schema")))) __builtin_trap();
  // A request whose id could be read is answered under that id.
  if (!job.id.is_null() && doc["id"].dump() != job.id.dump()) __builtin_trap();
  return 0;
}
