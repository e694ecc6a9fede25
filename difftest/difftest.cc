#include "difftest/difftest.h"

#include <fmt/core.h>

#include <random>

#include "difftest/random_values.h"
#include "frontend/compile.h"
#include "hls/design.h"
#include "ir/interp.h"
#include "ir/pass_pipeline.h"
#include "rtl/emit_sv.h"
#include "sim/cosim.h"
#include "sim/interpreter_engine.h"
#include "sim/iverilog/iverilog_engine.h"
#include "sim/llvm/native_kernel.h"
#include "sim/systemc/systemc_engine.h"
#include "sim/verilator/verilator_engine.h"

namespace polydat::difftest {

namespace {

// What every engine sees: the records, and the same records split into cfg and streamed fields.
struct Stimulus {
  std::vector<ir::Value> records;  // the entry's input structs the oracle finished
  std::vector<ir::Value> expected;  // the oracle's outputs for them
  sim::Batch batch;
};

Stimulus make_stimulus(const ir::CategoryIr& front, const std::vector<bool>& config, const Options& o, size_t& dropped) {
  const ir::Ty in_ty = front.object(front.func(front.entry()).input).ty;
  std::mt19937_64 rng(o.seed);
  std::vector<ir::Value> held;  // an extern is fixed for a run: one value for the whole batch
  for (size_t f = 0; f < in_ty.arity(); ++f) held.push_back(random_scalar(in_ty.component(f), rng));
  ir::Interpreter oracle(front);
  Stimulus s;
  for (size_t i = 0; i < o.inputs; ++i) {
    std::vector<ir::Value> fields, streamed, configs;
    for (size_t f = 0; f < in_ty.arity(); ++f) {
      fields.push_back(config[f] ? held[f] : random_scalar(in_ty.component(f), rng));
      (config[f] ? configs : streamed).push_back(fields.back());
    }
    const ir::Value record = ir::Value::structure(in_ty, fields);
    auto out = oracle.run(record);
    if (!out) {
      ++dropped;
      continue;
    }
    s.records.push_back(record);
    s.expected.push_back(std::move(*out));
    s.batch.configs = configs;
    s.batch.inputs.push_back(std::move(streamed));
  }
  return s;
}

std::string values_text(const std::vector<ir::Value>& vs) {
  std::string s;
  for (const ir::Value& v : vs) s += (s.empty() ? "" : ", ") + ir::render(v);
  return "(" + s + ")";
}

// The records through a software engine's outputs, compared one by one.
EngineResult compare_records(const std::string& engine, const Stimulus& s, const std::vector<ir::Value>& got) {
  EngineResult r{engine, Verdict::Agrees, "", 0};
  for (size_t i = 0; i < s.records.size(); ++i) {
    if (i >= got.size()) {
      r.verdict = Verdict::Disagrees;
      r.detail = fmt::format("stopped at evaluation {} of {} (input {}), which the oracle finished", i,
                             s.records.size(), ir::render(s.records[i]));
      return r;
    }
    ++r.compared;
    if (got[i] == s.expected[i]) continue;
    r.verdict = Verdict::Disagrees;
    r.detail = fmt::format("input {}: the oracle gives {}, {} gives {}", ir::render(s.records[i]),
                           ir::render(s.expected[i]), engine, ir::render(got[i]));
    return r;
  }
  return r;
}

EngineResult run_interp_optimized(const ir::CategoryIr& opt, const Stimulus& s) {
  ir::Interpreter interp(opt);
  std::vector<ir::Value> got;
  for (const ir::Value& record : s.records) {
    auto out = interp.run(record);
    if (!out) break;
    got.push_back(std::move(*out));
  }
  return compare_records("interp", s, got);
}

EngineResult run_llvm(const ir::CategoryIr& opt, const Stimulus& s) {
  auto k = sim::NativeKernel::compile(opt, opt.entry());
  if (!k) return EngineResult{"llvm", Verdict::Fails, "cannot compile: " + k.error(), 0};
  return compare_records("llvm", s, (*k)->evaluate(s.records));
}

template <class Engine>
EngineResult run_rtl(const std::string& name, Engine& engine, const hls::Design& d, const ir::CategoryIr& front,
                     const std::vector<bool>& config, const Stimulus& s, bool free_flow) {
  EngineResult r{name, Verdict::Agrees, "", 0};
  auto got = engine.run(s.batch);
  if (!got) return EngineResult{name, Verdict::Fails, got.error(), 0};
  sim::InterpreterEngine oracle(front, config);
  auto expected = oracle.run(s.batch);
  if (!expected) return EngineResult{name, Verdict::Fails, "the oracle: " + expected.error(), 0};
  const sim::CosimReport rep = sim::compare(d, s.batch, *expected, *got, free_flow);
  r.compared = rep.compared;
  if (engine.post_reset() != sim::expected_post_reset(d)) {
    r.verdict = Verdict::Disagrees;
    r.detail = "after reset (in_ready out_valid outputs):" + engine.post_reset() + ", not" + sim::expected_post_reset(d);
  } else if (rep.first) {
    r.verdict = Verdict::Disagrees;
    r.detail = fmt::format("evaluation {}: inputs {} configs {}: the oracle gives {}, {} gives {}", rep.first->evaluation,
                           values_text(rep.first->inputs), values_text(s.batch.configs),
                           values_text(rep.first->expected), name, values_text(rep.first->actual));
  } else if (!rep.ok()) {
    r.verdict = Verdict::Disagrees;
    r.detail = !rep.missing.empty() ? "handshake: " + rep.missing : "latency: " + rep.latency_first_wrong;
  }
  return r;
}

// An RTL engine with the run's stalls and seed (and a planted fault, in tests).
template <class Engine, class EngineOptions>
EngineResult simulate(const std::string& name, const hls::Design& d, const ir::CategoryIr& front,
                      const std::vector<bool>& config, const Stimulus& s, const Options& options) {
  EngineOptions o;
  o.stall = options.stall;
  o.seed = options.seed;
  if (options.sv_fault) o.sv = options.sv_fault(rtl::emit_sv(d));
  Engine e(d, o);
  return run_rtl(name, e, d, front, config, s, options.stall == 0);
}

}  // namespace

const std::vector<std::string>& engine_names() {
  static const std::vector<std::string> names = {"interp", "llvm", "verilator", "systemc", "iverilog"};
  return names;
}

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Agrees: return "agrees";
    case Verdict::Refuses: return "refuses";
    case Verdict::Disagrees: return "DISAGREES";
    case Verdict::Fails: return "FAILS";
  }
  return "?";
}

const EngineResult* KernelResult::finding() const {
  for (const EngineResult& e : engines)
    if (e.verdict == Verdict::Disagrees || e.verdict == Verdict::Fails) return &e;
  return nullptr;
}

namespace {
frontend::CompileOptions compile_options(const Options& options) {
  frontend::CompileOptions copts;
  copts.lib_paths = options.lib_paths;
  return copts;
}

std::vector<bool> config_fields(const frontend::CompileResult& front) {
  std::vector<bool> config;
  for (const frontend::Port& p : front.kernel().params) config.push_back(p.is_extern);
  return config;
}

// The design every RTL engine simulates.
ir::Expected<hls::Design, hls::HlsError> synthesize(const ir::CategoryIr& opt, const std::vector<bool>& config) {
  return hls::synthesize(opt, opt.entry(), config, hls::HlsOptions{});
}
}  // namespace

ir::Expected<bool, std::string> prepare_models(const std::vector<NamedKernel>& kernels, const Options& options) {
  std::vector<hls::Design> designs;
  designs.reserve(kernels.size());  // the requests point into it
  for (const NamedKernel& k : kernels) {
    const frontend::CompileResult front = frontend::compile_source(k.name, k.text, compile_options(options));
    if (!front.ok()) continue;
    auto opt = ir::optimize(*front.ir);
    if (!opt) continue;
    auto design = synthesize(*opt, config_fields(front));
    if (design) designs.push_back(std::move(*design));
  }
  std::vector<sim::ModelRequest> requests;
  for (const hls::Design& d : designs)
    requests.push_back({&d, options.sv_fault ? std::optional<std::string>(options.sv_fault(rtl::emit_sv(d))) : std::nullopt});
  bool built = false;
  for (const std::string& engine : options.engines) {
    ir::Expected<bool, std::string> r = false;
    if (engine == "verilator") r = sim::prebuild_verilator_models(requests);
    if (engine == "systemc") r = sim::prebuild_systemc_models(requests);
    if (!r) return r.error();
    built = built || *r;
  }
  return built;
}

KernelResult run_kernel(const std::string& name, const std::string& text, const Options& options) {
  return run_compiled(frontend::compile_source(name, text, compile_options(options)), options);
}

KernelResult run_file(const std::string& path, const Options& options) {
  return run_compiled(frontend::compile_file(path, compile_options(options)), options);
}

KernelResult run_compiled(const frontend::CompileResult& front, const Options& options) {
  KernelResult result;
  if (!front.ok()) {
    result.frontend_error = front.render_diagnostics();
    return result;
  }
  const std::vector<bool> config = config_fields(front);
  const Stimulus s = make_stimulus(*front.ir, config, options, result.dropped);
  result.evaluations = s.records.size();
  auto opt = ir::optimize(*front.ir);
  if (!opt) {
    result.engines.push_back({"optimize", Verdict::Fails, opt.error().message, 0});
    return result;
  }
  std::optional<ir::Expected<hls::Design, hls::HlsError>> design;  // made once, for the first RTL engine
  for (const std::string& engine : options.engines) {
    if (engine == "interp") {
      result.engines.push_back(run_interp_optimized(*opt, s));
    } else if (engine == "llvm") {
      result.engines.push_back(run_llvm(*opt, s));
    } else if (engine == "verilator" || engine == "systemc" || engine == "iverilog") {
      if (!design) design.emplace(synthesize(*opt, config));
      if (!*design) {
        result.engines.push_back({engine, Verdict::Refuses, (*design).error().kind + ": " + (*design).error().message, 0});
        continue;
      }
      const hls::Design& d = **design;
      if (engine == "verilator")
        result.engines.push_back(simulate<sim::VerilatorEngine, sim::VerilatorOptions>(engine, d, *front.ir, config, s, options));
      else if (engine == "systemc")
        result.engines.push_back(simulate<sim::SystemCEngine, sim::SystemCOptions>(engine, d, *front.ir, config, s, options));
      else
        result.engines.push_back(simulate<sim::IverilogEngine, sim::IverilogOptions>(engine, d, *front.ir, config, s, options));
    }
  }
  return result;
}

std::string render(const KernelResult& r) {
  if (!r.compiled()) return "  the kernel does not compile:\n" + r.frontend_error;
  std::string out = fmt::format("  oracle (interpreter, unoptimised IR): {} evaluations", r.evaluations);
  if (r.dropped) out += fmt::format(" ({} inputs dropped: the oracle stopped at the iteration limit)", r.dropped);
  out += "\n";
  for (const EngineResult& e : r.engines) {
    out += fmt::format("  {}: {}", e.engine, verdict_name(e.verdict));
    if (e.verdict == Verdict::Agrees) out += fmt::format(" ({} evaluations)", e.compared);
    if (!e.detail.empty()) out += ": " + e.detail;
    out += "\n";
  }
  return out;
}

}  // namespace polydat::difftest
