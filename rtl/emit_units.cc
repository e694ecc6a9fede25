#include <fmt/core.h>

#include <algorithm>
#include <bit>

#include "hls/mul_iterative_pass.h"
#include "rtl/emitter.h"

namespace polydat::rtl {

namespace {

// Tables with indexes up to this wide are written as one constant per result
// bit (2^index bits each); wider ones as a case statement.
constexpr unsigned kMaxIndexedTableBits = 10;

}  // namespace

void Emitter::datapath() {
  std::vector<bool> on_shared(g_.nodes.size(), false);
  for (size_t u = 0; u < d_.units.size(); ++u) {
    if (!shared_multiplier(u)) continue;
    for (ValueId v : d_.units[u].ops) on_shared[v] = true;
    shared_multiplier_body(u);
  }
  for (ValueId v = 0; v < g_.nodes.size(); ++v)
    if (scheduled(v) && !d_.is_iterative(v) && !on_shared[v]) line("  assign " + wire(v) + " = " + expression(v) + ";");
  for (size_t u = 0; u < d_.units.size(); ++u) {
    if (d_.units[u].ops.empty() || !d_.is_iterative(d_.units[u].ops[0])) continue;
    if (node(d_.units[u].ops[0]).op == Op::Mul) iterative_multiplier(static_cast<int>(u));
    else iterative_divider(static_cast<int>(u));
  }
}

std::string Emitter::expression(ValueId v) {
  const hls::Node& n = node(v);
  const uint32_t at = d_.place[v].step;
  std::vector<std::string> a;
  for (ValueId o : n.operands) a.push_back(signal(o, at));
  const unsigned w = n.width;
  auto nary = [&](const char* op) {
    std::string e;
    for (size_t i = 0; i < a.size(); ++i) e += (i ? op : "") + a[i];
    return e;
  };
  switch (n.op) {
    case Op::Not: return "~" + a[0];
    case Op::And: return nary(" & ");
    case Op::Or: return nary(" | ");
    case Op::Xor: return nary(" ^ ");
    case Op::Mux: return a[0] + " ? " + a[1] + " : " + a[2];
    case Op::AndReduce: return "&" + a[0];
    case Op::OrReduce: return "|" + a[0];
    case Op::XorReduce: return "^" + a[0];
    case Op::Eq: return a[0] + " == " + a[1];
    case Op::Ne: return a[0] + " != " + a[1];
    case Op::Lt: return compare(a, "<", n.sgn);
    case Op::Gt: return compare(a, ">", n.sgn);
    case Op::Le: return compare(a, "<=", n.sgn);
    case Op::Ge: return compare(a, ">=", n.sgn);
    case Op::Add:  // a carry in is one bit: extended, so the sum's width is the operands'
      if (a.size() == 3) return a[0] + " + " + a[1] + " + " + (w == 1 ? a[2] : fmt::format("{{{}'h0, {}}}", w - 1, a[2]));
      return a[0] + " + " + a[1];
    case Op::Sub: return a[0] + " - " + a[1];
    case Op::Neg: return "-" + a[0];
    case Op::Mul: return a[0] + " * " + a[1];
    case Op::Div: case Op::Mod: return divide(n.op, a, w, n.sgn, constant_divisor(v));
    case Op::Shl: case Op::Shr: return shift(v, a, w, n.sgn);
    case Op::Rotl: case Op::Rotr: return rotate(v, a, w);
    case Op::Popcount: return counter_function(OpKind::Popcount, width(n.operands[0]), w) + "(" + a[0] + ")";
    case Op::Clz: return counter_function(OpKind::Clz, width(n.operands[0]), w) + "(" + a[0] + ")";
    case Op::Ctz: return counter_function(OpKind::Ctz, width(n.operands[0]), w) + "(" + a[0] + ")";
    case Op::Rom: return rom_function(v) + "(" + a[0] + ")";
    default: return "'0";  // wiring is not scheduled
  }
}

std::string Emitter::compare(const std::vector<std::string>& a, const char* op, bool sgn) {
  if (sgn) return "$signed(" + a[0] + ") " + op + " $signed(" + a[1] + ")";
  return a[0] + " " + op + " " + a[1];
}

std::optional<uint64_t> Emitter::constant_divisor(ValueId v) const {
  if (!g_.constant_rhs(v)) return std::nullopt;
  return node(node(v).operands[1]).constant;
}

std::string Emitter::divide(Op op, const std::vector<std::string>& a, unsigned w, bool sgn,
                            std::optional<uint64_t> divisor) {
  const bool div = op == Op::Div;
  const std::string by_zero = div ? "'1" : a[0];
  const uint64_t all_ones = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  const bool may_be_zero = !divisor || *divisor == 0;
  const bool may_be_minus_one = sgn && (!divisor || *divisor == all_ones);
  if (divisor && *divisor == 0) return by_zero;
  const std::string plain = sgn ? fmt::format("{}'($signed({}) {} $signed({}))", w, a[0], div ? "/" : "%", a[1])
                                : "(" + a[0] + (div ? " / " : " % ") + a[1] + ")";
  std::string e = plain;
  if (may_be_minus_one) {
    const uint64_t min = uint64_t{1} << (w - 1);
    e = "(" + a[0] + " == " + literal(w, min) + " && " + a[1] + " == '1) ? " + (div ? a[0] : std::string("'0")) +
        " : " + e;
  }
  if (may_be_zero) e = "(" + a[1] + " == " + literal(w, 0) + ") ? " + by_zero + " : " + e;
  return e;
}

std::string Emitter::shift(ValueId v, const std::vector<std::string>& a, unsigned w, bool sgn) const {
  const hls::Node& n = node(v);
  const bool left = n.op == Op::Shl;
  std::string fill = "'0";
  if (sgn && !left) {  // all sign bits (a literal cannot be indexed)
    const ValueId x = n.operands[0];
    fill = node(x).kind == NodeKind::Constant ? ((node(x).constant >> (w - 1)) & 1 ? "'1" : "'0")
                                               : fmt::format("{{{}{{{}[{}]}}}}", w, a[0], w - 1);
  }
  const unsigned bw = width(n.operands[1]);
  const bool can_reach = bw >= 64 || (uint64_t{1} << bw) - 1 >= w;  // an amount of bw bits can be >= w
  const std::string far = "(" + a[1] + " >= " + literal(bw, w) + ")";
  if (left) return can_reach ? far + " ? '0 : (" + a[0] + " << " + a[1] + ")" : "(" + a[0] + " << " + a[1] + ")";
  if (sgn) {
    const std::string s = fmt::format("{}'($signed({}) >>> {})", w, a[0], a[1]);
    return can_reach ? far + " ? " + fill + " : " + s : s;
  }
  return can_reach ? far + " ? '0 : (" + a[0] + " >> " + a[1] + ")" : "(" + a[0] + " >> " + a[1] + ")";
}

std::string Emitter::rotate(ValueId v, const std::vector<std::string>& a, unsigned w) const {
  const hls::Node& n = node(v);
  const bool left = n.op == Op::Rotl;
  const unsigned m = log2_exact(w);
  const unsigned bw = width(n.operands[1]);
  std::string amt;
  if (m == 0) amt = literal(1, 0);
  else if (bw >= m) amt = fmt::format("{}[{}:0]", a[1], m - 1);
  else amt = a[1];
  // {x, x} shifted by the amount holds the rotation in one half.
  const std::string doubled = fmt::format("{{{}, {}}}", a[0], a[0]);
  if (left) return fmt::format("{}'(({} << {}) >> {})", w, doubled, amt, w);
  return fmt::format("{}'({} >> {})", w, doubled, amt);
}

std::string Emitter::counter_function(OpKind op, unsigned in_w, unsigned out_w) {
  const std::string name = std::string(op == OpKind::Popcount ? "popcount" : op == OpKind::Clz ? "clz" : "ctz") +
                           std::to_string(in_w) + "_" + std::to_string(out_w);
  auto& text = functions_[name];
  if (!text.empty()) return name;
  auto add = [&](const std::string& s) { text += s + "\n"; };
  add(fmt::format("  function automatic logic {}{}(input logic {}x);", range(out_w), name, range(in_w)));
  if (op == OpKind::Popcount) {
    add(fmt::format("    {} = '0;", name));
    add(fmt::format("    for (int i = 0; i < {}; i++) {} = {} + {}'(x[i]);", in_w, name, name, out_w));
  } else if (op == OpKind::Ctz) {  // the lowest set bit wins: scan from the top
    add(fmt::format("    {} = {};", name, literal(out_w, in_w)));
    add(fmt::format("    for (int i = {}; i >= 0; i--) if (x[i]) {} = {}'(i);", in_w - 1, name, out_w));
  } else {  // clz: the highest set bit wins: scan from the bottom
    add(fmt::format("    {} = {};", name, literal(out_w, in_w)));
    add(fmt::format("    for (int i = 0; i < {}; i++) if (x[i]) {} = {} - {}'(i);", in_w, name,
                    literal(out_w, in_w - 1), out_w));
  }
  add("  endfunction");
  return name;
}

std::string Emitter::rom_function(ValueId v) {
  const std::string name = "table_v" + std::to_string(v);
  auto& text = functions_[name];
  if (!text.empty()) return name;
  const unsigned iw = width(node(v).operands[0]), w = width(v);
  auto add = [&](const std::string& s) { text += s + "\n"; };
  add(fmt::format("  function automatic logic {}{}(input logic {}i);", range(w), name, range(iw)));
  const auto& table = node(v).table;
  if (iw <= kMaxIndexedTableBits) {
    // One constant per result bit, shifted by i: logic to Yosys. A case
    // statement becomes a ROM, and memory_dff then moves the register that
    // feeds i through the ROM, onto the path of the stage before.
    const size_t entries = size_t{1} << iw;
    for (unsigned b = 0; b < w; ++b) {
      std::string hex;
      for (size_t nib = (entries + 3) / 4; nib-- > 0;) {
        unsigned digit = 0;
        for (size_t j = 0; j < 4; ++j) {
          const size_t k = 4 * nib + j;
          if (k < table.size() && (table[k] >> b) & 1) digit |= 1u << j;
        }
        hex += "0123456789abcdef"[digit];
      }
      add(fmt::format("    {}{} = 1'({}'h{} >> i);", name, w == 1 ? "" : fmt::format("[{}]", b), entries, hex));
    }
  } else {
    add("    case (i)");
    for (size_t k = 0; k < table.size(); ++k) add(fmt::format("      {}: {} = {};", literal(iw, k), name, literal(w, table[k])));
    add(fmt::format("      default: {} = '0;", name));
    add("    endcase");
  }
  add("  endfunction");
  return name;
}

unsigned Emitter::counter_width(unsigned n) { return std::max(1u, static_cast<unsigned>(std::bit_width(n))); }

void Emitter::iterative_multiplier(int unit) {
  const ValueId v = d_.units[static_cast<size_t>(unit)].ops[0];
  const unsigned w = width(v), steps = hls::iterative_steps(g_, v), cw = counter_width(steps);
  const uint32_t start = d_.place[v].step;
  const std::string p = iterative_name(unit);
  const hls::IterativeOperands o = hls::iterative_operands(g_, v);
  const bool constant = hls::constant_multiplier(g_, v);
  line(fmt::format("  // {}: {}-bit a * b, one multiplier bit per cycle ({} cycles) after state {}", p, w, steps,
                   d_.states[start].name));
  if (constant) {  // _k[c] is the multiplier bit taken when the counter reads c (steps - c); _k[0] unused
    const uint64_t k = node(o.multiplier).constant;
    uint64_t table = 0;  // bits 1 .. steps of _k
    for (unsigned c = 1; c <= steps; ++c) table |= ((k >> (steps - c)) & 1) << (c - 1);
    line(fmt::format("  assign {}_k = {{{}, 1'b0}};", p, literal(steps, table)));
    line(fmt::format("  assign {}_bit = {}_k[{}_count];", p, p, p));
  } else {
    // A one-step multiplier is a scalar: a bit-select of it is not SystemVerilog (Icarus refuses it).
    line(steps == 1 ? fmt::format("  assign {}_bit = {}_y;", p, p) : fmt::format("  assign {}_bit = {}_y[0];", p, p));
  }
  const std::string a = signal(o.multiplicand, start);
  const unsigned wa = width(o.multiplicand);
  line("  always_ff @(posedge clk) begin");
  line("    if (rst) begin");
  for (const char* r : {"_p", "_x", "_count"}) line(fmt::format("      {}{} <= '0;", p, r));
  if (!constant) line(fmt::format("      {}_y <= '0;", p));
  line(fmt::format("    end else if (state == S_{}) begin", d_.states[start].name));
  line(fmt::format("      {}_p <= '0;", p));
  line(fmt::format("      {}_x <= {};", p,
                   wa == w ? a : wa > w ? part(a, 0, w) : fmt::format("{{{}, {}}}", literal(w - wa, 0), a)));
  if (!constant) {
    const std::string b = signal(o.multiplier, start);
    line(fmt::format("      {}_y <= {};", p, width(o.multiplier) == steps ? b : part(b, 0, steps)));
  }
  line(fmt::format("      {}_count <= {};", p, literal(cw, steps)));
  line(fmt::format("    end else if ({}_count != '0) begin", p));
  line(fmt::format("      {}_count <= {}_count - {};", p, p, literal(cw, 1)));
  line(fmt::format("      if ({}_bit) {}_p <= {}_p + {}_x;", p, p, p, p));
  line(w == 1 ? fmt::format("      {}_x <= 1'b0;", p) : fmt::format("      {}_x <= {{{}_x[{}:0], 1'b0}};", p, p, w - 2));
  if (!constant) line(steps == 1 ? fmt::format("      {}_y <= 1'b0;", p) : fmt::format("      {}_y <= {}_y >> 1;", p, p));
  line("    end");
  line("  end");
}

void Emitter::iterative_divider(int unit) {
  const hls::FunctionalUnit& fu = d_.units[static_cast<size_t>(unit)];
  const ValueId v = fu.ops[0];
  const unsigned w = width(v);
  const uint32_t start = d_.place[v].step;
  const std::string p = iterative_name(unit);
  const unsigned cw = log2_exact(w + 1) + 1;
  const std::string a = signal(node(v).operands[0], start), b = signal(node(v).operands[1], start);
  line(fmt::format("  // {}: {}-bit a / b and a % b, one quotient bit per cycle after state {}", p, w,
                   d_.states[start].name));
  line(fmt::format("  assign {}_shift = {{{}_r, {}}};", p, p, w == 1 ? p + "_n" : fmt::format("{}_n[{}]", p, w - 1)));
  line(fmt::format("  assign {}_trial = {{1'b0, {}_shift}} - {{2'b0, {}_d}};", p, p, p));
  line("  always_ff @(posedge clk) begin");
  line("    if (rst) begin");
  for (const char* r : {"_q", "_r", "_n", "_d", "_count"}) line(fmt::format("      {}{} <= '0;", p, r));
  line(fmt::format("    end else if (state == S_{}) begin", d_.states[start].name));
  line(fmt::format("      {}_q <= '0;", p));
  line(fmt::format("      {}_r <= '0;", p));
  line(fmt::format("      {}_n <= {};", p, a));
  line(fmt::format("      {}_d <= {};", p, b));
  line(fmt::format("      {}_count <= {};", p, literal(cw, w)));
  line(fmt::format("    end else if ({}_count != '0) begin", p));
  line(fmt::format("      {}_count <= {}_count - {};", p, p, literal(cw, 1)));
  line(w == 1 ? fmt::format("      {}_n <= 1'b0;", p) : fmt::format("      {}_n <= {{{}_n[{}:0], 1'b0}};", p, p, w - 2));
  const std::string bit = fmt::format("{}_trial[{}]", p, w + 1);
  line(fmt::format("      {}_r <= {} ? {}_shift[{}] : {}_trial[{}];", p, bit, p, range_index(w), p, range_index(w)));
  line(w == 1 ? fmt::format("      {}_q <= !{};", p, bit) : fmt::format("      {}_q <= {{{}_q[{}:0], !{}}};", p, p, w - 2, bit));
  line("    end");
  line("  end");
}

std::string Emitter::range_index(unsigned w) { return w == 1 ? "0" : fmt::format("{}:0", w - 1); }

bool Emitter::shared_multiplier(size_t u) const {
  const hls::FunctionalUnit& fu = d_.units[u];
  return (d_.kind == DesignKind::Fsm || d_.ii > 1) && fu.ops.size() > 1 && node(fu.ops[0]).op == Op::Mul;
}

std::string Emitter::serves(uint32_t step) const {
  if (d_.kind == DesignKind::Pipeline) return in_slot(d_.slot(step));
  return "state == S_" + d_.states[step].name;
}

std::array<unsigned, 3> Emitter::shared_widths(size_t u) const {
  std::array<unsigned, 3> w{1, 1, 1};
  for (ValueId v : d_.units[u].ops) {
    w[0] = std::max(w[0], width(node(v).operands[0]));
    w[1] = std::max(w[1], width(node(v).operands[1]));
    w[2] = std::max(w[2], width(v));
  }
  return w;
}

void Emitter::shared_multiplier_body(size_t u) {
  const hls::FunctionalUnit& fu = d_.units[u];
  const std::string p = shared_name(u);
  const auto w = shared_widths(u);
  auto operand = [&](ValueId v, size_t k) {  // zero-extended to the unit's width
    const ValueId o = node(v).operands[k];
    const std::string x = signal(o, d_.place[v].step);
    return width(o) == w[k] ? x : fmt::format("{{{}, {}}}", literal(w[k] - width(o), 0), x);
  };
  std::string a, b;
  for (size_t i = 0; i < fu.ops.size(); ++i) {
    const ValueId v = fu.ops[i];
    const uint32_t at = d_.place[v].step;
    const std::string x = operand(v, 0), y = operand(v, 1);
    if (i + 1 == fu.ops.size()) {
      a += x;
      b += y;
    } else {
      a += fmt::format("{} ? {} : ", serves(at), x);
      b += fmt::format("{} ? {} : ", serves(at), y);
    }
  }
  line(fmt::format("  assign {}_a = {};", p, a));
  line(fmt::format("  assign {}_b = {};", p, b));
  line(fmt::format("  assign {}_p = {}_a * {}_b;", p, p, p));
  for (ValueId v : fu.ops)
    line(fmt::format("  assign {} = {};", wire(v), width(v) == w[2] ? p + "_p" : part(p + "_p", 0, width(v))));
}

}  // namespace polydat::rtl
