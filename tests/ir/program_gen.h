// A generator of well-typed programs (it only ever makes valid builder
// calls), shared by the seal/validate property and the optimisation passes'
// property. It draws with RapidCheck, so it runs inside rc::check.
// Below it, the few checks every pass test makes of a pass's result.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/builder.h"
#include "ir/interp.h"

namespace polydat::ir::testgen {

struct GenOptions {
  // Off: the programs of the seal/validate property (a main and a straight
  // helper). On, also: a helper with a loop, a helper2 returning a struct
  // (slot by slot or whole) that calls helper inside a loop, calls inside
  // main's loop bodies, volatile objects, and now and then a loop of a
  // billion iterations (which an iteration limit stops).
  bool rich = false;
};

struct Generated {
  CategoryIr ir;
  Value input;
};

class ProgramGen {
 public:
  explicit ProgramGen(GenOptions options = {});
  ~ProgramGen();
  Generated make();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// ---- Hand-built graphs and checks shared by the pass tests ----

// One function under construction, each builder call on the next source line
// (the style of shapes.cc); refusals throw.
struct HandFn {
  IrBuilder b;
  uint32_t line = 0;
  FuncId id;
  std::optional<FnBuilder> fb;

  HandFn(const char* name, Ty in, Ty out);
  HandFn(const HandFn&) = delete;  // the FnBuilder points into b
  HandFn& operator=(const HandFn&) = delete;
  SourceLoc next();
  ObjectId in() const { return fb->input(); }
  ObjectId k(uint64_t v);                       // a u64 constant
  ObjectId konst(Value v, std::string name = {});
  ObjectId op(OpKind o, ObjectId l, ObjectId r, Dest d = Dest::fresh());
  ObjectId un(OpKind o, ObjectId x, Dest d = Dest::fresh());
  ObjectId proj(ObjectId s, uint32_t i, Dest d = Dest::fresh());
  ObjectId pack(std::vector<ObjectId> parts, Dest d = Dest::fresh());
  ObjectId phi(ObjectId t, ObjectId f, ObjectId c, Dest d = Dest::fresh());
  ObjectId call(FuncId callee, ObjectId arg, Dest d = Dest::fresh());
  void out(ObjectId v, std::optional<uint32_t> slot = std::nullopt);
  void set_volatile(ObjectId o);
  LoopHandle begin(ObjectId init, const char* name);
  ObjectId merge(LoopHandle lh) const { return fb->merge_of(lh); }
  void back(LoopHandle lh, ObjectId next, ObjectId cond);
  ObjectId exit(LoopHandle lh, ObjectId value, ObjectId cond, Dest d = Dest::fresh());
  void end(LoopHandle lh);
  // Declares and builds another function (a callee) in the same graph; `body`
  // gets its FnBuilder and writes its result.
  FuncId callee(const char* name, Ty in, Ty out, const std::function<void(HandFn&)>& body);
  CategoryIr seal();
};

// A few values of t (scalars, and structs or tuples of them), small enough
// that the loops of the test shapes end quickly.
std::vector<Value> sample_inputs(const Ty& t);
size_t count_op(const CategoryIr& g, OpKind k);
size_t count_kind(const CategoryIr& g, ObjectKind k);
// validate()'s report as text; empty when the graph is clean.
std::string violations_text(const CategoryIr& g);
// Empty when `after` gives the value `before` gives on `input` (nothing is
// required when `before` does not evaluate); otherwise what differs.
std::string outcome_difference(const CategoryIr& before, const CategoryIr& after, const Value& input,
                               InterpOptions options = {});

}  // namespace polydat::ir::testgen
