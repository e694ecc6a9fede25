#include "hwtop/sim_top.h"

#include <fmt/core.h>

#include <fstream>

#include "hwtop/emit_top.h"
#include "sim/build_support.h"
#include "sim/verilator/verilator_engine.h"
#include "text/plural.h"

namespace polydat::hwtop {

namespace fs = std::filesystem;

namespace {

// What both testbenches share: their arguments, the stall generator, the record printer.
std::string common_code(const HwWorkload& hw, bool systemc) {
  const unsigned w = hw.payload_width;
  std::string print_data;
  if (w <= 64) {
    print_data = "  fprintf(out, \"%llx\\n\", static_cast<unsigned long long>(data));\n";
  } else {
    const unsigned words = (w + 31) / 32;
    print_data = fmt::format(
        "  for (int i = {}; i >= 0; --i) fprintf(out, i == {} ? \"%x\" : \"%08x\", static_cast<unsigned>({}));\n"
        "  fprintf(out, \"\\n\");\n",
        words - 1, words - 1, systemc ? "data.get_word(i)" : "data[i]");
  }
  return fmt::format(R"(
// xorshift64*: the stalls, from the seed.
struct Stalls {{
  uint64_t s;
  double p;
  bool ready() {{
    s ^= s >> 12; s ^= s << 25; s ^= s >> 27;
    const uint64_t r = s * 2685821657736338717ull;
    return p <= 0 || static_cast<double>(r >> 11) / 9007199254740992.0 >= p;
  }}
}};

// usage: sim OUT SEED STALL MAX_CYCLES
struct Args {{
  FILE* out = nullptr;
  uint64_t seed = 1, max_cycles = 0;
  double stall = 0;
  bool parse(int argc, char** argv) {{
    if (argc < 5) return false;
    out = fopen(argv[1], "w");
    seed = strtoull(argv[2], nullptr, 10);
    stall = atof(argv[3]);
    max_cycles = strtoull(argv[4], nullptr, 10);
    return out != nullptr;
  }}
}};

template <class Data>
void print_record(FILE* out, uint64_t entry, uint64_t op, uint64_t cycle, const Data& data) {{
  fprintf(out, "R %llu %llu %llu ", static_cast<unsigned long long>(entry), static_cast<unsigned long long>(op),
          static_cast<unsigned long long>(cycle));
{}}}
)",
                     print_data);
}

std::string sc_type(unsigned w) {
  if (w == 1) return "bool";
  if (w <= 32) return "uint32_t";
  if (w <= 64) return "uint64_t";
  return fmt::format("sc_dt::sc_bv<{}>", w);
}

std::string verilator_testbench(const HwWorkload& hw) {
  return fmt::format(R"(// The workload top's testbench: reset, then rec_ready stalled at random, each record printed.
//   usage: sim OUT SEED STALL MAX_CYCLES
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "V{0}.h"
#include "verilated.h"
{1}
int main(int argc, char** argv) {{
  Args args;
  if (!args.parse(argc, argv)) return 2;
  FILE* out = args.out;
  const uint64_t seed = args.seed, max_cycles = args.max_cycles;
  Stalls stalls{{seed * 0x9E3779B97F4A7C15ull + 1, args.stall}};
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->randReset(2);  // registers start random: reset must define what matters
  ctx->randSeed(static_cast<int>(seed % 2147483647ull) + 1);
  auto top = std::make_unique<V{0}>(ctx.get());
  top->clk = 0;
  top->rst = 1;
  top->rec_ready = 0;
  for (int i = 0; i < 4; ++i) {{
    top->clk = !top->clk;
    top->eval();
  }}
  top->rst = 0;
  uint64_t cycle = 0;
  bool done = false;
  for (; cycle < max_cycles; ++cycle) {{
    top->clk = 0;
    top->rec_ready = stalls.ready();
    top->eval();
    if (top->rec_valid && top->rec_ready) print_record(out, top->rec_entry, top->rec_op, top->rec_cycle, top->rec_data);
    if (top->done) {{
      done = true;
      break;
    }}
    top->clk = 1;
    top->eval();
  }}
  fprintf(out, done ? "D %llu\n" : "H %llu\n", static_cast<unsigned long long>(cycle));
  top->final();
  fclose(out);
  return 0;
}}
)",
                     hw.top, common_code(hw, false));
}

std::string systemc_testbench(const HwWorkload& hw) {
  return fmt::format(R"(// The workload top as a SystemC module: clocked by sc_clock, rec_ready stalled at random, each record printed.
//   usage: sim OUT SEED STALL MAX_CYCLES
#include <systemc.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "V{0}.h"
#include "verilated.h"
{1}
int sc_main(int argc, char** argv) {{
  Args args;
  if (!args.parse(argc, argv)) return 2;
  FILE* out = args.out;
  const uint64_t seed = args.seed, max_cycles = args.max_cycles;
  Stalls stalls{{seed * 0x9E3779B97F4A7C15ull + 1, args.stall}};
  Verilated::randReset(2);
  Verilated::randSeed(static_cast<int>(seed % 2147483647ull) + 1);
  // Rising edges at 5, 15, 25 ns ...; the testbench samples and drives at 0, 10, 20 ns ...
  sc_core::sc_clock clk("clk", 10, sc_core::SC_NS, 0.5, 5, sc_core::SC_NS, true);
  sc_core::sc_signal<bool> rst("rst"), rec_valid("rec_valid"), rec_ready("rec_ready"), done("done");
  sc_core::sc_signal<{2}> rec_entry("rec_entry");
  sc_core::sc_signal<{3}> rec_op("rec_op");
  sc_core::sc_signal<uint64_t> rec_cycle("rec_cycle");
  sc_core::sc_signal<{4}> rec_data("rec_data");
  V{0} top("top");
  top.clk(clk);
  top.rst(rst);
  top.rec_valid(rec_valid);
  top.rec_ready(rec_ready);
  top.rec_entry(rec_entry);
  top.rec_op(rec_op);
  top.rec_cycle(rec_cycle);
  top.rec_data(rec_data);
  top.done(done);
  rst = true;
  rec_ready = false;
  sc_core::sc_start(20, sc_core::SC_NS);
  rst = false;
  uint64_t cycle = 0;
  bool finished = false;
  for (; cycle < max_cycles; ++cycle) {{
    rec_ready = stalls.ready();
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    if (rec_valid.read() && rec_ready.read())
      print_record(out, static_cast<uint64_t>(rec_entry.read()), static_cast<uint64_t>(rec_op.read()), rec_cycle.read(), rec_data.read());
    if (done.read()) {{
      finished = true;
      break;
    }}
    sc_core::sc_start(10, sc_core::SC_NS);
  }}
  fprintf(out, finished ? "D %llu\n" : "H %llu\n", static_cast<unsigned long long>(cycle));
  top.final();
  fclose(out);
  return 0;
}}
)",
                     hw.top, common_code(hw, true), sc_type(hw.entry_width), sc_type(hw.op_width), sc_type(hw.payload_width));
}

}  // namespace

ir::Expected<TopSimRun, std::string> simulate_top(const HwWorkload& hw, const TopSimOptions& o) {
  const fs::path cache = o.cache.empty() ? sim::default_cache_dir() : o.cache;
  std::vector<std::string> flags = sim::verilator_flags(sim::TraceKind::None);
  if (o.systemc) {
    for (std::string& f : flags)
      if (f == "--cc") f = "--sc";
    flags.insert(flags.end(), {"-LDFLAGS", "-lsystemc -pthread -latomic"});
  }
  sim::ModelBuild mb{hw.top, o.sv ? *o.sv : emit_all(hw), o.systemc ? systemc_testbench(hw) : verilator_testbench(hw),
                     o.systemc ? "sc_tb.cpp" : "tb.cpp", "sim", flags};
  auto built = sim::build_cached(cache / (o.systemc ? "workload-sc" : "workload"), mb);
  if (!built) return built.error();
  const fs::path dir = built->binary.parent_path();
  const std::string tag = fmt::format("{}-{}-{}", o.seed, static_cast<uint64_t>(o.stall * 1e6), ::getpid());
  const fs::path out = dir / ("records-" + tag + ".txt"), log = dir / ("run-" + tag + ".log");
  const int rc = sim::run_program({built->binary.string(), out.string(), std::to_string(o.seed), fmt::format("{}", o.stall),
                                   std::to_string(o.max_cycles)},
                                  log);
  if (rc != 0) return fmt::format("the workload model exited with {} ({}):\n{}", rc, log.string(), sim::tail(sim::read_text(log), 15));
  TopSimRun run;
  std::ifstream in(out);
  std::string line;
  bool ended = false;
  while (std::getline(in, line)) {
    if (line.rfind("D ", 0) == 0 || line.rfind("H ", 0) == 0) {
      run.cycles = std::stoull(line.substr(2));
      if (line[0] == 'H') return fmt::format("the workload top did not finish in {} (after {})", text::counted(run.cycles, "cycle"), text::counted(run.records.size(), "record"));
      ended = true;
      break;
    }
    auto r = parse_record_line(line);
    if (!r) return r.error();
    run.records.push_back(std::move(*r));
  }
  std::error_code ec;
  fs::remove(out, ec);
  fs::remove(log, ec);
  if (!ended) return std::string("the workload model's output ended early (" + out.string() + ")");
  return run;
}

}  // namespace polydat::hwtop
