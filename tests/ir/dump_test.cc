// The Mermaid and DOT dumps: goldens, the Mermaid lint, and determinism.
//
// Goldens live in tests/ir/goldens/ (one NAME.mmd per shape, plus
// sum_to_n.dot) and are compared byte for byte; the build passes their folder
// in as POLYDAT_GOLDEN_DIR. After an intended change to the dump format, set
// UPDATE_GOLDENS=1 to rewrite them instead of comparing:
//   UPDATE_GOLDENS=1 build/tests/ir/ir_tests -sf='*dump*'
// then read every changed golden against its builder in shapes.cc before
// committing it: a golden is reviewed, not just recorded.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "example_kernel.h"
#include "ir/builder.h"
#include "ir/dot.h"
#include "ir/mermaid.h"
#include "ir/scc.h"
#include "ir/topo.h"
#include "shapes.h"

using namespace polydat::ir;

namespace {
struct Shape {
  std::string name;
  CategoryIr (*build)();
};

CategoryIr example_kernel() { return polydat::cli::build_example_kernel(); }

const std::vector<Shape>& all_shapes() {
  static const std::vector<Shape> kShapes = [] {
    std::vector<Shape> v;
    for (const shapes::Named& s : shapes::all()) v.push_back({s.name, s.build});
    v.push_back({"example_kernel", example_kernel});
    return v;
  }();
  return kShapes;
}

std::string golden_path(const std::string& file) { return std::string(POLYDAT_GOLDEN_DIR) + "/" + file; }

bool updating_goldens() {
  const char* v = std::getenv("UPDATE_GOLDENS");
  return v != nullptr && std::string_view(v) == "1";
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// "line N" of the first difference, so a failing golden points somewhere.
std::string first_difference(const std::string& want, const std::string& got) {
  std::istringstream w(want), g(got);
  std::string wl, gl;
  for (int line = 1;; ++line) {
    const bool more_w = static_cast<bool>(std::getline(w, wl));
    const bool more_g = static_cast<bool>(std::getline(g, gl));
    if (!more_w && !more_g) return "the trailing newline";
    if (more_w != more_g || wl != gl)
      return "line " + std::to_string(line) + ": golden `" + (more_w ? wl : "<end>") + "`, dump `" +
             (more_g ? gl : "<end>") + "`";
  }
}

void check_golden(const std::string& path, const std::string& got) {
  if (updating_goldens()) {
    std::ofstream(path, std::ios::binary) << got;
    MESSAGE("rewrote " << path);
    return;
  }
  REQUIRE_MESSAGE(std::filesystem::exists(path), "missing golden " << path << " (run with UPDATE_GOLDENS=1)");
  const std::string want = read_text(path);
  // Only the first difference is reported: the whole dumps would bury it.
  if (got != want) FAIL_CHECK(path << " differs from the dump at " << first_difference(want, got));
}

size_t count_of(std::string_view text, std::string_view needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string_view::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

size_t loop_backs(const CategoryIr& ir) {
  size_t n = 0;
  for (const Morphism& m : ir.morphisms()) n += m.op.kind == OpKind::LoopBack;
  return n;
}

std::string replace_first(std::string text, std::string_view from, std::string_view to) {
  const size_t at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "`" << from << "` is not in the dump");
  return text.replace(at, from.size(), to);
}

bool mentions(const std::vector<std::string>& problems, std::string_view word) {
  for (const std::string& p : problems)
    if (p.find(word) != std::string::npos) return true;
  return false;
}

std::string joined(const std::vector<std::string>& problems) {
  std::string out;
  for (const std::string& p : problems) out += p + "\n";
  return out;
}

// One function whose only payload is a str constant that needs escaping and truncating.
CategoryIr with_str_constant(std::string text) {
  IrBuilder b;
  const FuncId f = shapes::must(b.declare("strs", Ty::u64(), Ty::u64(), {}));
  FnBuilder fb = shapes::must(b.build_fn(f));
  shapes::must(fb.constant(Value::str(std::move(text)), {}));
  shapes::must(fb.output(fb.input(), std::nullopt, {}));
  shapes::must(fb.finish());
  return shapes::must(std::move(b).seal(f));
}
}  // namespace

TEST_CASE("dump: Mermaid dumps of every shape match their reviewed goldens") {
  for (const Shape& s : all_shapes()) {
    INFO("shape " << s.name);
    check_golden(golden_path(s.name + ".mmd"), to_mermaid(s.build()));
  }
}

TEST_CASE("dump: the DOT dump of sum_to_n matches its reviewed golden") {
  check_golden(golden_path("sum_to_n.dot"), to_dot(shapes::sum_to_n()));
}

TEST_CASE("dump: every Mermaid dump passes lint_mermaid") {
  for (const Shape& s : all_shapes()) {
    INFO("shape " << s.name);
    const std::vector<std::string> problems = lint_mermaid(to_mermaid(s.build()));
    CHECK_MESSAGE(problems.empty(), joined(problems));
  }
}

TEST_CASE("dump: lint_mermaid catches each planted defect") {
  const std::string good = to_mermaid(shapes::sum_to_n());
  REQUIRE(lint_mermaid(good).empty());
  auto problems_of = [&](std::string_view from, std::string_view to) {
    const std::vector<std::string> p = lint_mermaid(replace_first(good, from, to));
    INFO(joined(p));
    CHECK(!p.empty());
    return p;
  };

  SUBCASE("an unquoted node label") {
    CHECK(mentions(problems_of("((\"in: u64\"))", "((in: u64))"), "not double-quoted"));
  }
  SUBCASE("an unquoted edge label") {
    CHECK(mentions(problems_of("-- \"LoopEnter\" -->", "-- LoopEnter -->"), "not double-quoted"));
  }
  SUBCASE("an unquoted subgraph title") {
    CHECK(mentions(problems_of("[\"fn sum_to_n\"]", "[fn sum_to_n]"), "not double-quoted"));
  }
  SUBCASE("a raw quote inside a node label") {
    CHECK(mentions(problems_of("\"in: u64\"", "\"in: \"u64\""), "raw `\"`"));
  }
  SUBCASE("a raw quote inside an edge label") {
    CHECK(mentions(problems_of("\"LoopEnter\"", "\"Loop\"Enter\""), "raw `\"`"));
  }
  SUBCASE("a dotted arrow") {
    CHECK(mentions(problems_of("-- \"LoopEnter\" -->", "-.->"), "arrow style"));
  }
  SUBCASE("a dotted arrow with a label") {
    CHECK(mentions(problems_of("-- \"LoopEnter\" -->", "-. \"LoopEnter\" .->"), "arrow style"));
  }
  SUBCASE("a thick arrow") {
    CHECK(mentions(problems_of("-- \"LoopEnter\" -->", "==>"), "arrow style"));
  }
  SUBCASE("an open link") {
    CHECK(mentions(problems_of("-- \"LoopEnter\" -->", "---"), "arrow style"));
  }
  SUBCASE("a subgraph never closed") {
    CHECK(mentions(problems_of("    end\n", ""), "never closed"));
  }
  SUBCASE("an end without a subgraph") {
    CHECK(mentions(problems_of("    end\n", "    end\n    end\n"), "without an open subgraph"));
  }
  SUBCASE("a bad node id in a node line") {
    CHECK(mentions(problems_of("f0o0((", "f0.o0(("), "node id `f0.o0`"));
  }
  SUBCASE("a bad node id in an edge") {
    CHECK(mentions(problems_of("f0o0 --", "f0-o0 --"), "node id `f0-o0`"));
  }
  SUBCASE("a wrong header direction") {
    CHECK(mentions(problems_of("flowchart LR", "flowchart TD"), "header"));
  }
  SUBCASE("a graph header") {
    CHECK(mentions(problems_of("flowchart LR", "graph LR"), "header"));
  }
  SUBCASE("no header at all") {
    CHECK(mentions(problems_of("flowchart LR\n", ""), "header"));
  }
}

TEST_CASE("dump: lint_mermaid ignores arrow look-alikes inside quoted labels") {
  const std::string text = "flowchart LR\n    a((\"x -.-> y == z --- w\")) -- \"a ==> b\" --> b\n    b -->|\"c\"| a\n";
  const std::vector<std::string> problems = lint_mermaid(text);
  CHECK_MESSAGE(problems.empty(), joined(problems));
}

TEST_CASE("dump: str constants are escaped and truncated in both dumps") {
  const CategoryIr ir = with_str_constant("say \"hi\"\n#1 <b> and then some more");
  const std::string mmd = to_mermaid(ir);
  CHECK_MESSAGE(mmd.find("((\"say #quot;hi#quot;\\n#35;1 #lt;b#gt; and …: str\"))") != std::string::npos, mmd);
  CHECK(lint_mermaid(mmd).empty());
  const std::string dot = to_dot(ir);
  CHECK_MESSAGE(dot.find("[label=\"say \\\"hi\\\"\\\\n#1 <b> and …: str\"]") != std::string::npos, dot);
}

TEST_CASE("dump: truncation counts characters, not bytes") {
  std::string accents;
  for (int i = 0; i < 25; ++i) accents += "é";
  const std::string mmd = to_mermaid(with_str_constant(accents));
  CHECK(mmd.find("((\"" + accents.substr(0, 40) + "…: str\"))") != std::string::npos);
  const std::string exact = accents.substr(0, 40);
  CHECK(to_mermaid(with_str_constant(exact)).find("((\"" + exact + ": str\"))") != std::string::npos);
}

TEST_CASE("dump: control characters and backslashes in str constants show as escapes") {
  const std::string mmd = to_mermaid(with_str_constant("a\x01" "b\\c\t"));
  CHECK_MESSAGE(mmd.find("((\"a\\x01b\\\\c\\t: str\"))") != std::string::npos, mmd);
}

TEST_CASE("dump: a Cast edge names its target type in both dumps") {
  IrBuilder b;
  const FuncId f = shapes::must(b.declare("narrow", Ty::u64(), Ty::scalar(TyKind::U8), {}));
  FnBuilder fb = shapes::must(b.build_fn(f));
  shapes::must(fb.cast(fb.input(), Ty::scalar(TyKind::U8), Dest::ret(), {}));
  shapes::must(fb.finish());
  const CategoryIr ir = shapes::must(std::move(b).seal(f));
  CHECK(to_mermaid(ir).find("f0o0 -- \"Cast u8\" --> f0o1") != std::string::npos);
  CHECK(to_dot(ir).find("f0o0 -> f0o1 [label=\"Cast u8\"]") != std::string::npos);
}

TEST_CASE("dump: back edges are labelled in Mermaid and dashed only in DOT") {
  for (const Shape& s : all_shapes()) {
    INFO("shape " << s.name);
    const CategoryIr ir = s.build();
    CHECK(count_of(to_mermaid(ir), "-- \"LoopBack ↩\" -->") == loop_backs(ir));
    CHECK(count_of(to_dot(ir), "style=dashed") == loop_backs(ir));
  }
}

TEST_CASE("dump: graphviz accepts a DOT dump") {
  if (std::system("command -v dot > /dev/null 2>&1") != 0) {
    MESSAGE("graphviz `dot` is not on PATH (make deps installs it); skipped");
    return;
  }
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("polydat_dump_test_" + std::to_string(getpid()) + ".dot");
  std::ofstream(file, std::ios::binary) << to_dot(shapes::nested_loops());
  const std::string command = "dot -Tsvg '" + file.string() + "' -o /dev/null";
  const int status = std::system(command.c_str());
  std::filesystem::remove(file);
  CHECK(status == 0);
}

TEST_CASE("dump: building a shape twice gives identical dumps, topo orders and SCCs") {
  for (const Shape& s : all_shapes()) {
    INFO("shape " << s.name);
    const CategoryIr a = s.build();
    const CategoryIr b = s.build();
    CHECK(to_mermaid(a) == to_mermaid(b));
    CHECK(to_dot(a) == to_dot(b));
    REQUIRE(a.funcs().size() == b.funcs().size());
    for (const FuncDef& fd : a.funcs()) {
      CAPTURE(fd.name);
      CHECK(topo_order(a, fd.id) == topo_order(b, fd.id));
      CHECK(sccs(a, fd.id) == sccs(b, fd.id));
    }
  }
}
