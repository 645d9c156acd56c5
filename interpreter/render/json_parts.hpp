// interpreter/render/json_parts.hpp — internal to interpreter/render/: the pieces the JSON
// documents share, as nlohmann trees. Only the renderers' sources include it: nlohmann stays out
// of every header an embedder reads.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "interpreter/render/json_documents.hpp"
#include "interpreter/values/value.hpp"

namespace alea::render_json_parts {

// Keys in the order written: the documents' as their builders list them, a record's fields as
// the program or ruleset declares them.
using json = nlohmann::ordered_json;

// Compact (indent -1) or indented; text that is not UTF-8 becomes U+FFFD rather than throwing.
[[nodiscard]] inline std::string dump(const json& j, int indent = -1) {
  return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

// The one definition of an error's object, which every document uses (json_documents.hpp).
[[nodiscard]] json diagnostic_json(const ErrorReport& report);

// A value as render_value_json writes it, as a tree to build on.
[[nodiscard]] json value_json(const Value& v);

// {"schema": name}: the start of every document, whose first key is its schema.
[[nodiscard]] json document_head(std::string_view schema);

}  // namespace alea::render_json_parts
