// tests/support/vectors.cpp — reads the rulesets' test vectors, the data files
// tests/rulesets/vectors/*.yaml, whose format and driver are in tests/rulesets/vectors_test.cpp.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "interpreter/api.hpp"
#include "tests/support/vectors.hpp"

namespace alea::testing {
namespace vectors_support {

namespace fs = std::filesystem;

// "dozen-die.yaml" → "dozen_die"
std::string test_stem(const std::string& file) {
  std::string s = fs::path(file).stem().string();
  std::replace(s.begin(), s.end(), '-', '_');
  return s;
}

bool is_name(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

// A problem in a data file, at a node.
struct Malformed : std::runtime_error {
  Malformed(const YAML::Node& at, const std::string& what)
      : std::runtime_error(at.Mark().is_null() ? what : "line " + std::to_string(at.Mark().line + 1) + ": " + what) {}
};

std::string scalar(const YAML::Node& n, const std::string& what) {
  if (!n.IsScalar()) throw Malformed(n, what + " must be a string");
  return n.Scalar();
}

std::vector<std::int64_t> faces(const YAML::Node& n, const std::string& what) {
  if (!n.IsSequence()) throw Malformed(n, what + " must be a list of faces, [] for none");
  std::vector<std::int64_t> out;
  for (const auto& f : n) {
    try {
      out.push_back(f.as<std::int64_t>());
    } catch (const YAML::Exception&) {
      throw Malformed(f, what + " must hold whole numbers");
    }
  }
  return out;
}

// A map of names to strings, at least one, no name twice: expect, state, state_after.
std::vector<std::pair<std::string, std::string>> pairs(const YAML::Node& n, const std::string& what) {
  if (!n.IsMap() || n.size() == 0) throw Malformed(n, what + " must map at least one name to a value");
  std::vector<std::pair<std::string, std::string>> out;
  std::set<std::string> seen;
  for (const auto& kv : n) {
    const std::string name = scalar(kv.first, "a name in " + what);
    if (!seen.insert(name).second) throw Malformed(kv.first, "'" + name + "' is twice in " + what);
    out.emplace_back(name, scalar(kv.second, "the value of '" + name + "' in " + what));
  }
  return out;
}

// One entry of `vectors`; throws Malformed.
void read_entry(const YAML::Node& e, Vector& v) {
  if (!e.IsMap()) throw Malformed(e, "an entry must be a map with id, call, dice and expect");
  for (const auto& kv : e) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "?";
    if (key != "id" && key != "call" && key != "dice" && key != "expect" && key != "exploded" && key != "state" &&
        key != "state_after" && key != "trace") {
      throw Malformed(kv.first,
                      "unknown key '" + key + "' (id, call, dice, expect, exploded, state, state_after, trace)");
    }
  }
  for (const char* key : {"id", "call", "dice", "expect"}) {
    if (!e[key]) throw Malformed(e, std::string("the entry has no '") + key + "'");
  }
  v.id = scalar(e["id"], "id");
  if (!is_name(v.id)) throw Malformed(e["id"], "id '" + v.id + "' must be letters, digits and '_'");
  v.call = scalar(e["call"], "call");
  if (v.call.empty()) throw Malformed(e["call"], "call is empty");
  v.dice = faces(e["dice"], "dice");
  v.expect = pairs(e["expect"], "expect");
  if (e["exploded"]) v.exploded = faces(e["exploded"], "exploded");
  if (e["state"]) v.state = pairs(e["state"], "state");
  if (e["state_after"]) v.state_after = pairs(e["state_after"], "state_after");
  if (e["trace"]) {
    if (!e["trace"].IsSequence() || e["trace"].size() == 0) throw Malformed(e["trace"], "trace must list texts");
    for (const auto& t : e["trace"]) v.trace.push_back(scalar(t, "an event of trace"));
  }
}

// Every entry of one file; problems become entries with `error` set.
std::vector<Vector> read_file(const fs::path& path) {
  const std::string file = path.filename().string();
  const std::string stem = test_stem(file);
  const std::string shown_path = "tests/rulesets/vectors/" + file;
  auto broken = [&](const std::string& suffix, int line, const std::string& what) {
    Vector v;
    v.file = file;
    v.line = line;
    v.name = stem + "_" + suffix;
    v.error = shown_path + ": " + what;
    return v;
  };
  if (path.extension() != ".yaml") return {broken("not_yaml", 0, "a data file must end in .yaml")};
  YAML::Node root;
  try {
    root = YAML::LoadFile(path.string());
  } catch (const YAML::Exception& ex) {
    return {broken("malformed_file", ex.mark.line + 1, ex.what())};
  }
  std::string ruleset;
  try {
    if (!root.IsMap()) throw Malformed(root, "the file must be a map with 'ruleset' and 'vectors'");
    for (const auto& kv : root) {
      const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "?";
      if (key != "ruleset" && key != "vectors") throw Malformed(kv.first, "unknown key '" + key + "' (ruleset, vectors)");
    }
    if (!root["ruleset"]) throw Malformed(root, "the file names no 'ruleset'");
    ruleset = scalar(root["ruleset"], "ruleset");
    if (!root["vectors"] || !root["vectors"].IsSequence() || root["vectors"].size() == 0) {
      throw Malformed(root, "'vectors' must be a list of at least one entry");
    }
  } catch (const Malformed& ex) {
    return {broken("malformed_file", 0, ex.what())};
  }
  std::vector<Vector> out;
  std::set<std::string> ids;
  int index = 0;
  for (const auto& e : root["vectors"]) {
    ++index;
    Vector v;
    v.file = file;
    v.line = e.Mark().is_null() ? 0 : e.Mark().line + 1;
    v.ruleset = ruleset;
    try {
      read_entry(e, v);
      if (!ids.insert(v.id).second) throw Malformed(e, "the id '" + v.id + "' is used twice");
      v.name = stem + "_" + v.id;
    } catch (const std::exception& ex) {
      // The entry's position names the test: an id may be missing, malformed or taken.
      out.push_back(broken("malformed_entry_" + std::to_string(index), v.line,
                           "entry " + std::to_string(index) + (v.id.empty() ? "" : " ('" + v.id + "')") + ": " +
                               ex.what()));
      continue;
    }
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace vectors_support

std::string vectors_dir() { return std::string(ALEA_SOURCE_DIR) + "/tests/rulesets/vectors"; }

std::vector<Vector> load_vectors() {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(vectors_dir(), ec)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  if (ec || files.empty()) {
    Vector v;
    v.name = "no_data_files";
    v.error = "no data files in " + vectors_dir() + (ec ? ": " + ec.message() : "");
    return {v};
  }
  std::sort(files.begin(), files.end());
  std::vector<Vector> out;
  std::set<std::string> names;
  for (const auto& f : files) {
    for (auto& v : vectors_support::read_file(f)) {
      // Two files whose stems and ids run together ("a_b" + "c", "a" + "b_c") would share a name.
      if (!names.insert(v.name).second) {
        v.error = "tests/rulesets/vectors/" + v.file + ": the test name " + v.name + " is taken by another file";
        v.name += "_" + std::to_string(out.size());
      }
      out.push_back(std::move(v));
    }
  }
  return out;
}

std::vector<std::string> vector_ids(const std::string& file) {
  const std::filesystem::path path = std::filesystem::path(vectors_dir()) / file;
  if (!std::filesystem::is_regular_file(path)) throw std::runtime_error("no data file " + path.string());
  std::vector<std::string> ids;
  std::string errors;
  for (const auto& v : vectors_support::read_file(path)) {
    if (!v.error.empty()) errors += v.error + "\n";
    ids.push_back(v.id);
  }
  if (!errors.empty()) throw std::runtime_error(errors);
  return ids;
}

std::string shown(const Value& v, const std::string& path) {
  const Value* at = &v;
  for (std::size_t from = 0; !path.empty() && from <= path.size();) {
    const auto dot = std::min(path.find('.', from), path.size());
    at = at->field(path.substr(from, dot - from));
    if (!at) throw std::runtime_error("no field '" + path + "' in " + to_display(v));
    from = dot + 1;
  }
  // A string shows with its quotes inside a record or a list, and without them alone.
  return at->as_str() ? *at->as_str() : to_display(*at);
}

void PrintTo(const Vector& v, std::ostream* os) { *os << v.file << ":" << v.line << " " << v.id; }

}  // namespace alea::testing
