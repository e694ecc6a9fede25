#include "difftest/difftest.h"

#include <fmt/core.h>

#include <chrono>
#include <random>

#include "difftest/random_values.h"
#include "frontend/compile.h"
#include "flow/engines.h"
#include "flow/pipeline.h"
#include "hls/design.h"
#include "ir/interp.h"
#include "sim/cosim.h"
#include "text/plural.h"

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

// A software engine on the batch, compared evaluation by evaluation with the oracle's outputs.
EngineResult run_software(const std::string& name, sim::Engine& engine, const Stimulus& s) {
  if (auto built = engine.build(); !built) return EngineResult{name, Verdict::Fails, built.error(), 0};
  auto got = engine.run(s.batch);
  if (!got)
    return EngineResult{name, Verdict::Disagrees, got.error() + ", on inputs the oracle finished", 0};
  EngineResult r{name, Verdict::Agrees, "", 0};
  for (size_t i = 0; i < s.records.size(); ++i) {
    ++r.compared;
    const ir::Value& want = s.expected[i];
    const std::vector<ir::Value> expected = want.ty().is_product() ? want.elems() : std::vector<ir::Value>{want};
    if (got->outputs.at(i) == expected) continue;
    r.verdict = Verdict::Disagrees;
    r.detail = fmt::format("input {}: the oracle gives {}, {} gives {}", ir::render(s.records[i]), values_text(expected),
                           name, values_text(got->outputs[i]));
    return r;
  }
  return r;
}

EngineResult run_rtl(const std::string& name, sim::Engine& engine, const hls::Design& d, const ir::CategoryIr& front,
                     const std::vector<bool>& config, const Stimulus& s, bool free_flow) {
  EngineResult r{name, Verdict::Agrees, "", 0};
  auto got = engine.run(s.batch);
  if (!got) return EngineResult{name, Verdict::Fails, got.error(), 0};
  auto oracle = flow::make_engine("interp", flow::EngineSubject{&front, config, nullptr});
  auto expected = (*oracle)->run(s.batch);
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

}  // namespace

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
// Sets the time of the result an engine's turn adds, however the turn ends.
struct EngineStopwatch {
  std::vector<EngineResult>& results;
  size_t before = results.size();
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  ~EngineStopwatch() {
    if (results.size() > before)
      results.back().seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
};

frontend::CompileOptions compile_options(const Options& options) {
  frontend::CompileOptions copts;
  copts.lib_paths = options.lib_paths;
  return copts;
}
}  // namespace

ir::Expected<bool, std::string> prepare_models(const std::vector<NamedKernel>& kernels, const Options& options) {
  std::vector<flow::Emitted> designs;
  for (const NamedKernel& k : kernels)
    if (auto e = flow::hardware(frontend::compile_source(k.name, k.text, compile_options(options)))) designs.push_back(std::move(*e));
  std::vector<sim::ModelRequest> requests;
  for (const flow::Emitted& d : designs)
    requests.push_back({&d.design, &d.module, options.sv_fault ? std::optional<std::string>(options.sv_fault(d.module.text)) : std::nullopt});
  bool built = false;
  for (const std::string& engine : options.engines) {
    const flow::EngineInfo* e = flow::find_engine(engine);
    if (!e || !e->prebuild) continue;
    auto r = e->prebuild(requests, {});  // engines here use the default cache
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
  const std::vector<bool> config = flow::config_fields(front);
  const Stimulus s = make_stimulus(*front.ir, config, options, result.dropped);
  result.evaluations = s.records.size();
  auto opt = flow::optimize(front);
  if (!opt) {
    result.engines.push_back({"optimize", Verdict::Fails, opt.error(), 0});
    return result;
  }
  std::optional<ir::Expected<flow::Emitted, hls::HlsError>> hw;  // made once, for the first RTL engine
  for (const std::string& name : options.engines) {
    if (options.engine_starts) options.engine_starts(result.engines.size(), options.engines.size(), name);
    const EngineStopwatch stopwatch{result.engines};
    const flow::EngineInfo* info = flow::find_engine(name);
    if (!info) {
      result.engines.push_back({name, Verdict::Fails, "no engine is called '" + name + "'", 0});
      continue;
    }
    if (info->kind == flow::EngineKind::Software) {
      auto engine = flow::make_engine(name, flow::subject_of(*opt));
      result.engines.push_back(engine ? run_software(name, **engine, s) : EngineResult{name, Verdict::Fails, engine.error(), 0});
      continue;
    }
    if (!hw) {
      auto scheduled = flow::schedule(*opt);
      hw.emplace(scheduled ? ir::Expected<flow::Emitted, hls::HlsError>(flow::emit(std::move(*scheduled)))
                           : ir::Expected<flow::Emitted, hls::HlsError>(scheduled.error()));
    }
    if (!*hw) {
      result.engines.push_back({name, Verdict::Refuses, (*hw).error().kind + ": " + (*hw).error().message, 0});
      continue;
    }
    const flow::Emitted& d = **hw;
    flow::EngineOptions o;
    o.stall = options.stall;
    o.seed = options.seed;
    if (options.sv_fault) o.sv = options.sv_fault(d.module.text);
    auto engine = flow::make_engine(name, flow::subject_of(d), o);
    result.engines.push_back(engine ? run_rtl(name, **engine, d.design, *front.ir, config, s, options.stall == 0)
                                    : EngineResult{name, Verdict::Fails, engine.error(), 0});
  }
  return result;
}

std::string render(const KernelResult& r) {
  if (!r.compiled()) return "  the kernel does not compile:\n" + r.frontend_error;
  std::string out = fmt::format("  oracle (interpreter, unoptimised IR): {}", text::counted(r.evaluations, "evaluation"));
  if (r.dropped) out += fmt::format(" ({} dropped: the oracle stopped at the iteration limit)", text::counted(r.dropped, "input"));
  out += "\n";
  for (const EngineResult& e : r.engines) {
    out += fmt::format("  {}: {}", e.engine, verdict_name(e.verdict));
    if (e.verdict == Verdict::Agrees) out += fmt::format(" ({})", text::counted(e.compared, "evaluation"));
    if (!e.detail.empty()) out += ": " + e.detail;
    out += "\n";
  }
  return out;
}

}  // namespace polydat::difftest
