// tests/support/vectors.hpp — the test vectors of the shipped rulesets, read from
// the data files tests/rulesets/vectors/*.yaml (the format is described in
// tests/rulesets/vectors_test.cpp, which runs every vector; tests/support/vectors.cpp reads
// them). Tests that check that a spec's vectors are all there read the ids here.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "interpreter/values/value.hpp"

namespace alea::testing {

// One vector: a call in the language, the faces it rolls (all of them must be
// used), and the fields expected in its result as the language displays them.
struct Vector {
  std::string file;     // the data file, "dozen-die.yaml"
  int line = 0;         // where the entry starts in it, from 1
  std::string ruleset;  // the shipped ruleset it runs against, "dozen-die"
  std::string id;       // "T1", as the spec names it
  std::string name;     // the test's name: the file's stem and the id, "dozen_die_T1"
  std::string call;
  std::vector<std::int64_t> dice;
  // field (a dotted path, "" for the whole value) → the value as shown()
  std::vector<std::pair<std::string, std::string>> expect;
  // When present, the faces of the dice the explosions rolled, in order.
  std::optional<std::vector<std::int64_t>> exploded;
  // The ruleset's state before the call: counter → its value written in the
  // language ("5"). Empty: the run reads no state (every counter at its default).
  std::vector<std::pair<std::string, std::string>> state;
  // The state after the call: counter → its value as shown(), the default where
  // the run left none.
  std::vector<std::pair<std::string, std::string>> state_after;
  // Texts that must each be the text of an event of the run's trace ("6 → miss").
  std::vector<std::string> trace;
  // A malformed file or entry: what is wrong, and the test of this entry fails with it.
  std::string error;
};

// tests/rulesets/vectors, through ALEA_SOURCE_DIR.
std::string vectors_dir();

// Every vector of every data file, in file order. Never throws: a missing
// directory, an unreadable or malformed file or entry each give a Vector with
// `error` set, so that the driver fails a test naming the file and the entry.
std::vector<Vector> load_vectors();

// The ids of one data file ("dozen-die.yaml"), in order; throws
// std::runtime_error naming every problem when the file or an entry is malformed.
std::vector<std::string> vector_ids(const std::string& file);

// The value at a dotted path of `v` ("p1.imprisoned"; "" is the value itself),
// displayed as the language does, a string without its quotes. Throws
// std::runtime_error when a field is missing.
std::string shown(const Value& v, const std::string& path);

// How gtest names a vector in its messages: file, line and id.
void PrintTo(const Vector& v, std::ostream* os);

}  // namespace alea::testing
