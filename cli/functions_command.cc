#include <fmt/core.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "frontend/library.h"
#include "frontend/library_examples.h"

namespace polydat::cli {

int functions_command(const FunctionsArgs& args) {
  const std::vector<frontend::LibraryFunction> fns = frontend::library_functions();
  if (!args.example.empty()) {
    const auto f = std::find_if(fns.begin(), fns.end(), [&](const auto& g) { return g.name == args.example; });
    if (f == fns.end()) {
      fmt::print(stderr, "error: '{}' is not a library function (`polydat functions` lists them)\n", args.example);
      return kUserError;
    }
    fmt::print("{}", frontend::example_kernel(*f));
    return kOk;
  }
  if (args.format == "json") {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& f : fns)
      out.push_back({{"name", f.name},
                     {"signature", f.signature},
                     {"help", f.help},
                     {"kind", f.kind},
                     {"engines", {"interp", "llvm"}},
                     {"hardware", f.hardware},
                     {"nb_rs", f.nb_rs}});
    fmt::print("{}\n", out.dump(2));
    return kOk;
  }
  size_t width = 0;
  for (const auto& f : fns) width = std::max(width, f.signature.size());
  width = std::min<size_t>(width, 64);
  fmt::print("{:<{}}  {:<8}  {:<5}  {}\n", "function", width, "hardware", "nb-rs", "what it gives");
  for (const auto& f : fns)
    fmt::print("{:<{}}  {:<8}  {:<5}  {}\n", f.signature, width, f.hardware ? "yes" : "no", f.nb_rs ? "yes" : "no", f.help);
  fmt::print("\n{} functions; every one runs on the interpreter and on LLVM (--engine llvm). "
             "hardware: integers and bools only, synthesized by `polydat hls`.\n",
             fns.size());
  return kOk;
}

}  // namespace polydat::cli
