// nb-rs's text, encoding and digest functions as library functions.
// nb-rs's bytes values travel as lowercase hex text, the form nb-rs displays
// them in: a bytes parameter reads its text with from_hex's rules, so
// to_hex(sha256(u64_to_bytes(x))) gives nb-rs's text.
#include <charconv>
#include <cmath>
#include <string>

#include "ir/alias_table.h"
#include "ir/library_fn.h"
#include "ir/text_codecs.h"
#include "ir/text_regex.h"

namespace polydat::ir {

namespace {

using Args = std::span<const Value>;

Value text(std::string s) { return Value::str(std::move(s)); }

// A bytes argument (hex text) as raw bytes.
std::string bytes_arg(const Value& v) { return hex_decode(v.as_str()); }
// Raw bytes as a bytes result (hex text).
Value bytes_result(const std::string& raw) { return text(hex_encode(raw)); }

Value eval_printf(Args a) { return text(format_printf(a[0].as_str(), a.subspan(1))); }
Value eval_u64_to_bytes(Args a) { return bytes_result(u64_le_bytes(a[0].as_u64())); }
Value eval_bytes_from_hash(Args a) { return bytes_result(bytes_from_hash(a[0].as_u64(), a[1].as_u64())); }
Value eval_to_hex(Args a) { return bytes_result(bytes_arg(a[0])); }
Value eval_from_hex(Args a) { return bytes_result(bytes_arg(a[0])); }
Value eval_sha256(Args a) { return bytes_result(sha256_digest(bytes_arg(a[0]))); }
Value eval_md5(Args a) { return bytes_result(md5_digest(bytes_arg(a[0]))); }
Value eval_to_base64(Args a) { return text(base64_encode(bytes_arg(a[0]))); }
Value eval_from_base64(Args a) { return bytes_result(base64_decode(a[0].as_str()).value_or("")); }
Value eval_url_encode(Args a) { return text(url_encode(a[0].as_str())); }
Value eval_url_decode(Args a) { return text(url_decode(a[0].as_str())); }
Value eval_html_encode(Args a) { return text(html_encode(a[0].as_str())); }
Value eval_html_decode(Args a) { return text(html_decode(a[0].as_str())); }
Value eval_hashed_uuid(Args a) { return text(hashed_uuid(a[0].as_u64())); }
Value eval_char_buf(Args a) { return text(char_buf(a[0].as_u64(), a[1].as_str(), a[2].as_u64())); }
Value eval_to_base32(Args a) { return text(base32_encode(bytes_arg(a[0]))); }
Value eval_from_base32(Args a) { return bytes_result(base32_decode(a[0].as_str()).value_or("")); }

Value eval_regex_match(Args a) { return Value::boolean(regex_is_match(a[1].as_str(), a[0].as_str())); }
Value eval_regex_replace(Args a) { return text(regex_replace_all(a[1].as_str(), a[0].as_str(), a[2].as_str())); }
Value eval_str_eq(Args a) { return Value::integer(TyKind::U64, a[0].as_str() == a[1].as_str() ? 1 : 0); }
Value eval_str_ne(Args a) { return Value::integer(TyKind::U64, a[0].as_str() != a[1].as_str() ? 1 : 0); }

// nb-rs's parse_weighted_str_spec: items split on ';' and ',', trimmed, empty
// ones skipped, each "value:weight" split at its first ':', the weight read as
// Rust reads an f64. Nothing (nb-rs panics) when an item has no ':', a weight
// is not a number, or the weights do not sum above 0.
struct DynamicChoice {
  std::vector<std::string> values;
  AliasTable table;
};
std::optional<DynamicChoice> parse_dynamic_spec(std::string_view spec) {
  DynamicChoice c;
  std::vector<double> weights;
  for (size_t at = 0; at <= spec.size();) {
    const size_t end = std::min(spec.find_first_of(";,", at), spec.size());
    std::string_view item = spec.substr(at, end - at);
    at = end + 1;
    const size_t a = item.find_first_not_of(" \t\r\n");
    if (a == std::string_view::npos) continue;
    item = item.substr(a, item.find_last_not_of(" \t\r\n") - a + 1);
    const size_t colon = item.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    std::string_view w = item.substr(colon + 1);
    if (!w.empty() && w.front() == '+') w.remove_prefix(1);
    double weight = 0;
    const auto r = std::from_chars(w.data(), w.data() + w.size(), weight);
    if (w.empty() || r.ec != std::errc() || r.ptr != w.data() + w.size()) return std::nullopt;
    c.values.emplace_back(item.substr(0, colon));
    weights.push_back(weight);
  }
  double sum = 0;
  for (double w : weights) sum += w;
  if (weights.empty() || !(sum > 0.0)) return std::nullopt;
  c.table = alias_table(weights);
  return c;
}

// The spec is rebuilt only when it changes, as nb-rs caches its table.
Value eval_dynamic_weighted_select(Args a) {
  thread_local std::string spec;
  thread_local std::optional<DynamicChoice> choice;
  thread_local bool built = false;
  if (!built || spec != a[1].as_str()) {
    spec = a[1].as_str();
    choice = parse_dynamic_spec(spec);
    built = true;
  }
  return text(choice ? choice->values[alias_sample(choice->table, a[0].as_u64())] : std::string());
}

// The pattern (parameter 1) must compile, as nb-rs checks it at init.
std::optional<std::string> check_pattern(size_t param, const Value& v) {
  if (param != 1) return std::nullopt;
  if (auto why = regex_error(v.as_str())) return "invalid regex '" + v.as_str() + "': " + *why;
  return std::nullopt;
}

using enum LibTy;

// The order is the IR id order: append, never reorder.
const LibraryFn kTextFns[] = {
    {"printf", {Str, Any}, {"format", "input"}, Str, true,
     "printf(format, a, b, ...): {} placeholders, {:05} zero-pad, {:.2} precision, {:x} {:X} {:b} {:o}; {{ }} braces",
     eval_printf},
    {"u64_to_bytes", {U64}, {"input"}, Str, false,
     "the 8 little-endian bytes of input (bytes are lowercase hex text: 42 gives \"2a00000000000000\")",
     eval_u64_to_bytes},
    {"bytes_from_hash", {U64, U64}, {"input", "size"}, Str, false,
     "size bytes (at most 2^20), 8 at a time from hash(input + i), as lowercase hex text", eval_bytes_from_hash},
    {"to_hex", {Str}, {"input"}, Str, false,
     "bytes as lowercase hex; bytes are already hex text, so this writes input's bytes back in canonical form",
     eval_to_hex},
    {"from_hex", {Str}, {"input"}, Str, false,
     "hex text to bytes: each pair of hex digits a byte, bad pairs skipped, an odd last digit dropped",
     eval_from_hex},
    {"sha256", {Str}, {"input"}, Str, false, "SHA-256 of bytes (hex text in), 32 bytes (64 hex digits) out",
     eval_sha256},
    {"md5", {Str}, {"input"}, Str, false, "MD5 of bytes (hex text in), 16 bytes (32 hex digits) out; not for security",
     eval_md5},
    {"to_base64", {Str}, {"input"}, Str, false, "bytes (hex text) as standard padded base64 (RFC 4648)",
     eval_to_base64},
    {"from_base64", {Str}, {"input"}, Str, false,
     "canonical padded standard base64 to bytes (hex text); anything else gives no bytes", eval_from_base64},
    {"url_encode", {Str}, {"input"}, Str, false, "percent-encodes every byte but A-Z a-z 0-9 - _ . ~ as %XX",
     eval_url_encode},
    {"url_decode", {Str}, {"input"}, Str, false,
     "%XX sequences to bytes (a '+' stays a '+'), ill-formed UTF-8 replaced by U+FFFD", eval_url_decode},
    {"html_encode", {Str}, {"input"}, Str, false, "& < > \" ' as &amp; &lt; &gt; &quot; &#x27;", eval_html_encode},
    {"html_decode", {Str}, {"input"}, Str, false, "&amp; &lt; &gt; &quot; &#x27; &#39; back to characters, in that order",
     eval_html_decode},
    {"hashed_uuid", {U64}, {"input"}, Str, false, "a version-4 UUID text from two chained hashes of input",
     eval_hashed_uuid},
    {"char_buf", {U64, Str, U64}, {"seed", "charset", "length"}, Str, false,
     "length characters (at most 2^20) of charset (ranges like A-Za-z0-9), each picked by a hash chained from seed",
     eval_char_buf},
    {"to_base32", {Str}, {"input"}, Str, false, "bytes (hex text) as padded RFC 4648 base32 (nb-rs: node only)",
     eval_to_base32},
    {"from_base32", {Str}, {"input"}, Str, false,
     "padded RFC 4648 base32 to bytes (hex text); invalid text gives no bytes (nb-rs: node only)", eval_from_base32},
    {"regex_match", {Str, Str}, {"input", "pattern"}, Bool, false,
     "whether the constant Rust-syntax pattern matches anywhere in input (anchor with ^...$ for all of it)",
     eval_regex_match, 0b10, check_pattern},
    {"regex_replace", {Str, Str, Str}, {"input", "pattern", "replacement"}, Str, false,
     "every match of the constant pattern replaced ($1, ${name}, $$ as Rust's replace_all)", eval_regex_replace,
     0b110, check_pattern},
    {"str_eq", {Str, Str}, {"a", "b"}, U64, false, "1 when the two texts are equal, else 0", eval_str_eq},
    {"str_ne", {Str, Str}, {"a", "b"}, U64, false, "1 when the two texts differ, else 0", eval_str_ne},
    {"dynamic_weighted_select", {U64, Str}, {"selector", "weights_spec"}, Str, false,
     "weighted_strings with the spec a value (\"v:w;v:w\", rebuilt when it changes; a bad spec gives \"\")",
     eval_dynamic_weighted_select},
};

}  // namespace

std::span<const LibraryFn> text_library_fns() { return kTextFns; }

}  // namespace polydat::ir
