// The C header that goes with an object file from `polydat emit-obj`: the
// input and output records as C structs (with the layout record_layout.h
// computes, checked by static assertions) and the batch function.
#pragma once

#include <string>

#include "sim/llvm/record_layout.h"

namespace polydat::sim {

struct CInterface {
  std::string prefix;  // C identifier the names start with: PREFIX_inputs, PREFIX_outputs, PREFIX_run
  std::string kernel;  // the kernel's name, for the comment
  RecordLayout inputs, outputs;
  bool uses_runtime = false;  // string helpers: link libpolydat_rt
};

// `kernel` as a C identifier.
std::string c_identifier(const std::string& kernel);

std::string c_header(const CInterface& c);

}  // namespace polydat::sim
