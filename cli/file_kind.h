// Kernels (.gk) and workloads (.yaml, .yml) are told apart by their extension: a command given a file of the
// other kind says so, and which command takes it, instead of parsing it as the wrong language.
#pragma once

#include <optional>
#include <string>

namespace polydat::cli {

enum class FileKind { Kernel, Workload };

// Whether the path names a workload (or another YAML file, such as a board).
bool is_workload_file(const std::string& path);

// The located refusal ("PATH:1:1: error: ... [not-a-kernel]", the first line, a caret) when `path` is of the
// other kind than `expected`; nullopt when it is of that kind or of neither (then it is read as asked).
std::optional<std::string> wrong_kind(const std::string& path, FileKind expected);

}  // namespace polydat::cli
