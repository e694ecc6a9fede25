// Every hardware-accepted kernel of the corpus and of tests/rtl/kernels: its
// DFG as built, and after the whole HLS pass pipeline at several clocks and
// DSP budgets, computes bit for bit what the IR interpreter computes, on edge
// values and random values of every input and extern. The passes' own suites
// test each pass on generated graphs; this holds them to the oracle on real
// kernels.
#include <doctest/doctest.h>
#include <fmt/core.h>

#include <random>

#include "frontend/compile.h"
#include "hls/design.h"
#include "hls/dfg_eval.h"
#include "hls/passes.h"
#include "ir/interp.h"
#include "flow/pipeline.h"
#include "rtl_support.h"

using namespace polydat;

namespace {

struct Loaded {
  ir::CategoryIr ir;
  std::vector<bool> config;
  hls::DesignKind kind;
  hls::Dfg dfg;
};

std::optional<Loaded> load(const rtltest::Kernel& k) {
  frontend::CompileOptions copts;
  copts.lib_paths = k.lib_paths;
  frontend::CompileResult r = frontend::compile_file(k.path.string(), copts);
  if (!r.ok()) return std::nullopt;
  auto opt = flow::optimize(r);
  if (!opt) return std::nullopt;
  auto kind = hls::single_loop_fsm(opt->ir, opt->ir.entry());
  if (!kind) return std::nullopt;
  auto g = hls::build_dfg(opt->ir, opt->ir.entry(), opt->config_fields);
  if (!g) return std::nullopt;
  return Loaded{std::move(opt->ir), std::move(opt->config_fields), *kind, std::move(*g)};
}

uint64_t mask(unsigned w) { return hls::width_mask(w); }

// The values of one port worth trying: small ones (a loop's trip count), the edges, random ones.
std::vector<uint64_t> values_for(unsigned w, std::mt19937_64& rng) {
  std::vector<uint64_t> v = {0, 1, 2, 3, 5, 7, 10, 99, 100, 999, 1000, 1234, mask(w), mask(w) - 1, mask(w) >> 1,
                             (mask(w) >> 1) + 1};
  for (int i = 0; i < 6; ++i) v.push_back(rng());
  for (uint64_t& x : v) x &= mask(w);
  return v;
}

// The interpreter's outputs as bit patterns, or nullopt when it stops (an iteration limit).
std::optional<std::vector<uint64_t>> interpret(ir::Interpreter& interp, const Loaded& l, const std::vector<uint64_t>& fields) {
  const ir::Ty in_ty = l.ir.object(l.ir.func(l.ir.entry()).input).ty;
  std::vector<ir::Value> values;
  for (size_t i = 0; i < fields.size(); ++i) values.push_back(ir::Value::integer(in_ty.component(i).kind(), fields[i]));
  for (size_t i = 0; i < fields.size(); ++i)
    if (in_ty.component(i).is_bool()) values[i] = ir::Value::boolean(fields[i] != 0);
  auto r = interp.run(in_ty.is_unit() ? ir::Value() : ir::Value::structure(in_ty, std::move(values)));
  if (!r) return std::nullopt;
  std::vector<uint64_t> out;
  for (const ir::Value& v : r->ty().is_product() ? r->elems() : std::vector<ir::Value>{*r}) out.push_back(v.bits());
  return out;
}

}  // namespace

TEST_CASE("every hardware-accepted kernel's DFG, before and after the HLS passes, computes what the interpreter does") {
  size_t kernels = 0, evaluations = 0;
  for (const rtltest::Kernel& k : rtltest::all_kernels()) {
    auto l = load(k);
    if (!l) continue;
    CAPTURE(k.key);
    ++kernels;
    std::vector<std::pair<std::string, hls::Dfg>> graphs;
    graphs.emplace_back("as built", l->dfg);
    for (double clock : {20.8, 83.3})
      for (uint32_t dsps : {0u, 8u}) {
        hls::HlsOptions o;
        o.dsp_limit = dsps;
        graphs.emplace_back(fmt::format("passes at {} ns, {} DSPs", clock, dsps),
                            hls::optimize_dfg(l->dfg, hls::pass_options(o, l->kind, clock)));
      }
    for (const auto& [what, g] : graphs) {
      CAPTURE(what);
      const auto problems = hls::check_dfg(g);
      const std::string first = problems.empty() ? std::string() : problems.front();
      CHECK_MESSAGE(problems.empty(), first);
    }
    ir::InterpOptions io;
    io.max_iterations = 20000;
    ir::Interpreter interp(l->ir, io);
    const ir::Ty in_ty = l->ir.object(l->ir.func(l->ir.entry()).input).ty;
    std::mt19937_64 rng(kernels);
    std::vector<std::vector<uint64_t>> per_field;
    for (size_t i = 0; i < (in_ty.is_unit() ? 0 : in_ty.arity()); ++i) per_field.push_back(values_for(in_ty.component(i).bits(), rng));
    // Each field through its values, the others at their first (small) values, then random mixes.
    std::vector<std::vector<uint64_t>> rows;
    for (size_t f = 0; f < per_field.size(); ++f)
      for (uint64_t x : per_field[f]) {
        std::vector<uint64_t> row;
        for (size_t j = 0; j < per_field.size(); ++j) row.push_back(j == f ? x : per_field[j][1 + j % 3]);
        rows.push_back(row);
      }
    for (int i = 0; i < 20; ++i) {
      std::vector<uint64_t> row;
      for (const auto& vals : per_field) row.push_back(vals[rng() % vals.size()]);
      rows.push_back(row);
    }
    if (per_field.empty()) rows.push_back({});
    for (const std::vector<uint64_t>& row : rows) {
      const auto want = interpret(interp, *l, row);
      if (!want) continue;  // a loop past the limit
      std::vector<uint64_t> inputs, configs;
      for (size_t i = 0; i < row.size(); ++i) (l->config[i] ? configs : inputs).push_back(row[i]);
      for (const auto& [what, g] : graphs) {
        const auto got = hls::eval_outputs(g, inputs, configs, 20000);
        std::string row_text;
        for (uint64_t x : row) row_text += fmt::format(" 0x{:x}", x);
        INFO(what << ", input" << row_text);
        REQUIRE(got.has_value());
        CHECK(*got == *want);
        ++evaluations;
      }
    }
  }
  MESSAGE(kernels << " kernels, " << evaluations << " evaluations");
  CHECK(kernels >= 30);
}
