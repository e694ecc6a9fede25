// The examples of docs/language.md, docs/guide.md and docs/streaming.md, run through the real
// `polydat` binary. The documents are executable; the rules are:
//
// * A fenced block tagged ```gk is a kernel file that must compile; one
//   tagged ```gk-error must fail to compile (`polydat check` exits 1). Its
//   first line may be `// file: PATH` (a relative path, folders allowed,
//   e.g. `// file: lib/scramble.gk`); without it the file is `example.gk`.
//   The `// file:` line stays in the file, so the line numbers of a
//   diagnostic are those of the block as printed.
// * Kernel blocks form a group: a group ends where a kernel block follows a
//   console block, or where a kernel block reuses a path of its group.
//   Every file of a group is checked with `polydat check PATH`, run in a
//   folder holding the whole group, with `-L DIR` for each folder of the
//   group (so a kernel calling a module in `lib/` is checked with it).
// * A fenced block tagged ```console runs commands with the files of the
//   group before it, in a fresh temporary folder. A line `$ polydat ARGS`
//   starts a command (ARGS split at spaces; '...' and "..." quote); the lines
//   after it, up to the next `$ ` line or the end of the block, are its exact
//   expected output: what it writes on stdout, then what it writes on stderr
//   (the binary writes its diagnostics on stderr and its results on stdout).
//   When the exit status is not 0, the last expected line is `[exit N]`.
//   Empty lines at the end of an output are not compared. The first line of a
//   console block must be a `$ polydat` command.
// * Other fenced blocks (```text, ```sh, ...) are prose.
//
// A failure names the document, the line of the example and the first line
// that differs. Examples that expose a known compiler bug are listed in
// kKnownBugs and checked by a may_fail test case instead.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/process.h"

namespace fs = std::filesystem;
using polydat::testing::split_lines;

namespace {

const std::string kPolydat = POLYDAT_EXE;
const fs::path kSourceRoot = POLYDAT_SOURCE_ROOT;

// Examples exposing a compiler bug (polydat disagrees with the language):
// "document#kernel path" -> what is wrong. Checked by the may_fail test case.
const std::map<std::string, std::string> kKnownBugs = {
};

// ---- the documents' examples ----

struct KernelFile {
  std::string path;  // relative to the example's folder
  std::string text;
  bool expect_error = false;  // ```gk-error
  int line = 0;               // of the opening fence
};

struct Command {
  std::string text;  // after "$ "
  std::vector<std::string> argv;
  std::vector<std::string> expected;  // output lines, without the [exit N] line
  int status = 0;
  int line = 0;
};

struct Console {
  int line = 0;
  std::vector<Command> commands;
};

struct Group {
  std::vector<KernelFile> files;
  std::vector<Console> consoles;
  int line = 0;  // of its first block
};

struct Failure {
  int line = 0;
  std::string message;
};

struct Extracted {
  std::vector<Group> groups;
  std::vector<Failure> errors;  // malformed examples
};


std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  const size_t b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}

// Splits a command line at spaces; '...' and "..." quote, \ escapes outside '...'.
std::optional<std::vector<std::string>> split_args(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool in_word = false;
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote) {
      if (c == quote) quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < line.size()) cur += line[++i];
      else cur += c;
      continue;
    }
    if (c == ' ' || c == '\t') {
      if (in_word) out.push_back(cur);
      cur.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\'' || c == '"') quote = c;
    else if (c == '\\' && i + 1 < line.size()) cur += line[++i];
    else cur += c;
  }
  if (quote) return std::nullopt;
  if (in_word) out.push_back(cur);
  return out;
}

std::optional<int> exit_line(const std::string& line) {
  if (line.size() < 8 || line.rfind("[exit ", 0) != 0 || line.back() != ']') return std::nullopt;
  const std::string digits = line.substr(6, line.size() - 7);
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return std::stoi(digits);
}

Console parse_console(const std::vector<std::string>& body, int fence_line, std::vector<Failure>& errors) {
  Console c;
  c.line = fence_line;
  for (size_t i = 0; i < body.size(); ++i) {
    const std::string& l = body[i];
    const int at = fence_line + 1 + static_cast<int>(i);
    if (l.rfind("$ ", 0) == 0) {
      Command cmd;
      cmd.text = l.substr(2);
      cmd.line = at;
      auto argv = split_args(cmd.text);
      if (!argv || argv->empty() || (*argv)[0] != "polydat") {
        errors.push_back({at, "a console command must be `$ polydat ...`, not `" + l + "`"});
        continue;
      }
      cmd.argv = *argv;
      c.commands.push_back(std::move(cmd));
      continue;
    }
    if (c.commands.empty()) {
      errors.push_back({at, "a console block must start with a `$ polydat ...` line"});
      return c;
    }
    c.commands.back().expected.push_back(l);
  }
  for (Command& cmd : c.commands) {
    while (!cmd.expected.empty() && trim(cmd.expected.back()).empty()) cmd.expected.pop_back();
    if (!cmd.expected.empty()) {
      if (auto st = exit_line(cmd.expected.back())) {
        cmd.status = *st;
        cmd.expected.pop_back();
        while (!cmd.expected.empty() && trim(cmd.expected.back()).empty()) cmd.expected.pop_back();
      }
    }
  }
  return c;
}

Extracted extract(const std::string& text) {
  Extracted out;
  const std::vector<std::string> lines = split_lines(text);
  Group group;
  bool last_was_console = false;
  auto close_group = [&]() {
    if (!group.files.empty() || !group.consoles.empty()) out.groups.push_back(std::move(group));
    group = Group{};
  };
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string open = trim(lines[i]);
    if (open.rfind("```", 0) != 0) continue;
    const std::string tag = trim(open.substr(3));
    const int fence_line = static_cast<int>(i) + 1;
    std::vector<std::string> body;
    size_t j = i + 1;
    while (j < lines.size() && trim(lines[j]) != "```") body.push_back(lines[j++]);
    if (j == lines.size()) {
      out.errors.push_back({fence_line, "this fenced block is never closed"});
      break;
    }
    i = j;
    if (tag == "gk" || tag == "gk-error") {
      KernelFile f;
      f.path = "example.gk";
      f.expect_error = tag == "gk-error";
      f.line = fence_line;
      if (!body.empty() && body[0].rfind("// file: ", 0) == 0) f.path = trim(body[0].substr(9));
      if (f.path.empty() || f.path[0] == '/' || f.path.find("..") != std::string::npos)
        out.errors.push_back({fence_line, "`// file:` takes a relative path inside the example's folder"});
      for (const std::string& l : body) f.text += l + "\n";
      bool reused = false;
      for (const KernelFile& g : group.files) reused = reused || g.path == f.path;
      if (last_was_console || reused) close_group();
      if (group.files.empty() && group.consoles.empty()) group.line = fence_line;
      group.files.push_back(std::move(f));
      last_was_console = false;
    } else if (tag == "console") {
      if (group.files.empty() && group.consoles.empty()) group.line = fence_line;
      group.consoles.push_back(parse_console(body, fence_line, out.errors));
      last_was_console = true;
    }
  }
  close_group();
  return out;
}

// ---- running polydat ----

using Run = polydat::testing::ProcessResult;

// Runs the binary with argv[0] = "polydat" in `cwd`, stdout and stderr captured apart.
Run run_polydat(const std::vector<std::string>& args, const fs::path& cwd) {
  return polydat::testing::run_process(kPolydat, args, cwd);
}

void write_files(const Group& g, const polydat::testing::TempDir& dir) {
  for (const KernelFile& f : g.files) dir.write(f.path, f.text);
}

std::string quoted_lines(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += "\n    | " + l;
  return s.empty() ? "\n    (nothing)" : s;
}

// The first difference between expected and actual output, or nullopt.
std::optional<std::string> first_difference(const std::vector<std::string>& expected,
                                            const std::vector<std::string>& actual) {
  const size_t n = std::max(expected.size(), actual.size());
  for (size_t i = 0; i < n; ++i) {
    const bool has_e = i < expected.size(), has_a = i < actual.size();
    if (has_e && has_a && expected[i] == actual[i]) continue;
    std::string m = "output line " + std::to_string(i + 1) + " differs:";
    m += "\n  expected: " + (has_e ? "`" + expected[i] + "`" : std::string("(no more lines)"));
    m += "\n  actual:   " + (has_a ? "`" + actual[i] + "`" : std::string("(no more lines)"));
    return m;
  }
  return std::nullopt;
}

std::vector<std::string> output_lines(const Run& r) {
  std::vector<std::string> lines = split_lines(r.out);
  for (const std::string& l : split_lines(r.err)) lines.push_back(l);
  while (!lines.empty() && trim(lines.back()).empty()) lines.pop_back();
  return lines;
}

std::vector<Failure> run_group(const Group& g) {
  std::vector<Failure> failures;
  // Every kernel file compiles (```gk) or fails to (```gk-error).
  if (!g.files.empty()) {
    polydat::testing::TempDir dir("polydat-docs");
    write_files(g, dir);
    std::set<std::string> folders;
    for (const KernelFile& f : g.files) folders.insert(fs::path(f.path).parent_path().string());
    for (const KernelFile& f : g.files) {
      std::vector<std::string> args{"polydat", "check", f.path};
      for (const std::string& d : folders) {
        args.push_back("-L");
        args.push_back(d.empty() ? "." : d);
      }
      const Run r = run_polydat(args, dir.path());
      const std::string said = quoted_lines(output_lines(r));
      if (!f.expect_error && r.status != 0)
        failures.push_back({f.line, "`" + f.path + "` (```gk) does not compile: `polydat check` exited " +
                                        std::to_string(r.status) + ":" + said});
      if (f.expect_error && r.status != 1)
        failures.push_back({f.line, "`" + f.path + "` (```gk-error) should fail to compile with exit 1, but " +
                                        "`polydat check` exited " + std::to_string(r.status) + ":" + said});
    }
  }
  for (const Console& c : g.consoles) {
    polydat::testing::TempDir dir("polydat-docs");
    write_files(g, dir);
    for (const Command& cmd : c.commands) {
      const Run r = run_polydat(cmd.argv, dir.path());
      const std::vector<std::string> actual = output_lines(r);
      std::string problem;
      if (auto diff = first_difference(cmd.expected, actual)) problem = *diff;
      if (r.status != cmd.status) {
        problem += problem.empty() ? "" : "\n  ";
        problem += "exit status: expected " + std::to_string(cmd.status) + ", got " + std::to_string(r.status);
      }
      if (!problem.empty())
        failures.push_back({cmd.line, "`$ " + cmd.text + "`: " + problem + "\n  the whole output was:" +
                                          quoted_lines(actual)});
    }
  }
  return failures;
}

// ---- documents ----

struct DocReport {
  size_t kernels = 0, commands = 0, groups = 0;
  std::vector<std::string> failures;  // "doc:line: message"
};

std::string known_bug_key(const std::string& doc, const Group& g) {
  for (const KernelFile& f : g.files)
    if (kKnownBugs.count(doc + "#" + f.path)) return doc + "#" + f.path;
  return {};
}

// Runs the examples of a document; `known` selects the groups listed in
// kKnownBugs (true) or all the others (false).
DocReport check_document(const std::string& doc, const std::string& text, bool known) {
  DocReport rep;
  const Extracted ex = extract(text);
  for (const Failure& f : ex.errors) rep.failures.push_back(doc + ":" + std::to_string(f.line) + ": " + f.message);
  for (const Group& g : ex.groups) {
    if (known_bug_key(doc, g).empty() == known) continue;
    ++rep.groups;
    rep.kernels += g.files.size();
    for (const Console& c : g.consoles) rep.commands += c.commands.size();
    for (const Failure& f : run_group(g))
      rep.failures.push_back(doc + ":" + std::to_string(f.line) + ": " + f.message);
  }
  return rep;
}

std::string read_doc(const std::string& rel) {
  const fs::path p = kSourceRoot / rel;
  REQUIRE_MESSAGE(fs::is_regular_file(p), rel << " is missing");
  return polydat::testing::read_file(p);
}

void check_doc(const std::string& rel, size_t min_commands) {
  const DocReport rep = check_document(rel, read_doc(rel), false);
  MESSAGE(rel << ": " << rep.kernels << " kernel blocks and " << rep.commands << " commands in " << rep.groups
              << " examples");
  for (const std::string& f : rep.failures) FAIL_CHECK(f);
  CHECK(rep.commands >= min_commands);
}

}  // namespace

TEST_CASE("docs: every example of docs/language.md runs as shown") { check_doc("docs/language.md", 40); }

TEST_CASE("docs: every example of docs/guide.md runs as shown") { check_doc("docs/guide.md", 15); }

TEST_CASE("docs: every example of docs/streaming.md runs as shown") { check_doc("docs/streaming.md", 4); }

TEST_CASE("docs: examples exposing known compiler bugs" * doctest::may_fail()) {
  for (const auto& [key, reason] : kKnownBugs) MESSAGE("known compiler bug in " << key << ": " << reason);
  for (const std::string doc : {"docs/language.md", "docs/guide.md"}) {
    const DocReport rep = check_document(doc, read_doc(doc), true);
    for (const std::string& f : rep.failures) FAIL_CHECK(f);
    if (rep.groups && rep.failures.empty())
      MESSAGE(doc << ": its known-bug examples now pass: take them off kKnownBugs");
  }
}

// ---- the harness itself ----

TEST_CASE("docs harness: a wrong expected output is reported with the document, the line and the first difference") {
  const std::string doc =
      "# A test document\n"                               // 1
      "\n"                                                 // 2
      "```gk\n"                                            // 3
      "input cycle: u64\n"                                 // 4
      "twice := cycle * 2\n"                               // 5
      "```\n"                                              // 6
      "\n"                                                 // 7
      "```console\n"                                       // 8
      "$ polydat eval example.gk --cycles 3 --format csv\n"  // 9
      "cycle,twice\n"                                      // 10
      "0,0\n"                                              // 11
      "1,3\n"                                              // 12
      "2,4\n"                                              // 13
      "```\n";
  const DocReport rep = check_document("mem.md", doc, false);
  CHECK(rep.kernels == 1);
  CHECK(rep.commands == 1);
  REQUIRE(rep.failures.size() == 1);
  const std::string& f = rep.failures[0];
  CHECK(f.rfind("mem.md:9: ", 0) == 0);  // the document and the command's line
  CHECK(f.find("output line 3 differs") != std::string::npos);
  CHECK(f.find("expected: `1,3`") != std::string::npos);
  CHECK(f.find("actual:   `1,2`") != std::string::npos);
}

TEST_CASE("docs harness: the same document with the right output passes") {
  const std::string doc =
      "```gk\n"
      "// file: twice.gk\n"
      "input cycle: u64\n"
      "twice := cycle * 2\n"
      "```\n"
      "```console\n"
      "$ polydat eval twice.gk --cycles 1..3 --format csv\n"
      "cycle,twice\n"
      "1,2\n"
      "2,4\n"
      "$ polydat check twice.gk\n"
      "twice.gk: ok (cycle: u64) -> (twice: u64)\n"
      "```\n";
  const DocReport rep = check_document("mem.md", doc, false);
  CHECK(rep.commands == 2);
  CHECK(rep.failures.empty());
}

TEST_CASE("docs harness: exit statuses, stderr after stdout, and kernels that should or should not compile") {
  const std::string doc =
      "```gk-error\n"                                  // 1
      "x := 1 +\n"                                     // 2
      "```\n"                                          // 3
      "```gk\n"                                        // 4: reuses example.gk: a new group
      "x := cycle +\n"                                 // 5
      "```\n"                                          // 6
      "```gk-error\n"                                  // 7
      "// file: fine.gk\n"                             // 8
      "x := cycle + 1\n"                               // 9
      "```\n"                                          // 10
      "```console\n"                                   // 11
      "$ polydat eval fine.gk --cycles 1\n"            // 12
      "cycle  x\n"                                     // 13
      "0      1\n"                                     // 14
      "[exit 1]\n"                                     // 15
      "```\n"                                          // 16
      "```console\n"                                   // 17
      "polydat check fine.gk\n"                        // 18
      "```\n";
  const DocReport rep = check_document("mem.md", doc, false);
  std::string all;
  for (const std::string& f : rep.failures) all += f + "\n";
  INFO(all);
  CHECK(all.find("mem.md:1: ") == std::string::npos);  // the gk-error that fails: fine
  CHECK(all.find("mem.md:4: `example.gk` (```gk) does not compile") != std::string::npos);
  CHECK(all.find("mem.md:7: `fine.gk` (```gk-error) should fail") != std::string::npos);
  CHECK(all.find("mem.md:12: `$ polydat eval fine.gk --cycles 1`: exit status: expected 1, got 0") !=
        std::string::npos);
  CHECK(all.find("mem.md:18: a console block must start with a `$ polydat ...` line") != std::string::npos);
  CHECK(rep.failures.size() == 4);
}

TEST_CASE("docs harness: diagnostics (stderr) are compared after the results (stdout)") {
  const std::string doc =
      "```gk\n"
      "x := cycle * 2\n"
      "pragma fast\n"
      "```\n"
      "```console\n"
      "$ polydat check example.gk\n"
      "example.gk: ok (cycle: u64) -> (x: u64)\n"
      "example.gk:2:8: warning: unknown pragma 'fast' is ignored [unknown-pragma]\n"
      "  pragma fast\n"
      "         ^~~~\n"
      "```\n";
  const DocReport rep = check_document("mem.md", doc, false);
  for (const std::string& f : rep.failures) FAIL_CHECK(f);
}

TEST_CASE("docs harness: extraction of files, groups, commands and exit lines") {
  const std::string doc =
      "```gk\n// file: lib/m.gk\ninput v: u64\nw := v\n```\n"
      "text\n"
      "```gk\ny := m(cycle)\n```\n"
      "```console\n$ polydat eval example.gk -L lib\nsomething\n\n[exit 2]\n$ polydat check 'a b.gk'\n```\n"
      "```text\n$ not a command\n```\n"
      "```console\n$ polydat --version\npolydat 0.1.0\n```\n"
      "```gk\nz := 1\n```\n";
  const Extracted ex = extract(doc);
  CHECK(ex.errors.empty());
  REQUIRE(ex.groups.size() == 2);
  const Group& g = ex.groups[0];
  REQUIRE(g.files.size() == 2);
  CHECK(g.files[0].path == "lib/m.gk");
  CHECK(g.files[1].path == "example.gk");
  CHECK(g.files[1].text == "y := m(cycle)\n");
  REQUIRE(g.consoles.size() == 2);
  REQUIRE(g.consoles[0].commands.size() == 2);
  const Command& c = g.consoles[0].commands[0];
  CHECK(c.argv == std::vector<std::string>{"polydat", "eval", "example.gk", "-L", "lib"});
  CHECK(c.expected == std::vector<std::string>{"something"});
  CHECK(c.status == 2);
  CHECK(g.consoles[0].commands[1].argv == std::vector<std::string>{"polydat", "check", "a b.gk"});
  CHECK(g.consoles[1].commands[0].expected == std::vector<std::string>{"polydat 0.1.0"});
  CHECK(ex.groups[1].files.size() == 1);
  CHECK(ex.groups[1].consoles.empty());
}
