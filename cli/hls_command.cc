#include <fmt/core.h>

#include <filesystem>
#include <fstream>

#include "cli/commands.h"
#include "cli/flow.h"
#include "hls/report.h"
#include "hls/schedule_svg.h"
#include "rtl/emit_sv.h"

namespace polydat::cli {

int hls_command(const HlsArgs& args) {
  auto options = hls_options(args);
  if (!options) return kUsageError;
  frontend::CompileResult r;
  auto k = design_for(args, *options, r);
  if (!k) return kUserError;
  if (args.format == "json") fmt::print("{}", hls::report_json(k->design));
  else if (args.format == "svg") fmt::print("{}", hls::schedule_svg(k->design));
  else fmt::print("{}", hls::report_text(k->design));
  return kOk;
}

int emit_sv_command(const HlsArgs& args, const std::string& out_dir) {
  auto options = hls_options(args);
  if (!options) return kUsageError;
  frontend::CompileResult r;
  auto k = design_for(args, *options, r);
  if (!k) return kUserError;
  const hls::Design* d = &k->design;
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
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
