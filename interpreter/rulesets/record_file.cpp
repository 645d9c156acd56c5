// interpreter/rulesets/record_file.cpp — reading a file of records (YAML or JSON) into
// literals positioned in the file, and checking an entry against a declared type.
#include "interpreter/rulesets/record_file.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "interpreter/rulesets/ruleset_loader_parts.hpp"
#include "interpreter/rulesets/yaml_bounds.hpp"
#include "interpreter/values/conform.hpp"

namespace alea {

namespace {

const char* const shape_note = "a file of records is a mapping of entries, each a record, as in\n"
                               "  ivan: {pool: 3, colour: red}";

class RecordReader {
 public:
  RecordReader(std::string text, std::string name, const Limits& limits)
      : file_(SourceFile::make(std::move(name), std::move(text))), limits_(limits) {}

  RecordFile run() {
    RecordFile out;
    out.source = file_;
    const YamlBounds bounds{YamlBounds{}.max_nodes,
                            static_cast<std::size_t>(std::max<std::int64_t>(1, limits_.max_value_depth + 1))};
    YAML::Node root;
    try {
      BoundedYaml yaml = load_bounded_yaml(file_->text(), bounds);
      if (yaml.over) return overflow(*yaml.over, bounds);
      root = std::move(yaml.root);
    } catch (const YAML::ParserException& e) {
      const auto pos = offset_of(e.mark);
      error(DiagCode::RulesetSyntax, file_->span(pos, pos + 1), fmt::format("this is not valid YAML or JSON: {}", e.msg));
      return finish(std::move(out));
    }
    if (!root.IsMap()) {
      error(DiagCode::RulesetFieldType, span_of(root), "the file must be a mapping of named entries")
          .note({}, shape_note);
      return finish(std::move(out));
    }
    if (!sizes(root)) return finish(std::move(out));
    std::set<std::string> seen;
    for (auto it = root.begin(); it != root.end(); ++it) {
      if (!it->first.IsScalar()) {
        error(DiagCode::RulesetFieldType, span_of(it->first), "an entry's name must be text").note({}, shape_note);
      } else if (!seen.insert(it->first.Scalar()).second) {
        error(DiagCode::RulesetInvalidValue, span_of(it->first),
              fmt::format("the entry '{}' appears twice in the file", it->first.Scalar()));
      }
      // A field's name must be text too, at any depth.
      keys(it->second);
    }
    if (!diags_.empty()) return finish(std::move(out));
    const auto span = [this](const YAML::Node& n) { return span_of(n); };
    out.root = detail::to_expr(root, span);
    // An entry that does not fit is shown at its name, where the reader looks for it.
    auto& entries = std::get<ast::RecordLit>(out.root->kind);
    for (std::size_t i = 0; i < entries.values.size(); ++i) {
      if (std::holds_alternative<ast::RecordLit>(entries.values[i]->kind)) {
        entries.values[i]->span = entries.name_spans[i];
      }
    }
    out.value = detail::to_value(root);
    return out;
  }

 private:
  std::shared_ptr<const SourceFile> file_;
  const Limits& limits_;
  Diagnostics diags_;

  RecordFile finish(RecordFile out) {
    out.diagnostics = std::move(diags_);
    return out;
  }

  Diagnostic& error(DiagCode code, Span at, std::string message) {
    return diags_.emplace_back(code, at, std::move(message));
  }

  [[nodiscard]] std::uint32_t offset_of(const YAML::Mark& m) const {
    if (m.pos < 0) return 0;
    return static_cast<std::uint32_t>(std::min<std::size_t>(static_cast<std::size_t>(m.pos), file_->text().size()));
  }

  // The scalar's text (with its quotes), else one character, never past the end of its line.
  [[nodiscard]] Span span_of(const YAML::Node& n) const {
    const auto b = offset_of(n.Mark());
    std::size_t len = 1;
    if (n.IsScalar()) len = std::max<std::size_t>(1, n.Scalar().size() + (n.Tag() == "!" ? 2 : 0));
    const auto nl = file_->text().find('\n', b);
    const auto e = std::min({b + len, file_->text().size(), nl});
    return file_->span(b, static_cast<std::uint32_t>(std::max<std::size_t>(b, e)));
  }

  RecordFile overflow(const YamlOverflow& over, const YamlBounds& bounds) {
    const auto pos = offset_of(over.mark);
    error(DiagCode::SizeLimitExceeded, file_->span(pos, pos + 1),
          over.too_deep     ? "lists and mappings nest too deep here (max_value_depth)"
          : over.as_written ? "the file holds too many values here"
                            : "the file's aliases expand to too many values here")
        .note({}, fmt::format("a file of records may nest {} levels deep and hold {} values, aliases expanded",
                              bounds.max_depth, bounds.max_nodes));
    return finish(RecordFile{file_, nullptr, Value(), {}});
  }

  // Whether every list and mapping holds at most max_collection_size items.
  bool sizes(const YAML::Node& n) {
    const auto max = static_cast<std::size_t>(std::max<std::int64_t>(0, limits_.max_collection_size));
    if ((n.IsSequence() || n.IsMap()) && n.size() > max) {
      error(DiagCode::SizeLimitExceeded, span_of(n),
            fmt::format("this {} has {} items; a list or record holds at most {} (max_collection_size)",
                        n.IsMap() ? "mapping" : "list", n.size(), limits_.max_collection_size));
      return false;
    }
    if (n.IsSequence()) {
      for (const auto& i : n) {
        if (!sizes(i)) return false;
      }
    } else if (n.IsMap()) {
      for (auto it = n.begin(); it != n.end(); ++it) {
        if (!sizes(it->second)) return false;
      }
    }
    return true;
  }

  void keys(const YAML::Node& n) {
    if (n.IsSequence()) {
      for (const auto& i : n) keys(i);
    } else if (n.IsMap()) {
      std::set<std::string> seen;
      for (auto it = n.begin(); it != n.end(); ++it) {
        if (!it->first.IsScalar()) {
          error(DiagCode::RulesetFieldType, span_of(it->first), "a field's name must be text");
        } else if (!seen.insert(it->first.Scalar()).second) {
          error(DiagCode::RulesetInvalidValue, span_of(it->first),
                fmt::format("the field '{}' appears twice in this record", it->first.Scalar()));
        }
        keys(it->second);
      }
    }
  }
};

}  // namespace

RecordEntry RecordEntry::field(std::string_view name) const {
  const auto* r = literal ? std::get_if<ast::RecordLit>(&literal->kind) : nullptr;
  const auto* v = value ? value->as_record() : nullptr;
  if (!r || !v) return {};
  const auto it = std::find(r->names.begin(), r->names.end(), name);
  if (it == r->names.end()) return {};
  const auto i = static_cast<std::size_t>(it - r->names.begin());
  return {r->values[i].get(), &v->values[i]};
}

std::vector<std::string> RecordEntry::names() const {
  const auto* r = literal ? std::get_if<ast::RecordLit>(&literal->kind) : nullptr;
  return r ? r->names : std::vector<std::string>{};
}

RecordFile read_record_file(std::string text, std::string file_name, const Limits& limits) {
  if (limits.max_file_bytes >= 0 && text.size() > static_cast<std::size_t>(limits.max_file_bytes)) {
    RecordFile out;
    out.source = SourceFile::make(std::move(file_name), "");
    out.diagnostics.emplace_back(DiagCode::InputTooLong, out.source->span(0, 0),
                                 fmt::format("the file is {} bytes; at most {} may be read (max_file_bytes)",
                                             text.size(), limits.max_file_bytes));
    return out;
  }
  return RecordReader(std::move(text), std::move(file_name), limits).run();
}

std::optional<Diagnostic> entry_problem(const ast::TypeSpec& t, const RecordEntry& e, std::string_view what) {
  return detail::literal_problem(t, *e.value, *e.literal, what);
}

}  // namespace alea
