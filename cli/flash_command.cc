// polydat flash: programs a board with what `polydat synth --board` wrote,
// when the board is attached; says so plainly when it is not.
#include <fmt/core.h>

#include <cstdlib>
#include <fstream>
#include <optional>
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

// DIR's report.json, or nullopt after saying why DIR is no folder `synth --board` wrote.
std::optional<nlohmann::json> synth_report(const std::string& dir) {
  const fs::path file = fs::path(dir) / "report.json";
  std::error_code ec;
  if (!fs::exists(file, ec)) {
    fmt::print(stderr, "error: {} has no report.json: it is not a folder `polydat synth FILE --board NAME -o {}` wrote\n",
               dir, dir);
    return std::nullopt;
  }
  std::ifstream in(file);
  nlohmann::json report = nlohmann::json::parse(in, nullptr, false);
  if (!in || report.is_discarded() || !report.is_object()) {
    fmt::print(stderr, "error: {} is not a report polydat synth writes (it does not parse as a JSON object)\n", file.string());
    return std::nullopt;
  }
  if (!report.contains("board") || !report["board"].is_string() || report["board"].get<std::string>().empty()) {
    fmt::print(stderr, "error: {} was synthesized for a bare device (--device), not for a board: nothing to flash; "
                       "run `polydat synth FILE --board NAME -o {}`\n", dir, dir);
    return std::nullopt;
  }
  return report;
}

}  // namespace

int flash_command(const FlashArgs& args) {
  const auto report = synth_report(args.dir);
  if (!report) return kUsageError;
  const std::string built_for = (*report)["board"].get<std::string>();
  // Without --board, the board synth used: the bundled one by name, or the board file it recorded.
  const std::string board_arg = !args.board.empty() ? args.board
                                : report->contains("board_file") && (*report)["board_file"].is_string()
                                    ? (*report)["board_file"].get<std::string>()
                                    : built_for;
  auto board = load_board(board_arg);
  if (!board) return board_failure(board_arg);
  if (board->name != built_for) {
    fmt::print(stderr, "error: the bitstream in {} was built for board '{}', not '{}': leave --board out to flash "
                       "the {}, or run synth again with --board {}\n",
               args.dir, built_for, board->name, built_for, board->name);
    return kUsageError;
  }
  if (!report->contains("bitstream") || !(*report)["bitstream"].is_string() ||
      (*report)["bitstream"].get<std::string>().empty()) {
    fmt::print(stderr, "error: {} holds no bitstream (synth did not finish: see {}): run `polydat synth FILE --board {} -o {}` again\n",
               args.dir, (fs::path(args.dir) / "report.txt").string(), board->name, args.dir);
    return kUserError;
  }
  const fs::path bin = fs::path(args.dir) / (*report)["bitstream"].get<std::string>();
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
