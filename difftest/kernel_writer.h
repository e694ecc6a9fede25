// Internal to difftest/: the KernelWriter that generate_kernel runs, and the
// text helpers its files (kernel_*.cc) share.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "difftest/kernel_generator.h"
#include "ir/ty.h"

namespace polydat::difftest::generator {

using ir::TyKind;

inline bool is_int(TyKind t) { return t >= TyKind::U8 && t <= TyKind::I64; }
inline bool is_signed(TyKind t) { return t >= TyKind::I8 && t <= TyKind::I64; }
inline bool is_float(TyKind t) { return t == TyKind::F32 || t == TyKind::F64; }
inline unsigned width(TyKind t) { return ir::Ty::scalar(t).bits(); }
inline std::string type_name(TyKind t) { return ir::scalar_name(t); }

// "(a op b)" from a braced list, whose parts are generated left to right
// (function arguments have no order, so a seed would name another kernel
// under another compiler).
inline std::string bin(std::initializer_list<std::string> a_op_b) {
  const std::string* p = a_op_b.begin();
  return "(" + p[0] + " " + p[1] + " " + p[2] + ")";
}

inline std::string call(const std::string& f, const std::vector<std::string>& args) {
  std::string s = f + "(";
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i];
  return s + ")";
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

}  // namespace polydat::difftest::generator
