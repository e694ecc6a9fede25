// The `polydat` command.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "cli/commands.h"
#include "cli/usage.h"
#include "difftest/difftest.h"
#include "flow/engines.h"

namespace {
// "a (what a is), b (...) or c (...)": the registry's engines of one kind.
std::string engine_help(polydat::flow::EngineKind kind) {
  std::vector<std::string> parts;
  for (const polydat::flow::EngineInfo& e : polydat::flow::engines())
    if (e.kind == kind) parts.push_back(e.name + " (" + e.summary + ")");
  std::string text;
  for (size_t i = 0; i < parts.size(); ++i) text += (i == 0 ? "" : i + 1 == parts.size() ? " or " : ", ") + parts[i];
  return text;
}

using namespace polydat::cli;
constexpr const char* kVersion = "polydat 0.1.0";

// The kernel and the synthesis options every hardware command takes.
void add_hls_options(CLI::App* cmd, polydat::cli::HlsArgs& a, bool takes_workloads) {
  cmd->add_option("file", a.file, takes_workloads ? "the kernel (.gk) or workload (.yaml)" : "the kernel (.gk)")->required();
  cmd->add_option("--target", a.target, "ice40 or generic")->capture_default_str()
      ->check(CLI::IsMember({"ice40", "generic"}));
  cmd->add_option("--clock-ns", a.clock_ns, "the clock period (default: the target's)")->check(clock_period_ns());
  cmd->add_option("--max-mul", a.max_mul, "FSMs: at most N multipliers, shared across states");
  cmd->add_option("--dsp", a.dsp, "at most N DSP blocks (0: multiplies in LUTs; default: the device's count)");
  cmd->add_flag("--strict", a.strict, "exit 1 when the model predicts the clock is missed (default: a warning)");
  cmd->add_option("-L", a.lib_paths, "a folder to search for modules (repeatable)")->allow_extra_args(false)
      ->check(existing_folder());
}
}  // namespace

int main(int argc, char** argv) {
  using namespace polydat::cli;
  CLI::App app{"polydat: synthesis flow and simulator for Polydat generator kernels"};
  app.set_version_flag("--version", kVersion);
  app.failure_message(usage_error_text);  // before the subcommands, which copy it

  CheckArgs check;
  CLI::App* check_cmd = app.add_subcommand("check", "check kernels and print their signatures");
  check_cmd->add_option("files", check.files, "kernel files (.gk)")->required();
  check_cmd->add_option("-L", check.lib_paths, "a folder to search for modules (repeatable)")->allow_extra_args(false)
      ->check(existing_folder());

  FunctionsArgs functions;
  CLI::App* functions_cmd = app.add_subcommand("functions", "list the function library: signatures, help, hardware");
  functions_cmd->add_option("--format", functions.format, "text or json")->capture_default_str()
      ->check(CLI::IsMember({"text", "json"}));
  functions_cmd->add_option("--example", functions.example, "print a kernel that calls this function");

  EvalArgs eval;
  CLI::App* eval_cmd = app.add_subcommand("eval", "evaluate a kernel on the interpreter or as native code");
  eval_cmd->add_option("file", eval.file, "the kernel (.gk)")->required();
  eval_cmd->add_option("--cycles", eval.cycles, "N (0..N) or A..B (half-open) for the first input")->capture_default_str();
  eval_cmd->add_option("--set", eval.sets, "NAME=VALUE for another input or an extern (repeatable)")->allow_extra_args(false);
  eval_cmd->add_option("--format", eval.format, "table, csv, tsv, json, jsonl or bin (the output records of emit-obj's header)")
      ->capture_default_str()->check(CLI::IsMember({"table", "csv", "tsv", "json", "jsonl", "bin"}));
  eval_cmd->add_option("--threads", eval.threads, "threads evaluating (default: the machine's cores); the output is the same")
      ->check(CLI::Range(1u, 1024u));
  eval_cmd->add_option("--shard", eval.shard, "K/N: only the K-th of N slices of the rows; the N outputs joined are one run's");
  eval_cmd->add_option("--outputs", eval.outputs, "only these outputs, comma-separated, in this order (only their cone is compiled and run)")
      ->delimiter(',');
  eval_cmd->add_option("-o,--output", eval.output, "write to this file instead of stdout");
  eval_cmd->add_flag("-q,--quiet", eval.quiet, "no progress line on stderr");
  eval_cmd->add_option("--engine", eval.engine, engine_help(polydat::flow::EngineKind::Software))
      ->capture_default_str()->check(CLI::IsMember(polydat::flow::engine_names(polydat::flow::EngineKind::Software)));
  eval_cmd->add_option("-L", eval.lib_paths, "a folder to search for modules (repeatable)")->allow_extra_args(false)
      ->check(existing_folder());

  RunArgs run;
  CLI::App* run_cmd = app.add_subcommand("run", "run a workload's scenario (phases, loops, scopes, shared cells), one line per op");
  run_cmd->add_option("file", run.file, "the workload (.yaml), or nb-rs's workload=FILE");
  run_cmd->add_option("assignments", run.assignments,
                      "nb-rs's parameters: scenario=NAME, cycles=N, format=, tags=, seq=, ..., and NAME=VALUE for params");
  run_cmd->add_option("--engine", run.engine, engine_help(polydat::flow::EngineKind::Software))
      ->capture_default_str();
  run_cmd->add_option("--format", run.format,
                      "nb-rs's stdout formats: stmt (the op's text), readout, assignments, json (jsonl), csv, tsv, raw")
      ->capture_default_str();
  run_cmd->add_option("-o,--output", run.output, "write to this file instead of stdout");
  run_cmd->add_option("-L", run.lib_paths, "a folder to search for modules (repeatable)")->allow_extra_args(false);
  run_cmd->add_flag("--explain", run.explain, "print the scope tree: each scope's imports, cells, outputs, each loop variable's class");
  run_cmd->add_flag("-q,--quiet", run.quiet, "no progress line and no warnings on stderr");

  IrArgs ir;
  CLI::App* ir_cmd = app.add_subcommand("ir", "print a kernel's IR");
  ir_cmd->add_option("file", ir.file, "the kernel (.gk)")->required();
  ir_cmd->add_option("--format", ir.format, "text, mermaid or dot")->capture_default_str()
      ->check(CLI::IsMember({"text", "mermaid", "dot"}));
  ir_cmd->add_flag("--no-opt", ir.no_opt, "show the IR as lowered, before the optimisation passes");
  ir_cmd->add_option("-L", ir.lib_paths, "a folder to search for modules (repeatable)")->allow_extra_args(false)
      ->check(existing_folder());

  HlsArgs hls;
  CLI::App* hls_cmd = app.add_subcommand("hls", "schedule and bind a kernel for hardware; print the report");
  add_hls_options(hls_cmd, hls, false);
  hls_cmd->add_option("--format", hls.format, "text, json or svg (the schedule picture)")->capture_default_str()
      ->check(CLI::IsMember({"text", "json", "svg"}));

  HlsArgs emit;
  std::string out_dir;
  CLI::App* emit_cmd = app.add_subcommand("emit-sv", "write the kernel's SystemVerilog and report to a folder");
  add_hls_options(emit_cmd, emit, true);
  emit_cmd->add_option("-o", out_dir, "the output folder")->required()->check(non_empty_path());
  std::vector<std::string> emit_assignments;
  emit_cmd->add_flag("--partition", emit.partition, "a workload: leave the phase runs hardware cannot take on the host, and say which");
  emit_cmd->add_option("assignments", emit_assignments, "a workload's scenario=NAME and NAME=VALUE params");

  EmitObjArgs obj;
  CLI::App* obj_cmd = app.add_subcommand("emit-obj", "write the kernel as an object file and a C header (native code)");
  obj_cmd->add_option("file", obj.file, "the kernel (.gk)")->required();
  obj_cmd->add_option("-o", obj.out_dir, "the output folder")->required()->check(non_empty_path());
  obj_cmd->add_option("-L", obj.lib_paths, "a folder to search for modules (repeatable)")->allow_extra_args(false)
      ->check(existing_folder());

  BenchArgs bench;
  CLI::App* bench_cmd = app.add_subcommand("bench", "time the interpreter and native code on a kernel, in one run");
  bench_cmd->add_option("file", bench.file, "the kernel (.gk)")->required();
  bench_cmd->add_option("--cycles", bench.cycles, "N (0..N) or A..B (half-open) for the first input")
      ->capture_default_str();
  bench_cmd->add_option("--set", bench.sets, "NAME=VALUE for another input or an extern (repeatable)")
      ->allow_extra_args(false);
  bench_cmd->add_option("--outputs", bench.outputs, "only these outputs, comma-separated (only their cone is compiled)")
      ->delimiter(',');
  bench_cmd->add_option("-L", bench.lib_paths, "a folder to search for modules (repeatable)")->allow_extra_args(false)
      ->check(existing_folder());

  CosimArgs cosim;
  CLI::App* cosim_cmd =
      app.add_subcommand("cosim", "simulate the kernel's SystemVerilog cycle by cycle against the interpreter");
  add_hls_options(cosim_cmd, cosim.hls, true);
  cosim_cmd->add_option("--sim", cosim.sim, engine_help(polydat::flow::EngineKind::Rtl))
      ->capture_default_str()->check(CLI::IsMember(polydat::flow::engine_names(polydat::flow::EngineKind::Rtl)));
  cosim_cmd->add_option("--cycles", cosim.cycles, "N (0..N) or A..B (half-open) for the first input")
      ->capture_default_str();
  cosim_cmd->add_option("--set", cosim.sets, "NAME=VALUE for another input or an extern (repeatable)")
      ->allow_extra_args(false);
  cosim_cmd->add_option("--stall", cosim.stall, "probability in [0, 1) that in_valid and out_ready are each low")
      ->capture_default_str();
  cosim_cmd->add_option("--seed", cosim.seed, "seeds the stalls and the random initial register values")
      ->capture_default_str();
  std::vector<std::string> cosim_assignments;
  cosim_cmd->add_flag("--partition", cosim.hls.partition, "a workload: leave the phase runs hardware cannot take on the host, and say which");
  cosim_cmd->add_option("assignments", cosim_assignments, "a workload's scenario=NAME and NAME=VALUE params");
  cosim_cmd->add_option("--trace", cosim.trace, "write a waveform: FILE.vcd, or FST for any other name")
      ->check(writable_file());

  CLI::Option* cosim_board =
      cosim_cmd->add_option("--board", cosim.board, "simulate the whole board top, decoding its UART (a board or a .yaml)");
  cosim_cmd->add_option("--freq", cosim.freq_mhz, "with --board: run the board top at this clock in MHz, through the PLL")
      ->needs(cosim_board)->check(positive_number());

  SynthArgs synth;
  CLI::App* synth_cmd = app.add_subcommand("synth", "Yosys, nextpnr-ice40 and icepack: a bitstream and a report");
  add_hls_options(synth_cmd, synth.hls, true);
  std::vector<std::string> synth_assignments;
  synth_cmd->add_flag("--partition", synth.hls.partition, "a workload: leave the phase runs hardware cannot take on the host, and say which");
  synth_cmd->add_option("assignments", synth_assignments, "a workload's scenario=NAME and NAME=VALUE params");
  synth_cmd->add_option("--board", synth.board, "a board (bundled name or .yaml): the kernel inside the board top");
  synth_cmd->add_option("--device", synth.device, "without a board: the kernel inside the QoR wrapper (3 pins) on up5k, hx8k, lp8k or hx1k")
      ->check(CLI::IsMember({"up5k", "hx8k", "lp8k", "hx1k"}));
  synth_cmd->add_option("--package", synth.package, "with --device: the package (default: the device's)");
  synth_cmd->add_option("--freq", synth.freq_mhz,
                        "the clock in MHz (--device: default 48; --board: through the PLL, default the oscillator)")
      ->check(positive_number());
  synth_cmd->add_option("-o", synth.out_dir, "the output folder (default: KERNEL-BOARD or KERNEL-DEVICE)")
      ->check(non_empty_path());
  synth_cmd->add_option("--set", synth.sets, "NAME=VALUE for an extern or a held input of the board top (repeatable)")
      ->allow_extra_args(false);
  synth_cmd->add_option("--estimate", synth.estimate, "ecp5 or xilinx: resources through Yosys only")
      ->check(CLI::IsMember({"ecp5", "xilinx"}));
  synth_cmd->add_flag("--close-timing", synth.close_timing, "schedule again with a tighter clock while Fmax misses");
  synth_cmd->add_option("--seed", synth.seed, "nextpnr's placement seed")->capture_default_str();
  synth_cmd->add_option("--progress", synth.progress_s, "seconds between progress lines (stderr) while a tool runs")
      ->capture_default_str()->check(positive_number());
  synth_cmd->add_option("--tool-timeout", synth.tool_timeout_s, "seconds a tool may run before it is killed")
      ->capture_default_str()->check(positive_number());

  FlashArgs flash;
  CLI::App* flash_cmd = app.add_subcommand("flash", "program an attached board with what `synth --board` wrote");
  flash_cmd->add_option("--board", flash.board, "the board")->required();
  flash_cmd->add_option("dir", flash.dir, "the folder `polydat synth` wrote")->required();

  DifftestArgs difftest;
  difftest.engines = polydat::flow::engine_names();
  CLI::App* difftest_cmd =
      app.add_subcommand("difftest", "run a kernel on every engine that takes it, against the interpreter");
  difftest_cmd->add_option("file", difftest.file, "the kernel (.gk)")->required();
  difftest_cmd->add_option("--engines", difftest.engines, "engines, comma-separated")->delimiter(',')
      ->capture_default_str()->check(CLI::IsMember(polydat::flow::engine_names()));
  difftest_cmd->add_option("--inputs", difftest.inputs, "random inputs (edges favoured)")->capture_default_str();
  difftest_cmd->add_option("--seed", difftest.seed, "seeds the inputs and the stalls")->capture_default_str();
  difftest_cmd->add_option("--stall", difftest.stall, "RTL engines: the chance of a stall on each handshake")
      ->capture_default_str()->check(CLI::Range(0.0, 0.95));
  difftest_cmd->add_option("-L", difftest.lib_paths, "a folder to search for modules (repeatable)")
      ->allow_extra_args(false)->check(existing_folder());

  FuzzArgs fuzz;
  fuzz.engines = {"interp", "llvm"};
  CLI::App* fuzz_cmd =
      app.add_subcommand("fuzz", "generate random kernels and compare the engines on them; write what disagrees");
  fuzz_cmd->add_option("--engines", fuzz.engines, "engines, comma-separated")->delimiter(',')
      ->capture_default_str()->check(CLI::IsMember(polydat::flow::engine_names()));
  fuzz_cmd->add_option("--count", fuzz.count, "kernels to generate")->capture_default_str();
  fuzz_cmd->add_option("--seed", fuzz.seed, "kernel i comes from seed + i")->capture_default_str();
  fuzz_cmd->add_option("--inputs", fuzz.inputs, "random inputs per kernel")->capture_default_str();
  fuzz_cmd->add_option("--stall", fuzz.stall, "RTL engines: the chance of a stall on each handshake")
      ->capture_default_str()->check(CLI::Range(0.0, 0.95));
  fuzz_cmd->add_flag("--print", fuzz.print, "print the generated kernels instead of running them");
  fuzz_cmd->add_option("-o", fuzz.out_dir, "where findings are written")->capture_default_str()->check(non_empty_path());

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);  // the message of usage_error_text
    return kUsageError;
  }
  if (check_cmd->parsed()) return check_command(check);
  if (functions_cmd->parsed()) return functions_command(functions);
  if (eval_cmd->parsed()) return eval_command(eval);
  if (run_cmd->parsed()) {
    run.format_given = run_cmd->count("--format") > 0;
    return run_command(run);
  }
  if (ir_cmd->parsed()) return ir_command(ir);
  if (hls_cmd->parsed()) return hls_command(hls);
  for (const HlsArgs* a : {&emit, &cosim.hls, &synth.hls})
    if (a->partition && !is_workload_file(a->file)) {
      fmt::print(stderr, "error: --partition is for a workload (.yaml); '{}' is a kernel\n", a->file);
      return kUsageError;
    }
  if (emit_cmd->parsed() && is_workload_file(emit.file)) return workload_emit_sv_command(emit, emit_assignments, out_dir);
  if (emit_cmd->parsed()) return emit_sv_command(emit, out_dir);
  if (synth_cmd->parsed() && is_workload_file(synth.hls.file)) return workload_synth_command(synth, synth_assignments);
  if (cosim_cmd->parsed() && is_workload_file(cosim.hls.file)) {
    // A kernel's stimulus flags have no meaning for a workload: its phases say what runs.
    for (const auto& [flag, instead] : {std::pair<const char*, const char*>{"--cycles", "its phases' cycles: set them with cycles=N or a param"},
                                        {"--set", "set its params with NAME=VALUE"},
                                        {"--trace", "its top is not traced; cosim a kernel of it to see waves"}})
      if (cosim_cmd->count(flag) > 0) {
        fmt::print(stderr, "error: {} is for a kernel; for a workload, {} [usage]\n", flag, instead);
        return kUsageError;
      }
    return workload_cosim_command(cosim, cosim_assignments);
  }
  cosim.cycles_given = cosim_cmd->count("--cycles") > 0;
  if (cosim_cmd->parsed()) return cosim_command(cosim);
  if (synth_cmd->parsed()) return synth_command(synth);
  if (flash_cmd->parsed()) return flash_command(flash);
  if (obj_cmd->parsed()) return emit_obj_command(obj);
  if (bench_cmd->parsed()) return bench_command(bench);
  if (difftest_cmd->parsed()) return difftest_command(difftest);
  if (fuzz_cmd->parsed()) return fuzz_command(fuzz);
  // No subcommand: say so, with the list (checked here so that an unknown word is named first).
  fmt::print(stderr, "{}\n", app.help());
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
  std::string list;
  for (size_t i = 0; i < names.size(); ++i) list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  fmt::print(stderr, "error: a subcommand is required: {}\n", list);
  return kUsageError;
}
