// The QoR wrapper in Icarus Verilog around a hand-written probe kernel,
// against a cycle model written here from the wrapper's description: the
// LFSR's sequence, the externs loaded while reset is held and held after, the
// pin equal to the XOR of the kernel's outputs a cycle earlier. That the
// polynomial is maximal-length is shown apart, in GF(2) arithmetic. Faults
// planted in the wrapper's text must each be caught by the same checker.
#include "boards/qor_wrapper.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <bitset>
#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/process.h"

namespace fs = std::filesystem;
using namespace polydat;
using polydat::testing::TempDir;

namespace {

// ---- GF(2) linear algebra on 64-bit states: a matrix is its 64 columns ----

using Mat = std::array<uint64_t, 64>;

uint64_t apply(const Mat& m, uint64_t v) {
  uint64_t r = 0;
  for (int i = 0; i < 64; ++i)
    if ((v >> i) & 1) r ^= m[i];
  return r;
}
Mat mul(const Mat& a, const Mat& b) {  // a * b: b first
  Mat r{};
  for (int i = 0; i < 64; ++i) r[i] = apply(a, b[i]);
  return r;
}
Mat identity() {
  Mat r{};
  for (int i = 0; i < 64; ++i) r[i] = uint64_t(1) << i;
  return r;
}
Mat power(Mat m, unsigned __int128 e) {
  Mat r = identity();
  for (; e; e >>= 1, m = mul(m, m))
    if (e & 1) r = mul(r, m);
  return r;
}

// The reference step, from the description: shift left by one, the new bit 0
// is XNOR of bits 63, 62, 60, 59. (The XOR twin is the linear part.)
uint64_t xor_step(uint64_t s) { return (s << 1) | (((s >> 63) ^ (s >> 62) ^ (s >> 60) ^ (s >> 59)) & 1); }
uint64_t xnor_step(uint64_t s) { return (s << 1) | (~((s >> 63) ^ (s >> 62) ^ (s >> 60) ^ (s >> 59)) & 1); }

// ---- the probe kernel: a one-stage pipeline with ports of several widths ----

const char* kProbe = R"(module probe (
    input  logic clk,
    input  logic rst,
    input  logic in_valid,
    output logic in_ready,
    input  logic [63:0] in_a,
    input  logic [7:0] in_b,
    input  logic in_c,
    input  logic [39:0] cfg_k,
    input  logic cfg_f,
    output logic out_valid,
    input  logic out_ready,
    output logic [63:0] out_x,
    output logic [2:0] out_y
);
  assign in_ready = out_ready;
  always_ff @(posedge clk) begin
    if (rst) out_valid <= 1'b0;
    else out_valid <= in_valid;
    out_x <= in_a + {24'd0, cfg_k};
    out_y <= in_b[2:0] ^ {in_c, cfg_f, in_b[7]};
  end
endmodule
)";

boards::KernelPorts probe_ports() {
  boards::KernelPorts k;
  k.module = "probe";
  k.inputs = {{"in_a", 64, "a"}, {"in_b", 8, "b"}, {"in_c", 1, "c"}};
  k.configs = {{"cfg_k", 40, "k"}, {"cfg_f", 1, "f"}};
  k.outputs = {{"out_x", 64, "x"}, {"out_y", 3, "y"}};
  return k;
}

constexpr int kCycles = 400;
// The first reset comes after the shift register's far bits have left their power-on zeros.
bool reset_at(int cycle) { return (cycle >= 150 && cycle < 155) || (cycle >= 300 && cycle < 303); }

const char* kBench = R"(module tb;
  logic clk = 1'b0, rst = 1'b0;
  wire q;
  polydat_qor dut (.clk(clk), .rst(rst), .qor_out(q));
  integer cyc;
  initial begin
    for (cyc = 0; cyc < 400; cyc = cyc + 1) begin
      rst = (cyc >= 150 && cyc < 155) || (cyc >= 300 && cyc < 303);
      #1 clk = 1'b1;
      #1 clk = 1'b0;
      $display("%h %h %h %h %h %h %h %h %h", dut.u_kernel.in_a, dut.u_kernel.in_b, dut.u_kernel.in_c,
               dut.u_kernel.cfg_k, dut.u_kernel.cfg_f, dut.u_kernel.out_valid, dut.u_kernel.out_x,
               dut.u_kernel.out_y, q);
    end
    $finish;
  end
endmodule
)";

struct Sample {
  uint64_t a = 0, b = 0, c = 0, k = 0, f = 0, valid = 0, x = 0, y = 0, q = 0;
  bool unknown = false;  // some field held x or z (the probe's outputs before their first value)
};

// The wrapper's text run for kCycles cycles: one sample after each rising edge.
std::vector<Sample> simulate(const std::string& wrapper_sv, std::string& log) {
  TempDir tmp("polydat-qor-wrapper");
  tmp.write("dut.sv", wrapper_sv);
  tmp.write("tb.sv", kBench);
  const auto compile = testing::run_process("/usr/bin/iverilog", {"iverilog", "-g2012", "-o", "sim", "tb.sv", "dut.sv"},
                                            tmp.path());
  log = compile.out + compile.err;
  if (compile.status != 0) return {};
  const auto run = testing::run_process("/usr/bin/vvp", {"vvp", "-n", "sim"}, tmp.path());
  log += run.err;
  std::vector<Sample> out;
  std::istringstream in(run.out);
  for (std::string line; std::getline(in, line);) {
    Sample s;
    for (char& ch : line)
      if (ch == 'x' || ch == 'z' || ch == 'X' || ch == 'Z') {
        ch = '0';
        s.unknown = true;
      }
    std::istringstream f(line);
    if (f >> std::hex >> s.a >> s.b >> s.c >> s.k >> s.f >> s.valid >> s.x >> s.y >> s.q) out.push_back(s);
  }
  return out;
}

// What the samples must be, from a model of the wrapper written here. Returns
// the list of disagreements (empty: all good), one word per kind.
std::vector<std::string> check(const std::vector<Sample>& got) {
  std::vector<std::string> faults;
  if (got.size() != kCycles) return {"samples"};
  // The shift register as bits: reg[i] is bit i; 64 LFSR bits then 64 more (8 + 1 + 40 + 1 = 50 needed).
  std::bitset<128> reg;  // power-on zero
  bool rst_q = false;
  std::bitset<128> cfg_src;
  uint64_t k = 0, f = 0;
  bool seq = true, hold = true, fold = true, load = true;
  uint64_t last_k = 0;
  for (int cycle = 0; cycle < kCycles; ++cycle) {
    // One rising edge: every register takes its next value from the old ones.
    const bool fb = !(reg[63] ^ reg[62] ^ reg[60] ^ reg[59]);
    if (rst_q) {
      k = 0;
      for (int i = 0; i < 40; ++i) k |= uint64_t(reg[73 + i]) << i;
      f = reg[113];
    }
    reg <<= 1;
    reg[0] = fb;
    rst_q = reset_at(cycle);
    const Sample& s = got[cycle];
    uint64_t a = 0, b = 0;
    for (int i = 0; i < 64; ++i) a |= uint64_t(reg[i]) << i;
    for (int i = 0; i < 8; ++i) b |= uint64_t(reg[64 + i]) << i;
    if (s.a != a || s.b != b || s.c != reg[72]) seq = false;
    if (s.k != k || s.f != f) load = false;
    // After the first reset, outside reset, the externs never change.
    if (cycle > 156 && !reset_at(cycle) && !reset_at(cycle - 1) && !reset_at(cycle - 2) && s.k != last_k) hold = false;
    last_k = s.k;
    if (cycle > 0 && !got[cycle - 1].unknown && !s.unknown) {
      const Sample& p = got[cycle - 1];
      const uint64_t folded = (std::bitset<64>(p.x).count() + std::bitset<64>(p.y).count() + p.valid) & 1;
      if (s.q != folded) fold = false;
    }
  }
  if (!seq) faults.push_back("sequence");
  if (!load) faults.push_back("load");
  if (!hold) faults.push_back("hold");
  if (!fold) faults.push_back("fold");
  return faults;
}

std::string plant(std::string sv, const std::string& from, const std::string& to) {
  const size_t at = sv.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "nothing to plant: " << from);
  return sv.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("qor wrapper: the LFSR's polynomial x^64 + x^63 + x^61 + x^60 + 1 is maximal-length") {
  // The XOR step is linear: its matrix T has order 2^64 - 1 exactly when
  // T^(2^64-1) = I and T^((2^64-1)/p) != I for every prime p dividing 2^64 - 1.
  const std::vector<uint64_t> primes = {3, 5, 17, 257, 641, 65537, 6700417};
  unsigned __int128 product = 1;
  for (uint64_t p : primes) product *= p;
  const uint64_t n = ~uint64_t(0);
  REQUIRE(product == n);  // 2^64 - 1 = 3 * 5 * 17 * 257 * 641 * 65537 * 6700417
  Mat t{};
  for (int i = 0; i < 64; ++i) t[i] = xor_step(uint64_t(1) << i);
  CHECK(power(t, n) == identity());
  for (uint64_t p : primes) {
    CAPTURE(p);
    CHECK(power(t, n / p) != identity());
  }
  // The XNOR register is the XOR one complemented (four taps: the complements cancel), so it has the same period.
  for (uint64_t s : {uint64_t(0), uint64_t(0x0123456789abcdef), ~uint64_t(1)}) CHECK(~xnor_step(s) == xor_step(~s));
  // A planted fault the order test must catch: taps 63, 62, 60, 58 do not give a maximal-length register.
  Mat bad{};
  for (int i = 0; i < 64; ++i) {
    const uint64_t s = uint64_t(1) << i;
    bad[i] = (s << 1) | (((s >> 63) ^ (s >> 62) ^ (s >> 60) ^ (s >> 58)) & 1);
  }
  bool maximal = power(bad, n) == identity();
  for (uint64_t p : primes) maximal = maximal && power(bad, n / p) != identity();
  CHECK_FALSE(maximal);
}

TEST_CASE("qor wrapper: in Icarus, the LFSR drives the inputs, externs load in reset and hold, the pin folds the outputs") {
  const boards::QorWrapper w = boards::qor_wrapper(probe_ports(), kProbe);
  CHECK(w.module == "polydat_qor");
  std::string log;
  const std::vector<Sample> got = simulate(w.sv, log);
  INFO(log);
  REQUIRE(got.size() == kCycles);
  CHECK(check(got).empty());
  // Every input bit toggles; the externs differ between the two resets.
  uint64_t a_or = 0, a_and = ~uint64_t(0), b_or = 0, b_and = 0xff, c_seen = 0;
  for (const Sample& s : got) {
    a_or |= s.a;
    a_and &= s.a;
    b_or |= s.b;
    b_and &= s.b;
    c_seen |= uint64_t(1) << s.c;
  }
  CHECK(a_or == ~uint64_t(0));
  CHECK(a_and == 0);
  CHECK(b_or == 0xff);
  CHECK(b_and == 0);
  CHECK(c_seen == 3);
  CHECK(got[200].k != got[350].k);
  CHECK(got[200].k != 0);
}

TEST_CASE("qor wrapper planted faults: a wrong tap, a dropped output, an extern that is not held") {
  const boards::QorWrapper w = boards::qor_wrapper(probe_ports(), kProbe);
  struct Fault {
    const char* from;
    const char* to;
    const char* caught;
  };
  for (const Fault& fault : {Fault{"lfsr[60] ^ lfsr[59]", "lfsr[60] ^ lfsr[58]", "sequence"},
                             Fault{", k_out_y}", "}", "fold"},
                             Fault{"if (rst_q) k_cfg_k <=", "k_cfg_k <=", "hold"}}) {
    const std::string planted = fault.from;
    CAPTURE(planted);
    std::string log;
    const auto faults = check(simulate(plant(w.sv, fault.from, fault.to), log));
    INFO(log);
    CHECK(std::find(faults.begin(), faults.end(), std::string(fault.caught)) != faults.end());
  }
}

TEST_CASE("qor wrapper: the null kernel folds every input and extern bit into the pin") {
  const boards::QorWrapper w = boards::null_wrapper(probe_ports());
  std::string log;
  const std::vector<Sample> got = simulate(w.sv, log);
  INFO(log);
  REQUIRE(got.size() == kCycles);
  size_t bad = 0;
  for (int cycle = 1; cycle < kCycles; ++cycle) {
    const Sample& p = got[cycle - 1];
    if (p.unknown || got[cycle].unknown) {
      ++bad;
      continue;
    }
    // out_valid = in_valid = 1, then every input and extern bit once.
    const uint64_t parity = (1 + std::bitset<64>(p.a).count() + std::bitset<64>(p.b).count() + p.c +
                             std::bitset<64>(p.k).count() + p.f) & 1;
    bad += got[cycle].q != parity;
  }
  CHECK(bad == 0);
  CHECK(w.sv.find("module polydat_null_kernel") != std::string::npos);
  CHECK(w.sv.find("module probe") == std::string::npos);
  // Equal port widths, equal keys; the names do not matter.
  boards::KernelPorts other = probe_ports();
  other.module = "other";
  other.inputs[0].name = "in_z";
  CHECK(boards::port_widths_key(other) == boards::port_widths_key(probe_ports()));
  other.configs[0].width = 41;
  CHECK(boards::port_widths_key(other) != boards::port_widths_key(probe_ports()));
}

TEST_CASE("qor wrapper: Verilator lint -Wall is clean for the wrapper and the null kernel") {
  for (const boards::QorWrapper& w : {boards::qor_wrapper(probe_ports(), kProbe), boards::null_wrapper(probe_ports())}) {
    TempDir tmp("polydat-qor-lint");
    tmp.write("w.sv", w.sv);
    const auto r = testing::run_process("/usr/bin/verilator",
                                        {"verilator", "--lint-only", "-Wall", "-Wno-DECLFILENAME", "--top-module", w.module,
                                         "w.sv"},
                                        tmp.path());
    INFO(r.err);
    CHECK(r.status == 0);
  }
}
