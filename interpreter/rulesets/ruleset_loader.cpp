// interpreter/rulesets/ruleset_loader.cpp — yaml-cpp → Ruleset. The only file that knows YAML.
//
// Positions: yaml-cpp marks give the byte offset of every node, so structural
// errors point into the YAML file itself. An expression becomes a SourceFile
// embedded in the YAML file: a one-line scalar maps offset k to the column of
// its first character plus k; a `|` block maps its line i to the block's
// first line plus i, and adds the block's indentation to every column.
#include "interpreter/rulesets/ruleset_loader.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "dsl/printer.hpp"
#include "interpreter/eval/builtins.hpp"
#include "interpreter/rulesets/ruleset_files.hpp"
#include "interpreter/rulesets/ruleset_loader_parts.hpp"
#include "interpreter/rulesets/yaml_bounds.hpp"
#include "interpreter/rulesets/yaml_syntax.hpp"
#include "interpreter/values/conform.hpp"

namespace alea {
namespace {

using detail::is_identifier;

bool reads_as_die(std::string_view s) {
  return s.size() >= 2 && s[0] == 'd' && (std::isdigit(static_cast<unsigned char>(s[1])) || s == "dF");
}

class Loader final : public detail::RulesetReader {
 public:
  Loader(std::string text, std::string name, const RulesetLoadOptions& options)
      : options_(options), file_(SourceFile::make(std::move(name), std::move(text), options.origin)) {
    files_.push_back({file_, 0, detail::split_lines(file_->text())});
  }

  RulesetLoad overflow(const YamlOverflow& over) {
    const auto pos = locate(over.mark).second;
    error(DiagCode::RulesetInvalidValue, file_->span(pos, pos + 1),
          over.too_deep     ? (over.as_written ? "lists and mappings nest too deep here"
                                                : "lists and mappings nest too deep here: an alias may refer to itself")
          : over.as_written ? "the file holds too many values here"
                            : "the file's aliases expand to too many values here")
        .note({}, fmt::format("a ruleset may nest {} levels deep and hold {} values, aliases expanded",
                              YamlBounds{}.max_depth, YamlBounds{}.max_nodes));
    RulesetLoad out;
    out.diagnostics = std::move(diags_);
    return out;
  }

  // Each entry a reader would never see: the ruleset is not read on.
  RulesetLoad duplicates(const std::vector<YamlDuplicateKey>& twice) {
    for (const auto& [first, again] : twice) {
      error(DiagCode::RulesetInvalidValue, span_of(again),
            fmt::format("the key '{}' appears twice in this mapping", again.Scalar()))
          .note(span_of(first), "first here");
    }
    RulesetLoad out;
    out.diagnostics = std::move(diags_);
    return out;
  }

  RulesetLoad run() {
    RulesetLoad out;
    YAML::Node root;
    try {
      BoundedYaml yaml = load_bounded_yaml(file_->text());
      if (yaml.over) return overflow(*yaml.over);
      if (!yaml.twice.empty()) return duplicates(yaml.twice);
      root = std::move(yaml.root);
    } catch (const YAML::ParserException& e) {
      // Where the mistake starts, which is often before where the parser gave up.
      const YamlSyntaxError why = explain_yaml_error(file_->text(), e);
      auto& d = error(DiagCode::RulesetSyntax, file_->span(why.offset, why.offset + 1),
                      fmt::format("this is not valid YAML: {}", why.message));
      if (why.noticed) d.note(file_->span(*why.noticed, *why.noticed + 1), "the YAML reader noticed it here");
      d.note({}, "write an expression that holds ': ' or ' #', or starts with a quote, '{' or '[', as a '|' block");
      out.diagnostics = std::move(diags_);
      return out;
    }
    if (!root.IsMap()) {
      error(DiagCode::RulesetFieldType, file_->span(0, 1),
            "a ruleset is a YAML mapping with the keys schema, name, title, source and mechanics");
      out.diagnostics = std::move(diags_);
      return out;
    }
    if (std::as_const(root)["extends"]) {
      auto ext = detail::read_extends(*this, root, options_);
      if (!ext) {
        out.diagnostics = std::move(diags_);
        return out;
      }
      root = std::move(ext->root);
      function_blocks_ = std::move(ext->functions);
    } else if (const YAML::Node f = std::as_const(root)["functions"]) {
      function_blocks_.push_back({f, detail::FunctionBlock::Own, {}, {}});
    }
    top(root);
    detail::link_changes(*program_);
    if (diags_.empty()) detail::keep_settables_read(*this);
    if (!diags_.empty()) {
      out.diagnostics = std::move(diags_);
      return out;
    }
    auto compiled = std::make_shared<CompiledProgram>();
    compiled->source = file_;
    compiled->ast = std::move(program_);
    compiled->imports = options_.import_programs;
    // The bases' files too: an inherited example's place is in one (MechanicInfo::examples).
    for (std::size_t i = 1; i < files_.size(); ++i) sources_.push_back(files_[i].file);
    compiled->sources = std::move(sources_);
    ruleset_->program = std::move(compiled);
    out.ruleset = std::move(ruleset_);
    return out;
  }

 private:
  const RulesetLoadOptions& options_;
  std::shared_ptr<const SourceFile> file_;
  // file_ first, then the rulesets it extends, if any.
  std::vector<detail::YamlFile> files_;
  std::vector<detail::FunctionBlock> function_blocks_;
  Diagnostics diags_;
  std::shared_ptr<Ruleset> ruleset_ = std::make_shared<Ruleset>();
  std::unique_ptr<ast::Program> program_ = std::make_unique<ast::Program>();
  std::vector<std::shared_ptr<const SourceFile>> sources_;
  std::map<std::string, Span> names_;  // ruleset-level names, for duplicates
  RecordTypes record_types_;  // declared under `types:`
  // Mechanics whose body did not parse: calls to them are not reported again.
  std::set<std::string> unparsed_;
  // The 'functions' block did not parse: calls of its functions are not
  // reported again, one by one, as unknown.
  bool functions_unparsed_ = false;

  // ---- what the sections in other files use ------------------------------
  [[nodiscard]] const SourceFile& file() const override { return *file_; }
  ast::Program& program() override { return *program_; }
  Ruleset& ruleset() override { return *ruleset_; }
  void keep_source(std::shared_ptr<const SourceFile> src) override { sources_.push_back(std::move(src)); }
  RecordTypes& record_types() override { return record_types_; }
  std::vector<detail::YamlFile>& yaml_files() override { return files_; }

  // ---- positions and errors ------------------------------------------------
  // The file a mark is in (the last whose padding it is past) and the offset in that file.
  std::pair<const detail::YamlFile*, std::uint32_t> locate(const YAML::Mark& m) const {
    const auto pos = static_cast<std::size_t>(std::max(0, m.pos));
    const detail::YamlFile* f = &files_.front();
    for (const auto& g : files_) {
      if (g.start <= pos) f = &g;
    }
    const std::size_t size = f->file->text().size();
    return {f, static_cast<std::uint32_t>(std::min<std::size_t>(pos - f->start, size))};
  }
  Span span_of(const YAML::Node& n) const override {
    if (!n.IsDefined()) return {};  // a key looked up and missing: no place to name
    const auto [f, b] = locate(n.Mark());
    const SourceFile& file = *f->file;
    std::uint32_t len = 1;
    if (n.IsScalar() && n.Tag() == "?") len = static_cast<std::uint32_t>(std::max<std::size_t>(1, n.Scalar().size()));
    if (n.IsScalar() && n.Tag() == "!") len = static_cast<std::uint32_t>(n.Scalar().size() + 2);
    const auto e = std::min<std::uint32_t>(b + len, static_cast<std::uint32_t>(file.text().size()));
    // Never run past the end of the line.
    const auto nl = file.text().find('\n', b);
    return file.span(b, nl == std::string::npos ? e : std::min<std::uint32_t>(e, static_cast<std::uint32_t>(nl)));
  }
  Diagnostic& error(DiagCode code, Span span, std::string message) override {
    return diags_.emplace_back(code, span, std::move(message));
  }

  // ---- shapes ---------------------------------------------------------------
  // Checks a mapping's keys: every key known, the required ones present.
  bool keys(const YAML::Node& map, Span where, std::string_view what, const std::vector<Key>& allowed) override {
    if (!map.IsMap()) {
      error(DiagCode::RulesetFieldType, where, fmt::format("{} must be a mapping", what));
      return false;
    }
    std::vector<std::string> names;
    for (const auto& k : allowed) names.push_back(k.name);
    for (auto it = map.begin(); it != map.end(); ++it) {  // none twice: load_bounded_yaml
      const std::string key = it->first.Scalar();
      const Span at = span_of(it->first);
      if (std::find(names.begin(), names.end(), key) == names.end()) {
        auto& d = error(DiagCode::RulesetUnknownKey, at, fmt::format("unknown key '{}' in {}", key, what));
        if (auto near = closest_name(key, names); !near.empty()) {
          d.note({}, fmt::format("did you mean '{}'?", near));
        } else {
          std::string list;
          for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
          d.note({}, fmt::format("the keys here are: {}", list));
        }
      }
    }
    for (const auto& k : allowed) {
      if (k.required && !std::as_const(map)[k.name]) {
        auto& d = error(DiagCode::RulesetMissingKey, where, fmt::format("{} needs the key '{}'", what, k.name));
        if (k.name == "schema") d.note({}, "write 'schema: 1' first: the version of the ruleset format it is in");
      }
    }
    return true;
  }

  std::optional<std::string> text(const YAML::Node& n, std::string_view what) override {
    if (!n.IsScalar() || (n.Tag() == "?" && n.Scalar().empty())) {
      error(DiagCode::RulesetFieldType, span_of(n), fmt::format("{} must be text", what));
      return std::nullopt;
    }
    return n.Scalar();
  }

  // A name the language can use: checked once per ruleset-level definition.
  bool name(const YAML::Node& key, std::string_view what, bool ruleset_level) override {
    const std::string s = key.Scalar();
    const Span at = span_of(key);
    const auto& kw = keywords();
    if (!is_identifier(s)) {
      error(DiagCode::RulesetInvalidValue, at,
            fmt::format("the {} name '{}' must be a name of the language: letters, digits and '_', not starting with a digit", what, s));
      return false;
    }
    if (std::find(kw.begin(), kw.end(), s) != kw.end() || reads_as_die(s) || s == "true" || s == "false") {
      error(DiagCode::RulesetInvalidValue, at, fmt::format("'{}' is a reserved word and cannot name a {}", s, what));
      return false;
    }
    if (ruleset_level) {
      if (auto it = names_.find(s); it != names_.end()) {
        error(DiagCode::RulesetInvalidValue, at, fmt::format("the name '{}' is already used in this ruleset", s))
            .note(it->second, "it is first used here");
        return false;
      }
      names_[s] = at;
    }
    return true;
  }

  // ---- code -------------------------------------------------------------------
  // The expression text of a scalar, as a SourceFile whose positions are the YAML file's.
  std::shared_ptr<const SourceFile> code(const YAML::Node& n, std::string_view what) override {
    if (!n.IsScalar() || n.Scalar().empty()) {
      error(DiagCode::RulesetFieldType, span_of(n), fmt::format("{} must be text in the language", what));
      return nullptr;
    }
    const std::string& value = n.Scalar();
    const auto [in, pos] = locate(n.Mark());
    const SourceFile& file = *in->file;
    const std::vector<std::string>& lines = *in->lines;
    const std::string_view raw = file.text();
    const char first = pos < raw.size() ? raw[pos] : '\0';
    Embedding emb;
    emb.outer_name = file.name();
    emb.outer_lines = in->lines;
    if (first == '>') {
      error(DiagCode::RulesetInvalidValue, span_of(n),
            fmt::format("write {} as a '|' block or on one line: a '>' block folds its lines, so positions in it are lost", what));
      return nullptr;
    }
    if (first == '|') {
      // The block's lines start on the line after the indicator.
      const std::uint32_t line0 = file.line_column(pos).line;  // 0-based: the indicator's line is 1-based
      std::uint32_t indent = 0;
      for (std::size_t l = line0; l < lines.size(); ++l) {
        const auto& s = lines[l];
        const auto non_blank = s.find_first_not_of(' ');
        if (non_blank == std::string::npos) continue;
        indent = static_cast<std::uint32_t>(non_blank);
        break;
      }
      emb.first_line = line0 + 1;
      emb.first_column = indent + 1;
      emb.indent = indent;
    } else {
      const std::uint32_t start = pos + ((first == '"' || first == '\'') ? 1 : 0);
      if (raw.substr(start, value.size()) != value) {
        error(DiagCode::RulesetInvalidValue, span_of(n),
              fmt::format("write {} on one line (without escapes) or as a '|' block, so that errors in it can be shown where they are", what));
        return nullptr;
      }
      const LineColumn lc = file.line_column(start);
      emb.first_line = lc.line;
      emb.first_column = lc.column;
    }
    // A block's final line break would put an error at its end on the line after it.
    std::string code_text = value;
    while (!code_text.empty() && (code_text.back() == '\n' || code_text.back() == '\r')) code_text.pop_back();
    auto src = SourceFile::make_embedded(std::move(code_text), std::move(emb), file.origin());
    sources_.push_back(src);
    return src;
  }

  std::unique_ptr<ast::Program> parse_code(const std::shared_ptr<const SourceFile>& src) override {
    ParseResult r = parse(*src, options_.parse);
    if (!r.ok()) {
      for (auto& d : r.diagnostics) diags_.push_back(std::move(d));
      return nullptr;
    }
    return std::move(r.program);
  }

  // ---- sections ---------------------------------------------------------------
  void top(const YAML::Node& root) {
    keys(root, file_->span(0, 1), "the ruleset",
         {{"schema", true}, {"name", true}, {"title", true}, {"source", true}, {"doc", false},
          {"types", false}, {"parameters", false}, {"constants", false}, {"tables", false}, {"state", false},
          {"choices", false}, {"tiers", false}, {"functions", false}, {"mechanics", true}});
    Ruleset& r = *ruleset_;
    r.file = file_->name();
    if (const auto n = root["schema"]) {
      if (auto v = detail::read_integer(*this, n, "'schema'")) {
        if (*v != 1) error(DiagCode::RulesetInvalidValue, span_of(n), fmt::format("this alea reads schema 1, not {}", *v));
      }
    }
    if (const auto n = root["name"]) {
      if (auto v = text(n, "'name'")) {
        r.name = *v;
        r.ident = ruleset_ident(*v);
        const bool ok = std::all_of(v->begin(), v->end(), [](char c) {
          return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '_';
        });
        if (!ok || !std::islower(static_cast<unsigned char>((*v)[0]))) {
          error(DiagCode::RulesetInvalidValue, span_of(n),
                fmt::format("the name '{}' must start with a lower-case letter and hold only a-z, 0-9, '-' and '_'", *v));
        } else if (options_.expected_name && *options_.expected_name != *v) {
          error(DiagCode::RulesetInvalidValue, span_of(n),
                fmt::format("the ruleset is named '{}' but its file is '{}.yaml'; the two must agree", *v, *options_.expected_name));
        }
      }
    }
    if (const auto n = root["title"]) r.title = text(n, "'title'").value_or("");
    if (const auto n = root["source"]) r.source = text(n, "'source'").value_or("");
    if (const auto n = root["doc"]) r.doc = text(n, "'doc'").value_or("");
    if (const auto n = root["types"]) detail::read_types(*this, n);
    if (const auto n = root["parameters"]) parameters(n);
    if (const auto n = root["constants"]) constants(n);
    if (const auto n = root["tables"]) tables(n);
    if (const auto n = root["state"]) detail::read_state(*this, n);
    if (const auto n = root["choices"]) detail::read_choices(*this, n);
    if (const auto n = root["tiers"]) detail::read_tiers(*this, n);
    functions();
    if (const auto n = root["mechanics"]) mechanics(n);
    resolve_all();
    // In the order of the file, whichever check found them; each place computed once.
    std::vector<std::pair<std::pair<std::uint32_t, std::uint32_t>, std::size_t>> order;
    order.reserve(diags_.size());
    for (std::size_t i = 0; i < diags_.size(); ++i) {
      const Span& s = diags_[i].span;
      const LineColumn p = s.file ? s.file->line_column(s.begin) : LineColumn{};
      order.push_back({{p.line, p.column}, i});
    }
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    Diagnostics sorted;
    sorted.reserve(diags_.size());
    for (const auto& [place, i] : order) sorted.push_back(std::move(diags_[i]));
    diags_ = std::move(sorted);
  }

  std::optional<ParamInfo> param(const YAML::Node& key, const YAML::Node& spec, std::string_view what,
                                 bool default_required, const std::vector<Key>& extra = {}) override {
    const std::string pname = key.Scalar();
    const std::string context = fmt::format("the {} '{}'", what, pname);
    std::vector<Key> allowed = {{"type", true}, {"default", default_required}, {"min", false}, {"max", false},
                                {"choices", false}, {"items", false}, {"face", false}, {"min_length", false},
                                {"max_length", false}, {"doc", true}};
    allowed.insert(allowed.end(), extra.begin(), extra.end());
    if (!keys(spec, span_of(key), context, allowed)) return std::nullopt;
    if (spec["fields"]) {  // the fields of a record are a type of their own
      const std::string unknown = fmt::format("unknown key 'fields' in {}", context);
      for (auto it = diags_.rbegin(); it != diags_.rend(); ++it) {
        if (it->code != DiagCode::RulesetUnknownKey || it->message != unknown) continue;
        it->notes.clear();
        it->note({}, "a record's fields are declared once under 'types' (types: {fighter: {doc: …, fields: {…}}}), "
                     "then named: type: fighter, or type: list with items: fighter");
        break;
      }
    }
    ParamInfo p;
    p.name = pname;
    if (spec["doc"]) p.doc = text(spec["doc"], "'doc'").value_or("");
    auto t = spec["type"] ? detail::read_type(*this, spec["type"]) : std::nullopt;
    if (t) {
      detail::read_constraints(*this, spec, *t, "choices", what == "field" || what == "side field");
      detail::read_items(*this, spec, *t);
      p.type = *t;
    }
    if (const YAML::Node d = spec["default"]) {
      p.default_value = detail::to_value(d);
      if (t) {
        if (auto problem = detail::type_problem(*t, *p.default_value, fmt::format("the default of '{}'", pname))) {
          error(DiagCode::RulesetInvalidValue, span_of(d), std::move(*problem));
        }
      }
    }
    return p;
  }

  void parameters(const YAML::Node& n) {
    if (!n.IsMap()) {
      error(DiagCode::RulesetFieldType, span_of(n), "'parameters' must be a mapping from names to their descriptions");
      return;
    }
    for (auto it = n.begin(); it != n.end(); ++it) {
      if (!name(it->first, "parameter", true)) continue;
      auto p = param(it->first, it->second, "parameter", true);
      if (!p) continue;
      auto c = std::make_unique<ast::Constant>();
      c->name = p->name;
      c->span = span_of(it->first);
      c->parameter = true;
      c->type = p->type;
      c->value = it->second["default"] ? detail::to_expr(*this, it->second["default"]) : nullptr;
      if (!c->value) continue;
      program_->constants.push_back(std::move(c));
      ruleset_->parameters.push_back(std::move(*p));
    }
  }

  void constants(const YAML::Node& n) {
    if (!n.IsMap()) {
      error(DiagCode::RulesetFieldType, span_of(n), "'constants' must be a mapping from names to values");
      return;
    }
    for (auto it = n.begin(); it != n.end(); ++it) {
      if (!name(it->first, "constant", true)) continue;
      YAML::Node v = it->second;
      std::string doc;
      // `name: {value: …, doc: …}` documents a constant; with `type` (and bounds), declares its type.
      if (v.IsMap() && v["value"] && ((v.size() <= 2 && (v.size() == 1 || v["doc"])) || v["type"])) {
        if (v["doc"]) doc = text(v["doc"], "'doc'").value_or("");
        if (v["type"]) {
          detail::check_declared(*this, v, {{v["value"], fmt::format("the constant '{}'", it->first.Scalar())}},
                                 {{"value", true}, {"doc", false}});
        }
        v = v["value"];
      }
      add_constant(it->first, v, doc, ruleset_->constants);
    }
  }

  void tables(const YAML::Node& n) {
    if (!n.IsMap()) {
      error(DiagCode::RulesetFieldType, span_of(n), "'tables' must be a mapping from names to tables");
      return;
    }
    for (auto it = n.begin(); it != n.end(); ++it) {
      if (!name(it->first, "table", true)) continue;
      const std::string context = fmt::format("the table '{}'", it->first.Scalar());
      if (!keys(it->second, span_of(it->first), context, {{"doc", true}, {"rows", true}, {"cells", false}})) continue;
      const std::string doc = it->second["doc"] ? text(it->second["doc"], "'doc'").value_or("") : "";
      if (const YAML::Node rows = it->second["rows"]) {
        if (!rows.IsMap() && !rows.IsSequence()) {
          error(DiagCode::RulesetFieldType, span_of(rows), "a table's 'rows' must be a mapping or a list");
          continue;
        }
        // `cells: {type: int, min: 0}`: the type of every row's value.
        if (const YAML::Node cells = it->second["cells"]) {
          std::vector<std::pair<YAML::Node, std::string>> values;
          std::size_t i = 0;
          for (auto row = rows.begin(); row != rows.end(); ++row, ++i) {
            const bool keyed = rows.IsMap();
            values.emplace_back(keyed ? YAML::Node(row->second) : YAML::Node(*row),
                                fmt::format("the row {} of {}", keyed ? fmt::format("'{}'", row->first.Scalar())
                                                                      : fmt::format("{}", i), context));
          }
          detail::check_declared(*this, cells, values);
        }
        add_constant(it->first, rows, doc, ruleset_->tables);
      }
    }
  }

  // The first list or mapping in `n` longer than a list of the language may be, if any.
  std::optional<YAML::Node> oversized(const YAML::Node& n) const {
    const auto max = static_cast<std::size_t>(std::max<std::int64_t>(0, options_.max_collection_size));
    if ((n.IsSequence() || n.IsMap()) && n.size() > max) return n;
    if (n.IsSequence()) {
      for (const auto& i : n) {
        if (auto o = oversized(i)) return o;
      }
    } else if (n.IsMap()) {
      for (auto it = n.begin(); it != n.end(); ++it) {
        if (auto o = oversized(it->second)) return o;
      }
    }
    return std::nullopt;
  }

  static std::size_t nesting(const YAML::Node& n) {
    std::size_t d = 0;
    if (n.IsSequence()) {
      for (const auto& i : n) d = std::max(d, nesting(i));
    } else if (n.IsMap()) {
      for (auto it = n.begin(); it != n.end(); ++it) d = std::max(d, nesting(it->second));
    } else {
      return 0;
    }
    return d + 1;
  }

  void add_constant(const YAML::Node& key, const YAML::Node& v, std::string doc, std::vector<NamedValue>& into) {
    if (nesting(v) > 64) {
      error(DiagCode::RulesetInvalidValue, span_of(v), "lists and mappings here nest more than 64 levels deep");
      return;
    }
    // A table becomes a list or record of the language, so it obeys the same limit.
    if (const auto big = oversized(v)) {
      error(DiagCode::RulesetInvalidValue, span_of(*big),
            fmt::format("this {} has {} items; a list or record holds at most {} (max_collection_size)",
                        big->IsMap() ? "mapping" : "list", big->size(), options_.max_collection_size));
      return;
    }
    auto c = std::make_unique<ast::Constant>();
    c->name = key.Scalar();
    c->span = span_of(key);
    c->value = detail::to_expr(*this, v);
    program_->constants.push_back(std::move(c));
    into.push_back({key.Scalar(), std::move(doc), detail::to_value(v)});
  }

  // The `functions:` blocks: the ruleset's own, then a variant's overrides (each replacing the
  // base's function of its name, in place) and additions.
  void functions() {
    std::map<std::string, std::size_t> at;  // a function's statement in the program
    for (const auto& block : function_blocks_) {
      auto src = code(block.code, "'functions'");
      if (!src) continue;
      auto prog = parse_code(src);
      if (!prog) {
        functions_unparsed_ = true;
        continue;
      }
      if (prog->main) {
        error(DiagCode::RulesetInvalidValue, prog->main->span, "'functions' holds only 'fn' definitions");
      }
      for (auto& st : prog->statements) {
        auto* fn = std::get_if<ast::FnDef>(&st);
        if (!fn) {
          error(DiagCode::RulesetInvalidValue, std::get<ast::GlobalLet>(st).span,
                "'functions' holds only 'fn' definitions; put values under 'constants'");
          continue;
        }
        const auto own = at.find(fn->name);
        if (block.mode == detail::FunctionBlock::Override) {
          if (own == at.end()) {
            std::vector<std::string> known;
            for (const auto& [k, i] : at) known.push_back(k);
            auto& d = error(DiagCode::RulesetInvalidValue, fn->span,
                            fmt::format("{} overrides the function '{}', which {} does not have", block.variant,
                                        fn->name, block.base));
            if (auto near = closest_name(fn->name, known); !near.empty()) d.note({}, fmt::format("did you mean '{}'?", near));
            d.note({}, "to add a new function, write it under 'add:' (add: {functions: |…})");
            continue;
          }
          ruleset_->overrides.push_back(fmt::format("function {}", fn->name));
          program_->statements[own->second] = std::move(st);
          continue;
        }
        if (auto it = names_.find(fn->name); it != names_.end()) {
          auto& d = error(DiagCode::DuplicateDefinition, fn->span, fmt::format("the name '{}' is already used in this ruleset", fn->name));
          d.note(it->second, "it is first used here");
          if (block.mode == detail::FunctionBlock::Add && own != at.end()) {
            d.note({}, fmt::format("to change the function of {}, write it under 'functions:', not under 'add:'", block.base));
          }
          continue;
        }
        ruleset_->functions.push_back(fn->name);
        if (block.mode == detail::FunctionBlock::Add) ruleset_->overrides.push_back(fmt::format("adds function {}", fn->name));
        names_[fn->name] = fn->span;
        at[fn->name] = program_->statements.size();
        program_->statements.push_back(std::move(st));
      }
    }
  }

  void mechanics(const YAML::Node& n) {
    if (!n.IsMap() || n.size() == 0) {
      error(DiagCode::RulesetFieldType, span_of(n), "'mechanics' must be a mapping from names to mechanics, with at least one");
      return;
    }
    for (auto it = n.begin(); it != n.end(); ++it) mechanic(it->first, it->second);
  }

  void mechanic(const YAML::Node& key, const YAML::Node& spec) {
    const std::string mname = key.Scalar();
    const bool named = name(key, "mechanic", true);
    const std::string context = fmt::format("the mechanic '{}'", mname);
    if (!keys(spec, span_of(key), context,
              {{"doc", true}, {"group", false}, {"sides", false}, {"params", false}, {"requires", false}, {"body", true},
               {"result", false}, {"returns", false}, {"examples", false}, {"changes", false}, {"odds", false},
               {"refusal", false}})) {
      return;
    }
    MechanicInfo m;
    m.name = mname;
    ast::FnDef fn;
    fn.name = mname;
    fn.span = span_of(key);
    if (spec["doc"]) m.doc = text(spec["doc"], "'doc'").value_or("");
    if (spec["group"]) m.group = text(spec["group"], "'group'").value_or("");
    if (const YAML::Node o = spec["odds"]) {
      if (const auto v = text(o, "'odds'")) {
        if (*v == "sampled") m.sampled_odds = true;
        else if (*v != "auto")
          error(DiagCode::RulesetInvalidValue, span_of(o),
                fmt::format("'odds' is auto (exact when alea stats can, else sampled) or sampled, not '{}'", *v));
      }
    }
    if (const YAML::Node sd = spec["sides"]) sides(sd, m, fn);
    if (const YAML::Node ps = spec["params"]) {
      if (!ps.IsMap()) {
        error(DiagCode::RulesetFieldType, span_of(ps), "'params' must be a mapping from names to their descriptions");
      } else {
        for (auto p = ps.begin(); p != ps.end(); ++p) {
          if (!name(p->first, "parameter", false)) continue;
          auto info = param(p->first, p->second, "parameter", false);
          if (!info) continue;
          fn.params.push_back(info->name);
          fn.param_spans.push_back(span_of(p->first));
          fn.types.emplace_back(info->type);
          fn.defaults.push_back(p->second["default"] ? detail::to_expr(*this, p->second["default"]) : nullptr);
          m.params.push_back(std::move(*info));
        }
      }
    }
    result(spec, key, m, fn);
    if (const YAML::Node rf = spec["refusal"]) detail::read_refusal(*this, rf, m);
    if (const YAML::Node ex = spec["examples"]) detail::read_examples(*this, ex, m);
    if (const YAML::Node body = spec["body"]) {
      if (auto src = code(body, "a mechanic's 'body'")) {
        if (auto prog = parse_code(src)) {
          if (!prog->statements.empty() || !prog->main) {
            error(DiagCode::RulesetInvalidValue, span_of(body),
                  "a mechanic's body is one expression; put functions under 'functions' and values under 'constants'");
          } else {
            fn.body = std::move(prog->main);
          }
        }
      }
    }
    for (const auto& c : program_->constants) {
      if (c->parameter) fn.settable.push_back(c.get());
    }
    if (const YAML::Node rq = spec["requires"]) detail::read_requires(*this, rq, fn, m);
    if (const YAML::Node ch = spec["changes"]; ch && named) detail::read_changes(*this, ch, fn, m);
    if (named && fn.body) program_->statements.emplace_back(std::move(fn));
    else unparsed_.insert(mname);
    ruleset_->mechanics.push_back(std::move(m));
  }

  // `sides: {names: [attacker, defender], fields: {pool: {…}, ST: {…}}}`: an
  // opposed mechanic. The sides become its first parameters, records with the
  // fields; the body sees the fields as names, bound to the first side.
  void sides(const YAML::Node& sd, MechanicInfo& m, ast::FnDef& fn) {
    if (!keys(sd, span_of(sd), "'sides'", {{"names", true}, {"fields", true}})) return;
    const YAML::Node names = sd["names"];
    const YAML::Node fields = sd["fields"];
    if (!names || !fields) return;
    if (!names.IsSequence() || names.size() != 2) {
      error(DiagCode::RulesetFieldType, span_of(names), "'names' lists the two sides, as in [attacker, defender]");
      return;
    }
    if (!fields.IsMap() || fields.size() == 0) {
      error(DiagCode::RulesetFieldType, span_of(fields), "'fields' maps each thing a side gives to its description");
      return;
    }
    // A side is a record of the fields, checked as any record type is, where it was given.
    auto rt = std::make_shared<ast::RecordType>();
    rt->name = "side";
    rt->span = span_of(fields);
    std::string field_list;
    for (auto it = fields.begin(); it != fields.end(); ++it) {
      if (!name(it->first, "side field", false)) return;
      auto info = param(it->first, it->second, "side field", false);
      if (!info) return;
      if (it->second["default"]) {
        error(DiagCode::RulesetInvalidValue, span_of(it->second["default"]), "a side field has no default: each side gives it");
      }
      fn.side_fields.push_back(info->name);
      rt->fields.push_back({info->name, info->type, nullptr, info->doc, span_of(it->first)});
      field_list += (field_list.empty() ? "" : ", ") + info->name;
      m.side_fields.push_back(std::move(*info));
    }
    detail::check_sibling_bounds(*this, fields, *rt);
    for (const auto& n : names) {
      if (!n.IsScalar() || !name(n, "side", false)) return;
      ParamInfo p;
      p.name = n.Scalar();
      p.type.kind = ast::TypeSpec::Record;
      p.type.record = rt;
      p.doc = fmt::format("a side of the roll: a record of {}", field_list);
      fn.params.push_back(p.name);
      fn.param_spans.push_back(span_of(n));
      fn.types.emplace_back(p.type);
      fn.defaults.push_back(nullptr);
      m.sides.push_back(p.name);
      m.params.push_back(std::move(p));
    }
    fn.side_count = 2;
  }

  void result(const YAML::Node& spec, const YAML::Node& key, MechanicInfo& m, ast::FnDef& fn) {
    const YAML::Node res = spec["result"];
    const YAML::Node ret = spec["returns"];
    if (res && ret) {
      error(DiagCode::RulesetInvalidValue, span_of(ret), "a mechanic has either 'result' (a record's fields) or 'returns', not both");
      return;
    }
    if (!res && !ret) {
      error(DiagCode::RulesetMissingKey, span_of(key),
            fmt::format("the mechanic '{}' needs 'result' (the fields of the record it gives) or 'returns' (the type of its value)",
                        key.Scalar()));
      return;
    }
    ast::ResultSpec r;
    if (ret) {
      r.span = span_of(ret);
      if (!keys(ret, span_of(ret), "'returns'",
                {{"type", true}, {"doc", true}, {"min", false}, {"max", false}, {"choices", false}, {"items", false},
                 {"face", false}, {"min_length", false}, {"max_length", false}})) return;
      if (auto t = ret["type"] ? detail::read_type(*this, ret["type"]) : std::nullopt) {
        detail::read_constraints(*this, ret, *t, "choices");
        detail::read_items(*this, ret, *t);
        r.returns = *t;
        m.returns = *t;
      }
      if (ret["doc"]) m.returns_doc = text(ret["doc"], "'doc'").value_or("");
      fn.result = std::move(r);
      return;
    }
    r.span = span_of(res);
    if (!res.IsMap() || res.size() == 0) {
      error(DiagCode::RulesetFieldType, span_of(res), "'result' must be a mapping from field names to their descriptions");
      return;
    }
    for (auto it = res.begin(); it != res.end(); ++it) {
      if (!name(it->first, "result field", false)) continue;
      const std::string fname = it->first.Scalar();
      if (!keys(it->second, span_of(it->first), fmt::format("the result field '{}'", fname),
                {{"type", true}, {"doc", true}, {"outcomes", false}, {"min", false}, {"max", false}, {"items", false},
                 {"face", false}, {"min_length", false}, {"max_length", false}})) {
        continue;
      }
      FieldInfo f;
      f.name = fname;
      if (it->second["doc"]) f.doc = text(it->second["doc"], "'doc'").value_or("");
      auto t = it->second["type"] ? detail::read_type(*this, it->second["type"]) : std::nullopt;
      if (!t) continue;
      detail::read_constraints(*this, it->second, *t, "outcomes");
      detail::read_items(*this, it->second, *t);
      f.type = *t;
      r.fields.push_back(fname);
      r.types.push_back(*t);
      r.spans.push_back(span_of(it->first));
      m.result.push_back(std::move(f));
    }
    fn.result = std::move(r);
  }

  void resolve_all() {
    ResolveContext ctx;
    ctx.builtins = &builtin_signatures();
    ctx.imported = options_.imports;
    ctx.free_names_are_errors = true;
    for (auto& d : resolve(*program_, ctx)) {
      const bool echo = d.code == DiagCode::UnknownFunction &&
                        (functions_unparsed_ ||
                         std::any_of(unparsed_.begin(), unparsed_.end(), [&](const std::string& m) {
                           return d.message == fmt::format("unknown function '{}'", m);
                         }));
      if (!echo) diags_.push_back(std::move(d));
    }
  }
};

}  // namespace

RulesetLoad load_ruleset(std::string yaml_text, std::string file_name, const RulesetLoadOptions& options) {
  if (options.max_file_bytes >= 0 && yaml_text.size() > static_cast<std::size_t>(options.max_file_bytes)) {
    RulesetLoad out;
    auto file = SourceFile::make(file_name, "");
    out.diagnostics.emplace_back(DiagCode::InputTooLong, file->span(0, 0),
                                 fmt::format("the ruleset is {} bytes; at most {} may be read (max_file_bytes)",
                                             yaml_text.size(), options.max_file_bytes));
    return out;
  }
  return Loader(std::move(yaml_text), std::move(file_name), options).run();
}

}  // namespace alea
