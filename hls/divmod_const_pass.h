// Strength reduction of division and remainder by a constant (docs/hls-divmod.md).
// Every live Div and Mod whose divisor is a Constant node becomes wiring,
// narrow adders, 4-bit tables and multiplications by constants: divisors 0,
// 1, -1, MIN and powers of two by their rules; others through the residue of
// the odd part (a fold of the value's chunks by their weights 2^p mod m) and
// an exact division by the odd part's inverse modulo 2^n, or a reciprocal
// multiply, a restoring step per quotient bit, or one table, whichever the
// cost estimate below finds cheapest. Signed operations go through the
// magnitudes. Nothing wider than 64 bits is ever needed.
#pragma once

#include <cstdint>
#include <vector>

#include "hls/dfg.h"
#include "hls/op_library.h"

namespace polydat::hls {

Dfg divmod_const_pass(const Dfg& g);

// The ways a division by a general constant can be built (docs/hls-divmod.md).
enum class DivmodMethod : uint8_t {
  Cheapest,           // whichever the estimate prefers (what the pass does)
  Table,              // one Rom per result over the (narrow) dividend or its magnitude
  Restoring,          // a compare-and-subtract step per quotient bit (small quotients)
  ResidueInverse,     // r by folding chunks modulo the odd part; q = (x - r) / c exactly, by the inverse
  Reciprocal,         // q by a multiply-high (products within 64 bits); r = x - q * c
  ReciprocalResidue,  // q by a multiply-high, r by folding
  SignedTable,        // signed, at most 8 bits: one Rom per result over x itself
  FloorResidue,       // signed: the floor residue of x's two's complement, no |x|; q exactly as above
};

// Tests: every general division built by `method` where it applies (signed
// ones other than SignedTable and FloorResidue through the magnitudes), by the
// cheapest way elsewhere.
Dfg divmod_const_pass(const Dfg& g, DivmodMethod method);

// What the pass weighs its choices by, and reports: op_cost() areas and delays
// of the operations, except that a multiplication by a constant (not in a DSP
// block) counts as the shift-and-add tree it will be lowered into: one adder
// of the product's width per canonical-signed-digit term beyond the first
// (plus a negation when every term is negative), in ceil(log2(terms)) levels.
struct ArithmeticEstimate {
  double area = 0;          // LUT4s (iCE40)
  unsigned adder_depth = 0; // carry chains on the longest path
  double delay_ns = 0;      // the longest path's delay
};

// Over the operations `roots` need (not counting the roots' inputs).
ArithmeticEstimate estimate_arithmetic(const Dfg& g, const std::vector<ValueId>& roots, Target t = Target::Ice40);
// Over g's live operations.
ArithmeticEstimate estimate_arithmetic(const Dfg& g, Target t = Target::Ice40);

// Adders a multiplication by c at `width` bits is lowered into (see above).
unsigned csd_adders(uint64_t c, unsigned width);
// The inverse of an odd number modulo 2^width.
uint64_t inverse_mod_pow2(uint64_t odd, unsigned width);

}  // namespace polydat::hls
