// interpreter/exact_finish.cpp — the composed engine's entry point, and its
// distribution turned into Stats exactly as stats.cpp reports an enumeration:
// the same grouping of values (a pool counted as its total), the same order,
// the same fractions in lowest terms and the same rounding to doubles.
#include <fmt/format.h>
#include <gmpxx.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "interpreter/exact.hpp"
#include "interpreter/exact_compose.hpp"

namespace alea::compose {
namespace {

Value counted(const Value& v) {
  if (const auto* p = v.as_pool()) {
    if (auto t = pool_total(*p)) return Value(*t);
  }
  return v;
}

// Weights of values grouped as stats.cpp's Tally groups them.
struct Tally {
  std::vector<std::pair<Value, Weight>> entries;
  std::unordered_map<std::int64_t, std::size_t> numbers;
  std::map<std::string, std::size_t> others;

  void add(const Value& raw, const Weight& w) {
    const Value v = counted(raw);
    auto found = [&](auto& index, auto key) {
      auto [it, fresh] = index.emplace(std::move(key), entries.size());
      if (fresh)
        entries.emplace_back(v, w);
      else
        entries[it->second].second += w;
    };
    if (const auto* i = v.as_int())
      found(numbers, *i);
    else
      found(others, fmt::format("{}:{}", static_cast<int>(v.kind()), to_display(v)));
  }
};

bool value_less(const Value& a, const Value& b) {
  if (a.as_int() && b.as_int()) return *a.as_int() < *b.as_int();
  if (a.as_bool() && b.as_bool()) return !*a.as_bool() && *b.as_bool();
  return false;
}

u128 gcd128(u128 a, u128 b) {
  while (b != 0) {
    // Binary steps while both are wide; a remainder once b fits in 64 bits.
    if ((b >> 64) == 0 && (a >> 64) == 0) {
      auto x = static_cast<std::uint64_t>(a), y = static_cast<std::uint64_t>(b);
      while (y != 0) {
        const std::uint64_t t = x % y;
        x = y;
        y = t;
      }
      return x;
    }
    const u128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// mpq_get_d of num/den (in lowest terms), without allocating.
double quotient(u128 num, u128 den) {
  mp_limb_t n[2] = {static_cast<mp_limb_t>(num), static_cast<mp_limb_t>(num >> 64)};
  mp_limb_t d[2] = {static_cast<mp_limb_t>(den), static_cast<mp_limb_t>(den >> 64)};
  auto size = [](const mp_limb_t* l) -> mp_size_t { return l[1] ? 2 : (l[0] ? 1 : 0); };
  mpq_t q;
  mpz_roinit_n(mpq_numref(q), n, size(n));
  mpz_roinit_n(mpq_denref(q), d, size(d));
  return mpq_get_d(q);
}

Probability probability(const Weight& w, const Weight& total) {
  Probability p;
  if (w.is_small() && total.is_small()) {
    const u128 g = gcd128(w.small(), total.small());
    const u128 num = w.small() / g, den = total.small() / g;
    p.value = quotient(num, den);
    p.exact = to_decimal(num) + "/" + to_decimal(den);
  } else {
    mpq_class q(w.to_mpz(), total.to_mpz());
    q.canonicalize();
    p.value = q.get_d();
    p.exact = q.get_str();
    if (p.exact.find('/') == std::string::npos) p.exact += "/1";
  }
  p.low = p.high = p.value;
  return p;
}

Distribution finish(std::string name, Tally t, const Weight& total) {
  Distribution d;
  d.name = std::move(name);
  std::stable_sort(t.entries.begin(), t.entries.end(),
                   [](const auto& a, const auto& b) { return value_less(a.first, b.first); });
  d.numeric =
      !t.entries.empty() && std::all_of(t.entries.begin(), t.entries.end(),
                                        [](const auto& e) { return e.first.as_int() != nullptr; });
  d.entries.reserve(t.entries.size());
  for (const auto& [v, w] : t.entries) d.entries.push_back({v, probability(w, total)});
  if (d.numeric) {
    mpz_class s0 = 0, s1 = 0, s2 = 0;
    for (const auto& [v, w] : t.entries) {
      const mpz_class x(fmt::format("{}", *v.as_int()));
      const mpz_class wz = w.to_mpz();
      s0 += wz;
      s1 += wz * x;
      s2 += wz * x * x;
    }
    mpq_class mean(s1, s0);
    mean.canonicalize();
    d.mean = mean.get_d();
    d.exact_mean = mean.get_str();
    if (d.exact_mean.find('/') == std::string::npos) d.exact_mean += "/1";
    mpq_class var(s2 * s0 - s1 * s1, s0 * s0);
    var.canonicalize();
    d.sd = std::sqrt(std::max(0.0, var.get_d()));
  }
  return d;
}

Stats to_stats(const Dist& dist, std::uint64_t branches) {
  Tally value;
  std::vector<std::string> names;
  std::vector<Tally> fields;
  for (const auto& [v, w] : dist.entries) {
    value.add(v, w);
    if (const auto* r = v.as_record()) {
      for (std::size_t i = 0; i < r->names.size(); ++i) {
        auto it = std::find(names.begin(), names.end(), r->names[i]);
        if (it == names.end()) {
          names.push_back(r->names[i]);
          fields.emplace_back();
          it = names.end() - 1;
        }
        fields[static_cast<std::size_t>(it - names.begin())].add(r->values[i], w);
      }
    }
  }
  Stats s;
  s.method = StatsMethod::Exact;
  s.exact_method = "composed";
  s.runs = branches;
  s.value = finish("", std::move(value), dist.total);
  for (std::size_t i = 0; i < fields.size(); ++i)
    s.fields.push_back(finish(names[i], std::move(fields[i]), dist.total));
  s.cut_off = probability(dist.fail.cut, dist.total);
  s.errors = probability(dist.fail.err, dist.total);
  s.unresolved = probability(dist.fail.cut + dist.fail.err, dist.total);
  if (!dist.fail.err.is_zero() && dist.fail.error) s.first_error = *dist.fail.error;
  return s;
}

}  // namespace

Composed compose_stats(const CompiledProgram& program, const Bindings& bindings,
                       const Limits& limits, const StatsOptions& options) {
  Composer c(bindings, limits, options.max_branches);
  try {
    const Dist d = c.run_program(*program.ast);
    return {to_stats(d, std::max<std::uint64_t>(c.branches(), 1)), ""};
  } catch (const NotComposable& n) {
    return {std::nullopt, n.why};
  } catch (const OverBudget&) {
    return {std::nullopt, fmt::format("composing needs more than {} branches (max_branches)",
                                      options.max_branches)};
  }
}

}  // namespace alea::compose
