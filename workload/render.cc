#include "workload/render.h"

#include <cmath>

#include "workload/values.h"

namespace polydat::workload {

std::optional<LineFormat> parse_line_format(std::string_view name) {
  if (name == "stmt") return LineFormat::Stmt;
  if (name == "csv") return LineFormat::Csv;
  if (name == "jsonl") return LineFormat::Jsonl;
  return std::nullopt;
}

namespace {

using Status = ir::Expected<void, std::string>;

void json_string(std::string& out, std::string_view s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          static const char* hex = "0123456789abcdef";
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

void json_value(std::string& out, const ir::Value& v) {
  const ir::TyKind k = v.ty().kind();
  if (k == ir::TyKind::Bool || v.ty().is_int()) {
    render_op_value(out, v);
  } else if (k == ir::TyKind::F64 || k == ir::TyKind::F32) {
    const double d = k == ir::TyKind::F64 ? v.as_f64() : v.as_f32();
    if (std::isfinite(d)) render_op_value(out, v);
    else json_string(out, op_text(v));
  } else {
    json_string(out, op_text(v));
  }
}

void csv_field(std::string& out, std::string_view s) {
  if (s.find_first_of(",\"\n\r") == std::string_view::npos) {
    out += s;
    return;
  }
  out += '"';
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

}  // namespace

ir::Expected<void, std::string> render_op_line(const PreparedOp& op, LineFormat format, const ValueOf& value,
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
  switch (format) {
    case LineFormat::Stmt: {
      const std::vector<const OpTemplate*> shown = stmt_fields(op);
      for (size_t i = 0; i < shown.size(); ++i) {
        if (i) out += '\n';
        if (auto st = field_text(*shown[i], out); !st) return st;
      }
      break;
    }
    case LineFormat::Csv:
      for (size_t i = 0; i < op.fields.size(); ++i) {
        if (i) out += ',';
        std::string text;
        if (auto st = field_text(op.fields[i].second, text); !st) return st;
        csv_field(out, text);
      }
      break;
    case LineFormat::Jsonl:
      out += '{';
      for (size_t i = 0; i < op.fields.size(); ++i) {
        if (i) out += ',';
        json_string(out, op.fields[i].first);
        out += ':';
        const OpTemplate& t = op.fields[i].second;
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
  }
  out += '\n';
  return {};
}

}  // namespace polydat::workload
