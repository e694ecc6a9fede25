#include "tests/support/library_kernels.h"

#include <algorithm>
#include <stdexcept>

#include "frontend/compile.h"
#include "frontend/program.h"

namespace polydat::testing {

std::string calling_kernel(const frontend::LibraryFunction& f) {
  if (f.kind == "built-in") {
    if (f.name == "mixed_radix") return "input a: u64\n(d0, d1) := mixed_radix(a, 10, 0)\n";
    if (f.name == "weighted_u64" || f.name == "weighted_strings")
      return "input a: u64\nv := " + f.name + "(a, \"10:0.5;20:0.3;30:0.2\")\n";
    if (f.name == "format_f64") return "input (a: f64, p: u64)\nv := format_f64(a, p % 20)\n";
    if (f.name == "str_concat") return "input (a: u64, b: f64)\nv := str_concat(\"a=\", a, \" b=\", b)\n";
    if (f.name == "combinations") return "input a: u64\nv := combinations(a, \"A-Z;-;0-9;0-9\")\n";
    if (f.name == "one_of") return "input a: u64\nv := one_of(a, \"red\", \"green\", \"blue\")\n";
    if (f.name == "one_of_weighted") return "input a: u64\nv := one_of_weighted(a, \"200:80,404:10,500:10\")\n";
    if (f.name == "weighted_pick") return "input a: u64\nv := weighted_pick(a, 0.5, 10, 0.3, 20, 0.2, 30)\n";
    if (f.name == "sum" || f.name == "product" || f.name == "min" || f.name == "max")
      return "input (a: u64, b: u64, c: u64)\nv := " + f.name + "(a, b, c)\n";
    const size_t commas = static_cast<size_t>(std::count(f.signature.begin(), f.signature.end(), ','));
    const bool float_fn = f.signature.find("x: float") != std::string::npos ||
                          f.signature.find("base: float") != std::string::npos ||
                          f.signature.find("y: float") != std::string::npos;
    std::string ins, args;
    for (size_t i = 0; i <= commas; ++i) {
      const std::string a = "a" + std::to_string(i);
      ins += (i ? ", " : "") + a + (float_fn ? ": f64" : ": u64");
      // A radix must be a constant; other trailing arguments may be values.
      args += (i ? ", " : "") + (f.name == "format_u64" && i == 1 ? std::string("16") : a);
    }
    return "input (" + ins + ")\nv := " + f.name + "(" + args + ")\n";
  }
  const auto text = frontend::bundled_module(f.name);
  if (!text) throw std::runtime_error("no bundled module " + f.name);
  const frontend::CompileResult r = frontend::compile_source(f.name + ".gk", std::string(*text));
  if (!r.ok()) throw std::runtime_error(r.render_diagnostics());
  std::string ins, args;
  for (const frontend::Port& p : r.kernel().params) {
    if (p.is_extern) continue;
    ins += (ins.empty() ? "" : "\n") + std::string("input ") + p.name + ": " + ir::ty_label(p.ty);
    args += (args.empty() ? "" : ", ") + p.name;
  }
  const bool several = r.kernel().outputs.size() > 1;
  return ins + "\n" + (several ? "(v, w)" : "v") + " := " + f.name + "(" + args + ")\n";
}

}  // namespace polydat::testing
