// What the RTL engines (Verilator, SystemC, Icarus) share: the design, the module
// the flow emitted for it (the SystemVerilog simulated is that emission unless a
// planted one is given), and what the last build and run left.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "hls/design.h"
#include "rtl/emit_sv.h"
#include "sim/engine.h"

namespace polydat::sim {

class RtlEngine : public Engine {
 public:
  // Builds the simulation (or finds it in the cache): the program that runs it.
  virtual ir::Expected<std::filesystem::path, std::string> prepare() = 0;
  ir::Expected<void, std::string> build() override {
    if (auto p = prepare(); !p) return p.error();
    return {};
  }
  // What the last run printed right after reset (in_ready, out_valid, outputs).
  std::string post_reset() const override { return post_reset_; }
  bool built_now() const override { return built_now_; }  // false when the cache had it
  const std::string& sv() const { return sv_; }

 protected:
  RtlEngine(const hls::Design& design, const rtl::Module& module, const std::optional<std::string>& sv)
      : design_(design), module_(module.name), sv_(sv ? *sv : module.text) {}

  const hls::Design& design_;
  std::string module_, sv_;
  std::string post_reset_;
  bool built_now_ = false;
};

}  // namespace polydat::sim
