#include "hls_support.h"

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "frontend/compile.h"
#include "hls/op_library.h"
#include "ir/pass_pipeline.h"

namespace polydat::hls::testing {

namespace {
constexpr double kEps = 1e-9;

std::string v_text(const Design& d, ValueId v) {
  const Node& n = d.dfg.nodes[v];
  std::string s = "v" + std::to_string(v);
  if (n.kind == NodeKind::Op) s += " (" + node_label(d.dfg, v) + ")";
  if (!n.name.empty()) s += " '" + n.name + "'";
  return s;
}

// The operations the design schedules: live logic (wiring is rebuilt wherever it is read).
bool is_live_op(const Design& d, ValueId v) { return d.dfg.is_logic(v) && d.live.at(v); }

// The state (FSM) or stage (pipeline) whose end writes value v: inputs are
// taken in the idle state (FSM) or enter stage 0 (pipeline).
uint32_t def_step(const Design& d, ValueId v) {
  return d.dfg.nodes[v].kind == NodeKind::Input ? 0 : d.place[v].step;
}

bool registrable(const Design& d, ValueId v) {
  return d.dfg.nodes[v].kind == NodeKind::Input || is_live_op(d, v);
}

// Every read of a registrable value: (value, step reading it).
std::vector<std::pair<ValueId, uint32_t>> fsm_reads(const Design& d) {
  std::vector<std::pair<ValueId, uint32_t>> reads;
  auto read = [&](ValueId through, uint32_t at) {
    for (ValueId v : through_wiring(d.dfg, through))
      if (registrable(d, v)) reads.emplace_back(v, at);
  };
  for (ValueId u : live_ops(d))
    for (ValueId o : d.dfg.nodes[u].operands) read(o, d.place[u].step);
  if (d.dfg.loop) {
    const uint32_t last_loop = d.loop_state(d.loop_steps - 1);
    for (ValueId v : d.dfg.loop->init) read(v, d.entry_state());
    for (ValueId v : d.dfg.loop->next) read(v, last_loop);
    read(d.dfg.loop->cond, last_loop);
  }
  for (const DfgPort& o : d.dfg.outputs) read(o.value, d.finish_state());
  return reads;
}
}  // namespace

std::string join(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

std::vector<std::string> isolated(const std::function<std::vector<std::string>()>& probe) {
  static const std::string kDone = "\x1f" "finished";
  int fds[2];
  if (pipe(fds) != 0) return {"isolated: pipe() failed"};
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return {"isolated: fork() failed"};
  }
  if (pid == 0) {
    close(fds[0]);
    std::string out;
    try {
      for (const std::string& line : probe()) out += line + "\n";
    } catch (const std::exception& e) {
      out += std::string("the probe threw: ") + e.what() + "\n";
    } catch (...) {
      out += "the probe threw\n";
    }
    out += kDone + "\n";
    for (size_t at = 0; at < out.size();) {
      const ssize_t n = write(fds[1], out.data() + at, out.size() - at);
      if (n <= 0) break;
      at += static_cast<size_t>(n);
    }
    close(fds[1]);
    _exit(0);  // no destructors, no flushing of the parent's buffers
  }
  close(fds[1]);
  std::string in;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) in.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  std::vector<std::string> lines;
  bool finished = false;
  for (size_t start = 0; start < in.size();) {
    size_t end = in.find('\n', start);
    if (end == std::string::npos) end = in.size();
    const std::string line = in.substr(start, end - start);
    if (line == kDone) finished = true;
    else lines.push_back(line);
    start = end + 1;
  }
  if (!finished || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    lines.push_back(WIFSIGNALED(status) ? "the probe died of signal " + std::to_string(WTERMSIG(status))
                                        : "the probe did not finish (status " + std::to_string(status) + ")");
  return lines;
}

Kernel compile_kernel(const std::string& text) {
  Kernel k;
  frontend::CompileResult r = frontend::compile_source("kernel.gk", text);
  if (!r.ok()) {
    k.error = r.render_diagnostics();
    return k;
  }
  for (const frontend::Port& p : r.kernel().params) k.config.push_back(p.is_extern);
  auto opt = ir::optimize(*r.ir);
  if (!opt) {
    k.error = "the optimiser failed: " + opt.error().message;
    return k;
  }
  k.raw = std::move(*r.ir);
  k.ir = std::move(*opt);
  return k;
}

HlsOptions opts(Target t, std::optional<double> clock_ns, std::optional<uint32_t> max_mul) {
  HlsOptions o;
  o.target = t;
  o.clock_ns = clock_ns;
  o.max_mul = max_mul;
  return o;
}

ir::Expected<Design, HlsError> synth(const std::string& text, const HlsOptions& options) {
  Kernel k = compile_kernel(text);
  INFO(k.error);
  REQUIRE(k.ok());
  return synthesize(*k.ir, k.ir->entry(), k.config, options);
}

Design must_synth(const std::string& text, const HlsOptions& options) {
  auto d = synth(text, options);
  if (!d) {
    INFO(d.error().kind << ": " << d.error().message << " (line " << d.error().loc.line << ")");
    REQUIRE(d.ok());
  }
  return std::move(*d);
}

std::vector<ValueId> live_ops(const Design& d) {
  std::vector<ValueId> out;
  for (ValueId v = 0; v < d.dfg.nodes.size(); ++v)
    if (is_live_op(d, v)) out.push_back(v);
  return out;
}

unsigned operator_width(const Design& d, ValueId v) {
  const Node& n = d.dfg.nodes[v];
  if (n.op == Op::Mul) return n.width;
  unsigned w = n.width;
  for (size_t i = 0; i < n.operands.size(); ++i)
    if (!(n.op == Op::Mux && i == 0) && !(n.op == Op::Add && i == 2)) w = std::max(w, d.dfg.nodes[n.operands[i]].width);
  return w;
}

namespace {
bool constant_at(const Design& d, ValueId v, size_t i) {
  const Node& n = d.dfg.nodes[v];
  return n.operands.size() > i && d.dfg.nodes[n.operands[i]].kind == NodeKind::Constant;
}
}  // namespace

OpCost library_cost(const Design& d, ValueId v) {
  const Node& n = d.dfg.nodes[v];
  if (d.is_iterative(v)) return d.cost(v);  // an iterative unit: no delay in its start step, by construction
  if (d.target == Target::Ice40 && n.op == Op::Not) {  // an inverted sum: the sum's LUTs produce it inverted
    const std::vector<ValueId> from = through_wiring(d.dfg, n.operands[0]);
    if (from.size() == 1 && d.dfg.nodes[from[0]].kind == NodeKind::Op && d.dfg.nodes[from[0]].op == Op::Add)
      return OpCost{UnitClass::Logic, 0, 0, 0, 0, 0};
  }
  OpShape s;
  s.op = n.op;
  s.width = n.width;
  s.operands = static_cast<unsigned>(n.operands.size());
  s.operand_width = 1;
  for (size_t i = 0; i < n.operands.size(); ++i)
    if (!(n.op == Op::Mux && i == 0) && !(n.op == Op::Add && i == 2))
      s.operand_width = std::max(s.operand_width, d.dfg.nodes[n.operands[i]].width);
  s.constant_rhs = constant_at(d, v, 1) || (n.op == Op::Mul && constant_at(d, v, 0));
  s.dsp = n.op == Op::Mul && n.param == 1;
  return op_cost(d.target, s);
}

bool general_multiplication(const Design& d, ValueId v) {
  return d.dfg.nodes[v].op == Op::Mul && !constant_at(d, v, 0) && !constant_at(d, v, 1);
}

uint32_t general_multiplier_units(const Design& d) {
  uint32_t n = 0;
  for (const FunctionalUnit& u : d.units)
    n += std::any_of(u.ops.begin(), u.ops.end(), [&](ValueId v) { return general_multiplication(d, v); });
  return n;
}

std::vector<std::string> dependence_problems(const Design& d) {
  std::vector<std::string> problems;
  if (d.live.size() != d.dfg.nodes.size() || d.place.size() != d.dfg.nodes.size())
    return {"live or place does not cover every value"};
  for (ValueId v = 0; v < d.dfg.nodes.size(); ++v) {
    const unsigned w = d.dfg.nodes[v].width;
    if (d.live[v] && !(w >= 1 && w <= 64)) problems.push_back(v_text(d, v) + " is live but " + std::to_string(w) + " bits wide");
  }
  for (ValueId v : live_ops(d)) {
    const Placement& pv = d.place[v];
    for (ValueId o : d.reads(v)) {
      if (o >= v) problems.push_back(v_text(d, v) + " reads " + v_text(d, o) + ", which does not come first");
      if (!d.live[o]) problems.push_back(v_text(d, v) + " is live but its operand " + v_text(d, o) + " is not");
      if (!is_live_op(d, o)) continue;
      const Placement& po = d.place[o];
      if (d.multi_cycles(o) > 0) {
        if (pv.step < po.step + d.multi_cycles(o))
          problems.push_back(v_text(d, v) + " in step " + std::to_string(pv.step) + " reads the iterative " + v_text(d, o) +
                             " before its result is ready");
        continue;
      }
      if (po.step > pv.step)
        problems.push_back(v_text(d, v) + " in step " + std::to_string(pv.step) + " reads " + v_text(d, o) +
                           " of the later step " + std::to_string(po.step));
      else if (po.step == pv.step && po.finish_ns > pv.start_ns + kEps)
        problems.push_back(v_text(d, v) + " starts at " + std::to_string(pv.start_ns) + " before its chained operand " +
                           v_text(d, o) + " finishes at " + std::to_string(po.finish_ns));
    }
  }
  return problems;
}

std::vector<std::string> timing_problems(const Design& d) {
  std::vector<std::string> problems;
  double latest = 0;
  std::map<ValueId, std::vector<ValueId>> users;
  const double period = schedule_period_ns(d.target, d.clock_ns);
  for (ValueId u : live_ops(d))
    for (ValueId o : d.reads(u)) users[o].push_back(u);
  for (ValueId v : live_ops(d)) {
    const Placement& p = d.place[v];
    const double delay = library_cost(d, v).delay_ns;
    latest = std::max(latest, p.finish_ns);
    if (p.start_ns < -kEps) problems.push_back(v_text(d, v) + " starts before its step");
    if (std::fabs(p.finish_ns - p.start_ns - delay) > 1e-6)
      problems.push_back(v_text(d, v) + " takes " + std::to_string(p.finish_ns - p.start_ns) + " ns, the library says " +
                         std::to_string(delay));
    if (p.finish_ns <= period + kEps) continue;
    // Past the period: only an operation longer than the period, alone at the start of its step.
    if (!(delay > period)) {
      problems.push_back(v_text(d, v) + " ends at " + std::to_string(p.finish_ns) + " ns, past the " +
                         std::to_string(period) + " ns a step may fill");
      continue;
    }
    if (p.start_ns > kEps) problems.push_back(v_text(d, v) + " is longer than the period but does not start its step");
    for (ValueId o : d.reads(v))
      if (is_live_op(d, o) && d.place[o].step == p.step)
        problems.push_back(v_text(d, v) + " is longer than the period but is chained after " + v_text(d, o));
    for (ValueId u : users[v])
      if (d.place[u].step == p.step)
        problems.push_back(v_text(d, u) + " is chained after " + v_text(d, v) + ", which is longer than the period");
  }
  if (std::fabs(latest + register_overhead_ns(d.target) + routing_margin_ns(d.target) - d.critical_path_ns) > 1e-9)
    problems.push_back("the critical path is " + std::to_string(d.critical_path_ns) + " ns, the latest finish " +
                       std::to_string(latest) + " ns plus the register overhead");
  return problems;
}

namespace {
// A loop-free FSM: it has an iterative unit (that is why it is no pipeline),
// and its states run idle, pre 0 .. pre n-1, done, back to idle.
std::vector<std::string> loop_free_fsm_problems(const Design& d) {
  std::vector<std::string> problems;
  auto expect = [&](bool ok, const std::string& what) {
    if (!ok) problems.push_back(what);
  };
  bool iterative = false;
  for (ValueId v : live_ops(d)) iterative = iterative || d.is_iterative(v);
  expect(iterative, "a loop-free FSM without an iterative unit");
  expect(d.loop_steps == 0 && d.post_steps == 0, "a loop-free FSM with loop or post-loop steps");
  expect(d.pre_steps >= 1, "a loop-free FSM without steps");
  expect(d.states.size() == d.pre_steps + 2, "states: " + std::to_string(d.states.size()) + ", expected " +
                                                  std::to_string(d.pre_steps + 2));
  using T = std::tuple<uint32_t, uint32_t, Cond>;
  std::vector<T> want{{0, 1, Cond::InValid}, {d.pre_steps + 1, 0, Cond::OutReady}};
  for (uint32_t s = 1; s <= d.pre_steps; ++s) want.emplace_back(s, s + 1, Cond::Always);
  std::vector<T> got;
  for (const FsmTransition& t : d.transitions) got.emplace_back(t.from, t.to, t.cond);
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  expect(got == want, "transitions differ from a loop-free FSM's");
  for (uint64_t t : {0ull, 5ull}) {
    expect(d.latency(t) == 1 + d.pre_steps, "latency(" + std::to_string(t) + ")");
    expect(d.initiation_interval(t) == 2 + d.pre_steps, "initiation_interval(" + std::to_string(t) + ")");
  }
  return problems;
}
}  // namespace

std::vector<std::string> shape_problems(const Design& d) {
  std::vector<std::string> problems;
  auto expect = [&](bool ok, const std::string& what) {
    if (!ok) problems.push_back(what);
  };
  if (d.kind == DesignKind::Pipeline) {
    expect(d.stages >= 1, "a pipeline has at least one stage");
    for (ValueId v : live_ops(d))
      expect(d.place[v].step < d.stages, v_text(d, v) + " is in stage " + std::to_string(d.place[v].step) + " of " +
                                             std::to_string(d.stages));
    for (uint64_t t : {0u, 1u, 9u}) {
      expect(d.latency(t) == d.stages, "pipeline latency is not the stage count");
      expect(d.initiation_interval(t) == d.ii && d.ii >= 1, "pipeline initiation interval is not its II");
    }
    expect(d.states.empty() && d.transitions.empty(), "a pipeline has FSM states");
    expect(!d.dfg.loop.has_value(), "a pipeline with a loop");
    return problems;
  }
  const uint32_t pre = d.pre_steps, loop = d.loop_steps, post = d.post_steps;
  if (!d.dfg.loop) return loop_free_fsm_problems(d);
  expect(loop >= 1, "an FSM with no loop state");
  expect(d.states.size() == 1 + pre + loop + post + 1, "states: " + std::to_string(d.states.size()) + ", expected 1 + " +
                                                           std::to_string(pre) + " + " + std::to_string(loop) + " + " +
                                                           std::to_string(post) + " + 1");
  if (d.states.size() != 1 + pre + loop + post + 1) return problems;
  for (uint32_t s = 0; s < d.states.size(); ++s) {
    const FsmState& st = d.states[s];
    const bool idle = s == 0, done = s + 1 == d.states.size();
    expect(st.idle == idle && st.done == done, "state " + std::to_string(s) + " (" + st.name + ") idle/done flags");
    if (idle || done) continue;
    const Region want = s < 1 + pre ? Region::Pre : s < 1 + pre + loop ? Region::Loop : Region::Post;
    expect(st.block == want, "state " + std::to_string(s) + " (" + st.name + ") is in the wrong block");
  }
  expect(d.idle_state() == 0 && d.done_state() == d.states.size() - 1, "idle or done index");
  // Each region's operations in its own states.
  for (ValueId v : live_ops(d)) {
    const uint32_t s = d.place[v].step;
    const Region r = d.dfg.nodes[v].region;
    const uint32_t lo = r == Region::Pre ? 1 : r == Region::Loop ? 1 + pre : 1 + pre + loop;
    const uint32_t n = r == Region::Pre ? pre : r == Region::Loop ? loop : post;
    expect(s >= lo && s < lo + n, v_text(d, v) + " of region " + std::to_string(int(r)) + " is in state " +
                                      std::to_string(s));
  }
  // The controller.
  using T = std::tuple<uint32_t, uint32_t, Cond>;
  std::vector<T> want;
  const uint32_t first_loop = 1 + pre, last_loop = pre + loop, done = 1 + pre + loop + post;
  want.emplace_back(0, 1, Cond::InValid);  // the first pre state, or the first loop state
  for (uint32_t s = 1; s < first_loop; ++s) want.emplace_back(s, s + 1, Cond::Always);
  for (uint32_t s = first_loop; s < last_loop; ++s) want.emplace_back(s, s + 1, Cond::Always);
  want.emplace_back(last_loop, first_loop, Cond::LoopContinue);
  want.emplace_back(last_loop, last_loop + 1, Cond::LoopDone);  // the first post state, or done
  for (uint32_t s = last_loop + 1; s < done; ++s) want.emplace_back(s, s + 1, Cond::Always);
  want.emplace_back(done, 0, Cond::OutReady);
  std::vector<T> got;
  for (const FsmTransition& t : d.transitions) got.emplace_back(t.from, t.to, t.cond);
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  if (got != want) {
    std::string s = "transitions differ from the expected controller; got:";
    for (const auto& [a, b, c] : got) s += " " + std::to_string(a) + "->" + std::to_string(b) + "/" + std::to_string(int(c));
    problems.push_back(s);
  }
  for (uint64_t t : {0ull, 1ull, 2ull, 10ull, 1000ull}) {
    const uint64_t want_latency = 1 + pre + loop * (t + 1) + post;
    expect(d.latency(t) == want_latency, "latency(" + std::to_string(t) + ") = " + std::to_string(d.latency(t)) +
                                             ", expected " + std::to_string(want_latency));
    expect(d.initiation_interval(t) == want_latency + 1, "initiation_interval(" + std::to_string(t) + ")");
  }
  return problems;
}

std::vector<std::string> unit_problems(const Design& d, std::optional<uint32_t> max_mul) {
  std::vector<std::string> problems;
  const bool sharing = max_mul && d.kind == DesignKind::Fsm;
  for (ValueId v : live_ops(d)) {
    const OpCost c = library_cost(d, v);
    const int u = d.place[v].unit;
    if (c.unit == UnitClass::Wire) {
      if (u != -1) problems.push_back(v_text(d, v) + " is wiring but has unit " + std::to_string(u));
      continue;
    }
    if (u < 0 || static_cast<size_t>(u) >= d.units.size()) {
      problems.push_back(v_text(d, v) + " has no functional unit");
      continue;
    }
    const FunctionalUnit& fu = d.units[static_cast<size_t>(u)];
    if (fu.cls != c.unit) problems.push_back(v_text(d, v) + " is on a unit of another class");
    if (fu.width < operator_width(d, v)) problems.push_back(v_text(d, v) + " is on a unit narrower than it");
    if (std::find(fu.ops.begin(), fu.ops.end(), v) == fu.ops.end())
      problems.push_back(v_text(d, v) + " names unit " + std::to_string(u) + ", which does not list it");
  }
  for (size_t u = 0; u < d.units.size(); ++u) {
    const FunctionalUnit& fu = d.units[u];
    // One iterative divider gives the quotient and the remainder of the same
    // operands started in the same step: that pair is one use of one unit.
    bool divmod_pair = false;
    if (fu.ops.size() == 2 && d.is_iterative(fu.ops[0]) && d.is_iterative(fu.ops[1])) {
      const Node& a = d.dfg.nodes[fu.ops[0]];
      const Node& b = d.dfg.nodes[fu.ops[1]];
      divmod_pair = ((a.op == Op::Div && b.op == Op::Mod) || (a.op == Op::Mod && b.op == Op::Div)) &&
                    a.operands == b.operands && d.place[fu.ops[0]].step == d.place[fu.ops[1]].step;
    }
    const bool general = std::any_of(fu.ops.begin(), fu.ops.end(), [&](ValueId v) { return general_multiplication(d, v); });
    const bool by_constant = std::any_of(fu.ops.begin(), fu.ops.end(), [&](ValueId v) { return !general_multiplication(d, v); });
    // An FSM shares its DSP blocks across states: the device has only so many,
    // and a DSP multiplies a constant operand as well as a variable one.
    const bool on_dsp = std::all_of(fu.ops.begin(), fu.ops.end(), [&](ValueId v) { return d.is_dsp(v); });
    // So does a pipeline at an II above 1, across its slots.
    const bool shared_dsp = (d.kind == DesignKind::Fsm || d.ii > 1) && on_dsp;
    if (general && by_constant && !shared_dsp)
      problems.push_back("unit " + std::to_string(u) + " mixes general and constant multiplications");
    if (by_constant && fu.ops.size() > 1 && !divmod_pair && !shared_dsp)
      problems.push_back("unit " + std::to_string(u) + " shares an operation that is not a general multiplication");
    if (fu.ops.empty()) problems.push_back("unit " + std::to_string(u) + " has no operation");
    const bool may_share = (d.kind == DesignKind::Fsm && (max_mul || on_dsp)) || shared_dsp;
    if (!fu.ops.empty() && !may_share && fu.ops.size() > 1 && !divmod_pair)
      problems.push_back("unit " + std::to_string(u) + " is shared without a limit");
    std::set<uint32_t> steps;
    for (ValueId v : fu.ops) {
      if (!is_live_op(d, v) || d.place[v].unit != static_cast<int>(u))
        problems.push_back("unit " + std::to_string(u) + " lists " + v_text(d, v) + ", which is not bound to it");
      // A pipeline at II n runs stages k, k + n, ... at once: one use per slot (stage mod n).
      const uint32_t slot = d.kind == DesignKind::Pipeline ? d.place[v].step % d.ii : d.place[v].step;
      if (!steps.insert(slot).second && !divmod_pair)
        problems.push_back("unit " + std::to_string(u) + " is used twice in " +
                           (d.kind == DesignKind::Pipeline && d.ii > 1 ? "slot " : "step ") + std::to_string(slot));
    }
  }
  if (sharing) {
    std::map<uint32_t, uint32_t> per_step;
    for (ValueId v : live_ops(d))
      if (general_multiplication(d, v)) ++per_step[d.place[v].step];
    for (const auto& [step, n] : per_step)
      if (n > *max_mul)
        problems.push_back(std::to_string(n) + " multiplications in state " + std::to_string(step) + ", the limit is " +
                           std::to_string(*max_mul));
    if (general_multiplier_units(d) > *max_mul)
      problems.push_back(std::to_string(general_multiplier_units(d)) + " multiplier units, the limit is " +
                         std::to_string(*max_mul));
  }
  return problems;
}

namespace {
std::vector<std::string> pipeline_register_problems(const Design& d) {
  std::vector<std::string> problems;
  const Dfg& g = d.dfg;
  // The last stage reading each value (the stage count for an output).
  std::vector<int64_t> last(g.nodes.size(), -1);
  for (ValueId u : live_ops(d))
    for (ValueId o : d.reads(u)) last[o] = std::max<int64_t>(last[o], d.place[u].step);
  for (const DfgPort& o : g.outputs)
    for (ValueId s : through_wiring(g, o.value)) last[s] = d.stages;
  std::vector<std::pair<ValueId, uint32_t>> want, got;
  for (ValueId v = 0; v < g.nodes.size(); ++v) {
    if (!registrable(d, v)) continue;
    // At II n a register holds its value n stages: one every n boundaries.
    for (int64_t k = def_step(d, v); k < last[v]; k += d.ii) want.emplace_back(v, static_cast<uint32_t>(k));
  }
  for (const Register& r : d.registers) {
    if (r.values.size() != 1) {
      problems.push_back("pipeline register " + r.name + " holds " + std::to_string(r.values.size()) + " values");
      continue;
    }
    const uint64_t held = r.bits ? r.bits : ~uint64_t{0} >> (64 - g.nodes[r.values[0]].width);
    if (r.width != static_cast<unsigned>(std::popcount(held)) || (held & ~(~uint64_t{0} >> (64 - g.nodes[r.values[0]].width))))
      problems.push_back("pipeline register " + r.name + " has the wrong width");
    // Every bit a later stage reads is held.
    for (ValueId u : live_ops(d))
      if (d.place[u].step > r.stage)
        for (ValueId o : d.dfg.nodes[u].operands)
          for (const BitSource& b : bit_sources(g, o))
            if (b.value == r.values[0] && !((held >> b.bit) & 1))
              problems.push_back("pipeline register " + r.name + " does not hold bit " + std::to_string(b.bit) +
                                 ", which stage " + std::to_string(d.place[u].step) + " reads");
    if (r.stage >= d.stages) problems.push_back("pipeline register " + r.name + " ends a stage past the last");
    got.emplace_back(r.values[0], r.stage);
  }
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  std::vector<std::pair<ValueId, uint32_t>> missing, extra;
  std::set_difference(want.begin(), want.end(), got.begin(), got.end(), std::back_inserter(missing));
  std::set_difference(got.begin(), got.end(), want.begin(), want.end(), std::back_inserter(extra));
  for (const auto& [v, k] : missing)
    problems.push_back(v_text(d, v) + " crosses the end of stage " + std::to_string(k) + " without a register");
  for (const auto& [v, k] : extra)
    problems.push_back("a register for " + v_text(d, v) + " at the end of stage " + std::to_string(k) +
                       ", which it does not cross (or a duplicate)");
  return problems;
}

std::vector<std::string> fsm_register_problems(const Design& d) {
  std::vector<std::string> problems;
  const Dfg& g = d.dfg;
  if (d.reg_of.size() != g.nodes.size()) return {"reg_of does not cover every value"};
  // Each register's values and lifetimes.
  for (size_t r = 0; r < d.registers.size(); ++r) {
    const Register& reg = d.registers[r];
    if (reg.values.size() != reg.lifetimes.size() || reg.values.empty()) {
      problems.push_back("register " + reg.name + " has " + std::to_string(reg.values.size()) + " values and " +
                         std::to_string(reg.lifetimes.size()) + " lifetimes");
      continue;
    }
    for (size_t i = 0; i < reg.values.size(); ++i) {
      const ValueId v = reg.values[i];
      if (!registrable(d, v)) problems.push_back("register " + reg.name + " holds " + v_text(d, v));
      if (g.nodes[v].width != reg.width) problems.push_back("register " + reg.name + " is not as wide as " + v_text(d, v));
      if (d.reg_of[v] != static_cast<int>(r)) problems.push_back(v_text(d, v) + " is in register " + reg.name + " but reg_of says otherwise");
      if (reg.lifetimes[i].first != def_step(d, v))
        problems.push_back(v_text(d, v) + "'s lifetime in " + reg.name + " does not start where it is written");
      if (reg.lifetimes[i].second <= reg.lifetimes[i].first)
        problems.push_back(v_text(d, v) + " has an empty lifetime in " + reg.name);
      for (size_t j = 0; j < i; ++j) {
        const auto [a1, b1] = reg.lifetimes[j];
        const auto [a2, b2] = reg.lifetimes[i];
        if (!(b1 <= a2 || b2 <= a1))
          problems.push_back(reg.name + " holds " + v_text(d, reg.values[j]) + " [" + std::to_string(a1) + ", " +
                             std::to_string(b1) + "] and " + v_text(d, v) + " [" + std::to_string(a2) + ", " +
                             std::to_string(b2) + "], which overlap");
      }
    }
  }
  for (ValueId v = 0; v < g.nodes.size(); ++v) {
    const int r = d.reg_of[v];
    if (r < -1 || r >= static_cast<int>(d.registers.size())) problems.push_back(v_text(d, v) + " has a bad reg_of");
    else if (r >= 0) {
      const auto& vals = d.registers[static_cast<size_t>(r)].values;
      if (std::find(vals.begin(), vals.end(), v) == vals.end())
        problems.push_back(v_text(d, v) + "'s register does not list it");
    }
  }
  if (!problems.empty()) return problems;
  // Every read in a later state is covered by the value's register.
  std::map<ValueId, std::set<uint32_t>> later_reads;
  for (const auto& [v, at] : fsm_reads(d)) {
    if (d.multi_cycles(v) > 0) {  // held in its unit's own registers from the step it is ready on
      if (at < d.place[v].step + d.multi_cycles(v))
        problems.push_back(v_text(d, v) + " is read in state " + std::to_string(at) + " before its unit is done");
      continue;
    }
    const uint32_t def = def_step(d, v);
    if (at < def) problems.push_back(v_text(d, v) + " is read in state " + std::to_string(at) + " before it is written");
    if (at <= def) continue;
    const int r = d.reg_of[v];
    if (r < 0) {
      problems.push_back(v_text(d, v) + " (state " + std::to_string(def) + ") is read in state " + std::to_string(at) +
                         " but has no register");
      continue;
    }
    later_reads[v].insert(at);
    const Register& reg = d.registers[static_cast<size_t>(r)];
    const size_t i = static_cast<size_t>(std::find(reg.values.begin(), reg.values.end(), v) - reg.values.begin());
    if (reg.lifetimes[i].second < at)
      problems.push_back(v_text(d, v) + " is read in state " + std::to_string(at) + " but its lifetime in " + reg.name +
                         " ends in state " + std::to_string(reg.lifetimes[i].second));
  }
  // No path through the controller from a value's write to one of its reads
  // passes a state that writes another value into the same register (every
  // state writes its values' registers at its end, whichever way it leaves).
  std::vector<std::vector<uint32_t>> succ(d.states.size());
  for (const FsmTransition& t : d.transitions) succ.at(t.from).push_back(t.to);
  for (const auto& [v, reads] : later_reads) {
    const Register& reg = d.registers[static_cast<size_t>(d.reg_of[v])];
    std::set<uint32_t> clobbers;  // states writing another value of this register
    for (ValueId w : reg.values)
      if (w != v) clobbers.insert(def_step(d, w));
    const uint32_t def = def_step(d, v);
    std::set<std::pair<uint32_t, bool>> seen;
    std::vector<std::pair<uint32_t, bool>> work;
    for (uint32_t s : succ[def]) work.emplace_back(s, false);
    while (!work.empty()) {
      auto [s, clobbered] = work.back();
      work.pop_back();
      if (!seen.insert({s, clobbered}).second) continue;
      if (clobbered && reads.count(s)) {
        problems.push_back(v_text(d, v) + " (in " + reg.name + ", written in state " + std::to_string(def) +
                           ") is read in state " + std::to_string(s) +
                           " after a path through a state that writes another value into " + reg.name);
        break;
      }
      if (s == def) continue;  // written anew
      const bool now = clobbered || clobbers.count(s) > 0;
      for (uint32_t t : succ[s]) work.emplace_back(t, now);
    }
  }
  return problems;
}
}  // namespace

std::vector<std::string> register_problems(const Design& d) {
  return d.kind == DesignKind::Pipeline ? pipeline_register_problems(d) : fsm_register_problems(d);
}

std::vector<std::string> design_problems(const Design& d, std::optional<uint32_t> max_mul) {
  std::vector<std::string> all;
  for (auto&& part : {dependence_problems(d), timing_problems(d), shape_problems(d), unit_problems(d, max_mul),
                      register_problems(d)})
    all.insert(all.end(), part.begin(), part.end());
  return all;
}

}  // namespace polydat::hls::testing
