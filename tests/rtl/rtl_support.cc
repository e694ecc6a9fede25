#include "tests/rtl/rtl_support.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>

#include "frontend/compile.h"
#include "flow/pipeline.h"
#include "tests/support/process.h"

namespace polydat::rtltest {

namespace {

const fs::path kCorpusDir = POLYDAT_CORPUS_DIR;
const fs::path kRtlDir = POLYDAT_RTL_DIR;

std::vector<fs::path> kernels_in(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".gk") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// `lib DIR` words of the corpus line (`// corpus: cycles A..B [set N=V]... [lib DIR]...`).
std::vector<std::string> corpus_libs(const fs::path& file) {
  const std::string text = testing::read_file(file);
  std::istringstream words(text.substr(0, text.find('\n')));
  std::vector<std::string> libs;
  std::string w, prev;
  while (words >> w) {
    if (prev == "lib") libs.push_back((file.parent_path() / w).string());
    prev = w;
  }
  return libs;
}

ToolRun tool(const std::string& program, const std::vector<std::string>& argv, const fs::path& cwd, int timeout) {
  const std::string exe = find_on_path(program);
  if (exe.empty()) return ToolRun{-1, program + " is not on PATH"};
  const testing::ProcessResult r = testing::run_process(exe, argv, cwd, std::chrono::seconds(timeout));
  return ToolRun{r.status, r.out + r.err};
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

const fs::path& rtl_dir() { return kRtlDir; }

std::vector<Kernel> all_kernels() {
  std::vector<Kernel> out;
  for (const fs::path& p : kernels_in(kCorpusDir))
    out.push_back(Kernel{"corpus/" + p.stem().string(), p.stem().string(), p, corpus_libs(p)});
  for (const fs::path& p : kernels_in(kRtlDir / "kernels"))
    out.push_back(Kernel{"rtl/" + p.stem().string(), p.stem().string(), p, {}});
  return out;
}

std::optional<Kernel> find_kernel(const std::string& key) {
  for (Kernel& k : all_kernels())
    if (k.key == key) return k;
  return std::nullopt;
}

Flow run_flow(const Kernel& k, const hls::HlsOptions& options) {
  Flow f;
  frontend::CompileOptions copts;
  copts.lib_paths = k.lib_paths;
  frontend::CompileResult r = frontend::compile_file(k.path.string(), copts);
  if (!r.ok()) {
    f.diagnostics = r.render_diagnostics();
    return f;
  }
  for (const frontend::Port& p : r.kernel().params) f.params.push_back(SignaturePort{p.name, p.ty.bits(), p.is_extern});
  for (const frontend::Port& p : r.kernel().outputs) f.outputs.push_back(SignaturePort{p.name, p.ty.bits(), false});
  auto opt = flow::optimize(r);
  if (!opt) {
    f.diagnostics = "the optimiser failed: " + opt.error();
    return f;
  }
  f.compiled = true;
  auto d = flow::schedule(std::move(*opt), options);
  if (!d) {
    f.refusal = d.error();
    return f;
  }
  flow::Emitted e = flow::emit(std::move(*d));
  f.design = std::move(e.design);
  f.module = std::move(e.module);
  return f;
}

std::string find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  std::istringstream in(dirs);
  std::string dir;
  while (std::getline(in, dir, ':')) {
    if (dir.empty()) continue;
    const fs::path candidate = fs::path(dir) / program;
    std::error_code ec;
    const auto st = fs::status(candidate, ec);
    if (!ec && fs::is_regular_file(st) && (st.permissions() & fs::perms::owner_exec) != fs::perms::none)
      return candidate.string();
  }
  return "";
}

ToolRun verilator_lint(const fs::path& sv) {
  return tool("verilator", {"verilator", "--lint-only", "-Wall", sv.string()}, sv.parent_path(), 120);
}

ToolRun yosys_check(const fs::path& sv, const std::string& top) {
  const std::string script =
      "read_verilog -sv " + sv.string() + "; hierarchy -check -top " + top + "; proc; check -assert";
  return tool("yosys", {"yosys", "-q", "-p", script}, sv.parent_path(), 120);
}

ToolRun yosys_synth(const fs::path& sv, const std::string& top, int timeout_seconds) {
  const std::string script = "read_verilog -sv " + sv.string() + "; synth -top " + top;
  return tool("yosys", {"yosys", "-q", "-p", script}, sv.parent_path(), timeout_seconds);
}

ToolRun yosys_assert_no_memory(const fs::path& sv, const std::string& top) {
  const std::string script = "read_verilog -sv " + sv.string() + "; hierarchy -top " + top +
                             "; proc; select -assert-none t:$mem t:$mem_v2 t:$memrd t:$memrd_v2";
  return tool("yosys", {"yosys", "-q", "-p", script}, sv.parent_path(), 120);
}

std::vector<std::string> complaints(const std::string& output) {
  std::vector<std::string> out;
  for (const std::string& l : testing::split_lines(output)) {
    const std::string s = lower(l);
    if (s.find("error") != std::string::npos || s.find("warning") != std::string::npos) out.push_back(l);
  }
  return out;
}

// ---- XML ----

namespace {

class XmlReader {
 public:
  explicit XmlReader(const std::string& s) : s_(s) {}

  std::optional<std::vector<XmlElement>> run(std::string& why) {
    if (s_.compare(0, 5, "<?xml") == 0) {
      const size_t end = s_.find("?>");
      if (end == std::string::npos) return fail(why, "an unterminated XML declaration");
      i_ = end + 2;
    }
    std::vector<int> open;  // the stack of open elements
    bool root_seen = false;
    while (i_ < s_.size()) {
      if (s_[i_] != '<') {
        const size_t next = s_.find('<', i_);
        const std::string text = s_.substr(i_, next == std::string::npos ? std::string::npos : next - i_);
        std::string decoded;
        if (!decode(text, decoded, why)) return std::nullopt;
        if (open.empty()) {
          if (decoded.find_first_not_of(" \t\r\n") != std::string::npos)
            return fail(why, "text outside the root element");
        } else {
          out_[static_cast<size_t>(open.back())].text += decoded;
        }
        i_ = next == std::string::npos ? s_.size() : next;
        continue;
      }
      if (s_.compare(i_, 4, "<!--") == 0) {
        const size_t end = s_.find("-->", i_ + 4);
        if (end == std::string::npos) return fail(why, "an unterminated comment");
        i_ = end + 3;
        continue;
      }
      if (s_.compare(i_, 2, "</") == 0) {
        i_ += 2;
        const std::string name = read_name();
        skip_space();
        if (name.empty() || i_ >= s_.size() || s_[i_] != '>') return fail(why, "a malformed end tag");
        ++i_;
        if (open.empty() || out_[static_cast<size_t>(open.back())].name != name)
          return fail(why, "end tag </" + name + "> does not close " +
                               (open.empty() ? std::string("anything")
                                             : "<" + out_[static_cast<size_t>(open.back())].name + ">"));
        open.pop_back();
        continue;
      }
      // A start tag.
      ++i_;
      XmlElement e;
      e.name = read_name();
      if (e.name.empty()) return fail(why, "a tag without a name");
      if (open.empty() && root_seen) return fail(why, "a second root element <" + e.name + ">");
      e.parent = open.empty() ? -1 : open.back();
      bool self_closing = false;
      for (;;) {
        skip_space();
        if (i_ >= s_.size()) return fail(why, "an unterminated tag <" + e.name + ">");
        if (s_[i_] == '>') {
          ++i_;
          break;
        }
        if (s_.compare(i_, 2, "/>") == 0) {
          i_ += 2;
          self_closing = true;
          break;
        }
        const std::string attr = read_name();
        skip_space();
        if (attr.empty() || i_ >= s_.size() || s_[i_] != '=')
          return fail(why, "a malformed attribute in <" + e.name + ">");
        ++i_;
        skip_space();
        if (i_ >= s_.size() || (s_[i_] != '"' && s_[i_] != '\'')) return fail(why, "an unquoted attribute value");
        const char q = s_[i_++];
        const size_t end = s_.find(q, i_);
        if (end == std::string::npos) return fail(why, "an unterminated attribute value");
        const std::string raw = s_.substr(i_, end - i_);
        if (raw.find('<') != std::string::npos) return fail(why, "'<' in an attribute value");
        std::string value;
        if (!decode(raw, value, why)) return std::nullopt;
        if (!e.attrs.emplace(attr, value).second) return fail(why, "a duplicate attribute " + attr);
        i_ = end + 1;
      }
      root_seen = true;
      out_.push_back(std::move(e));
      if (!self_closing) open.push_back(static_cast<int>(out_.size() - 1));
    }
    if (!open.empty()) return fail(why, "<" + out_[static_cast<size_t>(open.back())].name + "> is never closed");
    if (!root_seen) return fail(why, "no root element");
    return std::move(out_);
  }

 private:
  static bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == ':' || c == '.';
  }
  std::string read_name() {
    const size_t start = i_;
    while (i_ < s_.size() && name_char(s_[i_])) ++i_;
    return s_.substr(start, i_ - start);
  }
  void skip_space() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  static std::nullopt_t fail(std::string& why, const std::string& what) {
    why = what;
    return std::nullopt;
  }
  static bool decode(const std::string& raw, std::string& out, std::string& why) {
    for (size_t k = 0; k < raw.size(); ++k) {
      if (raw[k] == '>') {
        out += '>';
        continue;
      }
      if (raw[k] != '&') {
        out += raw[k];
        continue;
      }
      const size_t semi = raw.find(';', k);
      if (semi == std::string::npos) {
        why = "a bare '&'";
        return false;
      }
      const std::string ent = raw.substr(k + 1, semi - k - 1);
      if (ent == "amp")
        out += '&';
      else if (ent == "lt")
        out += '<';
      else if (ent == "gt")
        out += '>';
      else if (ent == "quot")
        out += '"';
      else if (ent == "apos")
        out += '\'';
      else if (ent.size() > 1 && ent[0] == '#' && std::all_of(ent.begin() + 1, ent.end(), [](char c) {
                 return std::isdigit(static_cast<unsigned char>(c));
               }))
        out += '?';
      else {
        why = "an unknown entity &" + ent + ";";
        return false;
      }
      k = semi;
    }
    return true;
  }

  const std::string& s_;
  size_t i_ = 0;
  std::vector<XmlElement> out_;
};

}  // namespace

std::optional<std::vector<XmlElement>> parse_xml(const std::string& doc, std::string& why) {
  return XmlReader(doc).run(why);
}

}  // namespace polydat::rtltest
