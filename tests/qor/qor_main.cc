// make qor: regenerates the tables of docs/fpga-qor.md with the real tools.
//   polydat-qor [--timeout S] [--jobs N] [--out DIR] [--write FILE] [--only icebreaker] [--no-boards] [--no-anchors]
// Writes DIR/qor.md (the tables) and, with --write, puts them into FILE
// between its <!-- qor-*:begin --> and <!-- qor-*:end --> markers, the prose around them kept.
#include <fmt/core.h>

#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>

#include "tests/qor/qor_runner.h"
#include "tests/support/process.h"

using namespace polydat;
namespace fs = std::filesystem;

int main(int argc, char** argv) {
  qor::Settings s;
  s.polydat = POLYDAT_EXE;
  s.root = "qor";
  fs::path write;
  bool boards = true, anchors = true, only_icebreaker = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        fmt::print(stderr, "error: {} needs a value\n", a);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--timeout") s.tool_timeout_s = static_cast<uint32_t>(std::stoul(value()));
    else if (a == "--jobs") s.jobs = static_cast<unsigned>(std::stoul(value()));
    else if (a == "--out") s.root = value();
    else if (a == "--write") write = value();
    else if (a == "--only" && value() == "icebreaker") only_icebreaker = true;
    else if (a == "--no-boards") boards = false;
    else if (a == "--no-anchors") anchors = false;
    else {
      fmt::print(stderr,
                 "usage: polydat-qor [--timeout S] [--jobs N] [--out DIR] [--write FILE] [--only icebreaker] "
                 "[--no-boards] [--no-anchors]\n");
      return 2;
    }
  }
  if (s.tool_timeout_s == 0 || s.jobs == 0) {
    fmt::print(stderr, "error: --timeout and --jobs must be at least 1\n");
    return 2;
  }
  s.root = fs::absolute(s.root);
  const fs::path source = POLYDAT_SOURCE_ROOT;
  const auto t0 = std::chrono::steady_clock::now();

  std::string board_md, summary_md, anchor_md;
  size_t kernels = 0;
  if (boards) {
    const auto accepted = qor::accepted_kernels(s, source / "tests" / "corpus");
    kernels = accepted.size();
    const auto jobs = only_icebreaker ? qor::icebreaker_jobs(accepted) : qor::board_jobs(accepted);
    fmt::print(stderr, "{} hardware-accepted corpus kernels, {} runs, {} at a time, {} s a tool at most\n", kernels,
               jobs.size(), s.jobs, s.tool_timeout_s);
    const auto rows = qor::run(jobs, s);
    board_md = qor::board_table(rows, s.tool_timeout_s);
    summary_md = qor::board_summary(rows, s.tool_timeout_s);
  }
  if (anchors) {
    const auto rows = qor::run(qor::anchor_jobs(source / "tests" / "qor" / "kernels"), s);
    anchor_md = qor::anchor_table(rows);
  }
  const double minutes = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / 60;
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::localtime(&now));
  const std::string run_md = fmt::format(
      "Measured on {} by `make qor` ({} s a tool at most, {} run{} at a time; {:.0f} minutes in all){}.\n", date,
      s.tool_timeout_s, s.jobs, s.jobs == 1 ? "" : "s", minutes,
      kernels ? fmt::format(", {} hardware-accepted corpus kernels", kernels) : "");
  if (!anchor_md.empty())
    anchor_md = fmt::format("Measured on {} by `make qor` ({} s a tool at most).\n\n", date, s.tool_timeout_s) + anchor_md;

  std::ofstream(s.root / "qor.md") << run_md << "\n" << summary_md << "\n" << board_md << "\n" << anchor_md;
  fmt::print("{}\n{}\n{}\n{}", run_md, summary_md, board_md, anchor_md);
  if (!write.empty()) {
    std::string doc = testing::read_file(write);
    bool ok = true;
    if (boards) ok = qor::replace_between(doc, "qor-run", run_md) && ok;
    if (boards) ok = qor::replace_between(doc, "qor-summary", summary_md) && ok;
    if (boards) ok = qor::replace_between(doc, "qor-table", board_md) && ok;
    if (anchors) ok = qor::replace_between(doc, "qor-anchors", anchor_md) && ok;
    if (!ok) {
      fmt::print(stderr, "error: {} lacks a <!-- qor-...:begin --> / <!-- qor-...:end --> pair; nothing written\n",
                 write.string());
      return 1;
    }
    std::ofstream(write, std::ios::binary | std::ios::trunc) << doc;
    fmt::print(stderr, "wrote the tables into {}\n", write.string());
  }
  return 0;
}
