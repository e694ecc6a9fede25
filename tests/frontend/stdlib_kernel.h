// Shared by the standard-library suites: one kernel compiled from GK text and
// one interpreter, reused for many inputs.
#pragma once

#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <xxhash.h>

#include "frontend/compile.h"
#include "ir/interp.h"
#include "ir/validate.h"

namespace polydat::stdlibtest {

inline constexpr uint64_t kAllOnes = ~uint64_t{0};
inline ir::Value u64(uint64_t v) { return ir::Value::integer(ir::TyKind::U64, v); }
inline ir::Value f64(double v) { return ir::Value::f64(v); }
// The library's hash, from the xxHash library: XXH3 of the 8 little-endian bytes.
inline uint64_t ref_hash(uint64_t x) { return XXH3_64bits(&x, sizeof x); }
inline uint64_t bits_of(double d) { return std::bit_cast<uint64_t>(d); }

class Kernel {
 public:
  explicit Kernel(const std::string& text) : r_(frontend::compile_source("stdlib_test.gk", text)) {
    INFO(text);
    REQUIRE_MESSAGE(r_.ok(), r_.render_diagnostics());
    const auto problems = ir::validate(*r_.ir);
    REQUIRE_MESSAGE(problems.empty(), "the IR does not validate");
    interp_ = std::make_unique<ir::Interpreter>(*r_.ir);
    in_ = r_.ir->object(r_.ir->func(r_.ir->entry()).input).ty;
  }
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  // The output struct's fields, in declaration order.
  std::vector<ir::Value> run(std::vector<ir::Value> fields) {
    const ir::Value arg = in_.is_unit() ? ir::Value() : ir::Value::structure(in_, std::move(fields));
    auto v = interp_->run(arg);
    REQUIRE_MESSAGE(v.ok(), (v.ok() ? "" : v.error().message));
    return v->elems();
  }
  // The first output.
  ir::Value first(std::vector<ir::Value> fields) { return run(std::move(fields)).at(0); }

  const frontend::Unit& unit() const { return r_.kernel(); }

 private:
  frontend::CompileResult r_;
  std::unique_ptr<ir::Interpreter> interp_;
  ir::Ty in_;
};

}  // namespace polydat::stdlibtest
