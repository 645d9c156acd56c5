// interpreter/exact_fraction.hpp — internal: weights over a total as the
// probabilities Stats reports, in lowest terms, without going through GMP
// when the numbers fit in 128 bits.
//
// A total is a product of the numbers of faces of the dice rolled, so its
// prime factors are known in advance: reducing a fraction only strips those
// primes (by multiplying with their inverses modulo 2^128), which is much
// quicker than a general gcd of 100-bit numbers.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "interpreter/exact_weight.hpp"
#include "interpreter/stats.hpp"

namespace alea::compose {

class Fractions {
 public:
  // `total` is a product of powers of `face_counts`.
  Fractions(const Weight& total, const std::vector<std::uint64_t>& face_counts);
  // w / total, as stats.cpp gives it: "a/b" in lowest terms and mpq_get_d's double.
  Probability operator()(const Weight& w);

 private:
  struct Prime {
    std::uint64_t p;
    u128 inverse;                      // p * inverse == 1 modulo 2^128
    u128 limit;                        // x is a multiple of p when x * inverse <= limit
    std::uint64_t inverse64, limit64;  // the same for 64-bit numbers
  };
  Weight total_;
  bool factored_ = false;  // total_ fits in 128 bits and is a product of primes_
  std::vector<Prime> primes_;
  struct Hash {
    std::size_t operator()(u128 x) const {
      return std::hash<std::uint64_t>()(static_cast<std::uint64_t>(x) ^
                                        static_cast<std::uint64_t>(x >> 64));
    }
  };
  std::unordered_map<u128, std::string, Hash> denominators_;  // texts already written
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
