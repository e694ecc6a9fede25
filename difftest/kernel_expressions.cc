// KernelWriter's expressions: of each type, by operators, casts, `if`,
// interpolated strings and calls of the library's and the file's modules.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "difftest/kernel_writer.h"

namespace polydat::difftest::generator {

std::string KernelWriter::expr(TyKind t, int depth) {
  if (depth <= 0 || chance(20)) return leaf(t);
  if (can_loop() && chance(4)) return "(" + loop({t}, depth, "", false) + ")";
  switch (t) {
    case TyKind::Bool: return bool_expr(depth);
    case TyKind::F32:
    case TyKind::F64: return float_expr(t, depth);
    case TyKind::Str: return str_expr(depth);
    default: return int_expr(t, depth);
  }
}

std::string KernelWriter::int_expr(TyKind t, int d) {
  static const std::vector<std::string> kArith = {"+", "-", "*", "/", "%"};
  static const std::vector<std::string> kBits = {"&", "|", "^"};
  static const std::vector<std::string> kAll = {"+", "-", "*", "/", "%", "&", "|", "^"};
  auto sub = [&](TyKind u) { return expr(u, d - 1); };
  if (t == TyKind::U64 && chance(8)) return comparison_value(d);
  switch (pick(15)) {
    case 0: return bin({sub(t), one_of(kArith), sub(t)});
    case 1: return bin({sub(t), one_of(kBits), sub(t)});
    case 2: {
      const std::string op = chance(50) ? "-" : "!";
      return "(" + op + sub(t) + ")";
    }
    case 3: return mixed_operands(t, d, kAll);
    case 4: return literal_operand(t, d, kAll);
    case 5: {
      const std::string a = sub(t), s = shift_amount(t, d);
      switch (pick(4)) {
        case 0: return bin({a, "<<", s});
        case 1: return bin({a, ">>", s});
        case 2: return call("rotl", {a, s});
        default: return call("rotr", {a, s});
      }
    }
    case 6: return bin({sub(t), "**", exponent(d)});
    case 7: {
      static const char* const kCounts[] = {"popcount", "clz", "ctz"};
      const std::string f = one_of(kCounts);
      return call(f, {sub(t)});
    }
    case 8: {
      static const char* const kCalls[] = {"mod", "div", "add", "sub", "mul", "min", "max"};
      const std::string f = one_of(kCalls);
      // mod and div refuse a divisor that folds to 0 (nb-rs); `/` and `%` cover zero divisors.
      if (f == "mod" || f == "div") return call(f, {sub(t), bin({sub(t), "|", "(1 as " + type_name(t) + ")"})});
      return call(f, {sub(t), sub(t)});
    }
    case 9: return call("clamp", {sub(t), sub(t), sub(t)});
    case 10: return if_expr(t, d);
    case 11:
    case 12: return cast_to(t, d);
    default:
      if (auto c = call_of(t, d)) return *c;
      return bin({sub(t), one_of(kArith), sub(t)});
  }
}

std::string KernelWriter::float_expr(TyKind t, int d) {
  static const std::vector<std::string> kArith = {"+", "-", "*", "/", "%"};
  auto sub = [&](TyKind u) { return expr(u, d - 1); };
  switch (pick(13)) {
    case 0:
    case 1: return bin({sub(t), one_of(kArith), sub(t)});
    case 2: return "(-" + sub(t) + ")";
    case 3: return mixed_operands(t, d, kArith);
    case 4: return literal_operand(t, d, kArith);
    case 5:
      if (chance(30)) {
        features_.insert("pow-float-int-exponent");
        return bin({sub(t), "**", sub(one_of(kInts))});
      }
      return bin({sub(t), "**", sub(t)});
    case 6: {
      static const char* const kCalls[] = {"mod", "div", "add", "sub", "mul", "min", "max"};
      const std::string f = one_of(kCalls);
      return call(f, {sub(t), sub(t)});
    }
    case 7: return call("clamp", {sub(t), sub(t), sub(t)});
    case 12: {  // the C library's functions and the exact roundings, at t
      static const char* const kMath[] = {"sqrt", "exp",   "ln",    "sin",  "cos",   "tan",   "asin",
                                          "acos", "atan", "abs_f64", "floor", "ceil", "round", "trunc"};
      if (chance(15)) return call(chance(50) ? "atan2" : "pow", {sub(t), sub(t)});
      return call(one_of(kMath), {sub(t)});
    }
    case 8: return if_expr(t, d);
    case 9:
    case 10: return cast_to(t, d);
    default:
      if (auto c = call_of(t, d)) return *c;
      return bin({sub(t), one_of(kArith), sub(t)});
  }
}

std::string KernelWriter::bool_expr(int d) {
  auto sub = [&](TyKind u) { return expr(u, d - 1); };
  static const std::vector<std::string> kLogic = {"&", "|", "^"};
  // A comparison is the u64 1 or 0: made a bool here by `as`.
  switch (pick(9)) {
    case 0:
    case 1:
    case 2: return "(" + comparison(d) + " as bool)";
    case 3: return "(" + bin({sub(TyKind::Bool), chance(50) ? "==" : "!=", sub(TyKind::Bool)}) + " as bool)";
    case 4: return bin({sub(TyKind::Bool), one_of(kLogic), sub(TyKind::Bool)});
    case 5: return "(!" + sub(TyKind::Bool) + ")";
    case 6: return cast_to(TyKind::Bool, d);
    case 7: return if_expr(TyKind::Bool, d);
    default:
      if (auto c = call_of(TyKind::Bool, d)) return *c;
      return "(" + comparison(d) + " as bool)";
  }
}

// The u64 1 or 0 of a comparison, or of `& | ^` of two (still 0 or 1), or its
// bitwise `!` (all ones, or all ones but bit 0).
std::string KernelWriter::comparison_value(int d) {
  static const std::vector<std::string> kLogic = {"&", "|", "^"};
  features_.insert("comparison-u64");
  switch (pick(6)) {
    case 0: return bin({comparison(d - 1), one_of(kLogic), comparison(d - 1)});
    case 1: return "(!" + comparison(d - 1) + ")";
    default: return comparison(d);
  }
}

std::string KernelWriter::comparison(int d) {
  static const std::vector<std::string> kCmp = {"==", "!=", "<", ">", "<=", ">="};
  const TyKind u = hw_ || chance(80) ? one_of(kInts) : (chance(50) ? TyKind::F32 : TyKind::F64);
  switch (pick(5)) {
    case 0: return mixed_operands(u, d, kCmp);
    case 1: return literal_operand(u, d, kCmp);
    default: return bin({expr(u, d - 1), one_of(kCmp), expr(u, d - 1)});
  }
}

std::string KernelWriter::str_expr(int d) {
  switch (pick(6)) {
    case 0:
    case 1: return interpolation(d);
    case 2: {
      const std::string x = expr(one_of(kUnsigned), d - 1);
      std::string w;
      switch (pick(3)) {
        case 0: w = std::to_string(pick(21)); break;
        case 1: w = "(" + expr(one_of(kUnsigned), d - 1) + " & 31)"; break;
        default: w = expr(one_of(kUnsigned), d - 1); features_.insert("format-width-unbounded");
      }
      return call("zero_pad_u64", {x, w});
    }
    case 3:
      if (chance(30))  // fixed notation of either float width
        return call("format_f64", {expr(chance(50) ? TyKind::F64 : TyKind::F32, d - 1), std::to_string(pick(12))});
      if (chance(50)) return call("hex", {expr(one_of(kUnsigned), d - 1)});
      features_.insert("format-radix");
      static const char* const kRadixes[] = {"2", "8", "10", "16"};
      return call("format_u64", {expr(one_of(kUnsigned), d - 1), one_of(kRadixes)});
    case 4:
      if (chance(50)) return library_text(d);
      return if_expr(TyKind::Str, d);
    default: return interpolation(d);
  }
}

// The library's text operations (one LibFn each): codecs over text or the
// hex of bytes, digests, uuids, printf with placeholders.
std::string KernelWriter::library_text(int d) {
  features_.insert("library-text");
  static const char* const kCodecs[] = {"to_hex", "from_hex", "sha256", "md5", "to_base64", "from_base64",
                                        "url_encode", "url_decode", "html_encode", "html_decode", "to_base32",
                                        "from_base32"};
  switch (pick(4)) {
    case 0: return call("hashed_uuid", {expr(TyKind::U64, d - 1)});
    case 1: return call(one_of(kCodecs), {call("u64_to_bytes", {expr(TyKind::U64, d - 1)})});
    case 2: return call("printf", {"\"v={} w={:.2}\"", expr(one_of(kUnsigned), d - 1), expr(TyKind::F64, d - 1)});
    default: return call(one_of(kCodecs), {str_expr(d - 1)});
  }
}

// "text{x}text{y}": every scalar type and str.
std::string KernelWriter::interpolation(int d) {
  static const char* const kTexts[] = {"", "a", "-", " ", "\\n", "\\t", "\\\\", "x=", ",", "\\\"", "{{", "}}"};
  const size_t texts = interp_depth_ >= 2 ? 9 : 12;
  NoLoops no_loops(*this);
  std::string s = "\"";
  const uint64_t parts = 1 + pick(3);
  for (uint64_t i = 0; i < parts; ++i) {
    s += kTexts[pick(texts)];
    const TyKind t = chance(8) ? TyKind::Str : scalar_type();
    features_.insert("interpolate-" + type_name(t));
    ++interp_depth_;
    s += "{" + expr(t, std::max(d - 1, 0)) + "}";
    --interp_depth_;
  }
  return s + kTexts[pick(texts)] + "\"";
}

// Operands of two types that the typing rules bring together: a narrower
// integer of the same signedness, a bool, or (into a float) an integer or f32.
std::string KernelWriter::mixed_operands(TyKind t, int d, const std::vector<std::string>& ops) {
  std::vector<TyKind> others;
  if (is_int(t)) {
    for (TyKind u : kInts)
      if (is_signed(u) == is_signed(t) && width(u) < width(t)) others.push_back(u);
    others.push_back(TyKind::Bool);
  } else {
    for (TyKind u : kInts) others.push_back(u);
    if (t == TyKind::F64) others.push_back(TyKind::F32);
  }
  const TyKind u = one_of(others);
  features_.insert(u == TyKind::Bool ? "mix-bool-int" : is_float(t) ? "mix-into-float" : "mix-int-widths");
  std::string a = expr(u, d - 1), b = expr(t, d - 1);
  if (chance(50)) std::swap(a, b);
  return bin({a, one_of(ops), b});
}

std::string KernelWriter::literal_operand(TyKind t, int d, const std::vector<std::string>& ops) {
  const std::string op = one_of(ops);
  const bool right = chance(50);
  const std::string lit = small_literal(t, right && (op == "/" || op == "%"));
  const std::string x = expr(t, d - 1);
  features_.insert("literal-operand");
  return right ? bin({x, op, lit}) : bin({lit, op, x});
}

// Amounts below, at and past the width, of every unsigned type.
std::string KernelWriter::shift_amount(TyKind t, int d) {
  const unsigned w = width(t);
  const TyKind u = one_of(kUnsigned);
  switch (pick(4)) {
    case 0: {
      const unsigned amounts[] = {0, 1, w - 1, w, w + 1, 2 * w, 63, 64, 65, 200};
      const unsigned k = one_of(amounts);
      if (k >= w) features_.insert("shift-literal-at-or-past-width");
      return std::to_string(k);
    }
    case 1: return "(" + expr(u, d - 1) + " & 127)";
    case 2: return "(" + expr(u, d - 1) + " % " + std::to_string(w + 2) + ")";
    default: return expr(u, d - 1);
  }
}

std::string KernelWriter::exponent(int d) {
  const TyKind u = one_of(kUnsigned);
  switch (pick(3)) {
    case 0: {
      const unsigned small[] = {0, 1, 2, 3, 7, 63, 64, 65};
      return std::to_string(one_of(small));
    }
    case 1: return "(" + expr(u, d - 1) + " & 7)";
    default: return expr(u, d - 1);
  }
}

std::string KernelWriter::cast_to(TyKind t, int d) {
  const TyKind from = scalar_type();
  const std::string x = expr(from, d - 1);
  if (t == TyKind::U64 && chance(20)) return call("to_u64", {x});
  if (t == TyKind::F64 && chance(20)) return call("to_f64", {x});
  return "(" + x + " as " + type_name(t) + ")";
}

std::string KernelWriter::if_expr(TyKind t, int d) {
  std::string cond;
  if (chance(25)) {
    features_.insert("if-integer-condition");
    cond = expr(one_of(kInts), d - 1);
  } else {
    cond = expr(TyKind::Bool, d - 1);
  }
  return call("if", {cond, expr(t, d - 1), expr(t, d - 1)});
}

// A module of the file or of the bundled library with this result type.
std::optional<std::string> KernelWriter::call_of(TyKind t, int d) {
  auto arg = [&] { return expr(one_of(kUnsigned), d - 1); };
  std::vector<const Module*> fits;
  for (const Module& m : modules_)
    if (m.result == t && (!m.has_loop || can_call_loopy())) fits.push_back(&m);
  if (!fits.empty() && chance(60)) return module_call(*fits[pick(fits.size())], d);
  if (t == TyKind::F64) {
    if (chance(30)) {  // a distribution: its table is a Rom
      features_.insert("call-distribution");
      static const char* const kDists[] = {"dist_normal", "dist_exponential", "dist_uniform", "dist_zipf"};
      return call(one_of(kDists), {expr(TyKind::F64, d - 1)});
    }
    features_.insert("call-unit_interval");
    return call("unit_interval", {arg()});
  }
  if (t != TyKind::U64) return std::nullopt;
  if (can_call_loopy() && chance(20)) {
    --loops_left_;
    ++loops_made_;
    // Seeds, streams and ranges are constants (externs of the library modules).
    auto lit = [&](size_t n) { return std::to_string(pick(n)); };
    switch (pick(4)) {
      case 0: features_.insert("call-pcg"); return call("pcg", {arg(), lit(1000), "stream: " + lit(9)});
      case 1:
        features_.insert("call-pcg_stream");
        return chance(50) ? call("pcg_stream", {arg(), arg()}) : call("pcg_stream", {arg(), arg(), "seed: " + lit(1000)});
      case 2: features_.insert("call-permute"); return call("permute", {arg(), std::to_string(1 + pick(5000)), lit(100)});
      default:
        features_.insert("call-cycle_walk");
        return call("cycle_walk", {arg(), std::to_string(1 + pick(100000)), lit(100), lit(5)});
    }
  }
  switch (pick(4)) {
    case 0: features_.insert("call-hash"); return call("hash", {arg()});
    case 1: features_.insert("call-hash_range"); return call("hash_range", {arg(), arg()});
    case 2: features_.insert("call-splitmix64"); return call("splitmix64", {arg()});
    default: features_.insert("call-interleave"); return call("interleave", {arg(), arg()});
  }
}

std::string KernelWriter::module_call(const Module& m, int d) {
  std::vector<std::string> args;
  for (const Name& p : m.params) args.push_back(expr(p.ty, d - 1));
  if (m.last_has_default && chance(40)) {
    args.pop_back();
    features_.insert("module-default-argument");
  } else if (args.size() == 2 && chance(40)) {  // named arguments, in either order
    args = {m.params[1].text + ": " + args[1], m.params[0].text + ": " + args[0]};
    features_.insert("module-named-arguments");
  }
  features_.insert("module-call");
  if (m.has_loop) --loops_left_;
  return call(m.name, args);
}

}  // namespace polydat::difftest::generator
