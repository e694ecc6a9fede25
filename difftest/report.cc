#include "difftest/report.h"

#include <fmt/core.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "difftest/difftest.h"

namespace polydat::difftest {

namespace {

// The length of the UTF-8 sequence at s[i] when it encodes a character XML 1.0 allows, else 0.
size_t xml_char_length(const std::string& s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  size_t len = 0;
  uint32_t cp = 0;
  if (b0 < 0x80) len = 1, cp = b0;
  else if (b0 >= 0xC2 && b0 <= 0xDF) len = 2, cp = b0 & 0x1F;
  else if (b0 >= 0xE0 && b0 <= 0xEF) len = 3, cp = b0 & 0x0F;
  else if (b0 >= 0xF0 && b0 <= 0xF4) len = 4, cp = b0 & 0x07;
  else return 0;
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  static constexpr uint32_t kLeast[] = {0, 0, 0x80, 0x800, 0x10000};  // shorter encodings are overlong
  if (cp < kLeast[len]) return 0;
  const bool allowed = cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) ||
                       (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
  return allowed ? len : 0;
}

std::string first_line(const std::string& s) {
  std::string line = s.substr(0, s.find('\n'));
  return line.size() > 240 ? line.substr(0, 240) + "..." : line;
}

std::string seconds_text(double s) { return fmt::format("{:.3f}", s < 0 ? 0.0 : s); }

// The body of a <failure> or <error>: the first mismatch, then the commands that replay it.
std::string body(const Case& c) {
  std::string text = c.detail;
  if (!text.empty() && text.back() != '\n') text += '\n';
  for (const std::string& r : c.replay) text += "replay: " + r + "\n";
  return text;
}

std::string counts_attributes(const Report& r) {
  return fmt::format("tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{}\"", r.cases.size(),
                     r.count(Outcome::Failed), r.count(Outcome::Error), r.count(Outcome::Skipped),
                     seconds_text(r.seconds));
}

std::string testcase_xml(const Case& c) {
  std::string x = fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{}\">\n", xml_escape(c.classname, true),
                              xml_escape(c.name, true), seconds_text(c.seconds));
  const std::string message = xml_escape(c.message, true);
  switch (c.outcome) {
    case Outcome::Passed: break;
    case Outcome::Skipped: x += fmt::format("      <skipped message=\"{}\"/>\n", message); break;
    case Outcome::Failed:
    case Outcome::Error:
      x += fmt::format("      <{0} message=\"{1}\" type=\"{2}\">{3}</{0}>\n", c.outcome == Outcome::Failed ? "failure" : "error",
                       message, xml_escape(c.type, true), xml_escape(body(c), false));
      break;
  }
  if (c.outcome != Outcome::Skipped)
    x += fmt::format("      <system-out>{} evaluations compared with the interpreter</system-out>\n", c.evaluations);
  return x + "    </testcase>\n";
}

}  // namespace

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::Passed: return "passed";
    case Outcome::Failed: return "failure";
    case Outcome::Error: return "error";
    case Outcome::Skipped: return "skipped";
  }
  return "?";
}

size_t Report::count(Outcome o) const {
  size_t n = 0;
  for (const Case& c : cases) n += c.outcome == o;
  return n;
}

std::string xml_escape(const std::string& s, bool attribute) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const size_t len = xml_char_length(s, i);
    if (len == 0) {
      out += fmt::format("\\x{:02X}", static_cast<unsigned char>(s[i]));
      ++i;
      continue;
    }
    const char c = s[i];
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"' && attribute) out += "&quot;";
    else if (c == '\'' && attribute) out += "&apos;";
    else if (c == '\r') out += "&#13;";  // a raw CR is normalised away by every parser
    else if ((c == '\n' || c == '\t') && attribute) out += c == '\n' ? "&#10;" : "&#9;";  // kept through attribute normalisation
    else out.append(s, i, len);
    i += len;
  }
  return out;
}

std::string junit_xml(const Report& r) {
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  const std::string name = xml_escape(r.suite, true);
  x += fmt::format("<testsuites name=\"{}\" {}>\n", name, counts_attributes(r));
  x += fmt::format("  <testsuite name=\"{}\" {}>\n", name, counts_attributes(r));
  for (const Case& c : r.cases) x += testcase_xml(c);
  return x + "  </testsuite>\n</testsuites>\n";
}

std::string json_summary(const Report& r) {
  nlohmann::ordered_json j;
  j["suite"] = r.suite;
  j["tests"] = r.cases.size();
  j["passed"] = r.count(Outcome::Passed);
  j["failures"] = r.count(Outcome::Failed);
  j["errors"] = r.count(Outcome::Error);
  j["skipped"] = r.count(Outcome::Skipped);
  j["seconds"] = r.seconds;
  j["cases"] = nlohmann::ordered_json::array();
  for (const Case& c : r.cases) {
    nlohmann::ordered_json e;
    e["kernel"] = c.classname;
    e["engine"] = c.name;
    e["outcome"] = outcome_name(c.outcome);
    e["evaluations"] = c.evaluations;
    if (!c.type.empty()) e["type"] = c.type;
    if (!c.message.empty()) e["message"] = c.message;
    if (!c.detail.empty()) e["detail"] = c.detail;
    if (!c.replay.empty()) e["replay"] = c.replay;
    e["seconds"] = c.seconds;
    j["cases"].push_back(std::move(e));
  }
  // A kernel's strings may hold any bytes: invalid UTF-8 becomes U+FFFD rather than an exception.
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::optional<std::string> check_writable(const std::vector<std::string>& paths) {
  for (const std::string& path : paths) {
    if (path.empty()) continue;
    std::error_code ec;
    const bool existed = std::filesystem::exists(path, ec);
    errno = 0;
    std::ofstream out(path, std::ios::app);  // app: an existing file is not truncated by the check
    if (!out) return fmt::format("cannot write '{}': {}", path, errno ? std::strerror(errno) : "cannot open it");
    out.close();
    if (!existed) std::filesystem::remove(path, ec);
  }
  return std::nullopt;
}

namespace {
std::optional<std::string> write_file(const std::string& path, const std::string& text) {
  errno = 0;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) out << text;
  if (out) out.close();
  if (!out) return fmt::format("cannot write '{}': {}", path, errno ? std::strerror(errno) : "the write failed");
  return std::nullopt;
}
}  // namespace

std::optional<std::string> write_reports(const Report& r, const std::string& junit_path, const std::string& json_path) {
  if (!junit_path.empty())
    if (auto e = write_file(junit_path, junit_xml(r))) return e;
  if (!json_path.empty())
    if (auto e = write_file(json_path, json_summary(r))) return e;
  return std::nullopt;
}

std::string difftest_command_line(const std::string& file, const std::string& engines, const Options& o) {
  std::string cmd = fmt::format("polydat difftest {} --engines {} --inputs {} --seed {} --stall {}", file, engines, o.inputs,
                                o.seed, o.stall);
  for (const std::string& l : o.lib_paths) cmd += " -L " + l;
  return cmd;
}

void add_cases(Report& r, const std::string& classname, const KernelResult& k,
               const std::function<std::vector<std::string>(const std::string& engine)>& replay) {
  if (!k.compiled()) {
    r.cases.push_back({classname, "frontend", Outcome::Error, "frontend", "the kernel does not compile: " + first_line(k.frontend_error),
                       k.frontend_error, replay("frontend"), 0, 0});
    return;
  }
  for (const EngineResult& e : k.engines) {
    Case c{classname, e.engine, Outcome::Passed, "", "", "", {}, e.compared, e.seconds};
    if (e.verdict == Verdict::Refuses) {
      c.outcome = Outcome::Skipped;
      c.message = first_line(e.detail);
    } else if (e.verdict == Verdict::Disagrees || e.verdict == Verdict::Fails) {
      const bool failed = e.verdict == Verdict::Disagrees;
      c.outcome = failed ? Outcome::Failed : Outcome::Error;
      c.type = failed ? "mismatch" : "engine-failure";
      c.message = fmt::format("{} {}: {}", e.engine, verdict_name(e.verdict), first_line(e.detail));
      c.detail = e.detail;
      c.replay = replay(e.engine);
    }
    r.cases.push_back(std::move(c));
  }
}

}  // namespace polydat::difftest
