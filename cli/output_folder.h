// The folder a command writes into (-o DIR): made when missing, its parent never
// (a mistyped path must not leave a tree of folders behind).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace polydat::cli {

// nullopt when `dir` is a folder now; else "cannot make the folder 'DIR': REASON".
std::optional<std::string> make_output_folder(const std::filesystem::path& dir);

}  // namespace polydat::cli
