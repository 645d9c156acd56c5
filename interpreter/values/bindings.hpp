// interpreter/values/bindings.hpp — values the host gives a run by name (a character's
// stats, the REPL's variables).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "interpreter/values/value.hpp"

namespace alea {

class Bindings {
 public:
  Bindings() = default;
  Bindings(std::initializer_list<std::pair<const std::string, Value>> init) : values_(init) {}

  void set(std::string name, Value v) { values_[std::move(name)] = std::move(v); }
  void erase(std::string_view name) {
    if (auto it = values_.find(name); it != values_.end()) values_.erase(it);
  }
  [[nodiscard]] const Value* find(std::string_view name) const {
    auto it = values_.find(name);
    return it == values_.end() ? nullptr : &it->second;
  }
  [[nodiscard]] std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& [k, v] : values_) out.push_back(k);
    return out;
  }
  [[nodiscard]] const std::map<std::string, Value, std::less<>>& all() const { return values_; }

 private:
  std::map<std::string, Value, std::less<>> values_;
};

}  // namespace alea
