// Every library function on the LLVM engine against the interpreter: a
// kernel around each one, run on the same random and edge inputs by both.
// `make test` compares POLYDAT_LIBRARY_INPUTS inputs a function (20,000 by
// default); `make test-slow` a million. POLYDAT_LIBRARY_ONLY=a,b limits the
// run to those functions (to repeat a long run for new ones).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>

#include "frontend/library.h"
#include "tests/llvm/native_support.h"
#include "frontend/library_examples.h"

using namespace polydat;
using namespace polydat::nativetest;

TEST_CASE("native: every library function agrees with the interpreter") {
  const char* env = std::getenv("POLYDAT_LIBRARY_INPUTS");
  const size_t per_function = env ? std::strtoull(env, nullptr, 10) : 20'000;
  const std::string only = std::getenv("POLYDAT_LIBRARY_ONLY") ? std::getenv("POLYDAT_LIBRARY_ONLY") : "";
  size_t functions = 0, evaluations = 0;
  for (const frontend::LibraryFunction& f : frontend::library_functions()) {
    if (!only.empty() && ("," + only + ",").find("," + f.name + ",") == std::string::npos) continue;
    CAPTURE(f.name);
    const std::string text = frontend::example_kernel(f);
    CAPTURE(text);
    const Compiled c = compile_text(f.name + "_call.gk", text);
    REQUIRE_MESSAGE(c.ir, c.diagnostics);
    auto k = sim::NativeKernel::compile(*c.ir, c.ir->entry());
    REQUIRE_MESSAGE(k.ok(), (k.ok() ? "" : k.error()));
    const ir::Ty in_ty = c.ir->object(c.ir->func(c.ir->entry()).input).ty;
    std::mt19937_64 rng(std::hash<std::string>{}(f.name));
    // The noise functions rebuild a 256-entry permutation each evaluation
    // (~0.7 ms on the interpreter): a fiftieth of the inputs.
    const bool costly = f.name.starts_with("perlin") || f.name.starts_with("simplex") ||
                        f.name.starts_with("fractal") || f.name.starts_with("noise_");
    const size_t count = costly ? std::max<size_t>(per_function / 50, 100) : per_function;
    size_t done = 0;
    while (done < count) {  // in batches, so memory stays small
      std::vector<ir::Value> inputs;
      for (size_t i = 0; i < std::min<size_t>(10'000, count - done); ++i) {
        std::vector<ir::Value> fields;
        for (size_t p = 0; p < in_ty.arity(); ++p) fields.push_back(random_scalar(in_ty.component(p), rng));
        inputs.push_back(ir::Value::structure(in_ty, std::move(fields)));
      }
      size_t compared = 0;
      const std::string diff = differences(*c.ir, **k, inputs, compared, 1'000'000);
      REQUIRE_MESSAGE(diff.empty(), diff);
      CHECK(compared == inputs.size());  // no input refused: every library loop ends
      done += inputs.size();
      evaluations += compared;
    }
    ++functions;
  }
  MESSAGE(functions << " functions, " << evaluations << " evaluations compared");
  CHECK(functions >= (only.empty() ? 100 : 1));
}
