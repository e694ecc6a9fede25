#include <fmt/core.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "cli/commands.h"
#include "cli/flow.h"
#include "cli/ordered_run.h"
#include "cli/output_folder.h"
#include "cli/schedule_png.h"
#include "hls/report.h"
#include "hls/schedule_svg.h"
#include "rtl/emit_sv.h"

namespace polydat::cli {

int hls_command(const HlsArgs& args) {
  auto options = hls_options(args);
  if (!options) return kUsageError;
  const bool to_stdout = args.output.empty() || args.output == "-";
  // A PNG's bytes on a terminal are noise and can upset it.
  if (args.format == "png" && to_stdout && ::isatty(STDOUT_FILENO)) {
    fmt::print(stderr, "error: a PNG is binary and stdout is a terminal: write it to a file with -o FILE.png\n");
    return kUsageError;
  }
  frontend::CompileResult r;
  auto k = design_for(args, *options, r);
  if (!k) return k.error();
  std::string bytes;
  if (args.format == "json") bytes = hls::report_json(k->design);
  else if (args.format == "svg") bytes = hls::schedule_svg(k->design);
  else if (args.format == "png") {
    if (auto why = svg_to_png(hls::schedule_svg(k->design), bytes)) {
      fmt::print(stderr, "error: cannot render the PNG: {}\n", *why);
      return kUserError;
    }
  } else bytes = hls::report_text(k->design);
  std::optional<OutputFile> out = OutputFile::open(args.output);
  if (!out) return kUserError;
  return out->write(bytes) || out->closed() ? kOk : kUserError;
}

int emit_sv_command(const HlsArgs& args, const std::string& out_dir) {
  auto options = hls_options(args);
  if (!options) return kUsageError;
  frontend::CompileResult r;
  auto k = design_for(args, *options, r);
  if (!k) return k.error();
  const hls::Design* d = &k->design;
  if (auto refused = make_output_folder(out_dir)) {
    fmt::print(stderr, "error: {}\n", *refused);
    return kUserError;
  }
  const std::string& name = k->module.name;
  const std::filesystem::path sv = std::filesystem::path(out_dir) / (name + ".sv");
  const std::filesystem::path report = std::filesystem::path(out_dir) / (name + ".report.txt");
  std::ofstream(sv) << k->module.text;
  std::ofstream(report) << hls::report_text(*d);
  if (!std::filesystem::exists(sv)) {
    fmt::print(stderr, "error: cannot write {}\n", sv.string());
    return kUserError;
  }
  fmt::print("{}\n{}\n", sv.string(), report.string());
  return kOk;
}

}  // namespace polydat::cli
