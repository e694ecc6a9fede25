#include "tests/llvm/ir_coverage.h"
#include "difftest/kernel_generator.h"

#include <set>

#include "ir/loops.h"
#include "ir/op.h"

namespace polydat::nativetest {

using difftest::kInts;
using difftest::kScalars;
using difftest::kUnsigned;

namespace {

using ir::OpKind;
using ir::TyKind;


bool takes_pair(OpKind k) {
  switch (k) {
    case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::Div: case OpKind::Mod:
    case OpKind::Eq: case OpKind::Neq: case OpKind::Lt: case OpKind::Gt: case OpKind::Le: case OpKind::Ge:
    case OpKind::And: case OpKind::Or: case OpKind::Xor:
    case OpKind::Shl: case OpKind::Shr: case OpKind::Rotl: case OpKind::Rotr: case OpKind::Pow:
    case OpKind::Concat: case OpKind::FormatDec: case OpKind::FormatRadix: case OpKind::FormatFixed: case OpKind::Phi: case OpKind::Atan2: return true;
    default: return false;
  }
}

bool takes_amount(OpKind k) {
  return k == OpKind::Shl || k == OpKind::Shr || k == OpKind::Rotl || k == OpKind::Rotr || k == OpKind::Pow;
}

bool takes_one(OpKind k) {
  switch (k) {
    case OpKind::Neg: case OpKind::Not: case OpKind::Popcount: case OpKind::Clz: case OpKind::Ctz:
    case OpKind::ToStr: case OpKind::Hex: return true;
    case OpKind::Sqrt: case OpKind::Exp: case OpKind::Ln: case OpKind::Sin: case OpKind::Cos: case OpKind::Tan:
    case OpKind::Asin: case OpKind::Acos: case OpKind::Atan: case OpKind::Floor: case OpKind::Ceil:
    case OpKind::Round: case OpKind::Trunc: case OpKind::Abs: return true;
    default: return false;
  }
}

// Whether a LoopExit lies upstream of `from` (another loop's value reaches it).
bool reads_a_loop(const ir::CategoryIr& ir, ir::ObjectId from) {
  std::set<uint32_t> seen;
  std::vector<ir::ObjectId> todo = {from};
  while (!todo.empty()) {
    const ir::ObjectId o = todo.back();
    todo.pop_back();
    if (!seen.insert(o.v).second) continue;
    for (ir::MorphismId m : ir.in_edges(o)) {
      if (ir.morphism(m).op.kind == OpKind::LoopExit) return true;
      todo.push_back(ir.morphism(m).source);
    }
  }
  return false;
}

std::string name(TyKind t) { return ir::scalar_name(t); }

}  // namespace

void Coverage::add_optimized(const ir::CategoryIr& ir) {
  const ir::FuncDef& f = ir.func(ir.entry());
  for (ir::MorphismId id : f.morphisms) {
    const ir::Morphism& m = ir.morphism(id);
    const std::string op(ir::op_name(m.op.kind));
    const ir::Ty& src = ir.object(m.source).ty;
    ++seen_[op];
    if (m.op.kind == OpKind::Cast) {
      ++seen_["Cast:" + ir::ty_label(src) + "->" + ir::ty_label(ir.object(m.target).ty)];
    } else if (takes_one(m.op.kind)) {
      ++seen_[op + ":" + ir::ty_label(src)];
    } else if (takes_pair(m.op.kind) && src.arity() >= 2) {
      ++seen_[op + ":" + ir::ty_label(src.component(0))];
      if (takes_amount(m.op.kind) && src.component(0).is_int())
        ++seen_[op + "-amount:" + ir::ty_label(src.component(1))];
    }
  }
  const ir::LoopNest nest = ir::loop_nest(ir, ir.entry());
  size_t outermost = 0;
  for (const ir::Loop& l : nest.loops) {
    ++seen_["loop"];
    if (l.parent >= 0) ++seen_["loop:nested-in-body"];
    if (l.parent < 0) ++outermost;
    const ir::Ty& state = ir.object(l.merge).ty;
    std::set<TyKind> kinds;
    for (size_t i = 0; i < state.arity(); ++i) kinds.insert(state.component(i).kind());
    if (kinds.size() >= 3) ++seen_["loop:carries-three-types"];
    for (ir::MorphismId m : ir.in_edges(l.merge))
      if (ir.morphism(m).op.kind == OpKind::LoopEnter && reads_a_loop(ir, ir.morphism(m).source))
        ++seen_[l.parent < 0 ? "loop:initial-state-reads-a-loop" : "loop:nested-initial-state-reads-a-loop"];
  }
  if (outermost >= 2) ++seen_["loop:sequential"];
  if (nest.loops.size() == 1) ++seen_["loop:single"];
}

void Coverage::add_frontend(const ir::CategoryIr& ir) {
  for (const ir::Morphism& m : ir.morphisms())
    if (m.op.kind == OpKind::Call) ++seen_["Call"];
}

void Coverage::add_features(const std::set<std::string>& features) {
  for (const std::string& f : features) ++seen_["generator:" + f];
}

size_t Coverage::count(const std::string& key) const {
  auto it = seen_.find(key);
  return it == seen_.end() ? 0 : it->second;
}

std::vector<std::string> Coverage::missing(const std::vector<std::string>& required) const {
  std::vector<std::string> out;
  for (const std::string& k : required)
    if (count(k) == 0) out.push_back(k);
  return out;
}

std::string Coverage::summary() const {
  std::string s;
  for (const auto& [k, n] : seen_) s += k + " " + std::to_string(n) + "\n";
  return s;
}

std::vector<std::string> required_coverage() {
  std::vector<std::string> r;
  // Output is left out: only the frontend's constant evaluator (extern defaults)
  // builds it; a kernel writes its outputs as Pair slots of its return struct.
  for (int k = 0; k < ir::kNumOpKinds; ++k)
    if (static_cast<OpKind>(k) != OpKind::Output) r.emplace_back(ir::op_name(static_cast<OpKind>(k)));
  std::vector<TyKind> numbers(std::begin(kInts), std::end(kInts));
  numbers.push_back(TyKind::F32);
  numbers.push_back(TyKind::F64);
  for (const char* op : {"Add", "Sub", "Mul", "Div", "Mod", "Neg", "Lt", "Gt", "Le", "Ge", "Pow"})
    for (TyKind t : numbers) r.push_back(std::string(op) + ":" + name(t));
  for (const char* op : {"Eq", "Neq"}) {
    for (TyKind t : numbers) r.push_back(std::string(op) + ":" + name(t));
    r.push_back(std::string(op) + ":bool");
  }
  for (const char* op : {"And", "Or", "Xor", "Not"}) {
    for (TyKind t : kInts) r.push_back(std::string(op) + ":" + name(t));
    r.push_back(std::string(op) + ":bool");
  }
  for (const char* op : {"Shl", "Shr", "Rotl", "Rotr", "Popcount", "Clz", "Ctz"})
    for (TyKind t : kInts) r.push_back(std::string(op) + ":" + name(t));
  for (const char* op : {"Shl", "Shr", "Rotl", "Rotr", "Pow"})
    for (TyKind t : kUnsigned) r.push_back(std::string(op) + "-amount:" + name(t));
  for (TyKind from : kScalars)
    for (TyKind to : kScalars)
      if (from != to) r.push_back("Cast:" + name(from) + "->" + name(to));
  for (TyKind t : kScalars) {
    r.push_back("ToStr:" + name(t));
    r.push_back("Phi:" + name(t));
  }
  r.push_back("Phi:str");
  for (const char* shape : {"loop:single", "loop:sequential", "loop:nested-in-body", "loop:initial-state-reads-a-loop",
                            "loop:carries-three-types"})
    r.emplace_back(shape);
  for (const char* f : {"loop-guard-fails-at-once", "loop-yield-feeds-loop", "loop-in-loop-initial-state",
                        "loop-in-loop-body", "loop-yields-str", "loop-tuple-yield", "loop-data-dependent-guard",
                        "shift-literal-at-or-past-width", "if-integer-condition", "format-width-unbounded", "format-radix",
                        "mix-bool-int", "mix-int-widths", "mix-into-float", "literal-operand", "module-call",
                        "module-default-argument", "module-named-arguments", "annotation-adapter", "extern",
                        "volatile", "call-hash", "call-pcg", "call-pcg_stream", "call-permute", "call-cycle_walk", "call-mixed_radix", "interpolate-str",
                        "comparison-u64", "comparison-as-bool"})
    r.push_back(std::string("generator:") + f);
  return r;
}

}  // namespace polydat::nativetest
