// interpreter/render/render_json.cpp — an Outcome as one JSON document for tools, alea.roll/1.
//
// {"schema": "alea.roll/1", "expression": "4d6kh3", "ok": true, "value": 14, "seed": 42 (only for random dice),
//  "dice": [{"id": 0, "die": "d6", "face": 4, "rolled": 4, "fate": "kept", "origin": "rolled",
//            "marks": [], "parent": null, "partner": null, "roll": "4d6", "tags": null, "by": null}, …],
//  (a die rolled by roll_each has its description's other fields as "tags": {"colour": "red"})
//  "events": []}
// On error: {"schema": …, "expression": …, "ok": false, "error": {…}, "dice": […]}, the error as
// every document shows one (json_documents.cpp) — dice rolled before the error are kept.
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "interpreter/api.hpp"
#include "interpreter/render/json_parts.hpp"

namespace alea {
namespace {

using render_json_parts::dump;
using render_json_parts::json;

// Compact JSON (as json::dump(-1) writes it) appended to `out`, stopping once
// `out` passes `max` bytes: a value that shares its parts can be far larger
// than memory as JSON. Returns false when it stopped.
bool write_value(std::string& out, const Value& v, std::size_t max) {
  if (out.size() > max) return false;
  switch (v.kind()) {
    case ValueKind::Int: out += std::to_string(*v.as_int()); break;
    case ValueKind::Bool: out += *v.as_bool() ? "true" : "false"; break;
    case ValueKind::Str: out += dump(*v.as_str()); break;  // invalid UTF-8 becomes U+FFFD
    case ValueKind::Pool: {
      const auto t = pool_total(*v.as_pool());
      out += t ? std::to_string(*t) : "null";
      break;
    }
    case ValueKind::List: {
      out += '[';
      bool first = true;
      for (const auto& i : *v.as_list()) {
        if (!first) out += ',';
        first = false;
        if (!write_value(out, i, max)) return false;
      }
      out += ']';
      break;
    }
    case ValueKind::Record: {
      const auto& r = *v.as_record();
      out += '{';
      for (std::size_t i = 0; i < r.names.size(); ++i) {
        if (i) out += ',';
        out += dump(r.names[i]);
        out += ':';
        if (!write_value(out, r.values[i], max)) return false;
      }
      out += '}';
      break;
    }
    case ValueKind::None: out += "null"; break;
  }
  return out.size() <= max;
}

json span_json(const Span& s) {
  if (s.empty()) return nullptr;
  return std::string(s.file->slice(s));
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

namespace {

std::string too_large_message(std::size_t max) {
  return fmt::format("the JSON would pass {} bytes (max_render_size)", max);
}


std::string die_json(const Trace& t, std::size_t i, std::size_t max) {
  const DieRecord& d = t.dice[i];
  json marks = json::array();
  if (d.marks & MarkExploded) marks.push_back("exploded");
  if (d.marks & MarkSuccess) marks.push_back("success");
  if (d.marks & MarkDouble) marks.push_back("double");
  if (d.marks & MarkFailure) marks.push_back("failure");
  if (d.marks & MarkClamped) marks.push_back("clamped");
  if (d.marks & MarkCancelling) marks.push_back("cancelling");
  json head = {{"id", i},
               {"die", t.kinds[d.kind].name()},
               {"face", d.face},
               {"rolled", d.rolled},
               {"fate", std::string(fate_name(d.fate))},
               {"origin", std::string(origin_name(d.origin))},
               {"marks", marks},
               {"parent", d.parent == no_die ? json(nullptr) : json(d.parent)},
               {"partner", d.partner == no_die ? json(nullptr) : json(d.partner)},
               {"roll", span_json(t.groups[d.group].roll)}};
  std::string out = dump(head);
  out.pop_back();  // the object goes on: its tags may be large, so they are written bounded
  out += ",\"tags\":";
  if (d.tags == 0) out += "null";
  else write_value(out, t.tags[d.tags - 1], max);
  out += ",\"by\":" + dump(span_json(d.fate_by)) + "}";
  return out;
}

}  // namespace

std::string render_value_json(const Value& value, std::int64_t max_bytes) {
  const std::size_t max = byte_limit(max_bytes);
  std::string out;
  if (write_value(out, value, max)) return out;
  return dump({{"error", {{"code", "SizeLimitExceeded"}, {"message", too_large_message(max)}}}});
}

std::string render_json(const Outcome& o, std::string_view expression, std::optional<std::uint64_t> seed,
                        std::int64_t max_bytes) {
  const std::size_t max = byte_limit(max_bytes);
  // Written piece by piece, in the order of the keys, so that a large value
  // or trace is never held whole as a json tree.
  std::string head = "{\"schema\":" + dump(std::string(roll_schema)) + ",\"expression\":" + dump(std::string(expression));
  if (seed) head += ",\"seed\":" + std::to_string(*seed);
  std::string out = head + ",\"ok\":" + (o.ok() ? "true" : "false");
  bool fits = true;
  if (o.ok()) {
    out += ",\"value\":";
    if (o.value) fits = write_value(out, *o.value, max);
    else out += "null";
    if (o.value && o.value->as_pool()) out += std::string(",\"successes\":") + (o.value->as_pool()->successes ? "true" : "false");
  } else {
    out += ",\"error\":" + render_diagnostic_json(*o.error);
  }
  const Trace& t = o.trace;
  out += ",\"dice\":[";
  for (std::size_t i = 0; fits && i < t.dice.size(); ++i) {
    if (i) out += ',';
    out += die_json(t, i, max);
    fits = out.size() <= max;
  }
  out += "],\"events\":[";
  for (std::size_t i = 0; fits && i < t.events.size(); ++i) {
    if (i) out += ',';
    out += dump({{"at", span_json(t.events[i].span)}, {"text", t.events[i].text}});
    fits = out.size() <= max;
  }
  out += "]}";
  if (fits && out.size() <= max) return out;
  // Refused whole: a cut document would read as a different value.
  const Diagnostic too_large(DiagCode::SizeLimitExceeded, Span{}, too_large_message(max));
  return head + ",\"ok\":false,\"error\":" + render_diagnostic_json(too_large) + ",\"dice\":[],\"events\":[]}";
}

std::string render_json_with_state(const Outcome& o, std::string_view expression, std::optional<std::uint64_t> seed,
                                   const std::vector<RulesetName>& what_if, std::int64_t max_bytes) {
  std::string doc = render_json(o, expression, seed, max_bytes);
  // A refused document (too large) says "ok": false although the run succeeded: left as it is.
  const auto ok_at = doc.find(",\"ok\":");
  if (!o.ok() || !o.state || doc.compare(ok_at, 10, ",\"ok\":true") != 0) return doc;
  doc.pop_back();  // the closing brace
  doc += ",\"state\":" + json::parse(state_to_json(*o.state)).dump();
  if (!what_if.empty()) {
    json names = json::array();
    for (const auto& n : what_if) names.push_back(fmt::format("{}.{}", n.ruleset, n.name));
    doc += ",\"what_if\":" + dump(names);
  }
  return doc + "}";
}

std::string failed_roll_document(std::string_view expression, const ErrorReport& error) {
  json doc = render_json_parts::document_head(roll_schema);
  doc["expression"] = std::string(expression);
  doc["ok"] = false;
  doc["error"] = render_json_parts::diagnostic_json(error);
  doc["dice"] = json::array();
  doc["events"] = json::array();
  return dump(doc);
}

}  // namespace alea
