#include "cli/file_kind.h"

#include <filesystem>
#include <fstream>

#include "text/located.h"

namespace polydat::cli {

namespace fs = std::filesystem;

namespace {

bool is_kernel_file(const std::string& path) { return fs::path(path).extension() == ".gk"; }

}  // namespace

bool is_workload_file(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  return ext == ".yaml" || ext == ".yml";
}

std::optional<std::string> wrong_kind(const std::string& path, FileKind expected) {
  std::string message, kind;
  if (expected == FileKind::Kernel && is_workload_file(path)) {
    message = "this is YAML (a workload, or a board), not a kernel: a workload runs with `polydat run " + path +
              "`; emit-sv, cosim and synth take either";
    kind = "not-a-kernel";
  } else if (expected == FileKind::Workload && is_kernel_file(path)) {
    message = "this is a kernel (GK), not a workload: `polydat eval " + path + "` evaluates it";
    kind = "not-a-workload";
  } else {
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  std::string first;
  if (!in || !std::getline(in, first)) return text::render_located(path, text::Place{}, std::nullopt, "error", message, kind);
  if (!first.empty() && first.back() == '\r') first.pop_back();
  return text::render_located(path, text::Place{1, 1, 1}, first, "error", message, kind);
}

}  // namespace polydat::cli
