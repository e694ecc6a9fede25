#include "cli/schedule_png.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

extern char** environ;

namespace polydat::cli {

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A private folder for the conversion's files, removed with them.
class Scratch {
 public:
  Scratch() {
    std::string t = (fs::temp_directory_path() / "polydat-png-XXXXXX").string();
    if (::mkdtemp(t.data())) path_ = t;
  }
  ~Scratch() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

}  // namespace

std::optional<std::string> svg_to_png(const std::string& svg, std::string& png) {
  Scratch dir;
  if (dir.path().empty()) return std::string("cannot make a temporary folder: ") + std::strerror(errno);
  const fs::path in = dir.path() / "schedule.svg", out = dir.path() / "schedule.png", err = dir.path() / "err.txt";
  std::ofstream(in, std::ios::binary) << svg;
  std::vector<std::string> words{"rsvg-convert", "--format", "png", "--output", out.string(), in.string()};
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  // Its messages go to a file: they become ours, not interleaved with the picture.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "rsvg-convert", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned == ENOENT) return std::string("rsvg-convert is not installed (make deps installs librsvg2-bin)");
  if (spawned != 0) return std::string("cannot run rsvg-convert: ") + std::strerror(spawned);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string why = slurp(err);
    while (!why.empty() && (why.back() == '\n' || why.back() == '\r')) why.pop_back();
    return "rsvg-convert failed" + (why.empty() ? std::string() : ": " + why);
  }
  png = slurp(out);
  if (png.empty()) return std::string("rsvg-convert wrote no picture");
  return std::nullopt;
}

}  // namespace polydat::cli
