// `polydat functions` says which library functions the hardware flow takes;
// this holds it to the flow itself: a kernel calling each function is
// synthesized, and it must be accepted exactly when the listing says
// "hardware: yes" (and then its design must keep the design invariants).
#include <doctest/doctest.h>

#include <string>

#include "frontend/library.h"
#include "hls_support.h"
#include "frontend/library_examples.h"

using namespace polydat;
using namespace polydat::hls;
using namespace polydat::hls::testing;

TEST_CASE("library: the functions listed as hardware synthesize, the others are refused") {
  size_t accepted = 0, refused = 0;
  for (const frontend::LibraryFunction& f : frontend::library_functions()) {
    const std::string text = frontend::example_kernel(f);
    CAPTURE(f.name);
    CAPTURE(text);
    const auto d = synth(text, opts(Target::Ice40));
    CHECK(d.ok() == f.hardware);
    if (!d.ok()) {
      ++refused;
      continue;
    }
    ++accepted;
    const auto problems = design_problems(*d);
    CHECK_MESSAGE(problems.empty(), join(problems));
  }
  MESSAGE(accepted << " functions synthesize, " << refused << " are software only");
  CHECK(accepted >= 50);
}
