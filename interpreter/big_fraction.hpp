// interpreter/big_fraction.hpp — an exact probability wider than 128 bits: a numerator and a
// denominator in GMP, in any terms (Probability reduces it only when its text is asked for).
#pragma once

#include <gmpxx.h>

namespace alea {

struct BigFraction {
  mpz_class num, den;  // den > 0
};

}  // namespace alea
