#include "cli/eval_engines.h"

#include <fmt/core.h>

#include <cstring>

#include "cli/flow.h"
#include "ir/interp.h"
#include "sim/llvm/native_kernel.h"

namespace polydat::cli {

namespace {

const ir::Ty& entry_input(const ir::CategoryIr& g) { return g.object(g.func(g.entry()).input).ty; }
const ir::Ty& entry_output(const ir::CategoryIr& g) { return g.object(g.func(g.entry()).output).ty; }

using sim::RecordBuffer;

// What the interpreter says about the evaluation at `cycle`, as eval prints it.
std::string interpreter_error(const frontend::CompileResult& r, const ir::InterpError& e, uint64_t cycle) {
  const std::string message = e.message + " (at cycle " + std::to_string(cycle) + ")";
  const std::string kind(ir::interp_error_name(e.kind));
  if (e.loc.line && e.loc.file < r.program->sources.size())
    return frontend::render_error_at(r.program->sources, frontend::Span{e.loc.file, e.loc.start, e.loc.end}, message,
                                     kind);
  return fmt::format("error: {} [{}]\n", message, kind);
}

class InterpreterEvaluator : public RowEvaluator {
 public:
  InterpreterEvaluator(const frontend::CompileResult& r, const Stimulus& s, uint64_t first_cycle,
                       const sim::RecordLayout& out)
      : r_(r), stimulus_(s), first_cycle_(first_cycle), out_(out), interp_(*r.ir) {}

  ChunkResult evaluate(uint64_t first_row, size_t count) override {
    ChunkResult result;
    results_.clear();
    unsigned char* recs = buffer_.at(out_.size, count);
    result.records = recs;
    for (size_t i = 0; i < count; ++i) {
      const uint64_t cycle = first_cycle_ + first_row + i;
      auto input = stimulus_.record_at(cycle, entry_input(*r_.ir));
      if (!input) {
        result.error = "error: " + input.error() + "\n";
        return result;
      }
      auto out = interp_.run(*input);
      if (!out) {
        result.error = interpreter_error(r_, out.error(), cycle);
        return result;
      }
      results_.push_back(std::move(*out));  // the records' strings point into it
      sim::store_record(out_, results_.back(), recs + i * out_.size);
      result.done = i + 1;
    }
    return result;
  }

 private:
  const frontend::CompileResult& r_;
  const Stimulus& stimulus_;
  uint64_t first_cycle_;
  const sim::RecordLayout& out_;
  ir::Interpreter interp_;
  std::vector<ir::Value> results_;
  RecordBuffer buffer_;
};

class InterpreterRows : public EvalEngine {
 public:
  InterpreterRows(const frontend::CompileResult& r, const Stimulus& s, uint64_t first_cycle)
      : r_(r), stimulus_(s), first_cycle_(first_cycle), out_(sim::record_layout(entry_output(*r.ir))) {}
  std::unique_ptr<RowEvaluator> evaluator() const override {
    return std::make_unique<InterpreterEvaluator>(r_, stimulus_, first_cycle_, out_);
  }
  const sim::RecordLayout& outputs() const override { return out_; }

 private:
  const frontend::CompileResult& r_;
  const Stimulus& stimulus_;
  uint64_t first_cycle_;
  sim::RecordLayout out_;
};

// The iterated input as an integer field of the input record: rows then differ
// from a template record only in those bytes.
struct IteratedField {
  size_t offset = 0, size = 0;
};

class NativeEvaluator : public RowEvaluator {
 public:
  NativeEvaluator(const frontend::CompileResult& r, const Stimulus& s, uint64_t first_cycle,
                  const sim::NativeKernel& k, std::optional<IteratedField> iterated)
      : r_(r), stimulus_(s), first_cycle_(first_cycle), kernel_(k), state_(k.make_state()), iterated_(iterated) {}

  ChunkResult evaluate(uint64_t first_row, size_t count) override {
    ChunkResult result;
    const sim::RecordLayout& in = kernel_.inputs();
    unsigned char* ins = in_.at(in.size, count);
    unsigned char* outs = out_.at(kernel_.outputs().size, count);
    result.records = outs;
    const uint64_t first = first_cycle_ + first_row;
    // Every cycle fits when the last does (they only grow): fill the template's iterated bytes.
    if (iterated_ && count && stimulus_.values_at(first + count - 1)) {
      auto t = stimulus_.record_at(first, entry_input(*r_.ir));
      template_ = std::move(*t);
      sim::store_record(in, template_, ins);
      for (size_t i = 1; i < count; ++i) std::memcpy(ins + i * in.size, ins, in.size);
      for (size_t i = 0; i < count; ++i) {
        const uint64_t cycle = first + i;
        std::memcpy(ins + i * in.size + iterated_->offset, &cycle, iterated_->size);  // little-endian: the low bytes
      }
    } else {
      inputs_.clear();
      for (size_t i = 0; i < count; ++i) {
        auto input = stimulus_.record_at(first + i, entry_input(*r_.ir));
        if (!input) {
          result.done = run(ins, outs, i);
          if (result.done == i) result.error = "error: " + input.error() + "\n";
          else result.error = stop_error(first + result.done);
          return result;
        }
        inputs_.push_back(std::move(*input));  // the input records' strings point into it
        sim::store_record(in, inputs_.back(), ins + i * in.size);
      }
    }
    result.done = run(ins, outs, count);
    if (result.done < count) result.error = stop_error(first + result.done);
    return result;
  }

 private:
  size_t run(const unsigned char* ins, unsigned char* outs, size_t n) { return kernel_.run(state_, ins, outs, n); }

  // Stopped at the iteration limit: the interpreter's rule, so it reports the same error.
  std::string stop_error(uint64_t cycle) const {
    auto input = stimulus_.record_at(cycle, entry_input(*r_.ir));
    ir::Interpreter interp(*r_.ir);
    auto out = interp.run(*input);
    if (out) return "error: internal: the llvm engine stopped, the interpreter did not\n";
    return interpreter_error(r_, out.error(), cycle);
  }

  const frontend::CompileResult& r_;
  const Stimulus& stimulus_;
  uint64_t first_cycle_;
  const sim::NativeKernel& kernel_;
  sim::NativeKernel::State state_;
  std::optional<IteratedField> iterated_;
  ir::Value template_;
  std::vector<ir::Value> inputs_;
  RecordBuffer in_, out_;
};

class NativeRows : public EvalEngine {
 public:
  NativeRows(const frontend::CompileResult& r, const Stimulus& s, uint64_t first_cycle,
               std::unique_ptr<sim::NativeKernel> k)
      : r_(r), stimulus_(s), first_cycle_(first_cycle), kernel_(std::move(k)) {
    if (!s.iterated()) return;
    const frontend::Port& p = r.kernel().params[*s.iterated()];
    if (!p.ty.is_int()) return;
    for (const sim::RecordField& f : kernel_->inputs().fields)
      if (f.name == p.name && f.kind == p.ty.kind()) iterated_ = IteratedField{f.offset, f.size};
  }
  std::unique_ptr<RowEvaluator> evaluator() const override {
    return std::make_unique<NativeEvaluator>(r_, stimulus_, first_cycle_, *kernel_, iterated_);
  }
  const sim::RecordLayout& outputs() const override { return kernel_->outputs(); }

 private:
  const frontend::CompileResult& r_;
  const Stimulus& stimulus_;
  uint64_t first_cycle_;
  std::unique_ptr<sim::NativeKernel> kernel_;
  std::optional<IteratedField> iterated_;
};

}  // namespace

std::unique_ptr<EvalEngine> interpreter_engine(const frontend::CompileResult& r, const Stimulus& stimulus,
                                               uint64_t first_cycle) {
  return std::make_unique<InterpreterRows>(r, stimulus, first_cycle);
}

std::unique_ptr<EvalEngine> llvm_engine(const frontend::CompileResult& r, const Stimulus& stimulus,
                                        uint64_t first_cycle) {
  auto optimized_kernel = optimized(r);
  if (!optimized_kernel) return nullptr;
  const ir::CategoryIr* opt = &optimized_kernel->ir;
  sim::LowerOptions lower;  // externs hold one value for the whole run: their work is done once per batch
  lower.batch_invariant = optimized_kernel->config_fields;
  auto kernel = sim::NativeKernel::compile(*opt, opt->entry(), lower);
  if (!kernel) {
    fmt::print(stderr, "error: the llvm engine cannot run this kernel: {}\n", kernel.error());
    return nullptr;
  }
  return std::make_unique<NativeRows>(r, stimulus, first_cycle, std::move(*kernel));
}

}  // namespace polydat::cli
