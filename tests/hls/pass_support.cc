#include "pass_support.h"

#include <doctest/doctest.h>
#include <fmt/core.h>

#include <random>

#include "hls/dfg_builder.h"
#include "hls/dfg_eval.h"
#include "hls_support.h"

namespace polydat::hls::testing {

Dfg dfg_from(const std::string& text) {
  Kernel k = compile_kernel(text);
  INFO(k.error);
  REQUIRE(k.ok());
  auto g = build_dfg(*k.ir, k.ir->entry(), k.config);
  if (!g) INFO(g.error().kind << ": " << g.error().message);
  REQUIRE(g.ok());
  return std::move(*g);
}

std::vector<uint64_t> edge_values(unsigned w, size_t random, uint64_t seed) {
  const uint64_t m = width_mask(w);
  std::vector<uint64_t> v = {0, 1, 2, 3, m, m - 1, m >> 1, (m >> 1) + 1, (m >> 1) - 1};
  for (unsigned k = 2; k < w; k += 3) {
    const uint64_t p = uint64_t{1} << k;
    v.push_back(p);
    v.push_back(p - 1);
    v.push_back(p + 1);
  }
  for (uint64_t c : {7ull, 10ull, 100ull, 125ull, 999ull, 1000ull, 1001ull, 0x9E3779B97F4A7C15ull}) v.push_back(c);
  std::mt19937_64 rng(seed * 7919 + w);
  for (size_t i = 0; i < random; ++i) v.push_back(rng());
  for (uint64_t& x : v) x &= m;
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

std::vector<Sample> samples_for(const Dfg& g, size_t random, uint64_t seed) {
  std::vector<unsigned> widths;
  for (const DfgPort& p : g.inputs) widths.push_back(g.nodes[p.value].width);
  for (const DfgPort& p : g.configs) widths.push_back(g.nodes[p.value].width);
  unsigned total = 0;
  for (unsigned w : widths) total += w;
  auto split = [&](const std::vector<uint64_t>& all) {
    Sample s;
    for (size_t i = 0; i < all.size(); ++i) (i < g.inputs.size() ? s.inputs : s.configs).push_back(all[i]);
    return s;
  };
  std::vector<Sample> out;
  if (total <= 16) {
    for (uint64_t x = 0; x < (uint64_t{1} << total); ++x) {
      std::vector<uint64_t> all;
      uint64_t rest = x;
      for (unsigned w : widths) {
        all.push_back(rest & width_mask(w));
        rest >>= w;
      }
      out.push_back(split(all));
    }
    return out;
  }
  std::mt19937_64 rng(seed);
  auto rand_all = [&] {
    std::vector<uint64_t> all;
    for (unsigned w : widths) all.push_back(rng() & width_mask(w));
    return all;
  };
  for (size_t i = 0; i < widths.size(); ++i)
    for (uint64_t e : edge_values(widths[i], 4, seed + i)) {
      std::vector<uint64_t> all = rand_all();
      all[i] = e;
      out.push_back(split(all));
      // The same edge value against edge values of the others too.
      for (size_t j = 0; j < widths.size(); ++j)
        if (j != i) all[j] = edge_values(widths[j], 0, 0)[rng() % edge_values(widths[j], 0, 0).size()];
      out.push_back(split(all));
    }
  for (size_t i = 0; i < random; ++i) out.push_back(split(rand_all()));
  return out;
}

std::vector<std::string> output_differences(const Dfg& before, const Dfg& after, const std::vector<Sample>& samples,
                                            size_t limit) {
  std::vector<std::string> problems;
  if (before.outputs.size() != after.outputs.size()) return {"the number of outputs changed"};
  for (const Sample& s : samples) {
    const auto a = eval_outputs(before, s.inputs, s.configs, 100000);
    const auto b = eval_outputs(after, s.inputs, s.configs, 100000);
    if (!a && !b) continue;
    if (a.has_value() != b.has_value()) {
      problems.push_back("one graph's loop ran past the limit and the other's did not");
    } else if (*a != *b) {
      std::string line = "inputs";
      for (uint64_t x : s.inputs) line += fmt::format(" 0x{:x}", x);
      if (!s.configs.empty()) line += " configs";
      for (uint64_t x : s.configs) line += fmt::format(" 0x{:x}", x);
      for (size_t i = 0; i < a->size(); ++i)
        if ((*a)[i] != (*b)[i])
          line += fmt::format(": output {} was 0x{:x}, is 0x{:x}", before.outputs[i].name, (*a)[i], (*b)[i]);
      problems.push_back(line);
    }
    if (problems.size() >= limit) break;
  }
  return problems;
}

std::vector<std::string> pass_problems(const Dfg& before, const Dfg& after, size_t random, uint64_t seed) {
  std::vector<std::string> problems = check_dfg(after);
  for (const std::string& p : output_differences(before, after, samples_for(before, random, seed)))
    problems.push_back(p);
  return problems;
}

size_t count_live(const Dfg& g, Op op) {
  const auto live = g.live();
  size_t n = 0;
  for (ValueId v = 0; v < g.nodes.size(); ++v) n += live[v] && g.is_op(v) && g.nodes[v].op == op;
  return n;
}

unsigned port_bits(unsigned w) { return w <= 8 ? 8 : w <= 16 ? 16 : w <= 32 ? 32 : 64; }

ir::Ty port_type(unsigned w) {
  switch (w) {
    case 1: return ir::Ty::scalar(ir::TyKind::Bool);
    case 8: return ir::Ty::scalar(ir::TyKind::U8);
    case 16: return ir::Ty::scalar(ir::TyKind::U16);
    case 32: return ir::Ty::scalar(ir::TyKind::U32);
    default: return ir::Ty::scalar(ir::TyKind::U64);
  }
}

ValueId add_input(Dfg& g, DfgBuilder& b, const std::string& name, unsigned bits) {
  Node n;
  n.kind = NodeKind::Input;
  n.width = bits;
  n.name = name;
  n.index = static_cast<uint32_t>(g.inputs.size());
  const ValueId v = b.raw(n);
  g.inputs.push_back(DfgPort{name, port_type(bits), v});
  return v;
}

unsigned logic_depth(const Dfg& g) {
  std::vector<unsigned> depth(g.nodes.size(), 0);
  unsigned deepest = 0;
  for (ValueId v = 0; v < g.nodes.size(); ++v) {
    if (!g.is_op(v)) continue;
    for (ValueId o : g.nodes[v].operands) depth[v] = std::max(depth[v], depth[o]);
    if (g.is_logic(v)) ++depth[v];
  }
  for (const DfgPort& p : g.outputs) deepest = std::max(deepest, depth[p.value]);
  return deepest;
}

namespace {

class RandomDfg {
 public:
  RandomDfg(uint64_t seed, const RandomDfgOptions& o) : rng_(seed), o_(o), b_(g_) {}

  Dfg make() {
    g_.name = "random";
    for (size_t i = 0; i < o_.inputs; ++i) {
      const unsigned w = pick({1, 8, 16, 32, 64, 64});
      values_.push_back(add_input(g_, b_, "x" + std::to_string(i), w));
    }
    for (size_t i = 0; i < o_.ops; ++i) values_.push_back(random_op());
    for (size_t i = 0; i < o_.outputs; ++i) {
      const unsigned w = pick({1, 8, 16, 32, 64});
      const ValueId v = values_[values_.size() - 1 - (i % values_.size())];
      g_.outputs.push_back(DfgPort{"y" + std::to_string(i), port_type(w), fit(v, w, rng_() & 1)});
    }
    classify_regions(g_);
    return std::move(g_);
  }

 private:
  unsigned pick(std::initializer_list<unsigned> options) {
    return *(options.begin() + static_cast<std::ptrdiff_t>(rng_() % options.size()));
  }

  unsigned any_width() {
    if (rng_() % 2) return pick({1, 8, 16, 32, 64});
    return 1 + static_cast<unsigned>(rng_() % 64);
  }

  uint64_t interesting(unsigned w) {
    const uint64_t m = width_mask(w);
    switch (rng_() % 9) {
      case 0: return 0;
      case 1: return 1;
      case 2: return m;
      case 3: return (uint64_t{1} << (rng_() % w)) & m;
      case 4: return ((uint64_t{1} << (rng_() % w)) - 1) & m;
      case 5: return pick({3, 5, 7, 10, 100, 125, 1000, 641}) & m;
      case 6: return (uint64_t{1} << (w - 1)) & m;
      default: return rng_() & m;
    }
  }

  ValueId fit(ValueId v, unsigned w, bool sign) {
    const unsigned vw = b_.width(v);
    if (vw == w) return v;
    if (vw > w) return b_.slice(v, static_cast<unsigned>(rng_() % (vw - w + 1)), w);
    return sign ? b_.sext(v, w) : b_.zext(v, w);
  }

  ValueId operand(unsigned w) {
    if (rng_() % 4 == 0) return b_.constant(w, interesting(w));
    const ValueId v = values_[values_.size() - 1 - rng_() % std::min<size_t>(values_.size(), 8)];
    return fit(v, w, rng_() % 3 == 0);
  }

  ValueId random_op() {
    const unsigned w = any_width();
    const bool sgn = rng_() % 2;
    switch (rng_() % 20) {
      case 0: return b_.op(Op::Not, w, {operand(w)});
      case 1: return b_.op(pick({0, 1}) ? Op::And : Op::Or, w, {operand(w), operand(w)});
      case 2: return b_.op(Op::Xor, w, {operand(w), operand(w), operand(w)});
      case 3: return b_.mux(operand(1), operand(w), operand(w));
      case 4: return b_.op(pick({0, 1, 2}) == 0 ? Op::AndReduce : rng_() % 2 ? Op::OrReduce : Op::XorReduce, 1, {operand(w)});
      case 5: {
        const Op ops[] = {Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge};
        return b_.compare(ops[rng_() % 6], operand(w), operand(w), sgn);
      }
      case 6: case 7: return rng_() % 4 ? b_.add(operand(w), operand(w)) : b_.add_carry(operand(w), operand(w), operand(1));
      case 8: return rng_() % 3 ? b_.sub(operand(w), operand(w)) : b_.neg(operand(w));
      case 9: case 10: {
        if (!o_.multiplications) return b_.add(operand(w), operand(w));
        const unsigned a = rng_() % 3 ? w : 1 + static_cast<unsigned>(rng_() % w);
        return b_.op(Op::Mul, w, {operand(a), rng_() % 2 ? b_.constant(w, interesting(w)) : operand(w)});
      }
      case 11: case 12: {
        if (!o_.divisions) return b_.sub(operand(w), operand(w));
        const ValueId d = rng_() % 2 ? b_.constant(w, interesting(w)) : operand(w);
        return b_.op(rng_() % 2 ? Op::Div : Op::Mod, w, {operand(w), d}, sgn);
      }
      case 13: {
        const Op ops[] = {Op::Shl, Op::Shr};
        const unsigned aw = 1 + static_cast<unsigned>(rng_() % 8);
        return b_.op(ops[rng_() % 2], w, {operand(w), operand(aw)}, sgn);
      }
      case 14: {
        const unsigned pw = pick({1, 2, 8, 16, 32, 64});
        return b_.op(rng_() % 2 ? Op::Rotl : Op::Rotr, pw, {operand(pw), operand(1 + static_cast<unsigned>(rng_() % 8))});
      }
      case 15: {
        const Op ops[] = {Op::Popcount, Op::Clz, Op::Ctz};
        return b_.op(ops[rng_() % 3], pick({7, 8, 16, 64}), {operand(w)});
      }
      case 16: {
        const unsigned iw = 1 + static_cast<unsigned>(rng_() % 4);
        std::vector<uint64_t> table;
        for (size_t i = 0; i < (size_t{1} << iw); ++i) table.push_back(interesting(w));
        return b_.op(Op::Rom, w, {operand(iw)}, false, 0, table);
      }
      case 17: {
        const unsigned a = 1 + static_cast<unsigned>(rng_() % 32);
        return b_.concat({operand(a), operand(std::max(1u, std::min(64u - a, w)))});
      }
      default: return fit(operand(w), any_width(), sgn);
    }
  }

  std::mt19937_64 rng_;
  RandomDfgOptions o_;
  Dfg g_;
  DfgBuilder b_;
  std::vector<ValueId> values_;
};

}  // namespace

Dfg random_dfg(uint64_t seed, const RandomDfgOptions& options) { return RandomDfg(seed, options).make(); }

}  // namespace polydat::hls::testing
