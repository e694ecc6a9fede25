// The CI reports of `polydat difftest`, `fuzz` and `cosim` (--junit, --json),
// end to end through the binary: each file validated by xmllint against
// tests/difftest/junit.xsd, read back by an XML reader of the test's own, its
// counts checked against its test cases and its JSON twin. A mismatch is planted
// by an `iverilog` on $PATH that turns every ` + ` of the design into ` - `
// before the real one compiles it; an engine failure by one that refuses.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "difftest/report.h"
#include "tests/difftest/xml_reader.h"
#include "tests/support/process.h"

using namespace polydat;
namespace fs = std::filesystem;
using polydat::testing::ProcessResult;

namespace {

const char* kAdder = "input (cycle: u64, k: u8)\na := cycle * 3\nb := (k as u64) + cycle\n";
const char* kFloat = "input x: u64\ny := (x as f64) * 0.5\n";

std::string on_path(const std::string& program) {
  std::istringstream dirs(std::getenv("PATH") ? std::getenv("PATH") : "");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && fs::exists(fs::path(dir) / program)) return (fs::path(dir) / program).string();
  return "";
}

// A folder with kernels, a model cache of its own (a planted fault must not reach the shared cache),
// and optionally a fake iverilog ahead of the real one on $PATH.
class Bench {
 public:
  enum class Fault { None, PlusToMinus, Refuse };

  Bench() { fs::create_directories(dir_.path() / "shim"); }
  const fs::path& path() const { return dir_.path(); }
  void file(const std::string& rel, const std::string& text) const { dir_.write(rel, text); }
  std::string read(const std::string& rel) const { return polydat::testing::read_file(dir_.path() / rel); }

  void plant(Fault f) const {
    const fs::path shim = dir_.path() / "shim" / "iverilog";
    fs::remove(shim);
    if (f == Fault::None) return;
    const std::string real = on_path("iverilog");
    REQUIRE(!real.empty());
    std::ofstream(shim) << "#!/bin/sh\n"
                        << (f == Fault::Refuse ? "echo 'planted: iverilog refuses' >&2\nexit 1\n"
                                               : "for a in \"$@\"; do last=\"$a\"; done\nsed -i 's/ + / - /g' \"$last\"\n"
                                                 "exec " + real + " \"$@\"\n");
    fs::permissions(shim, fs::perms::owner_all);
  }

  ProcessResult run(const std::vector<std::string>& args) const {
    std::vector<std::string> argv{"env", "PATH=" + (dir_.path() / "shim").string() + ":" + std::getenv("PATH"),
                                  "POLYDAT_CACHE=" + (dir_.path() / "cache").string(), POLYDAT_EXE};
    argv.insert(argv.end(), args.begin(), args.end());
    return polydat::testing::run_process("/usr/bin/env", argv, dir_.path(), std::chrono::seconds(600));
  }

 private:
  polydat::testing::TempDir dir_{"polydat-report"};
};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// xmllint's verdict on the file against the schema: empty when it validates.
std::string schema_errors(const fs::path& file) {
  const ProcessResult r = polydat::testing::run_process(
      "/usr/bin/env", {"env", "xmllint", "--noout", "--schema", POLYDAT_JUNIT_XSD, file.string()}, file.parent_path());
  return r.status == 0 ? "" : r.err + " (status " + std::to_string(r.status) + ")";
}

struct Counts {
  size_t tests = 0, failures = 0, errors = 0, skipped = 0;
};

// Reads the report back, requires every count to agree with the test cases inside, and returns them.
Counts checked_structure(const std::string& xml) {
  const auto root = xmltest::parse(xml);
  REQUIRE(root->name == "testsuites");
  const auto suites = root->all("testsuite");
  REQUIRE(suites.size() == 1);
  const xmltest::Element& suite = *suites.front();
  Counts c;
  for (const xmltest::Element* t : suite.all("testcase")) {
    ++c.tests;
    CHECK(!t->attr("classname").empty());
    CHECK(!t->attr("name").empty());
    c.failures += t->all("failure").size();
    c.errors += t->all("error").size();
    c.skipped += t->all("skipped").size();
    CHECK(t->all("failure").size() + t->all("error").size() + t->all("skipped").size() <= 1);
  }
  for (const xmltest::Element* e : {&suite, static_cast<const xmltest::Element*>(root.get())}) {
    CAPTURE(e->name);
    CHECK(e->attr("tests") == std::to_string(c.tests));
    CHECK(e->attr("failures") == std::to_string(c.failures));
    CHECK(e->attr("errors") == std::to_string(c.errors));
    CHECK(e->attr("skipped") == std::to_string(c.skipped));
  }
  return c;
}

// The JSON summary says what the XML says, case by case.
void check_json_agrees(const std::string& xml, const std::string& json) {
  const auto root = xmltest::parse(xml);
  const auto cases = root->first("testsuite")->all("testcase");
  const nlohmann::json j = nlohmann::json::parse(json);
  REQUIRE(j["cases"].size() == cases.size());
  CHECK(j["tests"] == cases.size());
  size_t failures = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const nlohmann::json& c = j["cases"][i];
    CHECK(c["kernel"] == cases[i]->attr("classname"));
    CHECK(c["engine"] == cases[i]->attr("name"));
    const std::string outcome = cases[i]->first("failure") ? "failure" : cases[i]->first("error") ? "error"
                                : cases[i]->first("skipped")                                    ? "skipped"
                                                                                                : "passed";
    CHECK(c["outcome"] == outcome);
    failures += outcome == "failure";
  }
  CHECK(j["failures"] == failures);
}

// The report with its time attributes (the one thing allowed to differ between runs) blanked.
std::string timeless(const std::string& xml) { return std::regex_replace(xml, std::regex("time=\"[0-9.]+\""), "time=\"\""); }

const xmltest::Element* testcase(const xmltest::Element& root, const std::string& engine) {
  for (const xmltest::Element* t : root.first("testsuite")->all("testcase"))
    if (t->attr("name") == engine) return t;
  FAIL("no test case for " << engine);
  return nullptr;
}

}  // namespace

TEST_CASE("report: difftest writes a schema-valid JUnit file, one case per engine, and its JSON twin") {
  Bench b;
  b.file("k.gk", kAdder);
  b.file("f.gk", kFloat);
  const ProcessResult ok = b.run({"difftest", "k.gk", "--engines", "interp,llvm,iverilog", "--inputs", "20", "--junit",
                                  "k.xml", "--json", "k.json"});
  CHECK(ok.status == 0);
  CHECK(schema_errors(b.path() / "k.xml") == "");
  const Counts c = checked_structure(b.read("k.xml"));
  CHECK(c.tests == 3);
  CHECK(c.failures + c.errors + c.skipped == 0);
  check_json_agrees(b.read("k.xml"), b.read("k.json"));
  const auto root = xmltest::parse(b.read("k.xml"));
  CHECK(testcase(*root, "llvm")->attr("classname") == "k.gk");

  // Hardware refuses a float: skipped, not failed, and the status stays 0.
  const ProcessResult f = b.run({"difftest", "f.gk", "--engines", "interp,iverilog", "--inputs", "10", "--junit", "f.xml"});
  CHECK(f.status == 0);
  CHECK(schema_errors(b.path() / "f.xml") == "");
  CHECK(checked_structure(b.read("f.xml")).skipped == 1);
  const auto fr = xmltest::parse(b.read("f.xml"));
  CHECK(contains(testcase(*fr, "iverilog")->first("skipped")->attr("message"), "no-hardware-width"));

  // The same run again: the same file, but for its times.
  CHECK(b.run({"difftest", "k.gk", "--engines", "interp,llvm,iverilog", "--inputs", "20", "--junit", "k2.xml"}).status == 0);
  CHECK(timeless(b.read("k2.xml")) == timeless(b.read("k.xml")));
}

TEST_CASE("report: a planted mismatch is a <failure> with the inputs, both values and the replay command") {
  Bench b;
  b.file("k.gk", kAdder);
  b.plant(Bench::Fault::PlusToMinus);
  const ProcessResult bad = b.run({"difftest", "k.gk", "--engines", "interp,iverilog", "--inputs", "20", "--seed", "7",
                                   "--junit", "bad.xml", "--json", "bad.json"});
  CHECK(bad.status == 1);  // the report changes nothing about the status
  CHECK(schema_errors(b.path() / "bad.xml") == "");
  const Counts c = checked_structure(b.read("bad.xml"));
  CHECK(c.tests == 2);
  CHECK(c.failures == 1);
  const auto root = xmltest::parse(b.read("bad.xml"));
  CHECK(!testcase(*root, "interp")->first("failure"));
  const xmltest::Element* failure = testcase(*root, "iverilog")->first("failure");
  REQUIRE(failure);
  CHECK(failure->attr("type") == "mismatch");
  CHECK(contains(failure->attr("message"), "iverilog DISAGREES"));
  CHECK(contains(failure->text, "the oracle gives"));
  CHECK(contains(failure->text, "iverilog gives"));
  CHECK(contains(failure->text, "inputs ("));
  CHECK(contains(failure->text, "replay: polydat difftest k.gk --engines iverilog --inputs 20 --seed 7 --stall 0.25\n"));
  check_json_agrees(b.read("bad.xml"), b.read("bad.json"));
  const nlohmann::json j = nlohmann::json::parse(b.read("bad.json"));
  CHECK(j["cases"][1]["replay"][0] == "polydat difftest k.gk --engines iverilog --inputs 20 --seed 7 --stall 0.25");

  // An engine that breaks down is an <error>, not a failure.
  b.plant(Bench::Fault::Refuse);
  fs::remove_all(b.path() / "cache");
  const ProcessResult broke = b.run({"difftest", "k.gk", "--engines", "iverilog", "--inputs", "5", "--junit", "err.xml"});
  CHECK(broke.status == 1);
  CHECK(schema_errors(b.path() / "err.xml") == "");
  const Counts e = checked_structure(b.read("err.xml"));
  CHECK(e.errors == 1);
  const auto er = xmltest::parse(b.read("err.xml"));
  CHECK(contains(testcase(*er, "iverilog")->first("error")->text, "planted: iverilog refuses"));
}

TEST_CASE("report: a kernel that does not compile is one error case; an unwritable report is an error naming it") {
  Bench b;
  b.file("broken.gk", "y := nope(1)\n");
  b.file("k.gk", kAdder);
  const ProcessResult r = b.run({"difftest", "broken.gk", "--engines", "interp", "--junit", "b.xml"});
  CHECK(r.status == 1);
  CHECK(schema_errors(b.path() / "b.xml") == "");
  CHECK(checked_structure(b.read("b.xml")).errors == 1);
  CHECK(contains(xmltest::parse(b.read("b.xml"))->first("testsuite")->first("testcase")->first("error")->text,
                 "unknown function 'nope'"));

  for (const char* flag : {"--junit", "--json"}) {
    CAPTURE(flag);
    const ProcessResult w = b.run({"difftest", "k.gk", "--engines", "interp", flag, "/proc/nope/r.xml"});
    CHECK(w.status != 0);
    CHECK(contains(w.err, "/proc/nope"));
    const ProcessResult d = b.run({"difftest", "k.gk", "--engines", "interp", flag, "."});  // a folder
    CHECK(d.status == 1);
    CHECK(contains(d.err, "error: cannot write '.': Is a directory"));
  }
}

TEST_CASE("report: fuzz writes one case per generated kernel and engine") {
  Bench b;
  const ProcessResult r = b.run({"fuzz", "--count", "4", "--seed", "10", "--engines", "interp,iverilog", "--inputs", "8",
                                 "-o", "findings", "--junit", "fuzz.xml", "--json", "fuzz.json"});
  CHECK(r.status == 0);
  CHECK(schema_errors(b.path() / "fuzz.xml") == "");
  const Counts c = checked_structure(b.read("fuzz.xml"));
  CHECK(c.tests == 8);
  CHECK(c.failures + c.errors == 0);
  check_json_agrees(b.read("fuzz.xml"), b.read("fuzz.json"));
  const auto root = xmltest::parse(b.read("fuzz.xml"));
  std::vector<std::string> kernels;
  for (const xmltest::Element* t : root->first("testsuite")->all("testcase")) kernels.push_back(t->attr("classname"));
  CHECK(kernels == std::vector<std::string>{"gen10.gk", "gen10.gk", "gen11.gk", "gen11.gk", "gen12.gk", "gen12.gk",
                                            "gen13.gk", "gen13.gk"});

  // With an iverilog that refuses, the even (hardware) kernel is an error naming its reduced finding.
  b.plant(Bench::Fault::Refuse);
  fs::remove_all(b.path() / "cache");  // else the models built above are reused and the fake never runs
  const ProcessResult bad = b.run({"fuzz", "--count", "2", "--seed", "10", "--engines", "interp,iverilog", "--inputs", "8",
                                   "-o", "findings", "--junit", "bad.xml"});
  CHECK(bad.status == 1);
  CHECK(schema_errors(b.path() / "bad.xml") == "");
  const Counts e = checked_structure(b.read("bad.xml"));
  CHECK(e.errors == 1);  // gen10 on iverilog; gen11 may be refused by hardware, never built
  const auto br = xmltest::parse(b.read("bad.xml"));
  const xmltest::Element* error = testcase(*br, "iverilog")->first("error");
  REQUIRE(error);
  CHECK(contains(error->text, "replay: polydat difftest findings/finding-10-iverilog.gk --engines iverilog --inputs 8 --seed 10"));
  CHECK(contains(error->text, "replay: polydat fuzz --seed 10 --count 1 --engines interp,iverilog --inputs 8 --stall 0.25"));
  CHECK(fs::exists(b.path() / "findings" / "finding-10-iverilog.gk"));
}

TEST_CASE("report: cosim writes one case; a planted mismatch fails with both reproduce commands") {
  Bench b;
  b.file("k.gk", kAdder);
  const ProcessResult ok = b.run({"cosim", "k.gk", "--sim", "iverilog", "--cycles", "20", "--set", "k=5", "--junit", "ok.xml",
                                  "--json", "ok.json"});
  CHECK(ok.status == 0);
  CHECK(schema_errors(b.path() / "ok.xml") == "");
  CHECK(checked_structure(b.read("ok.xml")).tests == 1);
  check_json_agrees(b.read("ok.xml"), b.read("ok.json"));
  const auto okr = xmltest::parse(b.read("ok.xml"));
  CHECK(testcase(*okr, "iverilog")->attr("classname") == "k.gk");

  b.plant(Bench::Fault::PlusToMinus);
  fs::remove_all(b.path() / "cache");
  const ProcessResult bad = b.run({"cosim", "k.gk", "--sim", "iverilog", "--cycles", "20", "--set", "k=5", "--junit", "bad.xml"});
  CHECK(bad.status == 1);
  CHECK(schema_errors(b.path() / "bad.xml") == "");
  CHECK(checked_structure(b.read("bad.xml")).failures == 1);
  const auto br = xmltest::parse(b.read("bad.xml"));
  const xmltest::Element* failure = testcase(*br, "iverilog")->first("failure");
  REQUIRE(failure);
  CHECK(failure->attr("type") == "mismatch");
  // At cycle 0 both agree (0 and 5 + 0 = 5 - 0); at cycle 1, a = 1 * 3 = 3 and b = 5 + 1 = 6, while the planted
  // design subtracts: b = 5 - 1 = 4, and a, emitted as (cycle << 1) + cycle, is 1 - 2, which wraps to 2^64 - 1.
  CHECK(contains(failure->text, "evaluation 1: inputs (1, 5): the oracle gives (3, 6), iverilog gives (18446744073709551615, 4)"));
  CHECK(contains(failure->text, "replay: polydat cosim k.gk --sim iverilog --cycles 1..2 --set k=5 --stall 0 --seed 1\n"));
  CHECK(contains(failure->text, "replay: polydat cosim k.gk --sim iverilog --cycles 20 --set k=5 --stall 0 --seed 1\n"));
}

TEST_CASE("report: cosim at the iteration limit names the cycle and the line, as eval does, and reports an error") {
  Bench b;
  b.file("lim.gk", "input cycle: u64\nn := loop (i = 0) while i < cycle * 1000 { i = i + 1 } yield i\n");
  const ProcessResult r = b.run({"cosim", "lim.gk", "--sim", "iverilog", "--cycles", "999..1002", "--junit", "lim.xml"});
  CHECK(r.status == 1);
  CHECK(contains(r.err, "lim.gk:2:6: error: the oracle (the interpreter) stopped: the loop ran more than 1000000 "
                        "iterations (at cycle 1001) [iteration-limit]"));
  CHECK(contains(r.err, "while i < cycle * 1000"));  // the source line under the location
  CHECK(!contains(r.err, "the interpreter: the interpreter"));
  CHECK(schema_errors(b.path() / "lim.xml") == "");
  CHECK(checked_structure(b.read("lim.xml")).errors == 1);
  const auto root = xmltest::parse(b.read("lim.xml"));
  CHECK(testcase(*root, "iverilog")->first("error")->attr("type") == "oracle");

  // A workload's cosim and a board top's refuse the flags rather than write a report of another shape.
  b.file("w.yaml", polydat::testing::read_file(fs::path(POLYDAT_SOURCE_ROOT) / "examples/workloads/lfsr.yaml"));
  const ProcessResult w = b.run({"cosim", "w.yaml", "--junit", "w.xml"});
  CHECK(w.status == 2);
  CHECK(contains(w.err, "error: --junit is for a kernel"));
  const ProcessResult board = b.run({"cosim", "lim.gk", "--board", "icebreaker", "--json", "w.json"});
  CHECK(board.status == 2);
  CHECK(contains(board.err, "--junit and --json are for a kernel's co-simulation"));
}

TEST_CASE("report: what XML cannot hold is escaped, and the checks here catch a writer that does not") {
  difftest::Report r{"polydat difftest", {}, 0.5};
  const std::string nasty = "a<b>&\"c'\x01\x7f\xff\t\r\n\xc3\xa9 ]]> \xed\xa0\x80 \xef\xbf\xbf";
  r.cases.push_back({"k<&>.gk", "llvm", difftest::Outcome::Failed, "mismatch", nasty, nasty, {"polydat difftest 'k<&>.gk'"}, 3, 0.25});
  r.cases.push_back({"k.gk", "iverilog", difftest::Outcome::Skipped, "", "two \"loops\"", "", {}, 0, 0});
  r.cases.push_back({"k.gk", "interp", difftest::Outcome::Passed, "", "", "", {}, 3, 0.001});
  testing::TempDir dir;
  const fs::path good = dir.path() / "good.xml";
  REQUIRE(!difftest::write_reports(r, good.string(), ""));
  CHECK(schema_errors(good) == "");
  const std::string xml = polydat::testing::read_file(good);
  const Counts c = checked_structure(xml);
  CHECK((c.tests == 3 && c.failures == 1 && c.skipped == 1));
  const auto root = xmltest::parse(xml);
  const xmltest::Element* failure = testcase(*root, "llvm")->first("failure");
  // Markup survives the round trip; control characters, invalid UTF-8, a surrogate and U+FFFF become \xNN.
  CHECK(failure->attr("message") == "a<b>&\"c'\\x01\x7f\\xFF\t\r\n\xc3\xa9 ]]> \\xED\\xA0\\x80 \\xEF\\xBF\\xBF");
  CHECK(testcase(*root, "llvm")->attr("classname") == "k<&>.gk");
  CHECK(contains(failure->text, "replay: polydat difftest 'k<&>.gk'"));
  CHECK(nlohmann::json::parse(difftest::json_summary(r))["cases"][0]["kernel"] == "k<&>.gk");

  // The planted writer faults: each must be caught by one of the two checks.
  const fs::path unescaped = dir.path() / "unescaped.xml";
  std::ofstream(unescaped) << std::regex_replace(xml, std::regex("&lt;"), "<");
  CHECK(schema_errors(unescaped) != "");
  CHECK_THROWS(xmltest::parse(polydat::testing::read_file(unescaped)));
  const fs::path control = dir.path() / "control.xml";
  std::ofstream(control) << std::regex_replace(xml, std::regex("\\\\x01"), "\x01");
  CHECK(schema_errors(control) != "");
  const fs::path untyped = dir.path() / "untyped.xml";
  std::ofstream(untyped) << std::regex_replace(xml, std::regex("time=\"0.250\""), "time=\"0,250\"");
  CHECK(schema_errors(untyped) != "");
  // A wrong count is well-formed and schema-valid: the structure check is what catches it.
  const std::string miscounted = std::regex_replace(xml, std::regex("tests=\"3\""), "tests=\"4\"");
  const auto m = xmltest::parse(miscounted);
  CHECK(m->attr("tests") == "4");
  CHECK(m->first("testsuite")->all("testcase").size() == 3);
}
