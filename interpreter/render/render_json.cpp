// interpreter/render/render_json.cpp — an Outcome as one JSON document for tools.
//
// {"expression": "4d6kh3", "ok": true, "value": 14, "seed": 42 (only for random dice),
//  "dice": [{"id": 0, "die": "d6", "face": 4, "rolled": 4, "fate": "kept", "origin": "rolled",
//            "marks": [], "parent": null, "partner": null, "roll": "4d6", "tags": null, "by": null}, …],
//  (a die rolled by roll_each has its description's other fields as "tags": {"colour": "red"})
//  "events": []}
// On error: {"expression": …, "ok": false, "error": {"code", "message", "location":
// {"file", "line", "column"}, "notes": [{"message", "location"}, …]}, "dice": […]} — dice
// rolled before the error are kept; a location is null where there is none.
#include <nlohmann/json.hpp>

#include "interpreter/api.hpp"

namespace alea {
namespace {

// Keys in the order written: a record's fields as the program or ruleset
// declares them, the document's keys as below.
using json = nlohmann::ordered_json;

json value_json(const Value& v) {
  switch (v.kind()) {
    case ValueKind::Int: return *v.as_int();
    case ValueKind::Bool: return *v.as_bool();
    case ValueKind::Str: return *v.as_str();
    case ValueKind::Pool: {
      const auto t = pool_total(*v.as_pool());
      return t ? json(*t) : json(nullptr);
    }
    case ValueKind::List: {
      json a = json::array();
      for (const auto& i : *v.as_list()) a.push_back(value_json(i));
      return a;
    }
    case ValueKind::Record: {
      json o = json::object();
      const auto& r = *v.as_record();
      for (std::size_t i = 0; i < r.names.size(); ++i) o[r.names[i]] = value_json(r.values[i]);
      return o;
    }
    case ValueKind::None: return nullptr;
  }
  throw std::logic_error("unreachable: ValueKind");
}

json span_json(const Span& s) {
  if (s.empty()) return nullptr;
  return std::string(s.file->slice(s));
}

json location_json(const Span& s) {
  if (s.empty()) return nullptr;
  const LineColumn lc = s.file->line_column(s.begin);
  return {{"file", s.file->name()}, {"line", lc.line}, {"column", lc.column}};
}

json diagnostic_json(const Diagnostic& d) {
  json notes = json::array();
  for (const auto& n : d.notes) notes.push_back({{"message", n.message}, {"location", location_json(n.span)}});
  return {{"code", std::string(code_name(d.code))},
          {"message", d.message},
          {"location", location_json(d.span)},
          {"notes", std::move(notes)}};
}

}  // namespace

std::string_view fate_name(DieFate f) {
  switch (f) {
    case DieFate::Kept: return "kept";
    case DieFate::Dropped: return "dropped";
    case DieFate::Rerolled: return "rerolled";
    case DieFate::Cancelled: return "cancelled";
    case DieFate::Failed: return "failed";
    case DieFate::Added: return "added";
  }
  throw std::logic_error("unreachable: DieFate");
}

std::string_view origin_name(DieOrigin o) {
  switch (o) {
    case DieOrigin::Rolled: return "rolled";
    case DieOrigin::Exploded: return "exploded";
    case DieOrigin::Compounded: return "compounded";
    case DieOrigin::Penetrated: return "penetrated";
    case DieOrigin::Rerolled: return "rerolled";
  }
  throw std::logic_error("unreachable: DieOrigin");
}

std::string render_value_json(const Value& value) {
  return value_json(value).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string render_diagnostic_json(const Diagnostic& d) {
  return diagnostic_json(d).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string render_json(const Outcome& o, std::string_view expression, std::optional<std::uint64_t> seed) {
  json doc;
  doc["expression"] = std::string(expression);
  if (seed) doc["seed"] = *seed;
  doc["ok"] = o.ok();
  if (o.ok()) {
    doc["value"] = o.value ? value_json(*o.value) : json(nullptr);
    if (o.value && o.value->as_pool()) doc["successes"] = o.value->as_pool()->successes;
  } else {
    doc["error"] = diagnostic_json(*o.error);
  }
  json dice = json::array();
  const Trace& t = o.trace;
  for (std::size_t i = 0; i < t.dice.size(); ++i) {
    const DieRecord& d = t.dice[i];
    json marks = json::array();
    if (d.marks & MarkExploded) marks.push_back("exploded");
    if (d.marks & MarkSuccess) marks.push_back("success");
    if (d.marks & MarkDouble) marks.push_back("double");
    if (d.marks & MarkFailure) marks.push_back("failure");
    if (d.marks & MarkClamped) marks.push_back("clamped");
    if (d.marks & MarkCancelling) marks.push_back("cancelling");
    dice.push_back({{"id", i},
                    {"die", t.kinds[d.kind].name()},
                    {"face", d.face},
                    {"rolled", d.rolled},
                    {"fate", std::string(fate_name(d.fate))},
                    {"origin", std::string(origin_name(d.origin))},
                    {"marks", marks},
                    {"parent", d.parent == no_die ? json(nullptr) : json(d.parent)},
                    {"partner", d.partner == no_die ? json(nullptr) : json(d.partner)},
                    {"roll", span_json(t.groups[d.group].roll)},
                    {"tags", d.tags == 0 ? json(nullptr) : value_json(t.tags[d.tags - 1])},
                    {"by", span_json(d.fate_by)}});
  }
  doc["dice"] = dice;
  json events = json::array();
  for (const auto& e : t.events) events.push_back({{"at", span_json(e.span)}, {"text", e.text}});
  doc["events"] = events;
  return doc.dump(-1, ' ', false, json::error_handler_t::replace);  // invalid UTF-8 becomes U+FFFD
}

}  // namespace alea
