// The reserved words of SystemVerilog (IEEE 1800-2017, Annex B), which no
// generated identifier may take.
#pragma once

#include <string_view>

namespace polydat::rtl {

bool is_sv_keyword(std::string_view word);

}  // namespace polydat::rtl
