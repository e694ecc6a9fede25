#include "example_kernel.h"

#include <stdexcept>

#include "ir/builder.h"

namespace polydat::cli {

using namespace ir;

namespace {
template <class T>
T must(Result<T> r) {
  if (!r) throw std::logic_error("example kernel: " + r.error().message);
  return std::move(r).value();
}

// XXH3_64bits for an 8-byte input and seed 0, as the xxHash sources reduce it.
// One statement per object, so objects are created in source order whatever
// order the compiler evaluates call arguments in (dumps stay byte-identical).
void build_hash(FnBuilder& fb) {
  const SourceLoc loc{};
  auto k = [&](uint64_t v) { return must(fb.constant(Value::integer(TyKind::U64, v), loc)); };
  auto op = [&](OpKind o, ObjectId a, ObjectId b) { return must(fb.binop(o, a, b, Dest::fresh(), loc)); };
  const ObjectId x = fb.input();
  const ObjectId c32 = k(32), c49 = k(49), c24 = k(24), c35 = k(35), c8 = k(8), c28 = k(28);
  const ObjectId secret = k(0xC73AB174C5ECD5A2);
  const ObjectId prime = k(0x9FB21C651E98DF25);
  ObjectId h = op(OpKind::Rotl, x, c32);
  h = op(OpKind::Xor, h, secret);
  const ObjectId r49 = op(OpKind::Rotl, h, c49);
  const ObjectId r24 = op(OpKind::Rotl, h, c24);
  h = op(OpKind::Xor, h, op(OpKind::Xor, r49, r24));
  h = op(OpKind::Mul, h, prime);
  const ObjectId s35 = op(OpKind::Shr, h, c35);
  h = op(OpKind::Xor, h, op(OpKind::Add, s35, c8));
  h = op(OpKind::Mul, h, prime);
  const ObjectId s28 = op(OpKind::Shr, h, c28);
  must(fb.binop(OpKind::Xor, h, s28, Dest::ret(), loc));
}
}  // namespace

CategoryIr build_example_kernel(uint64_t modulus) {
  IrBuilder b;
  const SourceLoc loc{};
  const Ty in = Ty::structure("example_in", {{"cycle", Ty::u64()}});
  const Ty out = Ty::structure("example_out", {{"id", Ty::u64()}});
  FuncId entry = must(b.declare("example", in, out, loc));
  FuncId hash = must(b.declare("hash", Ty::u64(), Ty::u64(), loc));
  {
    FnBuilder fb = must(b.build_fn(hash));
    build_hash(fb);
    must(fb.finish());
  }
  FnBuilder fb = must(b.build_fn(entry));
  ObjectId cycle = must(fb.proj(fb.input(), 0, Dest::fresh("cycle"), loc));
  ObjectId h = must(fb.call(hash, cycle, Dest::fresh(), loc));
  ObjectId m = must(fb.constant(Value::integer(TyKind::U64, modulus), loc));
  ObjectId id = must(fb.binop(OpKind::Mod, h, m, Dest::fresh("id"), loc));
  must(fb.pack_struct(out, std::span(&id, 1), Dest::ret(), loc));
  must(fb.finish());
  return must(std::move(b).seal(entry));
}

}  // namespace polydat::cli
