#include "fpga/report.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace polydat::fpga {

namespace {

constexpr int kLabel = 15;  // the label column

std::string label(std::string_view name) { return fmt::format("{:<{}}", name, kLabel); }

// "LUTs              8 / 5280     0.2%", with "  OVER" past the total.
std::string use_row(std::string_view name, uint32_t used, uint32_t total, std::string_view note = {}) {
  std::string row = fmt::format("{}{:>5} / {:<6}", label(name), used, total);
  if (total == 0)
    row += used == 0 ? "     -" : "     -  OVER (the device has none)";
  else
    row += fmt::format("{:>5.1f}%", 100.0 * used / total) + (used > total ? "  OVER" : "");
  if (!note.empty()) row += fmt::format("  {}", note);
  return row + "\n";
}

}  // namespace

std::string render_text(const SynthReport& r) {
  std::string out;
  out += label("top") + r.top + "\n";
  out += label("device") + r.device + (r.package.empty() ? "" : ", package " + r.package) + "\n";
  out += use_row("LUTs", r.luts.used, r.luts.total);
  out += use_row("FFs", r.ffs.used, r.ffs.total);
  out += use_row("carry", r.carries.used, r.carries.total);
  out += use_row("DSP", r.dsps.used, r.dsps.total);
  out += use_row("BRAM", r.brams.used, r.brams.total);
  if (r.logic_cells) out += use_row("logic cells", *r.logic_cells, r.luts.total, "after placement");

  out += label("Fmax");
  if (r.achieved_mhz) {
    out += fmt::format("{:.2f} MHz achieved, {:.2f} MHz requested", *r.achieved_mhz, r.requested_mhz);
    if (r.fits) out += r.meets_timing ? ": meets" : ": MISSES timing";
  } else if (r.logic_cells) {
    out += fmt::format("none: no clock-to-clock path (combinational), {:.2f} MHz requested", r.requested_mhz);
  } else {
    out += fmt::format("not measured (not placed), {:.2f} MHz requested", r.requested_mhz);
  }
  out += "\n";
  if (!r.critical_from.empty() || !r.critical_to.empty())
    out += label("critical path") + r.critical_from + " -> " + r.critical_to + "\n";
  if (!r.fits) out += "does not fit: " + (r.problem.empty() ? std::string("(no reason recorded)") : r.problem) + "\n";
  out += label("bitstream") + (r.bitstream.empty() ? std::string("none") : r.bitstream) + "\n";
  return out;
}

nlohmann::json to_json(const SynthReport& r) {
  // nlohmann::json keeps its keys sorted, so the dump is deterministic.
  auto use = [](const Use& u) { return nlohmann::json{{"used", u.used}, {"total", u.total}}; };
  nlohmann::json j;
  j["top"] = r.top;
  j["device"] = r.device;
  j["package"] = r.package;
  j["luts"] = use(r.luts);
  j["ffs"] = use(r.ffs);
  j["carries"] = use(r.carries);
  j["dsps"] = use(r.dsps);
  j["brams"] = use(r.brams);
  j["logic_cells"] = r.logic_cells ? nlohmann::json(*r.logic_cells) : nlohmann::json(nullptr);
  j["requested_mhz"] = r.requested_mhz;
  j["achieved_mhz"] = r.achieved_mhz ? nlohmann::json(*r.achieved_mhz) : nlohmann::json(nullptr);
  j["fits"] = r.fits;
  j["meets_timing"] = r.meets_timing;
  j["critical_from"] = r.critical_from;
  j["critical_to"] = r.critical_to;
  j["bitstream"] = r.bitstream;
  j["problem"] = r.problem;
  j["exit_status"] = exit_status(r);
  return j;
}

int exit_status(const SynthReport& r) {
  return r.fits && r.meets_timing ? 0 : 3;
}

}  // namespace polydat::fpga
