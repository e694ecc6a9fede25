#include "flow/engines.h"

#include "sim/interpreter_engine.h"
#include "sim/iverilog/iverilog_engine.h"
#include "sim/llvm/native_engine.h"
#include "sim/systemc/systemc_engine.h"
#include "sim/verilator/verilator_engine.h"

namespace polydat::flow {

namespace {
ir::Expected<bool, std::string> prebuild_verilator(const std::vector<sim::ModelRequest>& r, const std::filesystem::path& c) {
  return sim::prebuild_verilator_models(r, c);  // an empty folder is the default cache there
}
ir::Expected<bool, std::string> prebuild_systemc(const std::vector<sim::ModelRequest>& r, const std::filesystem::path& c) {
  return sim::prebuild_systemc_models(r, c);
}

template <class O>
O rtl_options(const EngineOptions& o) {
  O r;
  r.stall = o.stall;
  r.seed = o.seed;
  r.sv = o.sv;
  r.progress = o.progress;
  if (o.max_idle) r.max_idle = *o.max_idle;
  if (!o.cache.empty()) r.cache = o.cache;
  return r;
}

}  // namespace

const std::vector<EngineInfo>& engines() {
  static const std::vector<EngineInfo> list = {
      {"interp", EngineKind::Software, "the interpreter, the oracle", false, true, nullptr,
       [](const EngineSubject& s, const EngineOptions& o) -> std::unique_ptr<sim::Engine> {
         ir::InterpOptions limits;
         if (o.max_iterations) limits.max_iterations = *o.max_iterations;
         return std::make_unique<sim::InterpreterEngine>(*s.ir, s.config_fields, limits);
       }},
      {"llvm", EngineKind::Software, "native code through LLVM's JIT", false, false, nullptr,
       [](const EngineSubject& s, const EngineOptions&) -> std::unique_ptr<sim::Engine> {
         return std::make_unique<sim::NativeEngine>(*s.ir, s.config_fields);
       }},
      {"verilator", EngineKind::Rtl, "Verilator, a C++ testbench", true, false, prebuild_verilator,
       [](const EngineSubject& s, const EngineOptions& o) -> std::unique_ptr<sim::Engine> {
         auto r = rtl_options<sim::VerilatorOptions>(o);
         r.trace = o.trace;
         return std::make_unique<sim::VerilatorEngine>(*s.design, *s.module, std::move(r));
       }},
      {"systemc", EngineKind::Rtl, "Verilator's SystemC model, a SystemC testbench", true, false, prebuild_systemc,
       [](const EngineSubject& s, const EngineOptions& o) -> std::unique_ptr<sim::Engine> {
         auto r = rtl_options<sim::SystemCOptions>(o);
         r.trace = o.trace;
         r.kernel_file = o.kernel_file;
         r.lib_paths = o.lib_paths;
         return std::make_unique<sim::SystemCEngine>(*s.design, *s.module, std::move(r));
       }},
      {"iverilog", EngineKind::Rtl, "Icarus Verilog, a SystemVerilog testbench", false, false, nullptr,
       [](const EngineSubject& s, const EngineOptions& o) -> std::unique_ptr<sim::Engine> {
         return std::make_unique<sim::IverilogEngine>(*s.design, *s.module, rtl_options<sim::IverilogOptions>(o));
       }},
  };
  return list;
}

EngineSubject subject_of(const Optimized& kernel) { return EngineSubject{&kernel.ir, kernel.config_fields, nullptr, nullptr}; }

EngineSubject subject_of(const Emitted& kernel) {
  return EngineSubject{&kernel.ir, kernel.config_fields, &kernel.design, &kernel.module};
}

const EngineInfo* find_engine(std::string_view name) {
  for (const EngineInfo& e : engines())
    if (e.name == name) return &e;
  return nullptr;
}

std::vector<std::string> engine_names(std::optional<EngineKind> kind) {
  std::vector<std::string> names;
  for (const EngineInfo& e : engines())
    if (!kind || e.kind == *kind) names.push_back(e.name);
  return names;
}

ir::Expected<std::unique_ptr<sim::Engine>, std::string> make_engine(std::string_view name, const EngineSubject& subject,
                                                                   const EngineOptions& options) {
  const EngineInfo* e = find_engine(name);
  if (!e) return "no engine is called '" + std::string(name) + "'";
  if (!subject.ir) return "the " + e->name + " engine needs the kernel's IR";
  if (e->kind == EngineKind::Rtl && (!subject.design || !subject.module))
    return "the " + e->name + " engine needs a hardware design and its module";
  if (e->kind == EngineKind::Software && (options.stall != 0 || options.sv || options.max_idle))
    return "the " + e->name + " engine has no handshake or SystemVerilog: stalls, a planted fault and an idle limit "
           "need an RTL engine";
  if (options.max_iterations && !e->counts_iterations)
    return "the " + e->name + " engine takes no iteration limit: only the interpreter counts a loop's back edges";
  if (!options.trace.empty() && !e->traces) return "the " + e->name + " engine writes no trace";
  return e->make(subject, options);
}

}  // namespace polydat::flow
