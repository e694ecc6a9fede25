// The RTL suite: every kernel of tests/corpus/ and tests/rtl/kernels/ through
// the flow of `polydat hls` (compile, optimise, synthesize), then:
//  - the kernel becomes what the table below says: a pipeline with initiation
//    interval 1 (loop-free), an FSM (one loop), or a refusal of the stated kind
//    at a source line (floats and strings, two loops, nested loops, a variable
//    exponent);
//  - the emitted SystemVerilog passes `verilator --lint-only -Wall` with no
//    output and `yosys -q -p "read_verilog -sv; hierarchy -check; proc;
//    check -assert"` with no error or warning, and is the same text when
//    emitted twice (and after a second compile);
//  - the module has the interface of DESIGN.md ("Hardware interface"), a
//    header naming the kernel and its schedule, and the controller the report
//    describes;
//  - one small kernel goes through a full `synth` (every accepted kernel does in
//    the slow suite, rtl_synth_slow).
#include <doctest/doctest.h>
#include <fmt/core.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <set>

#include "hls/report.h"
#include "rtl/emit_sv.h"
#include "text/plural.h"
#include "tests/rtl/rtl_support.h"
#include "tests/support/process.h"

using namespace polydat;
using namespace polydat::rtltest;

namespace {

// What every kernel must become: "pipeline", "fsm", "fsm-iterative" (a division by a variable
// too wide for an array: an iterative unit, no loop), or "refused:KIND".
// Read off each kernel: loop-free and only bools and integers -> pipeline; one
// loop -> fsm; a float or str value anywhere -> no-hardware-width; several
// loops -> two-loops (the kernels with nested loops also have several loops,
// except nested_loop.gk, whose only loop nest is one component).
const std::map<std::string, std::string> kExpected = {
    {"corpus/affine", "pipeline"},
    {"corpus/arith_basic", "pipeline"},
    {"corpus/bitwise", "pipeline"},
    {"corpus/casts_float", "refused:no-hardware-width"},
    {"corpus/casts_int", "pipeline"},
    {"corpus/compare", "refused:no-hardware-width"},
    {"corpus/constants", "refused:no-hardware-width"},
    {"corpus/div_min", "fsm-iterative"},
    {"corpus/divzero", "pipeline"},
    {"corpus/example_ids", "refused:no-hardware-width"},  // label: str
    {"corpus/externs", "refused:no-hardware-width"},      // ratio: f64
    {"corpus/file_module", "pipeline"},
    {"corpus/float_arith", "refused:no-hardware-width"},
    {"corpus/format_hex", "refused:no-hardware-width"},
    {"corpus/hash_chain", "refused:two-loops"},
    {"corpus/if_select", "refused:no-hardware-width"},
    {"corpus/input_tuple", "pipeline"},
    {"corpus/lfsr", "fsm"},
    {"corpus/libpath", "pipeline"},
    {"corpus/lifecycles", "refused:no-hardware-width"},
    {"corpus/long_loop", "fsm"},
    {"corpus/loop_carried", "refused:two-loops"},
    {"corpus/loop_destructure", "fsm"},
    {"corpus/loop_features", "refused:no-hardware-width"},
    {"corpus/misc_forms", "refused:no-hardware-width"},
    {"corpus/mixed_radix", "pipeline"},
    {"corpus/module_def", "pipeline"},
    {"corpus/module_nest", "fsm"},
    {"corpus/multi_var_loop", "refused:two-loops"},
    {"corpus/nested_init", "refused:two-loops"},
    {"corpus/nested_loop", "refused:nested-loops"},
    {"corpus/nested_operand", "refused:two-loops"},
    {"corpus/outputs", "pipeline"},
    {"corpus/port__edges", "pipeline"},
    {"corpus/pow", "refused:no-hardware-width"},
    {"corpus/precedence", "refused:no-hardware-width"},
    {"corpus/prefix_ops", "refused:no-hardware-width"},
    {"corpus/shape_perf", "refused:no-hardware-width"},
    {"corpus/shifts", "pipeline"},
    {"corpus/split_bits", "pipeline"},
    {"corpus/stdlib_arith", "refused:no-hardware-width"},
    {"corpus/stdlib_bits", "pipeline"},
    {"corpus/stdlib_convert", "refused:no-hardware-width"},
    {"corpus/stdlib_hash", "fsm-iterative"},  // no II up to 16 fits a UP5K: the iterative FSM, smaller
    {"corpus/stdlib_interleave", "pipeline"},
    {"corpus/stdlib_math", "refused:no-hardware-width"},
    {"corpus/stdlib_named", "refused:no-hardware-width"},
    {"corpus/stdlib_nbrs_float", "refused:no-hardware-width"},
    {"corpus/stdlib_nbrs_int", "fsm-iterative"},  // five hashes: iterative multiplies
    {"corpus/stdlib_pcg", "refused:two-loops"},      // several pcg calls: one loop each
    {"corpus/stdlib_permute", "refused:two-loops"},  // several permute calls
    {"corpus/stdlib_shuffle", "fsm"},
    {"corpus/stdlib_splitmix64", "fsm-iterative"},  // no II up to 16 within 80 % of a UP5K
    {"corpus/stdlib_tables", "pipeline"},
    {"corpus/stdlib_pick", "pipeline"},
    {"corpus/stdlib_unit_interval", "refused:no-hardware-width"},
    {"corpus/strings", "refused:no-hardware-width"},
    {"corpus/strings_nested", "refused:no-hardware-width"},
    {"corpus/sum_to_n", "fsm"},
    {"corpus/syntax", "refused:no-hardware-width"},
    {"corpus/typing_literals", "refused:no-hardware-width"},
    {"corpus/typing_widen", "refused:no-hardware-width"},
    {"corpus/wrap_arith", "pipeline"},
    {"corpus/zero_trip", "refused:two-loops"},
    // tests/rtl/kernels/
    {"rtl/all_ops", "fsm-iterative"},
    {"rtl/cfg_extern", "pipeline"},
    {"rtl/compare_u64", "pipeline"},
    {"rtl/compare_u64_fsm", "fsm"},
    {"rtl/clk", "pipeline"},
    {"rtl/fsm_pre_post", "fsm"},
    {"rtl/fuzz_scalar_multiplier", "fsm-iterative"},
    {"rtl/fuzz_100658", "fsm"},
    {"rtl/fuzz_100568", "fsm"},
    {"rtl/fuzz_100544", "fsm"},
    {"rtl/ids_hash", "pipeline"},
    {"rtl/ii_mixed", "pipeline-ii"},  // too large for a UP5K at II 1: II 4, DSP blocks shared across slots
    {"rtl/logic", "pipeline"},
    {"rtl/long_after_wire", "pipeline"},
    {"rtl/multi_out", "pipeline"},
    {"rtl/pcg_fsm", "fsm"},
    {"rtl/permute_fsm", "fsm"},
    {"rtl/port_names", "pipeline"},
    {"rtl/var_pow", "pipeline"},
    {"rtl/rot_shift", "pipeline"},
    {"rtl/small_synth", "pipeline"},
    {"rtl/two_ops", "pipeline"},
    {"rtl/with_cfg", "pipeline"},
};

// The flow of every kernel, run once.
const Flow& flow_of(const Kernel& k) {
  static std::map<std::string, Flow> cache;
  auto it = cache.find(k.key);
  if (it == cache.end()) it = cache.emplace(k.key, run_flow(k)).first;
  return it->second;
}


bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// ---- the checks, one function each ----

// The functional units that divide one bit per cycle.
size_t iterative_units(const hls::Design& d) {
  std::set<int> units;
  const auto live = d.dfg.live();
  for (hls::ValueId v = 0; v < d.dfg.nodes.size(); ++v)
    if (live[v] && d.multi_cycles(v) > 0) units.insert(d.place[v].unit);
  return units.size();
}

void check_outcome(const Kernel& k, const Flow& f) {
  CAPTURE(k.key);
  if (!f.compiled) {
    FAIL_CHECK("does not compile:\n" << f.diagnostics);
    return;
  }
  auto exp = kExpected.find(k.key);
  if (exp == kExpected.end()) {
    FAIL_CHECK(k.key << " is not in kExpected: add it");
    return;
  }
  const std::string& want = exp->second;
  if (want == "pipeline" || want == "pipeline-ii" || want == "fsm" || want == "fsm-iterative") {
    if (!f.design) {
      FAIL_CHECK("refused: [" << f.refusal.kind << "] " << f.refusal.message);
      return;
    }
    const hls::Design& d = *f.design;
    if (want == "pipeline" || want == "pipeline-ii") {
      CHECK(d.kind == hls::DesignKind::Pipeline);
      if (want == "pipeline") CHECK(d.ii == 1);
      else CHECK(d.ii > 1);
      CHECK(d.initiation_interval() == d.ii);
      CHECK(d.stages >= 1);
      CHECK(d.latency() == d.stages);
    } else if (want == "fsm-iterative") {
      CHECK(d.kind == hls::DesignKind::Fsm);
      CHECK_FALSE(d.dfg.loop.has_value());
      CHECK(iterative_units(d) >= 1);
      CHECK(d.states.size() == 2 + d.pre_steps);
      CHECK(d.latency(0) == 1 + d.pre_steps);
      CHECK(d.initiation_interval(3) == d.latency(3) + 1);
    } else {
      CHECK(d.kind == hls::DesignKind::Fsm);
      CHECK(d.dfg.loop.has_value());
      CHECK(d.loop_steps >= 1);
      CHECK(d.states.size() == 2 + d.pre_steps + d.loop_steps + d.post_steps);
      CHECK(d.latency(0) == 1 + d.pre_steps + d.loop_steps + d.post_steps);
      CHECK(d.initiation_interval(3) == d.latency(3) + 1);
    }
    return;
  }
  const std::string kind = want.substr(std::string("refused:").size());
  if (f.design) {
    FAIL_CHECK("accepted, but expected a refusal of kind " << kind);
    return;
  }
  CHECK(f.refusal.kind == kind);
  CHECK(!f.refusal.message.empty());
  CHECK_MESSAGE(f.refusal.loc.line > 0, "the refusal names no source line: " << f.refusal.message);
  if (kind == "no-hardware-width")
    CHECK((contains(f.refusal.message, "f64") || contains(f.refusal.message, "f32") ||
           contains(f.refusal.message, "str")));
  if (kind == "two-loops") CHECK(contains(f.refusal.message, "second loop"));
  if (kind == "nested-loops") CHECK(contains(f.refusal.message, "nested"));
  if (kind == "variable-exponent") CHECK(contains(f.refusal.message, "exponent"));
}

// Writes the module to DIR/NAME.sv; returns the path.
fs::path write_sv(const fs::path& dir, const rtl::Module& m) {
  const fs::path p = dir / (m.name + ".sv");
  std::ofstream(p) << m.text;
  return p;
}

void check_tools(const Kernel& k, const hls::Design& d, const fs::path& dir) {
  CAPTURE(k.key);
  const rtl::Module m = rtl::emit_module(d);
  const std::string& top = m.name;
  const fs::path sv = write_sv(dir, m);
  const ToolRun lint = verilator_lint(sv);
  CHECK_MESSAGE(lint.status == 0, "verilator --lint-only -Wall exited " << lint.status << ":\n" << lint.output);
  CHECK_MESSAGE(lint.output.empty(), "verilator --lint-only -Wall said:\n" << lint.output);
  const ToolRun ys = yosys_check(sv, top);
  CHECK_MESSAGE(ys.status == 0, "yosys check exited " << ys.status << ":\n" << ys.output);
  CHECK_MESSAGE(complaints(ys.output).empty(), "yosys check said:\n" << ys.output);
}

void check_deterministic(const Kernel& k, const hls::Design& d) {
  CAPTURE(k.key);
  const std::string first = rtl::emit_module(d).text;
  CHECK(rtl::emit_module(d).text == first);
  const Flow again = run_flow(k);
  if (!again.design) {
    FAIL_CHECK("a second compile is refused");
    return;
  }
  CHECK_MESSAGE(again.module->text == first, "a second compile emits different text");
}

struct PortLine {
  std::string dir, name;
  unsigned bits = 1;
  bool operator==(const PortLine& o) const { return dir == o.dir && name == o.name && bits == o.bits; }
};

std::string show(const std::vector<PortLine>& ports) {
  std::string s;
  for (const PortLine& p : ports) s += fmt::format("  {} [{}] {}\n", p.dir, p.bits, p.name);
  return s;
}

// The module's port list, as written between `module NAME (` and `);`.
std::vector<PortLine> module_ports(const std::string& sv, const std::string& module, bool& found) {
  std::vector<PortLine> ports;
  found = false;
  const std::regex port(R"(^    (input |output) logic (\[(\d+):0\] )?([A-Za-z_][A-Za-z0-9_$]*),?$)");
  bool in = false;
  for (const std::string& l : testing::split_lines(sv)) {
    if (l == "module " + module + " (") {
      in = found = true;
      continue;
    }
    if (!in) continue;
    if (l == ");") break;
    std::smatch m;
    if (std::regex_match(l, m, port)) {
      PortLine p;
      p.dir = m[1].str() == "input " ? "input" : "output";
      p.bits = m[3].matched ? static_cast<unsigned>(std::stoul(m[3].str())) + 1 : 1;
      p.name = m[4].str();
      ports.push_back(p);
    } else {
      ports.push_back(PortLine{"?", l, 0});
    }
  }
  return ports;
}

// DESIGN.md: clk, rst (synchronous, active high); cfg_<name> for the externs;
// in_valid/in_ready with in_<name> for the streamed inputs; out_valid/out_ready
// with out_<name> for the results.
void check_interface(const Kernel& k, const Flow& f) {
  CAPTURE(k.key);
  const hls::Design& d = *f.design;
  // A data port is prefix + name; a name the handshake (or an earlier port)
  // took gets the first free suffix _0, _1, ...
  std::set<std::string> taken{"clk", "rst", "in_valid", "in_ready", "out_valid", "out_ready"};
  auto port = [&](const std::string& prefix, const std::string& name) {
    std::string n = prefix + name;
    for (int i = 0; taken.count(n); ++i) n = prefix + name + "_" + std::to_string(i);
    taken.insert(n);
    return n;
  };
  std::vector<PortLine> want{{"input", "clk", 1}, {"input", "rst", 1}};
  for (const SignaturePort& p : f.params)
    if (p.is_extern) want.push_back({"input", port("cfg_", p.name), p.bits});
  want.push_back({"input", "in_valid", 1});
  want.push_back({"output", "in_ready", 1});
  for (const SignaturePort& p : f.params)
    if (!p.is_extern) want.push_back({"input", port("in_", p.name), p.bits});
  want.push_back({"output", "out_valid", 1});
  want.push_back({"input", "out_ready", 1});
  for (const SignaturePort& p : f.outputs) want.push_back({"output", port("out_", p.name), p.bits});
  bool found = false;
  const rtl::Module m = rtl::emit_module(d);
  const std::vector<PortLine> got = module_ports(m.text, m.name, found);
  if (!found) {
    FAIL_CHECK("no `module " << m.name << " (` line");
    return;
  }
  CHECK_MESSAGE(got == want, "ports:\n" << show(got) << "expected:\n" << show(want));
  std::set<std::string> names;
  for (const PortLine& p : got) CHECK_MESSAGE(names.insert(p.name).second, "port " << p.name << " twice");
}

size_t count_lines(const std::vector<std::string>& lines, const std::regex& re) {
  size_t n = 0;
  for (const std::string& l : lines) n += std::regex_match(l, re) ? 1 : 0;
  return n;
}

bool has_line(const std::vector<std::string>& lines, const std::string& l) {
  return std::find(lines.begin(), lines.end(), l) != lines.end();
}

// The header names the kernel and the schedule; the controller is the report's.
void check_controller(const Kernel& k, const hls::Design& d) {
  CAPTURE(k.key);
  const std::string sv = rtl::emit_module(d).text;
  const std::vector<std::string> lines = testing::split_lines(sv);
  if (lines.size() <= 4) {
    FAIL_CHECK("a module of " << lines.size() << " lines");
    return;
  }
  CHECK(lines[0] == "// Generated by polydat from kernel '" + d.dfg.name + "'. Do not edit.");
  CHECK(lines[1] == fmt::format("// target {}, clock {:.2f} ns", hls::target_name(d.target), d.clock_ns));
  // One block for the datapath and controller, one per iterative divider.
  CHECK(count_lines(lines, std::regex(R"(\s*always_ff @\(posedge clk\) begin)")) == 1 + iterative_units(d));
  CHECK(count_lines(lines, std::regex(R"(\s*always_ff.*)")) == 1 + iterative_units(d));
  CHECK(has_line(lines, "    if (rst) begin"));
  if (d.kind == hls::DesignKind::Pipeline) {
    const uint32_t n = d.stages;
    const uint32_t ii = d.ii;
    CHECK(lines[2] == fmt::format("// pipeline: {}, latency {}, initiation interval {}{}", polydat::text::counted(n, "stage"),
                                  polydat::text::counted(n, "cycle"), ii,
                                  ii > 1 ? fmt::format(" (in_ready in slot 0 of every {})", ii) : ""));
    // At an II above 1 a slot counter of ceil(log2 ii) bits: an input enters in slot 0 only.
    unsigned phase_bits = 1;
    while ((1u << phase_bits) < ii) ++phase_bits;
    const std::string slot0 = ii <= 2 ? "phase == 1'b0" : fmt::format("phase == {}'h0", phase_bits);
    CHECK(count_lines(lines, std::regex(R"(  logic valid_\d+;)")) == n);
    // All stages hold while the last is valid and out_ready is low.
    CHECK(has_line(lines, fmt::format("  assign stall = valid_{} && !out_ready;", n - 1)));
    CHECK(has_line(lines, ii == 1 ? "  assign in_ready = !stall;" : "  assign in_ready = !stall && " + slot0 + ";"));
    CHECK(has_line(lines, fmt::format("  assign out_valid = valid_{};", n - 1)));
    // Every register assignment outside the reset sits in the `!stall` block.
    auto hold = std::find(lines.begin(), lines.end(), "    end else if (!stall) begin");
    if (hold == lines.end()) {
      FAIL_CHECK("no `end else if (!stall) begin` line");
      return;
    }
    auto reset = std::find(lines.begin(), lines.end(), "    if (rst) begin");
    size_t updates = 0;
    for (auto it = reset + 1; it != hold; ++it)
      CHECK_MESSAGE(std::regex_match(*it, std::regex(R"(      \w+ <= ('0|1'b0);)")), "not a reset: " << *it);
    // At an II above 1 the registers of each slot load under `if (phase == k)`, and the counter steps.
    size_t slot_blocks = 0;
    for (auto it = hold + 1; it != lines.end() && *it != "    end"; ++it) {
      if (ii > 1 && (std::regex_match(*it, std::regex(R"(      if \(phase == \d+'[bh][0-9a-f]+\) begin)")) || *it == "      end")) {
        slot_blocks += *it != "      end";
        continue;
      }
      ++updates;
      CHECK_MESSAGE(contains(*it, " <= "), "not an update: " << *it);
    }
    CHECK(updates == n + d.registers.size() + (ii > 1 ? 1 : 0));
    CHECK(slot_blocks <= ii);
    CHECK(has_line(lines, ii == 1 ? "      valid_0 <= in_valid;" : "      valid_0 <= in_valid && " + slot0 + ";"));
  } else {
    if (!d.dfg.loop)
      CHECK(lines[2] == fmt::format("// FSM without a loop: {} between idle and done (iterative units); "
                                    "latency {}",
                                    polydat::text::counted(d.pre_steps, "state"),
                                    polydat::text::counted(1 + d.pre_steps, "cycle")));
    else
      CHECK(lines[2].rfind(fmt::format("// FSM: {} before the loop, {} per iteration, {} after; latency 1 + "
                                       "{} + {}*(t+1) + {}",
                                       polydat::text::counted(d.pre_steps, "state"), d.loop_steps, d.post_steps, d.pre_steps, d.loop_steps,
                                       d.post_steps),
                           0) == 0);
    CHECK(count_lines(lines, std::regex(R"(  localparam logic (\[\d+:0\] )?S_\w+ = \d+'[hb][0-9a-f]+;)")) ==
          d.states.size());
    for (size_t s = 0; s < d.states.size(); ++s) CHECK(has_line(lines, "        S_" + d.states[s].name + ": begin"));
    CHECK(d.states.front().name == "IDLE");
    CHECK(d.states.back().name == "DONE");
    // Accepts only in IDLE; offers only in DONE and holds until taken.
    CHECK(has_line(lines, "  assign in_ready = state == S_IDLE;"));
    CHECK(has_line(lines, "  assign out_valid = state == S_DONE;"));
    auto idle = std::find(lines.begin(), lines.end(), "        S_IDLE: begin");
    if (idle == lines.end() || idle + 1 == lines.end()) {
      FAIL_CHECK("no IDLE state");
      return;
    }
    CHECK(*(idle + 1) == "          if (in_valid) begin");
    CHECK(has_line(lines, "          if (out_ready) state <= S_IDLE;"));
  }
}

}  // namespace

TEST_CASE("rtl: the kernel table names every kernel of tests/corpus and tests/rtl/kernels") {
  std::set<std::string> files;
  for (const Kernel& k : all_kernels()) files.insert(k.key);
  CHECK(files.size() >= 56 + 12);
  for (const std::string& f : files) CHECK_MESSAGE(kExpected.count(f), f << " is not in kExpected");
  for (const auto& [key, want] : kExpected) CHECK_MESSAGE(files.count(key), key << " in kExpected has no file");
}

TEST_CASE("rtl: each kernel becomes a pipeline (II 1, longer when too large for the part) or an FSM, or is refused for its stated reason") {
  std::map<std::string, int> count;
  int corpus = 0;
  for (const Kernel& k : all_kernels()) {
    const Flow& f = flow_of(k);
    check_outcome(k, f);
    if (k.key.rfind("corpus/", 0) == 0) {
      ++corpus;
      ++count[f.design ? (f.design->kind == hls::DesignKind::Pipeline ? "pipeline" : "fsm")
                       : "refused " + f.refusal.kind];
    }
  }
  std::string summary = fmt::format("corpus: {} kernels:", corpus);
  for (const auto& [what, n] : count) summary += fmt::format(" {} {};", n, what);
  MESSAGE(summary);
  CHECK(corpus == 64);
}

TEST_CASE("rtl: pcg and permute through the bundled library are FSMs") {
  for (const char* key : {"rtl/pcg_fsm", "rtl/permute_fsm"}) {
    CAPTURE(key);
    const auto k = find_kernel(key);
    REQUIRE(k.has_value());
    const Flow& f = flow_of(*k);
    REQUIRE(f.design.has_value());
    CHECK(f.design->kind == hls::DesignKind::Fsm);
    CHECK(f.design->dfg.loop.has_value());
  }
}

TEST_CASE("rtl: every accepted kernel passes verilator --lint-only -Wall and the yosys check") {
  REQUIRE_MESSAGE(!find_on_path("verilator").empty(), "verilator is not on PATH (make deps)");
  REQUIRE_MESSAGE(!find_on_path("yosys").empty(), "yosys is not on PATH (make deps)");
  testing::TempDir dir("polydat-rtl");
  int checked = 0;
  for (const Kernel& k : all_kernels()) {
    const Flow& f = flow_of(k);
    if (!f.design) continue;
    check_tools(k, *f.design, dir.path());
    ++checked;
  }
  MESSAGE(checked << " designs linted and checked");
  CHECK(checked >= 24 + 9);
}

TEST_CASE("rtl: emitting is deterministic (twice from one design, and after a second compile)") {
  for (const Kernel& k : all_kernels())
    if (const Flow& f = flow_of(k); f.design) check_deterministic(k, *f.design);
}

TEST_CASE("rtl: every module has the hardware interface of DESIGN.md") {
  for (const Kernel& k : all_kernels())
    if (const Flow& f = flow_of(k); f.design) check_interface(k, f);
}

TEST_CASE("rtl: the header names the kernel and schedule; the controller is the report's") {
  for (const Kernel& k : all_kernels())
    if (const Flow& f = flow_of(k); f.design) check_controller(k, *f.design);
}

TEST_CASE("rtl: the FSM kernel has work before, in and after the loop") {
  const auto k = find_kernel("rtl/fsm_pre_post");
  REQUIRE(k.has_value());
  const Flow& f = flow_of(*k);
  REQUIRE(f.design.has_value());
  CHECK(f.design->pre_steps >= 1);
  CHECK(f.design->loop_steps >= 1);
  CHECK(f.design->post_steps >= 1);
}

TEST_CASE("rtl: a small kernel through a full yosys synth") {
  REQUIRE_MESSAGE(!find_on_path("yosys").empty(), "yosys is not on PATH (make deps)");
  const auto k = find_kernel("rtl/small_synth");
  REQUIRE(k.has_value());
  const Flow& f = flow_of(*k);
  REQUIRE(f.design.has_value());
  testing::TempDir dir("polydat-rtl-synth");
  const fs::path sv = write_sv(dir.path(), *f.module);
  const ToolRun r = yosys_synth(sv, f.module->name, 120);
  CHECK_MESSAGE(r.status == 0, "yosys synth exited " << r.status << ":\n" << r.output);
  CHECK_MESSAGE(complaints(r.output).empty(), "yosys synth said:\n" << r.output);
}

// A table written as a case statement becomes a ROM in Yosys, and memory_dff
// then merges the register feeding its index into it: the register moves past
// the table, onto the previous stage's path (mod(hash, 1000) fell from 51 to
// 43.6 MHz on a UP5K that way). The residue tables of mod(hash(cycle), 1000)
// must stay logic. (Planted: with every table a case statement, this fails.)
TEST_CASE("rtl: constant tables are logic to Yosys, never a memory") {
  REQUIRE_MESSAGE(!find_on_path("yosys").empty(), "yosys is not on PATH (make deps)");
  const auto k = find_kernel("rtl/ids_hash");
  REQUIRE(k.has_value());
  const Flow& f = flow_of(*k);
  REQUIRE(f.design.has_value());
  size_t tables = 0;
  for (hls::ValueId v = 0; v < f.design->dfg.nodes.size(); ++v)
    tables += f.design->live[v] && f.design->dfg.is_op(v) && f.design->dfg.nodes[v].op == hls::Op::Rom;
  REQUIRE(tables >= 8);  // the 4-bit chunk residues
  testing::TempDir dir("polydat-rtl-rom");
  const fs::path sv = write_sv(dir.path(), *f.module);
  const ToolRun r = yosys_assert_no_memory(sv, f.module->name);
  CHECK_MESSAGE(r.status == 0, "yosys found a memory:\n" << r.output);
}

// The header comment quotes the kernel's name: a newline in it must not end the comment.
TEST_CASE("rtl: a kernel name with a newline keeps the module well-formed") {
  testing::TempDir dir("polydat-rtl-name");
  dir.write("n\nl.gk", "input x: u8\ny := x + 1\n");
  const Kernel k{"tmp/newline", "n\nl", dir.path() / "n\nl.gk", {}};
  const Flow f = run_flow(k);
  REQUIRE_MESSAGE(f.compiled, f.diagnostics);
  REQUIRE(f.design.has_value());
  check_tools(k, *f.design, dir.path());
}

// Names worked out by hand: a keyword or a signal of the module's own takes
// the k_ prefix; a data port named like the handshake takes a suffix.
TEST_CASE("rtl: module and port names that would clash are renamed") {
  for (const auto& [key, want] : std::map<std::string, std::string>{
           {"rtl/logic", "k_logic"}, {"rtl/clk", "k_clk"}, {"rtl/two_ops", "two_ops"}}) {
    const auto k = find_kernel(key);
    REQUIRE(k.has_value());
    const Flow& f = flow_of(*k);
    REQUIRE(f.design.has_value());
    CHECK(f.module->name == want);
  }
  const auto k = find_kernel("rtl/port_names");
  REQUIRE(k.has_value());
  const Flow& f = flow_of(*k);
  REQUIRE(f.design.has_value());
  const rtl::PortNames p = rtl::port_names(*f.design);
  CHECK(p.inputs == std::vector<std::string>{"in_valid_0", "in_x"});
  CHECK(p.outputs == std::vector<std::string>{"out_ready_0", "out_sum"});
}
