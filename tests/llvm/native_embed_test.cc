// embed::Kernel on the LLVM engine: the interpreter's values, errors and
// lookups; forks sharing one compiled program across threads; pulled outputs.
#include <doctest/doctest.h>

#include <xxhash.h>

#include <thread>

#include "frontend/embed.h"
#include "sim/llvm/native_embed.h"

namespace polydat {
namespace {

constexpr const char* kMixed =
    "input cycle: u64\n"
    "extern limit: u64 = 1000\n"
    "id := mod(hash(cycle), limit)\n"
    "ratio := id as f64 / 7.0\n"
    "small := (hash(id) % 200) as i8\n"
    "label := \"user-{id}/{format_f64(ratio, 2)}\"\n";

embed::KernelOptions native() {
  embed::KernelOptions o;
  o.engine = sim::native_engine();
  return o;
}

TEST_CASE("embed on llvm: every output, set and lookup as on the interpreter") {
  auto interp = embed::Kernel::compile(kMixed);
  auto llvm = embed::Kernel::compile(kMixed, native());
  REQUIRE_MESSAGE(interp, (interp ? "" : interp.error().to_string()));
  REQUIRE_MESSAGE(llvm, (llvm ? "" : llvm.error().to_string()));
  CHECK(llvm->output_names() == interp->output_names());
  for (uint64_t limit : {1000ull, 7ull}) {
    REQUIRE(interp->set("limit", limit));
    REQUIRE(llvm->set("limit", limit));
    for (uint64_t cycle = 0; cycle < 500; ++cycle) {
      REQUIRE(interp->set("cycle", cycle));
      REQUIRE(llvm->set("cycle", cycle));
      auto a = interp->evaluate();
      auto b = llvm->evaluate();
      REQUIRE(a);
      REQUIRE(b);
      CHECK(*a == *b);
    }
    CHECK(llvm->lookup("label") == interp->lookup("label"));
  }
}

TEST_CASE("embed on llvm: forks share the compiled program, each thread with a state of its own") {
  auto k = embed::Kernel::compile(kMixed, native());
  REQUIRE(k);
  auto oracle = embed::Kernel::compile(kMixed);
  REQUIRE(oracle);
  constexpr int kThreads = 4, kEach = 2000;
  std::vector<embed::Kernel> forks;
  for (int t = 0; t < kThreads; ++t) forks.push_back(k->fork());
  std::vector<std::vector<std::vector<ir::Value>>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (uint64_t i = 0; i < kEach; ++i) {
        if (!forks[t].set("cycle", uint64_t(t * kEach + i))) return;
        auto out = forks[t].evaluate();
        if (!out) return;
        got[t].push_back(*out);
      }
    });
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    REQUIRE(got[t].size() == kEach);
    for (uint64_t i = 0; i < kEach; i += 37) {
      REQUIRE(oracle->set("cycle", uint64_t(t * kEach + i)));
      CHECK(got[t][i] == *oracle->evaluate());
    }
  }
}

TEST_CASE("embed: KernelOptions::outputs pulls only those outputs, on both engines") {
  for (const bool on_llvm : {false, true}) {
    CAPTURE(on_llvm);
    embed::KernelOptions o = on_llvm ? native() : embed::KernelOptions{};
    o.outputs = {"small", "id"};
    auto k = embed::Kernel::compile(kMixed, o);
    REQUIRE_MESSAGE(k, (k ? "" : k.error().to_string()));
    CHECK(k->output_names() == std::vector<std::string>{"small", "id"});
    const uint64_t cycle = 12345;
    REQUIRE(k->set("cycle", cycle));
    auto some = k->evaluate();
    REQUIRE(some);
    const uint64_t id = XXH3_64bits(&cycle, 8) % 1000;  // hash is XXH3-64 of the 8 little-endian bytes
    CHECK((*some)[0].as_i64() == static_cast<int8_t>(XXH3_64bits(&id, 8) % 200));
    CHECK((*some)[1].as_u64() == id);
  }
  embed::KernelOptions bad = native();
  bad.outputs = {"nope"};
  auto k = embed::Kernel::compile(kMixed, bad);
  REQUIRE(!k);
  CHECK(k.error().message.find("'nope' is asked for as an output") != std::string::npos);
}

TEST_CASE("embed on llvm: a loop past the iteration limit is the interpreter's error") {
  const char* text = "input n: u64\nk := loop (i = 0) while i != n { i = i + 2 } yield i\n";
  auto interp = embed::Kernel::compile(text);
  auto llvm = embed::Kernel::compile(text, native());
  REQUIRE(interp);
  REQUIRE(llvm);
  REQUIRE(interp->set("n", uint64_t{1}));
  REQUIRE(llvm->set("n", uint64_t{1}));
  auto a = interp->evaluate();
  auto b = llvm->evaluate();
  REQUIRE(!a);
  REQUIRE(!b);
  CHECK(b.error().kind == embed::EmbeddingError::Kind::NodeEvalPanic);
  CHECK(b.error().to_string() == a.error().to_string());
  REQUIRE(llvm->set("n", uint64_t{10}));
  auto ok = llvm->evaluate();
  REQUIRE(ok);
  CHECK((*ok)[0].as_u64() == 10);
}

}  // namespace
}  // namespace polydat
