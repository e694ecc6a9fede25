#include <fmt/core.h>

#include "rtl/emitter.h"

namespace polydat::rtl {

void Emitter::pipeline_control() {
  const uint32_t last = d_.stages - 1;
  line(fmt::format("  assign stall = valid_{} && !out_ready;", last));
  // At an II above 1 an input enters in slot 0 only: the stages' slots then follow from it.
  line(d_.ii > 1 ? "  assign in_ready = !stall && " + in_slot(0) + ";" : "  assign in_ready = !stall;");
  line(fmt::format("  assign out_valid = valid_{};", last));
  const std::vector<bool> streamed = g_.streamed();
  for (size_t i = 0; i < g_.outputs.size(); ++i) {
    // Constant 1 bits and bits from cfg_* ports pass only while out_valid, so every output is 0
    // after reset; registered bits and constant 0 bits are 0 then already.
    const ValueId v = g_.outputs[i].value;
    const unsigned w = width(v);
    uint64_t zero_at_reset = 0;
    const auto bits = hls::bit_sources(g_, v);
    for (unsigned b = 0; b < bits.size(); ++b) {
      const bool constant = bits[b].value == hls::kConstantBit;
      if (constant ? bits[b].bit == 0 : streamed[bits[b].value]) zero_at_reset |= uint64_t{1} << b;
    }
    std::string value = signal(v, d_.stages);
    if (zero_at_reset != (w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1))
      value = fmt::format("{} & ({} | {{{}{{out_valid}}}})", value, literal(w, zero_at_reset), w);
    line("  assign " + ports_.outputs[i] + " = " + value + ";");
  }
  line("  always_ff @(posedge clk) begin");
  line("    if (rst) begin");
  for (uint32_t k = 0; k < d_.stages; ++k) line(fmt::format("      valid_{} <= 1'b0;", k));
  if (d_.ii > 1) line("      phase <= '0;");
  for (const hls::Register& r : d_.registers) line("      " + r.name + " <= '0;");
  line("    end else if (!stall) begin");
  line(d_.ii > 1 ? "      valid_0 <= in_valid && " + in_slot(0) + ";" : "      valid_0 <= in_valid;");
  for (uint32_t k = 1; k < d_.stages; ++k) line(fmt::format("      valid_{} <= valid_{};", k, k - 1));
  // A register loads in its stage's slot only, and so holds its value for II cycles.
  std::vector<std::vector<const hls::Register*>> by_slot(d_.ii);
  for (const hls::Register& r : d_.registers) by_slot[d_.slot(r.stage)].push_back(&r);
  if (d_.ii == 1) {
    register_loads(by_slot[0], "      ");
  } else {
    line(fmt::format("      phase <= phase == {} ? '0 : phase + 1'b1;", literal(phase_width(), d_.ii - 1)));
    for (uint32_t k = 0; k < d_.ii; ++k) {
      if (by_slot[k].empty()) continue;
      line("      if (" + in_slot(k) + ") begin");
      register_loads(by_slot[k], "        ");
      line("      end");
    }
  }
  line("    end");
  line("  end");
}

void Emitter::register_loads(const std::vector<const hls::Register*>& regs, const std::string& indent) {
  for (const hls::Register* r : regs) line(indent + r->name + " <= " + register_input(*r) + ";");
}

std::vector<std::pair<unsigned, unsigned>> Emitter::runs(uint64_t bits) {
  std::vector<std::pair<unsigned, unsigned>> out;
  for (unsigned i = 0; i < 64; ++i) {
    if (!((bits >> i) & 1)) continue;
    if (!out.empty() && out.back().first + out.back().second == i) ++out.back().second;
    else out.emplace_back(i, 1);
  }
  return out;
}

std::string Emitter::padded(ValueId v, uint32_t at, const hls::Register& r) {
  const std::pair<uint32_t, ValueId> key{at, v};
  auto it = padded_names_.find(key);
  if (it != padded_names_.end()) return it->second;
  const std::string name = fmt::format("{}_at{}", r.name, at);
  padded_names_[key] = name;
  std::vector<std::string> parts;  // most significant first
  unsigned top = width(v), held = r.width;
  const auto rs = runs(r.bits);
  for (size_t i = rs.size(); i-- > 0;) {
    const auto [lo, len] = rs[i];
    if (top > lo + len) parts.push_back(literal(top - lo - len, 0));
    held -= len;
    parts.push_back(r.width == 1 ? r.name : part(r.name, held, len));
    top = lo;
  }
  if (top) parts.push_back(literal(top, 0));
  std::string e = "{";
  for (size_t i = 0; i < parts.size(); ++i) e += (i ? ", " : "") + parts[i];
  wiring_[key] = "  assign " + name + " = " + e + "};";
  wiring_names_[key] = name;
  return name;
}

std::string Emitter::register_input(const hls::Register& r) {
  const std::string x = signal(r.values[0], r.stage);
  if (r.bits == 0) return x;
  const auto rs = runs(r.bits);
  if (rs.size() == 1) return width(r.values[0]) == 1 ? x : part(x, rs[0].first, rs[0].second);
  std::string e = "{";
  for (size_t i = rs.size(); i-- > 0;) e += part(x, rs[i].first, rs[i].second) + (i ? ", " : "");
  return e + "}";
}

}  // namespace polydat::rtl
