// GCC 12 pairs llvm::GlobalVariable's placement operator new with its sized delete
// and warns falsely once a function creates several globals.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

#include "sim/llvm/lower.h"

#include <algorithm>

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include "ir/interp.h"
#include "ir/library_fn.h"
#include "ir/exec_plan.h"
#include "sim/llvm/record_layout.h"
#include "sim/llvm/runtime.h"

namespace polydat::sim {

namespace {

using ir::ObjectId;
using ir::OpKind;
using ir::Ty;
using ir::TyKind;

using Leaves = std::vector<llvm::Value*>;

class Lowerer {
 public:
  Lowerer(llvm::LLVMContext& ctx, llvm::Module& mod, const ir::CategoryIr& ir, ir::FuncId f, const KernelSymbols& symbols,
          const LowerOptions& options)
      : ctx_(ctx), mod_(mod), b_(ctx), ir_(ir), f_(f), symbols_(symbols), options_(options),
        leaves_(ir.objects().size()) {}

  ir::Expected<ir::Unit, std::string> run() {
    auto plan = ir::exec_plan(ir_, f_);
    if (!plan) return "the loop has no canonical plan: " + plan.error().message;
    plan_ = std::move(*plan);
    for (const ir::Morphism& m : ir_.morphisms())
      if (ir_.owner(m.target) == f_ && m.op.kind == OpKind::Call)
        return std::string("a call was not inlined (the native backend runs optimize()'s output)");

    const ir::FuncDef& fd = ir_.func(f_);
    const RecordLayout in = record_layout(ir_.object(fd.input).ty);
    const RecordLayout out = record_layout(ir_.object(fd.output).ty);
    auto* ptr = llvm::PointerType::get(ctx_, 0);
    auto* i64 = b_.getInt64Ty();
    auto* fn_ty = llvm::FunctionType::get(i64, {ptr, ptr, ptr, i64}, false);
    fn_ = llvm::Function::Create(fn_ty, llvm::Function::ExternalLinkage, symbols_.run_state, mod_);
    for (unsigned a = 0; a < 3; ++a) fn_->addParamAttr(a, llvm::Attribute::NoAlias);
    state_ = fn_->getArg(0);
    llvm::Value* in_arg = fn_->getArg(1);
    llvm::Value* out_arg = fn_->getArg(2);
    llvm::Value* n = fn_->getArg(3);

    // A loop-free kernel first runs kLanes evaluations side by side, step by
    // step, so that their chains of dependent operations overlap (one chain is
    // latency-bound, several are throughput-bound); then the rest one by one:
    //   for (i = 0; i + L <= n; i += L) out[i..i+L) = kernel(in[i..i+L))
    //   for (; i < n; ++i) out[i] = kernel(in[i])
    auto* entry = llvm::BasicBlock::Create(ctx_, "entry", fn_);
    auto* wide = llvm::BasicBlock::Create(ctx_, "eval_lanes", fn_);
    auto* rest = llvm::BasicBlock::Create(ctx_, "rest", fn_);
    auto* loop = llvm::BasicBlock::Create(ctx_, "eval", fn_);
    auto* done = llvm::BasicBlock::Create(ctx_, "done", fn_);
    stop_ = llvm::BasicBlock::Create(ctx_, "iteration_limit", fn_);
    const bool str_outputs =
        std::any_of(out.fields.begin(), out.fields.end(), [](const RecordField& o) { return o.kind == TyKind::Str; });
    const uint64_t lanes = plan_.loops.empty() ? kLanes : 1;
    b_.SetInsertPoint(entry);
    if (str_outputs) {  // the last batch's strings go; this batch's are copied out as they are stored
      store_ = state_;  // the store is the state's first word
      b_.CreateCall(runtime("polydat_rt_store_reset", {ptr}), {store_});
    }
    // The batch-invariant values, read once from the first record (when there is one).
    auto* start = llvm::BasicBlock::Create(ctx_, "start", fn_, wide);
    b_.CreateCondBr(b_.CreateICmpEQ(n, b_.getInt64(0)), done, start);
    b_.SetInsertPoint(start);
    read_invariants(in, in_arg);
    entry = start;
    llvm::BasicBlock* wide_end = nullptr;
    llvm::Value* w_next = nullptr;
    if (lanes == 1) {
      b_.CreateBr(rest);
      wide->eraseFromParent();
    } else {
      b_.CreateCondBr(b_.CreateICmpULT(n, b_.getInt64(lanes)), rest, wide);
      auto r = emit_wide_loop(wide, entry, rest, in, out, in_arg, out_arg, n, lanes, w_next, wide_end);
      if (!r) return r.error();
    }

    b_.SetInsertPoint(rest);
    llvm::PHINode* first = b_.CreatePHI(i64, 2, "first");
    first->addIncoming(b_.getInt64(0), entry);
    if (wide_end) first->addIncoming(w_next, wide_end);
    b_.CreateCondBr(b_.CreateICmpEQ(first, n), done, loop);

    b_.SetInsertPoint(loop);
    llvm::PHINode* i = b_.CreatePHI(i64, 2, "i");
    i->addIncoming(first, rest);
    index_ = i;
    llvm::Value* in_rec = b_.CreateGEP(b_.getInt8Ty(), in_arg, b_.CreateMul(i, b_.getInt64(in.size)), "in_rec");
    llvm::Value* out_rec = b_.CreateGEP(b_.getInt8Ty(), out_arg, b_.CreateMul(i, b_.getInt64(out.size)), "out_rec");
    init_constants();
    leaves_[fd.input.v] = load(in, in_rec);
    if (auto r = emit_block(0); !r) return r.error();
    store(out, leaves_[fd.output.v], out_rec);

    llvm::Value* next = b_.CreateAdd(i, b_.getInt64(1));
    i->addIncoming(next, b_.GetInsertBlock());
    b_.CreateCondBr(b_.CreateICmpEQ(next, n), done, loop);
    b_.SetInsertPoint(done);
    b_.CreateRet(n);
    b_.SetInsertPoint(stop_);  // the evaluation whose loop ran past the limit: the ones before it are done
    b_.CreateRet(index_);

    std::string why;
    llvm::raw_string_ostream os(why);
    if (llvm::verifyFunction(*fn_, &os)) return "internal: the generated function does not verify: " + os.str();
    emit_release_state();
    emit_state_size();
    emit_default_state_entries();
    return ir::Unit{};
  }

 private:
  // The string buffers outlive a call (the caller reads its outputs' strings
  // until the next one): the release function frees a state's buffers.
  void emit_release_state() {
    auto* ptr = llvm::PointerType::get(ctx_, 0);
    auto* fn = llvm::Function::Create(llvm::FunctionType::get(b_.getVoidTy(), {ptr}, false),
                                      llvm::Function::ExternalLinkage, symbols_.release_state, mod_);
    b_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", fn));
    for (size_t k = 0; k < scratch_count_; ++k)
      b_.CreateCall(runtime("polydat_rt_scratch_free", {ptr}), {scratch_at(fn->getArg(0), k)});
    if (store_) b_.CreateCall(runtime("polydat_rt_store_reset", {ptr}), {fn->getArg(0)});
    b_.CreateRetVoid();
  }

  // A state's bytes: the output store's word, then one scratch per string-building step.
  uint64_t state_size() const { return kStoreBytes + kScratchBytes * scratch_count_; }

  void emit_state_size() {
    auto* fn = llvm::Function::Create(llvm::FunctionType::get(b_.getInt64Ty(), false), llvm::Function::ExternalLinkage,
                                      symbols_.state_size, mod_);
    b_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", fn));
    b_.CreateRet(b_.getInt64(state_size()));
  }

  // run(in, out, n) and release() on a state of the module's own: the C API of
  // one caller at a time.
  void emit_default_state_entries() {
    auto* ptr = llvm::PointerType::get(ctx_, 0);
    auto* i64 = b_.getInt64Ty();
    auto* bytes = llvm::ArrayType::get(i64, state_size() / 8);
    auto* state = new llvm::GlobalVariable(mod_, bytes, false, llvm::GlobalValue::InternalLinkage,
                                           llvm::Constant::getNullValue(bytes), "polydat.state");
    auto* run = llvm::Function::Create(llvm::FunctionType::get(i64, {ptr, ptr, i64}, false),
                                       llvm::Function::ExternalLinkage, symbols_.run, mod_);
    b_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", run));
    b_.CreateRet(b_.CreateCall(fn_, {state, run->getArg(0), run->getArg(1), run->getArg(2)}));
    auto* release = llvm::Function::Create(llvm::FunctionType::get(b_.getVoidTy(), false),
                                           llvm::Function::ExternalLinkage, symbols_.release, mod_);
    b_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", release));
    b_.CreateCall(mod_.getFunction(symbols_.release_state), {state});
    b_.CreateRetVoid();
  }

  llvm::Value* scratch_at(llvm::Value* state, size_t k) {
    return b_.CreateConstGEP1_64(b_.getInt8Ty(), state, kStoreBytes + kScratchBytes * k);
  }

  // ---- types and leaves ----

  llvm::Type* llvm_type(const Ty& t) {
    switch (t.kind()) {
      case TyKind::Str: return str_type();
      case TyKind::Bool: return b_.getInt1Ty();
      case TyKind::F32: return b_.getFloatTy();
      case TyKind::F64: return b_.getDoubleTy();
      default: return b_.getIntNTy(t.bits());
    }
  }

  // A string is a (pointer, length) pair: StrView in record_layout.h.
  llvm::StructType* str_type() {
    if (!str_ty_) str_ty_ = llvm::StructType::create(ctx_, {llvm::PointerType::get(ctx_, 0), b_.getInt64Ty()}, "polydat.str");
    return str_ty_;
  }
  llvm::FunctionCallee runtime(const char* name, llvm::ArrayRef<llvm::Type*> params) {
    return mod_.getOrInsertFunction(name, llvm::FunctionType::get(b_.getVoidTy(), params, false));
  }

  // A string literal: its bytes in a private constant.
  llvm::Value* string_constant(const std::string& text) {
    llvm::Constant* bytes = llvm::ConstantDataArray::getString(ctx_, text, false);
    auto* g = new llvm::GlobalVariable(mod_, bytes->getType(), true, llvm::GlobalValue::PrivateLinkage, bytes, "str");
    g->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    return llvm::ConstantStruct::get(str_type(), {g, b_.getInt64(text.size())});
  }

  // A step producing a string: its own scratch, then the runtime helper writes
  // the result's (pointer, length) into a slot the step reads back.
  llvm::Value* string_step(const char* helper, llvm::ArrayRef<llvm::Type*> params,
                           std::vector<llvm::Value*> args) {
    llvm::Value* scratch = scratch_at(state_, scratch_count_++);
    llvm::Value* out = entry_alloca(str_type());
    std::vector<llvm::Type*> types{llvm::PointerType::get(ctx_, 0), llvm::PointerType::get(ctx_, 0)};
    types.insert(types.end(), params.begin(), params.end());
    args.insert(args.begin(), {scratch, out});
    b_.CreateCall(runtime(helper, types), args);
    return b_.CreateLoad(str_type(), out);
  }

  // A stack slot in the function's entry block (so it is allocated once).
  llvm::Value* entry_alloca(llvm::Type* t) {
    llvm::IRBuilder<> eb(&fn_->getEntryBlock(), fn_->getEntryBlock().begin());
    return eb.CreateAlloca(t);
  }

  // A string operand passed by address.
  llvm::Value* spill(llvm::Value* v) {
    llvm::Value* slot = entry_alloca(v->getType());
    b_.CreateStore(v, slot);
    return slot;
  }

  // Where component `slot` of a product starts among its leaves, and how many it has.
  static std::pair<size_t, size_t> component_range(const Ty& product, size_t slot) {
    size_t start = 0;
    for (size_t j = 0; j < slot; ++j) start += leaf_types(product.component(j)).size();
    return {start, leaf_types(product.component(slot)).size()};
  }

  Leaves component(ObjectId o, size_t slot) {
    const auto [start, count] = component_range(ir_.object(o).ty, slot);
    Leaves& all = leaves_[o.v];
    return Leaves(all.begin() + static_cast<long>(start), all.begin() + static_cast<long>(start + count));
  }

  llvm::Value* constant(const Ty& t, uint64_t bits) {
    if (t.is_str()) return string_constant("");
    if (t.kind() == TyKind::F32)
      return llvm::ConstantFP::get(ctx_, llvm::APFloat(llvm::APFloat::IEEEsingle(), llvm::APInt(32, bits)));
    if (t.kind() == TyKind::F64)
      return llvm::ConstantFP::get(ctx_, llvm::APFloat(llvm::APFloat::IEEEdouble(), llvm::APInt(64, bits)));
    return llvm::ConstantInt::get(llvm_type(t), bits);
  }

  void constant_leaves(const ir::Value& v, Leaves& out) {
    if (v.ty().is_product()) {
      for (const ir::Value& e : v.elems()) constant_leaves(e, out);
    } else if (v.ty().is_str()) {
      out.push_back(string_constant(v.as_str()));
    } else if (!v.ty().is_unit()) {
      out.push_back(constant(v.ty(), v.bits()));
    }
  }

  // Constants, and every product starting as zeros (the interpreter's initial frame).
  void init_constants() {
    for (ObjectId o : ir_.objects_of(f_)) {
      const ir::Object& obj = ir_.object(o);
      Leaves l;
      if (obj.value) constant_leaves(*obj.value, l);
      else
        for (const Ty& t : leaf_types(obj.ty)) l.push_back(constant(t, 0));
      leaves_[o.v] = std::move(l);
    }
  }

  // The invariant leaves of the input record at `rec` (see LowerOptions).
  void read_invariants(const RecordLayout& layout, llvm::Value* rec) {
    const ir::Ty& in_ty = ir_.object(ir_.func(f_).input).ty;
    invariant_leaves_.assign(layout.fields.size(), nullptr);
    if (!in_ty.is_product()) return;
    const Leaves all = load(layout, rec);
    for (size_t port = 0; port < options_.batch_invariant.size() && port < in_ty.arity(); ++port) {
      if (!options_.batch_invariant[port]) continue;
      const auto [first, count] = component_range(in_ty, port);
      for (size_t k = first; k < first + count && k < all.size(); ++k) invariant_leaves_[k] = all[k];
    }
  }

  Leaves load(const RecordLayout& layout, llvm::Value* rec) {
    Leaves out;
    for (size_t k = 0; k < layout.fields.size(); ++k) {
      const RecordField& f = layout.fields[k];
      if (k < invariant_leaves_.size() && invariant_leaves_[k]) {
        out.push_back(invariant_leaves_[k]);
        continue;
      }
      llvm::Value* at = b_.CreateConstGEP1_64(b_.getInt8Ty(), rec, f.offset);
      const Ty t = Ty::scalar(f.kind);
      if (t.is_bool()) out.push_back(b_.CreateICmpNE(b_.CreateLoad(b_.getInt8Ty(), at), b_.getInt8(0)));
      else if (t.is_str()) out.push_back(b_.CreateLoad(str_type(), at, f.name));
      else out.push_back(b_.CreateLoad(llvm_type(t), at, f.name));
    }
    return out;
  }

  void store(const RecordLayout& layout, const Leaves& values, llvm::Value* rec) {
    for (size_t k = 0; k < layout.fields.size(); ++k) {
      const RecordField& f = layout.fields[k];
      llvm::Value* at = b_.CreateConstGEP1_64(b_.getInt8Ty(), rec, f.offset);
      llvm::Value* v = values[k];
      if (f.kind == TyKind::Bool) v = b_.CreateZExt(v, b_.getInt8Ty());
      b_.CreateStore(v, at);
      // Copied out at the boundary: the step's scratch is rewritten by the next evaluation.
      if (f.kind == TyKind::Str) b_.CreateCall(runtime("polydat_rt_publish", {at->getType(), at->getType()}), {store_, at});
    }
  }

  // ---- blocks and loops ----

  // The loop over whole groups of lanes (see run()).
  ir::Expected<ir::Unit, std::string> emit_wide_loop(llvm::BasicBlock* wide, llvm::BasicBlock* entry,
                                                     llvm::BasicBlock* rest, const RecordLayout& in,
                                                     const RecordLayout& out, llvm::Value* in_arg, llvm::Value* out_arg,
                                                     llvm::Value* n, uint64_t lanes, llvm::Value*& w_next,
                                                     llvm::BasicBlock*& wide_end) {
    b_.SetInsertPoint(wide);
    auto* i64 = b_.getInt64Ty();
    llvm::PHINode* w = b_.CreatePHI(i64, 2, "w");
    w->addIncoming(b_.getInt64(0), entry);
    std::vector<Leaves> inputs;
    for (uint64_t lane = 0; lane < lanes; ++lane) {
      llvm::Value* at = b_.CreateAdd(w, b_.getInt64(lane));
      inputs.push_back(load(in, b_.CreateGEP(b_.getInt8Ty(), in_arg, b_.CreateMul(at, b_.getInt64(in.size)))));
    }
    auto outputs = emit_lanes(inputs);
    if (!outputs) return outputs.error();
    for (uint64_t lane = 0; lane < lanes; ++lane) {
      llvm::Value* at = b_.CreateAdd(w, b_.getInt64(lane));
      store(out, (*outputs)[lane], b_.CreateGEP(b_.getInt8Ty(), out_arg, b_.CreateMul(at, b_.getInt64(out.size))));
    }
    w_next = b_.CreateAdd(w, b_.getInt64(lanes));
    wide_end = b_.GetInsertBlock();
    w->addIncoming(w_next, wide_end);
    b_.CreateCondBr(b_.CreateICmpULE(b_.CreateAdd(w_next, b_.getInt64(lanes)), n), wide, rest);

    return ir::Unit{};
  }

  // A loop-free body for several evaluations at once: each step for every
  // lane before the next step, each lane with leaves of its own. The lanes'
  // output leaves, or what cannot be lowered.
  ir::Expected<std::vector<Leaves>, std::string> emit_lanes(const std::vector<Leaves>& inputs) {
    const ir::FuncDef& fd = ir_.func(f_);
    std::vector<std::vector<Leaves>> lane_leaves;
    for (const Leaves& in : inputs) {
      init_constants();
      leaves_[fd.input.v] = in;
      lane_leaves.push_back(leaves_);
    }
    for (const ir::ExecStep& st : plan_.blocks[0])
      for (std::vector<Leaves>& lane : lane_leaves) {
        std::swap(leaves_, lane);
        auto r = emit_morphism(ir_.morphism(ir::MorphismId(st.id)));
        std::swap(leaves_, lane);
        if (!r) return r.error();
      }
    std::vector<Leaves> outputs;
    for (const std::vector<Leaves>& lane : lane_leaves) outputs.push_back(lane[fd.output.v]);
    return outputs;
  }

  ir::Expected<ir::Unit, std::string> emit_steps(uint32_t block, size_t from, size_t to) {
    for (size_t k = from; k < to; ++k) {
      const ir::ExecStep st = plan_.blocks[block][k];
      if (st.is_loop) {
        if (auto r = emit_loop(st.id); !r) return r;
      } else {
        if (auto r = emit_morphism(ir_.morphism(ir::MorphismId(st.id))); !r) return r;
      }
    }
    return ir::Unit{};
  }

  ir::Expected<ir::Unit, std::string> emit_block(uint32_t block) {
    return emit_steps(block, 0, plan_.blocks[block].size());
  }

  // header: the state's phis, the head, the guard; body: the rest, then back to the header.
  // Loops nest at most as deep as the source's blocks, which the parser bounds.
  ir::Expected<ir::Unit, std::string> emit_loop(uint32_t li) {
    const ir::LoopPlan& lp = plan_.loops[li];
    const uint32_t block = li + 1;
    auto* header = llvm::BasicBlock::Create(ctx_, "loop" + std::to_string(li), fn_);
    auto* body = llvm::BasicBlock::Create(ctx_, "body" + std::to_string(li), fn_);
    auto* exit = llvm::BasicBlock::Create(ctx_, "exit" + std::to_string(li), fn_);
    llvm::BasicBlock* pre = b_.GetInsertBlock();
    const Leaves init = leaves_[lp.init.v];
    b_.CreateBr(header);
    b_.SetInsertPoint(header);
    llvm::PHINode* count = b_.CreatePHI(b_.getInt64Ty(), 2, "iterations");  // back edges taken, as the interpreter counts
    count->addIncoming(b_.getInt64(0), pre);
    Leaves state;
    for (llvm::Value* v : init) {
      llvm::PHINode* phi = b_.CreatePHI(v->getType(), 2);
      phi->addIncoming(v, pre);
      state.push_back(phi);
    }
    leaves_[lp.merge.v] = state;
    if (auto r = emit_steps(block, 0, plan_.heads[block]); !r) return r;
    b_.CreateCondBr(leaves_[lp.cond.v].at(0), body, exit);
    b_.SetInsertPoint(body);
    if (auto r = emit_steps(block, plan_.heads[block], plan_.blocks[block].size()); !r) return r;
    const Leaves next = component(lp.back_route, 0);
    llvm::Value* taken = b_.CreateAdd(count, b_.getInt64(1));
    auto* latch = llvm::BasicBlock::Create(ctx_, "latch" + std::to_string(li), fn_);
    b_.CreateCondBr(b_.CreateICmpUGT(taken, b_.getInt64(ir::kMaxLoopIterations)), stop_, latch);
    b_.SetInsertPoint(latch);
    count->addIncoming(taken, latch);
    for (size_t k = 0; k < state.size(); ++k) llvm::cast<llvm::PHINode>(state[k])->addIncoming(next[k], latch);
    b_.CreateBr(header);
    b_.SetInsertPoint(exit);
    leaves_[lp.merge.v] = state;  // what the exit reads: the state whose guard failed
    return ir::Unit{};
  }

  // ---- one morphism ----

  ir::Expected<ir::Unit, std::string> emit_morphism(const ir::Morphism& m) {
    const Ty& src_ty = ir_.object(m.source).ty;
    const Ty& dst_ty = ir_.object(m.target).ty;
    Leaves& dst = leaves_[m.target.v];
    switch (m.op.kind) {
      case OpKind::Pair: {
        const auto [start, count] = component_range(dst_ty, m.op.slot());
        const Leaves src = leaves_[m.source.v];
        for (size_t k = 0; k < count; ++k) dst[start + k] = src[k];
        return ir::Unit{};
      }
      case OpKind::Proj: dst = component(m.source, m.op.index()); return ir::Unit{};
      case OpKind::Output: dst = leaves_[m.source.v]; return ir::Unit{};
      case OpKind::LoopExit: dst = component(m.source, 0); return ir::Unit{};
      case OpKind::Phi: {
        const Leaves t = component(m.source, 0), f = component(m.source, 1);
        llvm::Value* c = component(m.source, 2).at(0);
        for (size_t k = 0; k < t.size(); ++k) dst[k] = b_.CreateSelect(c, t[k], f[k]);
        return ir::Unit{};
      }
      case OpKind::Cast: dst = {cast(leaves_[m.source.v].at(0), src_ty, dst_ty)}; return ir::Unit{};
      case OpKind::Neg:
      case OpKind::Not:
      case OpKind::Popcount:
      case OpKind::Clz:
      case OpKind::Ctz:
      case OpKind::Sqrt: case OpKind::Exp: case OpKind::Ln: case OpKind::Sin: case OpKind::Cos: case OpKind::Tan:
      case OpKind::Asin: case OpKind::Acos: case OpKind::Atan: case OpKind::Floor: case OpKind::Ceil:
      case OpKind::Round: case OpKind::Trunc: case OpKind::Abs:
        dst = {unary(m.op.kind, leaves_[m.source.v].at(0), src_ty)};
        return ir::Unit{};
      case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::Div: case OpKind::Mod:
      case OpKind::Eq: case OpKind::Neq: case OpKind::Lt: case OpKind::Gt: case OpKind::Le: case OpKind::Ge:
      case OpKind::And: case OpKind::Or: case OpKind::Xor:
      case OpKind::Shl: case OpKind::Shr: case OpKind::Rotl: case OpKind::Rotr: case OpKind::Pow: case OpKind::Atan2: {
        llvm::Value* l = component(m.source, 0).at(0);
        llvm::Value* r = component(m.source, 1).at(0);
        dst = {binary(m.op.kind, l, r, src_ty.component(0), src_ty.component(1))};
        return ir::Unit{};
      }
      case OpKind::ToStr: {
        llvm::Value* x = leaves_[m.source.v].at(0);
        dst = {string_step("polydat_rt_to_str", {b_.getInt64Ty(), b_.getInt32Ty()},
                           {pattern64(x, src_ty), b_.getInt32(static_cast<uint32_t>(src_ty.kind()))})};
        return ir::Unit{};
      }
      case OpKind::Hex:
        dst = {string_step("polydat_rt_hex", {b_.getInt64Ty()}, {pattern64(leaves_[m.source.v].at(0), src_ty)})};
        return ir::Unit{};
      case OpKind::FormatRadix:
        dst = {string_step("polydat_rt_format_radix", {b_.getInt64Ty(), b_.getInt64Ty()},
                           {pattern64(component(m.source, 0).at(0), src_ty.component(0)),
                            pattern64(component(m.source, 1).at(0), src_ty.component(1))})};
        return ir::Unit{};
      case OpKind::FormatFixed: {
        llvm::Value* x = component(m.source, 0).at(0);
        if (src_ty.component(0).kind() == TyKind::F32) x = b_.CreateFPExt(x, b_.getDoubleTy());
        dst = {string_step("polydat_rt_format_fixed", {b_.getDoubleTy(), b_.getInt64Ty()},
                           {x, pattern64(component(m.source, 1).at(0), src_ty.component(1))})};
        return ir::Unit{};
      }
      case OpKind::FormatDec:
        dst = {string_step("polydat_rt_format_dec", {b_.getInt64Ty(), b_.getInt64Ty()},
                           {pattern64(component(m.source, 0).at(0), src_ty.component(0)),
                            pattern64(component(m.source, 1).at(0), src_ty.component(1))})};
        return ir::Unit{};
      case OpKind::Concat: {
        llvm::Type* p = llvm::PointerType::get(ctx_, 0);
        dst = {string_step("polydat_rt_concat", {p, p},
                           {spill(component(m.source, 0).at(0)), spill(component(m.source, 1).at(0))})};
        return ir::Unit{};
      }
      case OpKind::LibFn:
        dst = {library_call(m, src_ty)};
        return ir::Unit{};
      case OpKind::Rom:
        dst = {rom_lookup(ir_.rom(m.op.rom()), leaves_[m.source.v].at(0))};
        return ir::Unit{};
      // The loop's own edges are the loop emitter's, and run() refused calls (optimize() inlines them):
      // every operation has a case, so a new one is a compile error here.
      case OpKind::LoopEnter: case OpKind::LoopBack: case OpKind::Call:
        return "the operation " + std::string(ir::op_name(m.op.kind)) + " has no native lowering";
    }
    return std::string("an operation outside the registry");
  }

  // entries[index % size] from a private constant array.
  llvm::Value* rom_lookup(const ir::RomTable& t, llvm::Value* index) {
    llvm::Type* elem = llvm_type(t.element);
    std::vector<llvm::Constant*> entries;
    for (const ir::Value& v : t.entries) entries.push_back(llvm::cast<llvm::Constant>(constant(t.element, v.bits())));
    auto* array_ty = llvm::ArrayType::get(elem, entries.size());
    auto* g = new llvm::GlobalVariable(mod_, array_ty, true, llvm::GlobalValue::PrivateLinkage,
                                       llvm::ConstantArray::get(array_ty, entries), "rom");
    g->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    llvm::Value* i = b_.CreateURem(b_.CreateZExt(index, b_.getInt64Ty()), b_.getInt64(entries.size()));
    return b_.CreateLoad(elem, b_.CreateInBoundsGEP(array_ty, g, {b_.getInt64(0), i}));
  }

  // A library function through the runtime, which calls the interpreter's eval:
  // the arguments go as an array of PolydatLibArg.
  llvm::Value* library_call(const ir::Morphism& m, const Ty& src_ty) {
    const std::vector<Ty> args = ir::library_args(src_ty);
    llvm::Type* ptr = llvm::PointerType::get(ctx_, 0);
    llvm::StructType* arg_ty = llvm::StructType::get(ctx_, {b_.getInt64Ty(), ptr, b_.getInt64Ty(), b_.getInt32Ty()});
    llvm::Value* array = entry_alloca(llvm::ArrayType::get(arg_ty, std::max<size_t>(args.size(), 1)));
    for (size_t i = 0; i < args.size(); ++i) {
      llvm::Value* x = src_ty.kind() == TyKind::Tuple ? component(m.source, i).at(0) : leaves_[m.source.v].at(0);
      auto field = [&](unsigned f) { return b_.CreateConstInBoundsGEP2_32(arg_ty, array, static_cast<unsigned>(i), f); };
      llvm::Value* at = b_.CreateConstInBoundsGEP1_32(arg_ty, array, static_cast<unsigned>(i));
      b_.CreateStore(llvm::Constant::getNullValue(arg_ty), at);
      if (args[i].is_str()) {
        b_.CreateStore(b_.CreateExtractValue(x, 0), field(1));
        b_.CreateStore(b_.CreateExtractValue(x, 1), field(2));
      } else {
        b_.CreateStore(pattern64(x, args[i]), field(0));
      }
      b_.CreateStore(b_.getInt32(static_cast<uint32_t>(args[i].kind())), field(3));
    }
    llvm::Value* fn = b_.getInt32(m.op.library_fn());
    llvm::Value* n = b_.getInt32(static_cast<uint32_t>(args.size()));
    const Ty result = ir_.object(m.target).ty;
    if (result.is_str()) return string_step("polydat_rt_library_str", {b_.getInt32Ty(), ptr, b_.getInt32Ty()}, {fn, array, n});
    llvm::FunctionCallee bits_fn = mod_.getOrInsertFunction(
        "polydat_rt_library_bits", llvm::FunctionType::get(b_.getInt64Ty(), {b_.getInt32Ty(), ptr, b_.getInt32Ty()}, false));
    llvm::Value* bits = b_.CreateCall(bits_fn, {fn, array, n});
    if (result.kind() == TyKind::Bool) return b_.CreateTrunc(bits, b_.getInt1Ty());
    return result.kind() == TyKind::F64 ? b_.CreateBitCast(bits, b_.getDoubleTy()) : bits;
  }

  // A scalar's bit pattern zero-extended to 64 bits, as ir::Value keeps it.
  llvm::Value* pattern64(llvm::Value* x, const Ty& t) {
    if (t.kind() == TyKind::F32) x = b_.CreateBitCast(x, b_.getInt32Ty());
    if (t.kind() == TyKind::F64) x = b_.CreateBitCast(x, b_.getInt64Ty());
    return b_.CreateZExt(x, b_.getInt64Ty());
  }

  llvm::Value* intrinsic(llvm::Intrinsic::ID id, llvm::ArrayRef<llvm::Type*> types, llvm::ArrayRef<llvm::Value*> args) {
    return b_.CreateCall(llvm::Intrinsic::getDeclaration(&mod_, id, types), args);
  }

  // A call of the C library's function, as the interpreter makes it: nobuiltin
  // keeps LLVM from folding or rewriting it (pow(x, 0.5) into sqrt rounds
  // differently), so both engines run the same code.
  llvm::Value* libm(const char* name, llvm::ArrayRef<llvm::Value*> args) {
    llvm::Type* ty = args.front()->getType();
    std::vector<llvm::Type*> params(args.size(), ty);
    llvm::CallInst* call = b_.CreateCall(mod_.getOrInsertFunction(name, llvm::FunctionType::get(ty, params, false)), args);
    call->addFnAttr(llvm::Attribute::NoBuiltin);
    return call;
  }

  llvm::Value* unary(OpKind op, llvm::Value* x, const Ty& t) {
    switch (op) {
      case OpKind::Neg: return t.is_float() ? b_.CreateFNeg(x) : b_.CreateNeg(x);
      case OpKind::Not: return b_.CreateNot(x);
      case OpKind::Popcount: return intrinsic(llvm::Intrinsic::ctpop, {x->getType()}, {x});
      case OpKind::Clz: return intrinsic(llvm::Intrinsic::ctlz, {x->getType()}, {x, b_.getFalse()});
      case OpKind::Ctz: return intrinsic(llvm::Intrinsic::cttz, {x->getType()}, {x, b_.getFalse()});
      // Exact in IEEE arithmetic, so LLVM's intrinsics give the C library's bits.
      case OpKind::Sqrt: return intrinsic(llvm::Intrinsic::sqrt, {x->getType()}, {x});
      case OpKind::Floor: return intrinsic(llvm::Intrinsic::floor, {x->getType()}, {x});
      case OpKind::Ceil: return intrinsic(llvm::Intrinsic::ceil, {x->getType()}, {x});
      case OpKind::Round: return intrinsic(llvm::Intrinsic::round, {x->getType()}, {x});
      case OpKind::Trunc: return intrinsic(llvm::Intrinsic::trunc, {x->getType()}, {x});
      case OpKind::Abs: return intrinsic(llvm::Intrinsic::fabs, {x->getType()}, {x});
      case OpKind::Exp: return libm(t.kind() == TyKind::F32 ? "expf" : "exp", {x});
      case OpKind::Ln: return libm(t.kind() == TyKind::F32 ? "logf" : "log", {x});
      case OpKind::Sin: return libm(t.kind() == TyKind::F32 ? "sinf" : "sin", {x});
      case OpKind::Cos: return libm(t.kind() == TyKind::F32 ? "cosf" : "cos", {x});
      case OpKind::Tan: return libm(t.kind() == TyKind::F32 ? "tanf" : "tan", {x});
      case OpKind::Asin: return libm(t.kind() == TyKind::F32 ? "asinf" : "asin", {x});
      case OpKind::Acos: return libm(t.kind() == TyKind::F32 ? "acosf" : "acos", {x});
      case OpKind::Atan: return libm(t.kind() == TyKind::F32 ? "atanf" : "atan", {x});
      default: return x;
    }
  }

  llvm::Value* binary(OpKind op, llvm::Value* l, llvm::Value* r, const Ty& lt, const Ty& rt) {
    if (lt.is_float()) return float_binary(op, l, r, lt);
    switch (op) {
      case OpKind::Add: return b_.CreateAdd(l, r);
      case OpKind::Sub: return b_.CreateSub(l, r);
      case OpKind::Mul: return b_.CreateMul(l, r);
      case OpKind::Div: case OpKind::Mod: return divide(op, l, r, lt);
      case OpKind::And: return b_.CreateAnd(l, r);
      case OpKind::Or: return b_.CreateOr(l, r);
      case OpKind::Xor: return b_.CreateXor(l, r);
      case OpKind::Eq: return b_.CreateICmpEQ(l, r);
      case OpKind::Neq: return b_.CreateICmpNE(l, r);
      case OpKind::Lt: return lt.is_signed_int() ? b_.CreateICmpSLT(l, r) : b_.CreateICmpULT(l, r);
      case OpKind::Gt: return lt.is_signed_int() ? b_.CreateICmpSGT(l, r) : b_.CreateICmpUGT(l, r);
      case OpKind::Le: return lt.is_signed_int() ? b_.CreateICmpSLE(l, r) : b_.CreateICmpULE(l, r);
      case OpKind::Ge: return lt.is_signed_int() ? b_.CreateICmpSGE(l, r) : b_.CreateICmpUGE(l, r);
      case OpKind::Shl: case OpKind::Shr: case OpKind::Rotl: case OpKind::Rotr:
        return shift(op, l, b_.CreateZExt(r, b_.getInt64Ty()), lt, rt);
      case OpKind::Pow: return int_pow(l, b_.CreateZExt(r, b_.getInt64Ty()));
      default: return l;
    }
  }

  // No fast-math flags anywhere: IEEE results bit for bit; frem is C's fmod.
  llvm::Value* float_binary(OpKind op, llvm::Value* l, llvm::Value* r, const Ty& t) {
    switch (op) {
      case OpKind::Add: return b_.CreateFAdd(l, r);
      case OpKind::Sub: return b_.CreateFSub(l, r);
      case OpKind::Mul: return b_.CreateFMul(l, r);
      case OpKind::Div: return b_.CreateFDiv(l, r);
      case OpKind::Mod: return b_.CreateFRem(l, r);
      case OpKind::Pow: return libm(t.kind() == TyKind::F32 ? "powf" : "pow", {l, r});
      case OpKind::Atan2: return libm(t.kind() == TyKind::F32 ? "atan2f" : "atan2", {l, r});
      case OpKind::Eq: return b_.CreateFCmpOEQ(l, r);
      case OpKind::Neq: return b_.CreateFCmpUNE(l, r);
      case OpKind::Lt: return b_.CreateFCmpOLT(l, r);
      case OpKind::Gt: return b_.CreateFCmpOGT(l, r);
      case OpKind::Le: return b_.CreateFCmpOLE(l, r);
      case OpKind::Ge: return b_.CreateFCmpOGE(l, r);
      default: return l;
    }
  }

  // RISC-V: x / 0 is all ones, x % 0 is x; signed MIN / -1 is MIN, MIN % -1 is 0.
  // The divisor the instruction sees is never 0 nor (for MIN) -1, which LLVM leaves undefined;
  // MIN / 1 and MIN % 1 are then exactly the RISC-V answers.
  llvm::Value* divide(OpKind op, llvm::Value* l, llvm::Value* r, const Ty& t) {
    auto* ty = llvm::cast<llvm::IntegerType>(l->getType());
    llvm::Value* zero = llvm::ConstantInt::get(ty, 0);
    llvm::Value* one = llvm::ConstantInt::get(ty, 1);
    llvm::Value* by_zero = b_.CreateICmpEQ(r, zero);
    llvm::Value* unsafe = by_zero;
    if (t.is_signed_int()) {
      llvm::Value* min = llvm::ConstantInt::get(ty, llvm::APInt::getSignedMinValue(ty->getBitWidth()));
      llvm::Value* overflow = b_.CreateAnd(b_.CreateICmpEQ(l, min), b_.CreateICmpEQ(r, llvm::ConstantInt::getSigned(ty, -1)));
      unsafe = b_.CreateOr(by_zero, overflow);
    }
    llvm::Value* divisor = b_.CreateSelect(unsafe, one, r);
    llvm::Value* q;
    if (op == OpKind::Div) q = t.is_signed_int() ? b_.CreateSDiv(l, divisor) : b_.CreateUDiv(l, divisor);
    else q = t.is_signed_int() ? b_.CreateSRem(l, divisor) : b_.CreateURem(l, divisor);
    llvm::Value* zero_case = op == OpKind::Div ? llvm::ConstantInt::getAllOnesValue(ty) : l;
    return b_.CreateSelect(by_zero, zero_case, q);
  }

  // Shift amounts are the right operand's unsigned value (zero-extended to 64 bits
  // here); at or beyond the width a shift gives 0, or the sign for >> on signed.
  llvm::Value* shift(OpKind op, llvm::Value* x, llvm::Value* amount64, const Ty& t, const Ty&) {
    const unsigned w = t.bits();
    llvm::Type* ty = x->getType();
    if (op == OpKind::Rotl || op == OpKind::Rotr) {
      llvm::Value* k = b_.CreateTrunc(b_.CreateURem(amount64, b_.getInt64(w)), ty);
      return intrinsic(op == OpKind::Rotl ? llvm::Intrinsic::fshl : llvm::Intrinsic::fshr, {ty}, {x, x, k});
    }
    llvm::Value* far = b_.CreateICmpUGE(amount64, b_.getInt64(w));
    llvm::Value* k = b_.CreateTrunc(b_.CreateSelect(far, b_.getInt64(0), amount64), ty);
    if (op == OpKind::Shl) return b_.CreateSelect(far, llvm::ConstantInt::get(ty, 0), b_.CreateShl(x, k));
    if (t.is_signed_int()) {
      llvm::Value* fill = b_.CreateAShr(x, llvm::ConstantInt::get(ty, w - 1));
      return b_.CreateSelect(far, fill, b_.CreateAShr(x, k));
    }
    return b_.CreateSelect(far, llvm::ConstantInt::get(ty, 0), b_.CreateLShr(x, k));
  }

  // x ** e by squaring, wrapping at the width: a small loop the optimiser unrolls for constants.
  llvm::Value* int_pow(llvm::Value* base, llvm::Value* exp) {
    llvm::Type* ty = base->getType();
    llvm::BasicBlock* pre = b_.GetInsertBlock();
    auto* loop = llvm::BasicBlock::Create(ctx_, "pow", fn_);
    auto* done = llvm::BasicBlock::Create(ctx_, "pow_done", fn_);
    b_.CreateBr(loop);
    b_.SetInsertPoint(loop);
    llvm::PHINode* acc = b_.CreatePHI(ty, 2);
    llvm::PHINode* bb = b_.CreatePHI(ty, 2);
    llvm::PHINode* e = b_.CreatePHI(b_.getInt64Ty(), 2);
    acc->addIncoming(llvm::ConstantInt::get(ty, 1), pre);
    bb->addIncoming(base, pre);
    e->addIncoming(exp, pre);
    llvm::Value* odd = b_.CreateICmpNE(b_.CreateAnd(e, b_.getInt64(1)), b_.getInt64(0));
    llvm::Value* acc2 = b_.CreateSelect(odd, b_.CreateMul(acc, bb), acc);
    llvm::Value* b2 = b_.CreateMul(bb, bb);
    llvm::Value* e2 = b_.CreateLShr(e, b_.getInt64(1));
    acc->addIncoming(acc2, loop);
    bb->addIncoming(b2, loop);
    e->addIncoming(e2, loop);
    // The loop body runs at least once: exp 0 gives acc = 1 (odd is false).
    b_.CreateCondBr(b_.CreateICmpEQ(e2, b_.getInt64(0)), done, loop);
    b_.SetInsertPoint(done);
    return acc2;
  }

  llvm::Value* cast(llvm::Value* x, const Ty& from, const Ty& to) {
    llvm::Type* tt = llvm_type(to);
    if (to.is_bool()) {
      if (from.is_float()) return b_.CreateFCmpUNE(x, llvm::ConstantFP::get(x->getType(), 0.0));
      return b_.CreateICmpNE(x, llvm::ConstantInt::get(x->getType(), 0));
    }
    if (to.is_int()) {
      if (from.is_float())  // saturating, NaN to 0: exactly LLVM's fpto[su]i.sat
        return intrinsic(to.is_signed_int() ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat, {tt, x->getType()},
                         {x});
      return from.is_signed_int() ? b_.CreateSExtOrTrunc(x, tt) : b_.CreateZExtOrTrunc(x, tt);
    }
    if (from.is_float()) return from.kind() == to.kind() ? x : b_.CreateFPCast(x, tt);
    return from.is_signed_int() ? b_.CreateSIToFP(x, tt) : b_.CreateUIToFP(x, tt);
  }

  llvm::LLVMContext& ctx_;
  llvm::Module& mod_;
  llvm::IRBuilder<> b_;
  const ir::CategoryIr& ir_;
  ir::FuncId f_;
  const KernelSymbols& symbols_;
  const LowerOptions& options_;
  // Per leaf of the input record: its value for the whole batch, when it is batch-invariant.
  std::vector<llvm::Value*> invariant_leaves_;
  ir::ExecPlan plan_;
  std::vector<Leaves> leaves_;  // per object id: its scalar leaves' current SSA values
  llvm::Function* fn_ = nullptr;
  llvm::BasicBlock* stop_ = nullptr;  // returns the index of the evaluation stopped by the iteration limit
  llvm::Value* index_ = nullptr;      // the evaluation being computed
  static constexpr uint64_t kLanes = 4;  // evaluations side by side in a loop-free kernel
  static constexpr uint64_t kStoreBytes = sizeof(PolydatStore);
  static constexpr uint64_t kScratchBytes = sizeof(PolydatScratch);
  llvm::Value* state_ = nullptr;  // the caller's state: where the store and the scratches live
  llvm::Value* store_ = nullptr;  // the state, when the kernel has string outputs
  size_t scratch_count_ = 0;      // one scratch per string-producing step
  llvm::StructType* str_ty_ = nullptr;
};

}  // namespace

ir::Expected<std::unique_ptr<llvm::Module>, std::string> lower_kernel(llvm::LLVMContext& ctx, const ir::CategoryIr& ir,
                                                                      ir::FuncId f, const std::string& module_name,
                                                                      const KernelSymbols& symbols,
                                                                      const LowerOptions& options) {
  auto mod = std::make_unique<llvm::Module>(module_name, ctx);
  Lowerer l(ctx, *mod, ir, f, symbols, options);
  if (auto r = l.run(); !r) return r.error();
  return mod;
}

}  // namespace polydat::sim
