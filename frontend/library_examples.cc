#include "frontend/library_examples.h"

#include <algorithm>
#include <stdexcept>

#include "frontend/compile.h"
#include "frontend/cursors.h"
#include "frontend/program.h"
#include "ir/library_fn.h"

namespace polydat::frontend {

// A library operation's kernel: a string parameter gets text with escapes,
// entities and digits built from a u64 input, so decoders see varied bytes.
namespace {
// A partition built-in reads a cursor's partition: the cursor's range and spec
// are externs (so random specs reach the spec reader too), the value per cycle `a`.
std::string partition_example(const std::string& name) {
  const std::string head =
      "input a: u64\nextern n: u64 = 1000\nextern spec: str = \"10%..60%\"\ncursor q = range(0, n) over spec\n"
      "cursor r = range(0, n) over partitions(\"fib:4\", 100)\n";
  if (name == "partitions") return head + "v := start_of(r.cursor) + a\n";
  if (name == "mod_in" || name == "clamp_in") return head + "v := " + name + "(a, q.cursor)\n";
  if (name == "at") return head + "v := at(r.cursor, a)\n";
  return head + "v := " + name + "(q.cursor) + a\n";
}

std::string library_example(const ir::LibraryFn& f) {
  if (f.name == "printf") return "input (a: u64, b: f64, c: u64)\nv := printf(\"a={} b={:.3} c={}\", a, b, hex(c))\n";
  if (f.name == "char_buf") return "input a: u64\nv := char_buf(a, \"abcdef\", a % 64)\n";
  if (f.name == "bytes_from_hash") return "input a: u64\nv := bytes_from_hash(a, a % 64)\n";
  // A regex over the generated text: its digits, entities and the last letter group.
  if (f.name == "regex_match") return "input a: u64\nv := regex_match(\"x{a}&amp;\", \"^x\\\\d*[05]&\")\n";
  if (f.name == "regex_replace")
    return "input a: u64\nv := regex_replace(\"{a}-{hex(a)}\", \"(?P<d>[0-9])([a-f]*)\", \"<$2${{d}}>\")\n";
  std::string ins, args;
  for (size_t i = 0; i < f.params.size(); ++i) {
    const std::string a = "a" + std::to_string(i);
    ins += (i ? ", " : "") + a + (f.params[i] == ir::LibTy::F64 ? ": f64" : ": u64");
    args += (i ? ", " : "") + (f.params[i] == ir::LibTy::Str ? "\"%{hex(" + a + ")}&amp;{" + a + "}=+/\"" : a);
  }
  return "input (" + ins + ")\nv := " + std::string(f.name) + "(" + args + ")\n";
}

}  // namespace

std::string example_kernel(const LibraryFunction& f) {
  if (f.kind == "library") return library_example(ir::library_fns()[*ir::find_library_fn(f.name)]);
  if (f.kind == "distribution" && f.signature.find("(input: u64") != std::string::npos) {
    // A sampling module: every parameter a constant (a mean of 10, a spread of 2, bounds 1 and 20).
    std::string args;
    // The latency modes: fast 5 ms (spread 1), slow 50 ms (spread 10), a fifth slow, 1 in 20 failing.
    const std::pair<std::string_view, std::string_view> values[] = {
        {"mean", "10.0"},    {"mean_ms", "10.0"},  {"stddev", "2.0"},   {"stddev_ms", "2.0"},  {"rate", "0.5"},
        {"n", "100"},        {"exponent", "1.0"},  {"min", "1.0"},      {"max", "20.0"},       {"fast_ms", "5.0"},
        {"fast_std", "1.0"}, {"slow_ms", "50.0"},  {"slow_std", "10.0"}, {"slow_pct", "0.2"},  {"error_pct", "0.05"}};
    for (const auto& [p, value] : values)
      if (f.signature.find(", " + std::string(p) + ":") != std::string::npos)
        args += ", " + std::string(p) + ": " + std::string(value);
    const bool pair = f.signature.find("-> (") != std::string::npos;
    return "input a: u64\n" + std::string(pair ? "(v0, v1)" : "v") + " := " + f.name + "(a" + args + ")\n";
  }
  if (f.kind == "distribution") return "input a: f64\nv := " + f.name + "(a)\n";
  if (f.kind == "built-in") {
    if (f.name == "mixed_radix") return "input a: u64\n(d0, d1) := mixed_radix(a, 10, 0)\n";
    if (!partition_arg_kinds(find_builtin(f.name)->id).empty()) return partition_example(f.name);
    if (f.name == "pick") return "input (a: u64, b: u64)\nv := pick(a % 3 == 0, a % 3 == 1, a % 5 == 2, a, b, a ^ b)\n";
    // The assertions take constants: the kernel adds a value to a checked one.
    if (f.name == "in_range") return "input a: u64\nv := a + in_range(5, 1, 10)\n";
    if (f.name == "is_one_of") return "input a: u64\nv := a + is_one_of(3, 1, 2, 3)\n";
    if (f.name == "is_positive") return "input a: u64\nv := a + is_positive(7, \"rate\")\n";
    if (f.name == "matches") return "input a: u64\nv := \"{a}-{matches(\"abc\", \"^[a-z]+$\")}\"\n";
    if (f.name == "histribution") return "input a: u64\nv := histribution(a, \"10:5 20:3 30:2\")\n";
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
  const auto text = bundled_module(f.name);
  if (!text) throw std::runtime_error("no bundled module " + f.name);
  const CompileResult r = compile_source(f.name + ".gk", std::string(*text));
  if (!r.ok()) throw std::runtime_error(r.render_diagnostics());
  std::string ins, args, constants;
  for (const Port& p : r.kernel().params) {
    if (p.is_extern && !p.default_value)  // a constant for one without a default
      constants += ", " + p.name + (p.ty.is_str() ? std::string(": \"x\"") : std::string(": 1000"));
    if (p.is_extern) continue;
    ins += (ins.empty() ? "" : "\n") + std::string("input ") + p.name + ": " + ir::ty_label(p.ty);
    args += (args.empty() ? "" : ", ") + p.name;
  }
  std::string outs;
  for (size_t i = 0; i < r.kernel().outputs.size(); ++i) outs += (i ? ", v" : "v") + std::to_string(i);
  outs = r.kernel().outputs.size() > 1 ? "(" + outs + ")" : "v";
  return ins + "\n" + outs + " := " + f.name + "(" + args + constants + ")\n";
}

}  // namespace polydat::frontend
