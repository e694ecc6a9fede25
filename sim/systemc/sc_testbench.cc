#include "sim/systemc/sc_testbench.h"

#include <fmt/core.h>

#include "rtl/emit_sv.h"
#include "sim/systemc/wrapper.h"
#include "sim/verilator/cpp_names.h"
#include "sim/verilator/testbench_io.h"

namespace polydat::sim {

namespace {

// What the testbench includes after the wrapper.
constexpr const char* kIncludes = R"(
#include "sim/systemc/reference_model.h"
#include "verilated.h"
#if VM_TRACE_FST
#include "verilated_fst_sc.h"
#elif VM_TRACE
#include "verilated_vcd_sc.h"
#endif

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>
)";

// The testbench itself; {{ }} are literal braces.
constexpr const char* kTestbench = R"(
#if VM_TRACE_FST
using Trace = VerilatedFstSc;
#elif VM_TRACE
using Trace = VerilatedVcdSc;
#endif

namespace {{

// One evaluation's values (inputs or outputs) and its index in the batch.
struct Tuple {{
  uint64_t index = 0;
  std::vector<uint64_t> values;
  friend std::ostream& operator<<(std::ostream& os, const Tuple& t) {{ return os << "evaluation " << t.index; }}
}};

struct BatchData {{
  std::vector<std::vector<uint64_t>> inputs;
  std::vector<uint64_t> configs;
}};

// The batch in 64-bit words (sim/verilator/testbench_io.h): N, INPUTS, CONFIGS, the configs, the rows.
bool read_batch(const char* path, BatchData& b) {{
  FILE* in = fopen(path, "rb");
  if (!in) return false;
  uint64_t head[3];
  bool ok = fread(head, 8, 3, in) == 3 && head[1] == {input_ports} && head[2] == {config_ports};
  if (ok) {{
    b.configs.resize(head[2]);
    ok = fread(b.configs.data(), 8, b.configs.size(), in) == b.configs.size();
    b.inputs.assign(head[0], std::vector<uint64_t>(head[1]));
    for (auto& row : b.inputs) ok = ok && fread(row.data(), 8, row.size(), in) == row.size();
  }}
  fclose(in);
  return ok;
}}

// The results in words, buffered: a tag, then its payload.
struct Words {{
  FILE* out = nullptr;
  std::vector<uint64_t> buffer;
  void put(uint64_t w) {{
    buffer.push_back(w);
    if (buffer.size() >= (1u << 16)) flush();
  }}
  void text(uint64_t tag, const std::string& message) {{  // a byte count, then the bytes, zero-padded to words
    put(tag);
    put(message.size());
    std::vector<uint64_t> padded((message.size() + 7) / 8, 0);
    memcpy(padded.data(), message.data(), message.size());
    for (uint64_t w : padded) put(w);
  }}
  void flush() {{
    fwrite(buffer.data(), 8, buffer.size(), out);
    buffer.clear();
  }}
}};

std::vector<std::string> split(const std::string& s, char by) {{
  std::vector<std::string> out;
  size_t at = 0;
  while (at <= s.size()) {{
    const size_t end = s.find(by, at);
    out.push_back(s.substr(at, end == std::string::npos ? std::string::npos : end - at));
    if (end == std::string::npos) break;
    at = end + 1;
  }}
  return out;
}}

// Shared by the threads: the run's parameters, its progress and the log.
struct Run {{
  BatchData batch;
  Words out;
  double stall = 0;
  uint64_t seed = 1, max_idle = 0;
  bool reference = false;      // a reference model checks the results
  sc_core::sc_time period, released;  // the clock period; when reset was released
  uint64_t accepted = 0, delivered = 0, mismatches = 0;
  long long first_mismatch = -1;
  bool stopped = false;

  // The cycle a handshake sampled at the current rising edge belongs to (0: the first after reset).
  uint64_t cycle() const {{
    return static_cast<uint64_t>((sc_core::sc_time_stamp() - released) / period) - 1;
  }}
  void stop() {{
    stopped = true;
    sc_core::sc_stop();
  }}
}};

// The oracle inside the simulation: each accepted input in, the interpreter's outputs out.
SC_MODULE(reference_model) {{
  sc_core::sc_fifo_in<Tuple> accepted;
  sc_core::sc_fifo_out<Tuple> expected;
  polydat::sc::ReferenceModel* model = nullptr;
  Run* run = nullptr;

  SC_CTOR(reference_model) {{ SC_THREAD(evaluate); }}

  void evaluate() {{
    for (;;) {{
      const Tuple in = accepted.read();
      Tuple result{{in.index, {{}}}};
      std::string error;
      if (!model->evaluate(in.values, run->batch.configs, result.values, error)) {{
        run->out.text({tag_ref_error}, "evaluation " + std::to_string(in.index) + ": " + error);
        run->stop();
        return;
      }}
      expected.write(result);
    }}
  }}
}};

SC_MODULE(testbench) {{
  sc_core::sc_in<bool> clk;
  sc_core::sc_out<bool> rst;
{tb_ports}  sc_core::sc_fifo_out<Tuple> to_reference;
  sc_core::sc_fifo_in<Tuple> from_reference;
  Run* run = nullptr;

  SC_CTOR(testbench) {{
    SC_THREAD(drive);
    SC_THREAD(monitor);
  }}

  // Reset for three cycles, then the inputs, each offered until it is taken.
  void drive() {{
    std::mt19937_64 rng(run->seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    rst.write(true);
    in_valid.write(false);
{set_configs}    for (int i = 0; i < 3; ++i) wait(clk.posedge_event());
    rst.write(false);
    run->released = sc_core::sc_time_stamp();
    wait(clk.negedge_event());
    run->out.put({tag_post_reset});
    run->out.put(in_ready.read());
    run->out.put(out_valid.read());
{print_reset}
    if (run->batch.inputs.empty()) {{
      run->out.put({tag_end});
      run->out.put(0);
      run->stop();
      return;
    }}
    const auto& data = run->batch.inputs;
    bool offering = false;
    for (;;) {{
      if (!offering && run->accepted < data.size() && (run->stall <= 0 || unit(rng) >= run->stall)) offering = true;
      in_valid.write(offering);
      if (offering) {{
        const std::vector<uint64_t>& row = data[run->accepted];
{set_inputs}      }} else {{
{randomize_inputs}      }}
      wait(clk.posedge_event());
      if (in_valid.read() && in_ready.read()) {{
        run->out.put({tag_accepted});
        run->out.put(run->cycle());
        if (run->reference) to_reference.write(Tuple{{run->accepted, data[run->accepted]}});
        ++run->accepted;
        offering = false;
      }}
      wait(clk.negedge_event());
    }}
  }}

  // Takes the results (out_ready low with the stall probability), checks each against the reference model.
  void monitor() {{
    std::mt19937_64 rng(run->seed ^ 0x9e3779b97f4a7c15ull);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    out_ready.write(false);
    for (int i = 0; i < 3; ++i) wait(clk.posedge_event());
    wait(clk.negedge_event());
    const uint64_t n = run->batch.inputs.size();
    uint64_t idle = 0;
    for (;;) {{
      out_ready.write(run->stall <= 0 || unit(rng) >= run->stall);  // no draw when not stalling
      wait(clk.posedge_event());
      if (out_valid.read() && out_ready.read()) {{
        const uint64_t cycle = run->cycle();
        std::vector<uint64_t> got;
{read_outputs}        run->out.put({tag_result});
        run->out.put(cycle);
        for (uint64_t v : got) run->out.put(v);
        if (run->reference) check(got);
        idle = 0;
        if (++run->delivered == n) {{
          run->out.put({tag_end});
          run->out.put(cycle + 1);
          run->stop();
          return;
        }}
      }} else if (++idle > run->max_idle) {{
        run->out.put({tag_hang});
        run->out.put(run->cycle());
        run->stop();
        return;
      }}
      wait(clk.negedge_event());
    }}
  }}

  // A result with no accepted input before it is extra: the host's comparison reports it.
  void check(const std::vector<uint64_t>& got) {{
    if (run->delivered >= run->accepted) {{
      note_mismatch(run->delivered);
      return;
    }}
    const Tuple expected = from_reference.read();  // computed within delta cycles of the acceptance
    if (expected.values != got) note_mismatch(expected.index);
  }}
  void note_mismatch(uint64_t index) {{
    if (run->mismatches++ == 0) run->first_mismatch = static_cast<long long>(index);
  }}
}};

}}  // namespace

int run_testbench(int argc, char** argv) {{
  if (argc < 8) {{
    fprintf(stderr, "usage: %s DATA OUT SEED STALL MAX_IDLE KERNEL LIBS [TRACE]\n", argv[0]);
    return 2;
  }}
  Run run;
  if (!read_batch(argv[1], run.batch)) return 2;
  run.out.out = fopen(argv[2], "wb");
  if (!run.out.out) return 2;
  run.seed = strtoull(argv[3], nullptr, 10);
  run.stall = atof(argv[4]);
  run.max_idle = strtoull(argv[5], nullptr, 10);
  std::unique_ptr<polydat::sc::ReferenceModel> model;
  if (std::string(argv[6]) != "-") {{
    std::vector<std::string> libs;
    if (std::string(argv[7]) != "-") libs = split(argv[7], ':');
    std::string error;
    model = polydat::sc::ReferenceModel::load(argv[6], libs, error);
    if (!model) {{
      run.out.text({tag_ref_error}, error);
      run.out.flush();
      fclose(run.out.out);
      return 3;
    }}
    run.reference = true;
  }}

  // Registers start random (--x-initial unique): reset must define everything.
  Verilated::randReset(2);
  Verilated::randSeed(static_cast<int>(run.seed % 2147483647ull) + 1);
#if VM_TRACE
  if (argc > 8) Verilated::traceEverOn(true);
#endif
  run.period = sc_core::sc_time(10, sc_core::SC_NS);
  // The first rising edge at 5 ns: the driver's reset values are in place by then.
  sc_core::sc_clock clk("clk", run.period, 0.5, sc_core::sc_time(5, sc_core::SC_NS), true);
  sc_core::sc_signal<bool> rst("rst");
{signals}  const size_t depth = run.batch.inputs.size() + 1;
  sc_core::sc_fifo<Tuple> accepted("accepted", static_cast<int>(depth)), expected("expected", static_cast<int>(depth));

  {w} dut("dut");
  dut.clk(clk);
  dut.rst(rst);
{bind_dut}  testbench tb("tb");
  tb.run = &run;
  tb.clk(clk);
  tb.rst(rst);
{bind_tb}  tb.to_reference(accepted);
  tb.from_reference(expected);
  reference_model ref("reference_model");
  ref.model = model.get();
  ref.run = &run;
  ref.accepted(accepted);
  ref.expected(expected);

  sc_core::sc_start(sc_core::SC_ZERO_TIME);
#if VM_TRACE
  std::unique_ptr<Trace> tfp;
  if (argc > 8) {{
    tfp = std::make_unique<Trace>();
    dut.rtl.trace(tfp.get(), 99);
    tfp->open(argv[8]);
  }}
#endif
  sc_core::sc_start();
  if (run.reference) {{
    run.out.put({tag_checked});
    run.out.put(run.delivered);
    run.out.put(run.mismatches);
    run.out.put(static_cast<uint64_t>(run.first_mismatch));
  }}
#if VM_TRACE
  if (tfp) tfp->close();
#endif
  dut.rtl.final();
  run.out.flush();
  fclose(run.out.out);
  return 0;
}}
)";

std::string mask_of(unsigned bits) { return bits >= 64 ? "~0ull" : fmt::format("{}ull", (1ull << bits) - 1); }

}  // namespace

TestbenchSource systemc_testbench_source(const hls::Design& d, const std::string& model_class,
                                         const std::string& wrapper_class) {
  const hls::Dfg& g = d.dfg;
  const rtl::PortNames ports = verilator_cpp_port_names(d);
  std::string tb_ports, set_configs, set_inputs, randomize_inputs, print_reset, read_outputs, signals, bind_dut, bind_tb;
  auto port = [&](const std::string& direction, const std::string& type, const std::string& name) {
    tb_ports += fmt::format("  sc_core::{}<{}> {};\n", direction, type, name);
    signals += fmt::format("  sc_core::sc_signal<{}> {}(\"{}\");\n", type, name, name);
    bind_dut += fmt::format("  dut.{}({});\n", name, name);
    bind_tb += fmt::format("  tb.{}({});\n", name, name);
  };
  for (size_t i = 0; i < g.configs.size(); ++i) {
    const std::string type = systemc_port_type(g.configs[i].ty.bits());
    port("sc_out", type, ports.configs[i]);
    set_configs += fmt::format("    {}.write(static_cast<{}>(run->batch.configs.at({})));\n", ports.configs[i], type, i);
  }
  port("sc_out", "bool", "in_valid");
  port("sc_in", "bool", "in_ready");
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    const unsigned w = g.inputs[i].ty.bits();
    const std::string type = systemc_port_type(w);
    port("sc_out", type, ports.inputs[i]);
    set_inputs += fmt::format("        {}.write(static_cast<{}>(row.at({})));\n", ports.inputs[i], type, i);
    randomize_inputs += fmt::format("        {}.write(static_cast<{}>(rng() & {}));\n", ports.inputs[i], type, mask_of(w));
  }
  port("sc_in", "bool", "out_valid");
  port("sc_out", "bool", "out_ready");
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    port("sc_in", systemc_port_type(g.outputs[i].ty.bits()), ports.outputs[i]);
    print_reset += fmt::format("    run->out.put(static_cast<uint64_t>({}.read()));\n", ports.outputs[i]);
    read_outputs += fmt::format("        got.push_back(static_cast<uint64_t>({}.read()));\n", ports.outputs[i]);
  }
  TestbenchSource tb;
  tb.includes = "#include <systemc.h>\n\n#include <cstdint>\n\n#include \"" + model_class + ".h\"\n\n" +
                systemc_wrapper_module(d, model_class, wrapper_class) + kIncludes;
  tb.body = fmt::format(fmt::runtime(kTestbench), fmt::arg("w", wrapper_class), fmt::arg("tb_ports", tb_ports), fmt::arg("set_configs", set_configs),
                     fmt::arg("set_inputs", set_inputs), fmt::arg("randomize_inputs", randomize_inputs),
                     fmt::arg("print_reset", print_reset), fmt::arg("read_outputs", read_outputs),
                     fmt::arg("signals", signals), fmt::arg("bind_dut", bind_dut), fmt::arg("bind_tb", bind_tb),
                     fmt::arg("input_ports", g.inputs.size()), fmt::arg("config_ports", g.configs.size()),
                     fmt::arg("tag_post_reset", tag_literal(ResultTag::PostReset)), fmt::arg("tag_accepted", tag_literal(ResultTag::Accepted)),
                     fmt::arg("tag_result", tag_literal(ResultTag::Result)), fmt::arg("tag_hang", tag_literal(ResultTag::Hang)),
                     fmt::arg("tag_end", tag_literal(ResultTag::End)), fmt::arg("tag_checked", tag_literal(ResultTag::Checked)),
                     fmt::arg("tag_ref_error", tag_literal(ResultTag::RefError)));
  return tb;
}

std::string systemc_testbench_cpp(const hls::Design& d, const std::string& module) {
  const std::string m = verilator_cpp_name(module);  // as Verilator's C++ names it
  return "// The SystemC testbench of kernel module " + module + ". Generated by polydat: do not edit.\n" +
         testbench_units({{"tb", systemc_testbench_source(d, "V" + m, m + "_sc")}}) +
         testbench_entry({{"tb", {}}}, "sc_main", false);
}

}  // namespace polydat::sim
