// One compiled kernel, several threads: each runs on a state of its own
// (sim::NativeKernel::State), and each sees exactly the interpreter's strings.
#include <doctest/doctest.h>

#include <thread>

#include "ir/interp.h"
#include "tests/llvm/native_support.h"

namespace polydat {
namespace {

// Strings built in several steps, so each evaluation rewrites every scratch.
constexpr const char* kStrings =
    "input x: u64\n"
    "name := \"k{x}-{format_u64(x * 7, 16)}\"\n"
    "tag := str_concat(name, \"/\", format_f64(x as f64 / 3.0, 3))\n";

std::vector<ir::Value> inputs_from(uint64_t first, size_t n) {
  std::vector<ir::Value> out;
  for (size_t i = 0; i < n; ++i) out.push_back(ir::Value::integer(ir::TyKind::U64, first + i));
  return out;
}

TEST_CASE("native: threads on states of their own share one kernel and agree with the interpreter") {
  const nativetest::Compiled c = nativetest::compile_text("strings.gk", kStrings);
  REQUIRE_MESSAGE(c.ir, c.diagnostics);
  auto k = sim::NativeKernel::compile(*c.ir, c.ir->entry());
  REQUIRE_MESSAGE(k, (k ? "" : k.error()));
  const sim::NativeKernel& kernel = **k;
  const sim::RecordLayout& in = kernel.inputs();
  const sim::RecordLayout& out = kernel.outputs();
  constexpr size_t kThreads = 4, kBatch = 64, kRounds = 200;
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      ir::Interpreter interp(*c.ir);
      sim::NativeKernel::State state = kernel.make_state();
      sim::RecordBuffer in_words, out_words;
      unsigned char* in_bytes = in_words.at(in.size, kBatch);
      unsigned char* out_bytes = out_words.at(out.size, kBatch);
      for (size_t round = 0; round < kRounds && failures[t].empty(); ++round) {
        const std::vector<ir::Value> xs = inputs_from((t * kRounds + round) * kBatch, kBatch);
        std::vector<ir::Value> records;
        for (const ir::Value& x : xs) records.push_back(ir::Value::structure(c.ir->object(c.ir->func(c.ir->entry()).input).ty, {x}));
        for (size_t i = 0; i < kBatch; ++i) sim::store_record(in, records[i], in_bytes + i * in.size);
        if (kernel.run(state, in_bytes, out_bytes, kBatch) != kBatch) failures[t] = "stopped early";
        for (size_t i = 0; i < kBatch && failures[t].empty(); ++i) {
          const ir::Value got = sim::load_record(out, c.ir->object(c.ir->func(c.ir->entry()).output).ty, out_bytes + i * out.size);
          auto want = interp.run(records[i]);
          if (!want || ir::render(got) != ir::render(*want))
            failures[t] = "x=" + ir::render(xs[i]) + ": " + ir::render(got) + " vs " + (want ? ir::render(*want) : "error");
        }
      }
    });
  for (std::thread& th : threads) th.join();
  for (const std::string& f : failures) CHECK_MESSAGE(f.empty(), f);
}

TEST_CASE("native: a released state runs again from fresh buffers") {
  const nativetest::Compiled c = nativetest::compile_text("strings.gk", kStrings);
  REQUIRE_MESSAGE(c.ir, c.diagnostics);
  auto k = sim::NativeKernel::compile(*c.ir, c.ir->entry());
  REQUIRE(k);
  sim::NativeKernel::State state = (*k)->make_state();
  const ir::Ty in_ty = c.ir->object(c.ir->func(c.ir->entry()).input).ty;
  std::vector<ir::Value> records{ir::Value::structure(in_ty, {ir::Value::integer(ir::TyKind::U64, 41)})};
  std::vector<uint64_t> in_words(8), out_words(16);
  sim::store_record((*k)->inputs(), records[0], in_words.data());
  for (int pass = 0; pass < 3; ++pass) {
    REQUIRE((*k)->run(state, in_words.data(), out_words.data(), 1) == 1);
    const ir::Value got =
        sim::load_record((*k)->outputs(), c.ir->object(c.ir->func(c.ir->entry()).output).ty, out_words.data());
    CHECK(ir::render(got) == "{tag: k41-0x11f/13.667}");  // 41 * 7 = 0x11f, 41 / 3 = 13.667
    state.release();
  }
}

}  // namespace
}  // namespace polydat

namespace polydat {
namespace {
// An extern's chain, batch-invariant: computed once per batch from the first
// record, the same values as the interpreter's when the batch agrees on it.
TEST_CASE("native: batch-invariant externs are read from the first record, and their work agrees with the interpreter") {
  const nativetest::Compiled c = nativetest::compile_text(
      "k.gk", "input cycle: u64\nextern seed: u64 = 5\nstable := hash(hash(seed) % 1000)\nout := hash(cycle) ^ stable\n");
  REQUIRE_MESSAGE(c.ir, c.diagnostics);
  sim::LowerOptions lower;
  lower.batch_invariant = {false, true};
  auto k = sim::NativeKernel::compile(*c.ir, c.ir->entry(), lower);
  REQUIRE_MESSAGE(k, (k ? "" : k.error()));
  const ir::Ty in_ty = c.ir->object(c.ir->func(c.ir->entry()).input).ty;
  auto record = [&](uint64_t cycle, uint64_t seed) {
    return ir::Value::structure(in_ty, {ir::Value::integer(ir::TyKind::U64, cycle), ir::Value::integer(ir::TyKind::U64, seed)});
  };
  ir::Interpreter interp(*c.ir);
  for (uint64_t seed : {0ull, 5ull, 77ull}) {
    std::vector<ir::Value> batch;
    for (uint64_t cycle = 0; cycle < 11; ++cycle) batch.push_back(record(cycle, seed));  // 11: two groups of lanes and a rest
    const std::vector<ir::Value> got = (*k)->evaluate(batch);
    REQUIRE(got.size() == batch.size());
    for (size_t i = 0; i < batch.size(); ++i) CHECK(got[i] == *interp.run(batch[i]));
  }
  // The contract: every record after the first is taken to hold the first one's extern.
  const std::vector<ir::Value> mixed = (*k)->evaluate({record(3, 1), record(4, 2)});
  CHECK(mixed[1] == *interp.run(record(4, 1)));
  CHECK(mixed[1] != *interp.run(record(4, 2)));
}
}  // namespace
}  // namespace polydat
