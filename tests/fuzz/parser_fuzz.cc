// libFuzzer target: any bytes through the lexer, parser, checker and lowering.
// Whatever the input, compilation ends with a graph or diagnostics: never a
// crash, a hang, a sanitizer report or unbounded recursion.
#include <cstddef>
#include <cstdint>
#include <string>

#include "frontend/compile.h"
#include "ir/validate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 1 << 16) return 0;
  polydat::frontend::CompileOptions options;
  options.lib_paths.clear();  // the bundled library only: no files from the disk
  auto r = polydat::frontend::compile_source("fuzz.gk", std::string(reinterpret_cast<const char*>(data), size), options);
  (void)r.render_diagnostics();
  // What compiles is well-formed: the independent validator agrees.
  if (r.ok() && !polydat::ir::validate(*r.ir).empty()) __builtin_trap();
  return 0;
}
