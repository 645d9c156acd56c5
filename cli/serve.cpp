// cli/serve.cpp — `alea serve`: the shared Engine, and the loop that reads request lines, hands
// them to N workers, enforces each one's time limit, and writes each reply as one line.
#include "cli/serve.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <thread>

#include <fmt/format.h>

#include "cli/exit_codes.hpp"
#include "cli/interrupt.hpp"
#include "cli/ruleset_commands.hpp"
#include "interpreter/rulesets/ruleset.hpp"
#include "interpreter/rulesets/ruleset_files.hpp"

namespace alea::cli {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

// ---- the shared Engine ---------------------------------------------------------------------

ServeContext::ServeContext(ServeArgs args, const Limits& limits, std::vector<std::string> ruleset_dirs)
    : args_(args), limits_(limits), path_(ruleset_dirs), engine_(std::make_shared<const Engine>(engine_options(limits, path_))) {}

std::shared_ptr<const Engine> ServeContext::engine() const {
  const std::lock_guard lock(engine_mutex_);
  return engine_;
}

ServeContext::Loaded ServeContext::load(std::size_t bytes, const std::function<Diagnostics(Engine&)>& load) {
  const std::lock_guard lock(load_mutex_);
  const std::shared_ptr<const Engine> before = engine();
  auto next = std::make_shared<Engine>(*before);
  const std::vector<const Ruleset*> old = next->rulesets();
  Loaded out;
  out.engine = before;
  out.problems = load(*next);
  if (!out.problems.empty()) return out;
  const Ruleset* fresh = nullptr;
  for (const Ruleset* r : next->rulesets()) {
    if (std::find(old.begin(), old.end(), r) == old.end()) fresh = r;
  }
  if (!fresh) return out;  // loaded already
  std::size_t total = bytes;
  for (const auto& [name, b] : loaded_bytes_) total += name == fresh->name ? 0 : b;
  if (total > static_cast<std::size_t>(args_.max_loaded_bytes)) {
    out.problems = {Diagnostic(DiagCode::SizeLimitExceeded, Span{},
                               fmt::format("loading '{}' would bring the rulesets loaded to {} bytes of YAML, more "
                                           "than {} (alea serve --max-loaded-bytes)",
                                           fresh->name, total, args_.max_loaded_bytes))};
    return out;
  }
  loaded_bytes_[fresh->name] = bytes;
  {
    const std::lock_guard swap(engine_mutex_);
    engine_ = next;
  }
  out.engine = std::move(next);
  out.ruleset = fresh;
  return out;
}

Diagnostics ServeContext::load_from_path(std::string_view name) {
  if (engine()->find_ruleset(name)) return {};
  const auto file = path_.find(name);
  if (!file) return {};
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(*file, ec);
  return load(ec ? 0 : bytes, [&](Engine& e) {
           return e.find_ruleset(name) ? Diagnostics{} : load_ruleset(e, *file, path_.origin_of(*file));
         }).problems;
}

Diagnostics ServeContext::load_mentioned(std::string_view source) {
  for (const auto& name : detail::mentioned_rulesets(source)) {
    if (Diagnostics d = load_from_path(name); !d.empty()) return d;
  }
  return {};
}

namespace {

// ---- reading lines -------------------------------------------------------------------------

// Lines of a descriptor, each at most `cap` bytes: a longer one is skipped to its end and
// reported, so that no input makes the server hold more than the cap.
class LineReader {
 public:
  LineReader(int fd, std::size_t cap) : fd_(fd), cap_(cap) {}
  enum class Got { Line, TooLong, End, Interrupted };

  Got next(std::string& line) {
    bool too_long = false;
    while (true) {
      const auto nl = buf_.find('\n', scanned_);
      if (nl != std::string::npos) {
        if (too_long) {
          buf_.erase(0, nl + 1);
          scanned_ = 0;
          return Got::TooLong;
        }
        line.assign(buf_, 0, nl);
        buf_.erase(0, nl + 1);
        scanned_ = 0;
        if (line.size() > cap_) return Got::TooLong;
        return Got::Line;
      }
      scanned_ = buf_.size();
      if (buf_.size() > cap_) {  // past the cap with no end of line: drop it, and what follows to the newline
        too_long = true;
        buf_.clear();
        scanned_ = 0;
      }
      char chunk[65536];
      const ssize_t n = ::read(fd_, chunk, sizeof chunk);
      if (n > 0) {
        buf_.append(chunk, static_cast<std::size_t>(n));
        continue;
      }
      if (n < 0 && errno == EINTR) {
        if (cancel_flag().load()) return Got::Interrupted;
        continue;
      }
      // End of input (or an error reading it): a last line without a newline still counts.
      if (too_long) return Got::TooLong;
      if (buf_.empty()) return Got::End;
      line = std::move(buf_);
      buf_.clear();
      scanned_ = 0;
      return line.size() > cap_ ? Got::TooLong : Got::Line;
    }
  }

 private:
  int fd_;
  std::size_t cap_;
  std::string buf_;
  std::size_t scanned_ = 0;  // bytes of buf_ known to hold no newline
};

// ---- the server ----------------------------------------------------------------------------

struct Pending {
  std::shared_ptr<ServeJob> job;  // null for a reply made already (a request refused)
  json body;
  std::size_t bytes = 0;
  std::string reply;  // the reply made already
};

class Server {
 public:
  explicit Server(ServeContext& ctx) : ctx_(ctx) {}

  int run() {
    // Ctrl-C goes to this thread, whose read it interrupts; the workers never see it.
    stop_on_interrupt(true);
    sigset_t interrupt, previous;
    sigemptyset(&interrupt);
    sigaddset(&interrupt, SIGINT);
    pthread_sigmask(SIG_BLOCK, &interrupt, &previous);
    std::vector<std::thread> threads;
    for (unsigned i = 0; i < ctx_.args().jobs; ++i) threads.emplace_back([this] { work(); });
    std::thread watchdog([this] { watch(); });
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);

    read_all();
    {
      const std::lock_guard lock(m_);
      closing_ = true;
    }
    work_cv_.notify_all();
    for (auto& t : threads) t.join();
    {
      const std::lock_guard lock(m_);
      stopping_ = true;
    }
    watch_cv_.notify_all();
    watchdog.join();
    if (output_failed_.load()) return exit_bad_input;
    return cancel_flag().load() ? exit_interrupted : exit_ok;
  }

 private:
  void read_all() {
    const auto cap = static_cast<std::size_t>(ctx_.args().max_request_bytes);
    LineReader reader(0, cap);
    std::string line;
    while (!output_failed_.load() && !cancel_flag().load()) {
      const LineReader::Got got = reader.next(line);
      if (got == LineReader::Got::End || got == LineReader::Got::Interrupted) break;
      if (got == LineReader::Got::TooLong) {
        answered(bad_request(nullptr, "", fmt::format("the request is longer than {} bytes (alea serve --max-request-bytes)",
                                                      cap)));
        continue;
      }
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank lines separate nothing
      auto job = std::make_shared<ServeJob>();
      json body;
      if (auto refused = read_request(ctx_, line, *job, body)) {
        answered(std::move(*refused));
        continue;
      }
      if (job->op == "cancel") {
        write(cancel(*job, body));
        continue;
      }
      const std::string key = job->id.dump();
      bool in_use = false;
      {
        const std::lock_guard lock(m_);
        in_use = active_.contains(key);
        if (!in_use) active_.emplace(key, job);  // from now on a cancel finds it
      }
      if (in_use) {
        answered(bad_request(job->id, job->op,
                             fmt::format("the id {} belongs to a request not answered yet; give each request its own", key)));
        continue;
      }
      const std::size_t bytes = line.size();
      enqueue({std::move(job), std::move(body), bytes, {}});
    }
  }

  // Waits, while the requests and replies waiting hold more than max_waiting bytes (twice the
  // longest request), for a worker to take some; then queues `p`.
  void enqueue(Pending p) {
    const std::size_t max_waiting = 2 * static_cast<std::size_t>(ctx_.args().max_request_bytes);
    std::unique_lock lock(m_);
    while (waiting_bytes_ > 0 && waiting_bytes_ + p.bytes > max_waiting && !cancel_flag().load() &&
           !output_failed_.load()) {
      space_cv_.wait_for(lock, std::chrono::milliseconds(50));
    }
    waiting_bytes_ += p.bytes;
    queue_.push_back(std::move(p));
    lock.unlock();
    work_cv_.notify_one();
  }

  // A reply made without running anything: it still waits its turn, so that with one worker
  // every reply comes in the order of the requests.
  void answered(std::string reply) {
    const std::size_t bytes = reply.size();
    enqueue({nullptr, nullptr, bytes, std::move(reply)});
  }

  std::string cancel(const ServeJob& request, const json& body) {
    const auto target = cancel_target(body);
    if (!target) return bad_request(request.id, "cancel", "give \"target\": the id of the request to cancel");
    std::shared_ptr<ServeJob> job;
    {
      const std::lock_guard lock(m_);
      const auto it = active_.find(target->dump());
      if (it != active_.end()) job = it->second;
    }
    if (!job) {
      const Diagnostic d(DiagCode::BadRequest, Span{},
                         fmt::format("no request with the id {} is waiting or running", target->dump()));
      return reply_line(request.id, "cancel", false, error_document("cancel", error_report(d)));
    }
    job->cancel.store(true);
    return reply_line(request.id, "cancel", true, "null");
  }

  void work() {
    while (true) {
      Pending p;
      {
        std::unique_lock lock(m_);
        work_cv_.wait(lock, [this] { return closing_ || !queue_.empty(); });
        if (queue_.empty()) return;
        p = std::move(queue_.front());
        queue_.pop_front();
        waiting_bytes_ -= p.bytes;
        if (p.job) running_.push_back({p.job, Clock::now() + std::chrono::milliseconds(p.job->timeout_ms)});
      }
      space_cv_.notify_one();
      if (!p.job) {
        write(p.reply);
        continue;
      }
      // A request cancelled while it waited (or by Ctrl-C) does not start.
      const std::string reply =
          p.job->cancel.load() || cancel_flag().load()
              ? reply_line(p.job->id, p.job->op, false,
                           error_document(p.job->op, error_report(Diagnostic(
                                                         DiagCode::Interrupted, Span{},
                                                         "the request was cancelled before it started"))))
              : answer_request(ctx_, p.body, *p.job);
      {
        const std::lock_guard lock(m_);
        active_.erase(p.job->id.dump());
        running_.erase(std::find_if(running_.begin(), running_.end(), [&](const auto& r) { return r.first == p.job; }));
      }
      write(reply);
    }
  }

  // Sets the cancel flag of each request past its time limit, and of every one after Ctrl-C.
  void watch() {
    std::unique_lock lock(m_);
    while (!stopping_) {
      watch_cv_.wait_for(lock, std::chrono::milliseconds(10));
      const auto now = Clock::now();
      const bool interrupted = cancel_flag().load();
      for (auto& [job, deadline] : running_) {
        if (interrupted) job->cancel.store(true);
        if (now >= deadline && !job->cancel.load()) {
          job->timed_out.store(true);
          job->cancel.store(true);
        }
      }
      if (interrupted) {
        for (auto& [key, job] : active_) job->cancel.store(true);
      }
    }
  }

  void write(const std::string& reply) {
    const std::lock_guard lock(out_m_);
    if (output_failed_.load()) return;
    if (std::fwrite(reply.data(), 1, reply.size(), stdout) != reply.size() || std::fputc('\n', stdout) == EOF ||
        std::fflush(stdout) != 0) {
      output_failed_.store(true);
      cancel_all();
    }
  }

  void cancel_all() {
    const std::lock_guard lock(m_);
    for (auto& [key, job] : active_) job->cancel.store(true);
  }

  ServeContext& ctx_;
  std::mutex m_;  // guards what follows, to out_m_
  std::condition_variable work_cv_, space_cv_, watch_cv_;
  std::deque<Pending> queue_;
  std::size_t waiting_bytes_ = 0;
  std::map<std::string, std::shared_ptr<ServeJob>> active_;  // by id as JSON text: waiting or running
  std::vector<std::pair<std::shared_ptr<ServeJob>, Clock::time_point>> running_;
  bool closing_ = false, stopping_ = false;
  std::mutex out_m_;
  std::atomic<bool> output_failed_{false};
};

}  // namespace

int serve_command(const ServeArgs& args, const Limits& limits, const std::vector<std::string>& ruleset_dirs) {
  ServeContext ctx(args, limits, ruleset_dirs);
  return Server(ctx).run();
}

}  // namespace alea::cli
