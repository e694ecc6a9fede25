#include "cli/values.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "text/count.h"
#include "text/csv.h"

namespace polydat::cli {

namespace {
// An integer in the language's literal forms, as a sign and a magnitude.
std::optional<std::pair<bool, unsigned __int128>> parse_integer(std::string text) {
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.erase(0, 1);
  }
  int base = 10;
  if (text.size() > 2 && text[0] == '0') {
    const char p = static_cast<char>(text[1] | 0x20);
    base = p == 'x' ? 16 : p == 'b' ? 2 : p == 'o' ? 8 : 10;
    if (base != 10) text.erase(0, 2);
  }
  if (text.empty()) return std::nullopt;
  unsigned __int128 v = 0;
  for (char c : text) {
    if (c == '_') continue;
    int d = c >= '0' && c <= '9' ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : 99;
    if (d >= base) return std::nullopt;
    v = v * static_cast<unsigned>(base) + static_cast<unsigned>(d);
    if (v > UINT64_MAX) return std::nullopt;
  }
  return std::pair(negative, v);
}
}  // namespace

std::optional<ir::Value> parse_value(const std::string& text, const ir::Ty& ty) {
  using ir::TyKind;
  if (ty.is_str()) return ir::Value::str(text);
  if (ty.is_bool()) {
    if (text == "true") return ir::Value::boolean(true);
    if (text == "false") return ir::Value::boolean(false);
    return std::nullopt;
  }
  if (ty.is_float()) {
    if (text.empty()) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    if (ty.kind() == TyKind::F32) {
      const float f = std::strtof(text.c_str(), &end);
      if (*end != '\0') return std::nullopt;
      return ir::Value::f32(f);
    }
    const double d = std::strtod(text.c_str(), &end);
    if (*end != '\0') return std::nullopt;
    return ir::Value::f64(d);
  }
  auto parsed = parse_integer(text);
  if (!parsed) return std::nullopt;
  const auto [negative, mag] = *parsed;
  const unsigned w = ty.bits();
  if (ty.is_signed_int()) {
    const unsigned __int128 limit = static_cast<unsigned __int128>(1) << (w - 1);
    if (negative ? mag > limit : mag >= limit) return std::nullopt;
    const auto v = negative ? -static_cast<__int128>(mag) : static_cast<__int128>(mag);
    return ir::Value::integer(ty.kind(), static_cast<uint64_t>(static_cast<int64_t>(v)));
  }
  if (negative && mag != 0) return std::nullopt;
  if (w < 64 && mag >= (static_cast<unsigned __int128>(1) << w)) return std::nullopt;
  return ir::Value::integer(ty.kind(), static_cast<uint64_t>(mag));
}

std::string csv_field(const ir::Value& v) {
  std::string out;
  text::append_csv_field(out, ir::render(v));
  return out;
}

std::optional<CycleRange> parse_cycles(const std::string& text) {
  const size_t dots = text.find("..");
  auto number = [](const std::string& s) -> std::optional<uint64_t> {
    if (auto n = text::parse_count(s)) return n;  // 20M, 1_000 as a workload's cycles take them
    auto p = parse_integer(s);
    if (!p || p->first) return std::nullopt;
    return static_cast<uint64_t>(p->second);
  };
  if (dots == std::string::npos) {
    auto n = number(text);
    if (!n) return std::nullopt;
    return CycleRange{0, *n};
  }
  auto a = number(text.substr(0, dots));
  auto b = number(text.substr(dots + 2));
  if (!a || !b || *a > *b) return std::nullopt;
  return CycleRange{*a, *b};
}

}  // namespace polydat::cli
