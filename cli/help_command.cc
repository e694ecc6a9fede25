#include "cli/help_command.h"

#include <fmt/core.h>

#include <iostream>
#include <utility>
#include <vector>

#include "cli/commands.h"
#include "cli/docs.h"
#include "flow/engines.h"
#include "text/closest_name.h"

namespace polydat::cli {

namespace {

struct Topic {
  const char* name;
  const char* summary;
};

// The topics besides the subcommands, in the order `polydat help` lists them.
constexpr Topic kTopics[] = {
    {"commands", "every subcommand, one line each"},
    {"flags", "the flags shared across subcommands (docs/guide.md)"},
    {"exit-codes", "what each exit status means"},
    {"engines", "the engines that run a kernel (--engine, --engines)"},
    {"functions", "the function library (polydat functions)"},
    {"boards", "the bundled boards (polydat boards)"},
};

// The exit statuses every command uses (cli/commands.h), and what each means.
const std::vector<std::pair<int, const char*>>& exit_codes() {
  static const std::vector<std::pair<int, const char*>> codes{
      {kOk, "ok: the command did what it was asked"},
      {kUserError, "the work failed: a wrong kernel or value, a mismatch between engines, a tool's error, no board attached"},
      {kUsageError, "the command line is wrong: an unknown flag, a value out of range, a missing file or an unknown name "
                    "(a board, a function, a help topic)"},
      {kDoesNotFit, "the design does not fit the part or misses its clock (synth)"},
  };
  return codes;
}

std::vector<const CLI::App*> subcommands(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App*) { return true; });
}

void print_commands(const CLI::App& app) {
  size_t width = 0;
  for (const CLI::App* sub : subcommands(app)) width = std::max(width, sub->get_name().size());
  for (const CLI::App* sub : subcommands(app))
    fmt::print("{:<{}}  {}\n", sub->get_name(), width, sub->get_description());
}

void print_engines() {
  for (const flow::EngineInfo& e : flow::engines())
    fmt::print("{:<9}  {:<8}  {}\n", e.name, e.kind == flow::EngineKind::Software ? "software" : "rtl", e.summary);
  fmt::print("\nsoftware engines run the IR (eval, run, bench: --engine); rtl engines simulate the emitted "
             "SystemVerilog (difftest, fuzz: --engines).\n");
}

int print_flags() {
  const std::string section = doc_section(bundled_doc("guide").value_or(""), "Flags shared across subcommands");
  if (section.empty()) {
    fmt::print(stderr, "error: this polydat's guide has no section 'Flags shared across subcommands' "
                       "(each command's --help lists its flags)\n");
    return kUserError;
  }
  fmt::print("{}", section);
  return kOk;
}

void print_topics(const CLI::App& app) {
  fmt::print("polydat help TOPIC, where TOPIC is one of:\n");
  for (const Topic& t : kTopics) fmt::print("  {:<11} {}\n", t.name, t.summary);
  std::string names;
  for (const CLI::App* sub : subcommands(app)) names += (names.empty() ? "" : ", ") + sub->get_name();
  fmt::print("or a subcommand, for its --help: {}\n", names);
}

}  // namespace

int help_command(const CLI::App& app, const std::string& topic) {
  if (topic.empty()) {
    print_topics(app);
    return kOk;
  }
  if (topic == "commands") print_commands(app);
  else if (topic == "flags") return print_flags();
  else if (topic == "exit-codes") {
    fmt::print("code  meaning\n");
    for (const auto& [code, meaning] : exit_codes()) fmt::print("{:<4}  {}\n", code, meaning);
  } else if (topic == "engines") print_engines();
  else if (topic == "functions") return functions_command({});
  else if (topic == "boards") return boards_command({});
  else {
    for (const CLI::App* sub : subcommands(app))
      if (sub->get_name() == topic) {
        std::cout << sub->help(app.get_name());  // what `polydat CMD --help` prints (CLI11's App::exit)
        return kOk;
      }
    std::vector<std::string> names;
    for (const Topic& t : kTopics) names.push_back(t.name);
    for (const CLI::App* sub : subcommands(app)) names.push_back(sub->get_name());
    const std::string near = text::closest_name(topic, names);
    fmt::print(stderr, "error: no help topic '{}'{}\n", topic, near.empty() ? "" : "; did you mean '" + near + "'?");
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    fmt::print(stderr, "(the topics are {})\n", list);
    return kUsageError;
  }
  return kOk;
}

}  // namespace polydat::cli
