// Board files: loading and checking the YAML that describes a real board.
//
// The schema (docs/boards.md has it with the bundled boards):
//
//   title: 1BitSquared iCEBreaker v1.0    # text, required, not empty
//   device: up5k                         # up5k | hx8k | lp8k | hx1k
//   package: sg48                        # one of the device's nextpnr-ice40 packages:
//                                        #   hx1k: tq144 vq100 cb132
//                                        #   hx8k: ct256 cb132 bg121 cm225
//                                        #   lp8k: cm81 cm121 cm225
//                                        #   up5k: sg48 uwg30
//   clock:                               # the oscillator, required
//     pin: "35"                          #   a package pin: a number (sg48, tq144, vq100)
//                                        #   or a ball like B2 (the BGA packages)
//     mhz: 12                            #   its frequency, > 0 and <= 500
//     pll: pad                           #   optional, core when absent: which PLL primitive the
//                                        #   pin feeds (pad: SB_PLL40_PAD, core: SB_PLL40_CORE)
//   leds:                                # at least one; the first is the heartbeat
//     - pin: "37"
//       active_low: true                 #   true | false, required
//   uart:                                # the serial port results leave by
//     tx: "9"                            #   FPGA output (the host receives)
//     rx: "6"                            #   FPGA input
//     baud: 115200                       #   optional, 115200 when absent; 300 ..
//                                        #   3000000 and at most a quarter of the clock
//   reset_button:                        # optional (absent or null: no button)
//     pin: "10"
//     active_low: true                   #   required
//   programmer:                          # optional; iceprog over the FTDI when absent
//     command: "iceprog {bin}"           #   {bin} is replaced by the bitstream's path
//     usb: ["0403:6010"]                 #   USB ids whose presence means the board is attached
//   source: ...                          # text, required: where the pin facts come from
//   note: ...                            # text, optional: jumpers, adapters, caveats
//
// No pin may be used twice. A pin may be written quoted ("35") or plain (35, B2);
// a ball's letter is taken in upper case.
//
// Every problem is reported as `FILE:LINE:COL: error: MESSAGE [KIND]`, the
// source line and a caret under the culprit, in the form of the frontend's
// diagnostics. KIND is one of:
//   board-file         the file cannot be read, or is too large
//   board-syntax       YAML that does not parse, several documents, a key given twice
//   board-missing-key  a required key is absent
//   board-type         a value of the wrong shape (a list where text belongs, ...)
//   board-value        a value of the right shape but wrong: an unknown device, a
//                      package the device does not come in, a malformed pin, a
//                      clock or baud out of range, a pin used twice
//   board-unknown-key  a key the schema does not have (with a suggestion)
//   board-unknown      find_board: a name that is no bundled board (no location)
// Every problem found is reported, in file order, up to a limit of 20.
#include "boards/board.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "boards/bundled.h"
#include "text/closest_name.h"
#include "text/located.h"
#include "text/yaml_documents.h"
#include "text/plural.h"

namespace polydat::boards {

namespace {

constexpr size_t kMaxFileBytes = 256 * 1024;  // board files are a few hundred bytes
constexpr size_t kMaxErrors = 20;
constexpr double kMaxClockMhz = 500;
constexpr uint64_t kMinBaud = 300;
constexpr uint64_t kMaxBaud = 3'000'000;

struct DeviceInfo {
  std::string_view name;
  std::vector<std::string_view> packages;
};

const std::vector<DeviceInfo>& devices() {
  static const std::vector<DeviceInfo> kDevices = {
      {"up5k", {"sg48", "uwg30"}},
      {"hx8k", {"ct256", "cb132", "bg121", "cm225"}},
      {"lp8k", {"cm81", "cm121", "cm225"}},
      {"hx1k", {"tq144", "vq100", "cb132"}},
  };
  return kDevices;
}

// Packages whose pins are numbered 1..N (the others name balls: a letter and a number).
int numbered_pins(std::string_view package) {
  if (package == "sg48") return 48;
  if (package == "tq144") return 144;
  if (package == "vq100") return 100;
  return 0;
}

std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}

std::string fmt_number(double v) { return fmt::format("{}", v); }

std::string suggestion(std::string_view name, const std::vector<std::string>& candidates) {
  const std::string near = text::closest_name(name, candidates);
  return near.empty() ? std::string() : "; did you mean '" + near + "'?";
}

// Shows a scalar in a message: short, printable, quoted.
std::string shown(std::string_view text) {
  std::string out;
  for (char c : text.substr(0, 40)) out += (static_cast<unsigned char>(c) < 32 || c == 127) ? '?' : c;
  if (text.size() > 40) out += "...";
  return "'" + out + "'";
}

// A place in the file: 0-based line and column as yaml-cpp marks them, and how
// many characters the caret underlines.
struct Where {
  int line = 0;
  int column = 0;
  size_t width = 1;
};

// The file's text by lines, and the errors found in it, in the one located form (text/located.h).
class Report {
 public:
  Report(std::string path, std::string_view text) : path_(std::move(path)) {
    size_t start = 0;
    for (size_t i = 0; i <= text.size(); ++i) {
      if (i == text.size() || text[i] == '\n') {
        std::string_view line = text.substr(start, i - start);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        lines_.emplace_back(line);
        start = i + 1;
      }
    }
    if (text.empty()) lines_.clear();
    // yaml-cpp skips a byte order mark; so does the line shown.
    if (!lines_.empty() && lines_[0].rfind("\xef\xbb\xbf", 0) == 0) lines_[0].erase(0, 3);
  }

  void error(Where at, std::string_view message, std::string_view kind) {
    const size_t line = at.line < 0 ? 0 : static_cast<size_t>(at.line);
    size_t col = at.column < 0 ? 0 : static_cast<size_t>(at.column);
    if (line < lines_.size()) col = std::min(col, lines_[line].size());
    const std::optional<std::string_view> shown =
        line < lines_.size() ? std::optional<std::string_view>(lines_[line]) : std::nullopt;
    const text::Place place{static_cast<uint32_t>(line + 1), static_cast<uint32_t>(col + 1), at.width};
    errors_.push_back({line, col, errors_.size(), text::render_located(path_, place, shown, "error", message, kind)});
  }

  // An error with no place in the file (the file as a whole): at 1:1.
  void error_at_start(std::string_view message, std::string_view kind) { error(Where{0, 0, 1}, message, kind); }

  bool any() const { return !errors_.empty(); }
  // The errors in file order (those at one place in the order found), at most kMaxErrors.
  std::string text() const {
    std::vector<const Error*> order;
    for (const Error& e : errors_) order.push_back(&e);
    std::stable_sort(order.begin(), order.end(), [](const Error* a, const Error* b) {
      return std::tie(a->line, a->column) < std::tie(b->line, b->column);
    });
    std::string out;
    for (size_t i = 0; i < order.size() && i < kMaxErrors; ++i) out += order[i]->text;
    if (order.size() > kMaxErrors)
      out += path_ + ": note: " + text::counted(order.size() - kMaxErrors, "more error") + " not shown\n";
    return out;
  }
  const std::string& line(int i) const {
    static const std::string kEmpty;
    return i >= 0 && static_cast<size_t>(i) < lines_.size() ? lines_[static_cast<size_t>(i)] : kEmpty;
  }

 private:
  struct Error {
    size_t line = 0;
    size_t column = 0;
    size_t order = 0;
    std::string text;
  };
  std::string path_;
  std::vector<std::string> lines_;
  std::vector<Error> errors_;
};

// One `key: value` of a mapping.
struct Entry {
  std::string key;
  YAML::Node key_node;
  YAML::Node value;
};

const char* shape(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Null: return "nothing";
    case YAML::NodeType::Scalar: return "a scalar";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Undefined: return "nothing";
  }
  return "nothing";
}

class Checker {
 public:
  explicit Checker(Report& report) : report_(report) {}

  // Where a node is, underlining a whole scalar (quotes included) on its line.
  Where where(const YAML::Node& n, Where fallback) const {
    if (!n.IsDefined() || n.IsNull()) return fallback;  // yaml-cpp marks an empty value on the next line
    const YAML::Mark m = n.Mark();
    if (m.is_null() || m.line < 0 || m.column < 0) return fallback;
    Where w{m.line, m.column, 1};
    if (n.IsScalar()) {
      const std::string& text = report_.line(m.line);
      const size_t col = static_cast<size_t>(m.column);
      if (col < text.size() && (text[col] == '"' || text[col] == '\'')) {
        const char q = text[col];
        size_t end = col + 1;
        while (end < text.size() && text[end] != q) end += (q == '"' && text[end] == '\\') ? 2 : 1;
        w.width = std::min(end, text.size() - 1) - col + 1;
      } else if (col < text.size() && (text[col] == '|' || text[col] == '>')) {
        w.width = 1;
      } else {
        w.width = std::max<size_t>(1, n.Scalar().size());
      }
    }
    return w;
  }

  // The value's place, or its key's when the value is empty.
  Where where(const Entry& e) const { return where(e.value, key_where(e)); }
  Where key_where(const Entry& e) const { return where(e.key_node, Where{}); }

  void error(Where at, std::string_view message, std::string_view kind) { report_.error(at, message, kind); }

  // The entries of a mapping with the given keys: reports a non-mapping, an
  // unknown key, a key given twice and a missing required key. `what` names
  // the mapping in messages ("the board file", "clock"); `at` is where to
  // point when the mapping itself lacks a place (or is not there).
  std::optional<std::map<std::string, Entry>> mapping(const YAML::Node& node, std::string_view what, Where at,
                                                      const std::vector<std::string>& required,
                                                      const std::vector<std::string>& optional) {
    if (!node.IsMap()) {
      error(where(node, at),
            std::string(what) + " is a mapping of " + join(required, ", ") + (optional.empty() ? "" : ", ...") +
                " (KEY: VALUE lines), not " + shape(node),
            "board-type");
      return std::nullopt;
    }
    std::vector<std::string> known = required;
    known.insert(known.end(), optional.begin(), optional.end());
    std::map<std::string, Entry> out;
    for (const auto& kv : node) {
      const YAML::Node& k = kv.first;
      if (!k.IsScalar()) {
        error(where(k, where(node, at)), "a key in " + std::string(what) + " is a plain name, not " + shape(k),
              "board-type");
        continue;
      }
      const std::string key = k.Scalar();
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        error(where(k, at),
              "unknown key " + shown(key) + " in " + std::string(what) + "; the keys are " + join(known, ", ") +
                  suggestion(key, known),
              "board-unknown-key");
        continue;
      }
      if (out.count(key)) {
        error(where(k, at), "key '" + key + "' appears twice in " + std::string(what), "board-syntax");
        continue;
      }
      out.emplace(key, Entry{key, k, kv.second});
    }
    std::vector<std::string> missing;
    for (const std::string& key : required)
      if (!out.count(key)) missing.push_back("'" + key + "'");
    if (!missing.empty()) {
      std::string list = missing.back();
      if (missing.size() > 1) {
        missing.pop_back();
        list = join(missing, ", ") + " and " + list;
      }
      error(at, std::string(what) + " is missing " + list, "board-missing-key");
    }
    return out;
  }

  // A scalar's text, or a board-type error.
  std::optional<std::string> scalar(const Entry& e, std::string_view expected) {
    if (!e.value.IsScalar()) {
      if (!e.value.IsDefined() || e.value.IsNull())
        error(where(e), "'" + e.key + "' has no value: it is " + std::string(expected), "board-type");
      else
        error(where(e), "'" + e.key + "' is " + std::string(expected) + ", not " + shape(e.value), "board-type");
      return std::nullopt;
    }
    return e.value.Scalar();
  }

  std::optional<std::string> text(const Entry& e, bool may_be_empty) {
    auto s = scalar(e, "text");
    if (!s) return std::nullopt;
    if (!may_be_empty && s->find_first_not_of(" \t\r\n") == std::string::npos) {
      error(where(e), "'" + e.key + "' is empty", "board-value");
      return std::nullopt;
    }
    return s;
  }

  std::optional<bool> boolean(const Entry& e) {
    auto s = scalar(e, "true or false");
    if (!s) return std::nullopt;
    if (*s == "true" || *s == "True" || *s == "TRUE") return true;
    if (*s == "false" || *s == "False" || *s == "FALSE") return false;
    error(where(e), "'" + e.key + "' is true or false, not " + shown(*s), "board-type");
    return std::nullopt;
  }

  // A package pin: digits (numbered packages) or a letter and digits (balls).
  std::optional<Pin> pin(const Entry& e, std::string_view package) {
    auto s = scalar(e, "a package pin (35, B2)");
    if (!s) return std::nullopt;
    std::string p = *s;
    auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
    const bool ball = p.size() >= 2 && p.size() <= 3 && std::isalpha(static_cast<unsigned char>(p[0])) &&
                      std::all_of(p.begin() + 1, p.end(), digit) && p[1] != '0';
    const bool number = !p.empty() && p.size() <= 3 && p[0] != '0' && std::all_of(p.begin(), p.end(), digit);
    if (!ball && !number) {
      error(where(e),
            shown(p) + " is not a package pin: a pin is a number like 35 (sg48, tq144) or a ball like B2 (cm81, ct256)",
            "board-value");
      return std::nullopt;
    }
    if (ball) p[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(p[0])));
    if (!package.empty()) {
      const int n = numbered_pins(package);
      if (n > 0 && ball) {
        error(where(e), "package " + std::string(package) + " numbers its pins 1.." + std::to_string(n) + "; " +
                            shown(p) + " is a ball name",
              "board-value");
        return std::nullopt;
      }
      if (n > 0 && std::stoi(p) > n) {
        error(where(e), "package " + std::string(package) + " has pins 1.." + std::to_string(n) + ", not " + p,
              "board-value");
        return std::nullopt;
      }
      if (n == 0 && number) {
        error(where(e), "package " + std::string(package) + " names its pins by ball (like B2), not " + shown(p),
              "board-value");
        return std::nullopt;
      }
    }
    return Pin{p, false};
  }

  // A decimal number: digits, an optional fraction (no sign, exponent, inf or nan).
  static std::optional<double> decimal(const std::string& s) {
    if (s.empty() || s.size() > 20) return std::nullopt;
    size_t dots = 0, digits = 0;
    for (size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0; i < s.size(); ++i) {
      const char c = s[i];
      if (c == '.') ++dots;
      else if (std::isdigit(static_cast<unsigned char>(c))) ++digits;
      else return std::nullopt;
    }
    if (dots > 1 || digits == 0) return std::nullopt;
    return std::strtod(s.c_str(), nullptr);
  }

  // A whole number, perhaps signed; nullopt when it is not one.
  static std::optional<int64_t> whole(const std::string& s) {
    const size_t sign = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
    if (s.size() <= sign || s.size() > 12) return std::nullopt;
    if (!std::all_of(s.begin() + static_cast<std::ptrdiff_t>(sign), s.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      return std::nullopt;
    return std::stoll(s);
  }

 private:
  Report& report_;
};

struct PinUse {
  std::string pin;
  std::string role;
  Where at;
};

// Checks the parsed document and fills `board`; errors go to the report.
void check(const YAML::Node& root, Checker& c, Board& board) {
  const Where top = c.where(root, Where{0, 0, 1});
  auto fields = c.mapping(root, "the board file", top,
                          {"title", "device", "package", "clock", "leds", "uart", "source"}, {"reset_button", "programmer", "note"});
  if (!fields) return;
  auto has = [&](const char* k) { return fields->count(k) > 0; };
  auto at = [&](const char* k) { return fields->at(k); };

  if (has("title"))
    if (auto s = c.text(at("title"), false)) board.title = *s;
  if (has("source"))
    if (auto s = c.text(at("source"), false)) board.source = *s;
  if (has("note"))
    if (auto s = c.text(at("note"), true)) board.note = *s;

  // The device, then the package it comes in.
  bool device_ok = false;
  if (has("device")) {
    if (auto s = c.scalar(at("device"), "a device name")) {
      std::vector<std::string> names;
      for (const DeviceInfo& d : devices()) names.emplace_back(d.name);
      if (std::find(names.begin(), names.end(), *s) != names.end()) {
        board.device = *s;
        device_ok = true;
      } else {
        c.error(c.where(at("device")), "unknown device " + shown(*s) + "; the devices are " + join(names, ", ") +
                                           suggestion(*s, names),
                "board-value");
      }
    }
  }
  bool package_ok = false;
  if (has("package")) {
    if (auto s = c.scalar(at("package"), "a package name")) {
      if (device_ok) {
        const DeviceInfo& d = *std::find_if(devices().begin(), devices().end(),
                                            [&](const DeviceInfo& i) { return i.name == board.device; });
        std::vector<std::string> names(d.packages.begin(), d.packages.end());
        if (std::find(names.begin(), names.end(), *s) != names.end()) {
          board.package = *s;
          package_ok = true;
        } else {
          c.error(c.where(at("package")), "package " + shown(*s) + " is not one of " + board.device + "'s: " +
                                              join(names, ", ") + suggestion(*s, names),
                  "board-value");
        }
      }
    }
  }
  const std::string package = package_ok ? board.package : std::string();

  std::vector<PinUse> uses;
  // A {pin, active_low} mapping (an LED, the reset button).
  auto polar_pin = [&](const YAML::Node& value, const std::string& role, Where at) -> std::optional<Pin> {
    auto m = c.mapping(value, role, at, {"pin", "active_low"}, {});
    if (!m) return std::nullopt;
    std::optional<Pin> p;
    if (m->count("pin")) {
      p = c.pin(m->at("pin"), package);
      if (p) uses.push_back({p->pin, role, c.where(m->at("pin"))});
    }
    std::optional<bool> low;
    if (m->count("active_low")) low = c.boolean(m->at("active_low"));
    if (!p || !low) return std::nullopt;
    p->active_low = *low;
    return p;
  };

  if (has("clock")) {
    const Entry& e = at("clock");
    if (auto m = c.mapping(e.value, "clock", c.key_where(e), {"pin", "mhz"}, {"pll"})) {
      if (m->count("pll"))
        if (auto s = c.scalar(m->at("pll"), "pad or core")) {
          if (*s == "pad")
            board.pll_input = PllInput::Pad;
          else if (*s == "core")
            board.pll_input = PllInput::Core;
          else
            c.error(c.where(m->at("pll")),
                    "pll is pad (SB_PLL40_PAD: the clock pin is the PLL's own input) or core (SB_PLL40_CORE: "
                    "the PLL takes the clock from the pin's buffer), not " + shown(*s),
                    "board-value");
        }
      if (m->count("pin"))
        if (auto p = c.pin(m->at("pin"), package)) {
          board.clock = *p;
          uses.push_back({p->pin, "clock", c.where(m->at("pin"))});
        }
      if (m->count("mhz"))
        if (auto s = c.scalar(m->at("mhz"), "a frequency in MHz")) {
          auto v = Checker::decimal(*s);
          if (!v) {
            c.error(c.where(m->at("mhz")), "mhz is a number of MHz like 12 or 16.5, not " + shown(*s), "board-type");
          } else if (!(*v > 0) || *v > kMaxClockMhz) {
            c.error(c.where(m->at("mhz")),
                    "the clock is " + *s + " MHz; it must be above 0 and at most " + fmt_number(kMaxClockMhz) + " MHz",
                    "board-value");
          } else {
            board.clock_mhz = *v;
          }
        }
    }
  }

  if (has("leds")) {
    const Entry& e = at("leds");
    if (!e.value.IsSequence()) {
      c.error(c.where(e), "'leds' is a list of {pin, active_low}, not " + std::string(shape(e.value)), "board-type");
    } else if (e.value.size() == 0) {
      c.error(c.where(e), "'leds' is empty: the board top needs an LED for the heartbeat", "board-value");
    } else {
      size_t i = 0;
      for (const auto& item : e.value) {
        const std::string role = "leds[" + std::to_string(i++) + "]";
        if (auto p = polar_pin(item, role, c.where(item, c.key_where(e)))) board.leds.push_back(*p);
      }
    }
  }

  if (has("uart")) {
    const Entry& e = at("uart");
    if (auto m = c.mapping(e.value, "uart", c.key_where(e), {"tx", "rx"}, {"baud"})) {
      if (m->count("tx"))
        if (auto p = c.pin(m->at("tx"), package)) {
          board.uart_tx = *p;
          uses.push_back({p->pin, "uart.tx", c.where(m->at("tx"))});
        }
      if (m->count("rx"))
        if (auto p = c.pin(m->at("rx"), package)) {
          board.uart_rx = *p;
          uses.push_back({p->pin, "uart.rx", c.where(m->at("rx"))});
        }
      if (m->count("baud"))
        if (auto s = c.scalar(m->at("baud"), "a whole number of bits per second")) {
          auto v = Checker::whole(*s);
          if (!v) {
            c.error(c.where(m->at("baud")), "baud is a whole number of bits per second like 115200, not " + shown(*s),
                    "board-type");
          } else if (*v < static_cast<int64_t>(kMinBaud) || *v > static_cast<int64_t>(kMaxBaud)) {
            c.error(c.where(m->at("baud")),
                    "baud " + *s + " is out of range: " + std::to_string(kMinBaud) + " .. " + std::to_string(kMaxBaud),
                    "board-value");
          } else if (board.clock_mhz > 0 && board.clock_mhz * 1e6 < 4.0 * static_cast<double>(*v)) {
            c.error(c.where(m->at("baud")),
                    "baud " + *s + " is too fast for a " + fmt_number(board.clock_mhz) +
                        " MHz clock: the UART needs at least 4 clocks a bit",
                    "board-value");
          } else {
            board.baud = static_cast<uint32_t>(*v);
          }
        }
    }
  }

  if (has("programmer")) {
    const Entry& e = at("programmer");
    if (auto m = c.mapping(e.value, "programmer", c.key_where(e), {"command", "usb"}, {})) {
      if (auto cmd = c.text(m->at("command"), false)) {
        if (cmd->find("{bin}") == std::string::npos)
          c.error(c.where(m->at("command")), "the programmer's command needs {bin} where the bitstream goes",
                  "board-value");
        else
          board.program = *cmd;
      }
      const Entry& usb = m->at("usb");
      if (!usb.value.IsSequence() || usb.value.size() == 0) {
        c.error(c.where(usb), "'usb' is a list of USB ids like \"0403:6010\"", "board-type");
      } else {
        board.usb_ids.clear();
        for (const auto& item : usb.value) {
          const std::string id = item.IsScalar() ? item.Scalar() : std::string();
          const bool ok = id.size() == 9 && id[4] == ':' &&
                          std::all_of(id.begin(), id.end(), [](char ch) { return ch == ':' || std::isxdigit(static_cast<unsigned char>(ch)); });
          if (!ok)
            c.error(c.where(item, c.where(usb)), "a USB id is vvvv:pppp in hex, like \"0403:6010\", not " + shown(id),
                    "board-value");
          else
            board.usb_ids.push_back(id);
        }
      }
    }
  }

  if (has("reset_button")) {
    const Entry& e = at("reset_button");
    if (!e.value.IsNull())
      if (auto p = polar_pin(e.value, "reset_button", c.key_where(e))) board.reset_button = *p;
  }

  // No pin serves two roles.
  for (size_t i = 0; i < uses.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (uses[i].pin == uses[j].pin) {
        c.error(uses[i].at,
                "pin " + uses[i].pin + " is used twice: by " + uses[j].role + " (line " +
                    std::to_string(uses[j].at.line + 1) + ") and by " + uses[i].role,
                "board-value");
        break;
      }
}

// Parses and checks a board file's text; `path` is how messages name it.
ir::Expected<Board, std::string> parse_board(std::string_view text, const std::string& path, const std::string& name) {
  Report report(path, text);
  Checker checker(report);
  Board board;
  board.name = name;
  if (text.size() > kMaxFileBytes) {
    report.error_at_start("the board file is " + std::to_string(text.size()) + " bytes; a board file is at most " +
                              std::to_string(kMaxFileBytes),
                          "board-file");
    return report.text();
  }
  try {
    // The first document as nodes, then a second pass that only looks for a
    // second document. (Not YAML::LoadAll: in yaml-cpp 0.7 it loops forever on
    // some garbage, such as a stray ',' or ']' at the top level.)
    const std::string owned(text);
    const YAML::Node root = YAML::Load(owned);
    const std::vector<YAML::Mark> starts = text::document_starts(owned);
    if (starts.size() > 1) {
      const YAML::Mark& m = starts[1];
      checker.error(m.is_null() ? Where{0, 0, 1} : Where{m.line, m.column, 1},
                    "a board file holds one YAML document; another begins here", "board-syntax");
    } else if (root.IsNull() || !root.IsDefined()) {
      report.error_at_start(
          "the board file is empty: it is a mapping of title, device, package, clock, leds, uart, source",
          "board-syntax");
    } else {
      check(root, checker, board);
    }
  } catch (const YAML::Exception& e) {
    Where at{0, 0, 1};
    if (!e.mark.is_null()) at = Where{e.mark.line, e.mark.column, 1};
    report.error(at, "YAML syntax: " + (e.msg.empty() ? std::string("cannot parse") : e.msg), "board-syntax");
  } catch (const std::exception& e) {  // yaml-cpp should throw only its own, but no input may escape
    report.error_at_start(std::string("cannot parse: ") + e.what(), "board-syntax");
  }
  if (report.any()) return report.text();
  return board;
}

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

}  // namespace

ir::Expected<Board, std::string> parse_board_text(std::string_view text, const std::string& path) {
  return parse_board(text, path, std::filesystem::path(path).stem().string());
}

ir::Expected<Board, std::string> load_board_file(const std::filesystem::path& file) {
  const std::string path = file.string();
  std::error_code ec;
  std::ifstream in(file, std::ios::binary);
  if (!in || std::filesystem::is_directory(file, ec)) {
    return path + ":1:1: error: cannot read the board file [board-file]\n";
  }
  std::string text;
  char buf[4096];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<size_t>(in.gcount()));
    if (text.size() > kMaxFileBytes) break;  // parse_board reports it
  }
  return parse_board(text, path, file.stem().string());
}

ir::Expected<Board, std::string> find_board(std::string_view name_or_path) {
  const std::string arg(name_or_path);
  if (auto text = bundled_board(arg)) return parse_board(*text, "boards/" + arg + ".yaml", arg);
  if (ends_with(arg, ".yaml") || ends_with(arg, ".yml") || arg.find('/') != std::string::npos)
    return load_board_file(arg);
  const std::vector<std::string> names = board_names();
  return "error: unknown board " + shown(arg) + "; the bundled boards are " + join(names, ", ") +
         " (a board file is given by a path ending in .yaml)" + suggestion(arg, names) + " [board-unknown]\n";
}

bool board_unknown(std::string_view name_or_path) {
  const std::string arg(name_or_path);
  if (bundled_board(arg)) return false;
  std::error_code ec;
  if (ends_with(arg, ".yaml") || ends_with(arg, ".yml") || arg.find('/') != std::string::npos)
    return !std::filesystem::exists(arg, ec);
  return true;
}

std::vector<std::string> board_names() {
  std::vector<std::string> names = bundled_board_names();
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace polydat::boards
