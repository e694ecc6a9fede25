// Internal to sim/: many kernels' Verilated models and testbenches built into
// one program, so the Verilator runtime, the headers (verilated.h, systemc.h)
// and the link are paid once per set rather than once per kernel. The
// program's first argument names the model to run. Test suites and fuzz
// campaigns build sets; an engine made later for one of the members finds it
// by content and runs it (remember_model_set, find_in_model_sets).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hls/design.h"
#include "ir/expected.h"
#include "rtl/emit_sv.h"
#include "sim/engine.h"
#include "sim/build_support.h"
#include "sim/verilator/testbench.h"

namespace polydat::sim {

// The Verilated class of the set's member at `index` (its --prefix).
std::string model_set_class(size_t index);

struct ModelSetMember {
  std::string module;  // the SystemVerilog top module
  std::string sv;
  TestbenchSource testbench;  // written for the class model_set_class(index)
  std::string key;            // what an engine knows the member by (its SystemVerilog and testbench)
};

struct ModelSet {
  std::vector<ModelSetMember> members;
  bool systemc = false;             // verilated with --sc, entry sc_main
  std::vector<std::string> flags;   // for the final build (e.g. -CFLAGS, -LDFLAGS)
};

// Builds the set into `cache_root`/set-HASH/obj/sim (HASH covers every
// member and the flags), or finds it there.
ir::Expected<BuiltModel, std::string> build_model_set(const std::filesystem::path& cache_root, const ModelSet& set);

// How an engine kind makes a member of a design: the key its own engine knows
// the model by, and the testbench for the member's class.
struct MemberRecipe {
  std::function<std::string(const hls::Design& d, const rtl::Module& module)> key;  // module.text: what is simulated
  std::function<TestbenchSource(const hls::Design& d, const std::string& model_class)> testbench;
};

// One member per distinct key among the requests, added to `set` (its kind and
// flags already set), built and remembered. Returns whether it was built now.
ir::Expected<bool, std::string> prebuild_model_set(const std::vector<ModelRequest>& requests,
                                                   const std::filesystem::path& cache_root, ModelSet set,
                                                   const MemberRecipe& recipe);

// Where a member of a built set runs: the program and the member's name.
struct ModelSetRef {
  std::filesystem::path binary;
  std::string member;
};

// A run's scratch file in the model's folder: WHAT-SEED.txt, or for a member
// of a set (members share the folder) WHAT-MEMBER-SEED.txt.
std::string run_file_name(const std::string& what, const std::string& member, uint64_t seed);

// The command line that runs a model: the program, then the member's name when it is one of a set's.
std::vector<std::string> model_command(const std::filesystem::path& binary, const std::string& member);

// Makes the members of a built set findable by their keys for the rest of the process.
void remember_model_set(const std::filesystem::path& binary, const ModelSet& set);
std::optional<ModelSetRef> find_in_model_sets(const std::string& key);

}  // namespace polydat::sim
