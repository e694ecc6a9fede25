// Text codecs, digests and text generators of nb-rs's function library
// (nodes/encoding.rs, digest.rs, bytebuf.rs, format.rs, string.rs), as pure,
// total functions: every input gives a defined result, nothing throws.
//
// A "bytes" string here is raw bytes in a std::string. The GK registry
// (library_text.cc) carries nb-rs's bytes values as lowercase hex text, the
// form nb-rs itself displays them in.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "ir/value.h"

namespace polydat::ir {

// Upper bound on the length of a generated buffer (bytes_from_hash's bytes,
// char_buf's characters): nb-rs allocates whatever a wire asks for.
inline constexpr uint64_t kMaxGeneratedLength = uint64_t{1} << 20;

// Hex: lowercase, two digits a byte.
std::string hex_encode(std::string_view bytes);
// nb-rs's from_hex: each aligned pair of characters that Rust's
// u8::from_str_radix(pair, 16) accepts (two hex digits, or '+' and one) gives
// a byte; other pairs are skipped; an odd last character is dropped.
std::string hex_decode(std::string_view text);

// RFC 4648 base64, standard alphabet, '=' padding (the base64 crate's STANDARD).
std::string base64_encode(std::string_view bytes);
// Accepts only canonical text: length a multiple of 4, padding exactly as
// encoding writes it, zero trailing bits; nullopt otherwise.
std::optional<std::string> base64_decode(std::string_view text);

// RFC 4648 base32, upper-case alphabet, '=' padding (data-encoding's BASE32).
std::string base32_encode(std::string_view bytes);
// Length a multiple of 8; each block of 8 either full or padded after 2, 4, 5
// or 7 symbols (so concatenated padded encodings decode); zero trailing bits;
// nullopt otherwise.
std::optional<std::string> base32_decode(std::string_view text);

// Percent-encodes every byte but A-Z a-z 0-9 - _ . ~ as %XX (upper case).
std::string url_encode(std::string_view text);
// '%' and two characters u8::from_str_radix accepts become that byte when two
// more bytes follow the '%'; everything else, '+' included, is copied; the
// result is made valid UTF-8 as utf8_lossy does.
std::string url_decode(std::string_view text);

// & < > " ' as &amp; &lt; &gt; &quot; &#x27;.
std::string html_encode(std::string_view text);
// Replaces, one after another over the whole text: &amp; &lt; &gt; &quot;
// &#x27; &#39; (so "&amp;lt;" becomes "<", as in nb-rs).
std::string html_decode(std::string_view text);

// Rust's String::from_utf8_lossy: each maximal ill-formed subpart becomes U+FFFD.
std::string utf8_lossy(std::string_view bytes);

// Raw digests through OpenSSL's EVP interface (16 and 32 bytes).
std::string md5_digest(std::string_view bytes);
std::string sha256_digest(std::string_view bytes);

// The 8 little-endian bytes of x.
std::string u64_le_bytes(uint64_t x);
// nb-rs's bytes_from_hash: the 8 little-endian bytes of xxh3(seed + i) for
// i = 0, 1, ... (wrapping), cut to `size` bytes (at most kMaxGeneratedLength).
std::string bytes_from_hash(uint64_t seed, uint64_t size);

// nb-rs's hashed_uuid: h1 = xxh3(seed), h2 = xxh3(h1), their little-endian
// bytes with the version-4 and RFC 4122 variant bits, as 8-4-4-4-12 hex.
std::string hashed_uuid(uint64_t seed);
// nb-rs's char_buf: `length` characters (at most kMaxGeneratedLength), each
// charset[h % n] with h = xxh3(h) chained from the seed; the charset spec
// expands "a-z" ranges, and an empty expansion means a-z.
std::string char_buf(uint64_t seed, std::string_view charset, uint64_t length);

// Rust's Display for floats: shortest digits that read back, never an exponent,
// no ".0" on integers ("3", "-0", "0.0001", "NaN", "inf").
std::string rust_display(double d);
std::string rust_display(float f);

// nb-rs's printf: "{}" placeholders with optional [:][0]width[.precision][conv];
// "{{" and "}}" are braces. Integers honour x X b o and width; floats precision
// and width; str width (right-aligned, spaces); bool neither. Widths and
// precisions are capped at kMaxFormatWidth; a placeholder without an argument
// writes nothing; extra arguments are ignored.
std::string format_printf(std::string_view fmt, std::span<const Value> args);

}  // namespace polydat::ir
