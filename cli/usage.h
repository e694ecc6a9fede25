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
// A folder to write into: a folder now, or a new name in a folder that exists (-o DIR).
CLI::Validator output_folder();
// A count as text::parse_count reads it (10K, 20M, 1_000), rewritten to its digits for the option.
CLI::Validator count();
// --stall: a chance from 0 to 0.95 (past that a run barely moves).
CLI::Validator stall_chance();
// --cycles: N or A..B (half-open), each a count.
CLI::Validator cycle_range();

// `error: ...` for a parse error, with the option or subcommand the user
// probably meant when an argument is unknown.
std::string usage_error_text(const CLI::App* app, const CLI::Error& e);

}  // namespace polydat::cli
