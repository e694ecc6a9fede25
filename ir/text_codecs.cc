#include "ir/text_codecs.h"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <vector>

#include "ir/semantics.h"

// Header-only xxHash: the library needs only XXH3_64bits, and this keeps the
// IR library free of a link dependency for it.
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace polydat::ir {

namespace {

constexpr std::string_view kHexLower = "0123456789abcdef";
constexpr std::string_view kHexUpper = "0123456789ABCDEF";
constexpr std::string_view kBase64Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::string_view kBase32Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

unsigned char byte_at(std::string_view s, size_t i) { return static_cast<unsigned char>(s[i]); }

// The digit's value in base 16, or -1.
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Rust's u8::from_str_radix(two characters, 16): a leading '+' is allowed.
std::optional<unsigned char> parse_hex_pair(char first, char second) {
  const int low = hex_value(second);
  if (low < 0) return std::nullopt;
  if (first == '+') return static_cast<unsigned char>(low);
  const int high = hex_value(first);
  if (high < 0) return std::nullopt;
  return static_cast<unsigned char>(high * 16 + low);
}

// The symbol's value in the alphabet, or -1.
int symbol_value(std::string_view alphabet, char c) {
  const size_t at = alphabet.find(c);
  return at == std::string_view::npos ? -1 : static_cast<int>(at);
}

// Appends the bytes held in the top of `bits`, `count` symbols of `width` bits
// each, and says whether the unused low bits are zero (canonical text).
bool append_symbol_bits(std::string& out, uint64_t bits, size_t count, unsigned width) {
  const size_t total = count * width;
  const size_t whole = total / 8;
  const uint64_t spare_mask = (uint64_t{1} << (total % 8)) - 1;
  if ((bits & spare_mask) != 0) return false;
  for (size_t i = 0; i < whole; ++i) out.push_back(static_cast<char>(bits >> (total - 8 * (i + 1))));
  return true;
}

// Decodes a group of symbols into out; false on a symbol outside the
// alphabet or nonzero trailing bits.
bool decode_symbols(std::string_view alphabet, unsigned width, std::string_view symbols, std::string& out) {
  uint64_t bits = 0;
  for (char c : symbols) {
    const int v = symbol_value(alphabet, c);
    if (v < 0) return false;
    bits = (bits << width) | static_cast<uint64_t>(v);
  }
  return append_symbol_bits(out, bits, symbols.size(), width);
}

// Trailing '=' characters of a block, at most `limit`.
size_t trailing_pads(std::string_view block, size_t limit) {
  size_t n = 0;
  while (n < block.size() && n < limit && block[block.size() - 1 - n] == '=') ++n;
  return n;
}

// RFC 3986's unreserved characters, the ones url_encode keeps.
bool is_url_unreserved(unsigned char b) {
  const bool alnum = (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9');
  return alnum || b == '-' || b == '_' || b == '.' || b == '~';
}

void replace_all(std::string& text, std::string_view from, std::string_view to) {
  std::string out;
  size_t pos = 0;
  for (size_t hit; (hit = text.find(from, pos)) != std::string::npos; pos = hit + from.size()) {
    out.append(text, pos, hit - pos);
    out.append(to);
  }
  out.append(text, pos);
  text = std::move(out);
}

// What a UTF-8 lead byte needs: the count of continuation bytes and the
// range of the first of them (Unicode's table 3-7); need < 0 for a bad lead.
struct Utf8Lead {
  int need;
  unsigned char lo = 0x80, hi = 0xBF;
};

Utf8Lead utf8_lead(unsigned char lead) {
  if (lead < 0x80) return {0};
  if (lead >= 0xC2 && lead <= 0xDF) return {1};
  if (lead == 0xE0) return {2, 0xA0, 0xBF};
  if (lead == 0xED) return {2, 0x80, 0x9F};  // no surrogates
  if (lead >= 0xE1 && lead <= 0xEF) return {2};
  if (lead == 0xF0) return {3, 0x90, 0xBF};
  if (lead == 0xF4) return {3, 0x80, 0x8F};  // nothing past U+10FFFF
  if (lead >= 0xF1 && lead <= 0xF3) return {3};
  return {-1};
}

// Length of the well-formed UTF-8 sequence at `at`, or, negated, the length
// of its maximal ill-formed prefix (at least 1): what one U+FFFD replaces.
int utf8_sequence(std::string_view s, size_t at) {
  const Utf8Lead lead = utf8_lead(byte_at(s, at));
  if (lead.need < 0) return -1;
  for (int k = 1; k <= lead.need; ++k) {
    if (at + k >= s.size()) return -k;
    const unsigned char b = byte_at(s, at + k);
    const bool in_range = k == 1 ? (b >= lead.lo && b <= lead.hi) : (b >= 0x80 && b <= 0xBF);
    if (!in_range) return -k;
  }
  return lead.need + 1;
}

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

constexpr char32_t kReplacement = 0xFFFD;

// The text's code points; ill-formed parts read as U+FFFD, as utf8_lossy does.
std::vector<char32_t> code_points(std::string_view s) {
  std::vector<char32_t> out;
  for (size_t i = 0; i < s.size();) {
    const int n = utf8_sequence(s, i);
    if (n < 0) {
      out.push_back(kReplacement);
      i += static_cast<size_t>(-n);
      continue;
    }
    char32_t c = n == 1 ? byte_at(s, i) : byte_at(s, i) & (0x7F >> n);
    for (int k = 1; k < n; ++k) c = (c << 6) | (byte_at(s, i + k) & 0x3F);
    out.push_back(c);
    i += static_cast<size_t>(n);
  }
  return out;
}

// Characters as Rust counts them for padding (code points of UTF-8 text).
size_t char_count(std::string_view s) {
  return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

uint64_t xxh3_of_u64(uint64_t x) {
  const std::string le = u64_le_bytes(x);
  return XXH3_64bits(le.data(), le.size());
}

std::string digest(const EVP_MD* md, std::string_view bytes) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> out{};
  unsigned int len = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), out.data(), &len, md, nullptr) != 1) return {};
  return std::string(reinterpret_cast<const char*>(out.data()), len);
}

// Rust's `a..=b` over chars, which skips the surrogate code points.
void append_char_range(std::vector<char32_t>& out, char32_t first, char32_t last) {
  for (char32_t c = first; c <= last; ++c)
    if (c < 0xD800 || c > 0xDFFF) out.push_back(c);
}

// char_buf's charset: "x-y" triples expand to ranges, other characters stand
// for themselves; an empty result is a-z.
std::vector<char32_t> expand_charset(std::string_view spec) {
  const std::vector<char32_t> in = code_points(spec);
  std::vector<char32_t> out;
  for (size_t i = 0; i < in.size();) {
    if (i + 2 < in.size() && in[i + 1] == U'-') {
      append_char_range(out, in[i], in[i + 2]);
      i += 3;
    } else {
      out.push_back(in[i++]);
    }
  }
  if (out.empty()) append_char_range(out, U'a', U'z');
  return out;
}

// The expanded charset, kept per thread for the spec last asked for (a
// kernel's charset is a constant, so this is almost always a hit).
const std::vector<char32_t>& cached_charset(std::string_view spec) {
  thread_local std::optional<std::string> last_spec;
  thread_local std::vector<char32_t> last_set;
  if (!last_spec || spec != *last_spec) {
    last_set = expand_charset(spec);
    last_spec = std::string(spec);
  }
  return last_set;
}

// ---- printf ----

struct PrintfSpec {
  std::optional<uint64_t> width;
  std::optional<uint64_t> precision;
  char fill = ' ';
  char conversion = 'd';
};

// Reads a run of decimal digits from `pos`, saturating (nb-rs stops on overflow).
std::optional<uint64_t> read_digits(std::string_view s, size_t& pos) {
  const size_t start = pos;
  uint64_t value = 0;
  for (; pos < s.size() && s[pos] >= '0' && s[pos] <= '9'; ++pos)
    value = std::min<uint64_t>(value * 10 + static_cast<uint64_t>(s[pos] - '0'), kMaxFormatWidth);
  if (pos == start) return std::nullopt;
  return value;
}

bool is_digit_at(std::string_view s, size_t i) { return i < s.size() && s[i] >= '0' && s[i] <= '9'; }

// The text between a placeholder's braces: [:][0]width[.precision][conversion].
PrintfSpec parse_printf_spec(std::string_view text) {
  PrintfSpec spec;
  if (!text.empty() && text.front() == ':') text.remove_prefix(1);
  size_t pos = 0;
  if (is_digit_at(text, 0) && text[0] == '0' && is_digit_at(text, 1)) {
    spec.fill = '0';
    pos = 1;
  }
  spec.width = read_digits(text, pos);
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    spec.precision = read_digits(text, pos);
  }
  if (pos < text.size()) spec.conversion = text[pos];
  return spec;
}

std::string pad_left(std::string text, size_t current_width, const std::optional<uint64_t>& width, char fill) {
  if (width && current_width < *width) text.insert(0, *width - current_width, fill);
  return text;
}

std::string apply_width(std::string text, const PrintfSpec& spec) {
  const size_t len = text.size();
  return pad_left(std::move(text), len, spec.width, spec.fill);
}

std::string integer_digits(uint64_t bits, char conversion) {
  const int base = conversion == 'x' || conversion == 'X' ? 16 : conversion == 'b' ? 2 : conversion == 'o' ? 8 : 10;
  std::array<char, 64> buf{};
  const auto end = std::to_chars(buf.data(), buf.data() + buf.size(), bits, base).ptr;
  std::string out(buf.data(), end);
  if (conversion == 'X')
    std::transform(out.begin(), out.end(), out.begin(), [](char c) { return c >= 'a' && c <= 'f' ? c - 'a' + 'A' : c; });
  return out;
}

// Signed integers (nb-rs has none): decimal with a sign; the radix
// conversions show the two's-complement bits at the type's width, as Rust does.
std::string signed_digits(const Value& v, char conversion) {
  const bool radix = conversion == 'x' || conversion == 'X' || conversion == 'b' || conversion == 'o';
  if (radix) return integer_digits(v.bits(), conversion);
  return std::to_string(v.as_i64());
}

std::string float_text(const Value& v, const PrintfSpec& spec) {
  const bool is_f32 = v.ty().kind() == TyKind::F32;
  if (spec.precision) return format_fixed(is_f32 ? static_cast<double>(v.as_f32()) : v.as_f64(), *spec.precision);
  return is_f32 ? rust_display(v.as_f32()) : rust_display(v.as_f64());
}

std::string format_printf_value(const Value& v, const PrintfSpec& spec) {
  const Ty& t = v.ty();
  if (t.is_str()) {
    const std::string& s = v.as_str();
    return pad_left(s, char_count(s), spec.width, ' ');  // Rust's {:>w$}: spaces, by characters
  }
  if (t.is_bool()) return v.as_bool() ? "true" : "false";
  if (t.is_float()) return apply_width(float_text(v, spec), spec);
  if (t.is_signed_int()) return apply_width(signed_digits(v, spec.conversion), spec);
  if (t.is_int()) return apply_width(integer_digits(v.as_u64(), spec.conversion), spec);
  return render(v);
}

// A nonnegative decimal d1.d2d3... x 10^exponent, as to_chars writes it.
struct Decimal {
  std::string digits;
  int exponent = 0;
};

template <typename F, typename... Precision>
Decimal scientific_digits(F magnitude, Precision... precision) {
  std::array<char, 800> buf{};  // a double's exact expansion has at most 767 digits
  const auto end =
      std::to_chars(buf.data(), buf.data() + buf.size(), magnitude, std::chars_format::scientific, precision...).ptr;
  const std::string_view sci(buf.data(), static_cast<size_t>(end - buf.data()));
  const size_t e = sci.find('e');
  Decimal d;
  for (char c : sci.substr(0, e))
    if (c != '.') d.digits.push_back(c);
  std::string_view exp_text = sci.substr(e + 1);
  if (exp_text.front() == '+') exp_text.remove_prefix(1);
  std::from_chars(exp_text.data(), exp_text.data() + exp_text.size(), d.exponent);
  return d;
}

// Whether the value is exactly halfway between `shortest` and the candidate
// one unit above it in the last digit: its exact digits are those, a 5, zeros.
bool exact_half_above(double magnitude, const Decimal& shortest) {
  const int k = static_cast<int>(shortest.digits.size());
  const Decimal near = scientific_digits(magnitude, k);  // one digit more, cheap
  if (near.exponent != shortest.exponent || near.digits != shortest.digits + "5") return false;
  const Decimal exact = scientific_digits(magnitude, 780);
  if (exact.exponent != shortest.exponent) return false;
  return exact.digits.find_first_not_of('0', static_cast<size_t>(k) + 1) == std::string::npos;
}

// Adds one unit in the last digit, dropping the trailing zeros a carry makes.
void increment_last_digit(Decimal& d) {
  size_t i = d.digits.size();
  while (i > 0 && d.digits[i - 1] == '9') d.digits[--i] = '0';
  if (i == 0) {
    d.digits.insert(0, 1, '1');
    ++d.exponent;
  } else {
    ++d.digits[i - 1];
  }
  while (d.digits.size() > 1 && d.digits.back() == '0') d.digits.pop_back();
}

// Rust's shortest digits: to_chars's, except that an exact tie between two
// shortest candidates goes to the larger magnitude (to_chars picks the even).
template <typename F>
Decimal rust_shortest_digits(F magnitude) {
  Decimal d = scientific_digits(magnitude);
  const bool even_last = (d.digits.back() - '0') % 2 == 0;
  if (even_last && exact_half_above(static_cast<double>(magnitude), d)) increment_last_digit(d);
  return d;
}

// The digits in fixed notation: never an exponent, no fraction when there is none.
std::string fixed_notation(const Decimal& d) {
  const long point = static_cast<long>(d.exponent) + 1;  // digits before the decimal point
  const long n = static_cast<long>(d.digits.size());
  if (point <= 0) return "0." + std::string(static_cast<size_t>(-point), '0') + d.digits;
  if (point >= n) return d.digits + std::string(static_cast<size_t>(point - n), '0');
  return d.digits.substr(0, static_cast<size_t>(point)) + "." + d.digits.substr(static_cast<size_t>(point));
}

template <typename F>
std::string rust_display_float(F value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  const std::string sign = std::signbit(value) ? "-" : "";  // -0.0 shows as "-0"
  return sign + fixed_notation(rust_shortest_digits(std::fabs(value)));
}

}  // namespace

std::string hex_encode(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (size_t i = 0; i < bytes.size(); ++i) {
    out.push_back(kHexLower[byte_at(bytes, i) >> 4]);
    out.push_back(kHexLower[byte_at(bytes, i) & 0xF]);
  }
  return out;
}

std::string hex_decode(std::string_view text) {
  std::string out;
  for (size_t i = 0; i + 1 < text.size(); i += 2)
    if (auto b = parse_hex_pair(text[i], text[i + 1])) out.push_back(static_cast<char>(*b));
  return out;
}

std::string base64_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    const size_t n = std::min<size_t>(3, bytes.size() - i);
    uint32_t group = 0;
    for (size_t k = 0; k < 3; ++k) group = (group << 8) | (k < n ? byte_at(bytes, i + k) : 0u);
    for (size_t k = 0; k < 4; ++k) out.push_back(k <= n ? kBase64Alphabet[(group >> (18 - 6 * k)) & 0x3F] : '=');
  }
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  const size_t pads = trailing_pads(text, 2);
  const std::string_view symbols = text.substr(0, text.size() - pads);
  std::string out;
  for (size_t i = 0; i < symbols.size(); i += 4)
    if (!decode_symbols(kBase64Alphabet, 6, symbols.substr(i, 4), out)) return std::nullopt;
  return out;
}

std::string base32_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 4) / 5 * 8);
  for (size_t i = 0; i < bytes.size(); i += 5) {
    const size_t n = std::min<size_t>(5, bytes.size() - i);
    uint64_t group = 0;
    for (size_t k = 0; k < 5; ++k) group = (group << 8) | (k < n ? byte_at(bytes, i + k) : 0u);
    const size_t used = (n * 8 + 4) / 5;  // symbols that carry data bits
    for (size_t k = 0; k < 8; ++k) out.push_back(k < used ? kBase32Alphabet[(group >> (35 - 5 * k)) & 0x1F] : '=');
  }
  return out;
}

std::optional<std::string> base32_decode(std::string_view text) {
  if (text.size() % 8 != 0) return std::nullopt;
  std::string out;
  for (size_t i = 0; i < text.size(); i += 8) {
    const std::string_view block = text.substr(i, 8);
    const size_t used = 8 - trailing_pads(block, 8);
    const bool valid_length = used == 2 || used == 4 || used == 5 || used == 7 || used == 8;
    if (!valid_length || !decode_symbols(kBase32Alphabet, 5, block.substr(0, used), out)) return std::nullopt;
  }
  return out;
}

std::string url_encode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char b = byte_at(text, i);
    if (is_url_unreserved(b)) {
      out.push_back(static_cast<char>(b));
    } else {
      out.push_back('%');
      out.push_back(kHexUpper[b >> 4]);
      out.push_back(kHexUpper[b & 0xF]);
    }
  }
  return out;
}

std::string url_decode(std::string_view text) {
  std::string bytes;
  bytes.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '%' && i + 2 < text.size()) {
      if (auto b = parse_hex_pair(text[i + 1], text[i + 2])) {
        bytes.push_back(static_cast<char>(*b));
        i += 3;
        continue;
      }
    }
    bytes.push_back(text[i++]);
  }
  return utf8_lossy(bytes);
}

std::string html_encode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#x27;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

std::string html_decode(std::string_view text) {
  std::string out(text);
  replace_all(out, "&amp;", "&");
  replace_all(out, "&lt;", "<");
  replace_all(out, "&gt;", ">");
  replace_all(out, "&quot;", "\"");
  replace_all(out, "&#x27;", "'");
  replace_all(out, "&#39;", "'");
  return out;
}

std::string utf8_lossy(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (size_t i = 0; i < bytes.size();) {
    const int n = utf8_sequence(bytes, i);
    if (n > 0) {
      out.append(bytes.substr(i, static_cast<size_t>(n)));
      i += static_cast<size_t>(n);
    } else {
      append_utf8(out, kReplacement);
      i += static_cast<size_t>(-n);
    }
  }
  return out;
}

std::string md5_digest(std::string_view bytes) { return digest(EVP_md5(), bytes); }
std::string sha256_digest(std::string_view bytes) { return digest(EVP_sha256(), bytes); }

std::string u64_le_bytes(uint64_t x) {
  std::string out(8, '\0');
  for (size_t i = 0; i < 8; ++i) out[i] = static_cast<char>(x >> (8 * i));
  return out;
}

std::string bytes_from_hash(uint64_t seed, uint64_t size) {
  const size_t n = static_cast<size_t>(std::min(size, kMaxGeneratedLength));
  std::string out;
  out.reserve(n + 8);
  for (uint64_t i = 0; out.size() < n; ++i) out += u64_le_bytes(xxh3_of_u64(seed + i));
  out.resize(n);
  return out;
}

std::string hashed_uuid(uint64_t seed) {
  const uint64_t h1 = xxh3_of_u64(seed);
  std::string bytes = u64_le_bytes(h1) + u64_le_bytes(xxh3_of_u64(h1));
  bytes[6] = static_cast<char>((byte_at(bytes, 6) & 0x0F) | 0x40);  // version 4
  bytes[8] = static_cast<char>((byte_at(bytes, 8) & 0x3F) | 0x80);  // RFC 4122 variant
  const std::string hex = hex_encode(bytes);
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" + hex.substr(16, 4) + "-" +
         hex.substr(20);
}

std::string char_buf(uint64_t seed, std::string_view charset, uint64_t length) {
  const std::vector<char32_t>& chars = cached_charset(charset);
  const uint64_t n = std::min(length, kMaxGeneratedLength);
  std::string out;
  uint64_t h = seed;
  for (uint64_t i = 0; i < n; ++i) {
    h = xxh3_of_u64(h);
    append_utf8(out, chars[h % chars.size()]);
  }
  return out;
}

std::string rust_display(double d) { return rust_display_float(d); }
std::string rust_display(float f) { return rust_display_float(f); }

std::string format_printf(std::string_view fmt, std::span<const Value> args) {
  std::string out;
  size_t next_arg = 0;
  for (size_t i = 0; i < fmt.size();) {
    const bool doubled = i + 1 < fmt.size() && fmt[i + 1] == fmt[i];
    if ((fmt[i] == '{' || fmt[i] == '}') && doubled) {  // "{{" and "}}" are one brace
      out.push_back(fmt[i]);
      i += 2;
    } else if (fmt[i] == '{') {
      const size_t close = std::min(fmt.find('}', i), fmt.size());  // unclosed: to the end
      const PrintfSpec spec = parse_printf_spec(fmt.substr(i + 1, close - i - 1));
      if (next_arg < args.size()) out += format_printf_value(args[next_arg], spec);
      ++next_arg;
      i = close + 1;
    } else {
      out.push_back(fmt[i++]);
    }
  }
  return out;
}

}  // namespace polydat::ir
