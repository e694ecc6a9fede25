// generate_kernel: the kernel's head (inputs, an extern, a volatile) and
// bindings, and the types, names and literals its expressions draw from.
#include "difftest/kernel_generator.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "difftest/kernel_writer.h"

namespace polydat::difftest {

namespace generator {

namespace {
std::string hex_text(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}
}  // namespace

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

}  // namespace generator

GeneratedKernel generate_kernel(uint64_t seed, bool hardware) {
  return generator::KernelWriter(seed, hardware).write(seed);
}

}  // namespace polydat::difftest
