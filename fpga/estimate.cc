#include "fpga/estimate.h"

#include <fmt/format.h>

#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "fpga/ice40_flow.h"

namespace polydat::fpga {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr uint32_t kTimeoutS = 3600;

struct Family {
  const char* name;
  const char* synth;  // the Yosys command, before -top
  // Cell types by class, as the family's Yosys techmap names them.
  std::vector<std::string> ffs, dsps, brams, carries;
};

// Checked against Yosys 0.23 on a counter, an adder and a multiplier:
// synth_ecp5 writes LUT4, PFUMX/L6MUX21 (muxes, not LUTs), CCU2C,
// TRELLIS_FF, MULT18X18D; synth_xilinx (7-series unless -family) writes
// LUT1..LUT6, INV (a LUT1 on the device), CARRY4, FDRE/FDSE/FDCE/FDPE,
// DSP48E1, and IBUF/OBUF/BUFG for the ports and the clock.
const std::vector<Family>& families() {
  static const std::vector<Family> all = {
      {"ecp5", "synth_ecp5", {"TRELLIS_FF"}, {"MULT18X18D", "ALU54B"}, {"DP16KD", "PDPW16KD"}, {"CCU2C"}},
      {"xilinx",
       "synth_xilinx -flatten -family xc7",
       {"FDRE", "FDSE", "FDCE", "FDPE"},
       {"DSP48E1"},
       {"RAMB18E1", "RAMB36E1"},
       {"CARRY4"}},
  };
  return all;
}

bool is_lut(const std::string& family, const std::string& type) {
  if (family == "xilinx" && type == "INV") return true;
  return type.size() == 4 && type.starts_with("LUT") && type[3] >= '1' && type[3] <= '8';
}

uint64_t count(const std::map<std::string, uint64_t>& cells, const std::vector<std::string>& types) {
  uint64_t n = 0;
  for (const std::string& t : types)
    if (const auto it = cells.find(t); it != cells.end()) n += it->second;
  return n;
}

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$')) return false;
  return true;
}

}  // namespace

ir::Expected<Estimate, std::string> estimate(std::string_view family, const std::string& top, const std::string& sv,
                                             const fs::path& dir_in) {
  const Family* fam = nullptr;
  for (const Family& f : families())
    if (f.name == family) fam = &f;
  if (fam == nullptr) return fmt::format("unknown family \"{}\" (estimates are for ecp5 and xilinx)", family);
  if (!is_identifier(top)) return fmt::format("the top module name \"{}\" is not a plain identifier", top);

  std::error_code ec;
  const fs::path dir = fs::absolute(dir_in, ec);
  if (ec) return fmt::format("{}: {}", dir_in.string(), ec.message());
  fs::create_directories(dir, ec);
  if (ec) return fmt::format("cannot create {}: {}", dir.string(), ec.message());
  fs::remove(dir / "stat.json", ec);

  const std::string script =
      fmt::format("read_verilog -sv {}.sv\n{} -top {}\ntee -q -o stat.json stat -json\n", top, fam->synth, top);
  {
    std::ofstream(dir / (top + ".sv"), std::ios::binary | std::ios::trunc) << sv;
    std::ofstream(dir / "estimate.ys", std::ios::binary | std::ios::trunc) << script;
  }
  const fs::path log = dir / "estimate.log";
  auto status = run_tool({"yosys", "-q", "-s", "estimate.ys"}, dir, log, kTimeoutS);
  if (!status) return status.error();
  auto tail = [&] {
    const std::string t = last_lines(log, 8);
    return t.empty() ? fmt::format("its log {} is empty", log.string())
                     : fmt::format("its log {} ends:\n{}", log.string(), t);
  };
  if (*status != 0) return fmt::format("yosys {} failed (exit status {}); {}", fam->synth, *status, tail());

  std::ifstream in(dir / "stat.json", std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  const json stat = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (!in || stat.is_discarded()) return fmt::format("yosys wrote no readable stat.json; {}", tail());

  Estimate e;
  e.family = fam->name;
  const json* by_type = nullptr;
  if (stat.contains("design") && stat["design"].contains("num_cells_by_type"))
    by_type = &stat["design"]["num_cells_by_type"];
  else if (stat.contains("modules") && stat["modules"].contains("\\" + top))
    by_type = &stat["modules"]["\\" + top]["num_cells_by_type"];
  if (by_type != nullptr && by_type->is_object())
    for (const auto& [type, n] : by_type->items())
      if (n.is_number_unsigned()) e.cells[type] = n.get<uint64_t>();

  for (const auto& [type, n] : e.cells)
    if (is_lut(e.family, type)) e.luts += n;
  e.ffs = count(e.cells, fam->ffs);
  e.dsps = count(e.cells, fam->dsps);
  e.brams = count(e.cells, fam->brams);
  e.carries = count(e.cells, fam->carries);
  return e;
}

std::string render_text(const Estimate& e) {
  std::string out;
  auto row = [&](std::string_view name, uint64_t n) { out += fmt::format("{:<10}{:>6}\n", name, n); };
  out += fmt::format("{:<10}{} (Yosys estimate, no place and route)\n", "family", e.family);
  row("LUTs", e.luts);
  row("FFs", e.ffs);
  row("carry", e.carries);
  row("DSP", e.dsps);
  row("BRAM", e.brams);
  std::string cells;
  for (const auto& [type, n] : e.cells) cells += fmt::format("{}{} {}", cells.empty() ? "" : ", ", type, n);
  out += fmt::format("{:<10}{}\n", "cells", cells.empty() ? "none" : cells);
  return out;
}

}  // namespace polydat::fpga
