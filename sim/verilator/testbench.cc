#include "sim/verilator/testbench.h"

#include <fmt/core.h>

#include "rtl/emit_sv.h"
#include "sim/verilator/cpp_names.h"
#include "sim/verilator/testbench_io.h"

namespace polydat::sim {

TestbenchSource testbench_source(const hls::Design& d, const std::string& model_class) {
  const hls::Dfg& g = d.dfg;
  const rtl::PortNames ports = verilator_cpp_port_names(d);
  std::string set_inputs, randomize_inputs, set_configs, print_outputs, print_reset;
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    set_inputs += fmt::format("      top->{} = data[next * inputs + {}];\n", ports.inputs[i], i);
    // Verilator expects the unused high bits of a port to be zero: mask to the width.
    const unsigned w = g.inputs[i].ty.bits();
    const std::string mask = w >= 64 ? "~0ull" : fmt::format("{}ull", (1ull << w) - 1);
    randomize_inputs += fmt::format("      top->{} = rng() & {};\n", ports.inputs[i], mask);
  }
  for (size_t i = 0; i < g.configs.size(); ++i) set_configs += fmt::format("  top->{} = configs[{}];\n", ports.configs[i], i);
  for (const std::string& o : ports.outputs) {
    print_outputs += fmt::format("      emit((unsigned long long)top->{});\n", o);
    print_reset += fmt::format("  emit((unsigned long long)top->{});\n", o);
  }
  TestbenchSource tb;
  tb.includes = fmt::format(R"(#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "{m}.h"
#include "verilated.h"
#if VM_TRACE_FST
#include "verilated_fst_c.h"
#elif VM_TRACE_VCD
#include "verilated_vcd_c.h"
#endif
)",
                            fmt::arg("m", model_class));
  tb.body = fmt::format(R"(
#if VM_TRACE_FST
using Trace = VerilatedFstC;
#elif VM_TRACE_VCD
using Trace = VerilatedVcdC;
#endif

int run_testbench(int argc, char** argv) {{
  if (argc < 6) {{
    fprintf(stderr, "usage: %s DATA OUT SEED STALL MAX_IDLE [TRACE]\n", argv[0]);
    return 2;
  }}
  const unsigned long long seed = strtoull(argv[3], nullptr, 10);
  const double stall = atof(argv[4]);
  const unsigned long long max_idle = strtoull(argv[5], nullptr, 10);
  // The batch and the results in 64-bit words (sim/verilator/testbench_io.h): no text either way.
  FILE* in = fopen(argv[1], "rb");
  FILE* out = fopen(argv[2], "wb");
  if (!in || !out) return 2;
  unsigned long long head[3];
  if (fread(head, sizeof head[0], 3, in) != 3) return 2;
  const unsigned long long n = head[0], inputs = head[1];
  if (inputs != {input_ports} || head[2] != {config_ports}) return 2;  // not a batch of this design
  std::vector<unsigned long long> configs(head[2]), data(n * inputs);
  if (fread(configs.data(), 8, configs.size(), in) != configs.size() || fread(data.data(), 8, data.size(), in) != data.size())
    return 2;
  fclose(in);
  std::vector<unsigned long long> words;
  words.reserve(1 << 16);
  auto emit = [&](unsigned long long w) {{
    words.push_back(w);
    if (words.size() >= (1 << 16)) {{
      fwrite(words.data(), 8, words.size(), out);
      words.clear();
    }}
  }};

  // Registers start random (--x-initial unique): reset must define everything.
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->randReset(2);
  ctx->randSeed(static_cast<int>(seed % 2147483647ull) + 1);
  auto top = std::make_unique<{m}>(ctx.get());
#if VM_TRACE
  std::unique_ptr<Trace> tfp;
  if (argc > 6) {{
    ctx->traceEverOn(true);
    tfp = std::make_unique<Trace>();
    top->trace(tfp.get(), 99);
    tfp->open(argv[6]);
  }}
#endif
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  // A stall draw only when stalling: free flow costs no random numbers.
  auto go = [&] {{ return stall <= 0 || unit(rng) >= stall; }};
  unsigned long long cycle = 0, time = 0;
  auto step = [&] {{  // one evaluation, and a waveform sample after it
    top->eval();
#if VM_TRACE
    if (tfp) tfp->dump(static_cast<uint64_t>(++time));
#endif
  }};
{set_configs}  top->clk = 0;
  top->rst = 1;
  top->in_valid = 0;
  top->out_ready = 0;
  step();
  for (int i = 0; i < 3; ++i) {{
    top->clk = 1;
    step();
    top->clk = 0;
    step();
  }}
  top->rst = 0;
  step();
  emit({tag_post_reset});
  emit(top->in_ready);
  emit(top->out_valid);
{print_reset}  unsigned long long next = 0, got = 0, idle = 0;
  bool offering = false;
  // Two evaluations a cycle, as a bare loop: the falling edge together with the
  // new inputs (the design acts on rising edges only), then the rising edge.
  while (got < n) {{
    // An offered input stays offered until it is taken (valid must not drop).
    if (!offering && next < n && go()) offering = true;
    top->in_valid = offering;
    if (offering) {{
{set_inputs}    }} else {{
{randomize_inputs}    }}
    top->out_ready = go();
    top->clk = 0;
    step();
    if (top->in_valid && top->in_ready) {{
      emit({tag_accepted});
      emit(cycle);
      ++next;
      offering = false;
    }}
    if (top->out_valid && top->out_ready) {{
      emit({tag_result});
      emit(cycle);
{print_outputs}      ++got;
      idle = 0;
    }} else if (++idle > max_idle) {{
      emit({tag_hang});
      emit(cycle);
      break;
    }}
    top->clk = 1;
    step();
    ++cycle;
  }}
  emit({tag_end});
  emit(cycle);
  fwrite(words.data(), 8, words.size(), out);
#if VM_TRACE
  if (tfp) tfp->close();
#endif
  top->final();
  fclose(out);
  return 0;
}}
)",
                     fmt::arg("m", model_class), fmt::arg("set_inputs", set_inputs), fmt::arg("randomize_inputs", randomize_inputs),
                     fmt::arg("set_configs", set_configs), fmt::arg("print_outputs", print_outputs),
                     fmt::arg("print_reset", print_reset), fmt::arg("tag_post_reset", tag_literal(ResultTag::PostReset)),
                     fmt::arg("tag_accepted", tag_literal(ResultTag::Accepted)), fmt::arg("tag_result", tag_literal(ResultTag::Result)),
                     fmt::arg("tag_hang", tag_literal(ResultTag::Hang)), fmt::arg("tag_end", tag_literal(ResultTag::End)),
                     fmt::arg("input_ports", g.inputs.size()), fmt::arg("config_ports", g.configs.size()));
  return tb;
}

std::string testbench_cpp(const hls::Design& d, const std::string& module) {
  const std::string cls = "V" + verilator_cpp_name(module);  // as Verilator names the model
  return "// Generated by polydat: the testbench of module " + module + ". Do not edit.\n" +
         testbench_units({{"tb", testbench_source(d, cls)}}) + testbench_entry({{"tb", {}}}, "main", false);
}

std::string testbench_units(const std::vector<NamedTestbench>& members) {
  std::string code;
  for (const NamedTestbench& t : members) code += t.source.includes;
  for (const NamedTestbench& t : members)
    code += fmt::format("\nnamespace polydat_tb_{} {{\n{}}}  // namespace polydat_tb_{}\n", t.name, t.source.body, t.name);
  return code;
}

std::string testbench_entry(const std::vector<NamedTestbench>& members, const std::string& entry, bool by_name) {
  // SystemC's library calls sc_main with C linkage.
  std::string declarations = entry == "sc_main" ? "extern \"C\" int sc_main(int argc, char** argv);\n" : "";
  std::string dispatch;
  for (const NamedTestbench& t : members) {
    declarations += fmt::format("namespace polydat_tb_{} {{ int run_testbench(int argc, char** argv); }}\n", t.name);
    dispatch += fmt::format("  if (member == \"{0}\") return polydat_tb_{0}::run_testbench(argc - 1, argv + 1);\n", t.name);
  }
  if (!by_name)
    return fmt::format("\n{}int {}(int argc, char** argv) {{ return polydat_tb_{}::run_testbench(argc, argv); }}\n",
                       declarations, entry, members.front().name);
  return fmt::format(R"(
#include <cstdio>
#include <string>

{}
// The first argument names the model to run.
int {}(int argc, char** argv) {{
  const std::string member = argc > 1 ? argv[1] : "";
{}  fprintf(stderr, "%s: no model named '%s' in this program\n", argv[0], member.c_str());
  return 2;
}}
)",
                     declarations, entry, dispatch);
}

}  // namespace polydat::sim
