// interpreter/exact/exact_fraction.hpp — internal: weights over a total as the
// probabilities Stats reports, without going through GMP when the numbers fit
// in 128 bits. Only the double is computed here; the fraction is reduced and
// written when a caller asks for Probability::exact().
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "interpreter/exact/exact_weight.hpp"
#include "interpreter/stats.hpp"

namespace alea::compose {

class Fractions {
 public:
  explicit Fractions(Weight total) : total_(std::move(total)) {}
  // w / total, as stats.cpp gives it: mpq_get_d's double, and the fraction
  // whose text (in lowest terms) Probability::exact() writes when asked.
  Probability operator()(const Weight& w) const;

 private:
  Weight total_;
};

// The mean and standard deviation of numbers with weights, as stats.cpp
// computes them: the mean in lowest terms ("15869/1296") and as a double, and
// the sd from the exact variance.
struct Moments {
  std::string exact_mean;
  double mean = 0, sd = 0;
};
Moments moments(const std::vector<std::pair<std::int64_t, Weight>>& values);

}  // namespace alea::compose
