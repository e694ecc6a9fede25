#include "sim/verilator/cpp_names.h"

namespace polydat::sim {

std::string verilator_cpp_name(const std::string& sv_name) {
  std::string out;
  for (size_t i = 0; i < sv_name.size(); ++i) {
    if (sv_name[i] == '_' && i + 1 < sv_name.size() && sv_name[i + 1] == '_') {
      out += "___05F";  // Verilator's encoding: "_" then "__05F" (hex of '_') for the pair
      ++i;
    } else {
      out += sv_name[i];
    }
  }
  return out;
}

rtl::PortNames verilator_cpp_port_names(const hls::Design& design) {
  rtl::PortNames p = rtl::port_names(design);
  for (auto* list : {&p.configs, &p.inputs, &p.outputs})
    for (std::string& n : *list) n = verilator_cpp_name(n);
  return p;
}

}  // namespace polydat::sim
