// interpreter/rulesets/state.cpp — State and Choices, their JSON form, and checking a
// state against the counters its ruleset declares.
#include "interpreter/rulesets/state.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

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
      why = fmt::format("{} is not a whole number", j.dump());
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
        } else if constexpr (std::is_same_v<T, PoolPtr>) {
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
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    // e.byte counts from 1 and points just past the offending character.
    std::string what = e.what();
    if (const auto p = what.find("syntax error while parsing value - "); p != std::string::npos) {
      what = what.substr(p + 35);
    } else if (const auto q = what.find(": "); q != std::string::npos) {
      what = what.substr(q + 2);
    }
    return fail(e.byte == 0 ? 0 : e.byte - 1, fmt::format("this is not valid JSON: {}", what));
  }
  if (!j.is_object()) return fail(0, "the state must be a JSON object, one entry per ruleset");
  State state;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!it.value().is_object()) {
      return fail(0, fmt::format("the entry \"{}\" must be an object of counters, got {}", it.key(),
                                 it.value().dump()));
    }
    for (auto c = it.value().begin(); c != it.value().end(); ++c) {
      std::string why;
      auto v = from_json(c.value(), 1, why);
      if (!v) return fail(0, fmt::format("{}.{}: {}", it.key(), c.key(), why));
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
  return j.dump(2);
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
    const ast::TypeSpec& t = info->type;
    if (!type_admits(t, v) || v.as_pool()) {
      out.push_back(fmt::format("{} is {}; it must be {} {}", where, to_display(v),
                                t.kind == ast::TypeSpec::Int ? "an" : "a", ast::type_name(t)));
      continue;
    }
    if (const auto* i = v.as_int()) {
      if ((t.min && *i < *t.min) || (t.max && *i > *t.max)) {
        const std::string range = t.min && t.max ? fmt::format("from {} to {}", *t.min, *t.max)
                                  : t.min        ? fmt::format("at least {}", *t.min)
                                                 : fmt::format("at most {}", *t.max);
        out.push_back(fmt::format("{} is {}; it must be {}", where, *i, range));
      }
    }
    if (const auto* s = v.as_str(); s && !t.choices.empty() &&
        std::find(t.choices.begin(), t.choices.end(), *s) == t.choices.end()) {
      out.push_back(fmt::format("{} is \"{}\"; it must be one of {}", where, *s, fmt::join(t.choices, ", ")));
    }
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
