// polydat functions [NAME]: the function library, or one function's entry, as text or JSON.
#include <fmt/core.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "frontend/library.h"
#include "frontend/library_examples.h"
#include "text/closest_name.h"

namespace polydat::cli {

namespace {

using Functions = std::vector<frontend::LibraryFunction>;

nlohmann::ordered_json entry_json(const frontend::LibraryFunction& f) {
  return {{"name", f.name},        {"signature", f.signature},   {"help", f.help}, {"kind", f.kind},
          {"engines", {"interp", "llvm"}}, {"hardware", f.hardware}, {"nb_rs", f.nb_rs}};
}

// The list's table: a header, then one row per function, the signature column as wide as the widest (at most 64).
void print_rows(const Functions& fns) {
  size_t width = 0;
  for (const auto& f : fns) width = std::max(width, f.signature.size());
  width = std::min<size_t>(width, 64);
  fmt::print("{:<{}}  {:<8}  {:<5}  {}\n", "function", width, "hardware", "nb-rs", "what it gives");
  for (const auto& f : fns)
    fmt::print("{:<{}}  {:<8}  {:<5}  {}\n", f.signature, width, f.hardware ? "yes" : "no", f.nb_rs ? "yes" : "no", f.help);
}

// Up to three names nearest `name` by edit distance, nearest first (closest_name's threshold).
std::vector<std::string> nearest_names(const std::string& name, const Functions& fns) {
  std::vector<std::string> pool, out;
  for (const auto& f : fns) pool.push_back(f.name);
  while (out.size() < 3) {
    const std::string near = text::closest_name(name, pool);
    if (near.empty()) break;
    out.push_back(near);
    pool.erase(std::find(pool.begin(), pool.end(), near));
  }
  return out;
}

// An unknown name is a usage error: say so, with the near misses.
const frontend::LibraryFunction* find_or_report(const std::string& name, const Functions& fns) {
  const auto f = std::find_if(fns.begin(), fns.end(), [&](const auto& g) { return g.name == name; });
  if (f != fns.end()) return &*f;
  std::string hint;
  const std::vector<std::string> near = nearest_names(name, fns);
  for (size_t i = 0; i < near.size(); ++i)
    hint += (i == 0 ? "; did you mean '" : i + 1 == near.size() ? "' or '" : "', '") + near[i];
  if (!hint.empty()) hint += "'?";
  fmt::print(stderr, "error: no library function '{}'{}\n(`polydat functions` lists them)\n", name, hint);
  return nullptr;
}

}  // namespace

int functions_command(const FunctionsArgs& args) {
  const Functions fns = frontend::library_functions();
  if (!args.example.empty()) {
    const frontend::LibraryFunction* f = find_or_report(args.example, fns);
    if (!f) return kUsageError;
    fmt::print("{}", frontend::example_kernel(*f));
    return kOk;
  }
  if (!args.name.empty()) {
    const frontend::LibraryFunction* f = find_or_report(args.name, fns);
    if (!f) return kUsageError;
    if (args.format == "json") {
      fmt::print("{}\n", entry_json(*f).dump(2));
      return kOk;
    }
    print_rows({*f});
    fmt::print("\n{} ({}): runs on the interpreter, on LLVM{}; `polydat functions --example {}` prints a kernel "
               "that calls it\n",
               f->name, f->kind, f->hardware ? " and in hardware" : ", not in hardware (it computes floats or text)",
               f->name);
    return kOk;
  }
  if (args.format == "json") {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& f : fns) out.push_back(entry_json(f));
    fmt::print("{}\n", out.dump(2));
    return kOk;
  }
  print_rows(fns);
  fmt::print("\n{} functions; every one runs on the interpreter and on LLVM (--engine llvm). "
             "hardware: integers and bools only, synthesized by `polydat hls`.\n",
             fns.size());
  return kOk;
}

}  // namespace polydat::cli
