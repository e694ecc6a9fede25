// The workload loader's refusals: a located LoadError (rendered with the
// file's line and a caret), a key given twice, a key no section has (noted
// when nb-rs knows it, else refused with the nearest name), another adapter.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>

#include "text/closest_name.h"
#include "text/located.h"
#include "workload/model_detail.h"

namespace polydat::workload {

using namespace model_detail;

std::string render_workload_error(const std::string& path, std::string_view text, Mark at, std::string_view message,
                                  std::string_view kind) {
  const Source src(text);
  const bool shown = !text.empty() && at.line != 0 && at.line <= src.lines();
  return text::render_located(path, text::Place{at.line, at.col, 1},
                              shown ? std::optional<std::string_view>(src.line(at.line)) : std::nullopt, "error", message,
                              kind);
}

namespace model_detail {

bool contains(const std::vector<std::string>& v, std::string_view s) { return std::find(v.begin(), v.end(), s) != v.end(); }

std::string suggestion(std::string_view name, const std::vector<std::string>& candidates) {
  const std::string near = text::closest_name(name, candidates);
  return near.empty() ? std::string() : "; did you mean '" + near + "'?";
}

void Loader::fail(Mark at, std::string key, std::string message, std::string kind) const {
  LoadError e;
  e.path = w_.path;
  e.at = at;
  e.key = std::move(key);
  e.message = std::move(message);
  e.kind = std::move(kind);
  e.rendered = render_workload_error(e.path, w_.text, e.at, e.key.empty() ? e.message : e.message + " (at " + e.key + ")",
                                     e.kind);
  throw Stop{std::move(e)};
}

void Loader::ignore(const std::string& key, Mark at) {
  if (ignored_seen_.insert(key).second) w_.ignored.push_back(IgnoredKey{key, at});
}

void Loader::fail_twice(const Entry& e, const Entry& first, const std::string& what, const std::string& key) const {
  fail(e.key_at, key,
       in_quotes(e.key) + " and " + in_quotes(first.key) + " are one key (" + what + "); " + in_quotes(first.key) +
           " is already given (line " + std::to_string(first.key_at.line) + ")",
       "duplicate-key");
}

// A key this section does not act on: noted when nb-rs knows it, else refused.
void Loader::other_key(const Entry& e, const std::string& key, const std::string& what, const KeySet& keys) {
  if (contains(kRemovedKeys, e.key))
    fail(e.key_at, key,
         in_quotes(e.key) + " was removed from nb-rs's workloads; it has a `report:` block now (reports are not "
                            "made by this runner)",
         "removed-key");
  if (contains(keys.noted, e.key)) {
    ignore(key, e.key_at);
    return;
  }
  fail(e.key_at, key, in_quotes(e.key) + " is not a key of " + what + suggestion(e.key, keys.all()), "unknown-key");
}

// `adapter:` (or `driver:`): stdout is the one adapter this runner has.
void Loader::check_adapter(const Entry& e, const std::string& key) const {
  const Field f = required_scalar(e, key, "an adapter's name");
  if (f.text == "stdout") return;
  fail(f.at, key,
       "the " + in_quotes(f.text) + " adapter is not available: this runner renders ops with nb-rs's stdout adapter "
       "only (adapter=stdout)",
       "unsupported-adapter");
}

}  // namespace model_detail

}  // namespace polydat::workload
