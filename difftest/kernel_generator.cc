#include "difftest/kernel_generator.h"

#include <algorithm>
#include <initializer_list>
#include <cstdio>
#include <iterator>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include "ir/ty.h"

namespace polydat::difftest {

namespace {

using ir::TyKind;


bool is_int(TyKind t) { return t >= TyKind::U8 && t <= TyKind::I64; }
bool is_signed(TyKind t) { return t >= TyKind::I8 && t <= TyKind::I64; }
bool is_float(TyKind t) { return t == TyKind::F32 || t == TyKind::F64; }
unsigned width(TyKind t) { return ir::Ty::scalar(t).bits(); }
std::string type_name(TyKind t) { return ir::scalar_name(t); }

std::string hex_text(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// "(a op b)" from a braced list, whose parts are generated left to right
// (function arguments have no order, so a seed would name another kernel
// under another compiler).
std::string bin(std::initializer_list<std::string> a_op_b) {
  const std::string* p = a_op_b.begin();
  return "(" + p[0] + " " + p[1] + " " + p[2] + ")";
}

std::string call(const std::string& f, const std::vector<std::string>& args) {
  std::string s = f + "(";
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i];
  return s + ")";
}

// Whether a value of `from` adapts to `to` without loss (the annotation rule).
bool lossless(TyKind from, TyKind to) {
  if (from == to) return true;
  if (from == TyKind::Bool) return is_int(to);
  if (from == TyKind::F32) return to == TyKind::F64;
  if (!is_int(from)) return false;
  const unsigned w = width(from);
  if (to == TyKind::F32) return w <= 24;
  if (to == TyKind::F64) return w <= 32;
  if (!is_int(to)) return false;
  if (is_signed(from)) return is_signed(to) && width(to) >= w;
  return is_signed(to) ? width(to) > w : width(to) >= w;
}

struct Name {
  std::string text;
  TyKind ty;
};

struct Module {
  std::string name;
  std::vector<Name> params;
  bool last_has_default = false;
  TyKind result = TyKind::U64;
  bool has_loop = false;  // a call runs a loop: only outside loops, to bound the work
};

class KernelWriter {
 public:
  KernelWriter(uint64_t seed, bool hardware) : rng_(seed), hw_(hardware) {}
  GeneratedKernel write(uint64_t seed);

 private:
  std::mt19937_64 rng_;
  bool hw_;  // what the hardware flow takes: integers and bool, at most one loop
  std::vector<Name> env_;           // the names visible where the next expression goes
  std::vector<Name> loop_results_;  // top-level bindings a loop yielded
  std::vector<Module> modules_;
  std::set<std::string> features_;
  int fresh_ = 0;
  int loops_left_ = 0;      // the kernel's loop budget (stdlib loops count too)
  int loops_made_ = 0;
  int loop_depth_ = 0;      // loops around the expression being written
  bool loops_ok_ = true;    // false in guards, bounds, yields and interpolations
  // Interpolations around the expression being written. The lexer misreads
  // \" {{ }} in a string nested three deep (see generated_findings_test.cc),
  // so strings there are written without them.
  int interp_depth_ = 0;

  struct NoLoops {  // scope guard: what is written meanwhile holds no loop
    explicit NoLoops(KernelWriter& w) : w_(w), saved_(w.loops_ok_) { w_.loops_ok_ = false; }
    ~NoLoops() { w_.loops_ok_ = saved_; }
    KernelWriter& w_;
    bool saved_;
  };

  uint64_t pick(uint64_t n) { return rng_() % n; }
  bool chance(unsigned percent) { return pick(100) < percent; }
  template <class C>
  auto one_of(const C& c) {
    return c[pick(std::size(c))];
  }
  std::string fresh(const char* prefix) { return prefix + std::to_string(fresh_++); }
  bool can_loop() const { return loops_ok_ && loops_left_ > 0 && loop_depth_ < (hw_ ? 1 : 3); }
  // stdlib loops and loopy modules run only outside loops (their trip counts are not masked).
  bool can_call_loopy() const { return loops_ok_ && loops_left_ > 0 && loop_depth_ == 0; }

  TyKind value_type();
  TyKind scalar_type() { return hw_ ? (chance(85) ? one_of(kInts) : TyKind::Bool) : one_of(kScalars); }
  std::optional<std::string> var_of(TyKind t);

  std::string expr(TyKind t, int depth);
  std::string leaf(TyKind t);
  std::string literal(TyKind t);
  std::string int_literal(TyKind t);
  std::string float_literal(TyKind t);
  std::string str_literal();
  std::string small_literal(TyKind t, bool divisor);

  std::string int_expr(TyKind t, int depth);
  std::string float_expr(TyKind t, int depth);
  std::string bool_expr(int depth);
  std::string str_expr(int depth);
  std::string library_text(int depth);
  std::string mixed_operands(TyKind t, int depth, const std::vector<std::string>& ops);
  std::string literal_operand(TyKind t, int depth, const std::vector<std::string>& ops);
  std::string shift_amount(TyKind t, int depth);
  std::string exponent(int depth);
  std::string cast_to(TyKind t, int depth);
  std::string if_expr(TyKind t, int depth);
  std::optional<std::string> call_of(TyKind t, int depth);
  std::string module_call(const Module& m, int depth);
  std::string interpolation(int depth);
  std::string comparison(int depth);
  std::string comparison_value(int depth);

  std::string update(const Name& v, int depth);
  std::string loop(const std::vector<TyKind>& yields, int depth, const std::string& indent, bool multiline);
  std::string module_definition();
  std::string binding();
};

TyKind KernelWriter::value_type() {
  if (hw_) return scalar_type();
  const uint64_t r = pick(100);
  if (r < 60) return one_of(kInts);
  if (r < 72) return TyKind::Bool;
  if (r < 82) return TyKind::F32;
  if (r < 94) return TyKind::F64;
  return TyKind::Str;
}

// Recent names first, so bindings chain into each other.
std::optional<std::string> KernelWriter::var_of(TyKind t) {
  std::vector<size_t> found;
  for (size_t i = 0; i < env_.size(); ++i)
    if (env_[i].ty == t) found.push_back(i);
  if (found.empty()) return std::nullopt;
  const size_t recent = std::min<size_t>(found.size(), 3);
  const size_t i = chance(40) ? found[found.size() - 1 - pick(recent)] : found[pick(found.size())];
  return env_[i].text;
}

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

// Mostly names, so that little folds away before the backends see it.
std::string KernelWriter::leaf(TyKind t) {
  if (auto v = var_of(t); v && chance(85)) return *v;
  if (t == TyKind::Str) return chance(30) ? str_literal() : interpolation(1);
  if (chance(85)) {
    std::vector<const Name*> others;
    for (const Name& n : env_)
      if (n.ty != TyKind::Str) others.push_back(&n);
    if (!others.empty()) return "(" + others[pick(others.size())]->text + " as " + type_name(t) + ")";
  }
  return literal(t);
}

std::string KernelWriter::literal(TyKind t) {
  if (t == TyKind::Bool) return chance(50) ? "true" : "false";
  if (is_float(t)) return float_literal(t);
  if (t == TyKind::Str) return str_literal();
  return int_literal(t);
}

// A bit pattern of the type, edges favoured, written as a cast of a hex literal.
std::string KernelWriter::int_literal(TyKind t) {
  const unsigned w = width(t);
  const uint64_t mask = w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  const uint64_t sign = uint64_t{1} << (w - 1);
  const uint64_t values[] = {0, 1, mask, sign, sign - 1, pick(100), rng_() & mask};
  return "(" + hex_text(one_of(values)) + " as " + type_name(t) + ")";
}

std::string KernelWriter::float_literal(TyKind t) {
  static const char* const kFloats[] = {
      "0.0", "(-0.0)", "1.0", "(-1.5)", "0.1", "3.4e38", "1e300", "(-2.5e-5)", "65536.0", "4294967296.5", "9.3e18",
      "(-9.3e18)", "1e-310", "(0.0 / 0.0)", "(1.0 / 0.0)", "(-1.0 / 0.0)", "128.0", "(-129.0)", "255.5",
      "2147483648.0", "1.8446744073709552e19"};
  const std::string s = one_of(kFloats);
  return t == TyKind::F32 ? "(" + s + " as f32)" : s;
}

std::string KernelWriter::str_literal() {
  static const char* const kTexts[] = {"\"\"", "\"ab\"", "\"x\\ny\"", "\"tab\\t\"", "\"\\\\\"",
                                       "\"q\\\"\"", "\"{{b}}\""};
  return kTexts[pick(interp_depth_ >= 2 ? 5 : 7)];  // the last two are unsafe three strings deep
}

// A bare literal that takes the other operand's type (and fits it).
std::string KernelWriter::small_literal(TyKind t, bool divisor) {
  if (is_float(t)) {
    static const char* const kFloats[] = {"0.5", "2.0", "1e-3", "3.25", "1e10", "0.0", "-1.25"};
    return one_of(kFloats);
  }
  int64_t v = is_signed(t) ? static_cast<int64_t>(pick(201)) - 100 : static_cast<int64_t>(pick(101));
  if (divisor && v == 0) v = 3;  // a literal 0 divisor is a compile error
  return std::to_string(v);
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

// A loop variable's next value: usually its old value combined with another,
// so the result depends on the trip count.
std::string KernelWriter::update(const Name& v, int depth) {
  if (chance(35)) return expr(v.ty, depth);
  if (v.ty == TyKind::Bool)
    return chance(30) ? "(!" + v.text + ")" : bin({v.text, chance(50) ? "^" : "|", expr(v.ty, depth)});
  static const std::vector<std::string> kInt = {"+", "-", "*", "^", "|"};
  static const std::vector<std::string> kFloat = {"+", "-", "*", "/"};
  if (is_int(v.ty) && chance(20)) {
    const std::string f = chance(50) ? "rotl" : "rotr";
    return call(f, {v.text, shift_amount(v.ty, depth)});
  }
  return bin({v.text, one_of(is_int(v.ty) ? kInt : kFloat), expr(v.ty, depth)});
}

// A loop with a counter guard that bounds it, 1-3 carried variables of mixed
// types, locals and assignments in the body, and a yield of `yields`.
std::string KernelWriter::loop(const std::vector<TyKind>& yields, int depth, const std::string& indent,
                               bool multiline) {
  --loops_left_;
  ++loops_made_;
  const uint64_t mask = loop_depth_ == 0 ? 15 : loop_depth_ == 1 ? 7 : 3;
  const size_t mark = env_.size();
  const TyKind ct = chance(75) ? one_of(kUnsigned) : one_of(kInts);
  const std::string c = fresh("c"), cty = type_name(ct);
  std::string bound;
  {
    NoLoops no_loops(*this);
    bound = "(" + expr(ct, 1) + " & " + std::to_string(mask) + ")";
  }
  std::string c_init, guard, step;
  switch (pick(7)) {
    case 0:
    case 1:  // counting down from the bound
      c_init = bound, guard = "(" + c + " > 0)", step = c + " = " + c + " - 1";
      break;
    case 2:  // the guard fails on the initial state
      c_init = std::to_string(mask + 1), guard = "(" + c + " < " + bound + ")", step = c + " = " + c + " + 1";
      features_.insert("loop-guard-fails-at-once");
      break;
    default: c_init = "0", guard = "(" + c + " < " + bound + ")", step = c + " = " + c + " + 1";
  }
  std::vector<std::string> decls = {c + ": " + cty + " = " + c_init};
  std::vector<Name> vars;
  const uint64_t nvars = 1 + pick(3);
  for (uint64_t i = 0; i < nvars; ++i) {
    // A loop variable holds a scalar (the language has no str state).
    TyKind t = i < yields.size() && chance(60) ? yields[i] : value_type();
    if (t == TyKind::Str) t = scalar_type();
    std::string init;
    std::vector<const Name*> fed;
    for (const Name& r : loop_results_)
      if (r.ty == t) fed.push_back(&r);
    const int before = loops_made_;
    if (loop_depth_ == 0 && !fed.empty() && chance(50)) {
      init = fed[pick(fed.size())]->text;
      features_.insert("loop-yield-feeds-loop");
    } else {
      init = expr(t, depth - 1);
    }
    if (loops_made_ != before) features_.insert("loop-in-loop-initial-state");
    vars.push_back({fresh("v"), t});
    decls.push_back(vars.back().text + ": " + type_name(t) + " = " + init);
  }
  std::set<TyKind> kinds = {ct};
  for (const Name& v : vars) kinds.insert(v.ty);
  if (kinds.size() >= 3) features_.insert("loop-carries-several-types");

  env_.push_back({c, ct});
  for (const Name& v : vars) env_.push_back(v);
  ++loop_depth_;
  if (chance(25)) {
    NoLoops no_loops(*this);
    guard = "(" + guard + " & " + expr(TyKind::Bool, 1) + ")";
    features_.insert("loop-data-dependent-guard");
  }
  // The body: every variable assigned once, locals in between, the counter last.
  std::vector<std::string> body;
  const std::string inner = indent + "    ";
  std::vector<size_t> order(vars.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[pick(i)]);  // std::shuffle varies by library
  for (size_t i : order) {
    if (chance(40)) {
      const TyKind t = value_type();
      const std::string name = fresh("t");
      const int before = loops_made_;
      const std::string rhs = can_loop() && chance(40) ? loop({t}, depth, inner, multiline) : expr(t, depth - 1);
      if (loops_made_ != before) features_.insert("loop-in-loop-body");
      body.push_back(name + " := " + rhs);
      env_.push_back({name, t});
    }
    const Name& v = vars[i];
    const int before = loops_made_;
    body.push_back(v.text + " = " + update(v, depth - 1));
    if (loops_made_ != before) features_.insert("loop-in-loop-body");
  }
  body.push_back(step);
  --loop_depth_;
  env_.resize(mark + 1 + vars.size());  // the yield does not see the body's locals
  std::string yield;
  {
    NoLoops no_loops(*this);
    for (TyKind t : yields)
      if (t == TyKind::Str) features_.insert("loop-yields-str");
    if (yields.size() == 1) {
      yield = expr(yields[0], depth - 1);
    } else {
      features_.insert("loop-tuple-yield");
      yield = "(";
      for (size_t i = 0; i < yields.size(); ++i) yield += (i ? ", " : "") + expr(yields[i], depth - 1);
      yield += ")";
    }
  }
  env_.resize(mark);

  std::string s = "loop (";
  for (size_t i = 0; i < decls.size(); ++i) s += (i ? ", " : "") + decls[i];
  s += ") while " + guard + " {";
  for (const std::string& b : body) s += multiline ? "\n" + inner + b : " " + b + ";";
  s += multiline ? "\n" + indent + "}" : " }";
  return s + " yield " + yield;
}

// name(p: T, q: U = default) -> (r: R) := { ... }: its own scope, no str.
std::string KernelWriter::module_definition() {
  Module m;
  m.name = fresh("m");
  const uint64_t nparams = 1 + pick(2);
  for (uint64_t i = 0; i < nparams; ++i) m.params.push_back({fresh("p"), scalar_type()});
  m.last_has_default = chance(50);
  m.result = scalar_type();
  std::vector<Name> saved = std::move(env_);
  env_ = m.params;
  const int before = loops_made_;
  std::string body;
  if (chance(40)) {
    const TyKind t = scalar_type();
    const std::string local = fresh("l");
    body += "    " + local + " := " + expr(t, 2) + "\n";
    env_.push_back({local, t});
  }
  const std::string r = fresh("r");
  const std::string value = can_loop() && chance(30) ? loop({m.result}, 3, "    ", true) : expr(m.result, 3);
  body += "    " + r + " := " + value + "\n";
  m.has_loop = loops_made_ != before;
  env_ = std::move(saved);

  std::string s = m.name + "(";
  for (size_t i = 0; i < m.params.size(); ++i) {
    s += (i ? ", " : "") + m.params[i].text + ": " + type_name(m.params[i].ty);
    if (i + 1 == m.params.size() && m.last_has_default) s += " = " + literal(m.params[i].ty);
  }
  s += ") -> (" + r + ": " + type_name(m.result) + ") := {\n" + body + "}\n";
  modules_.push_back(m);
  return s;
}

// One top-level statement: a loop (maybe yielding a tuple), a mixed_radix
// destructuring, an annotated binding, or a plain one.
std::string KernelWriter::binding() {
  if (loops_left_ > 0 && chance(40)) {
    if (chance(25)) {
      const TyKind a = value_type(), b = value_type();
      const Name x{fresh("b"), a}, y{fresh("b"), b};
      const std::string text = "(" + x.text + ", " + y.text + ") := " + loop({a, b}, 3, "", true);
      env_.push_back(x), env_.push_back(y);
      loop_results_.push_back(x), loop_results_.push_back(y);
      return text;
    }
    const Name x{fresh("b"), value_type()};
    const std::string text = x.text + " := " + loop({x.ty}, 3, "", true);
    env_.push_back(x);
    loop_results_.push_back(x);
    return text;
  }
  if (!modules_.empty() && chance(25)) {
    const Module& m = modules_[pick(modules_.size())];
    if (!m.has_loop || can_call_loopy()) {
      const Name x{fresh("b"), m.result};
      const std::string text = x.text + " := " + module_call(m, 3);
      env_.push_back(x);
      return text;
    }
  }
  if (chance(5)) {
    static const unsigned kRadixes[] = {0, 1, 2, 7, 10, 16, 100, 255, 1000};
    const uint64_t n = 2 + pick(2);
    std::string names, radixes;
    std::vector<Name> digits;
    for (uint64_t i = 0; i < n; ++i) {
      digits.push_back({fresh("b"), TyKind::U64});
      names += (i ? ", " : "") + digits.back().text;
      radixes += ", " + std::to_string(one_of(kRadixes));
    }
    const std::string text = "(" + names + ") := mixed_radix(" + expr(one_of(kUnsigned), 2) + radixes + ")";
    for (const Name& dgt : digits) env_.push_back(dgt);
    features_.insert("call-mixed_radix");
    return text;
  }
  if (chance(6)) {  // the U64 -> Bool adapter of a value known to be 0 or 1
    const Name x{fresh("b"), TyKind::Bool};
    const std::string cmp = chance(70) ? comparison(3) : bin({comparison(2), chance(50) ? "&" : "|", comparison(2)});
    env_.push_back(x);
    features_.insert("comparison-as-bool");
    return x.text + ": bool := " + cmp;
  }
  const TyKind t = value_type();
  if (t != TyKind::Str && chance(10)) {
    std::vector<TyKind> wider;
    for (TyKind u : kScalars)
      if (u != t && lossless(t, u) && !(hw_ && is_float(u))) wider.push_back(u);
    if (!wider.empty()) {
      const Name x{fresh("b"), one_of(wider)};
      const std::string text = x.text + ": " + type_name(x.ty) + " := " + expr(t, 3);
      env_.push_back(x);
      features_.insert("annotation-adapter");
      return text;
    }
  }
  const Name x{fresh("b"), t};
  const std::string text = x.text + " := " + expr(t, 3);
  env_.push_back(x);
  return text;
}

GeneratedKernel KernelWriter::write(uint64_t seed) {
  static const int kBudgets[] = {0, 0, 1, 2, 3, 4, 5};
  loops_left_ = hw_ ? static_cast<int>(pick(2)) : one_of(kBudgets);
  std::string modules;
  if (chance(30)) modules += module_definition();

  std::string head = "input (";
  const uint64_t ninputs = 1 + pick(4);
  for (uint64_t i = 0; i < ninputs; ++i) {
    const TyKind t = !hw_ && chance(5) ? TyKind::Str : scalar_type();
    env_.push_back({fresh("a"), t});
    head += (i ? ", " : "") + env_.back().text + ": " + type_name(t);
  }
  head += ")\n";
  if (chance(20)) {
    const TyKind t = scalar_type();
    env_.push_back({fresh("e"), t});
    head += "extern " + env_.back().text + ": " + type_name(t) + " = " + literal(t) + "\n";
    features_.insert("extern");
  }
  if (chance(15)) {
    const TyKind t = scalar_type();
    env_.push_back({fresh("k"), t});
    head += "volatile " + env_.back().text + " := " + literal(t) + "\n";
    features_.insert("volatile");
  }
  const size_t first_binding = env_.size();
  std::string body;
  const uint64_t nbindings = 2 + pick(5);
  for (uint64_t i = 0; i < nbindings; ++i) body += binding() + "\n";
  // Usually every binding is an output, so every intermediate value is compared.
  if (chance(85)) {
    body += "output ";
    for (size_t i = first_binding; i < env_.size(); ++i) body += (i > first_binding ? ", " : "") + env_[i].text;
    body += "\n";
    features_.insert("output-statement");
  }
  GeneratedKernel k;
  k.text = "// generated kernel, seed " + std::to_string(seed) + (hw_ ? " (for hardware)" : "") + "\n" + modules + head + body;
  k.features = std::move(features_);
  return k;
}

}  // namespace

GeneratedKernel generate_kernel(uint64_t seed, bool hardware) { return KernelWriter(seed, hardware).write(seed); }

}  // namespace polydat::difftest
