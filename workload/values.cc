#include "workload/values.h"

#include <bit>
#include <charconv>
#include <cstring>
#include <cmath>
#include <cstdlib>
#include <system_error>

#include "ir/partition.h"

namespace polydat::workload {

namespace {
bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

template <class F>
void fixed_float(std::string& out, F f) {
  if (std::isnan(f)) {
    out += "NaN";
    return;
  }
  if (std::isinf(f)) {
    out += f < 0 ? "-inf" : "inf";
    return;
  }
  char buf[400];  // the longest fixed form of a double (about 330 digits)
  auto res = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::fixed);
  out.append(buf, res.ptr);
}
}  // namespace

namespace {
ir::Value typed_param(std::string_view text);
}  // namespace

// A param keeps its text exactly: "007" or "1.10" stay strings, since their
// number would print differently ("7", "1.1") where the text is substituted.
ir::Value param_value(std::string_view text) {
  ir::Value v = typed_param(text);
  if (v.ty().kind() != ir::TyKind::Str && op_text(v) != text) return ir::Value::str(std::string(text));
  return v;
}

namespace {
ir::Value typed_param(std::string_view text) {
  if (all_digits(text)) {
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec == std::errc() && p == text.data() + text.size()) return ir::Value::integer(ir::TyKind::U64, v);
  }
  if (text.size() > 1 && text[0] == '-' && all_digits(text.substr(1))) {
    int64_t v = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec == std::errc() && p == text.data() + text.size())
      return ir::Value::integer(ir::TyKind::I64, static_cast<uint64_t>(v));
  }
  if (text == "true" || text == "false") return ir::Value::boolean(text == "true");
  // A float: digits with a '.' or an exponent, all of the text consumed.
  if (!text.empty() && text.find_first_of(".eE") != std::string_view::npos &&
      text.find_first_not_of("0123456789.eE+-") == std::string_view::npos) {
    double d = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
    if (ec == std::errc() && p == text.data() + text.size()) return ir::Value::f64(d);
  }
  return ir::Value::str(std::string(text));
}
}  // namespace

void render_op_value(std::string& out, const ir::Value& v) {
  switch (v.ty().kind()) {
    case ir::TyKind::F64: fixed_float(out, v.as_f64()); return;
    case ir::TyKind::F32: fixed_float(out, v.as_f32()); return;
    case ir::TyKind::Str: out += v.as_str(); return;
    case ir::TyKind::Bool: out += v.as_bool() ? "true" : "false"; return;
    case ir::TyKind::Struct:
      if (auto p = ir::as_partition(v)) {  // nb-rs shows a partition as its Display text
        out += ir::partition_display(*p);
        return;
      }
      [[fallthrough]];
    case ir::TyKind::Tuple:
    case ir::TyKind::Unit: out += ir::render(v); return;
    default: {
      char buf[24];
      auto res = v.ty().is_signed_int() ? std::to_chars(buf, buf + sizeof buf, v.as_i64())
                                        : std::to_chars(buf, buf + sizeof buf, v.as_u64());
      out.append(buf, res.ptr);
    }
  }
}

std::string op_text(const ir::Value& v) {
  std::string s;
  render_op_value(s, v);
  return s;
}

std::optional<std::string> gk_literal(const ir::Value& v) {
  switch (v.ty().kind()) {
    case ir::TyKind::Unit:
    case ir::TyKind::Tuple:
    case ir::TyKind::Struct: return std::nullopt;
    case ir::TyKind::Str: {
      std::string s = "\"";
      for (char c : v.as_str()) {
        switch (c) {
          case '"': s += "\\\""; break;
          case '\\': s += "\\\\"; break;
          case '\n': s += "\\n"; break;
          case '\t': s += "\\t"; break;
          case '{': s += "{{"; break;  // a literal brace, not an interpolation
          case '}': s += "}}"; break;
          default: s += c;
        }
      }
      return s + "\"";
    }
    case ir::TyKind::F64:
    case ir::TyKind::F32: {
      const double d = v.ty().kind() == ir::TyKind::F64 ? v.as_f64() : v.as_f32();
      if (!std::isfinite(d)) return std::nullopt;
      std::string s = ir::render_float(d);
      return v.ty().kind() == ir::TyKind::F32 ? "(" + s + " as f32)" : s;
    }
    case ir::TyKind::Bool: return std::string(v.as_bool() ? "true" : "false");
    default: {
      std::string s = v.ty().is_signed_int() ? std::to_string(v.as_i64()) : std::to_string(v.as_u64());
      if (v.ty().kind() == ir::TyKind::U64 || v.ty().kind() == ir::TyKind::I64) return s;
      return "(" + s + " as " + ir::ty_label(v.ty()) + ")";
    }
  }
}

namespace {
// A record field's bits, sign-extended for signed integers.
uint64_t field_bits(const sim::RecordField& f, const unsigned char* rec) {
  uint64_t x = 0;
  std::memcpy(&x, rec + f.offset, f.size < 8 ? f.size : 8);
  return x;
}
}  // namespace

void render_op_field(std::string& out, const sim::RecordField& f, const unsigned char* rec) {
  switch (f.kind) {
    case ir::TyKind::Str: {
      sim::StrView s;
      std::memcpy(&s, rec + f.offset, sizeof s);
      out.append(s.ptr, s.len);
      return;
    }
    case ir::TyKind::Bool: out += field_bits(f, rec) ? "true" : "false"; return;
    case ir::TyKind::F64: fixed_float(out, std::bit_cast<double>(field_bits(f, rec))); return;
    case ir::TyKind::F32: fixed_float(out, std::bit_cast<float>(static_cast<uint32_t>(field_bits(f, rec)))); return;
    default: {
      const uint64_t bits = field_bits(f, rec);
      char buf[24];
      const bool is_signed = f.kind == ir::TyKind::I8 || f.kind == ir::TyKind::I16 || f.kind == ir::TyKind::I32 ||
                             f.kind == ir::TyKind::I64;
      std::to_chars_result res;
      if (is_signed) {
        const unsigned w = static_cast<unsigned>(f.size * 8);
        const int64_t v = w >= 64 ? static_cast<int64_t>(bits)
                                  : static_cast<int64_t>((bits ^ (uint64_t{1} << (w - 1))) - (uint64_t{1} << (w - 1)));
        res = std::to_chars(buf, buf + sizeof buf, v);
      } else {
        res = std::to_chars(buf, buf + sizeof buf, bits);
      }
      out.append(buf, res.ptr);
    }
  }
}

bool field_truthy(const sim::RecordField& f, const unsigned char* rec) {
  switch (f.kind) {
    case ir::TyKind::Str: {
      sim::StrView s;
      std::memcpy(&s, rec + f.offset, sizeof s);
      const std::string_view v(s.ptr, s.len);
      return !v.empty() && v != "false" && v != "0";
    }
    case ir::TyKind::F64: return std::bit_cast<double>(field_bits(f, rec)) != 0;
    case ir::TyKind::F32: return std::bit_cast<float>(static_cast<uint32_t>(field_bits(f, rec))) != 0;
    default: return field_bits(f, rec) != 0;
  }
}

bool truthy(const ir::Value& v) {
  switch (v.ty().kind()) {
    case ir::TyKind::Bool: return v.as_bool();
    case ir::TyKind::Str: return !v.as_str().empty() && v.as_str() != "false" && v.as_str() != "0";
    case ir::TyKind::F64: return v.as_f64() != 0;
    case ir::TyKind::F32: return v.as_f32() != 0;
    case ir::TyKind::Unit:
    case ir::TyKind::Tuple:
    case ir::TyKind::Struct: return false;
    default: return v.bits() != 0;
  }
}

}  // namespace polydat::workload
