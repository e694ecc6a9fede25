#include "workload/render.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "frontend/diagnostics.h"
#include "text/csv.h"
#include "workload/values.h"

namespace polydat::workload {

namespace {

using Status = ir::Expected<void, std::string>;

struct FormatName {
  const char* name;
  LineFormat format;
};
// Each format's names, its own first (the one messages use), then its aliases.
constexpr FormatName kFormatNames[] = {
    {"stmt", LineFormat::Stmt},
    {"statement", LineFormat::Stmt},
    {"readout", LineFormat::Readout},
    {"assignments", LineFormat::Assignments},
    {"assign", LineFormat::Assignments},
    {"json", LineFormat::Json},
    {"jsonl", LineFormat::Json},
    {"inlinejson", LineFormat::Json},
    {"csv", LineFormat::Csv},
    {"tsv", LineFormat::Tsv},
    {"raw", LineFormat::Raw},
};

std::string lowered(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

void json_string(std::string& out, std::string_view s) {
  static const char* hex = "0123456789abcdef";
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += hex[c >> 4];
          out += hex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

// serde_json's layout of the shortest digits D (n of them) of a value
// D[0].D[1..] x 10^e: plain between 1e-5 and 1e16, else scientific.
template <class F>
void json_float_of(std::string& out, F f) {
  if (f == 0) {
    out += std::signbit(f) ? "-0.0" : "0.0";
    return;
  }
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::scientific);
  const std::string_view sci(buf, static_cast<size_t>(res.ptr - buf));  // [-]d[.ddd]e(+|-)xx
  size_t i = 0;
  if (sci[0] == '-') {
    out += '-';
    i = 1;
  }
  const size_t e_at = sci.find('e');
  std::string digits;
  for (size_t k = i; k < e_at; ++k)
    if (sci[k] != '.') digits += sci[k];
  const int e = std::atoi(std::string(sci.substr(e_at + 1)).c_str());
  const int n = static_cast<int>(digits.size());
  if (e >= -5 && e <= 15) {
    if (n - 1 <= e) {
      out += digits;
      out.append(static_cast<size_t>(e + 1 - n), '0');
      out += ".0";
    } else if (e >= 0) {
      out.append(digits, 0, static_cast<size_t>(e + 1));
      out += '.';
      out.append(digits, static_cast<size_t>(e + 1));
    } else {
      out += "0.";
      out.append(static_cast<size_t>(-e - 1), '0');
      out += digits;
    }
    return;
  }
  out += digits[0];
  if (n > 1) {
    out += '.';
    out.append(digits, 1);
  }
  out += e >= 0 ? "e+" : "e-";
  out += std::to_string(std::abs(e));
}

// nb-rs's JSON for a value: u64 a number, f64 a number (null when not
// finite), bool a bool, anything else its text as a string. polydat's other
// integers are numbers too, and f32 a number of its own shortest digits.
void json_value(std::string& out, const ir::Value& v) {
  const ir::TyKind k = v.ty().kind();
  if (k == ir::TyKind::Bool || v.ty().is_int()) {
    render_op_value(out, v);
  } else if (k == ir::TyKind::F64 || k == ir::TyKind::F32) {
    const bool finite = k == ir::TyKind::F64 ? std::isfinite(v.as_f64()) : std::isfinite(v.as_f32());
    if (!finite) out += "null";
    else if (k == ir::TyKind::F64) json_float_of(out, v.as_f64());
    else json_float_of(out, v.as_f32());
  } else {
    json_string(out, op_text(v));
  }
}

void tsv_field(std::string& out, std::string_view s) {
  for (char c : s) {
    if (c == '\t') out += "\\t";
    else out += c;
  }
}

// Code points in a name (nb-rs pads to a width in characters).
size_t chars_in(std::string_view s) {
  return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xc0) != 0x80; }));
}

using ShownField = std::pair<std::string, OpTemplate>;

// The op's fields `fields=` keeps, in the op's order.
std::vector<const ShownField*> shown_fields(const PreparedOp& op, const RenderOptions& o) {
  std::vector<const ShownField*> shown;
  for (const ShownField& f : op.fields)
    if (o.fields.empty() || std::find(o.fields.begin(), o.fields.end(), f.first) != o.fields.end()) shown.push_back(&f);
  return shown;
}

// The text between a tabular line's values (and its header's names).
std::string_view joiner(const RenderOptions& o) {
  switch (o.format) {
    case LineFormat::Csv: return ",";
    case LineFormat::Tsv: return "\t";
    case LineFormat::Raw: return o.separator;
    case LineFormat::Assignments: return ", ";
    default: return "\n";
  }
}

bool has_header(LineFormat f) { return f == LineFormat::Csv || f == LineFormat::Tsv || f == LineFormat::Raw; }

}  // namespace

void json_float(std::string& out, double d) { json_float_of(out, d); }

std::optional<LineFormat> parse_line_format(std::string_view name) {
  const std::string n = lowered(name);
  for (const FormatName& f : kFormatNames)
    if (n == f.name) return f.format;
  return std::nullopt;
}

std::string line_format_names() {
  std::string s;
  for (size_t i = 0; i < std::size(kFormatNames); ++i) {
    const bool alias = i > 0 && kFormatNames[i - 1].format == kFormatNames[i].format;
    const bool first_alias = alias && (i < 2 || kFormatNames[i - 2].format != kFormatNames[i].format);
    if (!alias && i > 0) s += ", ";
    if (alias) s += first_alias ? " (or " : ", ";
    s += kFormatNames[i].name;
    const bool group_ends = i + 1 == std::size(kFormatNames) || kFormatNames[i + 1].format != kFormatNames[i].format;
    if (alias && group_ends) s += ')';
  }
  return s;
}

ir::Expected<RenderOptions, RenderOptionError> render_options(const RenderSettings& in) {
  RenderOptions o;
  if (in.format) {
    const auto f = parse_line_format(*in.format);
    if (!f) {
      std::vector<std::string> names;
      for (const FormatName& n : kFormatNames) names.emplace_back(n.name);
      const std::string near = frontend::closest_name(lowered(*in.format), names);
      return RenderOptionError{"format",
                               "unknown format '" + *in.format + "'; the formats are " + line_format_names() +
                                   (near.empty() ? "" : "; did you mean '" + near + "'?"),
                               "unknown-format"};
    }
    o.format = *f;
  }
  if (in.separator) {
    if (o.format != LineFormat::Raw)
      return RenderOptionError{"separator",
                               "separator= applies to the raw format only (csv always joins with ',', tsv with a tab)",
                               "not-applicable"};
    o.separator = *in.separator;
  }
  if (in.header) {
    const std::string& h = *in.header;
    if (h == "true" || h == "1" || h == "yes") o.header = true;
    else if (h == "false" || h == "0" || h == "no") o.header = false;
    else
      return RenderOptionError{"header", "header is true or false (or 1/0, yes/no), not '" + h + "'", "bad-value"};
    if (o.header && !has_header(o.format))
      return RenderOptionError{"header", "header=true applies to the csv, tsv and raw formats only", "not-applicable"};
  }
  if (in.fields) {
    const std::string& list = *in.fields;
    for (size_t start = 0; start <= list.size();) {
      const size_t comma = std::min(list.find(',', start), list.size());
      std::string name = list.substr(start, comma - start);
      name.erase(0, std::min(name.find_first_not_of(' '), name.size()));
      name.erase(name.find_last_not_of(' ') + 1);
      if (name.empty())
        return RenderOptionError{"fields", "fields= is a list of field names separated by ',', with none empty: '" +
                                               list + "'",
                                 "bad-value"};
      o.fields.push_back(std::move(name));
      start = comma + 1;
    }
  }
  return o;
}

std::optional<std::string> unknown_field(const RenderOptions& options, const std::vector<PreparedOp>& ops) {
  for (const std::string& name : options.fields) {
    const bool somewhere = std::any_of(ops.begin(), ops.end(), [&](const PreparedOp& op) {
      return std::any_of(op.fields.begin(), op.fields.end(), [&](const ShownField& f) { return f.first == name; });
    });
    if (!somewhere) return name;
  }
  return std::nullopt;
}

void render_header(const PreparedOp& op, const RenderOptions& options, std::string& out) {
  if (!options.header || !has_header(options.format)) return;
  const std::vector<const ShownField*> shown = shown_fields(op, options);
  if (shown.empty()) return;
  for (size_t i = 0; i < shown.size(); ++i) {
    if (i) out += joiner(options);
    out += shown[i]->first;
  }
  out += '\n';
}

ir::Expected<void, std::string> render_op_line(const PreparedOp& op, LineFormat format, const ValueOf& value,
                                               std::string& out) {
  RenderOptions o;
  o.format = format;
  return render_op_line(op, o, value, out);
}

ir::Expected<void, std::string> render_op_line(const PreparedOp& op, const RenderOptions& options, const ValueOf& value,
                                               std::string& out) {
  auto field_text = [&](const OpTemplate& t, std::string& dst) -> Status {
    for (const TemplatePart& part : t.parts) {
      if (!part.is_name) {
        dst += part.text;
        continue;
      }
      auto v = value(part.text);
      if (!v) return v.error();
      render_op_value(dst, *v);
    }
    return {};
  };
  const std::vector<const ShownField*> shown = shown_fields(op, options);
  switch (options.format) {
    case LineFormat::Stmt: {
      for (const char* pick : {"stmt", "raw", "prepared"})
        for (const ShownField* f : shown)
          if (f->first == pick) {
            if (auto st = field_text(f->second, out); !st) return st;
            out += '\n';
            return {};
          }
      for (size_t i = 0; i < shown.size(); ++i) {
        if (i) out += '\n';
        if (auto st = field_text(shown[i]->second, out); !st) return st;
      }
      break;
    }
    case LineFormat::Readout: {
      size_t width = 0;
      for (const ShownField* f : shown) width = std::max(width, f->first.size());
      for (size_t i = 0; i < shown.size(); ++i) {
        if (i) out += '\n';
        out += "  ";
        out += shown[i]->first;
        out.append(width - std::min(width, chars_in(shown[i]->first)), ' ');
        out += " = ";
        if (auto st = field_text(shown[i]->second, out); !st) return st;
      }
      break;
    }
    case LineFormat::Assignments:
      for (size_t i = 0; i < shown.size(); ++i) {
        if (i) out += joiner(options);
        out += shown[i]->first;
        out += '=';
        if (auto st = field_text(shown[i]->second, out); !st) return st;
      }
      break;
    case LineFormat::Json:
      out += '{';
      for (size_t i = 0; i < shown.size(); ++i) {
        if (i) out += ',';
        json_string(out, shown[i]->first);
        out += ':';
        const OpTemplate& t = shown[i]->second;
        if (t.whole_name) {
          auto v = value(*t.whole_name);
          if (!v) return v.error();
          json_value(out, *v);
        } else {
          std::string text;
          if (auto st = field_text(t, text); !st) return st;
          json_string(out, text);
        }
      }
      out += '}';
      break;
    case LineFormat::Csv:
    case LineFormat::Tsv:
    case LineFormat::Raw:
      for (size_t i = 0; i < shown.size(); ++i) {
        if (i) out += joiner(options);
        std::string text;
        if (auto st = field_text(shown[i]->second, text); !st) return st;
        if (options.format == LineFormat::Csv) text::append_csv_field(out, text, text::CsvQuoting::NbRs);
        else if (options.format == LineFormat::Tsv) tsv_field(out, text);
        else out += text;
      }
      break;
  }
  out += '\n';
  return {};
}

}  // namespace polydat::workload
