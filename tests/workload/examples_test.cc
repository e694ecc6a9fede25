// The example workloads (examples/workloads/*.yaml) run through the library
// (load_workload_file + run_workload) on the interpreter and on the LLVM
// engine: the two outputs are byte-identical, and both equal lines computed
// here, independently of the compiler: `hash` is xxHash's XXH3_64bits of the
// 8 little-endian bytes, `pcg` the corpus reference (tests/corpus), `hex`,
// `format_u64` and `mixed_radix` as docs/stdlib.md and LANGUAGE.md define
// them, floats as nb-rs renders them (shortest round-trip, fixed notation, no
// trailing ".0"), and the shared cells of budget.yaml combined by hand. The
// run's summary (phase runs, cycles, ops, skipped, kernels compiled) is
// checked too, and a few param overrides to see the expectations are not
// fitted to the defaults.
//
// Faults planted to see these tests fail (each restored afterwards):
//   - floats rendered with 2 decimals (`std::chars_format::fixed, 2` in
//     values.cc): "sensor_telemetry.yaml" fails (both engines agree, the
//     independent lines do not);
//   - a do_while/do_until counter starting at 1 (runner_steps.cc do_loop):
//     "do_while.yaml" fails;
//   - the cycle loop evaluating without committing the write-throughs
//     (`f.evaluate(c, false)` in run_phase_body): "budget.yaml" fails;
//   - phase runs counted per cycle (`++s_.phases` inside the cycle loop):
//     every expectation with more than one cycle fails on the summary.
#include <doctest/doctest.h>

#include <xxhash.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sim/llvm/native_embed.h"
#include "tests/corpus/references.h"
#include "workload/model.h"
#include "workload/runner.h"

using namespace polydat::workload;
namespace fs = std::filesystem;

namespace {

const fs::path kExamples = fs::path(POLYDAT_SOURCE_ROOT) / "examples" / "workloads";

// ---- the library functions, from their definitions ----

uint64_t hash(uint64_t x) {
  unsigned char bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<unsigned char>(x >> (8 * i));
  return XXH3_64bits(bytes, sizeof bytes);
}

uint64_t pcg(uint64_t position, uint64_t seed, uint64_t stream) {
  const uint64_t jumped = polydat::corpus::ref_pcg(position, seed, stream);
  // The jump-ahead and stepping one position at a time agree (the definition is the LCG's).
  REQUIRE(jumped == polydat::corpus::ref_pcg_stepped(position, seed, stream));
  return jumped;
}

// hex(x): lowercase, no prefix, no padding.
std::string hex(uint64_t x) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), digits[x & 15]);
    x >>= 4;
  } while (x);
  return s;
}

// format_u64(x) (radix 10): decimal, no padding.
std::string dec(uint64_t x) { return std::to_string(x); }

// nb-rs's rendering of a float: shortest round-trip, fixed notation, no ".0".
std::string flt(double d) {
  char buf[400];
  auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::fixed);
  return std::string(buf, r.ptr);
}

// mixed_radix(x, r0, ..., rk): digit i is rem % ri, then rem /= ri; a radix 0 takes the rest.
std::vector<uint64_t> mixed_radix(uint64_t x, const std::vector<uint64_t>& radixes) {
  std::vector<uint64_t> out;
  uint64_t rem = x;
  for (uint64_t r : radixes) {
    if (r == 0) {
      out.push_back(rem);
      rem = 0;
    } else {
      out.push_back(rem % r);
      rem /= r;
    }
  }
  return out;
}

// ---- running ----

struct Expected {
  std::vector<std::string> lines;
  uint64_t phases = 0, cycles = 0, ops = 0, skipped = 0, compiles = 0;
};

using Params = std::map<std::string, std::string>;

uint64_t num(const Params& p, const std::string& name) { return std::stoull(p.at(name)); }

struct Outcome {
  std::string text;
  RunSummary summary;
  size_t pieces = 0;
};

Outcome run(const std::string& file, bool llvm, const Params& overrides = {}) {
  auto w = load_workload_file(kExamples / file);
  if (!w) FAIL_CHECK(w.error().rendered);
  REQUIRE(w.ok());
  RunOptions o;
  if (llvm) o.native = true;
  for (const auto& [k, v] : overrides) o.overrides.emplace_back(k, v);
  Outcome out;
  auto r = run_workload(*w, o, [&](const std::string& piece) {
    CHECK_MESSAGE(!piece.empty(), "the sink got an empty piece");
    CHECK_MESSAGE(piece.back() == '\n', "the sink got a piece that is not whole lines");
    out.text += piece;
    ++out.pieces;
    return true;
  });
  if (!r) FAIL_CHECK(r.error());
  REQUIRE(r.ok());
  out.summary = *r;
  return out;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

// Both engines, against the expectation: the lines, then the summary.
void check_workload(const std::string& file, const Expected& want, const Params& overrides = {}) {
  CAPTURE(file);
  const Outcome interp = run(file, false, overrides);
  const Outcome llvm = run(file, true, overrides);
  CHECK(interp.text == llvm.text);
  CHECK(interp.text == joined(want.lines));
  for (const Outcome* o : {&interp, &llvm}) {
    const RunSummary& s = o->summary;
    CAPTURE(o == &llvm);
    CHECK(s.phases == want.phases);
    CHECK(s.cycles == want.cycles);
    CHECK(s.ops == want.ops);
    CHECK(s.ops == want.lines.size());
    CHECK(s.skipped == want.skipped);
    CHECK(s.compiles == want.compiles);
    CHECK(s.warnings.empty());
  }
}

// ---- each example's expectation ----

Expected budget() {
  Expected e;
  // The workload's cells: remaining (last), spent (sum), largest (max), writes (count).
  uint64_t remaining = 1000, spent = 0, largest = 0, writes = 0;
  for (uint64_t c = 0; c < 5; ++c) {
    const uint64_t cost = hash(c) % 100;
    remaining = remaining - cost;       // last: the written value, computed from the cell before
    spent = spent + cost;               // sum
    largest = std::max(largest, cost);  // max
    writes = writes + 1;                // count: one per write, whatever is written
    e.lines.push_back("spend cycle=" + dec(c) + " cost=" + dec(cost) + " remaining=" + dec(remaining) +
                      " spent=" + dec(spent) + " largest=" + dec(largest) + " writes=" + dec(writes));
  }
  e.lines.push_back("report remaining=" + dec(remaining) + " spent=" + dec(spent) + " largest=" + dec(largest) +
                    " writes=" + dec(writes));
  e.phases = 2;
  e.cycles = e.ops = 6;
  e.compiles = 2;  // the workload scope and `spend`; `report` has no bindings
  return e;
}

Expected do_while(uint64_t rounds) {
  Expected e;
  // do_while "{round} < {rounds}": checked before each iteration, round from 0.
  for (uint64_t round = 0; round < rounds; ++round) {
    ++e.phases;
    for (uint64_t c = 0; c < 2; ++c)
      e.lines.push_back("round=" + dec(round) + " cycle=" + dec(c) + " id=" + dec(round * 1000 + hash(c + round) % 1000));
  }
  // do_until "{n} >= 2": runs while the condition is false, n from 0.
  for (uint64_t n = 0; !(n >= 2); ++n) {
    ++e.phases;
    e.lines.push_back("tail n=" + dec(n));
  }
  e.cycles = e.ops = e.lines.size();
  // `batch` reads `round` through the scope chain: compiled once, by the check
  // before the run, even when no round runs.
  e.compiles = 1;
  return e;
}

Expected keyvalue(const Params& p) {
  Expected e;
  const uint64_t keycount = num(p, "keycount"), cycles = num(p, "cycles"), valuelen = 12;
  const std::string keyspace = "baselines";
  e.lines.push_back("CREATE TABLE " + keyspace + ".kv (key text PRIMARY KEY, value text);");
  for (uint64_t c = 0; c < cycles; ++c)
    e.lines.push_back("INSERT INTO " + keyspace + ".kv (key, value) VALUES ('" + dec(c) + "', '" +
                      hex(hash(c) >> (64 - 4 * valuelen)) + "');");
  // `main`'s stanza is [read, write] (nb-rs's bucket sequencer, ratios 1:1):
  // `cycles` stanzas are 2 x cycles ordinals, the even ones read, the odd ones write.
  for (uint64_t c = 0; c < 2 * cycles; ++c) {
    const std::string key = dec(hash(c) % keycount);
    const bool is_write = hash(c + 1000000) % 10 < 3;
    const std::string value = hex(hash(c) >> (64 - 4 * valuelen));
    if (c % 2 == 0) {
      if (!is_write) e.lines.push_back("SELECT value FROM " + keyspace + ".kv WHERE key='" + key + "';");
      else ++e.skipped;
    } else {
      if (is_write) e.lines.push_back("UPDATE " + keyspace + ".kv SET value='" + value + "' WHERE key='" + key + "';");
      else ++e.skipped;
    }
  }
  e.phases = 3;
  e.cycles = 1 + 3 * cycles;
  e.ops = e.lines.size();
  e.compiles = 3;      // the workload scope, rampup, main; schema has no bindings
  return e;
}

Expected lfsr(uint64_t seed) {
  Expected e;
  for (uint64_t c = 0; c < 8; ++c) {
    uint64_t s = seed;
    for (uint64_t i = 0; i < c; ++i) s = (s >> 1) ^ ((s & 1) * 0xB8);
    e.lines.push_back("step=" + dec(c) + " state=" + dec(s));
  }
  e.phases = 1;
  e.cycles = e.ops = 8;
  e.compiles = 1;
  return e;
}

Expected pcg_stream(uint64_t seed) {
  Expected e;
  for (uint64_t c = 0; c < 4; ++c)
    e.lines.push_back("position=" + dec(c) + " stream0=" + dec(pcg(c, seed, 0)) + " stream7=" + dec(pcg(c, seed, 7)));
  e.phases = 1;
  e.cycles = e.ops = 4;
  e.compiles = 1;
  return e;
}

Expected scope_chain() {
  Expected e;
  for (const char* tier : {"gold", "silver"})
    for (uint64_t c = 0; c < 2; ++c)
      // the leaf's base (5000) shadows the workload's (1000)
      e.lines.push_back(std::string("region=eu tier=") + tier + " base=5000 id=" + dec(5000 + hash(c) % 100));
  e.lines.push_back("outside the loop base=1000");  // the phase outside the loop sees the workload's
  e.phases = 3;
  e.cycles = e.ops = 5;
  e.compiles = 2;  // the workload scope; leaf once (tier is only read by the op template)
  return e;
}

Expected sensor_telemetry(const Params& p) {
  Expected e;
  const uint64_t sites = num(p, "sites"), devices = num(p, "devices"), sensors = num(p, "sensors");
  for (uint64_t c = 0; c < 30; ++c) {
    const std::vector<uint64_t> d = mixed_radix(c, {sensors, devices, sites, 0});
    const uint64_t sensor = d[0], device = d[1], site = d[2], round = d[3];
    const double baseline = static_cast<double>(hash(sensor + 100 * device + 10000 * site) % 400) / 10.0;
    const double jitter = (static_cast<double>(hash(c) % 21) - 10.0) / 10.0;
    const double reading = baseline + jitter;
    const uint64_t ts = 1700000000000ull + round * 60000;
    e.lines.push_back("INSERT INTO telemetry (site, device, sensor, ts, reading) VALUES (" + dec(site) + ", " +
                      dec(device) + ", " + dec(sensor) + ", " + dec(ts) + ", " + flt(reading) + ");");
  }
  e.phases = 1;
  e.cycles = e.ops = 30;
  e.compiles = 1;  // the workload scope; the phase has no bindings
  return e;
}

Expected sweep(const std::vector<std::string>& tables) {
  Expected e;
  for (const std::string& table : tables)
    for (uint64_t k : {10, 1000}) {
      ++e.phases;
      for (uint64_t c = 0; c < 3; ++c)
        e.lines.push_back("SELECT * FROM " + table + " WHERE k=" + dec(k) + " AND v=" + dec(hash(c) % k) + ";");
    }
  e.cycles = e.ops = e.lines.size();
  e.compiles = 2;  // once per k (structural), reused across tables (parametric)
  return e;
}

Expected three_phase(uint64_t buckets) {
  Expected e;
  for (uint64_t c = 0; c < 4; ++c) e.lines.push_back("warmup cycle=" + dec(c) + " key=" + dec(hash(c) % buckets));
  uint32_t total = 0, peak = 0, seen = 0;  // shared(sum), shared(max), shared(count) u32 cells
  for (uint64_t c = 0; c < 6; ++c) {
    const uint32_t v = static_cast<uint32_t>(hash(c + 1000) % buckets);
    total += v;
    peak = std::max(peak, v);
    ++seen;
    e.lines.push_back("sample cycle=" + dec(c) + " v=" + dec(v) + " total=" + dec(total) + " peak=" + dec(peak));
  }
  e.lines.push_back("report total=" + dec(total) + " peak=" + dec(peak) + " seen=" + dec(seen));
  e.phases = 3;
  e.cycles = e.ops = e.lines.size();
  e.compiles = 3;  // the workload scope (its cells), warmup, sample
  return e;
}

const std::map<std::string, std::function<Expected()>>& expectations() {
  static const std::map<std::string, std::function<Expected()>> table = {
      {"budget.yaml", [] { return budget(); }},
      {"do_while.yaml", [] { return do_while(3); }},
      {"keyvalue.yaml", [] { return keyvalue({{"keycount", "1000"}, {"cycles", "8"}}); }},
      {"lfsr.yaml", [] { return lfsr(1); }},
      {"pcg_stream.yaml", [] { return pcg_stream(42); }},
      {"scope_chain.yaml", [] { return scope_chain(); }},
      {"sensor_telemetry.yaml", [] { return sensor_telemetry({{"sites", "3"}, {"devices", "4"}, {"sensors", "2"}}); }},
      {"sweep.yaml", [] { return sweep({"t_small", "t_large"}); }},
      {"three_phase.yaml", [] { return three_phase(100); }},
  };
  return table;
}

std::vector<std::string> example_files() {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(kExamples))
    if (entry.path().extension() == ".yaml") out.push_back(entry.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_SUITE("workload") {

TEST_CASE("example workloads: every file has an expectation here, and each runs the same on both engines") {
  const std::vector<std::string> files = example_files();
  CHECK(files.size() >= 8);
  for (const std::string& f : files) {
    CAPTURE(f);
    CHECK_MESSAGE(expectations().count(f), "no expectation for this example in tests/workload/examples_test.cc");
    const Outcome interp = run(f, false), llvm = run(f, true);
    CHECK(!interp.text.empty());
    CHECK(interp.text == llvm.text);
  }
  for (const auto& [name, _] : expectations()) CHECK_MESSAGE(fs::exists(kExamples / name), name);
}

TEST_CASE("example workloads: three_phase.yaml, 32-bit statistics cells, with the default and another bucket count") {
  check_workload("three_phase.yaml", three_phase(100));
  check_workload("three_phase.yaml", three_phase(7), {{"buckets", "7"}});
}

TEST_CASE("example workloads: budget.yaml, shared cells combined by last, sum, max and count") {
  // The first lines, written out: hash(0..4) % 100 is 97, 78, 47, 89, 56.
  const Expected e = budget();
  REQUIRE(e.lines.size() == 6);
  CHECK(e.lines[0] == "spend cycle=0 cost=97 remaining=903 spent=97 largest=97 writes=1");
  CHECK(e.lines[5] == "report remaining=633 spent=367 largest=97 writes=5");
  check_workload("budget.yaml", e);
}

TEST_CASE("example workloads: do_while.yaml, the condition checked before each iteration with the counter from 0") {
  check_workload("do_while.yaml", do_while(3));
  check_workload("do_while.yaml", do_while(5), {{"rounds", "5"}});
  check_workload("do_while.yaml", do_while(0), {{"rounds", "0"}});  // never true: no batch at all
}

TEST_CASE("example workloads: keyvalue.yaml, hex, format_u64 and if:") {
  check_workload("keyvalue.yaml", keyvalue({{"keycount", "1000"}, {"cycles", "8"}}));
  const Params other{{"keycount", "37"}, {"cycles", "50"}};
  check_workload("keyvalue.yaml", keyvalue(other), other);
}

TEST_CASE("example workloads: lfsr.yaml, a loop kernel") {
  check_workload("lfsr.yaml", lfsr(1));
  check_workload("lfsr.yaml", lfsr(0xA5), {{"seed", "165"}});
}

TEST_CASE("example workloads: pcg_stream.yaml, nb-rs's pcg(position, seed, stream)") {
  check_workload("pcg_stream.yaml", pcg_stream(42));
  check_workload("pcg_stream.yaml", pcg_stream(12345678901ull), {{"seed", "12345678901"}});
}

TEST_CASE("example workloads: scope_chain.yaml, shadowing inside the loop, the workload's outside") {
  check_workload("scope_chain.yaml", scope_chain());
}

TEST_CASE("example workloads: sensor_telemetry.yaml, mixed_radix and float rendering") {
  const Params dflt{{"sites", "3"}, {"devices", "4"}, {"sensors", "2"}};
  const Expected e = sensor_telemetry(dflt);
  // The rendering keeps the shortest round-trip digits (no rounding to a few places, no ".0").
  bool long_form = false;
  for (const std::string& l : e.lines) long_form = long_form || l.find("0000000000000") != std::string::npos;
  CHECK(long_form);
  check_workload("sensor_telemetry.yaml", e);
  const Params other{{"sites", "2"}, {"devices", "3"}, {"sensors", "5"}};
  check_workload("sensor_telemetry.yaml", sensor_telemetry(other), other);
}

TEST_CASE("example workloads: sweep.yaml, 2 tables x 2 k x 3 cycles in order, compiled once per k") {
  const Expected e = sweep({"t_small", "t_large"});
  REQUIRE(e.lines.size() == 12);
  CHECK(e.lines[0] == "SELECT * FROM t_small WHERE k=10 AND v=" + dec(hash(0) % 10) + ";");
  CHECK(e.lines[11] == "SELECT * FROM t_large WHERE k=1000 AND v=" + dec(hash(2) % 1000) + ";");
  check_workload("sweep.yaml", e);
  // Three tables: still two kernels (table is parametric), six phase runs.
  check_workload("sweep.yaml", sweep({"a", "b", "c"}), {{"tables", "a,b,c"}});
}

TEST_CASE("example workloads: a sink that refuses stops the run quietly") {
  auto w = load_workload_file(kExamples / "keyvalue.yaml");
  REQUIRE(w.ok());
  RunOptions o;
  o.overrides = {{"cycles", "200000"}};  // several 64 KiB pieces
  size_t calls = 0;
  std::string first;
  auto r = run_workload(*w, o, [&](const std::string& piece) {
    if (!calls++) first = piece;
    return false;
  });
  REQUIRE(r.ok());
  CHECK(calls == 1);
  CHECK(r->ops < 400001);
  const std::vector<std::string> lines = keyvalue({{"keycount", "1000"}, {"cycles", "200000"}}).lines;
  CHECK(first.rfind(joined({lines[0], lines[1], lines[2]}), 0) == 0);
}

}  // TEST_SUITE
