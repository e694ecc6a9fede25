// Messages that say what the language has instead (issue 34): `||` and `&&`, the separators of the
// weighted specs, and an output asked for that the kernel lacks. Each keeps its place in the file
// (line:col, the source line, a caret) and its stable kind where it has one.
#include <doctest/doctest.h>

#include <string>

#include "frontend/compile.h"

using namespace polydat::frontend;

namespace {
std::string diagnostics_of(const std::string& source, const CompileOptions& o = {}) {
  return compile_source("t.gk", source, o).render_diagnostics();
}
}  // namespace

TEST_CASE("'||' and '&&': what '|' and '&' are, how they bind, and the rewrite with parentheses") {
  CHECK(diagnostics_of("input (cycle: u64, i: u64)\nstop := cycle != 3 || i < 5\n") ==
        "t.gk:2:20: error: '||' is not an operator; '|' is the or (bitwise on integers, logical on bool) and binds "
        "tighter than '!=': write (cycle != 3) | (i < 5) [syntax]\n"
        "  stop := cycle != 3 || i < 5\n"
        "                     ^~\n");
  CHECK(diagnostics_of("input (a: u64, b: u64, c: u64, d: u64)\nboth := a < b && c < d\n") ==
        "t.gk:2:15: error: '&&' is not an operator; '&' is the and (bitwise on integers, logical on bool) and binds "
        "tighter than '<': write (a < b) & (c < d) [syntax]\n"
        "  both := a < b && c < d\n"
        "                ^~\n");
  // No comparison beside it: no parentheses are needed.
  CHECK(diagnostics_of("input (a: bool, b: bool)\ne := a || b\n").find("logical on bool): write a | b [syntax]") !=
        std::string::npos);
  // Inside a call's argument, the rewrite is of that argument only.
  CHECK(diagnostics_of("input (x: u64, y: u64)\nv := if(x == 1 || y > 2, 1, 0)\n")
            .find("write (x == 1) | (y > 2) [syntax]") != std::string::npos);
  // '&' beside a looser bit operator: the parentheses keep the grouping meant.
  CHECK(diagnostics_of("input (a: u64, b: u64, c: u64)\nv := a | b && c\n").find("binds tighter than '|': write (a | b) & c") !=
        std::string::npos);
}

TEST_CASE("weighted specs: the message names the separators the function takes and what it found") {
  // weighted_strings and one_of_weighted split on ';' and ','; a space is not a separator there.
  CHECK(diagnostics_of("input x: u64\nv := weighted_strings(x, \"a:1 b:2\")\n") ==
        "t.gk:2:26: error: weighted_strings's spec: the weight of 'a:1 b:2' is not a number (found a space); items are "
        "separated by ';' or ',', and each is value:weight [not-constant]\n"
        "  v := weighted_strings(x, \"a:1 b:2\")\n"
        "                           ^~~~~~~~~\n");
  CHECK(diagnostics_of("input x: u64\nv := one_of_weighted(x, \"200=80;404=20\")\n")
            .find("one_of_weighted's spec: expected value:weight, found '200=80' (no ':'); items are separated by ';' or "
                  "',', and each is value:weight [not-constant]") != std::string::npos);
  CHECK(diagnostics_of("input x: u64\nv := weighted_strings(x, \"a:1|b:2\")\n").find("(found '|')") != std::string::npos);
  // histribution also splits on spaces: three separators.
  CHECK(diagnostics_of("input x: u64\nv := histribution(x, \"10:5|20:3\")\n")
            .find("histribution's spec: the weight of '10:5|20:3' must be a number, 0 or above (found '|'); elements are "
                  "separated by a space, ',' or ';'") != std::string::npos);
  CHECK(diagnostics_of("input x: u64\nv := histribution(x, \"5/3/2\")\n")
            .find("(found '/'); elements are separated by a space, ',' or ';'") != std::string::npos);
  // All three separators still work.
  CHECK(compile_source("t.gk", "input x: u64\nv := histribution(x, \"10:5 20:3,30:1;40:1\")\n").ok());
  CHECK(compile_source("t.gk", "input x: u64\nv := weighted_strings(x, \"a:1;b:2,c:3\")\n").ok());
}

TEST_CASE("an output asked for that the kernel lacks: no place in the file, the outputs it has") {
  CompileOptions o;
  o.outputs = {"shrd"};
  const std::string text = "// a comment first\ninput cycle: u64\nid := mod(cycle, 10)\nshard := id + 1\nbucket := id * 2\n";
  const CompileResult r = compile_source("ids.gk", text, o);
  CHECK(!r.ok());
  CHECK(r.render_diagnostics() ==
        "error: 'shrd' is asked for as an output, but it is not a binding of ids.gk (did you mean 'shard'?); its "
        "outputs: shard, bucket; its other bindings: id [unknown-output]\n");
}
