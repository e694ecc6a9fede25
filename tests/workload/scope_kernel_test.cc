// Scope kernels (workload/scope_kernel.h): an outer and an inner scope wired
// by bind_outer_scope, shared cells written through set_input (the type
// rules and each combine template, by hand-derived values), forks that share
// cells but not state, concurrent writers on forks, and the read surface
// (lookup never evaluates, pull does). Every body runs on the interpreter and
// on the LLVM engine.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <latch>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#endif

#include "frontend/embed.h"
#include "ir/ty.h"
#include "ir/value.h"
#include "sim/llvm/native_embed.h"
#include "workload/scope_kernel.h"

using namespace polydat;
using polydat::workload::ScopeKernel;
using polydat::workload::SharedCell;
using ir::Ty;
using ir::TyKind;
using ir::Value;

namespace {

struct Engine {
  const char* name;
  embed::ProgramFactory factory;  // empty: the interpreter
};

std::vector<Engine> engines() { return {{"interpreter", {}}, {"llvm", sim::native_engine()}}; }

ScopeKernel make(const std::string& text, const Engine& e) {
  ScopeKernel::Options o;
  o.engine = e.factory;
  auto k = ScopeKernel::compile(text, o);
  REQUIRE_MESSAGE(k.ok(), (k.ok() ? "" : k.error().to_string()));
  return std::move(*k);
}

Value u64(uint64_t x) { return Value::integer(TyKind::U64, x); }
Value u32(uint32_t x) { return Value::integer(TyKind::U32, x); }
Value i64(int64_t x) { return Value::integer(TyKind::I64, static_cast<uint64_t>(x)); }

// The pulled value of `name` (fails the test on an error).
Value pulled(ScopeKernel& k, const std::string& name) {
  auto v = k.pull(name);
  REQUIRE_MESSAGE(v.ok(), (v.ok() ? "" : v.error().to_string()));
  return *v;
}

void set(ScopeKernel& k, const std::string& name, const Value& v) {
  auto r = k.set_input(name, v);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().to_string()));
}

// Threads that meet here leave at once: they spin (no sleep, so no wake-up
// delay), and their next writes overlap in time.
class SpinBarrier {
 public:
  explicit SpinBarrier(int n) : n_(n) {}
  void arrive_and_wait() {
    const int gen = gen_.load();
    if (arrived_.fetch_add(1) + 1 == n_) {
      arrived_.store(0);
      gen_.fetch_add(1);
      return;
    }
    for (int spins = 0; gen_.load() == gen; ++spins)
      if (spins > 10000) std::this_thread::yield();  // the other thread was preempted
  }

 private:
  const int n_;
  std::atomic<int> arrived_{0}, gen_{0};
};

// Puts the calling thread on the n-th CPU this process may use (Linux; a no-op
// elsewhere or with one CPU), so two writers run on two cores, not in turns on one.
void pin_to_cpu(int n) {
#ifdef __linux__
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0 || CPU_COUNT(&allowed) < 2) return;
  int seen = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &allowed)) continue;
    if (seen++ != n % CPU_COUNT(&allowed)) continue;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    (void)pthread_setaffinity_np(pthread_self(), sizeof one, &one);
    return;
  }
#else
  (void)n;
#endif
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

constexpr const char* kOuter =
    "shared(sum) budget: u64 := 100\n"
    "const dim := 8 * 16\n"
    "scaled := budget * 2\n"
    "label := \"run-{dim}\"\n";

constexpr const char* kInner =
    "input cycle: u64\n"
    "extern dim: u64\n"
    "extern budget: u64\n"
    "width := dim * 2\n"
    "spend := budget + cycle\n";

}  // namespace

// ---------------------------------------------------------------------------
// Wiring an inner scope under an outer one

TEST_CASE("scope kernel: the outer's manifest; a binding another reads is no output, so it is not bound") {
  for (const Engine& e : engines()) {
    INFO("engine: " << e.name);
    ScopeKernel outer = make(kOuter, e);
    ScopeKernel inner = make(kInner, e);

    // The outer's manifest: its outputs (`dim` is read by `label`, so it is
    // not one), then its cell.
    const auto m = outer.manifest();
    REQUIRE(m.size() == 3);
    CHECK(m[0].name == "scaled");
    CHECK(m[0].ty == Ty::u64());
    CHECK_FALSE(m[0].is_const);
    CHECK_FALSE(m[0].is_shared);
    CHECK_FALSE(m[0].dynamic);
    CHECK(m[1].name == "label");
    CHECK(m[1].ty == Ty::str());
    CHECK(m[2].name == "budget");
    CHECK(m[2].ty == Ty::u64());
    CHECK(m[2].is_shared);
    CHECK_FALSE(m[2].dynamic);
    CHECK(outer.cells().size() == 1);
    CHECK(inner.cells().empty());

    CHECK(inner.bind_outer_scope(outer) == std::vector<std::string>{"budget"});
    CHECK(inner.cell("budget") == outer.cell("budget"));
    CHECK(inner.cells().size() == 1);
    CHECK_FALSE(inner.lookup("dim").has_value());
    CHECK_FALSE(inner.pull("width").ok());  // `extern dim` has no value
    CHECK(pulled(outer, "label") == Value::str("run-128"));
  }
}

TEST_CASE("scope kernel: an inner scope folds over the outer's constant and writes through its cell") {
  const std::string outer_text =
      "shared(sum) budget: u64 := 100\n"
      "dim := 8 * 16\n"
      "scaled := budget * 2\n";
  for (const Engine& e : engines()) {
    INFO("engine: " << e.name);
    ScopeKernel outer = make(outer_text, e);
    ScopeKernel inner = make(kInner, e);

    // Binding pulls the outer's outputs it has not evaluated yet.
    CHECK_FALSE(outer.lookup("dim").has_value());
    const auto bound = inner.bind_outer_scope(outer);
    CHECK(bound == std::vector<std::string>{"dim", "budget"});
    CHECK(outer.lookup("dim") == u64(128));     // the bind evaluated it
    CHECK(outer.lookup("scaled") == u64(200));
    CHECK(inner.lookup("dim") == u64(128));     // a copy
    CHECK(inner.cell("budget") == outer.cell("budget"));  // the same cell
    CHECK(inner.cell("budget").use_count() >= 3);

    set(inner, "cycle", u64(3));
    CHECK(pulled(inner, "width") == u64(256));  // dim * 2, over the copied constant
    CHECK(pulled(inner, "spend") == u64(103));

    // The inner writes its share of the budget: sum, through the cell.
    set(inner, "budget", u64(5));
    CHECK(outer.cell("budget")->get() == u64(105));
    CHECK(outer.lookup("budget") == u64(105));   // a cell is read live
    CHECK(outer.lookup("scaled") == u64(200));   // lookup never evaluates: the last evaluation's
    CHECK(pulled(outer, "scaled") == u64(210));  // the derived binding, on the next pull
    CHECK(pulled(outer, "budget") == u64(105));
    CHECK(pulled(inner, "spend") == u64(108));   // the inner's next evaluation reads the cell

    // The outer writes: the inner sees it on its next pull, with no refresh step.
    set(outer, "budget", u64(10));
    CHECK(inner.lookup("budget") == u64(115));
    CHECK(pulled(inner, "spend") == u64(118));
    CHECK(pulled(outer, "scaled") == u64(230));

    // A constant copy is a copy: setting it in the inner stays in the inner.
    set(inner, "dim", u64(1));
    CHECK(pulled(inner, "width") == u64(2));
    CHECK(outer.lookup("dim") == u64(128));
  }
}

TEST_CASE("scope kernel: three scopes share one cell; an own cell shadows; a bind can fail to pull") {
  const std::string outer_text =
      "shared(sum) budget: u64 := 100\n"
      "dim := 8 * 16\n";
  for (const Engine& e : engines()) {
    INFO("engine: " << e.name);
    ScopeKernel outer = make(outer_text, e);
    ScopeKernel inner = make(kInner, e);
    REQUIRE(inner.bind_outer_scope(outer) == std::vector<std::string>{"dim", "budget"});

    // The innermost binds under the inner: the attached cell is the outer's,
    // `width` is an inner output pulled at bind time — which fails while the
    // inner's `cycle` is not set, so `width` is not bound then.
    ScopeKernel deep = make("extern budget: u64\nextern width: u64\nextern dim: u64\nall := budget + width + dim\n", e);
    CHECK(deep.bind_outer_scope(inner) == std::vector<std::string>{"budget", "dim"});
    CHECK(deep.cell("budget") == outer.cell("budget"));
    set(inner, "cycle", u64(0));
    CHECK(deep.bind_outer_scope(inner) == std::vector<std::string>{"budget", "width", "dim"});
    CHECK(pulled(deep, "all") == u64(100 + 256 + 128));
    set(deep, "budget", u64(1000));
    CHECK(outer.cell("budget")->get() == u64(1100));
    CHECK(pulled(deep, "all") == u64(1100 + 256 + 128));

    // The inner's manifest lists the externs it holds: the copy and the cell.
    const auto m = inner.manifest();
    REQUIRE(m.size() == 4);
    CHECK(m[0].name == "width");
    CHECK(m[1].name == "spend");
    CHECK(m[1].dynamic);  // reads `cycle`
    CHECK(m[2].name == "dim");
    CHECK_FALSE(m[2].is_shared);
    CHECK(m[3].name == "budget");
    CHECK(m[3].is_shared);

    // An inner scope that declares its own cell of that name shadows the outer's.
    ScopeKernel own = make("extern dim: u64\nshared(sum) budget: u64 := 1\nboth := dim + budget\n", e);
    CHECK(own.bind_outer_scope(outer) == std::vector<std::string>{"dim"});
    CHECK(own.cell("budget") != outer.cell("budget"));
    set(own, "budget", u64(2));
    CHECK(pulled(own, "both") == u64(131));
    CHECK(outer.cell("budget")->get() == u64(1100));

    // A cell of a narrower type is attached to a wider extern (u32 -> u64);
    // writes through it still follow the cell's type.
    ScopeKernel small = make("shared(sum) tokens: u32 := 5\ntwice := tokens * 2\n", e);
    ScopeKernel wide = make("extern tokens: u64\nmore := tokens + 1\n", e);
    CHECK(wide.bind_outer_scope(small) == std::vector<std::string>{"tokens"});
    CHECK(pulled(wide, "more") == u64(6));
    set(wide, "tokens", u32(4));
    CHECK(small.cell("tokens")->get() == u32(9));
    CHECK(pulled(wide, "more") == u64(10));
    auto narrowing = wide.set_input("tokens", u64(1));
    REQUIRE_FALSE(narrowing.ok());
    CHECK(narrowing.error().kind == embed::EmbeddingError::Kind::TypeMismatch);
    // ... and a cell the extern cannot hold is not attached (nor copied).
    ScopeKernel narrow = make("extern budget: u32\nhalf := budget / 2\n", e);
    CHECK(narrow.bind_outer_scope(outer).empty());
    CHECK(narrow.cell("budget") == nullptr);
  }
}

TEST_CASE("scope kernel: scope_values are the bound externs in param order, cells left out") {
  for (const Engine& e : engines()) {
    INFO("engine: " << e.name);
    ScopeKernel outer = make("shared(sum) budget: u64 := 100\ndim := 8 * 16\n", e);
    const std::string text =
        "input cycle: u64\n"
        "extern limit: u64 = 10\n"
        "extern dim: u64\n"
        "extern budget: u64\n"
        "extern unused: u64 = 3\n"
        "out := limit + dim + budget + unused + cycle\n";
    ScopeKernel inner = make(text, e);
    CHECK(inner.scope_values().empty());
    inner.bind_outer_scope(outer);
    set(inner, "limit", u64(20));
    set(inner, "cycle", u64(1));  // an input: not a scope value
    const auto values = inner.scope_values();
    REQUIRE(values.size() == 2);
    CHECK(values[0] == std::pair<std::string, Value>{"limit", u64(20)});
    CHECK(values[1] == std::pair<std::string, Value>{"dim", u64(128)});

    // Replicated into a kernel compiled apart (per-thread forks of another
    // program): the same values, and its cell bound by bind_outer_scope.
    ScopeKernel replica = make(text, e);
    for (const auto& [name, v] : values) set(replica, name, v);
    CHECK(replica.bind_outer_scope(outer) == std::vector<std::string>{"dim", "budget"});
    set(replica, "cycle", u64(1));
    CHECK(pulled(replica, "out") == pulled(inner, "out"));
    CHECK(pulled(inner, "out") == u64(20 + 128 + 100 + 3 + 1));
    CHECK(outer.cell("budget")->get() == u64(100));  // replication wrote nothing into the cell
  }
}

TEST_CASE("scope kernel: a fork shares the cells, not the state") {
  const std::string text =
      "input cycle: u64\n"
      "shared(sum) total: u64 := 0\n"
      "extern base: u64 = 5\n"
      "out := total + base + cycle\n";
  for (const Engine& e : engines()) {
    INFO("engine: " << e.name);
    ScopeKernel k = make(text, e);
    set(k, "cycle", u64(1));
    set(k, "base", u64(10));
    CHECK(pulled(k, "out") == u64(11));

    ScopeKernel f = k.fork();
    CHECK(f.cell("total") == k.cell("total"));
    CHECK_FALSE(f.lookup("out").has_value());  // a state of its own: not evaluated yet
    CHECK(f.lookup("base") == u64(10));        // the values set come along
    CHECK(f.scope_values() == k.scope_values());
    set(f, "cycle", u64(100));
    CHECK(pulled(f, "out") == u64(110));
    CHECK(k.lookup("cycle") == u64(1));
    CHECK(pulled(k, "out") == u64(11));

    set(f, "total", u64(7));
    CHECK(k.lookup("total") == u64(7));
    CHECK(k.lookup("out") == u64(11));  // stale until pulled
    CHECK(pulled(k, "out") == u64(18));
    CHECK(pulled(f, "out") == u64(117));
  }
}

// ---------------------------------------------------------------------------
// Writes: the type rules and the combine templates

TEST_CASE("scope kernel: a write through set_input keeps the cell's type") {
  const std::string text =
      "shared total: u64 := 0\n"
      "shared flag := false\n"
      "shared ratio := 0.5\n"
      "extern limit: u64 = 1\n"
      "line := \"{total} {flag} {ratio} {limit}\"\n";
  for (const Engine& e : engines()) {
    INFO("engine: " << e.name);
    ScopeKernel k = make(text, e);
    const uint64_t before = k.cell("total")->version();

    // f64 into a u64 cell: refused, naming the cell, both types and the writer.
    auto bad = k.set_input("total", Value::f64(1.5));
    REQUIRE_FALSE(bad.ok());
    const embed::EmbeddingError& err = bad.error();
    CHECK(err.kind == embed::EmbeddingError::Kind::TypeMismatch);
    CHECK(err.name == "total");
    CHECK(err.from_type == Ty::scalar(TyKind::F64));
    CHECK(err.to_type == Ty::u64());
    CHECK(contains(err.message, "cell 'total'"));
    CHECK(contains(err.message, "u64"));
    CHECK(contains(err.message, "f64"));
    CHECK(contains(err.message, "set_input of 'total'"));
    CHECK(k.cell("total")->get() == u64(0));
    CHECK(k.cell("total")->version() == before);

    // Lossless widening: a u32 is stored as a u64.
    set(k, "total", u32(7));
    CHECK(k.cell("total")->get() == u64(7));
    CHECK(k.cell("total")->get().ty() == Ty::u64());
    CHECK(k.cell("total")->version() == before + 1);
    set(k, "ratio", u32(3));
    CHECK(k.lookup("ratio") == Value::f64(3.0));

    // bool <-> 0/1.
    set(k, "total", Value::boolean(true));
    CHECK(k.lookup("total") == u64(1));
    set(k, "flag", u64(1));
    CHECK(k.lookup("flag") == Value::boolean(true));
    set(k, "flag", u64(0));
    CHECK(k.lookup("flag") == Value::boolean(false));
    auto seven = k.set_input("flag", u64(7));
    REQUIRE_FALSE(seven.ok());
    CHECK(contains(seven.error().message, "cell 'flag'"));
    CHECK(k.lookup("flag") == Value::boolean(false));

    // A kind change, a unit value, an unknown name, an output's name.
    CHECK_FALSE(k.set_input("total", Value::str("9")).ok());
    auto unit = k.set_input("total", Value());
    REQUIRE_FALSE(unit.ok());
    CHECK(unit.error().kind == embed::EmbeddingError::Kind::NonePropagated);
    auto unknown = k.set_input("totl", u64(1));
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.error().kind == embed::EmbeddingError::Kind::UnknownNode);
    CHECK(unknown.error().suggestion == std::optional<std::string>("total"));
    auto output = k.set_input("line", Value::str("x"));
    REQUIRE_FALSE(output.ok());
    CHECK(contains(output.error().message, "is an output"));

    // A plain extern follows the adapter catalog (lossless only), not the cell rules.
    auto lossy = k.set_input("limit", Value::integer(TyKind::I32, 3));
    REQUIRE_FALSE(lossy.ok());
    CHECK(lossy.error().kind == embed::EmbeddingError::Kind::TypeMismatch);
    CHECK(pulled(k, "line") == Value::str("1 false 3.0 1"));
  }
}

TEST_CASE("scope kernel: each combine template through set_input") {
  const std::string text =
      "shared(sum) total: u64 := 10\n"
      "shared(sum) latency := 0.5\n"
      "shared(min) low: i64 := 50\n"
      "shared(max) word := \"m\"\n"
      "shared(count) hits: u32 := 0\n"
      "shared latest := \"x\"\n"
      "summary := \"{total}/{latency}/{low}/{word}/{hits}/{latest}\"\n";
  for (const Engine& e : engines()) {
    INFO("engine: " << e.name);
    ScopeKernel k = make(text, e);
    CHECK(pulled(k, "summary") == Value::str("10/0.5/50/m/0/x"));

    // sum: 10 + 5 + 7 = 22; 0.5 + 0.25 + 3 (a u32, widened) = 3.75
    set(k, "total", u64(5));
    set(k, "total", u64(7));
    set(k, "latency", Value::f64(0.25));
    set(k, "latency", u32(3));
    // min: min(50, 70) = 50, then -3, then min(-3, 20) = -3
    set(k, "low", i64(70));
    CHECK(k.lookup("low") == i64(50));
    set(k, "low", i64(-3));
    set(k, "low", u32(20));
    // max: "m" beats "a"; "z" beats "m"; "z" beats "q"
    set(k, "word", Value::str("a"));
    CHECK(k.lookup("word") == Value::str("m"));
    set(k, "word", Value::str("z"));
    set(k, "word", Value::str("q"));
    // count: one per write, whatever the value and its type
    set(k, "hits", u32(100));
    set(k, "hits", u32(5));
    set(k, "hits", Value::str("text"));
    // last: the last write
    set(k, "latest", Value::str("y"));
    set(k, "latest", Value::str("z"));

    CHECK(k.lookup("summary") == Value::str("10/0.5/50/m/0/x"));  // not evaluated since
    CHECK(pulled(k, "summary") == Value::str("22/3.75/-3/z/3/z"));
    CHECK(k.cell("total")->get() == u64(22));
    CHECK(k.cell("latency")->get() == Value::f64(3.75));
    CHECK(k.cell("low")->get() == i64(-3));
    CHECK(k.cell("word")->get() == Value::str("z"));
    CHECK(k.cell("hits")->get() == u32(3));
    CHECK(k.cell("latest")->get() == Value::str("z"));
  }
}

// ---------------------------------------------------------------------------
// Concurrency: one fork per thread, one cell

TEST_CASE("scope kernel: concurrent writers on forks lose nothing with sum and count; last keeps a written value") {
  const std::string text =
      "shared(sum) total: u64 := 0\n"
      "shared(count) hits: u64 := 0\n"
      "shared latest: u64 := 0\n"
      "shared(max) peak: u64 := 0\n"
      "shared(min) floor: u64 := 1000000000\n"
      "left := 1000000 - total\n";
  constexpr int kThreads = 4;
  constexpr uint64_t kEach = 10000;
  for (const Engine& e : engines()) {
    INFO("engine: " << e.name);
    ScopeKernel k = make(text, e);
    std::vector<ScopeKernel> forks;
    for (int t = 0; t < kThreads; ++t) forks.push_back(k.fork());
    std::atomic<int> failures{0};
    std::latch start(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        ScopeKernel& f = forks[static_cast<size_t>(t)];
        pin_to_cpu(t);
        start.arrive_and_wait();
        for (uint64_t i = 0; i < kEach; ++i) {
          bool ok = f.set_input("total", u64(1)).ok();
          ok = f.set_input("hits", u64(1)).ok() && ok;
          ok = f.set_input("latest", u64(static_cast<uint64_t>(t) * 1000000 + i)).ok() && ok;
          ok = f.set_input("peak", u64(static_cast<uint64_t>(t) * kEach + i)).ok() && ok;
          ok = f.set_input("floor", u64(static_cast<uint64_t>(t) * kEach + i)).ok() && ok;
          if (!ok) ++failures;
          if (i % 2500 == 2499) {  // an evaluation on this thread's state sees at least its own writes
            auto left = f.pull("left");
            if (!left || left->as_u64() > 1000000 - (i + 1)) ++failures;
          }
        }
      });
    for (std::thread& th : threads) th.join();
    CHECK(failures.load() == 0);
    CHECK(k.cell("total")->get().as_u64() == kThreads * kEach);
    CHECK(k.cell("hits")->get().as_u64() == kThreads * kEach);
    CHECK(k.cell("total")->version() == kThreads * kEach);
    CHECK(k.cell("peak")->get().as_u64() == (kThreads - 1) * kEach + kEach - 1);
    CHECK(k.cell("floor")->get().as_u64() == 0);
    CHECK(k.cell("total")->get().ty() == Ty::u64());
    // The write that took the lock last is some thread's last write.
    const uint64_t latest = k.cell("latest")->get().as_u64();
    CHECK((latest % 1000000 == kEach - 1 && latest / 1000000 < static_cast<uint64_t>(kThreads)));
    CHECK(pulled(k, "left").as_u64() == 1000000 - kThreads * kEach);
    for (ScopeKernel& f : forks) CHECK(pulled(f, "left").as_u64() == 1000000 - kThreads * kEach);
  }
}

TEST_CASE("scope kernel: SharedCell directly, from many threads") {
  SharedCell sum("total", Ty::u64(), frontend::Combine::Sum, u32(0));
  CHECK(sum.get() == u64(0));  // the initial value in the cell's type
  CHECK(sum.name() == "total");
  CHECK(sum.combine() == frontend::Combine::Sum);
  std::vector<std::thread> threads;
  std::latch start(4);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      start.arrive_and_wait();
      for (int i = 0; i < 10000; ++i) (void)sum.write(u64(1), "thread");
    });
  for (std::thread& th : threads) th.join();
  CHECK(sum.get().as_u64() == 40000);
  auto refused = sum.write(Value::f64(1.0), "binding `measured` of phase main");
  REQUIRE_FALSE(refused.ok());
  CHECK(contains(refused.error(), "cell 'total' (u64)"));
  CHECK(contains(refused.error(), "f64"));
  CHECK(contains(refused.error(), "binding `measured` of phase main"));
  CHECK(sum.snapshot().version == 40000);
  CHECK_THROWS_AS(SharedCell("s", Ty::str(), frontend::Combine::Sum, Value::str("")), std::invalid_argument);
  CHECK_THROWS_AS(SharedCell("n", Ty::u64(), frontend::Combine::Last, Value::f64(1.5)), std::invalid_argument);
}

// The lock under load. Two threads, pinned to two cores, meet at a spinning
// barrier before every round, so their writes of the round overlap. Each
// round's writes must all arrive. Without the lock in SharedCell::write the
// read-modify-writes race and writes are lost (this test catches that on
// every run; the 4-thread test above, unpinned, only on most).
TEST_CASE("scope kernel: SharedCell under load: every round of concurrent writes adds up") {
  constexpr int kThreads = 2, kRounds = 1000;
  constexpr uint64_t kEach = 500;
  SharedCell sum("total", Ty::u64(), frontend::Combine::Sum, u64(0));
  SharedCell count("hits", Ty::u64(), frontend::Combine::Count, u64(0));
  SharedCell best("best", Ty::str(), frontend::Combine::Max, Value::str(""));
  SpinBarrier round(kThreads);
  std::atomic<int> refused{0}, short_rounds{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      pin_to_cpu(t);
      for (int r = 0; r < kRounds; ++r) {
        round.arrive_and_wait();
        for (uint64_t i = 0; i < kEach; ++i) {
          if (!sum.write(u64(1), "load").ok()) ++refused;
          if (!count.write(u64(7), "load").ok()) ++refused;
        }
        if (!best.write(Value::str(std::to_string(t) + "-" + std::to_string(r)), "load").ok()) ++refused;
        round.arrive_and_wait();
        // Between the two barriers nobody writes: the sum is exact after every round.
        if (t == 0 && sum.get().as_u64() != static_cast<uint64_t>(r + 1) * kThreads * kEach) ++short_rounds;
        round.arrive_and_wait();
      }
    });
  for (std::thread& th : threads) th.join();
  CHECK(refused.load() == 0);
  CHECK(short_rounds.load() == 0);
  CHECK(sum.get().as_u64() == kThreads * kRounds * kEach);
  CHECK(count.get().as_u64() == kThreads * kRounds * kEach);
  CHECK(sum.version() == kThreads * kRounds * kEach);
  CHECK(best.get().as_str() == "1-999");  // the bytewise largest of the "t-r" written
}

// ---------------------------------------------------------------------------
// The read surface

TEST_CASE("scope kernel: lookup never evaluates; pull evaluates when stale") {
  const std::string text =
      "input cycle: u64\n"
      "extern base: u64 = 5\n"
      "out := base + cycle\n";
  for (const Engine& e : engines()) {
    INFO("engine: " << e.name);
    ScopeKernel k = make(text, e);
    CHECK_FALSE(k.lookup("out").has_value());
    CHECK(k.lookup("base") == u64(5));
    CHECK_FALSE(k.lookup("cycle").has_value());
    CHECK_FALSE(k.lookup("nothing").has_value());

    auto no_cycle = k.pull("out");
    REQUIRE_FALSE(no_cycle.ok());
    CHECK(no_cycle.error().kind == embed::EmbeddingError::Kind::UnresolvedPlaceholder);
    CHECK(no_cycle.error().name == "cycle");
    auto input = k.pull("cycle");
    REQUIRE_FALSE(input.ok());
    CHECK(input.error().kind == embed::EmbeddingError::Kind::UnresolvedPlaceholder);

    set(k, "cycle", u64(1));
    CHECK_FALSE(k.lookup("out").has_value());  // set, not evaluated
    CHECK(k.lookup("cycle") == u64(1));
    CHECK(pulled(k, "out") == u64(6));
    CHECK(k.lookup("out") == u64(6));
    set(k, "cycle", u64(2));
    CHECK(k.lookup("out") == u64(6));  // the last evaluation's
    CHECK(pulled(k, "cycle") == u64(2));
    CHECK(k.lookup("out") == u64(6));  // pulling a param does not evaluate
    CHECK(pulled(k, "out") == u64(7));
    set(k, "base", u64(10));
    CHECK(pulled(k, "out") == u64(12));
    CHECK(pulled(k, "base") == u64(10));

    // The kernel is a Lookup: text interpolates against it.
    auto line = embed::interpolate_via_kernel("{out} = {base} + {cycle}", k);
    REQUIRE(line.ok());
    CHECK(*line == "12 = 10 + 2");
  }
}

TEST_CASE("scope kernel: pull of an unknown name is UnknownNode; a bad text does not compile") {
  for (const Engine& e : engines()) {
    INFO("engine: " << e.name);
    ScopeKernel k = make("shared(sum) total: u64 := 0\ndoubled := total * 2\n", e);
    auto unknown = k.pull("doubeld");
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.error().kind == embed::EmbeddingError::Kind::UnknownNode);
    CHECK(unknown.error().name == "doubeld");
    CHECK(unknown.error().suggestion == std::optional<std::string>("doubled"));
    CHECK_FALSE(k.pull("").ok());

    ScopeKernel::Options o;
    o.engine = e.factory;
    auto parse = ScopeKernel::compile("x := 1 $ 2\n", o);
    REQUIRE_FALSE(parse.ok());
    CHECK(parse.error().kind == embed::EmbeddingError::Kind::Parse);
    auto combine = ScopeKernel::compile("shared(sum) name := \"n\"\nx := name\n", o);
    REQUIRE_FALSE(combine.ok());

    // Options.outputs picks the outputs; the cells stay.
    o.outputs = {"doubled"};
    auto picked = ScopeKernel::compile("shared(sum) total: u64 := 1\ndoubled := total * 2\ntripled := total * 3\n", o);
    REQUIRE(picked.ok());
    CHECK(picked->outputs().size() == 1);
    CHECK(picked->cell("total") != nullptr);
    CHECK(picked->pull("doubled").ok());
    CHECK(picked->pull("tripled").error().kind == embed::EmbeddingError::Kind::UnknownNode);
  }
}

// ---------------------------------------------------------------------------
// docs/embedding.md §8: the example, as written there (keep the two in sync)

TEST_CASE("scope kernel: the docs example") {
  for (const Engine& e : engines()) {
    INFO("engine: " << e.name);
    ScopeKernel::Options opts;
    opts.engine = e.factory;  // the docs use the default: the interpreter
    // --- docs/embedding.md §8 begins
    auto outer = workload::ScopeKernel::compile(
        "shared(sum) budget: u64 := 100\n"
        "dim := 8 * 16\n"
        "scaled := budget * 2\n", opts);
    auto inner = workload::ScopeKernel::compile(
        "input cycle: u64\n"
        "extern dim: u64\n"
        "extern budget: u64\n"
        "spend := budget + cycle % dim\n", opts);
    REQUIRE(outer);
    REQUIRE(inner);
    std::vector<std::string> bound = inner->bind_outer_scope(*outer);  // {"dim", "budget"}
    (void)inner->set_input("cycle", ir::Value::integer(ir::TyKind::U64, 130));
    auto spend = inner->pull("spend");                                  // 100 + 130 % 128 = 102
    (void)inner->set_input("budget", ir::Value::integer(ir::TyKind::U64, 5));  // sum: the cell holds 105
    auto seen = outer->lookup("budget");                                // 105, read live from the cell
    auto stale = outer->lookup("scaled");                               // 200: lookup never evaluates
    auto scaled = outer->pull("scaled");                                // 210
    // --- docs/embedding.md §8 ends
    CHECK(bound == std::vector<std::string>{"dim", "budget"});
    REQUIRE(spend);
    CHECK(*spend == u64(102));
    CHECK(seen == u64(105));
    CHECK(stale == u64(200));
    REQUIRE(scaled);
    CHECK(*scaled == u64(210));
  }
}
