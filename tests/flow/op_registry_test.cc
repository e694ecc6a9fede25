// Every row of the operation registry (ir/op.cc) through every engine: the
// interpreter, LLVM, HLS and the SystemVerilog emitter. Each operation has an
// example that must contain it; the two software engines must run it and
// agree; HLS must take it when the registry gives it a hardware form and
// refuse it when it does not, and a design it takes must emit. A failure
// names the operation and the form that is missing.
#include <doctest/doctest.h>

#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "difftest/random_values.h"
#include "flow/engines.h"
#include "flow/pipeline.h"
#include "ir/builder.h"
#include "ir/op.h"

using namespace polydat;

namespace {

// A kernel whose lowered IR holds `op` (and, unless `op` is inlined, whose optimised IR still does).
struct Example {
  ir::OpKind op;
  std::string text;  // GK; empty: built with the IR builder (no GK form lowers to it)
};

const std::vector<Example>& examples() {
  using enum ir::OpKind;
  static const std::vector<Example> list = {
      {Pair, "input a: u64\ninput b: u64\ny := a + b\n"},
      {Proj, "input a: u64\ny := a + 1\n"},
      {Add, "input a: u64\ninput b: u64\ny := a + b\n"},
      {Sub, "input a: u64\ninput b: u64\ny := a - b\n"},
      {Mul, "input a: u64\ninput b: u64\ny := a * b\n"},
      {Div, "input a: u64\ninput b: u64\ny := a / b\n"},
      {Mod, "input a: u64\ninput b: u64\ny := a % b\n"},
      {Neg, "input a: i64\ny := -a\n"},
      {Eq, "input a: u64\ninput b: u64\ny := a == b\n"},
      {Neq, "input a: u64\ninput b: u64\ny := a != b\n"},
      {Lt, "input a: u64\ninput b: u64\ny := a < b\n"},
      {Gt, "input a: u64\ninput b: u64\ny := a > b\n"},
      {Le, "input a: u64\ninput b: u64\ny := a <= b\n"},
      {Ge, "input a: u64\ninput b: u64\ny := a >= b\n"},
      {And, "input a: u64\ninput b: u64\ny := a & b\n"},
      {Or, "input a: u64\ninput b: u64\ny := a | b\n"},
      {Xor, "input a: u64\ninput b: u64\ny := a ^ b\n"},
      {Not, "input a: u64\ny := !a\n"},
      {Shl, "input a: u64\ninput b: u8\ny := a << b\n"},
      {Shr, "input a: u64\ninput b: u8\ny := a >> b\n"},
      {Rotl, "input a: u64\ninput b: u64\ny := rotl(a, b)\n"},
      {Rotr, "input a: u64\ninput b: u64\ny := rotr(a, b)\n"},
      {Pow, "input a: u64\ninput b: u64\ny := a ** b\n"},
      {Cast, "input a: u64\ny := a as u8\n"},
      {Popcount, "input a: u64\ny := popcount(a)\n"},
      {Clz, "input a: u64\ny := clz(a)\n"},
      {Ctz, "input a: u64\ny := ctz(a)\n"},
      {ToStr, "input a: u64\ny := \"{a}\"\n"},
      {Concat, "input a: u64\ny := \"{a}x\"\n"},
      {FormatDec, "input a: u64\ny := zero_pad_u64(a, 5)\n"},
      {Hex, "input a: u64\ny := hex(a)\n"},
      {FormatRadix, "input a: u64\ny := format_u64(a, 16)\n"},
      {FormatFixed, "input a: f64\ny := format_f64(a, 3)\n"},
      {Sqrt, "input a: f64\ny := sqrt(a)\n"},
      {Exp, "input a: f64\ny := exp(a)\n"},
      {Ln, "input a: f64\ny := ln(a)\n"},
      {Sin, "input a: f64\ny := sin(a)\n"},
      {Cos, "input a: f64\ny := cos(a)\n"},
      {Tan, "input a: f64\ny := tan(a)\n"},
      {Asin, "input a: f64\ny := asin(a)\n"},
      {Acos, "input a: f64\ny := acos(a)\n"},
      {Atan, "input a: f64\ny := atan(a)\n"},
      {Atan2, "input a: f64\ninput b: f64\ny := atan2(a, b)\n"},
      {Floor, "input a: f64\ny := floor(a)\n"},
      {Ceil, "input a: f64\ny := ceil(a)\n"},
      {Round, "input a: f64\ny := round(a)\n"},
      {Trunc, "input a: f64\ny := trunc(a)\n"},
      {Abs, "input a: f64\ny := abs_f64(a)\n"},
      {Phi, "input a: u64\ninput b: u64\ny := if(a < b, a, b)\n"},
      {Call, "double(x: u64) -> (y: u64) := {\n  y := x * 2\n}\ninput a: u64\nz := double(a)\n"},
      {LibFn, "input a: u64\ny := md5(\"{a}\")\n"},
      {Rom, "input a: u64\ny := dist_normal((a % 1000) as f64 / 1000.0)\n"},
      {LoopEnter, "input n: u64\ns := loop (i = 0, acc = 0) while i < n % 8 { acc = acc + i; i = i + 1 } yield acc\n"},
      {LoopBack, "input n: u64\ns := loop (i = 0, acc = 0) while i < n % 8 { acc = acc + i; i = i + 1 } yield acc\n"},
      {LoopExit, "input n: u64\ns := loop (i = 0, acc = 0) while i < n % 8 { acc = acc + i; i = i + 1 } yield acc\n"},
      {Output, ""},
  };
  return list;
}

template <class T, class E>
T must(ir::Expected<T, E> r) {
  REQUIRE(r.ok());
  return std::move(*r);
}

// The identity on a record {a: u64}: the one bare `x -> ret` edge, which the frontend does not write.
flow::Optimized output_example() {
  const ir::Ty rec = ir::Ty::structure("rec", {{"a", ir::Ty::u64()}});
  ir::IrBuilder b;
  const ir::FuncId f = must(b.declare("identity", rec, rec, {}));
  ir::FnBuilder fb = must(b.build_fn(f));
  must(fb.output(fb.input(), std::nullopt, {}));
  must(fb.finish());
  return flow::Optimized{must(std::move(b).seal(f)), {false}};
}

bool holds(const ir::CategoryIr& g, ir::OpKind op) {
  for (const ir::Morphism& m : g.morphisms())
    if (m.op.kind == op) return true;
  return false;
}

// Ten evaluations of random fields of the entry's input record, as a batch (no externs).
sim::Batch random_batch(const ir::CategoryIr& g) {
  const ir::Ty in = g.object(g.func(g.entry()).input).ty;
  std::mt19937_64 rng(7);
  sim::Batch batch;
  for (int i = 0; i < 10; ++i) {
    std::vector<ir::Value> fields;
    for (size_t k = 0; k < in.arity(); ++k) fields.push_back(difftest::random_scalar(in.component(k), rng));
    batch.inputs.push_back(std::move(fields));
  }
  return batch;
}

// What is wrong with `op`'s row, or "" when every engine does what the registry says.
std::string walk(const Example& e) {
  const std::string op(ir::op_name(e.op));
  flow::Optimized opt;
  if (e.text.empty()) {
    opt = output_example();
  } else {
    const frontend::CompileResult checked = frontend::compile_source(op + ".gk", e.text);
    if (!checked.ok()) return op + ": its example does not compile:\n" + checked.render_diagnostics();
    if (!holds(*checked.ir, e.op)) return op + ": its example does not lower to " + op;
    auto o = flow::optimize(checked);
    if (!o) return op + ": the optimiser failed: " + o.error();
    opt = std::move(*o);
  }
  const ir::HardwareForm form = ir::op_info(e.op).hardware;
  if (form != ir::HardwareForm::Inlined && !holds(opt.ir, e.op)) return op + ": its example optimises the operation away";

  const sim::Batch batch = random_batch(opt.ir);
  std::vector<sim::EngineRun> runs;
  for (const char* engine : {"interp", "llvm"}) {
    auto made = flow::make_engine(engine, flow::EngineSubject{&opt.ir, opt.config_fields, nullptr});
    if (!made) return op + ": " + engine + ": " + made.error();
    auto run = (*made)->run(batch);
    if (!run) return op + ": no " + engine + " form: " + run.error();
    runs.push_back(std::move(*run));
  }
  if (runs[0].outputs != runs[1].outputs) return op + ": the interpreter and LLVM disagree";

  auto scheduled = flow::schedule(opt);
  if (form == ir::HardwareForm::None)
    return scheduled ? op + ": the registry gives it no hardware form, but HLS takes it" : "";
  if (!scheduled)
    return op + ": the registry gives it " + std::string(ir::hardware_form_name(form)) +
           ", but HLS refuses it: " + scheduled.error().message;
  const flow::Emitted emitted = flow::emit(std::move(*scheduled));
  if (emitted.module.text.find("module " + emitted.module.name + " (") == std::string::npos)
    return op + ": no SystemVerilog module for its design";
  return "";
}

}  // namespace

TEST_CASE("op registry: the rows follow the enum and every operation has an example") {
  std::set<ir::OpKind> covered;
  for (const Example& e : examples()) covered.insert(e.op);
  for (int k = 0; k < ir::kNumOpKinds; ++k) {
    const auto op = static_cast<ir::OpKind>(k);
    CHECK(ir::op_info(op).kind == op);
    CHECK(ir::op_from_name(ir::op_info(op).name) == op);
    CHECK_MESSAGE(covered.count(op), ir::op_name(op) << " has no example here: add one");
  }
}

TEST_CASE("op registry: every operation through the interpreter, LLVM, HLS and the emitter") {
  for (const Example& e : examples()) {
    CAPTURE(ir::op_name(e.op));
    const std::string wrong = walk(e);
    CHECK_MESSAGE(wrong.empty(), wrong);
  }
}
