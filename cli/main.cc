// The `polydat` command: parse (cli/app.cc declares every option), then run the subcommand named.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <filesystem>
#include <memory>

#include "cli/app.h"
#include "cli/commands.h"
#include "cli/help_command.h"

int main(int argc, char** argv) {
  using namespace polydat::cli;
  const auto line = std::make_unique<CommandLine>();
  CommandLine& c = *line;
  CLI::App& app = c.app;
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
  // A file of the other language is a usage error, said before anything reads it (cli/file_kind.h; run's
  // own check also sees nb-rs's workload=FILE).
  std::vector<const std::string*> kernels = {&c.eval.file, &c.ir.file, &c.hls.file, &c.obj.file, &c.bench.file, &c.difftest.file};
  for (const std::string& f : c.check.files) kernels.push_back(&f);
  for (const std::string* f : kernels)
    if (auto refused = wrong_kind(*f, FileKind::Kernel)) {
      fmt::print(stderr, "{}", *refused);
      return kUsageError;
    }
  if (c.check_cmd->parsed()) return check_command(c.check);
  if (c.functions_cmd->parsed()) return functions_command(c.functions);
  if (c.boards_cmd->parsed()) return boards_command(c.boards);
  if (c.help_cmd->parsed()) return help_command(app, c.help_topic);
  if (c.eval_cmd->parsed()) return eval_command(c.eval);
  if (c.run_cmd->parsed()) {
    c.run.format_given = c.run_cmd->count("--format") > 0;
    return run_command(c.run);
  }
  if (c.ir_cmd->parsed()) return ir_command(c.ir);
  if (c.hls_cmd->parsed()) {
    // `hls -o x.svg` means the picture: without --format, the file's extension names it.
    const std::string ext = std::filesystem::path(c.hls.output).extension().string();
    if (c.hls_cmd->count("--format") == 0 && (ext == ".svg" || ext == ".png" || ext == ".json")) c.hls.format = ext.substr(1);
    return hls_command(c.hls);
  }
  for (const HlsArgs* a : {&c.emit, &c.cosim.hls, &c.synth.hls})
    if (a->partition && !is_workload_file(a->file)) {
      fmt::print(stderr, "error: --partition is for a workload (.yaml); '{}' is a kernel\n", a->file);
      return kUsageError;
    }
  if (c.emit_cmd->parsed() && is_workload_file(c.emit.file)) return workload_emit_sv_command(c.emit, c.emit_assignments, c.out_dir);
  if (c.emit_cmd->parsed()) return emit_sv_command(c.emit, c.out_dir);
  if (c.synth_cmd->parsed() && is_workload_file(c.synth.hls.file)) return workload_synth_command(c.synth, c.synth_assignments);
  if (c.cosim_cmd->parsed() && is_workload_file(c.cosim.hls.file)) {
    // A kernel's stimulus flags have no meaning for a workload: its phases say what runs.
    for (const auto& [flag, instead] : {std::pair<const char*, const char*>{"--cycles", "its phases' cycles: set them with cycles=N or a param"},
                                        {"--set", "set its params with NAME=VALUE"},
                                        {"--trace", "its top is not traced; cosim a kernel of it to see waves"},
                                        {"--junit", "cosim writes no report (its decoded lines are checked as a whole)"},
                                        {"--json", "cosim writes no report (its decoded lines are checked as a whole)"}})
      if (c.cosim_cmd->count(flag) > 0) {
        fmt::print(stderr, "error: {} is for a kernel; for a workload, {} [usage]\n", flag, instead);
        return kUsageError;
      }
    return workload_cosim_command(c.cosim, c.cosim_assignments);
  }
  c.cosim.cycles_given = c.cosim_cmd->count("--cycles") > 0;
  if (c.cosim_cmd->parsed()) return cosim_command(c.cosim);
  if (c.synth_cmd->parsed()) return synth_command(c.synth);
  if (c.flash_cmd->parsed()) return flash_command(c.flash);
  if (c.obj_cmd->parsed()) return emit_obj_command(c.obj);
  if (c.bench_cmd->parsed()) return bench_command(c.bench);
  if (c.difftest_cmd->parsed()) return difftest_command(c.difftest);
  if (c.fuzz_cmd->parsed()) return fuzz_command(c.fuzz);
  // No subcommand: say so, with the list (checked here so that an unknown word is named first).
  fmt::print(stderr, "{}\n", app.help());
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
  std::string list;
  for (size_t i = 0; i < names.size(); ++i) list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  fmt::print(stderr, "error: a subcommand is required: {}\n", list);
  return kUsageError;
}
