// The QoR wrapper: what `polydat synth --device` places and routes around a
// kernel so that any kernel fits any package and its Fmax is register to
// register. Three pins: clk, rst (synchronous, active high, registered) and
// one output. Inside:
//
//   - a 64-bit maximal-length LFSR (XNOR feedback from bits 63, 62, 60, 59,
//     polynomial x^64 + x^63 + x^61 + x^60 + 1), free running from
//     configuration (its power-on zero is a valid XNOR state), drives every
//     in_* bit. It is a shift register: bit i holds the bit it made i cycles
//     ago. When the inputs and externs need more than 64 bits, the register
//     simply continues (bit 64 is bit 63 a cycle later, and so on), so bit j
//     of the inputs, in port order, least significant first, is register bit
//     j: every bit is driven, none is constant, no two are the same signal
//     (repeating or rotating bits would let the XOR fold cancel them);
//   - each cfg_* port comes from a register loaded from the shift register
//     (the bits after the inputs') on every cycle reset is held, and held
//     otherwise, as the interface contract asks of cfg ports;
//   - in_valid = 1 and out_ready = 1;
//   - out_valid and every out_* bit are XOR-folded into one register, the
//     output pin.
//
// The null kernel has the kernel's ports and no registers: each out_* bit is
// the XOR of the in_*/cfg_* bits folded onto it, out_valid = in_valid,
// in_ready = out_ready. The wrapper around it costs what the wrapper costs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hls/design.h"
#include "rtl/emit_sv.h"

namespace polydat::boards {

struct KernelPort {
  std::string name;  // the port's name in the kernel's module (in_x, cfg_seed, out_h)
  unsigned width = 1;
  std::string source;  // what it carries, for comments (the kernel's name for it: x, seed, h)
};

// What the wrapper needs of a kernel module: its name and its data ports.
struct KernelPorts {
  std::string module;
  std::vector<KernelPort> configs, inputs, outputs;
};
KernelPorts kernel_ports(const hls::Design& design, const rtl::Module& module);

inline constexpr const char* kQorClockPort = "clk";
inline constexpr const char* kQorResetPort = "rst";
inline constexpr const char* kQorOutPort = "qor_out";

struct QorWrapper {
  std::string module;  // the top module's name (polydat_qor, unless the kernel has that name)
  std::string sv;      // the top, then the kernel's module (or the null kernel's)
};

// The wrapper around the kernel whose module text is `kernel_sv`.
QorWrapper qor_wrapper(const KernelPorts& kernel, const std::string& kernel_sv);

// The same wrapper around the null kernel of the same port widths.
QorWrapper null_wrapper(const KernelPorts& kernel);

// A key for the wrapper's cost: equal for kernels whose port widths are equal.
std::string port_widths_key(const KernelPorts& kernel);

}  // namespace polydat::boards
