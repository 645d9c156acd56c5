// fuzz/fuzz_exact.cpp — libFuzzer differential harness for the exact engine: composed against
// enumerated.
//
// Oracle: when the composed engine answers a program (interpreter/exact/, asked alone, then
// through compute_stats) and the full enumeration answers it too (compute_stats with compose =
// false), the two must be exactly equal by the one definition the conformance corpus uses
// (tests/support/same_stats.hpp): every value's and every field's probability, the means, the
// cut-off, error and unresolved shares, the first error. A difference prints the program and both
// distributions, then traps. A program that does not compile, does not compose, or that the
// enumeration does not answer within its budget is skipped. Crashes, sanitizer reports and
// exceptions escaping compute_stats are findings too.
//
// The input is a program, in one of two forms:
//   - bytes that start with a NUL: the rest drives a generator of programs from a small grammar
//     (dice with every pool operation of dsl/pool_ops.def, written from its row, arithmetic,
//     comparisons, `if`, `let` over numbers and pools, tiers, `repeat`, records, a function
//     called with a pool, a pool read through sum, len, fewest_reaching and cover);
//   - anything else: the bytes are the source (the seeds in corpus/exact/ are conformance cases
//     that compose, and gen-* seeds for the generator; dsl.dict supplies the language's tokens).
// Why both, measured under ASan for 90 s each when this harness was written: as source alone, 93%
// of the runs did not parse and 2.6% reached the comparison (761 programs); the generator alone
// reached it on 84% (6,580 programs), but covered less of the engines (8,985 edges against
// 14,740), without the features its grammar leaves out (both with a 2,000-run budget and the
// entropic schedule). Both together, as set below: 4,422 programs compared in 90 s, 14,346 edges,
// and more features (68,370) than either alone.
//
// A second oracle, on the composed engine alone: cutting off a pool's rare combinations of
// explosion chains (Budget::rare_chains, which compute_stats uses when it follows chains deeper)
// moves their probability to the cut-off share and nowhere else. With 1 in 4, so that small
// programs cut some: no value and no error gains, and what they lose the cut-off gains (a run cut
// off does not go on to fail later).
//
// The limits keep the enumeration cheap: at most 500 runs (88% of the programs compared needed
// fewer), else it gives up and the program is skipped; 12 dice, 20 sides, explosions followed 2
// dice deep; composing may combine 5,000 branches (of the programs compared, 2% needed more
// than 1,000, none more than 5,000).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <gmpxx.h>

#include "dsl/pool_ops.hpp"
#include "interpreter/api.hpp"
#include "interpreter/exact/exact.hpp"
#include "interpreter/stats.hpp"
#include "tests/support/same_stats.hpp"

namespace {
const alea::Engine& engine() {
  static const alea::Engine e(alea::EngineOptions{{.max_dice = 12,
                                                   .max_sides = 20,
                                                   .max_explosion_depth = 3,
                                                   .max_rerolls = 3,
                                                   .max_loop_iterations = 20,
                                                   .max_call_depth = 8,
                                                   .max_steps = 2000,
                                                   .max_collection_size = 20},
                                                  {.max_input_bytes = 1024}});
  return e;
}

alea::StatsOptions options(bool compose) {
  alea::StatsOptions o;
  o.explosion_depth = 2;
  o.exact_only = true;
  o.compose = compose;
  o.max_branches = compose ? 5'000 : 500;
  return o;
}

// Programs from bytes: each choice reads one byte (0 once they run out, which ends every
// recursion in a leaf). Numbers, pools and the names bound to each are kept apart, so that most
// programs are well typed.
class Generator {
 public:
  Generator(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::string program() {
    std::string out;
    if (pick(4) == 0) {  // a function of a pool and a number, called below
      pools_.push_back("p");
      numbers_.push_back("n");
      out = "fn f(p, n) = " + number() + "; ";
      pools_.pop_back();
      numbers_.pop_back();
      has_fn_ = true;
    }
    if (pick(6) == 0) return out + "{a: " + number() + ", b: (" + number() + ") > " + num(0, 9) + "}";
    return out + number();
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_, at_ = 0;
  int depth_ = 0, names_ = 0;
  bool has_fn_ = false;
  std::vector<std::string> numbers_, pools_;

  unsigned pick(unsigned k) { return (at_ < size_ ? data_[at_++] : 0u) % k; }
  std::string num(int lo, int hi) {
    return std::to_string(lo + static_cast<int>(pick(static_cast<unsigned>(hi - lo + 1))));
  }
  std::string cmp() {  // in a pool operation: `count >=5`, `explode <>1`
    static const char* const c[] = {">=", "<=", ">", "<", "=", "<>"};
    return c[pick(6)];
  }
  std::string compare() {  // between two numbers
    static const char* const c[] = {" >= ", " <= ", " > ", " < ", " == ", " != "};
    return c[pick(6)];
  }
  std::string sides() {
    static const char* const s[] = {"2", "3", "4", "6", "8", "10", "12", "20", "F", "{1,1,2}", "{-1..1}", "{0,5}"};
    return s[pick(12)];
  }
  std::string fresh() { return "x" + std::to_string(names_++); }

  std::string pool() {
    std::string p;
    if (!pools_.empty() && pick(3) == 0) {
      p = pools_[pick(static_cast<unsigned>(pools_.size()))];
    } else {
      p = (pick(4) == 0 ? "(" + small() + ")" : num(0, 4)) + "d" + sides();
    }
    for (unsigned m = pick(3); m > 0; --m) p += pool_op(m);
    return p;
  }
  // Any row of dsl/pool_ops.def, written out from the row (so a new operation is
  // fuzzed as soon as it has a row): every part in order, an optional-looking
  // one (not the first) left out now and then, conditions with a comparison,
  // numbers small, a pool in brackets. A count gives a number: nothing follows it.
  std::string pool_op(unsigned& m) {
    const alea::PoolOpInfo& row = alea::kPoolOps[pick(static_cast<unsigned>(alea::kPoolOpCount))];
    if (row.name == "count") m = 1;
    std::string p = " " + std::string(row.written);
    bool first = true;
    for (const alea::PoolOpPart& part : row.parts) {
      if (part.kind == alea::PoolOpPart::None) break;
      if (part.kind == alea::PoolOpPart::Word) {
        p += " " + std::string(part.text);
        continue;
      }
      const bool skip = !first && pick(3) == 0;
      first = false;
      if (skip) continue;
      p += " ";
      if (!part.text.empty()) p += std::string(part.text) + " ";
      switch (part.kind) {
        case alea::PoolOpPart::Cond: p += cmp() + num(1, 6); break;
        case alea::PoolOpPart::Number: p += num(0, 3); break;
        case alea::PoolOpPart::Pool: p += "(" + pool() + ")<="; break;
        case alea::PoolOpPart::None:
        case alea::PoolOpPart::Word: break;
      }
    }
    return p;
  }
  std::string small() { return pick(2) ? num(0, 3) : "d" + num(1, 4); }

  // A pool read only through its total, size and largest dice, as the exact
  // engine holds as summaries (exact_compose_summary.cpp): targets a number or
  // a name bound before, cover's lists noted for the trace only; now and then a
  // read that a summary does not answer.
  std::string through_summary() {
    const std::string x = fresh(), k = fresh(), c = fresh(), u = fresh();
    const auto target = [&] {
      if (!numbers_.empty() && pick(3) == 0) return numbers_[pick(static_cast<unsigned>(numbers_.size()))];
      return num(-1, 14);
    };
    // Now and then the pool is a name read before, then exploded or rerolled: its pools are merged
    // by what the summaries read (summary_of_failing), unless read again after (`min`).
    std::string value = pool(), head, tail;
    if (pick(3) == 0) {
      const std::string b = fresh();
      static const char* const step[] = {" explode ", " reroll "};
      const int which = static_cast<int>(pick(2));
      head = "(let " + b + " = " + value + " in if len(" + b + ") < 0 then 0 else ";
      value = b + step[which] + num(1, 6) + (which == 0 ? " limit " + num(0, 2) : std::string(" once"));
      tail = pick(3) == 0 ? " + min(" + b + "))" : ")";
    }
    std::string r = head + "(let " + x + " = " + value + " in let " + k + " = fewest_reaching(" + x + ", " + target() +
                    ") in let " + c + " = cover(" + x + ", " + target() + ") in let " + u + " = if " + c +
                    " == none then none else note(\"used\", " + c + ".used) in sum(" + x + ") * 3 + len(" + x +
                    ") + (if " + k + " == none then -1 else " + k + ")";
    if (pick(4) == 0) r += " + (if " + c + " == none then 0 else len(" + c + ".leftover))";  // read: made whole
    return r + ")" + tail;
  }

  std::string number() {
    if (++depth_ > 4) {
      --depth_;
      if (!numbers_.empty() && pick(2)) return numbers_[pick(static_cast<unsigned>(numbers_.size()))];
      return pick(2) ? num(-3, 6) : "d" + sides();
    }
    std::string r;
    switch (pick(16)) {
      case 0: case 1: case 2: r = pool(); break;
      case 3: r = number() + " + " + number(); break;
      case 4: {
        static const char* const op[] = {" - ", " * ", " / ", " % "};
        r = "(" + number() + op[pick(4)] + number() + ")";
        break;
      }
      case 5: r = "(if (" + number() + ")" + compare() + "(" + number() + ") then " + number() + " else " + number() + ")"; break;
      case 6: {  // a number bound once and read twice
        const std::string x = fresh();
        r = "(let " + x + " = " + number() + " in ";
        numbers_.push_back(x);
        r += number() + " + " + x + ")";
        numbers_.pop_back();
        break;
      }
      case 7: {  // a pool bound once and read by several operations
        const std::string x = fresh();
        r = "(let " + x + " = " + pool() + " in ";
        pools_.push_back(x);
        r += number() + " + " + pool() + ")";
        pools_.pop_back();
        break;
      }
      case 8: {
        static const char* const f[] = {"max", "min", "sum", "len"};
        r = std::string(f[pick(4)]) + "(" + pool() + ")";
        break;
      }
      case 9: r = "(" + number() + " tiers { <=" + num(1, 6) + ": " + number() + ", else: " + number() + " })"; break;
      case 10: r = "abs(" + number() + ")"; break;
      case 11: r = std::string(pick(2) ? "max(" : "min(") + number() + ", " + number() + ")"; break;
      case 12: r = "sum(repeat " + num(0, 3) + " { " + number() + " })"; break;
      case 13:
        if (has_fn_) {
          r = "f(" + pool() + ", " + number() + ")";
          break;
        }
        [[fallthrough]];
      case 14:
        if (!numbers_.empty()) {
          r = numbers_[pick(static_cast<unsigned>(numbers_.size()))];
          break;
        }
        [[fallthrough]];
      case 15:
        if (!r.empty()) break;
        r = through_summary();
        break;
      default: r = num(-3, 9); break;
    }
    --depth_;
    return r;
  }
};

void print(const char* side, const alea::Stats& s);

// The second oracle (above): `whole` is the composed answer with nothing rare cut off.
void check_rare_chains(std::string_view source, const alea::CompiledProgram& program, const alea::Stats& whole) {
  alea::Limits cut = engine().options().limits;
  cut.max_explosion_depth = std::min<std::int64_t>(cut.max_explosion_depth, *options(true).explosion_depth);
  const alea::compose::Composed rare = alea::compose::compose_stats(
      program, {}, cut, options(true), std::chrono::steady_clock::now(), std::chrono::steady_clock::time_point::max(), 4);
  if (!rare.stats) return;  // over its budget another way
  const alea::Stats& r = *rare.stats;
  std::vector<std::string> wrong;
  std::map<std::string, mpq_class> had;
  for (const auto& e : whole.value.entries) had[alea::to_display(e.value)] = mpq_class(e.probability.exact());
  mpq_class lost = 0;
  for (const auto& e : r.value.entries) {
    const std::string v = alea::to_display(e.value);
    const mpq_class now(e.probability.exact());
    const auto it = had.find(v);
    if (it == had.end() || now > it->second) wrong.push_back("the value " + v + " gained");
    else lost += it->second - now;
    if (it != had.end()) had.erase(it);
  }
  for (const auto& [v, p] : had) lost += p;  // values cut off altogether
  // A run cut off does not go on to an error either.
  const mpq_class errors_lost = mpq_class(whole.errors.exact()) - mpq_class(r.errors.exact());
  if (errors_lost < 0) wrong.push_back("the errors gained");
  if (lost + errors_lost != mpq_class(r.cut_off.exact()) - mpq_class(whole.cut_off.exact()))
    wrong.push_back("the cut-off did not gain what the values and errors lost");
  if (wrong.empty()) return;
  std::fprintf(stderr, "fuzz_exact: cutting rare chains did more than cut them for:\n%.*s\n",
               static_cast<int>(source.size()), source.data());
  for (const std::string& w : wrong) std::fprintf(stderr, "  %s\n", w.c_str());
  print("whole", whole);
  print("rare cut", r);
  __builtin_trap();
}

void print(const char* side, const alea::Stats& s) {
  std::fprintf(stderr, "%s (%s):", side, s.exact_method.c_str());
  for (const auto& e : s.value.entries)
    std::fprintf(stderr, " %s:%s", alea::to_display(e.value).c_str(), e.probability.exact().c_str());
  std::fprintf(stderr, " | cut_off %s, errors %s", s.cut_off.exact().c_str(), s.errors.exact().c_str());
  if (s.first_error) std::fprintf(stderr, ", first error %s", alea::render_text(*s.first_error).c_str());
  std::fprintf(stderr, "\n");
}
}  // namespace

// libFuzzer's entropic schedule (its default) weighs every feature of every run, and a run of this
// harness (compile, compose, enumerate) has tens of thousands: measured, it took half the time.
// Without it (-entropic=0) the harness runs twice as many inputs. Added to the command line
// unless -entropic is given there; libFuzzer reads its flags after this call.
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  static std::vector<char*> args;
  static char flag[] = "-entropic=0";
  for (int i = 1; i < *argc; ++i)
    if (std::string_view((*argv)[i]).starts_with("-entropic=")) return 0;
  args.assign(*argv, *argv + *argc);
  args.insert(args.begin() + 1, flag);
  args.push_back(nullptr);
  *argc += 1;
  *argv = args.data();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 1024) return 0;
  std::string generated;
  std::string_view source(reinterpret_cast<const char*>(data), size);
  if (size > 0 && data[0] == 0) {
    generated = Generator(data + 1, size - 1).program();
    source = generated;
  }
  const alea::Compiled c = engine().compile(source, "fuzz");
  if (!c.ok()) return 0;
  // The composer alone first: a program it does not answer would be enumerated by compute_stats.
  const alea::compose::Composed alone = alea::testing::compose_only(engine(), *c.program, {}, options(true));
  if (!alone.stats) return 0;
  check_rare_chains(source, *c.program, *alone.stats);
  const alea::Stats fast = alea::compute_stats(engine(), c.program, {}, options(true));
  if (fast.exact_method != "composed") {
    std::fprintf(stderr, "fuzz_exact: composed alone but not by compute_stats:\n%.*s\n",
                 static_cast<int>(source.size()), source.data());
    __builtin_trap();
  }
  const alea::Stats slow = alea::compute_stats(engine(), c.program, {}, options(false));
  if (slow.exact_method != "enumerated") return 0;  // over its budget, or the order of the dice matters
  const std::vector<std::string> diffs = alea::testing::stats_differences(fast, slow);
  if (diffs.empty()) return 0;
  std::fprintf(stderr, "fuzz_exact: composed and enumerated differ for:\n%.*s\n", static_cast<int>(source.size()),
               source.data());
  for (const std::string& d : diffs) std::fprintf(stderr, "  %s\n", d.c_str());
  print("composed", fast);
  print("enumerated", slow);
  __builtin_trap();
}
