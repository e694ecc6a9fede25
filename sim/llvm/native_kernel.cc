#include "sim/llvm/native_kernel.h"

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/Mangling.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include <xxhash.h>

#include <map>
#include <mutex>

#include "ir/text_dump.h"
#include "sim/llvm/codegen_internal.h"
#include "sim/llvm/lower.h"
#include "sim/llvm/runtime.h"

namespace polydat::sim {

struct NativeKernel::Jit {
  std::unique_ptr<llvm::orc::LLJIT> lljit;
};

NativeKernel::~NativeKernel() {
  if (release_) release_();
}

ir::Expected<std::unique_ptr<NativeKernel>, std::string> NativeKernel::compile(const ir::CategoryIr& ir, ir::FuncId f,
                                                                               const LowerOptions& options) {
  init_llvm();
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) return "no native target: " + error_text(jtmb.takeError());
  jtmb->getOptions().AllowFPOpFusion = llvm::FPOpFusion::Strict;  // a * b + c is never fused
  // LLVM 15's instruction selection aborts on some AVX-512 FP16 shuffles
  // (llvm-project#59628, fixed later): never use that extension.
  jtmb->getFeatures().AddFeature("avx512fp16", false);
  jtmb->setCodeGenOptLevel(llvm::CodeGenOpt::Default);
  auto tm = jtmb->createTargetMachine();
  if (!tm) return "no target machine: " + error_text(tm.takeError());

  auto ctx = std::make_unique<llvm::LLVMContext>();
  const KernelSymbols entry(kJitPrefix);
  auto mod = lower_kernel(*ctx, ir, f, ir.func(f).name, entry, options);
  if (!mod) return mod.error();
  (*mod)->setDataLayout((*tm)->createDataLayout());
  (*mod)->setTargetTriple((*tm)->getTargetTriple().str());
  optimize_o2(**mod, tm->get());

  auto lljit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*jtmb)).create();
  if (!lljit) return "cannot start the JIT: " + error_text(lljit.takeError());
  // libm (pow, fmod) from this process.
  auto gen = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess((*lljit)->getDataLayout().getGlobalPrefix());
  if (!gen) return "cannot search this process's symbols: " + error_text(gen.takeError());
  (*lljit)->getMainJITDylib().addGenerator(std::move(*gen));
  // The string helpers, by address (the process need not export them).
  llvm::orc::SymbolMap runtime;
  llvm::orc::MangleAndInterner mangle((*lljit)->getExecutionSession(), (*lljit)->getDataLayout());
  size_t count = 0;
  const RuntimeSymbol* symbols = runtime_symbols(count);
  for (size_t i = 0; i < count; ++i)
    runtime[mangle(symbols[i].name)] = llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(symbols[i].address),
                                                                llvm::JITSymbolFlags::Exported);
  if (auto e = (*lljit)->getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(runtime))))
    return "cannot define the runtime: " + error_text(std::move(e));
  if (auto e = (*lljit)->addIRModule(llvm::orc::ThreadSafeModule(std::move(*mod), std::move(ctx))))
    return "the JIT refused the module: " + error_text(std::move(e));
  std::unique_ptr<NativeKernel> k(new NativeKernel());
  std::string missing;
  auto lookup = [&](const std::string& name, auto& fn) {
    auto found = (*lljit)->lookup(name);
    if (!found) missing = error_text(found.takeError());
    else fn = found->toPtr<std::remove_reference_t<decltype(fn)>>();
    return static_cast<bool>(found);
  };
  size_t (*state_size)() = nullptr;
  if (!lookup(entry.run, k->run_) || !lookup(entry.release, k->release_) || !lookup(entry.run_state, k->run_state_) ||
      !lookup(entry.release_state, k->release_state_) || !lookup(entry.state_size, state_size))
    return "the JIT could not compile the kernel: " + missing;
  k->state_size_ = state_size();
  k->jit_ = std::make_unique<Jit>(Jit{std::move(*lljit)});
  k->in_ty_ = ir.object(ir.func(f).input).ty;
  k->out_ty_ = ir.object(ir.func(f).output).ty;
  k->in_ = record_layout(k->in_ty_);
  k->out_ = record_layout(k->out_ty_);
  return k;
}

ir::Expected<std::shared_ptr<const NativeKernel>, std::string> NativeKernel::cached(const ir::CategoryIr& ir,
                                                                                    ir::FuncId f) {
  static std::mutex mutex;
  static std::map<std::pair<uint64_t, uint32_t>, std::shared_ptr<const NativeKernel>> kernels;
  const std::string text = ir::to_text(ir);
  const std::pair<uint64_t, uint32_t> key{XXH3_64bits(text.data(), text.size()), f.v};
  const std::lock_guard<std::mutex> lock(mutex);
  if (auto it = kernels.find(key); it != kernels.end()) return it->second;
  auto k = compile(ir, f);
  if (!k) return k.error();
  std::shared_ptr<const NativeKernel> shared(std::move(*k));
  kernels.emplace(key, shared);
  return shared;
}

std::vector<ir::Value> NativeKernel::evaluate(const std::vector<ir::Value>& inputs) const {
  const size_t n = inputs.size();
  RecordBuffer in, out;
  unsigned char* in_bytes = in.at(in_.size, n);
  unsigned char* out_bytes = out.at(out_.size, n);
  for (size_t i = 0; i < n; ++i) store_record(in_, inputs[i], in_bytes + i * in_.size);
  const size_t done = run(in_bytes, out_bytes, n);
  std::vector<ir::Value> results;
  for (size_t i = 0; i < done; ++i) results.push_back(load_record(out_, out_ty_, out_bytes + i * out_.size));
  return results;
}

}  // namespace polydat::sim
