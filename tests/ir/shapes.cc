#include "shapes.h"

namespace polydat::ir::shapes {

Value u64(uint64_t v) { return Value::integer(TyKind::U64, v); }

namespace {
using K = OpKind;

struct Fn {
  IrBuilder b;
  Lines lines;
  FuncId id;
  std::optional<FnBuilder> fb;

  Fn(const char* name, Ty in, Ty out) {
    id = must(b.declare(name, std::move(in), std::move(out), lines.next()));
    fb.emplace(must(b.build_fn(id)));
  }
  ObjectId k(uint64_t v) { return must(fb->constant(u64(v), lines.next())); }
  ObjectId op(K o, ObjectId l, ObjectId r, Dest d = Dest::fresh()) { return must(fb->binop(o, l, r, d, lines.next())); }
  ObjectId proj(ObjectId s, uint32_t i, std::string name = {}) {
    return must(fb->proj(s, i, Dest::fresh(std::move(name)), lines.next()));
  }
  ObjectId pack(std::initializer_list<ObjectId> parts, Dest d = Dest::fresh()) {
    return must(fb->pack(std::vector<ObjectId>(parts), d, lines.next()));
  }
  // Operands are evaluated before the call takes its source line, so the
  // lines follow the order of creation whatever order g++ evaluates arguments in.
  LoopHandle begin(ObjectId init, const char* name) { return must(fb->begin_loop(init, lines.next(), name)); }
  void back(LoopHandle lh, ObjectId next, ObjectId cond) { must(fb->loop_back(lh, next, cond, lines.next())); }
  ObjectId exit(LoopHandle lh, ObjectId value, ObjectId cond, Dest d) {
    return must(fb->loop_exit(lh, value, cond, std::move(d), lines.next()));
  }
  void end(LoopHandle lh) { must(fb->end_loop(lh)); }
  CategoryIr seal() {
    must(fb->finish());
    fb.reset();
    return must(std::move(b).seal(id));
  }
};

Ty pair_in() { return Ty::structure("pair_in", {{"a", Ty::u64()}, {"b", Ty::u64()}}); }

// sum_to_n's loop on an existing n, exiting to `dest`.
ObjectId sum_loop(Fn& f, ObjectId n, Dest dest) {
  ObjectId one = f.k(1);
  LoopHandle lh = f.begin(f.pack({one, f.k(0)}), "state");
  ObjectId m = f.fb->merge_of(lh);
  ObjectId i = f.proj(m, 0, "i");
  ObjectId acc = f.proj(m, 1, "acc");
  ObjectId cond = f.op(K::Le, i, n);
  ObjectId next = f.pack({f.op(K::Add, i, one), f.op(K::Add, acc, i)});
  f.back(lh, next, cond);
  ObjectId out = f.exit(lh, acc, cond, dest);
  f.end(lh);
  return out;
}

ObjectId count_loop(Fn& f, ObjectId n, Dest dest) {
  LoopHandle lh = f.begin(f.k(0), "i");
  ObjectId i = f.fb->merge_of(lh);
  ObjectId cond = f.op(K::Lt, i, n);
  f.back(lh, f.op(K::Add, i, f.k(1)), cond);
  ObjectId out = f.exit(lh, i, cond, dest);
  f.end(lh);
  return out;
}
}  // namespace

CategoryIr add() {
  Fn f("add", pair_in(), Ty::u64());
  ObjectId a = f.proj(f.fb->input(), 0, "a");
  ObjectId b = f.proj(f.fb->input(), 1, "b");
  f.op(K::Add, a, b, Dest::ret());
  return f.seal();
}

CategoryIr pipeline() {
  Fn f("pipeline", Ty::u64(), Ty::u64());
  ObjectId x = f.fb->input();
  ObjectId y = f.op(K::Mul, x, f.k(2));
  ObjectId z = f.op(K::Add, y, f.k(5));
  f.op(K::Mul, z, f.k(3), Dest::ret());
  return f.seal();
}

CategoryIr phi_abs() {
  const Ty i64 = Ty::scalar(TyKind::I64);
  Fn f("phi_abs", i64, i64);
  ObjectId x = f.fb->input();
  ObjectId zero = must(f.fb->constant(Value::integer(TyKind::I64, 0), f.lines.next()));
  ObjectId neg = f.op(K::Lt, x, zero);
  ObjectId minus = must(f.fb->unop(K::Neg, x, Dest::fresh(), f.lines.next()));
  must(f.fb->phi(minus, x, neg, Dest::ret(), f.lines.next()));
  return f.seal();
}

CategoryIr count_up() {
  Fn f("count_up", Ty::u64(), Ty::u64());
  count_loop(f, f.fb->input(), Dest::ret());
  return f.seal();
}

CategoryIr sum_to_n() {
  Fn f("sum_to_n", Ty::u64(), Ty::u64());
  sum_loop(f, f.fb->input(), Dest::ret());
  return f.seal();
}

CategoryIr fanout_separate() {
  const Ty out = Ty::structure("fan_out", {{"a", Ty::u64()}, {"b", Ty::u64()}});
  Fn f("fanout_separate", Ty::u64(), out);
  ObjectId x = f.fb->input();
  f.op(K::Add, x, f.k(1), Dest::ret_slot(0));
  f.op(K::Mul, x, f.k(2), Dest::ret_slot(1));
  return f.seal();
}

CategoryIr fanout_tupled() {
  const Ty out = Ty::tuple({Ty::u64(), Ty::u64()});
  Fn f("fanout_tupled", Ty::u64(), out);
  ObjectId x = f.fb->input();
  ObjectId t = f.pack({f.op(K::Add, x, f.k(1)), f.op(K::Mul, x, f.k(2))});
  must(f.fb->output(t, std::nullopt, f.lines.next()));
  return f.seal();
}

CategoryIr nested_loops() {
  Fn f("nested_loops", Ty::u64(), Ty::u64());
  ObjectId n = f.fb->input();
  ObjectId one = f.k(1);
  ObjectId zero = f.k(0);
  LoopHandle outer = f.begin(f.pack({zero, zero}), "outer");
  ObjectId m1 = f.fb->merge_of(outer);
  ObjectId i = f.proj(m1, 0, "i");
  ObjectId t = f.proj(m1, 1, "t");
  ObjectId c1 = f.op(K::Lt, i, n);
  LoopHandle inner = f.begin(f.pack({zero, t}), "inner");
  ObjectId m2 = f.fb->merge_of(inner);
  ObjectId j = f.proj(m2, 0, "j");
  ObjectId s = f.proj(m2, 1, "s");
  ObjectId c2 = f.op(K::Lt, j, i);
  f.back(inner, f.pack({f.op(K::Add, j, one), f.op(K::Add, s, j)}), c2);
  ObjectId s_out = f.exit(inner, s, c2, Dest::fresh("s_out"));
  f.end(inner);
  f.back(outer, f.pack({f.op(K::Add, i, one), s_out}), c1);
  f.exit(outer, t, c1, Dest::ret());
  f.end(outer);
  return f.seal();
}

CategoryIr gcd() {
  Fn f("gcd", pair_in(), Ty::u64());
  ObjectId a0 = f.proj(f.fb->input(), 0, "a");
  ObjectId b0 = f.proj(f.fb->input(), 1, "b");
  LoopHandle lh = f.begin(f.pack({a0, b0}), "ab");
  ObjectId m = f.fb->merge_of(lh);
  ObjectId a = f.proj(m, 0, "a");
  ObjectId b = f.proj(m, 1, "b");
  ObjectId cond = f.op(K::Neq, b, f.k(0));
  f.back(lh, f.pack({b, f.op(K::Mod, a, b)}), cond);
  f.exit(lh, a, cond, Dest::ret());
  f.end(lh);
  return f.seal();
}

CategoryIr two_loops() {
  Fn f("two_loops", Ty::u64(), Ty::u64());
  ObjectId n = f.fb->input();
  ObjectId c = count_loop(f, n, Dest::fresh("count"));
  ObjectId s = sum_loop(f, n, Dest::fresh("sum"));
  f.op(K::Add, c, s, Dest::ret());
  return f.seal();
}

CategoryIr with_call() {
  IrBuilder b;
  Lines lines;
  FuncId top = must(b.declare("with_call", Ty::u64(), Ty::u64(), lines.next()));
  FuncId twice = must(b.declare("twice", Ty::u64(), Ty::u64(), lines.next()));
  {
    FnBuilder fb = must(b.build_fn(twice));
    must(fb.binop(K::Add, fb.input(), fb.input(), Dest::ret(), lines.next()));
    must(fb.finish());
  }
  FnBuilder fb = must(b.build_fn(top));
  ObjectId y = must(fb.call(twice, fb.input(), Dest::fresh("y"), lines.next()));
  must(fb.call(twice, y, Dest::ret(), lines.next()));
  must(fb.finish());
  return must(std::move(b).seal(top));
}

const std::vector<Named>& all() {
  static const std::vector<Named> kAll = {
      {"add", add},           {"pipeline", pipeline},
      {"phi_abs", phi_abs},   {"count_up", count_up},
      {"sum_to_n", sum_to_n}, {"fanout_separate", fanout_separate},
      {"fanout_tupled", fanout_tupled}, {"nested_loops", nested_loops},
      {"gcd", gcd},           {"two_loops", two_loops},
      {"with_call", with_call},
  };
  return kAll;
}

}  // namespace polydat::ir::shapes
