// interpreter/stats_tally.cpp — see stats_tally.hpp.
#include "interpreter/stats_tally.hpp"

#include <cmath>
#include <tuple>

namespace alea::tally {

bool value_less(const Value& a, const Value& b) {
  const auto rank = [](const Value& v) { return v.as_int() ? 0 : v.as_bool() ? 1 : v.is_none() ? 2 : 3; };
  if (rank(a) != rank(b)) return rank(a) < rank(b);
  if (a.as_int()) return *a.as_int() < *b.as_int();
  if (a.as_bool()) return !*a.as_bool() && *b.as_bool();
  return false;
}

std::pair<double, double> wilson(double k, double n) {
  if (n <= 0) return {0, 1};
  constexpr double z = 1.959963984540054;
  const double p = k / n;
  const double denom = 1 + z * z / n;
  const double centre = (p + z * z / (2 * n)) / denom;
  const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom;
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

Probability exact_probability(const mpq_class& q) {
  Probability p;
  p.value = q.get_d();
  std::string text = q.get_str();
  if (text.find('/') == std::string::npos) text += "/1";
  p.set_exact(std::move(text));
  p.low = p.high = p.value;
  return p;
}

Value counted(const Value& v) {
  if (const auto* p = v.as_pool()) {
    if (auto t = pool_total(*p)) return Value(*t);
  }
  return v;
}

Value kept(const Value& v) {
  if (!holds_pool(v)) return v;
  if (const auto* l = v.as_list()) {
    std::vector<Value> items;
    items.reserve(l->size());
    for (const auto& i : *l) items.push_back(kept(i));
    return make_list(std::move(items));
  }
  if (const auto* r = v.as_record()) {
    std::vector<Value> values;
    values.reserve(r->values.size());
    for (const auto& f : r->values) values.push_back(kept(f));
    return make_record(r->names, std::move(values));
  }
  return counted(v);
}

// Probabilities are of all runs, so the entries and `unresolved` add up to 1;
// the mean and sd are of the resolved runs.
Distribution finish_exact(std::string name, Tally<mpq_class> t) {
  Distribution d;
  d.name = std::move(name);
  std::stable_sort(t.entries.begin(), t.entries.end(), [](const auto& a, const auto& b) { return value_less(a.first, b.first); });
  d.numeric = !t.entries.empty() && std::all_of(t.entries.begin(), t.entries.end(), [](const auto& e) { return e.first.as_int() != nullptr; });
  mpq_class total = 0, mean = 0, square = 0;
  for (const auto& [v, w] : t.entries) total += w;
  for (const auto& [v, w] : t.entries) {
    const mpq_class share = total == 0 ? mpq_class(0) : mpq_class(w / total);
    d.entries.push_back({v, exact_probability(w)});
    if (d.numeric) {
      const mpq_class x(mpz_class(std::to_string(*v.as_int())));
      mean += x * share;
      square += x * x * share;
    }
  }
  if (d.numeric) {
    d.mean = mean.get_d();
    d.exact_mean = exact_probability(mean).exact();
    const double var = mpq_class(square - mean * mean).get_d();
    d.sd = std::sqrt(std::max(0.0, var));
  }
  return d;
}

Distribution finish_sampled(std::string name, Tally<std::uint64_t> t, double runs) {
  Distribution d;
  d.name = std::move(name);
  std::stable_sort(t.entries.begin(), t.entries.end(), [](const auto& a, const auto& b) { return value_less(a.first, b.first); });
  d.numeric = !t.entries.empty() && std::all_of(t.entries.begin(), t.entries.end(), [](const auto& e) { return e.first.as_int() != nullptr; });
  double total = 0, mean = 0, square = 0;
  for (const auto& [v, w] : t.entries) total += static_cast<double>(w);
  for (const auto& [v, w] : t.entries) {
    Probability p;
    p.value = runs > 0 ? static_cast<double>(w) / runs : 0;
    std::tie(p.low, p.high) = wilson(static_cast<double>(w), runs);
    d.entries.push_back({v, p});
    if (d.numeric && total > 0) {
      const double x = static_cast<double>(*v.as_int());
      mean += x * static_cast<double>(w) / total;
      square += x * x * static_cast<double>(w) / total;
    }
  }
  if (d.numeric) {
    d.mean = mean;
    d.sd = std::sqrt(std::max(0.0, square - mean * mean));
  }
  return d;
}


}  // namespace alea::tally
