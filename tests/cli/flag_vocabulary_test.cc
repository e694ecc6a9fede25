// One vocabulary of flags: every subcommand's options walked in the parser itself
// (cli/app.cc) against the table of docs/guide.md "Flags shared across subcommands".
// A flag on two subcommands is spelled one way and takes one form of value (unless the
// table says its values are per command), and the table names exactly the commands that have it.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/app.h"
#include "cli/usage.h"

namespace {

// One option of one subcommand: its spellings ("-o,--output") and its value form ("TEXT:FILE").
struct Use {
  std::string command, spelling, takes;
};

std::vector<Use> uses_of(const CLI::App& app) {
  std::vector<Use> out;
  for (const CLI::App* sub : app.get_subcommands({}))
    for (const CLI::Option* o : sub->get_options()) {
      if (o->get_positional() || o->get_name() == "--help,-h" || o->get_lnames() == std::vector<std::string>{"help"}) continue;
      std::string spelling;
      for (const std::string& s : o->get_snames()) spelling += (spelling.empty() ? "-" : ",-") + s;
      for (const std::string& l : o->get_lnames()) spelling += (spelling.empty() ? "--" : ",--") + l;
      out.push_back({sub->get_name(), spelling, o->get_type_name()});
    }
  return out;
}

// A row of the docs table: `-o`, `--output` | FILE or DIR (per command) | meaning | commands.
struct Row {
  std::string spelling, takes;
  std::set<std::string> commands;
};

std::string trim(std::string s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '`')) s.erase(s.begin());
  while (!s.empty() && (s.back() == ' ' || s.back() == '`')) s.pop_back();
  return s;
}

std::map<std::string, Row> table_of(const std::string& markdown) {
  std::map<std::string, Row> rows;  // by each of its names
  std::istringstream in(markdown);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) inside = line == "## Flags shared across subcommands";
    if (!inside || line.rfind("| `-", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream cs(line.substr(1));
    for (std::string c; std::getline(cs, c, '|');) cells.push_back(trim(c));
    REQUIRE_MESSAGE(cells.size() >= 4, line);
    Row r;
    std::stringstream names(cells[0]);
    for (std::string n; std::getline(names, n, ',');) r.spelling += (r.spelling.empty() ? "" : ",") + trim(n);
    r.takes = cells[1];
    std::stringstream cmds(cells[3]);
    for (std::string c; std::getline(cmds, c, ',');) r.commands.insert(trim(c));
    std::stringstream each(r.spelling);
    for (std::string n; std::getline(each, n, ',');) rows[n] = r;
  }
  return rows;
}

// What is wrong with the vocabulary: a line per flag spelled or ranged two ways, or told wrong by the table.
std::vector<std::string> conflicts(const std::vector<Use>& uses, const std::map<std::string, Row>& table) {
  std::map<std::string, std::vector<Use>> by_name;
  for (const Use& u : uses) {
    std::stringstream each(u.spelling);
    for (std::string n; std::getline(each, n, ',');) by_name[n].push_back(u);
  }
  std::vector<std::string> wrong;
  for (const auto& [name, list] : by_name) {
    std::set<std::string> commands, spellings, forms;
    for (const Use& u : list) commands.insert(u.command), spellings.insert(u.spelling), forms.insert(u.takes);
    if (commands.size() < 2) continue;
    const auto row = table.find(name);
    if (row == table.end()) {
      wrong.push_back(name + " is on " + std::to_string(commands.size()) + " subcommands but not in the table");
      continue;
    }
    for (const Use& u : list)
      if (u.spelling != row->second.spelling)
        wrong.push_back(name + " is spelled " + u.spelling + " on " + u.command + ", " + row->second.spelling + " in the table");
    if (forms.size() > 1 && row->second.takes.find("per command") == std::string::npos) {
      std::string seen;
      for (const Use& u : list) seen += " " + u.command + ": " + u.takes + ";";
      wrong.push_back(name + " takes its value two ways:" + seen);
    }
    if (commands != row->second.commands) {
      std::string have;
      for (const std::string& c : commands) have += (have.empty() ? "" : ", ") + c;
      wrong.push_back(name + " is on " + have + "; the table says otherwise");
    }
  }
  return wrong;
}

std::string guide() {
  std::ifstream in(std::string(POLYDAT_SOURCE_ROOT) + "/docs/guide.md");
  REQUIRE(in);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string lines(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += s + "\n";
  return out;
}

}  // namespace

TEST_CASE("flags: every flag shared across subcommands is spelled and ranged one way, as the guide's table says") {
  polydat::cli::CommandLine c;
  const std::map<std::string, Row> table = table_of(guide());
  REQUIRE(table.size() >= 10);
  const std::vector<std::string> wrong = conflicts(uses_of(c.app), table);
  CHECK_MESSAGE(wrong.empty(), lines(wrong));
}

TEST_CASE("flags: the table names only flags the parser has") {
  polydat::cli::CommandLine c;
  std::set<std::string> names;
  for (const Use& u : uses_of(c.app)) {
    std::stringstream each(u.spelling);
    for (std::string n; std::getline(each, n, ',');) names.insert(n);
  }
  for (const auto& entry : table_of(guide())) {
    const std::string only = entry.first + " is in the table only";
    CHECK_MESSAGE(names.count(entry.first) == 1, only);
  }
}

TEST_CASE("flags planted fault: a second --stall range, a short-only -o and an unlisted shared flag are each caught") {
  CLI::App app;
  CLI::App* a = app.add_subcommand("cosim");
  CLI::App* b = app.add_subcommand("difftest");
  double s1 = 0, s2 = 0;
  std::string o1, o2, x1, x2;
  a->add_option("--stall", s1)->check(polydat::cli::stall_chance());
  b->add_option("--stall", s2)->check(CLI::Range(0.0, 1.0));
  a->add_option("-o,--output", o1);
  b->add_option("-o", o2);
  a->add_option("--extra", x1);
  b->add_option("--extra", x2);
  std::map<std::string, Row> table;
  table["--stall"] = {"--stall", "CHANCE", {"cosim", "difftest"}};
  table["-o"] = table["--output"] = {"-o,--output", "FILE or DIR (per command)", {"cosim", "difftest"}};
  const std::string wrong = lines(conflicts(uses_of(app), table));
  CHECK(wrong.find("--stall takes its value two ways") != std::string::npos);
  CHECK(wrong.find("-o is spelled -o on difftest") != std::string::npos);
  CHECK(wrong.find("--extra is on 2 subcommands but not in the table") != std::string::npos);
}
