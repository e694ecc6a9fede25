// What every simulator engine builds with: the verilator flags, the cache of
// built programs and the shell helpers (Verilator, SystemC, Icarus and the hardware top use them).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "ir/expected.h"

namespace polydat::sim {

enum class TraceKind { None, Fst, Vcd };

// What verilator makes of the SystemVerilog: X values random, so reset must define every register.
std::vector<std::string> model_flags();

// The verilator invocation; its flags are part of the cache key.
std::vector<std::string> verilator_flags(TraceKind trace);

// `s` as one single-quoted shell word.
std::string quote(const std::string& s);

// Runs a command line through the shell; its output goes to `log`. Returns the exit status.
int shell(const std::string& command, const std::filesystem::path& log);
// Runs a program (argv[0], found on PATH) without a shell, its output to `log`:
// a model's run pays for no shell start. Returns the exit status (128 when it could not start or was killed).
int run_program(const std::vector<std::string>& argv, const std::filesystem::path& log);

std::string read_text(const std::filesystem::path& p);

// The last `lines` lines of `text`.
std::string tail(const std::string& text, size_t lines);

// A model of `sv` (top `module`) with the C++ `driver`, built by verilator with
// `flags` into `cache_root`/MODULE-HASH/obj/`exe`, where HASH covers the
// sources and the flags; found there again when it exists.
struct ModelBuild {
  std::string module, sv, driver;
  std::string driver_file;  // the driver's name in the folder (tb.cpp)
  std::string exe;          // the binary's name (sim)
  std::vector<std::string> flags;
};
struct BuiltModel {
  std::filesystem::path binary;
  bool built_now = false;  // false when the cache had it
};
ir::Expected<BuiltModel, std::string> build_cached(const std::filesystem::path& cache_root, const ModelBuild& m);

}  // namespace polydat::sim
