#include <fmt/core.h>

#include <algorithm>
#include <bit>
#include <map>
#include <set>
#include <tuple>

#include "hls/design.h"
#include "hls/dfg_eval.h"
#include "hls/mul_iterative_pass.h"
#include "hls/passes.h"
#include "hls/register_pressure.h"
#include "hls/slot_mux.h"

namespace polydat::hls {

uint64_t Design::latency(uint64_t iterations) const {
  if (kind == DesignKind::Pipeline) return stages;
  return 1 + pre_steps + loop_steps * (iterations + 1) + post_steps;
}

uint64_t Design::initiation_interval(uint64_t iterations) const {
  if (kind == DesignKind::Pipeline) return ii;
  return latency(iterations) + 1;  // back to idle once the result is taken
}

uint64_t Design::register_bits() const {
  uint64_t bits = 0;
  for (const Register& r : registers) bits += r.width;
  if (kind == DesignKind::Fsm) {
    if (dfg.loop)
      for (ValueId s : dfg.loop->state) bits += dfg.nodes[s].width;
    for (const DfgPort& o : dfg.outputs) bits += o.ty.bits();
  }
  return bits;
}

uint32_t Design::carrying_stage(ValueId v, uint32_t at) const {
  const uint32_t from = dfg.is_op(v) ? place[v].step : 0;
  return from + (at - from - 1) / ii * ii;
}

bool Design::is_dsp(ValueId v) const {
  const Node& n = dfg.nodes[v];
  return n.is_op() && n.op == Op::Mul && n.param == 1;
}

bool Design::is_iterative(ValueId v) const {
  const Node& n = dfg.nodes[v];
  if (!n.is_op()) return false;
  return ((n.op == Op::Div || n.op == Op::Mod) && n.param == 1) || (n.op == Op::Mul && n.param == kMulIterative);
}

// Operands latched at the end of the start step, one quotient (multiplier) bit
// per cycle after it, the result readable the step after the last.
uint32_t Design::multi_cycles(ValueId v) const {
  if (!is_iterative(v)) return 0;
  return (dfg.nodes[v].op == Op::Mul ? iterative_steps(dfg, v) : dfg.nodes[v].width) + 1;
}

OpCost Design::cost(ValueId v) const {
  if (is_iterative(v)) {  // an adder or subtractor of the width, its registers, the step counter; no delay in its start step
    const double w = dfg.nodes[v].width;
    if (dfg.nodes[v].op == Op::Mul) return OpCost{UnitClass::Mul, 0, 2 * w + 8, w, 0, 0};
    return OpCost{UnitClass::Div, 0, 4 * w + 8, w + 2, 0, 0};
  }
  const Node& n = dfg.nodes[v];
  if (target == Target::Ice40 && n.op == Op::Not) {
    // The inversion of a sum: the sum's own LUT computes it inverted.
    const auto from = through_wiring(dfg, n.operands[0]);
    if (from.size() == 1 && dfg.is_op(from[0]) && dfg.nodes[from[0]].op == Op::Add) {
      OpCost c{UnitClass::Logic, 0, 0, 0, 0, 0};
      c.merges = true;
      return c;
    }
  }
  return op_cost(target, shape_of(dfg, v, is_dsp(v)));
}

Resources Design::resources() const {
  Resources r;
  for (const FunctionalUnit& u : units) {
    r.luts += u.area;
    if (u.cls == UnitClass::Dsp) r.unpaired_luts += u.area;  // a DSP block's own LUTs are its input multiplexers
    r.carries += u.carries;
    if (u.cls == UnitClass::Dsp) ++r.dsps;
    if (u.ops.empty() || !is_iterative(u.ops[0])) continue;
    const ValueId v = u.ops[0];  // an iterative unit's own registers and step counter
    const double w = dfg.nodes[v].width;
    if (dfg.nodes[v].op != Op::Mul) r.ffs += 4 * w + 8;
    else r.ffs += 2 * w + 8 + (constant_multiplier(dfg, v) ? 0 : w);
  }
  r.ffs += static_cast<double>(register_bits()) + (kind == DesignKind::Pipeline ? stages : states.size());
  if (kind == DesignKind::Pipeline && ii > 1) r.ffs += std::bit_width(ii - 1);  // the slot counter
  return r;
}

std::optional<Capacity> default_capacity(Target t) {
  if (t != Target::Ice40) return std::nullopt;
  return Capacity{"up5k", 5280, 5280, 5280, 8};
}

std::vector<ValueId> Design::reads(ValueId v) const {
  std::vector<ValueId> out;
  for (ValueId o : dfg.nodes[v].operands)
    for (ValueId s : through_wiring(dfg, o)) out.push_back(s);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace {

std::string value_name(const Dfg& g, ValueId v) {
  const Node& n = g.nodes[v];
  std::string name;
  for (char c : n.name) name += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  return "v" + std::to_string(v) + (name.empty() ? "" : "_" + name);
}

class Synthesizer {
 public:
  Synthesizer(Design& d, const HlsOptions& o)
      : d_(d), options_(o), dsp_limit_(pass_options(o, d.kind, d.clock_ns).dsp_limit) {}

  std::optional<HlsError> run() {
    const Dfg& g = d_.dfg;
    d_.live = g.live();
    d_.place.assign(g.nodes.size(), Placement{});
    std::map<Region, std::vector<ValueId>> blocks;
    for (ValueId v = 0; v < g.nodes.size(); ++v)
      if (scheduled(v)) blocks[d_.kind == DesignKind::Pipeline ? Region::Pre : g.nodes[v].region].push_back(v);
    std::map<Region, uint32_t> length;
    for (Region r : {Region::Pre, Region::Loop, Region::Post})
      if (auto err = schedule_block(blocks[r], length[r])) return err;
    // An iterative result read at the end of the block (an output, the loop's
    // next state) needs the state after the unit's last step in the block.
    auto read_at_end = [&](ValueId through) {
      for (ValueId v : through_wiring(g, through))
        if (scheduled(v) && d_.is_iterative(v)) {
          uint32_t& len = length[d_.kind == DesignKind::Pipeline ? Region::Pre : g.nodes[v].region];
          len = std::max(len, d_.place[v].step + d_.multi_cycles(v) + 1);
        }
    };
    for (const DfgPort& o : g.outputs) read_at_end(o.value);
    if (g.loop) {
      for (ValueId v : g.loop->next) read_at_end(v);
      for (ValueId v : g.loop->init) read_at_end(v);  // latched into the state on entering the loop
      read_at_end(g.loop->cond);
    }
    // So is one read by a later block (a value before the loop read in its body or after it).
    if (d_.kind == DesignKind::Fsm)
      for (ValueId u = 0; u < g.nodes.size(); ++u)
        if (scheduled(u))
          for (ValueId o : g.nodes[u].operands)
            for (ValueId v : through_wiring(g, o))
              if (scheduled(v) && d_.is_iterative(v) && g.nodes[v].region != g.nodes[u].region) read_at_end(v);
    if (d_.kind == DesignKind::Pipeline) {
      d_.stages = std::max(1u, length[Region::Pre]);
      bind_units(false, shares_dsps());
      pipeline_registers();
    } else {
      d_.pre_steps = length[Region::Pre];
      d_.loop_steps = g.loop ? std::max(1u, length[Region::Loop]) : 0;
      d_.post_steps = length[Region::Post];
      for (ValueId v : blocks[Region::Pre]) d_.place[v].step = d_.pre_state(d_.place[v].step);
      for (ValueId v : blocks[Region::Loop]) d_.place[v].step = d_.loop_state(d_.place[v].step);
      for (ValueId v : blocks[Region::Post]) d_.place[v].step = d_.post_state(d_.place[v].step);
      bind_units(options_.max_mul.has_value(), shares_dsps());
      controller();
      fsm_registers();
    }
    double latest = 0;
    for (ValueId v = 0; v < g.nodes.size(); ++v)
      if (scheduled(v)) latest = std::max(latest, d_.place[v].finish_ns);
    (void)g;
    d_.critical_path_ns = latest + register_overhead_ns(d_.target) + routing_margin_ns(d_.target);
    return std::nullopt;
  }

 private:
  // Operations with logic: wiring is never scheduled (it is rebuilt wherever it is read).
  bool scheduled(ValueId v) const { return d_.live[v] && d_.dfg.is_logic(v); }

  // A general multiplication (by a variable): what --max-mul limits and shares.
  bool shared_multiplier(ValueId v) const {
    const OpCost c = d_.cost(v);
    return (c.unit == UnitClass::Mul || c.unit == UnitClass::Dsp) && !shape_of(d_.dfg, v, false).constant_rhs;
  }

  // An FSM within a DSP budget shares its blocks across states, a pipeline at an II above 1 across
  // its slots (at II 1 a pipeline needs one per multiplication).
  bool shares_dsps() const { return dsp_limit_ > 0 && (d_.kind == DesignKind::Fsm || d_.ii > 1); }

  static int add_limit(SchedulingProblem& p, uint32_t limit) {
    p.limits.push_back(limit);
    return static_cast<int>(p.limits.size() - 1);
  }

  // One block's operations as a scheduling problem, checked, solved, verified.
  std::optional<HlsError> schedule_block(const std::vector<ValueId>& ops, uint32_t& length) {
    std::map<ValueId, uint32_t> index;
    for (uint32_t i = 0; i < ops.size(); ++i) index[ops[i]] = i;
    SchedulingProblem p;
    p.period_ns = schedule_period_ns(d_.target, d_.clock_ns);
    if (d_.kind == DesignKind::Pipeline) p.ii = d_.ii;
    const bool limit_mul = d_.kind == DesignKind::Fsm && options_.max_mul;
    const int mul_resource = limit_mul ? add_limit(p, *options_.max_mul) : -1;
    // An FSM's DSP blocks serve one multiplication each per state (and --max-mul still caps them).
    const uint32_t dsp_blocks = d_.kind == DesignKind::Fsm ? std::min(dsp_limit_, options_.max_mul.value_or(dsp_limit_)) : dsp_limit_;
    const int dsp_resource = shares_dsps() ? add_limit(p, dsp_blocks) : -1;
    // How many operations read each value: a net feeding many carry chains is slow to route.
    std::map<ValueId, uint32_t> readers;
    for (ValueId v : ops)
      for (ValueId src : d_.reads(v)) ++readers[src];
    for (ValueId v : ops) {
      SchedOp o;
      const OpCost c = d_.cost(v);
      o.delay_ns = c.delay_ns;
      o.chain_ns = c.chain_ns;
      o.out_ns = c.out_ns + fanout_routing_ns(d_.target, readers[v]);
      o.cycles = d_.multi_cycles(v);
      o.merges = c.merges;
      if (dsp_resource >= 0 && d_.is_dsp(v)) o.resource = dsp_resource;
      else if (limit_mul && shared_multiplier(v)) o.resource = mul_resource;
      for (ValueId src : d_.reads(v))
        if (auto it = index.find(src); it != index.end()) o.preds.push_back(it->second);
      p.ops.push_back(std::move(o));
    }
    if (d_.kind == DesignKind::Pipeline) bit_reads(ops, index, p);
    if (auto problems = p.check(); !problems.empty())
      return HlsError{"internal", "the scheduling problem is malformed: " + problems.front(), {}};
    const Schedule s = reduce_registers(p, list_schedule(p));
    if (auto problems = verify(p, s); !problems.empty())
      return HlsError{"internal", "the schedule does not verify: " + problems.front(), {}};
    for (uint32_t i = 0; i < ops.size(); ++i)
      d_.place[ops[i]] = Placement{s.step[i], s.start_ns[i], s.finish(p, i), -1};
    length = s.length;
    return std::nullopt;
  }

  // The bits each operation and each output reads, for register-aware
  // scheduling: pipeline_registers carries exactly these.
  void bit_reads(const std::vector<ValueId>& ops, const std::map<ValueId, uint32_t>& index, SchedulingProblem& p) const {
    const Dfg& g = d_.dfg;
    std::map<ValueId, uint32_t> inputs;  // an input's fixed source index
    auto reads_of = [&](const std::vector<ValueId>& through) {
      std::map<uint32_t, uint64_t> bits;  // source -> bits
      for (ValueId t : through)
        for (const BitSource& b : bit_sources(g, t)) {
          if (b.value == kConstantBit || !registrable(b.value)) continue;
          uint32_t src;
          if (auto it = index.find(b.value); it != index.end()) {
            src = it->second;
          } else {
            src = inputs.emplace(b.value, static_cast<uint32_t>(ops.size() + inputs.size())).first->second;
          }
          bits[src] |= uint64_t{1} << b.bit;
        }
      std::vector<BitRead> out;
      for (const auto& [src, mask] : bits) out.push_back(BitRead{src, mask});
      return out;
    };
    for (uint32_t i = 0; i < ops.size(); ++i) p.ops[i].reads = reads_of(g.nodes[ops[i]].operands);
    std::vector<ValueId> outs;
    for (const DfgPort& o : g.outputs) outs.push_back(o.value);
    p.final_reads = reads_of(outs);
    p.fixed_sources = static_cast<uint32_t>(inputs.size());
  }

  // Units shared across states (an FSM) or slots (a pipeline at an II above 1): each unit
  // serves one multiplication per state or slot.
  struct SharedUnits {
    std::vector<int> units;                  // the pool's units
    std::vector<std::set<uint32_t>> served;  // per pool unit: the states or slots it serves
  };

  // Of the units free in v's slot, the one whose input multiplexers grow least (the first on a
  // tie, so an FSM's k-th multiplication of a state goes to unit k); a new unit if none is free.
  void bind_shared(ValueId v, unsigned w, SharedUnits& pool) {
    const Node& n = d_.dfg.nodes[v];
    const uint32_t slot = d_.slot(d_.place[v].step);
    size_t k = pool.units.size();
    double best = 0;
    for (size_t i = 0; i < pool.units.size(); ++i) {
      if (pool.served[i].count(slot)) continue;
      std::vector<ValueId> ops = d_.units[static_cast<size_t>(pool.units[i])].ops;
      const double before = slot_mux_luts(d_, ops);
      ops.push_back(v);
      const double growth = slot_mux_luts(d_, ops) - before;
      if (k == pool.units.size() || growth < best) k = i, best = growth;
    }
    if (k == pool.units.size()) {
      pool.units.push_back(static_cast<int>(d_.units.size()));
      pool.served.emplace_back();
      d_.units.push_back(FunctionalUnit{d_.cost(v).unit, n.op, 0, 0, 0, {}});
    }
    pool.served[k].insert(slot);
    FunctionalUnit& u = d_.units[static_cast<size_t>(pool.units[k])];
    u.width = std::max(u.width, w);
    OpShape s = shape_of(d_.dfg, v, d_.is_dsp(v));
    s.width = s.operand_width = u.width;
    const OpCost c = op_cost(d_.target, s);
    u.ops.push_back(v);
    u.area = c.area + slot_mux_luts(d_, u.ops);
    u.carries = c.carries;
    d_.place[v].unit = pool.units[k];
  }

  // Every operation that is logic gets a unit; with a multiplier limit, the
  // multiplications of different states share the limited units, and an
  // FSM's DSP multiplications share its DSP blocks.
  void bind_units(bool share_mul, bool share_dsp) {
    const Dfg& g = d_.dfg;
    SharedUnits muls, dsps;
    std::map<std::tuple<Op, ValueId, ValueId, uint32_t>, int> iterative;  // (Mul or Div, operands, step) -> unit
    for (ValueId v = 0; v < g.nodes.size(); ++v) {
      if (!scheduled(v)) continue;
      const OpCost c = d_.cost(v);
      const Node& n = g.nodes[v];
      if (d_.is_iterative(v)) {  // a quotient and a remainder of the same operands, started together: one unit
        const auto key = std::make_tuple(n.op == Op::Mul ? Op::Mul : Op::Div, n.operands[0], n.operands[1], d_.place[v].step);
        auto [it, fresh] = iterative.emplace(key, static_cast<int>(d_.units.size()));
        if (fresh) d_.units.push_back(FunctionalUnit{c.unit, n.op, n.width, c.area, c.carries, {}});
        d_.units[static_cast<size_t>(it->second)].ops.push_back(v);
        d_.place[v].unit = it->second;
        continue;
      }
      const unsigned w = shape_of(g, v, false).operand_width > n.width && n.op != Op::Mul
                             ? shape_of(g, v, false).operand_width
                             : n.width;
      if (share_dsp && d_.is_dsp(v)) {
        bind_shared(v, w, dsps);
        continue;
      }
      if (share_mul && shared_multiplier(v)) {
        bind_shared(v, w, muls);
        continue;
      }
      d_.place[v].unit = static_cast<int>(d_.units.size());
      d_.units.push_back(FunctionalUnit{c.unit, n.op, w, c.area, c.carries, {v}});
    }
  }

  // The register sources each scheduled operation (and each output) reads.
  bool registrable(ValueId v) const { return d_.dfg.nodes[v].kind == NodeKind::Input || scheduled(v); }

  // Each value read after its stage is carried by one register per ii stage
  // boundaries (modulo variable expansion), holding only the bits read after it.
  void pipeline_registers() {
    const Dfg& g = d_.dfg;
    d_.last_use.assign(g.nodes.size(), 0);
    std::map<ValueId, std::map<uint32_t, uint64_t>> read;  // value -> stage -> bits read there
    auto reads_at = [&](ValueId through, uint32_t at) {
      for (const BitSource& s : bit_sources(g, through)) {
        if (s.value == kConstantBit || !registrable(s.value)) continue;
        read[s.value][at] |= uint64_t{1} << s.bit;
        d_.last_use[s.value] = std::max(d_.last_use[s.value], at);
      }
    };
    for (ValueId v = 0; v < g.nodes.size(); ++v)
      if (scheduled(v))
        for (ValueId o : g.nodes[v].operands) reads_at(o, d_.place[v].step);
    for (const DfgPort& out : g.outputs) reads_at(out.value, d_.stages);
    for (const auto& [v, by_stage] : read) {
      const uint32_t from = g.is_op(v) ? d_.place[v].step : 0;
      for (uint32_t k = from; k < d_.last_use[v]; k += d_.ii) {  // a register holds its value for ii stages
        uint64_t later = 0;
        for (const auto& [at, bits] : by_stage)
          if (at > k) later |= bits;
        const uint64_t all = width_mask(g.nodes[v].width);
        d_.registers.push_back(Register{"p" + std::to_string(k) + "_" + value_name(g, v),
                                        static_cast<unsigned>(std::popcount(later)), {v}, {}, k,
                                        later == all ? 0 : later});
      }
    }
  }

  void controller() {
    auto add_state = [&](std::string name, Region block) { d_.states.push_back(FsmState{std::move(name), block}); };
    add_state("IDLE", Region::Pre);
    d_.states.back().idle = true;
    for (uint32_t k = 0; k < d_.pre_steps; ++k) add_state("PRE" + std::to_string(k), Region::Pre);
    for (uint32_t k = 0; k < d_.loop_steps; ++k) add_state("LOOP" + std::to_string(k), Region::Loop);
    for (uint32_t k = 0; k < d_.post_steps; ++k) add_state("POST" + std::to_string(k), Region::Post);
    add_state("DONE", Region::Post);
    d_.states.back().done = true;
    auto go = [&](uint32_t from, uint32_t to, Cond c) { d_.transitions.push_back(FsmTransition{from, to, c}); };
    go(d_.idle_state(), d_.pre_steps ? d_.pre_state(0) : d_.loop_state(0), Cond::InValid);
    for (uint32_t k = 0; k + 1 < d_.pre_steps; ++k) go(d_.pre_state(k), d_.pre_state(k + 1), Cond::Always);
    if (!d_.dfg.loop) {  // loop-free: the last pre state finishes
      go(d_.pre_state(d_.pre_steps - 1), d_.done_state(), Cond::Always);
      go(d_.done_state(), d_.idle_state(), Cond::OutReady);
      return;
    }
    if (d_.pre_steps) go(d_.pre_state(d_.pre_steps - 1), d_.loop_state(0), Cond::Always);
    for (uint32_t k = 0; k + 1 < d_.loop_steps; ++k) go(d_.loop_state(k), d_.loop_state(k + 1), Cond::Always);
    const uint32_t last_loop = d_.loop_state(d_.loop_steps - 1);
    go(last_loop, d_.loop_state(0), Cond::LoopContinue);
    go(last_loop, d_.post_steps ? d_.post_state(0) : d_.done_state(), Cond::LoopDone);
    for (uint32_t k = 0; k + 1 < d_.post_steps; ++k) go(d_.post_state(k), d_.post_state(k + 1), Cond::Always);
    if (d_.post_steps) go(d_.post_state(d_.post_steps - 1), d_.done_state(), Cond::Always);
    go(d_.done_state(), d_.idle_state(), Cond::OutReady);
  }

  // The loop's reads: its initial values at entry, its next state and guard in
  // its last state; a value from before the loop that the loop reads stays
  // until the loop's last state.
  template <class Use>
  void loop_lifetimes(const std::vector<uint32_t>& def, std::vector<uint32_t>& end, const std::vector<bool>& wanted,
                      const Use& use) {
    const Dfg& g = d_.dfg;
    const size_t n = g.nodes.size();
    const uint32_t last_loop = d_.loop_state(d_.loop_steps - 1);
    for (ValueId v : g.loop->init) use(v, d_.entry_state());
    for (ValueId v : g.loop->next) use(v, last_loop);
    use(g.loop->cond, last_loop);
    std::vector<bool> read_by_loop(n, false);
    auto loop_reads = [&](ValueId through) {
      for (ValueId v : through_wiring(g, through)) read_by_loop[v] = true;
    };
    for (ValueId u = 0; u < n; ++u)
      if (scheduled(u) && g.nodes[u].region == Region::Loop)
        for (ValueId o : g.nodes[u].operands) loop_reads(o);
    for (ValueId v : g.loop->next) loop_reads(v);
    loop_reads(g.loop->cond);
    // It must also survive the writes of the loop's last state, which happen
    // every iteration: its lifetime ends one state later, so nothing written
    // inside the loop can share its register.
    (void)def;
    for (ValueId v = 0; v < n; ++v) {
      const bool before_loop = g.nodes[v].kind == NodeKind::Input || g.nodes[v].region == Region::Pre;
      if (wanted[v] && before_loop && read_by_loop[v]) end[v] = std::max(end[v], last_loop + 1);
    }
  }

  // Values read in a later state than the one computing them need a register;
  // lifetimes that do not overlap share one (left-edge, per width).
  void fsm_registers() {
    const Dfg& g = d_.dfg;
    const size_t n = g.nodes.size();
    std::vector<uint32_t> def(n, 0), end(n, 0);
    std::vector<bool> wanted(n, false);
    auto use = [&](ValueId through, uint32_t at) {
      for (ValueId v : through_wiring(g, through)) {
        if (!registrable(v)) continue;
        end[v] = std::max(end[v], at);
        wanted[v] = true;
      }
    };
    for (ValueId v = 0; v < n; ++v) {
      if (!scheduled(v)) continue;
      def[v] = d_.place[v].step;
      for (ValueId o : g.nodes[v].operands) use(o, d_.place[v].step);
    }
    for (const DfgPort& o : g.outputs) use(o.value, d_.finish_state());
    if (g.loop) loop_lifetimes(def, end, wanted, use);
    // An iterative unit holds its results in its own registers.
    for (ValueId v = 0; v < n; ++v)
      if (d_.is_iterative(v)) wanted[v] = false;
    struct Life {
      ValueId v;
      uint32_t from, to;
    };
    std::map<unsigned, std::vector<Life>> by_width;
    for (ValueId v = 0; v < n; ++v)
      if (wanted[v] && end[v] > def[v]) by_width[g.nodes[v].width].push_back(Life{v, def[v], end[v]});
    d_.reg_of.assign(n, -1);
    for (auto& [width, lives] : by_width) {
      std::stable_sort(lives.begin(), lives.end(), [](const Life& a, const Life& b) { return a.from < b.from; });
      std::vector<size_t> mine;  // registers of this width
      for (const Life& l : lives) {
        int chosen = -1;
        for (size_t r : mine)
          if (d_.registers[r].lifetimes.back().second <= l.from) {
            chosen = static_cast<int>(r);
            break;
          }
        if (chosen < 0) {
          chosen = static_cast<int>(d_.registers.size());
          mine.push_back(d_.registers.size());
          d_.registers.push_back(Register{"r" + std::to_string(d_.registers.size()) + "_w" + std::to_string(width), width,
                                          {}, {}, 0});
        }
        Register& r = d_.registers[static_cast<size_t>(chosen)];
        r.values.push_back(l.v);
        r.lifetimes.emplace_back(l.from, l.to);
        d_.reg_of[l.v] = chosen;
      }
    }
  }

  Design& d_;
  const HlsOptions& options_;
  const uint32_t dsp_limit_;  // DSP blocks the design may use
};

// The design of one kind from the built graph; `iterative_mul` makes the wide
// multiplications iterative units (and so the design a loop-free FSM).
ir::Expected<Design, HlsError> design_from(const Dfg& built, DesignKind kind, bool iterative_mul,
                                           const HlsOptions& options, uint32_t ii = 1) {
  Design d;
  d.kind = kind;
  d.ii = kind == DesignKind::Pipeline && !iterative_mul ? ii : 1;
  d.target = options.target;
  d.clock_ns = options.clock_ns.value_or(default_clock_ns(options.target));
  d.capacity = options.capacity ? options.capacity : default_capacity(options.target);
  PassOptions passes = pass_options(options, d.kind, d.clock_ns);
  passes.iterative_mul = iterative_mul;
  passes.ii = d.ii;
  d.dfg = optimize_dfg(built, passes);
  if (auto problems = check_dfg(d.dfg); !problems.empty())
    return HlsError{"internal", "the HLS passes broke the graph: " + problems.front(), {}};
  // An iterative unit cannot take a new input every cycle: the design is a loop-free FSM.
  const auto live = d.dfg.live();
  for (ValueId v = 0; v < d.dfg.nodes.size(); ++v)
    if (live[v] && d.is_iterative(v)) d.kind = DesignKind::Fsm;
  if (auto err = Synthesizer(d, options).run()) return *err;
  return d;
}

// Placement needs room: nextpnr failed on a UP5K design estimated at 98 % of its logic cells.
constexpr double kPlaceableShare = 0.9;

// A design at an II above 1 gets less: its shared blocks' multiplexers congest the routing, and
// the wrapper or board top around it is not counted (measured: 93-97 % of a UP5K after placement
// for designs modelled at 86-93 %, nextpnr minutes instead of seconds).
constexpr double kSharedShare = 0.8;

bool fits(const Resources& r, const Capacity& c, uint32_t ii = 1) {
  return r.cells() <= (ii > 1 ? kSharedShare : kPlaceableShare) * c.luts && r.dsps <= c.dsps;
}

// When no II fits, a longer II must save at least 1 % of the cells to be kept as the smallest.
constexpr double kMinGain = 0.99;

IiTrial trial_of(const Design& d) {
  const Resources r = d.resources();
  return IiTrial{d.ii, r.cells(), r.dsps, d.capacity && fits(r, *d.capacity, d.ii)};
}

// Why the II-1 design is not kept, then what was done instead.
std::string too_large(const Resources& ii1, const Capacity& c, const std::string& instead) {
  return fmt::format("the II-1 pipeline needs about {:.0f} logic cells and {} DSP blocks, more than the {} offers ({:.0f} % of "
                     "{} cells, {} DSPs): {}",
                     ii1.cells(), ii1.dsps, c.device, 100 * kPlaceableShare, c.luts, c.dsps, instead);
}

// Where a diagnostic about the loop points: its first loop-state value's source.
ir::SourceLoc loop_location(const Dfg& g) {
  for (ValueId s : g.loop->state)
    if (g.nodes[s].loc.line) return g.nodes[s].loc;
  return {};
}

ir::SourceLoc iterative_location(const Design& d) {
  for (ValueId v = 0; v < d.dfg.nodes.size(); ++v)
    if (d.live[v] && d.is_iterative(v)) return d.dfg.nodes[v].loc;
  return {};
}

}  // namespace

ir::Expected<Design, HlsError> synthesize(const ir::CategoryIr& ir, ir::FuncId f, const std::vector<bool>& config_fields,
                                          const HlsOptions& options) {
  auto kind = single_loop_fsm(ir, f);
  if (!kind) return kind.error();
  auto dfg = build_dfg(ir, f, config_fields);
  if (!dfg) return dfg.error();
  if (options.ii) {
    if (*options.ii == 0 || *options.ii > kMaxIi)
      return HlsError{"bad-ii", fmt::format("the initiation interval must be 1 to {}, not {}", kMaxIi, *options.ii), {}};
    if (dfg->loop)
      return HlsError{"ii-loop", "an initiation interval applies to a loop-free kernel; this one has a loop (its iterations are not yet pipelined)",
                      loop_location(*dfg)};
    auto d = design_from(*dfg, *kind, false, options, *options.ii);
    if (d && d->kind == DesignKind::Fsm)
      return HlsError{"ii-iterative", fmt::format("no pipeline at II {}: a division by a variable iterates (one quotient bit a cycle)", *options.ii),
                      iterative_location(*d)};
    return d;
  }
  auto d = design_from(*dfg, *kind, false, options);
  if (!d || !d->capacity || dfg->loop || fits(d->resources(), *d->capacity)) return d;
  // Too large for the device: the smallest II whose pipeline fits, sharing DSP blocks across its
  // slots; when none does, the smallest design tried, or the iterative FSM if that is smaller.
  const Resources ii1 = d->resources();
  const Capacity capacity = *d->capacity;
  Design best = std::move(*d);
  std::vector<IiTrial> trials;
  if (best.kind == DesignKind::Pipeline) {
    trials.push_back(trial_of(best));
    for (uint32_t ii = 2; ii <= kMaxIi; ++ii) {
      auto t = design_from(*dfg, *kind, false, options, ii);
      if (!t) return t;
      trials.push_back(trial_of(*t));
      if (trials.back().fits) {
        t->ii_search = trials;
        t->fallback = too_large(ii1, capacity, fmt::format("II {} is the smallest that fits, its DSP blocks shared across the slots", ii));
        return t;
      }
      // No early stop: savings come in steps (a longer II takes a whole multiply onto the DSP
      // blocks), so an II that saves nothing can precede one that fits.
      if (trials.back().cells < kMinGain * best.resources().cells()) best = std::move(*t);
    }
    best.ii_search = trials;
    if (best.ii > 1)
      best.fallback = too_large(ii1, capacity, fmt::format("no II up to {} fits; II {} is the smallest design", trials.back().ii, best.ii));
  }
  // The same kernel with iterative multiplications, if that is smaller. The passes lower
  // everything else as for the II-1 design, so only the multiplications differ.
  auto shared = design_from(*dfg, DesignKind::Pipeline, true, options);
  if (!shared || shared->kind == DesignKind::Pipeline) return best;  // no multiplication to iterate
  // A design that fits beats one that does not; else the smaller.
  const bool shared_fits = shared->capacity && fits(shared->resources(), *shared->capacity);
  if (!shared_fits && shared->resources().cells() >= best.resources().cells()) return best;
  shared->ii_search = trials;
  shared->fallback = too_large(ii1, capacity, "multiplications iterate, one multiplier bit per cycle");
  return shared;
}

}  // namespace polydat::hls
