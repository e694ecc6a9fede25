#include "cli/output_folder.h"

namespace polydat::cli {

namespace fs = std::filesystem;

std::optional<std::string> make_output_folder(const fs::path& dir) {
  std::error_code ec;
  if (fs::is_directory(dir, ec)) return std::nullopt;
  if (fs::exists(dir, ec)) return "cannot make the folder '" + dir.string() + "': a file of that name is there";
  const fs::path parent = dir.parent_path();
  if (!parent.empty() && !fs::is_directory(parent, ec))
    return "cannot make the folder '" + dir.string() + "': its parent '" + parent.string() + "' is not a folder";
  if (fs::create_directory(dir, ec); ec) return "cannot make the folder '" + dir.string() + "': " + ec.message();
  return std::nullopt;
}

}  // namespace polydat::cli
