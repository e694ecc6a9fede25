// The kernel corpus: every tests/corpus/NAME.gk is compiled, validated,
// evaluated on the interpreter over the cycle range of its first line
// (`// corpus: cycles A..B [set NAME=VALUE]... [lib DIR]...`), rendered as
// `polydat eval NAME.gk --cycles A..B --format csv` prints it, and compared
// with NAME.expected.csv (hand-derived) or with its reference in
// references.cc (written from LANGUAGE.md, never from the compiler).
#include <doctest/doctest.h>
#include <xxhash.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "cli/values.h"
#include "tests/support/process.h"
#include "frontend/compile.h"
#include "ir/interp.h"
#include "ir/validate.h"
#include "tests/corpus/references.h"

#include "ir/cse_pass.h"
#include "ir/dce_pass.h"
#include "ir/fold_pass.h"
#include "ir/inline_pass.h"
#include "ir/pass_pipeline.h"

using namespace polydat;
namespace fs = std::filesystem;

namespace {

// Kernels that expose a compiler bug (the compiler disagrees with
// LANGUAGE.md): kernel -> what is wrong. They are checked by the may_fail
// test case below, not by the main one. Empty when every kernel passes.
const std::map<std::string, std::string> kKnownBugs = {};

// Kernels whose outputs optimize() changes (or whose optimised graph does not
// validate): kernel -> what is wrong. Checked by a may_fail test case.
const std::map<std::string, std::string> kKnownOptimizerBugs = {
};

const fs::path kCorpusDir = POLYDAT_CORPUS_DIR;

// ---- the `// corpus:` line ----

struct Spec {
  uint64_t begin = 0, end = 0;
  std::vector<std::string> sets;  // NAME=VALUE, as --set takes them
  std::vector<std::string> libs;  // -L folders, relative to the corpus folder
};

using polydat::testing::split_lines;
std::string read_text(const fs::path& p) { return polydat::testing::read_file(p); }

// Parses the first line; nullopt (and a reason) when it is missing or malformed.
std::optional<Spec> parse_spec(const std::string& text, std::string& why) {
  const std::string first = text.substr(0, text.find('\n'));
  const std::string prefix = "// corpus:";
  if (first.rfind(prefix, 0) != 0) {
    why = "the first line is not '// corpus: cycles A..B ...'";
    return std::nullopt;
  }
  std::istringstream words(first.substr(prefix.size()));
  Spec spec;
  bool have_cycles = false;
  std::string w;
  while (words >> w) {
    std::string arg;
    if (!(words >> arg)) {
      why = "'" + w + "' needs a value";
      return std::nullopt;
    }
    if (w == "cycles") {
      auto r = cli::parse_cycles(arg);
      if (!r) {
        why = "bad cycle range '" + arg + "'";
        return std::nullopt;
      }
      spec.begin = r->begin;
      spec.end = r->end;
      have_cycles = true;
    } else if (w == "set") {
      spec.sets.push_back(arg);
    } else if (w == "lib") {
      spec.libs.push_back(arg);
    } else {
      why = "unknown word '" + w + "' in the corpus line";
      return std::nullopt;
    }
  }
  if (!have_cycles) {
    why = "the corpus line gives no 'cycles A..B'";
    return std::nullopt;
  }
  return spec;
}

// ---- the kernels of the folder ----

struct Kernel {
  std::string name;
  fs::path path;
  std::string text;
};

std::vector<Kernel> corpus_kernels() {
  std::vector<Kernel> out;
  for (const auto& e : fs::directory_iterator(kCorpusDir))
    if (e.is_regular_file() && e.path().extension() == ".gk")
      out.push_back(Kernel{e.path().stem().string(), e.path(), read_text(e.path())});
  std::sort(out.begin(), out.end(), [](const Kernel& a, const Kernel& b) { return a.name < b.name; });
  return out;
}

fs::path expected_path(const std::string& name) { return kCorpusDir / (name + ".expected.csv"); }

// ---- evaluation, as `polydat eval --format csv` does it ----

frontend::CompileResult compile_kernel(const Kernel& k, const Spec& spec) {
  frontend::CompileOptions options;
  for (const std::string& lib : spec.libs) options.lib_paths.push_back((kCorpusDir / lib).string());
  return frontend::compile_file(k.path.string(), options);
}

// One CSV line per row, the header first; or an error message.
struct Rendered {
  std::vector<std::string> lines;
  std::string error;
};

std::string csv_line(const std::vector<ir::Value>& fields) {
  std::string out;
  for (size_t c = 0; c < fields.size(); ++c) out += (c ? "," : "") + cli::csv_field(fields[c]);
  return out;
}

// Evaluates `g` (the kernel's IR, or a transformed copy of it with the same
// entry signature) with the kernel's ports from `r`.
Rendered evaluate_csv(const frontend::CompileResult& r, const ir::CategoryIr& g, const Spec& spec) {
  Rendered out;
  const frontend::Unit& k = r.kernel();
  std::optional<size_t> iterated;
  for (size_t i = 0; i < k.params.size() && !iterated; ++i)
    if (!k.params[i].is_extern) iterated = i;

  std::map<std::string, std::string> given;
  for (const std::string& s : spec.sets) {
    const size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0) {
      out.error = "set takes NAME=VALUE, not '" + s + "'";
      return out;
    }
    given[s.substr(0, eq)] = s.substr(eq + 1);
  }
  std::vector<ir::Value> values(k.params.size());
  for (size_t i = 0; i < k.params.size(); ++i) {
    const frontend::Port& p = k.params[i];
    auto it = given.find(p.name);
    if (iterated && i == *iterated) {
      if (it != given.end()) {
        out.error = "'" + p.name + "' is the iterated input; it cannot be set";
        return out;
      }
      continue;
    }
    if (it != given.end()) {
      auto v = cli::parse_value(it->second, p.ty);
      if (!v) {
        out.error = "'" + it->second + "' is not a " + ir::ty_label(p.ty) + " value for '" + p.name + "'";
        return out;
      }
      values[i] = *v;
      given.erase(it);
    } else if (p.default_constant) {
      values[i] = *p.default_constant;
    } else {
      out.error = "'" + p.name + "' has no value: give it with set " + p.name + "=VALUE";
      return out;
    }
  }
  if (!given.empty()) {
    out.error = "the kernel has no input or extern named '" + given.begin()->first + "'";
    return out;
  }

  std::string header;
  if (iterated) header = k.params[*iterated].name;
  for (const frontend::Port& o : k.outputs) header += (header.empty() ? "" : ",") + o.name;
  out.lines.push_back(header);

  const ir::Ty in_ty = g.object(g.func(g.entry()).input).ty;
  ir::Interpreter interp(g);
  const uint64_t count = iterated ? spec.end - spec.begin : 1;
  for (uint64_t n = 0; n < count; ++n) {
    const uint64_t cycle = spec.begin + n;
    std::vector<ir::Value> fields = values;
    if (iterated) {
      auto v = cli::parse_value(std::to_string(cycle), k.params[*iterated].ty);
      if (!v) {
        out.error = "cycle " + std::to_string(cycle) + " does not fit '" + k.params[*iterated].name + "'";
        return out;
      }
      fields[*iterated] = *v;
    }
    auto res = interp.run(in_ty.is_unit() ? ir::Value() : ir::Value::structure(in_ty, std::move(fields)));
    if (!res) {
      out.error = "evaluation failed at cycle " + std::to_string(cycle) + ": " + res.error().message + " [" +
                  std::string(ir::interp_error_name(res.error().kind)) + "]";
      return out;
    }
    std::vector<ir::Value> row;
    if (iterated) row.push_back(ir::Value::integer(ir::TyKind::U64, cycle));
    for (const ir::Value& v : res->elems()) row.push_back(v);
    out.lines.push_back(csv_line(row));
  }
  return out;
}

// The expected lines: the hand-derived table, else the reference over the range.
std::optional<std::vector<std::string>> expected_lines(const std::string& name, const Spec& spec) {
  if (fs::exists(expected_path(name))) return split_lines(read_text(expected_path(name)));
  auto it = corpus::references().find(name);
  if (it == corpus::references().end()) return std::nullopt;
  std::vector<std::string> lines;
  std::string header;
  for (const std::string& h : it->second.header) header += (header.empty() ? "" : ",") + h;
  lines.push_back(header);
  for (uint64_t c = spec.begin; c < spec.end; ++c) lines.push_back(csv_line(it->second.row(c)));
  return lines;
}

// CSV fields of one line (quoted fields may hold commas and doubled quotes).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

// The first difference between the expected and the actual table, described
// (row, column, both values); nullopt when they are identical.
std::optional<std::string> first_difference(const std::vector<std::string>& expected,
                                            const std::vector<std::string>& actual) {
  const size_t n = std::min(expected.size(), actual.size());
  for (size_t i = 0; i < n; ++i) {
    if (expected[i] == actual[i]) continue;
    const std::string where = i == 0 ? "the header" : "row " + std::to_string(i);
    const auto e = csv_fields(expected[i]), a = csv_fields(actual[i]);
    const auto names = csv_fields(expected[0]);
    std::string column;
    for (size_t c = 0; c < std::max(e.size(), a.size()); ++c) {
      if (c < e.size() && c < a.size() && e[c] == a[c]) continue;
      column = " column " + std::to_string(c + 1) + (i > 0 && c < names.size() ? " (" + names[c] + ")" : "") +
               ": expected '" + (c < e.size() ? e[c] : "<none>") + "', got '" + (c < a.size() ? a[c] : "<none>") + "'";
      break;
    }
    return where + (i > 0 && !e.empty() ? " (first field " + e[0] + ")" : "") + " differs:" + column +
           "\n  expected: " + expected[i] + "\n  actual:   " + actual[i];
  }
  if (expected.size() != actual.size())
    return "expected " + std::to_string(expected.size()) + " lines (header included), got " +
           std::to_string(actual.size()) + "; first extra line: " +
           (expected.size() > actual.size() ? "missing '" + expected[n] + "'" : "unexpected '" + actual[n] + "'");
  return std::nullopt;
}

// Compiles, validates, evaluates and compares one kernel; reports through
// doctest with non-fatal checks only (a REQUIRE would end the loop over the
// kernels), and returns whether the kernel passed.
bool check_kernel(const Kernel& k) {
  INFO("kernel: " << k.path.string());
  std::string why;
  const auto spec = parse_spec(k.text, why);
  if (!spec) {
    FAIL_CHECK(k.name << ": " << why);
    return false;
  }
  const frontend::CompileResult r = compile_kernel(k, *spec);
  if (!r.ok()) {
    FAIL_CHECK(k.name << " does not compile:\n" << r.render_diagnostics());
    return false;
  }
  const auto violations = ir::validate(*r.ir);
  for (const ir::IrViolation& v : violations) FAIL_CHECK(k.name << ": validate: " << v.message);
  if (!violations.empty()) return false;
  const Rendered actual = evaluate_csv(r, *r.ir, *spec);
  if (!actual.error.empty()) {
    FAIL_CHECK(k.name << ": " << actual.error);
    return false;
  }
  const auto expected = expected_lines(k.name, *spec);
  if (!expected) {
    FAIL_CHECK(k.name << ": no expected table and no reference");
    return false;
  }
  const auto diff = first_difference(*expected, actual.lines);
  if (diff) {
    FAIL_CHECK(k.name << ": " << *diff);
    return false;
  }
  return true;
}

// Problems with the folder's expectations: a .gk with neither NAME.expected.csv
// nor a reference, or with both; a table or a reference without its .gk.
std::vector<std::string> coverage_problems(const fs::path& dir, const std::set<std::string>& refs) {
  std::vector<std::string> problems;
  std::set<std::string> kernels, tables;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string file = e.path().filename().string();
    const std::string suffix = ".expected.csv";
    if (e.path().extension() == ".gk") kernels.insert(e.path().stem().string());
    else if (file.size() > suffix.size() && file.compare(file.size() - suffix.size(), suffix.size(), suffix) == 0)
      tables.insert(file.substr(0, file.size() - suffix.size()));
  }
  for (const std::string& k : kernels) {
    const bool table = tables.count(k) > 0, ref = refs.count(k) > 0;
    if (!table && !ref) problems.push_back(k + ".gk has neither " + k + ".expected.csv nor a reference in references.cc");
    if (table && ref) problems.push_back(k + ".gk has both an expected table and a reference");
  }
  for (const std::string& t : tables)
    if (!kernels.count(t)) problems.push_back(t + ".expected.csv has no " + t + ".gk");
  for (const std::string& r : refs)
    if (!kernels.count(r)) problems.push_back("references.cc has a reference for " + r + " but there is no " + r + ".gk");
  return problems;
}

std::set<std::string> reference_names() {
  std::set<std::string> names;
  for (const auto& [name, ref] : corpus::references()) names.insert(name);
  return names;
}

const Kernel& kernel_named(const std::vector<Kernel>& all, const std::string& name) {
  for (const Kernel& k : all)
    if (k.name == name) return k;
  FAIL("no corpus kernel named " << name);
  return all.front();
}

}  // namespace

TEST_SUITE("corpus") {

TEST_CASE("corpus: the folder holds at least 30 kernels, each with a corpus line") {
  const auto all = corpus_kernels();
  CHECK(all.size() >= 30);
  for (const Kernel& k : all) {
    INFO("kernel: " << k.path.string());
    std::string why;
    CHECK_MESSAGE(parse_spec(k.text, why), why);
  }
}

TEST_CASE("corpus: every kernel has exactly one expected table or reference, and nothing is orphaned") {
  const auto problems = coverage_problems(kCorpusDir, reference_names());
  for (const std::string& p : problems) FAIL_CHECK(p);
  CHECK(problems.empty());
}

TEST_CASE("corpus: the coverage check catches a kernel without expectations") {
  const fs::path dir = fs::temp_directory_path() / ("polydat_corpus_coverage_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto write = [&](const std::string& file) { std::ofstream(dir / file) << "// corpus: cycles 0..1\nx := 1\n"; };
  write("tabled.gk");
  write("tabled.expected.csv");
  write("referenced.gk");
  CHECK(coverage_problems(dir, {"referenced"}).empty());

  write("stray.gk");  // neither a table nor a reference
  write("both.gk");
  write("both.expected.csv");
  write("orphan.expected.csv");
  const auto problems = coverage_problems(dir, {"referenced", "both", "ghost"});
  auto mentions = [&](const std::string& text) {
    return std::any_of(problems.begin(), problems.end(), [&](const std::string& p) { return p.find(text) != std::string::npos; });
  };
  CHECK(problems.size() == 4);
  CHECK(mentions("stray.gk has neither"));
  CHECK(mentions("both.gk has both"));
  CHECK(mentions("orphan.expected.csv has no orphan.gk"));
  CHECK(mentions("reference for ghost"));
  fs::remove_all(dir);
}

TEST_CASE("corpus: the corpus line is parsed strictly") {
  std::string why;
  const auto spec = parse_spec("// corpus: cycles 3..7 set a=1 set b=-2 lib lib\nx := 1\n", why);
  REQUIRE(spec);
  CHECK(spec->begin == 3);
  CHECK(spec->end == 7);
  CHECK(spec->sets == std::vector<std::string>{"a=1", "b=-2"});
  CHECK(spec->libs == std::vector<std::string>{"lib"});
  CHECK_FALSE(parse_spec("x := 1\n", why));
  CHECK_FALSE(parse_spec("// corpus: set a=1\n", why));
  CHECK_FALSE(parse_spec("// corpus: cycles 7..3\n", why));
  CHECK_FALSE(parse_spec("// corpus: cycles 0..3 frobnicate x\n", why));
}

TEST_CASE("corpus: every kernel compiles, validates and matches its expected output") {
  const auto all = corpus_kernels();
  REQUIRE(!all.empty());
  std::string failed;
  size_t checked = 0;
  for (const Kernel& k : all) {
    if (kKnownBugs.count(k.name)) continue;  // the may_fail case below
    ++checked;
    if (!check_kernel(k)) failed += " " + k.name;
  }
  MESSAGE(checked << " corpus kernels checked");
  CHECK_MESSAGE(failed.empty(), "failing kernels:" << failed);
}

TEST_CASE("corpus: kernels exposing known compiler bugs" * doctest::may_fail()) {
  const auto all = corpus_kernels();
  for (const auto& [name, reason] : kKnownBugs) {
    MESSAGE("known compiler bug in " << name << ": " << reason);
    if (check_kernel(kernel_named(all, name))) MESSAGE(name << " now passes: take it off kKnownBugs");
  }
}

TEST_CASE("corpus: the comparison reports a planted fault in an expected table") {
  const auto all = corpus_kernels();
  const Kernel& k = kernel_named(all, "arith_basic");
  std::string why;
  const auto spec = parse_spec(k.text, why);
  REQUIRE(spec);
  const auto r = compile_kernel(k, *spec);
  REQUIRE_MESSAGE(r.ok(), r.render_diagnostics());
  const Rendered actual = evaluate_csv(r, *r.ir, *spec);
  REQUIRE(actual.error.empty());
  auto expected = *expected_lines(k.name, *spec);
  REQUIRE(!first_difference(expected, actual.lines));

  // Row 3 is "2,5,0,14,33,1": perturb its `quot` (33 -> 34).
  REQUIRE(expected.size() > 3);
  REQUIRE(expected[3] == "2,5,0,14,33,1");
  auto planted = expected;
  planted[3] = "2,5,0,14,34,1";
  const auto diff = first_difference(planted, actual.lines);
  REQUIRE(diff);
  CHECK(diff->find("row 3") != std::string::npos);
  CHECK(diff->find("(quot)") != std::string::npos);
  CHECK(diff->find("expected '34', got '33'") != std::string::npos);

  // A missing last row and an extra row are reported too.
  auto shorter = expected;
  shorter.pop_back();
  REQUIRE(first_difference(shorter, actual.lines));
  CHECK(first_difference(shorter, actual.lines)->find("unexpected") != std::string::npos);
  auto longer = expected;
  longer.push_back("6,9,4,42,14,2");
  REQUIRE(first_difference(longer, actual.lines));
  CHECK(first_difference(longer, actual.lines)->find("missing") != std::string::npos);
}

TEST_CASE("corpus: the comparison reports a planted fault in a reference") {
  const auto all = corpus_kernels();
  const Kernel& k = kernel_named(all, "lfsr");
  std::string why;
  const auto spec = parse_spec(k.text, why);
  REQUIRE(spec);
  const auto r = compile_kernel(k, *spec);
  REQUIRE_MESSAGE(r.ok(), r.render_diagnostics());
  const Rendered actual = evaluate_csv(r, *r.ir, *spec);
  REQUIRE(actual.error.empty());
  auto expected = *expected_lines(k.name, *spec);
  REQUIRE(!first_difference(expected, actual.lines));

  // Flip one bit of the state at cycle 17 (row 18).
  const auto& ref = corpus::references().at("lfsr");
  auto fields = ref.row(17);
  fields[1] = ir::Value::integer(ir::TyKind::U64, fields[1].as_u64() ^ 4);
  expected[18] = csv_line(fields);
  const auto diff = first_difference(expected, actual.lines);
  REQUIRE(diff);
  CHECK(diff->find("row 18 (first field 17)") != std::string::npos);
  CHECK(diff->find("(state)") != std::string::npos);
}

TEST_CASE("corpus: CSV fields split as eval quotes them") {
  CHECK(csv_fields("a,\"b, c\",\"say \"\"x\"\"\",") == std::vector<std::string>{"a", "b, c", "say \"x\"", ""});
}

TEST_CASE("corpus: the references agree with their own definitions") {
  // hash: XXH3-64 of the 8 little-endian bytes, against a second spelling.
  for (uint64_t x : {0ull, 1ull, 42ull, 0xFFFFFFFFFFFFFFFFull}) {
    const uint64_t le = x;  // the hosts this runs on are little-endian
    CHECK(corpus::ref_hash(x) == XXH3_64bits(&le, 8));
  }
  // pcg: the jump-ahead equals stepping one at a time; position 0 is the seed itself.
  for (uint64_t pos = 0; pos < 300; ++pos)
    for (uint64_t stream : {0ull, 1ull, 7ull})
      CHECK(corpus::ref_pcg(pos, 42, stream) == corpus::ref_pcg_stepped(pos, 42, stream));
  CHECK(corpus::ref_pcg(0, 0, 3) == 0);  // position 0 is the seed itself, and output(0) is 0
  // permute: a bijection of [0, range) for several ranges and seeds.
  for (uint64_t range : {1ull, 2ull, 3ull, 10ull, 64ull, 100ull, 1000ull}) {
    for (uint64_t seed : {0ull, 3ull, 7ull}) {
      std::set<uint64_t> seen;
      for (uint64_t p = 0; p < range; ++p) {
        const uint64_t v = corpus::ref_permute(p, range, seed);
        CHECK(v < range);
        seen.insert(v);
      }
      CHECK(seen.size() == range);
    }
  }
  CHECK(corpus::ref_cycle_walk(5, 1, 1, 0) == 0);
  // unit_interval is x / 2^64 rounded (nb-rs): 0, 2^-64, one half, and 1.0 at the top.
  CHECK(corpus::ref_unit_interval(0) == 0.0);
  CHECK(corpus::ref_unit_interval(1) == 0x1p-64);
  CHECK(corpus::ref_unit_interval(uint64_t{1} << 63) == 0.5);
  CHECK(corpus::ref_unit_interval(~uint64_t{0} - 1023) == 1.0);
  CHECK(corpus::ref_unit_interval(~uint64_t{0} - 1024) < 1.0);
}

namespace {
using Pass = ir::Result<ir::CategoryIr> (*)(const ir::CategoryIr&);
struct NamedPass {
  const char* name;
  Pass run;
};
// Each pass alone, and the pipeline: every one must keep every kernel valid and equal.
const NamedPass kPasses[] = {
    {"inline_calls", ir::inline_calls},
    {"fold_constants", ir::fold_constants},
    {"eliminate_common_subexpressions", ir::eliminate_common_subexpressions},
    {"eliminate_dead_code", ir::eliminate_dead_code},
    {"optimize", ir::optimize},
};

// Like check_kernel, for a pass: valid, and the same table as before (and as
// expected). Non-fatal checks only; returns whether it passed.
bool check_optimized(const Kernel& k, const NamedPass& pass = kPasses[4]) {
  INFO("kernel: " << k.path.string());
  std::string why;
  const auto spec = parse_spec(k.text, why);
  if (!spec) return true;  // reported by the main case
  const frontend::CompileResult r = compile_kernel(k, *spec);
  if (!r.ok()) return true;  // reported by the main case
  const Rendered before = evaluate_csv(r, *r.ir, *spec);
  auto opt = pass.run(*r.ir);
  if (!opt.ok()) {
    FAIL_CHECK(k.name << ": " << pass.name << " refused: " << opt.error().message);
    return false;
  }
  const auto violations = ir::validate(*opt);
  for (const ir::IrViolation& v : violations) FAIL_CHECK(k.name << ": validate after " << pass.name << ": " << v.message);
  if (!violations.empty()) return false;
  const Rendered after = evaluate_csv(r, *opt, *spec);
  if (after.error != before.error) {
    FAIL_CHECK(k.name << ": after " << pass.name << ": '" << after.error << "', before: '" << before.error << "'");
    return false;
  }
  if (const auto diff = first_difference(before.lines, after.lines)) {
    FAIL_CHECK(k.name << ": " << pass.name << " changed the outputs (expected = unoptimised): " << *diff);
    return false;
  }
  if (!kKnownBugs.count(k.name)) {
    const auto expected = expected_lines(k.name, *spec);
    if (expected) {
      if (const auto diff = first_difference(*expected, after.lines)) {
        FAIL_CHECK(k.name << ": outputs after " << pass.name << " differ from the expected table: " << *diff);
        return false;
      }
    }
  }
  return true;
}
}  // namespace

TEST_CASE("corpus: every pass, and the pipeline, keep every kernel valid and its outputs equal") {
  const auto all = corpus_kernels();
  for (const NamedPass& pass : kPasses) {
    std::string failed;
    size_t checked = 0;
    for (const Kernel& k : all) {
      if (kKnownBugs.count(k.name) || kKnownOptimizerBugs.count(k.name)) continue;
      ++checked;
      if (!check_optimized(k, pass)) failed += " " + k.name;
    }
    MESSAGE(checked << " corpus kernels through " << pass.name);
    CHECK_MESSAGE(failed.empty(), pass.name << ": failing kernels:" << failed);
  }
}

TEST_CASE("corpus: kernels exposing known optimiser bugs" * doctest::may_fail()) {
  const auto all = corpus_kernels();
  for (const auto& [name, reason] : kKnownOptimizerBugs) {
    MESSAGE("known optimiser bug in " << name << ": " << reason);
    if (check_optimized(kernel_named(all, name))) MESSAGE(name << " now passes: take it off kKnownOptimizerBugs");
  }
}

}  // TEST_SUITE
