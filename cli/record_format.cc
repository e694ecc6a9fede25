#include "cli/record_format.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "cli/values.h"
#include "text/csv.h"

namespace polydat::cli {

namespace {
using ir::TyKind;

bool is_signed(TyKind k) { return k == TyKind::I8 || k == TyKind::I16 || k == TyKind::I32 || k == TyKind::I64; }

Field read_field(const sim::RecordField& f, const unsigned char* rec) {
  const unsigned char* at = rec + f.offset;
  Field out{f.kind, 0, {}};
  if (f.kind == TyKind::Str) {
    sim::StrView v;
    std::memcpy(&v, at, sizeof v);
    out.str = std::string_view(v.ptr, v.len);
  } else if (f.kind == TyKind::Bool) {
    out.bits = *at != 0;
  } else {
    std::memcpy(&out.bits, at, f.size);  // little-endian: the low bytes
    if (is_signed(f.kind) && f.size < 8) {
      const unsigned shift = 64 - 8 * static_cast<unsigned>(f.size);
      out.bits = static_cast<uint64_t>(static_cast<int64_t>(out.bits << shift) >> shift);
    }
  }
  return out;
}

double float_value(const Field& f) {
  if (f.kind == TyKind::F32) {
    float x;
    const auto b = static_cast<uint32_t>(f.bits);
    std::memcpy(&x, &b, sizeof x);
    return x;
  }
  double x;
  std::memcpy(&x, &f.bits, sizeof x);
  return x;
}

void append_json(std::string& out, const Field& f) {
  if (f.kind == TyKind::Str) {
    out += nlohmann::json(std::string(f.str)).dump();
  } else if (f.kind == TyKind::F32 || f.kind == TyKind::F64) {
    const double d = float_value(f);
    if (!std::isfinite(d)) {
      out += "null";  // JSON has no NaN or infinity
      return;
    }
    // An f32 prints as its own shortest form (0.1f is 0.1, not 0.10000000149011612).
    std::string text;
    render_field(text, f);
    out += nlohmann::json(std::stod(text)).dump();
  } else {
    render_field(out, f);
  }
}

void append_csv(std::string& out, const Field& f) {
  if (f.kind == TyKind::Str) text::append_csv_field(out, f.str);
  else render_field(out, f);
}

// TSV has no quoting: a tab, newline, carriage return or backslash in a string is escaped as \t \n \r \\.
void append_tsv(std::string& out, const Field& f) {
  if (f.kind != TyKind::Str) {
    render_field(out, f);
    return;
  }
  for (char c : f.str) {
    switch (c) {
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\\': out += "\\\\"; break;
      default: out += c;
    }
  }
}
}  // namespace

std::optional<Format> parse_format(const std::string& name) {
  static const std::pair<const char*, Format> kNames[] = {{"table", Format::Table}, {"csv", Format::Csv},
                                                          {"tsv", Format::Tsv},     {"json", Format::Json},
                                                          {"jsonl", Format::Jsonl}, {"bin", Format::Bin}};
  for (const auto& [n, f] : kNames)
    if (name == n) return f;
  return std::nullopt;
}

void render_field(std::string& out, const Field& f) {
  char buf[24];
  switch (f.kind) {
    case TyKind::Str: out += f.str; return;
    case TyKind::Bool: out += f.bits ? "true" : "false"; return;
    case TyKind::F32: out += ir::render_float(static_cast<float>(float_value(f))); return;
    case TyKind::F64: out += ir::render_float(float_value(f)); return;
    default: break;
  }
  const auto r = is_signed(f.kind) ? std::to_chars(buf, buf + sizeof buf, static_cast<int64_t>(f.bits))
                                   : std::to_chars(buf, buf + sizeof buf, f.bits);
  out.append(buf, r.ptr);
}

RowFormatter::RowFormatter(Format format, std::optional<std::string> iterated, const sim::RecordLayout& outputs)
    : format_(format), iterated_(std::move(iterated)), layout_(outputs) {
  if (iterated_) names_.push_back(*iterated_);
  for (const sim::RecordField& f : layout_.fields) names_.push_back(f.name);
  for (const std::string& n : names_) widths_.push_back(n.size());
}

std::optional<std::string> RowFormatter::bin_refusal() const {
  for (const sim::RecordField& f : layout_.fields)
    if (f.kind == TyKind::Str)
      return "--format bin writes fixed-size records, and output '" + f.name + "' is a string";
  return std::nullopt;
}

std::string RowFormatter::begin() const {
  std::string out;
  auto line = [&](char sep) {
    for (size_t c = 0; c < names_.size(); ++c) out += (c ? std::string(1, sep) : "") + names_[c];
    out += '\n';
  };
  switch (format_) {
    case Format::Csv: line(','); break;
    case Format::Tsv: line('\t'); break;
    case Format::Json: out = "["; break;
    case Format::Table:
      for (size_t c = 0; c < names_.size(); ++c) {
        out += names_[c];
        if (c + 1 < names_.size()) out += std::string(widths_[c] - names_[c].size() + 2, ' ');
      }
      out += '\n';
      break;
    case Format::Jsonl:
    case Format::Bin: break;
  }
  return out;
}

std::string RowFormatter::end(uint64_t rows) const {
  if (format_ != Format::Json) return "";
  return rows ? "\n]\n" : "]\n";
}

void RowFormatter::row(std::string& out, uint64_t row, uint64_t iterated_value, const unsigned char* rec) const {
  if (format_ == Format::Bin) {
    out.append(reinterpret_cast<const char*>(rec), layout_.size);
    return;
  }
  const size_t columns = names_.size();
  auto field = [&](size_t c) { return column(c, iterated_value, rec); };
  switch (format_) {
    case Format::Csv:
    case Format::Tsv:
      for (size_t c = 0; c < columns; ++c) {
        if (c) out += format_ == Format::Csv ? ',' : '\t';
        if (format_ == Format::Csv) append_csv(out, field(c));
        else append_tsv(out, field(c));
      }
      out += '\n';
      return;
    case Format::Table:
      for (size_t c = 0; c < columns; ++c) {
        const size_t start = out.size();
        render_field(out, field(c));
        if (c + 1 < columns) out.append(widths_[c] - std::min(widths_[c], out.size() - start) + 2, ' ');
      }
      out += '\n';
      return;
    case Format::Jsonl:
      out += '{';
      for (size_t c = 0; c < columns; ++c) {
        out += c ? ",\"" : "\"";
        out += names_[c];
        out += "\":";
        append_json(out, field(c));
      }
      out += "}\n";
      return;
    case Format::Json:
      out += row ? ",\n  {" : "\n  {";
      for (size_t c = 0; c < columns; ++c) {
        out += c ? ",\n    \"" : "\n    \"";
        out += names_[c];
        out += "\": ";
        append_json(out, field(c));
      }
      out += columns ? "\n  }" : "}";
      return;
    case Format::Bin: return;
  }
}

Field RowFormatter::column(size_t c, uint64_t iterated_value, const unsigned char* rec) const {
  const size_t first_output = iterated_ ? 1 : 0;
  return c < first_output ? Field{TyKind::U64, iterated_value, {}} : read_field(layout_.fields[c - first_output], rec);
}

void RowFormatter::fit_widths(uint64_t first_iterated, const unsigned char* recs, size_t count) {
  std::string text;
  for (size_t r = 0; r < count; ++r)
    for (size_t c = 0; c < names_.size(); ++c) {
      text.clear();
      render_field(text, column(c, first_iterated + r, recs + r * layout_.size));
      widths_[c] = std::max(widths_[c], text.size());
    }
}

}  // namespace polydat::cli
