// Every corpus kernel on the native backend against the interpreter: the
// corpus line's cycles and settings, then random and edge inputs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ir/interp.h"
#include "tests/llvm/native_support.h"

namespace fs = std::filesystem;
using namespace polydat;
using namespace polydat::nativetest;

namespace {

const fs::path kCorpus = POLYDAT_CORPUS_DIR;

std::vector<fs::path> corpus_files() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(kCorpus))
    if (e.path().extension() == ".gk") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// `lib DIR` words of the first line.
std::vector<std::string> libs_of(const fs::path& file) {
  std::ifstream in(file);
  std::string line, w, prev;
  std::getline(in, line);
  std::istringstream words(line);
  std::vector<std::string> libs;
  while (words >> w) {
    if (prev == "lib") libs.push_back((file.parent_path() / w).string());
    prev = w;
  }
  return libs;
}

bool has_loops(const ir::CategoryIr& ir) {
  for (ir::ObjectId o : ir.objects_of(ir.entry()))
    if (ir.object(o).kind == ir::ObjectKind::LoopMerge) return true;
  return false;
}

// Random records of the entry's input type: each field drawn, externs too
// (an extern is an input field like any other to the engines). Where loops
// may nest, trip counts multiply: integers stay below 32 there, so the
// interpreter's time stays small.
std::vector<ir::Value> random_inputs(const ir::Ty& in_ty, size_t n, bool small, std::mt19937_64& rng) {
  std::vector<ir::Value> out;
  for (size_t i = 0; i < n; ++i) {
    if (in_ty.is_unit()) {
      out.emplace_back();
      continue;
    }
    std::vector<ir::Value> fields;
    for (size_t f = 0; f < in_ty.arity(); ++f) {
      ir::Value v = random_scalar(in_ty.component(f), rng);
      if (small && v.ty().is_int()) v = ir::Value::integer(v.ty().kind(), v.bits() & 31);
      fields.push_back(std::move(v));
    }
    out.push_back(ir::Value::structure(in_ty, std::move(fields)));
  }
  return out;
}

}  // namespace

TEST_CASE("native: every corpus kernel agrees with the interpreter") {
  size_t kernels = 0, evaluations = 0;
  std::vector<std::string> not_compiled;
  for (const fs::path& file : corpus_files()) {
    CAPTURE(file.filename().string());
    if (std::getenv("NATIVE_TRACE")) fprintf(stderr, "%s\n", file.filename().string().c_str());
    const Compiled c = compile_path(file.string(), libs_of(file));
    if (!c.ir) continue;  // the corpus's error kernels
    auto k = sim::NativeKernel::compile(*c.ir, c.ir->entry());
    if (!k) {
      not_compiled.push_back(file.stem().string() + ": " + k.error());
      continue;
    }
    std::mt19937_64 rng(std::hash<std::string>{}(file.stem().string()));
    const ir::Ty in_ty = c.ir->object(c.ir->func(c.ir->entry()).input).ty;
    size_t compared = 0;
    const bool loops = has_loops(*c.ir);
    const std::string diff =
        differences(*c.ir, **k, random_inputs(in_ty, loops ? 300 : 2000, loops, rng), compared, 2000);
    CHECK_MESSAGE(diff.empty(), diff);
    ++kernels;
    evaluations += compared;
  }
  std::string list;
  for (const std::string& s : not_compiled) list += "\n  " + s;
  MESSAGE(kernels << " kernels, " << evaluations << " evaluations compared; not compiled: " << not_compiled.size()
                  << list);
  CHECK(kernels >= 56);
  CHECK(not_compiled.empty());
}

TEST_CASE("native: the comparison catches a kernel that computes something else") {
  const Compiled right = compile_text("a.gk", "input x: u32\ny := x * 3 + 1\n");
  const Compiled wrong = compile_text("a.gk", "input x: u32\ny := x * 3 + 2\n");
  REQUIRE(right.ir);
  REQUIRE(wrong.ir);
  auto k = sim::NativeKernel::compile(*wrong.ir, wrong.ir->entry());
  REQUIRE_MESSAGE(k.ok(), (k.ok() ? "" : k.error()));
  std::mt19937_64 rng(7);
  const ir::Ty in_ty = right.ir->object(right.ir->func(right.ir->entry()).input).ty;
  size_t compared = 0;
  const std::string diff = differences(*right.ir, **k, random_inputs(in_ty, 10, false, rng), compared);
  CHECK(compared == 10);
  CHECK(diff.find("the interpreter gives") != std::string::npos);
}

// LLVM rewrites pow(x, 0.5) into sqrt unless told the call is the library's:
// the two differ in the last bit for 82 of the integers below 100,000.
TEST_CASE("native: x ** 0.5 is the C library's pow, not sqrt") {
  const Compiled c = compile_text("p.gk", "input x: u64\nr := (x as f64) ** 0.5\nq := (x as f32) ** 0.5\n");
  REQUIRE(c.ir);
  auto k = sim::NativeKernel::compile(*c.ir, c.ir->entry());
  REQUIRE_MESSAGE(k.ok(), (k.ok() ? "" : k.error()));
  const ir::Ty in_ty = c.ir->object(c.ir->func(c.ir->entry()).input).ty;
  std::vector<ir::Value> inputs;
  for (uint64_t x = 0; x < 100000; ++x) inputs.push_back(ir::Value::structure(in_ty, {ir::Value::integer(ir::TyKind::U64, x)}));
  size_t compared = 0;
  CHECK(differences(*c.ir, **k, inputs, compared) == "");
  CHECK(compared == inputs.size());
}

// One iteration rule for every engine: the same limit, counted the same way
// (back edges in one run of one loop; a nested loop's count restarts).
TEST_CASE("native: a loop stops at the interpreter's iteration limit, at the same evaluation") {
  const Compiled c = compile_text(
      "lim.gk",
      "input x: u64\n"
      "n := loop (i = 0) while i < x { i = i + 1 } yield i\n"
      "m := loop (a = 0, t = 0) while a < 3 { t = loop (j = 0) while j < x { j = j + 1 } yield t + j; a = a + 1 } yield t\n");
  REQUIRE(c.ir);
  auto k = sim::NativeKernel::compile(*c.ir, c.ir->entry());
  REQUIRE_MESSAGE(k.ok(), (k.ok() ? "" : k.error()));
  const ir::Ty in_ty = c.ir->object(c.ir->func(c.ir->entry()).input).ty;
  auto input = [&](uint64_t x) { return ir::Value::structure(in_ty, {ir::Value::integer(ir::TyKind::U64, x)}); };
  const uint64_t limit = ir::kMaxLoopIterations;
  ir::Interpreter interp(*c.ir);
  CHECK(interp.run(input(limit)).ok());       // exactly the limit: allowed (the inner loop's count restarts)
  CHECK_FALSE(interp.run(input(limit + 1)).ok());
  const std::vector<ir::Value> got = (*k)->evaluate({input(5), input(limit), input(limit + 1), input(7)});
  REQUIRE(got.size() == 2);  // stopped at the third evaluation
  CHECK(got[1] == *interp.run(input(limit)));
  CHECK(got[1].elems()[1].as_u64() == 3 * limit);
}
