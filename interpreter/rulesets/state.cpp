// interpreter/rulesets/state.cpp — State and Choices, their JSON form, and checking a
// state against the counters its ruleset declares.
#include "interpreter/rulesets/state.hpp"

#include "interpreter/values/conform.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iterator>
#include <nlohmann/json.hpp>

#include "dsl/resolver.hpp"
#include "dsl/source.hpp"
#include "interpreter/rulesets/ruleset.hpp"

namespace alea {

namespace {

using json = nlohmann::ordered_json;

constexpr std::size_t max_json_depth = 64;

// A JSON value as a value of the language; nullopt (with `why`) for what the
// language has no value for.
std::optional<Value> from_json(const json& j, std::size_t depth, std::string& why) {
  if (depth > max_json_depth) {
    why = fmt::format("values nest more than {} levels deep", max_json_depth);
    return std::nullopt;
  }
  switch (j.type()) {
    case json::value_t::null: return Value(NoneValue{});
    case json::value_t::boolean: return Value(j.get<bool>());
    case json::value_t::number_integer: return Value(j.get<std::int64_t>());
    case json::value_t::number_unsigned: {
      const auto u = j.get<std::uint64_t>();
      if (u > static_cast<std::uint64_t>(INT64_MAX)) {
        why = fmt::format("{} does not fit in 64 bits", u);
        return std::nullopt;
      }
      return Value(static_cast<std::int64_t>(u));
    }
    case json::value_t::string: return Value(j.get<std::string>());
    case json::value_t::array: {
      std::vector<Value> items;
      for (const auto& i : j) {
        auto v = from_json(i, depth + 1, why);
        if (!v) return std::nullopt;
        items.push_back(std::move(*v));
      }
      return make_list(std::move(items));
    }
    case json::value_t::object: {
      std::vector<std::string> names;
      std::vector<Value> values;
      for (auto it = j.begin(); it != j.end(); ++it) {
        auto v = from_json(it.value(), depth + 1, why);
        if (!v) return std::nullopt;
        names.push_back(it.key());
        values.push_back(std::move(*v));
      }
      return make_record(std::move(names), std::move(values));
    }
    default:
      why = fmt::format("{} is not a whole number", j.dump(-1, ' ', false, json::error_handler_t::replace));
      return std::nullopt;
  }
}

json to_json(const Value& v) {
  return std::visit(
      [](const auto& x) -> json {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, bool>) {
          return json(x);
        } else if constexpr (std::is_same_v<T, StrPtr>) {
          return json(*x);
        } else if constexpr (std::is_same_v<T, alea::PoolPtr>) {
          return json(pool_total(*x).value_or(0));
        } else if constexpr (std::is_same_v<T, ListPtr>) {
          json a = json::array();
          for (const auto& i : *x) a.push_back(to_json(i));
          return a;
        } else if constexpr (std::is_same_v<T, RecordPtr>) {
          json o = json::object();
          for (std::size_t i = 0; i < x->names.size(); ++i) o[x->names[i]] = to_json(x->values[i]);
          return o;
        } else {
          return json(nullptr);
        }
      },
      v.variant());
}

}  // namespace

const Value* RulesetValues::find(std::string_view ruleset, std::string_view name) const {
  const auto r = values_.find(ruleset);
  if (r == values_.end()) return nullptr;
  const auto v = r->second.find(name);
  return v == r->second.end() ? nullptr : &v->second;
}

void RulesetValues::set(std::string_view ruleset, std::string_view name, Value v) {
  auto r = values_.find(ruleset);
  if (r == values_.end()) r = values_.emplace(std::string(ruleset), std::map<std::string, Value, std::less<>>{}).first;
  r->second.insert_or_assign(std::string(name), std::move(v));
}

void RulesetValues::erase(std::string_view ruleset, std::string_view name) {
  const auto r = values_.find(ruleset);
  if (r == values_.end()) return;
  if (const auto v = r->second.find(name); v != r->second.end()) r->second.erase(v);
  if (r->second.empty()) values_.erase(r);
}

namespace {

// nlohmann's message without its "[json.exception.…] parse error at line 1, column 5: " head.
std::string json_error_text(std::string what) {
  if (const auto p = what.find("] "); what.starts_with("[json.exception") && p != std::string::npos) {
    what = what.substr(p + 2);
  }
  if (what.starts_with("parse error")) {
    if (const auto q = what.find(": "); q != std::string::npos) what = what.substr(q + 2);
  }
  constexpr std::string_view value_head = "syntax error while parsing value - ";
  if (what.starts_with(value_head)) what = what.substr(value_head.size());
  return what;
}

// A character pointer that tells how far the JSON lexer has read: at each SAX event, `*seen`
// is just past the text of that event, which places it in the file.
class ReadingAt {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  ReadingAt() = default;
  ReadingAt(const char* p, const char** seen) : p_(p), seen_(seen) {}
  reference operator*() const { return *p_; }
  ReadingAt& operator++() {
    ++p_;
    if (seen_) *seen_ = p_;
    return *this;
  }
  ReadingAt operator++(int) {
    ReadingAt before = *this;
    ++*this;
    return before;
  }
  friend bool operator==(const ReadingAt& a, const ReadingAt& b) { return a.p_ == b.p_; }

 private:
  const char* p_ = nullptr;
  const char** seen_ = nullptr;
};

// Builds the document as nlohmann's own DOM parser does, but never throws: the first error
// (syntax, or a number out of range such as 1e400) is kept with its byte offset. It also
// notes where each ruleset's entry and each counter's value start.
class StateSax {
 public:
  using Dom = nlohmann::detail::json_sax_dom_parser<json>;

  StateSax(json& root, const char* begin, const char* const* seen) : dom_(root, false), begin_(begin), seen_(seen) {}

  bool null() { return dom_.null(); }
  bool boolean(bool b) { return dom_.boolean(b); }
  bool number_integer(json::number_integer_t v) { return dom_.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return dom_.number_unsigned(v); }
  bool number_float(json::number_float_t v, const json::string_t& s) { return dom_.number_float(v, s); }
  bool string(json::string_t& v) { return dom_.string(v); }
  bool binary(json::binary_t& v) { return dom_.binary(v); }
  bool start_object(std::size_t n) {
    ++depth_;
    return dom_.start_object(n);
  }
  bool key(json::string_t& k) {
    // The key's closing quote has just been read; its value is what comes next.
    if (depth_ == 1) {
      entry_ = k;
      entry_at.insert_or_assign(k, here());
    } else if (depth_ == 2) {
      counter_at.insert_or_assign({entry_, k}, here());
    }
    return dom_.key(k);
  }
  bool end_object() {
    --depth_;
    return dom_.end_object();
  }
  bool start_array(std::size_t n) {
    ++depth_;
    return dom_.start_array(n);
  }
  bool end_array() {
    --depth_;
    return dom_.end_array();
  }
  bool parse_error(std::size_t position, const std::string& last_token, const nlohmann::detail::exception& e) {
    if (e.id == 406) {  // a number past the range of a double: "1e400"
      error_at = position >= last_token.size() ? position - last_token.size() : 0;
      error = fmt::format("the number {} is out of range; a state holds whole numbers of 64 bits", last_token);
    } else {
      // `position` counts from 1 and points just past the offending character.
      error_at = position == 0 ? 0 : position - 1;
      error = fmt::format("this is not valid JSON: {}", json_error_text(e.what()));
    }
    return false;
  }

  std::optional<std::size_t> error_at;
  std::string error;
  std::map<std::string, std::size_t, std::less<>> entry_at;  // ruleset → its key
  std::map<std::pair<std::string, std::string>, std::size_t> counter_at;  // (ruleset, counter) → its key

 private:
  Dom dom_;
  const char* begin_;
  const char* const* seen_;
  std::size_t depth_ = 0;
  std::string entry_;

  // Where the key just read starts: its closing quote has just been read.
  [[nodiscard]] std::size_t here() const {
    std::size_t end = *seen_ > begin_ ? static_cast<std::size_t>(*seen_ - begin_) - 1 : 0;
    // Back to its opening quote, past escaped quotes.
    while (end > 0) {
      --end;
      if (begin_[end] != '"') continue;
      std::size_t slashes = 0;
      while (end > slashes && begin_[end - slashes - 1] == '\\') ++slashes;
      if (slashes % 2 == 0) break;
    }
    return end;
  }
};

}  // namespace

StateParse parse_state_json(std::string_view text, std::string name) {
  StateParse out;
  const auto file = SourceFile::make(std::move(name), std::string(text));
  const auto fail = [&](std::size_t at, std::string message) {
    const auto pos = static_cast<std::uint32_t>(std::min(at, text.size()));
    out.diagnostics.emplace_back(DiagCode::StateInvalid, file->span(pos, pos), std::move(message))
        .note({}, "a state file is a JSON object of rulesets, each an object of counters, as in "
                  "{\"my-game\": {\"edge\": 3}}");
    return std::move(out);
  };
  json j;
  const std::string_view t = file->text();
  const char* seen = t.data();
  StateSax sax(j, t.data(), &seen);
  // Never throws: every problem of the text comes back through sax.parse_error.
  json::sax_parse(ReadingAt(t.data(), &seen), ReadingAt(t.data() + t.size(), nullptr), &sax);
  if (sax.error_at) return fail(*sax.error_at, sax.error);
  if (!j.is_object()) return fail(0, "the state must be a JSON object, one entry per ruleset");
  const auto entry_at = [&](const std::string& key) {
    const auto e = sax.entry_at.find(key);
    return e == sax.entry_at.end() ? std::size_t{0} : e->second;
  };
  State state;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!it.value().is_object()) {
      return fail(entry_at(it.key()), fmt::format("the entry \"{}\" must be an object of counters, got {}", it.key(),
                                                  it.value().dump(-1, ' ', false, json::error_handler_t::replace)));
    }
    for (auto c = it.value().begin(); c != it.value().end(); ++c) {
      std::string why;
      auto v = from_json(c.value(), 1, why);
      const auto at = sax.counter_at.find({it.key(), c.key()});
      if (!v) {
        return fail(at == sax.counter_at.end() ? entry_at(it.key()) : at->second,
                    fmt::format("{}.{}: {}", it.key(), c.key(), why));
      }
      state.set(it.key(), c.key(), std::move(*v));
    }
  }
  out.state = std::move(state);
  return out;
}

std::string state_to_json(const State& state) {
  json j = json::object();
  for (const auto& [ruleset, values] : state.all()) {
    json o = json::object();
    for (const auto& [name, v] : values) o[name] = to_json(v);
    j[ruleset] = std::move(o);
  }
  // A string of the language may hold bytes that are not UTF-8; they must not stop the save.
  return j.dump(2, ' ', false, json::error_handler_t::replace);
}

std::vector<std::string> state_problems(const Ruleset& ruleset, const State& state) {
  std::vector<std::string> out;
  const auto entry = state.all().find(ruleset.name);
  if (entry == state.all().end()) return out;
  std::vector<std::string> names;
  for (const auto& s : ruleset.state) names.push_back(s.name);
  for (const auto& [name, v] : entry->second) {
    const StateInfo* info = ruleset.state_counter(name);
    const std::string where = fmt::format("{}.{}", ruleset.name, name);
    if (!info) {
      std::string hint;
      if (const auto near = closest_name(name, names); !near.empty()) {
        hint = fmt::format(" (did you mean '{}'?)", near);
      } else if (names.empty()) {
        hint = "; it keeps no state";
      } else {
        hint = fmt::format("; its state: {}", fmt::join(names, ", "));
      }
      out.push_back(fmt::format("the ruleset {} has no state '{}'{}", ruleset.name, name, hint));
      continue;
    }
    if (auto problem = detail::type_problem(info->type, v, where)) out.push_back(std::move(*problem));
  }
  return out;
}

std::vector<std::pair<std::string, Value>> state_of(const Ruleset& ruleset, const State& state) {
  std::vector<std::pair<std::string, Value>> out;
  for (const auto& s : ruleset.state) {
    const Value* v = state.find(ruleset.name, s.name);
    out.emplace_back(s.name, v ? *v : s.default_value.value_or(Value(NoneValue{})));
  }
  return out;
}

}  // namespace alea
