// interpreter/compile_cache.hpp — the programs an Engine compiled last, by
// source text, for hosts that compile the same expressions again and again (a
// chat bot's `4d6kh3`): a hit skips parsing and resolving.
//
// Bounded (at most `capacity` programs, each from at most max_source_bytes of
// text; the least recently used goes first) and safe to use from many threads.
// Only successful compilations without imports are kept; the Engine clears the
// cache whenever a ruleset is loaded, since that changes what a name means.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace alea {

struct CompiledProgram;  // interpreter/program.hpp: the cache only holds and hands out pointers

class CompileCache {
 public:
  static constexpr std::size_t max_source_bytes = 1024;

  explicit CompileCache(std::size_t capacity = 0) : capacity_(capacity) {}
  // A copy has the same capacity and starts empty: it belongs to another Engine.
  CompileCache(const CompileCache& other) : capacity_(other.capacity_) {}
  CompileCache& operator=(const CompileCache& other);
  ~CompileCache() = default;

  // Whether a program compiled from this source may be kept at all.
  [[nodiscard]] bool admits(std::string_view source) const {
    return capacity_ > 0 && source.size() <= max_source_bytes;
  }
  // The program compiled from `source` shown as `name`, or null. `generation` is the Engine's
  // set of rulesets the caller compiles against: a program compiled against another set is
  // neither found nor kept, so that a compile that raced with a load never leaves behind a
  // program whose names meant the old mechanics.
  [[nodiscard]] std::shared_ptr<const CompiledProgram> find(std::string_view name, std::string_view source,
                                                            std::uint64_t generation = 0) const;
  void insert(std::string_view name, std::string_view source, std::shared_ptr<const CompiledProgram> program,
              std::uint64_t generation = 0);
  // Empties the cache; from now on it keeps programs of `generation` only.
  void clear(std::uint64_t generation = 0);
  [[nodiscard]] std::size_t size() const;
  [[nodiscard]] std::size_t capacity() const { return capacity_; }

 private:
  struct Entry {
    std::string name, source;
    std::shared_ptr<const CompiledProgram> program;
  };
  using Order = std::list<Entry>;  // most recently used first
  struct Key {
    std::string_view name, source;  // into an Entry's strings, or the caller's while looking up
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct Hash {
    std::size_t operator()(const Key& k) const {
      const std::size_t h = std::hash<std::string_view>()(k.source);
      return h ^ (std::hash<std::string_view>()(k.name) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
    }
  };

  std::size_t capacity_;
  mutable std::mutex mutex_;
  std::uint64_t generation_ = 0;
  mutable Order order_;
  std::unordered_map<Key, Order::iterator, Hash> index_;
};

}  // namespace alea
