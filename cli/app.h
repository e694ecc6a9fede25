// The `polydat` command line: every subcommand and option, bound to the
// argument structs the commands take. main() parses and dispatches; the flag
// vocabulary test walks the same parser (tests/cli/flag_vocabulary_test.cc).
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "cli/commands.h"

namespace polydat::cli {

struct CommandLine {
  CommandLine();  // declares every subcommand and option on `app`
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  CLI::App app;
  CheckArgs check;
  FunctionsArgs functions;
  BoardsArgs boards;
  std::string help_topic;  // polydat help TOPIC
  EvalArgs eval;
  RunArgs run;
  IrArgs ir;
  HlsArgs hls;
  HlsArgs emit;
  EmitObjArgs obj;
  BenchArgs bench;
  CosimArgs cosim;
  SynthArgs synth;
  FlashArgs flash;
  DifftestArgs difftest;
  FuzzArgs fuzz;
  std::string out_dir;  // emit-sv's folder
  std::vector<std::string> emit_assignments, cosim_assignments, synth_assignments;

  CLI::App* check_cmd = nullptr;
  CLI::App* functions_cmd = nullptr;
  CLI::App* boards_cmd = nullptr;
  CLI::App* help_cmd = nullptr;
  CLI::App* eval_cmd = nullptr;
  CLI::App* run_cmd = nullptr;
  CLI::App* ir_cmd = nullptr;
  CLI::App* hls_cmd = nullptr;
  CLI::App* emit_cmd = nullptr;
  CLI::App* obj_cmd = nullptr;
  CLI::App* bench_cmd = nullptr;
  CLI::App* cosim_cmd = nullptr;
  CLI::App* synth_cmd = nullptr;
  CLI::App* flash_cmd = nullptr;
  CLI::App* difftest_cmd = nullptr;
  CLI::App* fuzz_cmd = nullptr;
};

}  // namespace polydat::cli
