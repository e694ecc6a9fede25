// The board files compiled into the binary (boards/*.yaml, written into a C++
// source by tools/embed_files.py --boards). Internal to boards/: users call
// find_board and board_names (boards/board.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace polydat::boards {

// The text of the bundled board file NAME.yaml, if there is one.
std::optional<std::string_view> bundled_board(std::string_view name);

// The bundled boards' names (file stems), sorted.
std::vector<std::string> bundled_board_names();

}  // namespace polydat::boards
