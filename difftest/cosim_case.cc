#include "difftest/cosim_case.h"

#include <fmt/core.h>

namespace polydat::difftest {

namespace {
std::string values_text(const std::vector<ir::Value>& vs) {
  std::string s;
  for (const ir::Value& v : vs) s += (s.empty() ? "" : ", ") + ir::render(v);
  return "(" + s + ")";
}

// Each problem as (type, line), the first mismatch first: it is what a reader looks at.
std::vector<std::pair<std::string, std::string>> problems(const std::string& engine, const CosimVerdict& v) {
  std::vector<std::pair<std::string, std::string>> out;
  const sim::CosimReport& r = v.compared;
  if (r.first)
    out.push_back({"mismatch", fmt::format("evaluation {}: inputs {}: the oracle gives {}, {} gives {} (delivered at cycle {}); "
                                           "{} of {} evaluations differ",
                                           r.first->evaluation, values_text(r.first->inputs), values_text(r.first->expected),
                                           engine, values_text(r.first->actual), r.first->cycle, r.mismatches, r.compared)});
  if (!r.missing.empty()) out.push_back({"handshake", "handshake: " + r.missing});
  if (r.latency_wrong) out.push_back({"latency", "latency: " + r.latency_first_wrong});
  if (!v.reset_problem.empty()) out.push_back({"reset", "after reset: " + v.reset_problem});
  if (!v.reference_problem.empty()) out.push_back({"reference-model", "reference model: " + v.reference_problem});
  return out;
}
}  // namespace

Case cosim_case(const std::string& kernel, const std::string& engine, const CosimVerdict& v,
                std::vector<std::string> replay) {
  Case c{kernel, engine, Outcome::Passed, "", "", "", {}, v.compared.compared, v.compared.engine_seconds};
  const auto found = problems(engine, v);
  if (found.empty()) return c;
  c.outcome = Outcome::Failed;
  c.type = found.front().first;
  c.message = found.front().second.substr(0, 240);
  for (const auto& [type, line] : found) c.detail += line + "\n";
  c.replay = std::move(replay);
  return c;
}

Case cosim_error(const std::string& kernel, const std::string& engine, const std::string& type, const std::string& text,
                 std::vector<std::string> replay) {
  std::string line = text.substr(0, text.find('\n'));
  if (line.rfind("error: ", 0) == 0) line = line.substr(7);
  return Case{kernel, engine, Outcome::Error, type, line.substr(0, 240), text, std::move(replay), 0, 0};
}

}  // namespace polydat::difftest
