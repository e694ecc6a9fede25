#include "frontend/library.h"

#include <algorithm>

#include "frontend/builtins.h"
#include "frontend/compile.h"
#include "frontend/distributions.h"
#include "frontend/sampled_functions.h"
#include "frontend/nbrs_names.h"
#include "ir/library_fn.h"
#include "ir/pass_pipeline.h"
#include "ir/value.h"

namespace polydat::frontend {

namespace {

bool software_only(const ir::Ty& t) {
  if (t.kind() == ir::TyKind::Tuple || t.kind() == ir::TyKind::Struct) {
    for (size_t i = 0; i < t.arity(); ++i)
      if (software_only(t.component(i))) return true;
    return false;
  }
  return t.is_float() || t.is_str();
}

// The doc comment's first sentence after the "name(...): " it starts with.
std::string first_sentence(const std::string& text) {
  std::string doc;
  size_t at = 0;
  while (text.compare(at, 3, "///") == 0) {
    const size_t end = text.find('\n', at);
    std::string line = text.substr(at + 3, end == std::string::npos ? std::string::npos : end - at - 3);
    if (!line.empty() && line.front() == ' ') line.erase(0, 1);
    doc += (doc.empty() ? "" : " ") + line;
    if (end == std::string::npos) break;
    at = end + 1;
  }
  if (const size_t colon = doc.find("): "); colon != std::string::npos) doc.erase(0, colon + 3);
  if (const size_t stop = doc.find(". "); stop != std::string::npos) doc.erase(stop + 1);
  return doc;
}

LibraryFunction module_entry(const std::string& name, const std::string& text) {
  LibraryFunction f{name, name, first_sentence(text), "module", false, is_nbrs_function(name)};
  const CompileResult r = compile_source("<stdlib>/" + name + ".gk", text);
  if (!r.ok()) return f;  // the library's own tests keep every module compiling
  const Unit& u = r.kernel();
  std::string params;
  for (const Port& p : u.params) {
    params += (params.empty() ? "" : ", ") + p.name + ": " + ir::ty_label(p.ty);
    if (p.default_constant) params += " = " + ir::render(*p.default_constant);
  }
  std::string results;
  for (const Port& o : u.outputs) results += (results.empty() ? "" : ", ") + ir::ty_label(o.ty);
  f.signature = name + "(" + params + ") -> " + (u.outputs.size() == 1 ? results : "(" + results + ")");
  // Any float or text computed inside (unfair_coin compares an f64) keeps it in software; a
  // parameter the optimized kernel never reads (required's `name`) does not.
  const auto optimized = ir::optimize(*r.ir);
  const ir::CategoryIr& judged = optimized ? *optimized : *r.ir;
  f.hardware = std::none_of(judged.objects().begin(), judged.objects().end(), [](const ir::Object& o) {
    return o.kind != ir::ObjectKind::Parameter && software_only(o.ty);
  });
  return f;
}

std::string library_signature(const ir::LibraryFn& f) {
  auto label = [](ir::LibTy t) { return t == ir::LibTy::Any ? std::string("any") : ir::ty_label(ir::library_ty(t)); };
  std::string params;
  for (size_t i = 0; i < f.params.size(); ++i) {
    params += (i ? ", " : "") + std::string(f.param_names[i]) + ": " + label(f.params[i]);
    if (f.variadic && i + 1 == f.params.size()) params += "...";
  }
  return std::string(f.name) + "(" + params + ") -> " + label(f.result);
}

std::string distribution_signature(const DistributionInfo& d) {
  std::string s = std::string(d.name) + "(input: f64";
  for (const DistributionParam& p : d.params) {
    s += ", " + std::string(p.name) + ": " + (p.kind == DistributionParamKind::Str ? "str" : p.kind == DistributionParamKind::U64 ? "u64" : "f64");
    if (p.kind == DistributionParamKind::Str) s += " = \"" + std::string(p.default_text) + "\"";
    else if (p.default_value) s += " = " + (p.kind == DistributionParamKind::U64 ? std::to_string(static_cast<uint64_t>(*p.default_value)) : ir::render_float(*p.default_value));
  }
  return s + ") -> f64";
}

}  // namespace

std::vector<LibraryFunction> library_functions() {
  std::vector<LibraryFunction> out;
  for (const BuiltinInfo& b : builtin_infos())
    if (!b.name.starts_with("__"))  // made by the compiler (a cursor's `over`), not called by name
      out.push_back(LibraryFunction{std::string(b.name), std::string(b.signature), std::string(b.help), "built-in",
                                    b.hardware, is_nbrs_function(b.name)});
  for (const ir::LibraryFn& f : ir::library_fns())
    if (!f.name.starts_with("__"))
      out.push_back(LibraryFunction{std::string(f.name), library_signature(f), std::string(f.help), "library", false,
                                    is_nbrs_function(f.name)});
  for (const DistributionInfo& d : distribution_catalog())
    if (d.gk_callable && d.input_type == "f64")
      out.push_back(LibraryFunction{std::string(d.name), distribution_signature(d), std::string(d.help), "distribution",
                                    false, is_nbrs_function(d.name)});
  for (const SampledFunction& f : sampled_functions()) {
    std::string sig = std::string(f.name) + "(input: u64";
    for (const DistributionParam& p : f.params) sig += ", " + std::string(p.name) + (p.kind == DistributionParamKind::U64 ? ": u64" : ": f64");
    const bool rounds = f.finish == SampleFinish::Round || f.finish == SampleFinish::ClampRound;
    const char* result = f.finish == SampleFinish::ServiceModel ? ") -> (latency_ms: f64, is_error: u64)"
                         : rounds                               ? ") -> u64"
                                                                : ") -> f64";
    out.push_back(LibraryFunction{std::string(f.name), sig + result, std::string(f.help),
                                  "distribution", false, is_nbrs_function(f.name)});
  }
  for (const std::string& name : bundled_module_names())
    out.push_back(module_entry(name, std::string(*bundled_module(name))));
  std::sort(out.begin(), out.end(), [](const LibraryFunction& a, const LibraryFunction& b) { return a.name < b.name; });
  return out;
}

}  // namespace polydat::frontend
