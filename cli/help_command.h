// polydat help [TOPIC]: the command's reference topics, each printed from its one source
// (the parser, the engine registry, the function library, the board files, the guide).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace polydat::cli {

// `app` is the whole parser: `help commands` and `help CMD` read it, so they cannot drift from it.
int help_command(const CLI::App& app, const std::string& topic);

}  // namespace polydat::cli
