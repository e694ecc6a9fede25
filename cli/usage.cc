#include "cli/usage.h"

#include <fmt/core.h>

#include <cmath>
#include <filesystem>
#include <optional>
#include <sstream>

#include "cli/values.h"
#include "frontend/diagnostics.h"
#include "text/count.h"

namespace polydat::cli {

namespace fs = std::filesystem;

namespace {
std::optional<double> number(const std::string& text) {
  try {
    size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size()) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

// The subcommand the user named, or the app itself.
const CLI::App* named_command(const CLI::App* app) {
  for (const CLI::App* sub : app->get_subcommands({}))
    if (sub->parsed()) return sub;
  return app;
}

std::string suggestion(const CLI::App* app, const std::string& word) {
  std::vector<std::string> names;
  if (word.rfind("-", 0) == 0) {
    for (const CLI::Option* o : app->get_options()) {
      for (const std::string& l : o->get_lnames()) names.push_back("--" + l);
      for (const std::string& s : o->get_snames()) names.push_back("-" + s);
    }
  } else {
    for (const CLI::App* sub : app->get_subcommands({})) names.push_back(sub->get_name());
  }
  const std::string near = frontend::closest_name(word, names);
  return near.empty() ? "" : "; did you mean '" + near + "'?";
}
}  // namespace

CLI::Validator clock_period_ns() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        const auto v = number(s);
        if (v && std::isfinite(*v) && *v >= 1 && *v <= 1e6) return "";
        return "the clock period is in ns, from 1 (1 GHz) to 1000000 (1 kHz), not '" + s + "'";
      },
      "NS");
}

CLI::Validator positive_number() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        const auto v = number(s);
        if (v && std::isfinite(*v) && *v > 0) return "";
        return "a number above zero, not '" + s + "'";
      },
      "NUMBER");
}

CLI::Validator non_empty_path() {
  return CLI::Validator([](std::string& s) -> std::string { return s.empty() ? "an empty path" : ""; }, "PATH");
}

CLI::Validator writable_file() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        if (s.empty()) return "an empty path";
        const fs::path parent = fs::path(s).parent_path();
        std::error_code ec;
        if (!parent.empty() && !fs::is_directory(parent, ec)) return "the folder '" + parent.string() + "' does not exist";
        return "";
      },
      "FILE");
}

CLI::Validator existing_folder() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        std::error_code ec;
        return fs::is_directory(s, ec) ? "" : "no folder '" + s + "'";
      },
      "DIR");
}

CLI::Validator output_folder() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        if (s.empty()) return "an empty path";
        std::error_code ec;
        if (fs::is_directory(s, ec)) return "";
        if (fs::exists(s, ec)) return "'" + s + "' is a file, not a folder";
        const fs::path parent = fs::path(s).parent_path();
        if (!parent.empty() && !fs::is_directory(parent, ec)) return "the folder '" + parent.string() + "' does not exist";
        return "";
      },
      "DIR");
}

CLI::Validator count() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        const std::optional<uint64_t> n = text::parse_count(s);
        if (!n) return "a count (digits, or with K, M or B as 10K, 20M), not '" + s + "'";
        s = std::to_string(*n);
        return "";
      },
      "COUNT");
}

CLI::Validator stall_chance() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        const auto v = number(s);
        if (v && *v >= 0 && *v <= 0.95) return "";
        return "a chance from 0 to 0.95 (past that a run barely moves), not '" + s + "'";
      },
      "CHANCE");
}

CLI::Validator cycle_range() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        return parse_cycles(s) ? "" : "N or A..B (half-open, A <= B; counts as 10K or 20M), not '" + s + "'";
      },
      "RANGE");
}

namespace {
// Flags renamed so that one name has one meaning (docs/guide.md "Flags shared across subcommands").
struct Renamed {
  const char* command;
  const char* old_name;
  const char* new_name;
};
constexpr Renamed kRenamed[] = {{"synth", "--seed", "--place-seed (--seed is a differential run's seed)"}};
}  // namespace

std::string usage_error_text(const CLI::App* app, const CLI::Error& e) {
  const CLI::App* cmd = named_command(app);
  std::string text = e.what();
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
    std::vector<std::string> extra = cmd->remaining();
    if (extra.empty()) extra = app->remaining();
    std::string first;
    for (const std::string& w : extra)
      if (first.empty() || (first.rfind("-", 0) != 0 && w.rfind("-", 0) == 0)) first = w;  // an option first
    if (!first.empty()) {
      const bool option = first.rfind("-", 0) == 0;
      const bool subcommand = cmd == app && !option;
      std::string hint = suggestion(cmd, first);
      for (const Renamed& r : kRenamed)
        if (cmd->get_name() == r.command && first == r.old_name) hint = fmt::format("; {} is now {}", r.old_name, r.new_name);
      text = fmt::format("unknown {} '{}'{}", option ? "option" : subcommand ? "subcommand" : "argument", first, hint);
    }
  }
  // CLI::IsMember's "--engine: lvm not in {interp,llvm}": name the near miss.
  if (const size_t at = text.find(" not in {"); at != std::string::npos && text.back() == '}') {
    const size_t colon = text.rfind(": ", at);
    const std::string value = text.substr(colon == std::string::npos ? 0 : colon + 2, at - (colon == std::string::npos ? 0 : colon + 2));
    std::vector<std::string> members;
    std::stringstream list(text.substr(at + 9, text.size() - at - 10));
    for (std::string m; std::getline(list, m, ',');) members.push_back(m);
    if (const std::string near = frontend::closest_name(value, members); !near.empty()) text += "; did you mean '" + near + "'?";
  }
  // CLI11's "files is required" for a missing positional: where it goes and what it is (its help line).
  if (dynamic_cast<const CLI::RequiredError*>(&e) && cmd != app) {
    for (const CLI::Option* o : cmd->get_options())
      if (o->get_positional() && o->get_required() && o->count() == 0 && text.rfind(o->get_name(), 0) == 0)
        text = "which file? polydat " + cmd->get_name() + (o->get_expected_max() > 1 ? " FILE..." : " FILE") + ": " +
               o->get_description();
  }
  const std::string help = cmd == app ? "polydat --help" : "polydat " + cmd->get_name() + " --help";
  return "error: " + text + "\n(" + help + " lists what it takes)\n";
}

}  // namespace polydat::cli
