// Runtime values: the literal of a Constant object and what the interpreter computes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/ty.h"

namespace polydat::ir {

// A typed value. Scalars keep their bit pattern at the type's width,
// zero-extended into 64 bits (floats as their IEEE bits); products keep
// their components.
class Value {
 public:
  Value() = default;  // the unit value
  static Value boolean(bool b);
  static Value integer(TyKind k, uint64_t pattern);  // truncated to k's width
  static Value f32(float f);
  static Value f64(double d);
  static Value str(std::string s);
  static Value tuple(std::vector<Value> elems);
  static Value structure(const Ty& ty, std::vector<Value> fields);
  // The all-zero value of a type: false, 0, +0.0, "", products of zeros.
  static Value zero(const Ty& ty);

  const Ty& ty() const { return ty_; }
  uint64_t bits() const { return bits_; }
  bool as_bool() const { return bits_ != 0; }
  uint64_t as_u64() const { return bits_; }
  int64_t as_i64() const;  // sign-extended from the width for signed types
  float as_f32() const;
  double as_f64() const;
  const std::string& as_str() const { return str_; }
  const std::vector<Value>& elems() const { return elems_; }
  std::vector<Value>& elems() { return elems_; }

  // Bit equality, except that two NaNs of one float type are equal
  // (outputs compare with NaNs made canonical).
  friend bool operator==(const Value& a, const Value& b);

 private:
  Ty ty_;
  uint64_t bits_ = 0;
  std::string str_;
  std::vector<Value> elems_;
};

// Text of a value: integers in decimal, bool as true/false, floats in the
// shortest form that reads back exactly (always with a '.' or exponent),
// str as is, tuples "(a, b)", structs "{name: v, ...}".
std::string render(const Value& v);
std::string render_float(double d);
std::string render_float(float f);

// Keeps the low `bits` of x (bits >= 64 keeps all).
inline uint64_t truncate_bits(uint64_t x, unsigned bits) {
  return bits >= 64 ? x : x & ((uint64_t{1} << bits) - 1);
}

}  // namespace polydat::ir
