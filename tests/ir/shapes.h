// Hand-built IR programs for the shapes the IR design names (a + b, a
// pipeline, a Phi conditional, loops of every shape...), shared by the
// dump, algorithm and interpreter suites.
#pragma once

#include "ir/builder.h"

namespace polydat::ir::shapes {

// Each builder call gets the next source line, so topological tie-breaks
// by source position are meaningful.
class Lines {
 public:
  SourceLoc next() {
    ++line_;
    return SourceLoc{0, line_ * 100, line_ * 100 + 10, line_, 1};
  }

 private:
  uint32_t line_ = 0;
};

template <class T>
T must(Result<T> r) {
  if (!r) throw std::logic_error(std::string(error_kind_name(r.error().kind)) + ": " + r.error().message);
  return std::move(r).value();
}

Value u64(uint64_t v);

CategoryIr add();                 // {a: u64, b: u64} -> a + b
CategoryIr pipeline();            // x: u64 -> (x * 2 + 5) * 3
CategoryIr phi_abs();             // x: i64 -> if(x < 0, -x, x)
CategoryIr count_up();            // n: u64 -> loop (i = 0) while i < n { i = i + 1 } yield i   (B = U)
CategoryIr sum_to_n();            // n: u64 -> loop (i = 1, acc = 0) while i <= n {...} yield acc (B != U)
CategoryIr fanout_separate();     // x: u64 -> {a: x + 1, b: x * 2}: two chains, no join object
CategoryIr fanout_tupled();       // x: u64 -> (x + 1, x * 2) packed into one tuple, then returned
CategoryIr nested_loops();        // n: u64 -> sum over i < n of sum over j < i of j = n(n-1)(n-2)/6
CategoryIr gcd();                 // {a: u64, b: u64} -> gcd, a tuple-carried single loop
CategoryIr two_loops();           // n: u64 -> count_up(n) + sum_to_n(n), two sequential loops
CategoryIr with_call();           // x: u64 -> twice(twice(x)), twice(y) = y + y

struct Named {
  const char* name;
  CategoryIr (*build)();
};
// Every shape above, by name, in the order declared.
const std::vector<Named>& all();

}  // namespace polydat::ir::shapes
