#include <fmt/core.h>

#include <filesystem>
#include <fstream>

#include "cli/commands.h"
#include "frontend/compile.h"
#include "hls/report.h"
#include "hls/schedule_svg.h"
#include "ir/pass_pipeline.h"
#include "rtl/emit_sv.h"

namespace polydat::cli {

namespace {
// Compile, optimise, synthesize; diagnostics and refusals printed here.
std::optional<hls::Design> design_for(const std::string& file, const std::vector<std::string>& lib_paths,
                                      const hls::HlsOptions& options, frontend::CompileResult& r) {
  frontend::CompileOptions copts;
  copts.lib_paths = lib_paths;
  r = frontend::compile_file(file, copts);
  fmt::print(stderr, "{}", r.render_diagnostics());
  if (!r.ok()) return std::nullopt;
  auto opt = ir::optimize(*r.ir);
  if (!opt) {
    fmt::print(stderr, "error: internal: the optimiser failed ({})\n", opt.error().message);
    return std::nullopt;
  }
  std::vector<bool> config_fields;
  for (const frontend::Port& p : r.kernel().params) config_fields.push_back(p.is_extern);
  auto d = hls::synthesize(*opt, opt->entry(), config_fields, options);
  if (!d) {
    const ir::SourceLoc& at = d.error().loc;
    if (at.line && at.file < r.program->sources.size())
      fmt::print(stderr, "{}", frontend::render_error_at(r.program->sources, frontend::Span{at.file, at.start, at.end},
                                                         "cannot make hardware: " + d.error().message, d.error().kind));
    else
      fmt::print(stderr, "error: cannot make hardware: {} [{}]\n", d.error().message, d.error().kind);
    return std::nullopt;
  }
  return std::move(*d);
}

std::optional<hls::HlsOptions> options_of(const HlsArgs& args) {
  hls::HlsOptions o;
  if (!hls::parse_target(args.target, o.target)) {
    fmt::print(stderr, "error: --target is ice40 or generic, not '{}'\n", args.target);
    return std::nullopt;
  }
  if (args.clock_ns) {
    if (!(*args.clock_ns > 0)) {
      fmt::print(stderr, "error: --clock-ns must be positive\n");
      return std::nullopt;
    }
    o.clock_ns = *args.clock_ns;
  }
  if (args.max_mul) {
    if (*args.max_mul == 0) {
      fmt::print(stderr, "error: --max-mul must be at least 1\n");
      return std::nullopt;
    }
    o.max_mul = *args.max_mul;
  }
  return o;
}
}  // namespace

int hls_command(const HlsArgs& args) {
  auto options = options_of(args);
  if (!options) return kUsageError;
  frontend::CompileResult r;
  auto d = design_for(args.file, args.lib_paths, *options, r);
  if (!d) return kUserError;
  if (args.format == "json") fmt::print("{}", hls::report_json(*d));
  else if (args.format == "svg") fmt::print("{}", hls::schedule_svg(*d));
  else fmt::print("{}", hls::report_text(*d));
  return kOk;
}

int emit_sv_command(const HlsArgs& args, const std::string& out_dir) {
  auto options = options_of(args);
  if (!options) return kUsageError;
  frontend::CompileResult r;
  auto d = design_for(args.file, args.lib_paths, *options, r);
  if (!d) return kUserError;
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  const std::string name = rtl::module_name(*d);
  const std::filesystem::path sv = std::filesystem::path(out_dir) / (name + ".sv");
  const std::filesystem::path report = std::filesystem::path(out_dir) / (name + ".report.txt");
  std::ofstream(sv) << rtl::emit_sv(*d);
  std::ofstream(report) << hls::report_text(*d);
  if (!std::filesystem::exists(sv)) {
    fmt::print(stderr, "error: cannot write {}\n", sv.string());
    return kUserError;
  }
  fmt::print("{}\n{}\n", sv.string(), report.string());
  return kOk;
}

}  // namespace polydat::cli
