// libFuzzer target: any bytes as a workload file. Whatever the input, the
// loader gives a workload or one located error: never a crash, a hang or a
// sanitizer report. What it accepts keeps model.h's promises: every phase a
// step names is defined, loops nest at most 64 deep, each ignored key path is
// listed once, and a literal block's text lines are the file's lines from
// `content` on.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "workload/model.h"

namespace {

using namespace polydat::workload;

std::string_view file_line(std::string_view text, uint32_t n) {
  size_t start = 0;
  for (uint32_t i = 1; i < n; ++i) {
    start = text.find('\n', start);
    if (start == std::string_view::npos) return {};
    ++start;
  }
  size_t end = text.find('\n', start);
  if (end == std::string_view::npos) end = text.size();
  if (end > start && text[end - 1] == '\r') --end;
  return text.substr(start, end - start);
}

void check_field(std::string_view text, const Field& f) {
  if (f.at.line == 0 || f.at.col == 0 || f.content.line == 0 || f.content.col == 0) __builtin_trap();
  if (!f.literal_block) return;
  std::string_view t = f.text;
  for (uint32_t i = 0;; ++i) {
    const size_t nl = t.find('\n');
    const std::string_view line = t.substr(0, nl);
    if (line.find_first_not_of(' ') != std::string_view::npos) {
      const std::string_view raw = file_line(text, f.content.line + i);
      if (raw.size() < f.content.col - 1 || raw.substr(f.content.col - 1) != line) __builtin_trap();
    }
    if (nl == std::string_view::npos) break;
    t.remove_prefix(nl + 1);
  }
}

void check_op(std::string_view text, const OpDef& op) {
  for (const auto& [name, f] : op.fields) check_field(text, f);
  if (op.condition) check_field(text, *op.condition);
  if (op.bindings) check_field(text, *op.bindings);
  if (op.ratio) check_field(text, *op.ratio);
}

void check_loop(std::string_view text, const LoopSpec& l) {
  for (const Field& f : l.entries) check_field(text, f);
  if (l.where) check_field(text, *l.where);
  if (l.order) check_field(text, *l.order);
}

void check_step(const Workload& w, const Step& s, int depth) {
  if (depth > 64) __builtin_trap();
  if (s.kind == Step::Kind::Phase) {
    if (!w.find_phase(s.phase) || !s.body.empty()) __builtin_trap();
    return;
  }
  if (s.kind == Step::Kind::Include && !w.find_scenario(s.scenario)) __builtin_trap();
  if (s.kind == Step::Kind::DoWhile || s.kind == Step::Kind::DoUntil) check_field(w.text, s.spec);
  check_loop(w.text, s.loop);
  for (const auto& [name, f] : s.set) check_field(w.text, f);
  if (s.bindings) check_field(w.text, *s.bindings);
  for (const Step& b : s.body) check_step(w, b, depth + 1);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 1 << 16) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto r = parse_workload_text(text, "fuzz.yaml");
  if (!r) {
    const LoadError& e = r.error();
    const std::string head = "fuzz.yaml:" + std::to_string(e.at.line) + ":" + std::to_string(e.at.col) + ": error: ";
    if (e.rendered.rfind(head, 0) != 0 || e.at.line == 0 || e.at.col == 0 || e.kind.empty()) __builtin_trap();
    return 0;
  }
  const Workload& w = *r;
  if (w.text != text || (w.ops.empty() && w.phases.empty())) __builtin_trap();
  if (w.description) check_field(text, *w.description);
  if (w.bindings) check_field(text, *w.bindings);
  for (const auto& [name, f] : w.params) check_field(text, f);
  for (const OpDef& op : w.ops) check_op(text, op);
  for (const PhaseDef& p : w.phases) {
    if (p.cycles) check_field(text, *p.cycles);
    if (p.bindings) check_field(text, *p.bindings);
    if (p.for_each) check_loop(text, *p.for_each);
    for (const OpDef& op : p.ops) check_op(text, op);
  }
  for (const Scenario& s : w.scenarios)
    for (const Step& step : s.steps) check_step(w, step, 1);
  std::set<std::string> keys;
  for (const IgnoredKey& k : w.ignored)
    if (!keys.insert(k.key).second) __builtin_trap();
  return 0;
}
