// interpreter/compile_cache.cpp — a least-recently-used map from source text to
// compiled program, behind one mutex.
#include "interpreter/compile_cache.hpp"

namespace alea {

CompileCache& CompileCache::operator=(const CompileCache& other) {
  if (this != &other) {
    clear();
    const std::lock_guard lock(mutex_);
    capacity_ = other.capacity_;
  }
  return *this;
}

std::shared_ptr<const CompiledProgram> CompileCache::find(std::string_view name, std::string_view source,
                                                          std::uint64_t generation) const {
  if (!admits(source)) return nullptr;
  const std::lock_guard lock(mutex_);
  if (generation != generation_) return nullptr;
  const auto it = index_.find(Key{name, source});
  if (it == index_.end()) return nullptr;
  order_.splice(order_.begin(), order_, it->second);  // now the most recently used
  return it->second->program;
}

void CompileCache::insert(std::string_view name, std::string_view source,
                          std::shared_ptr<const CompiledProgram> program, std::uint64_t generation) {
  if (!admits(source) || !program) return;
  const std::lock_guard lock(mutex_);
  if (generation != generation_) return;  // compiled against rulesets since replaced
  if (const auto it = index_.find(Key{name, source}); it != index_.end()) {
    // Another thread compiled the same source meanwhile; either program will do.
    order_.splice(order_.begin(), order_, it->second);
    return;
  }
  order_.push_front(Entry{std::string(name), std::string(source), std::move(program)});
  const Entry& e = order_.front();
  index_.emplace(Key{e.name, e.source}, order_.begin());
  if (order_.size() > capacity_) {
    const Entry& last = order_.back();
    index_.erase(Key{last.name, last.source});
    order_.pop_back();
  }
}

void CompileCache::clear(std::uint64_t generation) {
  const std::lock_guard lock(mutex_);
  generation_ = generation;
  index_.clear();
  order_.clear();
}

std::size_t CompileCache::size() const {
  const std::lock_guard lock(mutex_);
  return order_.size();
}

}  // namespace alea
