#include "sim/llvm/codegen.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>

#include <mutex>

#include "sim/llvm/codegen_internal.h"
#include "sim/llvm/lower.h"

namespace polydat::sim {

void init_llvm() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // X86's domain reassignment (GPR work moved to AVX-512 mask registers) is
    // quadratic in a block's length: 3 of 3.3 s compiling a 200-step chain in 4
    // lanes, for no gain on scalar integer kernels.
    const char* argv[] = {"polydat", "-disable-x86-domain-reassignment"};
    llvm::cl::ParseCommandLineOptions(2, argv, "", &llvm::nulls());
  });
}

std::string error_text(llvm::Error e) {
  std::string s;
  llvm::handleAllErrors(std::move(e), [&](const llvm::ErrorInfoBase& info) { s += info.message(); });
  return s;
}

void optimize_o2(llvm::Module& m, llvm::TargetMachine* tm) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2).run(m, mam);
}

ir::Expected<ir::Unit, std::string> write_object(const ir::CategoryIr& ir, ir::FuncId f, const std::string& prefix,
                                                 const std::filesystem::path& path) {
  init_llvm();
  const std::string triple = llvm::sys::getDefaultTargetTriple();
  std::string why;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, why);
  if (!target) return "no target for " + triple + ": " + why;
  llvm::TargetOptions options;
  options.AllowFPOpFusion = llvm::FPOpFusion::Strict;  // a * b + c is never fused
  // Position-independent, for a generic CPU of the host's architecture: the object links anywhere it runs.
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(triple, "generic", "", options, llvm::Reloc::PIC_));
  if (!tm) return "no target machine for " + triple;

  llvm::LLVMContext ctx;
  auto mod = lower_kernel(ctx, ir, f, ir.func(f).name, KernelSymbols(prefix));
  if (!mod) return mod.error();
  (*mod)->setDataLayout(tm->createDataLayout());
  (*mod)->setTargetTriple(triple);
  optimize_o2(**mod, tm.get());

  std::error_code ec;
  llvm::raw_fd_ostream out(path.string(), ec);
  if (ec) return "cannot write " + path.string() + ": " + ec.message();
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, out, nullptr, llvm::CGFT_ObjectFile))
    return std::string("the target cannot write object files");
  pm.run(**mod);
  out.flush();
  return ir::Unit{};
}

}  // namespace polydat::sim
