// The workload loader: nb-rs's workload YAML read into the model of model.h,
// every field with its place in the file, every rejection a located LoadError.
//
// The walk reads the document yaml-cpp builds, in file order, and stops at the
// first error (thrown internally as Stop, caught at the entry points: nothing
// escapes). yaml-cpp keeps a key given twice and builds cycles from an anchor
// used inside itself (`&a [*a]`), so every map is checked for duplicates here,
// the scenario steps (the one recursive shape) are capped in depth, and every
// entry visited counts against a budget (aliases can repeat a big node many
// times without the file growing).
#include "workload/model.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <exception>
#include <fstream>
#include <sstream>
#include <system_error>

#include "text/yaml_documents.h"
#include "workload/model_detail.h"

namespace polydat::workload {

using namespace model_detail;

namespace {

constexpr size_t kMaxFileBytes = size_t{16} << 20;  // a workload file is text, not data


LoadError plain_error(const std::string& path, std::string_view text, Mark at, std::string message, std::string kind) {
  LoadError e;
  e.path = path;
  e.at = at;
  e.message = std::move(message);
  e.kind = std::move(kind);
  e.rendered = render_workload_error(path, text, at, e.message, e.kind);
  return e;
}

}  // namespace

namespace model_detail {

Loader::Loader(std::string_view text, const std::string& path) : src_(text) {
  w_.path = path;
  w_.text = std::string(text);
}

Workload Loader::run(const YAML::Node& root) {
  const std::string top = "description, params, bindings, ops, blocks, phases, scenarios";
  if (!root.IsDefined() || root.IsNull())
    fail(Mark{1, 1}, "", "the workload file is empty: it is a map of " + top, "empty-workload");
  const Mark root_at = mark(root, Mark{1, 1});
  if (!root.IsMap()) fail(root_at, "", "a workload file is a map of " + top + ", not " + shape(root), "not-a-map");
  const std::vector<Entry> sections = entries(root, "", root_at, "the workload file");
  // The document's tags reach every op, so they are read first.
  for (const Entry& e : sections)
    if (e.key == "tags") w_.tags = read_tag_map(e, e.key);
  const Entry* top_ops = nullptr;
  const Entry* blocks = nullptr;
  for (const Entry& e : sections) {
    if (e.key == "description") {
      w_.description = optional_scalar(e, e.key);
    } else if (e.key == "params") {
      read_params(e);
    } else if (e.key == "bindings") {
      w_.bindings = read_bindings(e, e.key, /*legacy_chains=*/true);
    } else if (contains(kOpsKeys, e.key)) {
      if (top_ops) fail_twice(e, *top_ops, "the ops", e.key);
      top_ops = &e;
    } else if (e.key == "blocks") {
      blocks = &e;
    } else if (e.key == "phases") {
      read_phases(e);
    } else if (e.key == "scenarios") {
      read_scenarios(e);
    } else if (e.key == "adapter" || e.key == "driver") {
      check_adapter(e, e.key);
    } else if (e.key != "tags") {
      other_key(e, e.key, "the workload file", kTopKeys);
    }
  }
  if (top_ops && blocks)
    fail(top_ops->key_at, top_ops->key,
         "a workload has top-level ops or blocks, not both (nb-rs runs the blocks' ops and drops these; "
             "blocks: is on line " + std::to_string(blocks->key_at.line) + ")",
         "conflicting-keys");
  if (top_ops) read_ops(*top_ops, top_ops->key, "block0", -1, {}, w_.ops);
  if (blocks) read_blocks(*blocks);
  resolve_includes();
  for (const Scenario& s : w_.scenarios)
    for (size_t i = 0; i < s.steps.size(); ++i) check_phases(s.steps[i], indexed("scenarios." + s.name, i));
  if (w_.ops.empty() && w_.phases.empty())
    fail(root_at, "", "the workload defines no ops and no phases: there is nothing to run", "empty-workload");
  std::stable_sort(w_.ignored.begin(), w_.ignored.end(), [](const IgnoredKey& a, const IgnoredKey& b) {
    return a.at.line != b.at.line ? a.at.line < b.at.line : a.at.col < b.at.col;
  });
  return std::move(w_);
}

}  // namespace model_detail

const PhaseDef* Workload::find_phase(std::string_view name) const {
  for (const PhaseDef& p : phases)
    if (p.name == name) return &p;
  return nullptr;
}

const Scenario* Workload::find_scenario(std::string_view name) const {
  for (const Scenario& s : scenarios)
    if (s.name == name) return &s;
  return nullptr;
}

ir::Expected<Workload, LoadError> parse_workload_text(std::string_view text, const std::string& path) {
  if (text.size() > kMaxFileBytes)
    return plain_error(path, {}, Mark{1, 1},
                       "the workload file is " + std::to_string(text.size()) + " bytes; a workload file is at most " +
                           std::to_string(kMaxFileBytes),
                       "too-large");
  const Source src(text);
  // YAML allows no control character but tab, line feed and carriage return (YAML 1.2 c-printable, as
  // nb-rs's parser enforces); yaml-cpp would drop a NUL from a scalar without a word.
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
      return plain_error(path, text, src.mark_at(i),
                         std::string("invalid YAML: the control character 0x") + "0123456789abcdef"[c >> 4] +
                             "0123456789abcdef"[c & 15] + " is not allowed in a YAML file",
                         "yaml-syntax");
  }
  auto yaml_mark = [&](const YAML::Mark& m) {
    if (m.is_null() || m.line < 0 || m.column < 0) return Mark{1, 1};
    Mark out{static_cast<uint32_t>(m.line) + 1, static_cast<uint32_t>(m.column) + 1};
    if (out.line == 1) out.col += src.bom();
    return out;
  };
  try {
    const std::string owned(text);
    YAML::Node root;
    try {
      root = YAML::Load(owned);
      // A second pass that only looks for a second document (YAML::LoadAll
      // loops forever on some garbage in yaml-cpp 0.7).
      const std::vector<YAML::Mark> starts = text::document_starts(owned);
      if (starts.size() > 1)
        return plain_error(path, text, yaml_mark(starts[1]),
                           "a workload file holds one YAML document; another begins here", "yaml-syntax");
    } catch (const YAML::Exception& e) {
      return plain_error(path, text, yaml_mark(e.mark),
                         "invalid YAML: " + (e.msg.empty() ? std::string("cannot parse") : e.msg), "yaml-syntax");
    }
    Loader loader(text, path);
    try {
      return loader.run(root);
    } catch (const Stop& stop) {
      return stop.error;
    } catch (const YAML::Exception& e) {  // a yaml-cpp accessor that should not throw did
      return plain_error(path, text, yaml_mark(e.mark), std::string("cannot read the workload: ") + e.what(), "yaml-syntax");
    }
  } catch (const std::exception& e) {  // no input may escape as an exception
    return plain_error(path, text, Mark{1, 1}, std::string("cannot read the workload: ") + e.what(), "io");
  }
}

ir::Expected<Workload, LoadError> load_workload_file(const std::filesystem::path& file) {
  const std::string path = file.string();
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec))
    return plain_error(path, {}, Mark{1, 1}, "cannot read the workload file: it is a directory", "io");
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    const bool exists = std::filesystem::exists(file, ec);
    return plain_error(path, {}, Mark{1, 1},
                       exists ? "cannot read the workload file" : "cannot read the workload file: no such file", "io");
  }
  std::string text;
  char buf[4096];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<size_t>(in.gcount()));
    if (text.size() > kMaxFileBytes) break;  // parse_workload_text reports it
  }
  if (in.bad()) return plain_error(path, {}, Mark{1, 1}, "cannot read the workload file: a read failed", "io");
  return parse_workload_text(text, path);
}

}  // namespace polydat::workload
