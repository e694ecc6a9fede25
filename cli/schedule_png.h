// The schedule picture as PNG: our SVG rendered by rsvg-convert (librsvg2-bin,
// which `make deps` installs), so the PNG shows exactly what the SVG does.
#pragma once

#include <optional>
#include <string>

namespace polydat::cli {

// The PNG's bytes in `png`; or why not ("rsvg-convert is not installed ...", its error).
std::optional<std::string> svg_to_png(const std::string& svg, std::string& png);

}  // namespace polydat::cli
