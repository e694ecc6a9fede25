// Appends nodes to a DFG the way every pass wants them: constants folded,
// local identities applied (a slice of a concatenation, x ^ x, a mux on a
// constant), and structurally equal nodes shared. Passes build their result
// through it, so each one also simplifies and shares what it creates.
#pragma once

#include <map>
#include <tuple>
#include <vector>

#include "hls/dfg.h"

namespace polydat::hls {

class DfgBuilder {
 public:
  explicit DfgBuilder(Dfg& g);

  // New nodes take this name and source position (the node a pass is rewriting).
  void set_origin(const std::string& name, ir::SourceLoc loc) {
    name_ = name;
    loc_ = loc;
  }
  void set_origin(const Node& n) { set_origin(n.name, n.loc); }

  // A node added as it is (ports, loop state): never shared, never folded.
  ValueId raw(Node n);

  ValueId constant(unsigned width, uint64_t bits);
  // Any operation, simplified; `param` is a Slice's low bit, `table` a Rom's entries.
  ValueId op(Op op, unsigned width, std::vector<ValueId> operands, bool sgn = false, uint32_t param = 0,
             std::vector<uint64_t> table = {});

  ValueId slice(ValueId v, unsigned lo, unsigned width);
  ValueId bit(ValueId v, unsigned at) { return slice(v, at, 1); }
  ValueId concat(std::vector<ValueId> most_significant_first);
  ValueId zext(ValueId v, unsigned width);
  ValueId sext(ValueId v, unsigned width);
  // v at `width` bits: its low bits, or zero-extended.
  ValueId resize(ValueId v, unsigned width);
  // v << k at v's width (wiring), and v >> k logical (wiring).
  ValueId shl_const(ValueId v, unsigned k);
  ValueId shr_const(ValueId v, unsigned k);

  ValueId add(ValueId a, ValueId b) { return op(Op::Add, width(a), {a, b}); }
  ValueId add_carry(ValueId a, ValueId b, ValueId cin) { return op(Op::Add, width(a), {a, b, cin}); }
  ValueId sub(ValueId a, ValueId b) { return op(Op::Sub, width(a), {a, b}); }
  ValueId neg(ValueId a) { return op(Op::Neg, width(a), {a}); }
  ValueId bnot(ValueId a) { return op(Op::Not, width(a), {a}); }
  ValueId band(ValueId a, ValueId b) { return op(Op::And, width(a), {a, b}); }
  ValueId bor(ValueId a, ValueId b) { return op(Op::Or, width(a), {a, b}); }
  ValueId bxor(ValueId a, ValueId b) { return op(Op::Xor, width(a), {a, b}); }
  ValueId mux(ValueId cond, ValueId if_true, ValueId if_false) {
    return op(Op::Mux, width(if_true), {cond, if_true, if_false});
  }
  ValueId compare(Op op, ValueId a, ValueId b, bool sgn = false) { return this->op(op, 1, {a, b}, sgn); }

  unsigned width(ValueId v) const { return g_.nodes[v].width; }
  const Node& node(ValueId v) const { return g_.nodes[v]; }
  bool is_constant(ValueId v, uint64_t* bits = nullptr) const;
  Dfg& graph() { return g_; }

 private:
  using Key = std::tuple<uint8_t, uint8_t, unsigned, bool, uint32_t, std::vector<ValueId>, uint64_t, std::vector<uint64_t>>;

  ValueId intern(Node n);
  ValueId simplify(Op op, unsigned width, std::vector<ValueId>& x, bool sgn, uint32_t param,
                   std::vector<uint64_t>& table);
  ValueId simplify_slice(ValueId v, unsigned lo, unsigned width);
  ValueId simplify_concat(std::vector<ValueId>& x);
  ValueId simplify_logic(Op op, unsigned width, std::vector<ValueId>& x);

  Dfg& g_;
  std::map<Key, ValueId> seen_;
  std::string name_;
  ir::SourceLoc loc_;
};

}  // namespace polydat::hls
