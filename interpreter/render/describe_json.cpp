// interpreter/render/describe_json.cpp — alea.describe/1: a ruleset's documentation, from what
// its file declares, as `alea describe NAME --json` prints it (json_documents.hpp). The same
// facts as the text `alea describe` prints (cli/describe.cpp), in the same order.
#include <algorithm>

#include "dsl/ast.hpp"
#include "interpreter/api.hpp"
#include "interpreter/render/json_documents.hpp"
#include "interpreter/render/json_parts.hpp"
#include "interpreter/rulesets/ruleset.hpp"

namespace alea {

namespace {

using namespace render_json_parts;

json type_json(const ast::TypeSpec& t) {
  json o = {{"type", ast::type_name(t)}};
  o["min"] = t.min ? json(*t.min) : json(nullptr);
  o["max"] = t.max ? json(*t.max) : json(nullptr);
  // A field bounded by another field of its record: that field's name.
  o["min_field"] = t.min_field.empty() ? json(nullptr) : json(t.min_field);
  o["max_field"] = t.max_field.empty() ? json(nullptr) : json(t.max_field);
  o["choices"] = t.choices;
  o["face"] = t.face.empty() ? json(nullptr) : json(t.face);
  o["min_length"] = t.min_length ? json(*t.min_length) : json(nullptr);
  o["max_length"] = t.max_length ? json(*t.max_length) : json(nullptr);
  return o;
}

json params_json(const std::vector<ParamInfo>& params) {
  json a = json::array();
  for (const auto& p : params) {
    json o = type_json(p.type);
    o["name"] = p.name;
    o["required"] = !p.default_value;
    o["default"] = p.default_value ? value_json(*p.default_value) : json(nullptr);
    o["doc"] = p.doc;
    a.push_back(std::move(o));
  }
  return a;
}

json requirements_json(const std::vector<RequirementInfo>& requirements) {
  json a = json::array();
  for (const auto& q : requirements) {
    a.push_back({{"check", q.check}, {"message", q.message},
                 {"argument", q.argument.empty() ? json(nullptr) : json(q.argument)}});
  }
  return a;
}

json changes_json(const std::vector<ChangeInfo>& changes) {
  json a = json::array();
  for (const auto& c : changes) {
    a.push_back({{"counter", c.counter},
                 {"op", c.op},
                 {"value", c.value.empty() ? json(nullptr) : json(c.value)},
                 {"when", c.when.empty() ? json(nullptr) : json(c.when)}});
  }
  return a;
}

json state_json(const Ruleset& r) {
  std::vector<ParamInfo> state(r.state.begin(), r.state.end());
  json a = params_json(state);
  for (std::size_t i = 0; i < a.size(); ++i) a[i]["at_limit"] = r.state[i].clamp ? "clamp" : "error";
  json c = json::array();
  for (const auto& ch : r.choices) {
    ast::TypeSpec t = ch.type;
    t.optional = false;
    json o = type_json(t);
    o["name"] = ch.name;
    o["flag"] = ch.flag.empty() ? json(nullptr) : json("--" + ch.flag);
    o["doc"] = ch.doc;
    c.push_back(std::move(o));
  }
  json t = json::array();
  for (const auto& scale : r.tiers) {
    json levels = json::array();
    for (std::size_t i = 0; i < scale.levels.size(); ++i) {
      const auto& l = scale.levels[i];
      levels.push_back({{"name", l.name},
                        {"from", l.from ? json(*l.from) : json(nullptr)},
                        {"to", i + 1 < scale.levels.size() ? json(*scale.levels[i + 1].from - 1) : json(nullptr)},
                        {"doc", l.doc}});
    }
    t.push_back({{"name", scale.name}, {"doc", scale.doc}, {"levels", levels}});
  }
  return {{"state", a}, {"choices", c}, {"tiers", t}};
}


json types_json(const Ruleset& r) {
  json a = json::array();
  for (const auto& t : r.types) a.push_back({{"name", t.name}, {"doc", t.doc}, {"fields", params_json(t.fields)}});
  return a;
}

// The examples' calls, as typed: what `alea roll` is given.
std::vector<std::string> example_calls(const MechanicInfo& m) {
  std::vector<std::string> out;
  for (const auto& e : m.examples) out.push_back(e.call);
  return out;
}

json mechanic_json(const Ruleset& r, const MechanicInfo& m) {
  json fields = json::array();
  for (const auto& f : m.result) {
    fields.push_back({{"name", f.name},
                      {"type", ast::type_name(f.type)},
                      {"outcomes", f.type.choices},
                      {"outcome_docs", f.type.choice_docs},
                      {"doc", f.doc}});
  }
  json returns = nullptr;
  if (m.returns)
    returns = {{"type", ast::type_name(*m.returns)},
               {"outcomes", m.returns->choices},
               {"doc", m.returns_doc}};
  json out = {{"name", m.name},
          {"call", r.ident + "." + m.name},
          {"doc", m.doc},
          {"group", m.group.empty() ? json(nullptr) : json(m.group)},
          {"params", params_json(m.params)},
          {"reads", m.settable},
          {"sides", m.sides},
          {"side_fields", params_json(m.side_fields)},
          {"result", fields},
          {"returns", returns},
          {"requires", requirements_json(m.requirements)},
          {"changes", changes_json(m.changes)},
          {"odds", m.sampled_odds ? "sampled" : "auto"},
          {"examples", example_calls(m)}};
  // A mechanic the rules may forbid: the bool field of its record that allows it, and the one that
  // says why not (absent when it declares no refusal).
  if (!m.refusal_allowed.empty()) out["refusal"] = {{"allowed", m.refusal_allowed}, {"why", m.refusal_why}};
  return out;
}

json ruleset_json(const Ruleset& r) {
  json mechanics = json::array();
  for (const auto& m : r.mechanics) mechanics.push_back(mechanic_json(r, m));
  json out = {{"name", r.name},
          {"ident", r.ident},
          {"title", r.title},
          {"source", r.source},
          {"doc", r.doc},
          {"file", r.file},
          {"types", types_json(r)},
          {"parameters", params_json(r.parameters)},
          {"state", state_json(r)["state"]},
          {"choices", state_json(r)["choices"]},
          {"tiers", state_json(r)["tiers"]},
          {"mechanics", mechanics}};
  // A variant: what it extends and what it changes.
  if (!r.extends.empty()) {
    out["extends"] = r.extends;
    out["overrides"] = r.overrides;
  }
  return out;
}

}  // namespace

std::string describe_ruleset_document(const Ruleset& r) {
  json doc = document_head(describe_schema);
  doc["describes"] = "ruleset";
  doc.update(ruleset_json(r));
  return dump(doc, 2);
}

std::string describe_mechanic_document(const Ruleset& r, const MechanicInfo& m) {
  json doc = document_head(describe_schema);
  doc["describes"] = "mechanic";
  doc.update(mechanic_json(r, m));
  doc["ruleset"] = r.name;
  doc["title"] = r.title;
  doc["file"] = r.file;
  doc["ruleset_parameters"] = params_json(read_by(m, r.parameters));
  doc["types"] = types_json(r);
  return dump(doc, 2);
}

}  // namespace alea
