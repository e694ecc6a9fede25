#include "cli/app.h"

#include "cli/usage.h"
#include "flow/engines.h"
#include "hls/design.h"

namespace polydat::cli {

namespace {

constexpr const char* kVersion = "polydat 0.1.0";

// "a (what a is), b (...) or c (...)": the registry's engines of one kind.
std::string engine_help(flow::EngineKind kind) {
  std::vector<std::string> parts;
  for (const flow::EngineInfo& e : flow::engines())
    if (e.kind == kind) parts.push_back(e.name + " (" + e.summary + ")");
  std::string text;
  for (size_t i = 0; i < parts.size(); ++i) text += (i == 0 ? "" : i + 1 == parts.size() ? " or " : ", ") + parts[i];
  return text;
}

// The flags shared across subcommands, each declared here once: one spelling, one value form, one
// meaning (docs/guide.md "Flags shared across subcommands"; tests/cli/flag_vocabulary_test.cc).
CLI::Option* add_lib_paths(CLI::App* cmd, std::vector<std::string>& paths) {
  return cmd->add_option("-L", paths, "a folder to search for modules (repeatable)")->allow_extra_args(false)
      ->check(existing_folder());
}
CLI::Option* add_output_file(CLI::App* cmd, std::string& file) {
  return cmd->add_option("-o,--output", file, "write to this file instead of stdout")->check(writable_file());
}
CLI::Option* add_output_folder(CLI::App* cmd, std::string& dir, const std::string& what) {
  return cmd->add_option("-o,--output", dir, what)->check(output_folder());
}
CLI::Option* add_cycles(CLI::App* cmd, std::string& cycles) {
  return cmd->add_option("--cycles", cycles, "N (0..N) or A..B (half-open) for the first input; counts as 10K or 20M")
      ->capture_default_str()->check(cycle_range());
}
CLI::Option* add_sets(CLI::App* cmd, std::vector<std::string>& sets, const std::string& what) {
  return cmd->add_option("--set", sets, "NAME=VALUE " + what + " (repeatable)")->allow_extra_args(false);
}
CLI::Option* add_stall(CLI::App* cmd, double& stall) {
  return cmd->add_option("--stall", stall, "RTL engines: the chance, in [0, 0.95], that in_valid and out_ready are each low on a cycle")
      ->capture_default_str()->check(stall_chance());
}
// --seed has one meaning: every random choice of a differential run, so that the same seed replays it.
CLI::Option* add_seed(CLI::App* cmd, uint64_t& seed, const std::string& what) {
  return cmd->add_option("--seed", seed, "seeds the run's random choices (" + what + "); the same seed replays it")
      ->capture_default_str();
}
CLI::Option* add_quiet(CLI::App* cmd, bool& quiet, const std::string& what = "no progress line on stderr") {
  return cmd->add_flag("-q,--quiet", quiet, what);
}
CLI::Option* add_engine(CLI::App* cmd, std::string& engine) {
  return cmd->add_option("--engine", engine, engine_help(flow::EngineKind::Software))->capture_default_str()
      ->check(CLI::IsMember(flow::engine_names(flow::EngineKind::Software)));
}
CLI::Option* add_engines(CLI::App* cmd, std::vector<std::string>& engines) {
  return cmd->add_option("--engines", engines, "engines, comma-separated")->delimiter(',')->capture_default_str()
      ->check(CLI::IsMember(flow::engine_names()));
}
// The CI reports of the differential commands (difftest/report.h), worded alike on each.
void add_reports(CLI::App* cmd, std::string& junit, std::string& json) {
  cmd->add_option("--junit", junit, "write a JUnit XML report (one test case per kernel and engine)")->check(writable_file());
  cmd->add_option("--json", json, "write a JSON summary")->check(writable_file());
}
CLI::Option* add_partition(CLI::App* cmd, bool& partition) {
  return cmd->add_flag("--partition", partition,
                       "a workload: leave the phase runs hardware cannot take on the host, and say which");
}
CLI::Option* add_workload_assignments(CLI::App* cmd, std::vector<std::string>& assignments) {
  return cmd->add_option("assignments", assignments, "a workload's scenario=NAME and NAME=VALUE params");
}
CLI::Option* add_outputs(CLI::App* cmd, std::vector<std::string>& outputs) {
  return cmd->add_option("--outputs", outputs, "only these outputs, comma-separated, in this order (only their cone is compiled and run)")
      ->delimiter(',');
}

// The kernel and the synthesis options every hardware command takes.
void add_hls_options(CLI::App* cmd, HlsArgs& a, bool takes_workloads) {
  cmd->add_option("file", a.file, takes_workloads ? "the kernel (.gk) or workload (.yaml)" : "the kernel (.gk)")->required();
  cmd->add_option("--target", a.target, "ice40 or generic")->capture_default_str()
      ->check(CLI::IsMember({"ice40", "generic"}));
  cmd->add_option("--clock-ns", a.clock_ns, "the clock period (default: the target's)")->check(clock_period_ns());
  cmd->add_option("--max-mul", a.max_mul, "FSMs: at most N multipliers, shared across states");
  cmd->add_option("--dsp", a.dsp, "at most N DSP blocks (0: multiplies in LUTs; default: the device's count)");
  cmd->add_option("--ii", a.ii, "loop-free kernels: a new input every N cycles, DSP blocks shared across the N slots (default: the smallest N that fits the device)")
      ->check(CLI::Range(1u, hls::kMaxIi));
  cmd->add_flag("--strict", a.strict, "exit 3 when the model predicts the clock is missed (default: a warning)");
  add_lib_paths(cmd, a.lib_paths);
}

}  // namespace

CommandLine::CommandLine() : app("polydat: synthesis flow and simulator for Polydat generator kernels") {
  app.set_version_flag("--version", kVersion);
  app.failure_message(usage_error_text);  // before the subcommands, which copy it
  app.require_subcommand(0, 1);  // one subcommand a line, so that `polydat help eval` takes eval as help's topic

  check_cmd = app.add_subcommand("check", "check kernels and print their signatures");
  check_cmd->add_option("files", check.files, "kernel files (.gk)")->required();
  add_lib_paths(check_cmd, check.lib_paths);

  functions_cmd = app.add_subcommand("functions", "list the function library: signatures, help, hardware");
  functions_cmd->add_option("--format", functions.format, "text or json")->capture_default_str()
      ->check(CLI::IsMember({"text", "json"}));
  functions_cmd->add_option("--example", functions.example, "print a kernel that calls this function");
  functions_cmd->add_option("name", functions.name, "only this function's entry");

  boards_cmd = app.add_subcommand("boards", "list the bundled boards: device, clock, UART and LED pins");
  boards_cmd->add_option("--format", boards.format, "text or json")->capture_default_str()
      ->check(CLI::IsMember({"text", "json"}));
  boards_cmd->add_option("name", boards.name, "only this board (a bundled name or a board file, .yaml): every field");

  eval_cmd = app.add_subcommand("eval", "evaluate a kernel on the interpreter or as native code");
  eval_cmd->add_option("file", eval.file, "the kernel (.gk)")->required();
  add_cycles(eval_cmd, eval.cycles);
  add_sets(eval_cmd, eval.sets, "for another input or an extern");
  eval_cmd->add_option("--format", eval.format, "table, csv, tsv, json, jsonl or bin (the output records of emit-obj's header)")
      ->capture_default_str()->check(CLI::IsMember({"table", "csv", "tsv", "json", "jsonl", "bin"}));
  eval_cmd->add_option("--threads", eval.threads, "threads evaluating (default: the machine's cores); the output is the same")
      ->check(CLI::Range(1u, 1024u));
  eval_cmd->add_option("--shard", eval.shard, "K/N: only the K-th of N slices of the rows; the N outputs joined are one run's");
  add_outputs(eval_cmd, eval.outputs);
  add_output_file(eval_cmd, eval.output);
  add_quiet(eval_cmd, eval.quiet);
  add_engine(eval_cmd, eval.engine);
  add_lib_paths(eval_cmd, eval.lib_paths);

  run_cmd = app.add_subcommand("run", "run a workload's scenario (phases, loops, scopes, shared cells), one line per op");
  run_cmd->add_option("file", run.file, "the workload (.yaml), or nb-rs's workload=FILE");
  run_cmd->add_option("assignments", run.assignments,
                      "nb-rs's parameters: scenario=NAME, cycles=N, format=, tags=, seq=, ..., and NAME=VALUE for params");
  add_sets(run_cmd, run.sets, "as an assignment: a param or one of nb-rs's parameters");
  add_engine(run_cmd, run.engine);
  run_cmd->add_option("--format", run.format,
                      "nb-rs's stdout formats: stmt (the op's text), readout, assignments, json (jsonl), csv, tsv, raw")
      ->capture_default_str();
  add_output_file(run_cmd, run.output);
  add_lib_paths(run_cmd, run.lib_paths);
  run_cmd->add_flag("--explain", run.explain, "print the scope tree: each scope's imports, cells, outputs, each loop variable's class");
  add_quiet(run_cmd, run.quiet, "no progress line and no warnings on stderr");

  ir_cmd = app.add_subcommand("ir", "print a kernel's IR");
  ir_cmd->add_option("file", ir.file, "the kernel (.gk)")->required();
  ir_cmd->add_option("--format", ir.format, "text, mermaid or dot")->capture_default_str()
      ->check(CLI::IsMember({"text", "mermaid", "dot"}));
  ir_cmd->add_flag("--no-opt", ir.no_opt, "show the IR as lowered, before the optimisation passes");
  add_output_file(ir_cmd, ir.output);
  add_lib_paths(ir_cmd, ir.lib_paths);

  hls_cmd = app.add_subcommand("hls", "schedule and bind a kernel for hardware; print the report");
  add_hls_options(hls_cmd, hls, false);
  hls_cmd->add_option("--format", hls.format, "text, json, svg or png (the schedule picture)")->capture_default_str()
      ->check(CLI::IsMember({"text", "json", "svg", "png"}));
  add_output_file(hls_cmd, hls.output);

  emit_cmd = app.add_subcommand("emit-sv", "write the kernel's SystemVerilog and report to a folder");
  add_hls_options(emit_cmd, emit, true);
  add_output_folder(emit_cmd, out_dir, "the output folder (made if missing; its parent must exist)")->required();
  add_partition(emit_cmd, emit.partition);
  add_workload_assignments(emit_cmd, emit_assignments);

  obj_cmd = app.add_subcommand("emit-obj", "write the kernel as an object file and a C header (native code)");
  obj_cmd->add_option("file", obj.file, "the kernel (.gk)")->required();
  add_output_folder(obj_cmd, obj.out_dir, "the output folder (made if missing; its parent must exist)")->required();
  add_lib_paths(obj_cmd, obj.lib_paths);

  bench_cmd = app.add_subcommand("bench", "time the interpreter and native code on a kernel, in one run");
  bench_cmd->add_option("file", bench.file, "the kernel (.gk)")->required();
  add_cycles(bench_cmd, bench.cycles);
  add_sets(bench_cmd, bench.sets, "for another input or an extern");
  add_outputs(bench_cmd, bench.outputs);
  add_lib_paths(bench_cmd, bench.lib_paths);

  cosim_cmd = app.add_subcommand("cosim", "simulate the kernel's SystemVerilog cycle by cycle against the interpreter");
  add_hls_options(cosim_cmd, cosim.hls, true);
  cosim_cmd->add_option("--sim", cosim.sim, engine_help(flow::EngineKind::Rtl))
      ->capture_default_str()->check(CLI::IsMember(flow::engine_names(flow::EngineKind::Rtl)));
  add_cycles(cosim_cmd, cosim.cycles);
  add_sets(cosim_cmd, cosim.sets, "for another input or an extern");
  add_stall(cosim_cmd, cosim.stall);
  add_seed(cosim_cmd, cosim.seed, "the stalls and the random initial register values");
  add_quiet(cosim_cmd, cosim.quiet);
  add_partition(cosim_cmd, cosim.hls.partition);
  add_workload_assignments(cosim_cmd, cosim_assignments);
  cosim_cmd->add_option("--trace", cosim.trace, "write a waveform: FILE.vcd, or FST for any other name")
      ->check(writable_file());
  CLI::Option* cosim_board =
      cosim_cmd->add_option("--board", cosim.board, "simulate the whole board top, decoding its UART (a board or a .yaml)");
  cosim_cmd->add_option("--freq", cosim.freq_mhz, "with --board: run the board top at this clock in MHz, through the PLL")
      ->needs(cosim_board)->check(positive_number());
  add_reports(cosim_cmd, cosim.junit, cosim.json);

  synth_cmd = app.add_subcommand("synth", "Yosys, nextpnr-ice40 and icepack: a bitstream and a report");
  add_hls_options(synth_cmd, synth.hls, true);
  add_partition(synth_cmd, synth.hls.partition);
  add_workload_assignments(synth_cmd, synth_assignments);
  synth_cmd->add_option("--board", synth.board, "a board (bundled name or .yaml): the kernel inside the board top");
  synth_cmd->add_option("--device", synth.device, "without a board: the kernel inside the QoR wrapper (3 pins) on up5k, hx8k, lp8k or hx1k")
      ->check(CLI::IsMember({"up5k", "hx8k", "lp8k", "hx1k"}));
  synth_cmd->add_option("--package", synth.package, "with --device: the package (default: the device's)");
  synth_cmd->add_option("--freq", synth.freq_mhz,
                        "the clock in MHz (--device: default 48; --board: through the PLL, default the oscillator)")
      ->check(positive_number());
  add_output_folder(synth_cmd, synth.out_dir, "the output folder (default: KERNEL-BOARD or KERNEL-DEVICE; its parent must exist)");
  add_sets(synth_cmd, synth.sets, "for an extern or a held input of the board top");
  synth_cmd->add_option("--estimate", synth.estimate, "ecp5 or xilinx: resources through Yosys only")
      ->check(CLI::IsMember({"ecp5", "xilinx"}));
  synth_cmd->add_flag("--close-timing", synth.close_timing, "schedule again with a tighter clock while Fmax misses");
  synth_cmd->add_option("--place-seed", synth.place_seed, "nextpnr's placement seed")->capture_default_str();
  synth_cmd->add_option("--progress", synth.progress_s,
                        "a progress line every N seconds on stderr, terminal or not (default: one line, on a terminal)")
      ->check(positive_number());
  add_quiet(synth_cmd, synth.quiet);
  synth_cmd->add_option("--tool-timeout", synth.tool_timeout_s, "seconds a tool may run before it is killed")
      ->capture_default_str()->check(positive_number());

  flash_cmd = app.add_subcommand("flash", "program an attached board with what `synth --board` wrote");
  flash_cmd->add_option("--board", flash.board, "the board (default: the one the folder's report.json names)");
  flash_cmd->add_option("dir", flash.dir, "the folder `polydat synth` wrote")->required();

  difftest.engines = flow::engine_names();
  difftest_cmd = app.add_subcommand("difftest", "run a kernel on every engine that takes it, against the interpreter");
  difftest_cmd->add_option("file", difftest.file, "the kernel (.gk)")->required();
  add_engines(difftest_cmd, difftest.engines);
  difftest_cmd->add_option("--inputs", difftest.inputs, "random inputs (edges favoured); a count as 10K")
      ->capture_default_str()->transform(count());
  add_seed(difftest_cmd, difftest.seed, "the inputs and the stalls");
  add_stall(difftest_cmd, difftest.stall);
  add_quiet(difftest_cmd, difftest.quiet);
  add_lib_paths(difftest_cmd, difftest.lib_paths);
  add_reports(difftest_cmd, difftest.junit, difftest.json);

  fuzz.engines = {"interp", "llvm"};
  fuzz_cmd = app.add_subcommand("fuzz", "generate random kernels and compare the engines on them; write what disagrees");
  add_engines(fuzz_cmd, fuzz.engines);
  fuzz_cmd->add_option("--count", fuzz.count, "kernels to generate; a count as 10K")->capture_default_str()->transform(count());
  add_seed(fuzz_cmd, fuzz.seed, "kernel i comes from seed + i, and its inputs and stalls from it");
  fuzz_cmd->add_option("--inputs", fuzz.inputs, "random inputs per kernel; a count as 10K")->capture_default_str()
      ->transform(count());
  add_stall(fuzz_cmd, fuzz.stall);
  add_quiet(fuzz_cmd, fuzz.quiet);
  fuzz_cmd->add_flag("--print", fuzz.print, "print the generated kernels instead of running them");
  add_output_folder(fuzz_cmd, fuzz.out_dir, "where findings are written (made if missing; its parent must exist)")
      ->capture_default_str();
  add_reports(fuzz_cmd, fuzz.junit, fuzz.json);

  help_cmd = app.add_subcommand("help", "print a topic: commands, flags, exit-codes, engines, functions, boards, or a subcommand's --help");
  help_cmd->add_option("topic", help_topic, "a topic, or a subcommand (its --help)");
}

}  // namespace polydat::cli
