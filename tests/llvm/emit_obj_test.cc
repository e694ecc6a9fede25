// Ahead of time: `emit_object` writes an object and a C header; a C program
// (compiled by the system's cc, no LLVM) includes the header, links the object
// and runs the kernel; its printed outputs must be the interpreter's.
#include <doctest/doctest.h>

#include <cinttypes>
#include <cstring>
#include <fstream>

#include "ir/interp.h"
#include "sim/llvm/emit_obj.h"
#include "sim/llvm/record_layout.h"
#include "tests/llvm/native_support.h"
#include "tests/support/process.h"

using namespace polydat;
using namespace polydat::nativetest;

namespace {

// A C program: the inputs as bit patterns, one call, every output field printed.
std::string c_main(const sim::EmittedObject& e, const sim::RecordLayout& in, const sim::RecordLayout& out,
                   const std::vector<ir::Value>& inputs) {
  std::string s = "#include <inttypes.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include \"" + e.prefix + ".h\"\n";
  s += "static const uint64_t bits[][" + std::to_string(std::max<size_t>(in.fields.size(), 1)) + "] = {\n";
  std::vector<unsigned char> rec(in.size + 8);
  for (const ir::Value& v : inputs) {
    sim::store_record(in, v, rec.data());
    s += "  {";
    for (const sim::RecordField& f : in.fields) {
      uint64_t b = 0;
      std::memcpy(&b, rec.data() + f.offset, f.size);
      s += std::to_string(b) + "u, ";
    }
    s += in.fields.empty() ? "0}," : "},";
    s += "\n";
  }
  s += "};\n#define N " + std::to_string(inputs.size()) + "\n";
  s += "int main(void) {\n  static " + e.prefix + "_inputs in[N];\n  static " + e.prefix + "_outputs out[N];\n";
  s += "  for (int i = 0; i < N; ++i) {\n";
  for (size_t k = 0; k < in.fields.size(); ++k)
    s += "    memcpy(&in[i]." + in.fields[k].name + ", &bits[i][" + std::to_string(k) + "], sizeof in[i]." +
         in.fields[k].name + ");\n";
  s += "  }\n  if (" + e.prefix + "_run(in, out, N) != N) return 3;  /* every evaluation ran */\n  for (int i = 0; i < N; ++i) {\n";
  for (const sim::RecordField& f : out.fields) {
    if (f.kind == ir::TyKind::Str) {
      s += "    printf(\"[%.*s] \", (int)out[i]." + f.name + ".len, out[i]." + f.name + ".ptr);\n";
    } else {
      s += "    { uint64_t b = 0; memcpy(&b, &out[i]." + f.name + ", sizeof out[i]." + f.name +
           "); printf(\"%\" PRIu64 \" \", b); }\n";
    }
  }
  s += "    printf(\"\\n\");\n  }\n";
  // On a state of the program's own, the same outputs (a second thread's view).
  s += "  {\n    static " + e.prefix + "_outputs again[N];\n    void* state = calloc(" + e.prefix +
       "_state_size(), 1);\n    if (" + e.prefix + "_run_state(state, in, again, N) != N) return 5;\n";
  s += "    for (int i = 0; i < N; ++i) {\n";
  for (const sim::RecordField& f : out.fields) {
    const std::string a = "out[i]." + f.name, b = "again[i]." + f.name;
    if (f.kind == ir::TyKind::Str)
      s += "      if (" + a + ".len != " + b + ".len || memcmp(" + a + ".ptr, " + b + ".ptr, " + a + ".len)) return 6;\n";
    else
      s += "      if (memcmp(&" + a + ", &" + b + ", sizeof " + a + ")) return 6;\n";
  }
  s += "    }\n    " + e.prefix + "_release_state(state);\n    free(state);\n  }\n";
  // Released, the kernel runs again from fresh buffers.
  s += "  " + e.prefix + "_release();\n  if (" + e.prefix + "_run(in, out, N) != N) return 4;\n  " + e.prefix +
       "_release();\n  return 0;\n}\n";
  return s;
}

// The same text from the interpreter's values.
std::string expected_text(const sim::RecordLayout& out, const std::vector<ir::Value>& results) {
  std::string s;
  std::vector<unsigned char> rec(out.size + 8);
  for (const ir::Value& r : results) {
    sim::store_record(out, r, rec.data());
    for (const sim::RecordField& f : out.fields) {
      if (f.kind == ir::TyKind::Str) {
        sim::StrView v;
        std::memcpy(&v, rec.data() + f.offset, sizeof v);
        s += "[" + std::string(v.ptr, v.len) + "] ";
      } else {
        uint64_t b = 0;
        std::memcpy(&b, rec.data() + f.offset, f.size);
        s += std::to_string(b) + " ";
      }
    }
    s += "\n";
  }
  return s;
}

void check_linked_program(const std::string& text, bool strings) {
  const Compiled c = compile_text("gen.gk", text);
  REQUIRE_MESSAGE(c.ir, c.diagnostics);
  testing::TempDir dir("polydat-emit-obj");
  auto e = sim::emit_object(*c.ir, c.ir->entry(), dir.path(), "gen");
  REQUIRE_MESSAGE(e.ok(), (e.ok() ? "" : e.error()));
  CHECK(e->uses_runtime == strings);
  const ir::Ty in_ty = c.ir->object(c.ir->func(c.ir->entry()).input).ty;
  const ir::Ty out_ty = c.ir->object(c.ir->func(c.ir->entry()).output).ty;
  const sim::RecordLayout in = sim::record_layout(in_ty), out = sim::record_layout(out_ty);
  std::mt19937_64 rng(11);
  std::vector<ir::Value> inputs, results;
  ir::Interpreter interp(*c.ir);
  while (inputs.size() < 200) {
    std::vector<ir::Value> fields;
    for (size_t f = 0; f < in_ty.arity(); ++f) fields.push_back(random_scalar(in_ty.component(f), rng));
    ir::Value v = ir::Value::structure(in_ty, std::move(fields));
    auto r = interp.run(v);
    if (!r) continue;
    inputs.push_back(std::move(v));
    results.push_back(std::move(*r));
  }
  dir.write("main.c", c_main(*e, in, out, inputs));
  std::vector<std::string> cmd = {"cc", "-std=c11", "-Wall", "-Werror", "-o", "main", "main.c", e->object.string()};
  if (strings) cmd = {"c++", "-x", "c", "main.c", "-x", "none", e->object.string(), POLYDAT_RT_LIB, "-lcrypto", "-lpcre2-8", "-o", "main"};
  const testing::ProcessResult built = testing::run_process(cmd[0] == "cc" ? "/usr/bin/cc" : "/usr/bin/c++", cmd, dir.path());
  REQUIRE_MESSAGE(built.status == 0, built.out << built.err);
  const testing::ProcessResult ran = testing::run_process((dir.path() / "main").string(), {"main"}, dir.path());
  REQUIRE(ran.status == 0);
  CHECK(ran.out == expected_text(out, results));
}

}  // namespace

TEST_CASE("emit-obj: a C program links a loop-free kernel and runs it without LLVM") {
  check_linked_program(
      "input (x: u64, s: i8, f: f32, b: bool)\n"
      "h := hash(x) % 1000\n"
      "neg := s >> 2\n"
      "g := f * 2.5\n"
      "t := g as u32\n"
      "w := if(b, x ^ 7, x)\n",
      false);
}

TEST_CASE("emit-obj: a C program links a looping kernel") {
  check_linked_program(
      "input (n: u8, k: u32)\n"
      "s := loop (i = 0, acc: u32 = 1) while i < n { acc = acc * k + 1; i = i + 1 } yield acc\n",
      false);
}

TEST_CASE("emit-obj: a kernel that builds strings links with libpolydat_rt") {
  check_linked_program("input (x: u64, f: f64)\nlabel := \"user-{x % 100}/{f}\"\nhex_x := hex(x)\n", true);
}
