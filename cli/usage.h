// How `polydat` reads its command line: validators for the options' values
// and the text of a usage error (an `error:` line and a near miss to suggest).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace polydat::cli {

// A clock period in ns: a finite number from 1 (1 GHz) to 1,000,000 (1 kHz).
CLI::Validator clock_period_ns();
// A finite number above zero (MHz, seconds).
CLI::Validator positive_number();
// A path that is not empty.
CLI::Validator non_empty_path();
// A file to write whose folder exists.
CLI::Validator writable_file();
// A folder that exists (-L).
CLI::Validator existing_folder();

// `error: ...` for a parse error, with the option or subcommand the user
// probably meant when an argument is unknown.
std::string usage_error_text(const CLI::App* app, const CLI::Error& e);

}  // namespace polydat::cli
