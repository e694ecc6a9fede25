// doctest helpers shared by the pass suites: run a pass and insist it
// succeeds and validates; evaluate a u64 -> u64 graph.
#pragma once

#include <doctest/doctest.h>

#include "ir/interp.h"
#include "program_gen.h"
#include "shapes.h"

namespace polydat::ir::testgen {

using PassFn = Result<CategoryIr> (*)(const CategoryIr&);

// The pass's result, required to exist and (unless told otherwise) to validate clean.
inline CategoryIr must_pass(PassFn pass, const CategoryIr& g, bool check_valid = true) {
  auto r = pass(g);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
  if (check_valid) CHECK(violations_text(*r).empty());
  return std::move(r).value();
}

inline uint64_t run_u64(const CategoryIr& g, uint64_t x, InterpOptions opts = {}) {
  auto r = evaluate(g, g.entry(), shapes::u64(x), opts);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
  return r->as_u64();
}

}  // namespace polydat::ir::testgen
