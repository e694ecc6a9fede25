// polydat flash: programs a board with what `polydat synth --board` wrote,
// when the board is attached; says so plainly when it is not.
#include <fmt/core.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include "cli/board_flow.h"
#include "cli/commands.h"

namespace polydat::cli {

namespace fs = std::filesystem;

namespace {

std::string first_line(const fs::path& p) {
  std::ifstream in(p);
  std::string s;
  std::getline(in, s);
  return s;
}

// The USB devices present, as "vvvv:pppp", from sysfs ($POLYDAT_SYSFS_USB overrides the folder, for tests).
std::vector<std::string> usb_devices() {
  const char* root = std::getenv("POLYDAT_SYSFS_USB");
  const fs::path dir = root && *root ? root : "/sys/bus/usb/devices";
  std::vector<std::string> ids;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string v = first_line(e.path() / "idVendor"), p = first_line(e.path() / "idProduct");
    if (!v.empty() && !p.empty()) ids.push_back(v + ":" + p);
  }
  return ids;
}

std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

int flash_command(const FlashArgs& args) {
  auto board = load_board(args.board);
  if (!board) return kUserError;
  const fs::path report_file = fs::path(args.dir) / "report.json";
  std::ifstream in(report_file);
  nlohmann::json report = nlohmann::json::parse(in, nullptr, false);
  if (!in || report.is_discarded() || !report.contains("bitstream") || !report["bitstream"].is_string() ||
      report["bitstream"].get<std::string>().empty()) {
    fmt::print(stderr, "error: {} holds no bitstream: run `polydat synth FILE --board {} -o {}` first\n",
               report_file.string(), board->name, args.dir);
    return kUserError;
  }
  if (report.value("board", std::string()) != board->name) {
    fmt::print(stderr, "error: {} was built for board '{}', not '{}'\n", args.dir, report.value("board", std::string("?")),
               board->name);
    return kUserError;
  }
  const fs::path bin = fs::path(args.dir) / report["bitstream"].get<std::string>();
  std::string command = board->program;
  if (const size_t at = command.find("{bin}"); at != std::string::npos) command.replace(at, 5, quoted(bin.string()));
  fmt::print("flash {} onto {} ({})\n  command: {}\n", bin.string(), board->name, board->title, command);
  std::string found;
  for (const std::string& id : usb_devices())
    for (const std::string& want : board->usb_ids)
      if (id == want) found = id;
  if (found.empty()) {
    std::string wanted;
    for (const std::string& id : board->usb_ids) wanted += (wanted.empty() ? "" : ", ") + id;
    fmt::print("  no {} is attached (no USB device {}): nothing was programmed\n", board->title, wanted);
    return kUserError;
  }
  fmt::print("  found USB device {}: programming\n", found);
  std::fflush(stdout);
  const int status = std::system(command.c_str());
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  fmt::print("  {}\n", code == 0 ? "programmed" : fmt::format("the programmer failed (exit status {})", code));
  return code == 0 ? kOk : kUserError;
}

}  // namespace polydat::cli
