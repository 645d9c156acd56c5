// interpreter/render/json_documents.cpp — the error object every document shares, and the
// alea.error/1, alea.check/1 and alea.rulesets/1 documents (json_documents.hpp). The describe
// and stats documents are in describe_json.cpp and stats_json.cpp.
#include "interpreter/render/json_documents.hpp"

#include "interpreter/api.hpp"
#include "interpreter/render/json_parts.hpp"
#include "interpreter/rulesets/ruleset.hpp"

namespace alea {

namespace render_json_parts {

namespace {

json location_json(const Span& s) {
  if (s.empty()) return nullptr;
  const LineColumn lc = s.file->line_column(s.begin);
  return {{"file", s.file->name()}, {"line", lc.line}, {"column", lc.column}};
}

}  // namespace

json diagnostic_json(const ErrorReport& report) {
  const Diagnostic& d = report.diagnostic;
  json notes = json::array();
  for (const auto& n : d.notes) notes.push_back({{"message", n.message}, {"location", location_json(n.span)}});
  return {{"code", std::string(code_name(d.code))},
          {"message", d.message},
          {"location", location_json(d.span)},
          {"notes", std::move(notes)},
          {"rendered", report.rendered}};
}

json value_json(const Value& v) { return json::parse(render_value_json(v)); }

json document_head(std::string_view schema) { return {{"schema", std::string(schema)}}; }

}  // namespace render_json_parts

using namespace render_json_parts;

ErrorReport error_report(const Diagnostic& d) { return {d, render_text(d)}; }

std::string diagnostic_document_json(const ErrorReport& report) { return dump(diagnostic_json(report)); }

std::string render_diagnostic_json(const Diagnostic& d) { return diagnostic_document_json(error_report(d)); }

std::string error_document(std::string_view command, const ErrorReport& error) {
  json doc = document_head(error_schema);
  doc["ok"] = false;
  doc["command"] = command.empty() ? json(nullptr) : json(std::string(command));
  doc["error"] = diagnostic_json(error);
  return dump(doc);
}

std::string check_document(const std::vector<CheckedFile>& files) {
  json list = json::array();
  bool all_ok = true;
  for (const auto& f : files) {
    json errors = json::array();
    for (const auto& e : f.errors) errors.push_back(diagnostic_json(e));
    all_ok = all_ok && f.errors.empty();
    list.push_back({{"file", f.file}, {"ok", f.errors.empty()}, {"diagnostics", std::move(errors)}});
  }
  json doc = document_head(check_schema);
  doc["ok"] = all_ok;
  doc["files"] = std::move(list);
  return dump(doc, 2);
}

std::string rulesets_document(const std::vector<ListedRuleset>& rulesets) {
  json list = json::array();
  for (const auto& e : rulesets) {
    const Ruleset* r = e.ruleset;
    json mechanics = json::array();
    if (r) {
      for (const auto& m : r->mechanics) mechanics.push_back(m.name);
    }
    list.push_back({{"name", e.name},
                    {"title", r ? json(r->title) : json(nullptr)},
                    {"file", e.file},
                    {"mechanics", std::move(mechanics)},
                    {"ok", r != nullptr}});
  }
  json doc = document_head(rulesets_schema);
  doc["rulesets"] = std::move(list);
  return dump(doc, 2);
}

}  // namespace alea
