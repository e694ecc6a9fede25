#include "sim/verilator/testbench.h"

#include <fmt/core.h>

#include "rtl/emit_sv.h"

namespace polydat::sim {

TestbenchSource testbench_source(const hls::Design& d, const std::string& model_class) {
  const hls::Dfg& g = d.dfg;
  const rtl::PortNames ports = rtl::verilator_cpp_port_names(d);
  std::string set_inputs, randomize_inputs, set_configs, print_outputs, print_reset;
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    set_inputs += fmt::format("      top->{} = data[next][{}];\n", ports.inputs[i], i);
    // Verilator expects the unused high bits of a port to be zero: mask to the width.
    const unsigned w = g.inputs[i].ty.bits();
    const std::string mask = w >= 64 ? "~0ull" : fmt::format("{}ull", (1ull << w) - 1);
    randomize_inputs += fmt::format("      top->{} = rng() & {};\n", ports.inputs[i], mask);
  }
  for (size_t i = 0; i < g.configs.size(); ++i) set_configs += fmt::format("  top->{} = configs[{}];\n", ports.configs[i], i);
  for (const std::string& o : ports.outputs) {
    print_outputs += fmt::format("      fprintf(out, \" %llu\", (unsigned long long)top->{});\n", o);
    print_reset += fmt::format("  fprintf(out, \" %llu\", (unsigned long long)top->{});\n", o);
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
  FILE* in = fopen(argv[1], "r");
  FILE* out = fopen(argv[2], "w");
  if (!in || !out) return 2;
  unsigned long long n = 0, inputs = 0, configs_n = 0;
  if (fscanf(in, "%llu %llu %llu", &n, &inputs, &configs_n) != 3) return 2;
  std::vector<unsigned long long> configs(configs_n);
  for (auto& c : configs)
    if (fscanf(in, "%llu", &c) != 1) return 2;
  std::vector<std::vector<unsigned long long>> data(n, std::vector<unsigned long long>(inputs));
  for (auto& row : data)
    for (auto& v : row)
      if (fscanf(in, "%llu", &v) != 1) return 2;
  fclose(in);

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
  unsigned long long cycle = 0;
  auto tick = [&] {{
    top->clk = 1;
    top->eval();
#if VM_TRACE
    if (tfp) tfp->dump(static_cast<uint64_t>(2 * cycle + 1));
#endif
    top->clk = 0;
    top->eval();
#if VM_TRACE
    if (tfp) tfp->dump(static_cast<uint64_t>(2 * cycle + 2));
#endif
    ++cycle;
  }};
{set_configs}  top->clk = 0;
  top->rst = 1;
  top->in_valid = 0;
  top->out_ready = 0;
  top->eval();
  for (int i = 0; i < 3; ++i) tick();
  top->rst = 0;
  top->eval();
  fprintf(out, "POSTRESET %d %d", (int)top->in_ready, (int)top->out_valid);
{print_reset}  fprintf(out, "\n");
  cycle = 0;
  unsigned long long next = 0, got = 0, idle = 0;
  bool offering = false;
  while (got < n) {{
    // An offered input stays offered until it is taken (valid must not drop).
    if (!offering && next < n && unit(rng) >= stall) offering = true;
    top->in_valid = offering;
    if (offering) {{
{set_inputs}    }} else {{
{randomize_inputs}    }}
    top->out_ready = unit(rng) >= stall;
    top->eval();
    if (top->in_valid && top->in_ready) {{
      fprintf(out, "A %llu\n", cycle);
      ++next;
      offering = false;
    }}
    if (top->out_valid && top->out_ready) {{
      fprintf(out, "R %llu", cycle);
{print_outputs}      fprintf(out, "\n");
      ++got;
      idle = 0;
    }} else if (++idle > max_idle) {{
      fprintf(out, "HANG %llu\n", cycle);
      break;
    }}
    tick();
  }}
  fprintf(out, "END %llu\n", cycle);
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
                     fmt::arg("print_reset", print_reset));
  return tb;
}

std::string testbench_cpp(const hls::Design& d, const std::string& module) {
  const std::string cls = "V" + rtl::verilator_cpp_name(module);  // as Verilator names the model
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
