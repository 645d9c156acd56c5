// interpreter/rulesets/ruleset_loader_extends.cpp — a variant: `extends: NAME` and the entries
// it changes, merged onto the base ruleset's YAML document before the loader reads it.
//
// Each base file is parsed after padding (a comment line) as long as the files before it, so
// every node's offset is unique to its file: errors in inherited code point at the base file's
// lines, and errors in an override at the variant's.
#include <algorithm>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "dsl/resolver.hpp"
#include "interpreter/io/read_file.hpp"
#include "interpreter/rulesets/ruleset_files.hpp"
#include "interpreter/rulesets/ruleset_loader_parts.hpp"
#include "interpreter/rulesets/yaml_bounds.hpp"
#include "interpreter/rulesets/yaml_syntax.hpp"

namespace alea::detail {

std::shared_ptr<const std::vector<std::string>> split_lines(std::string_view t) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= t.size()) {
    const auto nl = t.find('\n', start);
    std::string_view line = t.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.emplace_back(line);
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return std::make_shared<const std::vector<std::string>>(std::move(out));
}

namespace {

// How many rulesets a chain of `extends:` may go through.
constexpr int max_extends_depth = 8;

// The sections whose entries a variant replaces by name (`functions:` is merged by the loader,
// function by function).
const std::vector<std::pair<std::string, std::string>> sections = {
    {"types", "type"},     {"parameters", "parameter"}, {"constants", "constant"}, {"tables", "table"},
    {"state", "counter"},  {"choices", "choice"},       {"tiers", "tier scale"},   {"mechanics", "mechanic"}};
const std::vector<std::string> plain_keys = {"schema", "name", "title", "source", "doc"};

class Merge {
 public:
  Merge(RulesetReader& r, const RulesetLoadOptions& options) : r_(r), options_(options) {}

  // `root` (a document with `extends:`) merged onto its base; `chain`, the rulesets on the way.
  std::optional<Extended> level(const YAML::Node& root, std::vector<std::string> chain, bool top) {
    const YAML::Node ext = root["extends"];
    const YAML::Node name_node = root["name"];
    if (!r_.keys(root, r_.span_of(root), "a variant", variant_keys())) return std::nullopt;
    if (!name_node || !ext) return std::nullopt;  // reported by keys()
    const std::string vname = name_node.IsScalar() ? name_node.Scalar() : "the variant";
    const auto base_name = r_.text(ext, "'extends'");
    if (!base_name) return std::nullopt;
    if (!is_ruleset_name(*base_name)) {
      r_.error(DiagCode::RulesetInvalidValue, r_.span_of(ext),
               fmt::format("'extends' names a ruleset (a-z, 0-9, '_' and '-'), as in extends: my-game; not '{}'", *base_name));
      return std::nullopt;
    }
    chain.push_back(vname);
    // my_game and my-game are one ruleset.
    if (std::any_of(chain.begin(), chain.end(), [&](const std::string& c) { return ruleset_ident(c) == ruleset_ident(*base_name); })) {
      std::string path;
      for (const auto& c : chain) path += c + " extends ";
      r_.error(DiagCode::RulesetInvalidValue, r_.span_of(ext),
               fmt::format("the rulesets extend each other in a circle: {}{}", path, *base_name));
      return std::nullopt;
    }
    if (static_cast<int>(chain.size()) > max_extends_depth) {
      r_.error(DiagCode::RulesetInvalidValue, r_.span_of(ext),
               fmt::format("'extends' goes through more than {} rulesets here", max_extends_depth));
      return std::nullopt;
    }
    const auto base_root = read_base(ext, *base_name);
    if (!base_root) return std::nullopt;
    Extended base;
    if (std::as_const(*base_root)["extends"]) {
      auto inner = level(*base_root, chain, false);
      if (!inner) {
        r_.error(DiagCode::RulesetInvalidValue, r_.span_of(ext),
                 fmt::format("the ruleset '{}' that {} extends has errors", *base_name, vname));
        return std::nullopt;
      }
      base = std::move(*inner);
    } else {
      base.root = *base_root;
      if (const YAML::Node f = std::as_const(base.root)["functions"]) base.functions.push_back({f, FunctionBlock::Own, {}, {}});
    }
    if (top) r_.ruleset().extends = *base_name;
    return merge(root, std::move(base), vname, *base_name, top);
  }

 private:
  RulesetReader& r_;
  const RulesetLoadOptions& options_;

  // A key that is not there (YAML::Node() is a null value, which is there).
  static YAML::Node absent() { return YAML::Node(YAML::NodeType::Undefined); }

  static std::vector<RulesetReader::Key> variant_keys() {
    std::vector<RulesetReader::Key> k = {{"schema", true}, {"name", true}, {"extends", true}, {"title", false},
                                          {"source", false}, {"doc", false}, {"functions", false}, {"add", false}};
    for (const auto& [s, what] : sections) k.push_back({s, false});
    return k;
  }

  // The base's document, parsed after padding; nullopt after an error (reported at `ext`).
  std::optional<YAML::Node> read_base(const YAML::Node& ext, const std::string& base_name) {
    const auto file = find_ruleset_file(base_name, options_.search_dirs);
    if (!file) {
      std::string where;
      for (const auto& d : options_.search_dirs) where += (where.empty() ? "" : ", ") + d.string();
      r_.error(DiagCode::RulesetNotFound, r_.span_of(ext),
               fmt::format("there is no ruleset '{}' to extend in {}", base_name, where.empty() ? "no directory" : where));
      return std::nullopt;
    }
    FileText read = read_file_capped(*file, static_cast<std::size_t>(std::max<std::int64_t>(0, options_.max_file_bytes)));
    if (!read.text) {
      r_.error(DiagCode::RulesetNotFound, r_.span_of(ext),
               fmt::format("cannot read the ruleset file '{}': it {}", file->string(), read.error));
      return std::nullopt;
    }
    auto& files = r_.yaml_files();
    const auto& last = files.back();
    const std::uint32_t start = std::max<std::uint32_t>(2, last.start + static_cast<std::uint32_t>(last.file->text().size()) + 1);
    auto src = SourceFile::make(file->lexically_normal().string(), std::move(*read.text), r_.file().origin());
    const std::string& text = src->text();
    const auto broken = [&](std::uint32_t offset, const std::string& why) {
      r_.error(DiagCode::RulesetInvalidValue, r_.span_of(ext), fmt::format("the ruleset '{}' cannot be extended: {}", base_name, why))
          .note(src->span(offset, offset + 1), "here");
      return std::nullopt;
    };
    // Padded with a comment to where the file starts among the ruleset's files, so that each
    // node's mark is its place there (the padding holds no node).
    BoundedYaml yaml;
    try {
      yaml = load_bounded_yaml("#" + std::string(start - 2, ' ') + "\n" + text);
    } catch (const YAML::ParserException&) {
      try {
        (void)YAML::Load(text);  // where the syntax error is, without the padding
      } catch (const YAML::ParserException& e) {
        const YamlSyntaxError why = explain_yaml_error(text, e);
        return broken(why.offset, fmt::format("it is not valid YAML: {}", why.message));
      }
      return broken(0, "it is not valid YAML");
    }
    if (yaml.over) {
      return broken(static_cast<std::uint32_t>(std::max(0, yaml.over->mark.pos - static_cast<int>(start))),
                    "it holds too many values");
    }
    if (!yaml.twice.empty()) {
      const auto& again = yaml.twice.front().again;
      return broken(static_cast<std::uint32_t>(std::max(0, again.Mark().pos - static_cast<int>(start))),
                    fmt::format("the key '{}' appears twice in one mapping", again.Scalar()));
    }
    YAML::Node root = std::move(yaml.root);
    files.push_back({src, start, split_lines(text)});
    if (!root.IsMap()) return broken(0, "it is not a YAML mapping");
    return root;
  }

  // A parameter's description changed key by key (`difficulty: {default: 8}`); any other entry whole.
  static YAML::Node merged_entry(const std::string& section, const YAML::Node& base, const YAML::Node& over) {
    if (section != "parameters" || !base.IsMap() || !over.IsMap()) return over;
    YAML::Node out(YAML::NodeType::Map);
    for (auto it = base.begin(); it != base.end(); ++it) {
      const YAML::Node mine = over[it->first.Scalar()];
      if (mine) out[over_key(over, it->first.Scalar())] = mine;
      else out[it->first] = it->second;
    }
    for (auto it = over.begin(); it != over.end(); ++it) {
      if (!base[it->first.Scalar()]) out[it->first] = it->second;
    }
    return out;
  }
  static YAML::Node over_key(const YAML::Node& map, const std::string& key) {
    for (auto it = map.begin(); it != map.end(); ++it) {
      if (it->first.Scalar() == key) return it->first;
    }
    return {};
  }

  // What describe says of an override: "parameter difficulty (default 8)", "mechanic check".
  static std::string shown(const std::string& what, const std::string& name, const YAML::Node& over) {
    if (what == "parameter" && over.IsMap() && over.size() == 1 && over["default"] && over["default"].IsScalar()) {
      return fmt::format("parameter {} (default {})", name, over["default"].Scalar());
    }
    return fmt::format("{} {}", what, name);
  }

  Extended merge(const YAML::Node& root, Extended base, const std::string& vname, const std::string& base_name, bool top) {
    const YAML::Node add = root["add"];
    std::vector<RulesetReader::Key> addable = {{"functions", false}};
    for (const auto& sec : sections) addable.push_back({sec.first, false});
    if (add && !r_.keys(add, r_.span_of(add), "'add'", addable)) return base;
    YAML::Node out(YAML::NodeType::Map);
    std::set<std::string> done;
    const auto section = [&](const std::string& key, const std::string& what) {
      const YAML::Node have = std::as_const(base.root)[key];
      const YAML::Node over = root[key];
      const YAML::Node extra = add ? add[key] : absent();
      for (const auto& n : {over, extra}) {
        if (n && !n.IsMap()) {
          r_.error(DiagCode::RulesetFieldType, r_.span_of(n), fmt::format("'{}' must be a mapping from names to entries", key));
          return;
        }
      }
      YAML::Node merged(YAML::NodeType::Map);
      std::vector<std::string> names;
      if (have && have.IsMap()) {
        for (auto it = have.begin(); it != have.end(); ++it) {
          const std::string k = it->first.Scalar();
          names.push_back(k);
          if (over && over[k]) {
            merged[over_key(over, k)] = merged_entry(key, it->second, over[k]);
            if (top) r_.ruleset().overrides.push_back(shown(what, k, over[k]));
          } else {
            merged[it->first] = it->second;  // an inherited mechanic's examples too (read_examples)
          }
        }
      }
      if (over) {
        for (auto it = over.begin(); it != over.end(); ++it) {
          const std::string k = it->first.Scalar();
          if (std::find(names.begin(), names.end(), k) != names.end()) continue;
          auto& d = r_.error(DiagCode::RulesetInvalidValue, r_.span_of(it->first),
                             fmt::format("{} overrides the {} '{}', which {} does not have", vname, what, k, base_name));
          if (auto near = closest_name(k, names); !near.empty()) d.note({}, fmt::format("did you mean '{}'?", near));
          d.note({}, fmt::format("to add a new {}, write it under 'add:' (add: {{{}: {{{}: …}}}})", what, key, k));
        }
      }
      if (extra) {
        for (auto it = extra.begin(); it != extra.end(); ++it) {
          const std::string k = it->first.Scalar();
          if (std::find(names.begin(), names.end(), k) != names.end()) {
            r_.error(DiagCode::RulesetInvalidValue, r_.span_of(it->first),
                     fmt::format("{} already has the {} '{}'; to change it, write it under '{}:', not under 'add:'",
                                 base_name, what, k, key));
            continue;
          }
          merged[it->first] = it->second;
          if (top) r_.ruleset().overrides.push_back(fmt::format("adds {} {}", what, k));
        }
      }
      if (merged.size() > 0) out[key] = merged;
    };
    // In the base's order of keys, then the sections only the variant has.
    for (auto it = base.root.begin(); it != base.root.end(); ++it) {
      const std::string k = it->first.Scalar();
      done.insert(k);
      if (std::find(plain_keys.begin(), plain_keys.end(), k) != plain_keys.end()) {
        const YAML::Node mine = root[k];
        if (mine) out[over_key(root, k)] = mine;
        else out[it->first] = it->second;
        continue;
      }
      const auto s = std::find_if(sections.begin(), sections.end(), [&](const auto& p) { return p.first == k; });
      if (s != sections.end()) section(s->first, s->second);
      else out[it->first] = it->second;  // `functions`, and keys the loader reports as unknown
    }
    for (const auto& k : plain_keys) {
      if (!done.count(k) && root[k]) out[over_key(root, k)] = root[k];
    }
    for (const auto& [key, what] : sections) {
      if (!done.count(key) && (root[key] || (add && add[key]))) section(key, what);
    }
    if (const YAML::Node f = root["functions"]) base.functions.push_back({f, FunctionBlock::Override, vname, base_name});
    if (const YAML::Node f = add ? add["functions"] : absent()) base.functions.push_back({f, FunctionBlock::Add, vname, base_name});
    if (!done.count("functions") && !base.functions.empty()) out["functions"] = base.functions.front().code;
    // An override of a name the base lacks is reported and left out: the loader reads the rest.
    base.root = out;
    return base;
  }

};

}  // namespace

std::optional<Extended> read_extends(RulesetReader& r, const YAML::Node& root, const RulesetLoadOptions& options) {
  Merge m(r, options);
  return m.level(root, {}, true);
}

}  // namespace alea::detail
