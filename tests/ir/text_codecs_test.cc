// The text codecs, digests and generators of ir/text_codecs.h and their
// registry entries (ir/library_text.cc), against nb-rs's own test values,
// RFC 4648, python3/openssl outputs and hand-worked cases.
//
// "rref" below is a scratch Rust program (rustc 1.95, Debian's data-encoding
// 2.3.2 and xxhash-rust 0.8.5 crates) that printed the values: Rust's std
// formatting, u8::from_str_radix, String::from_utf8_lossy, data-encoding's
// BASE32, and nb-rs's xxh3 recipes written out independently with
// xxhash_rust::xxh3::xxh3_64.
#include <doctest/doctest.h>

#include <bit>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "ir/library_fn.h"
#include "ir/semantics.h"
#include "ir/text_codecs.h"

using namespace polydat::ir;

namespace {

std::string all_bytes() {
  std::string s;
  for (int b = 0; b < 256; ++b) s.push_back(static_cast<char>(b));
  return s;
}

Value u64v(uint64_t x) { return Value::integer(TyKind::U64, x); }

std::string printf_of(std::string_view fmt, std::vector<Value> args) { return format_printf(fmt, args); }

// Calls a registry function by name, as the engines do.
std::string call(std::string_view name, std::vector<Value> args) {
  const auto id = find_library_fn(name);
  REQUIRE_MESSAGE(id.has_value(), name);
  const Value r = library_fns()[*id].eval(args);
  REQUIRE(r.ty().is_str());
  return r.as_str();
}

}  // namespace

TEST_CASE("text codecs: hex encodes lowercase and decodes with nb-rs's from_hex rules") {
  // nb-rs bytebuf.rs hex_roundtrip: [DE AD BE EF] <-> "deadbeef".
  CHECK(hex_encode("\xDE\xAD\xBE\xEF") == "deadbeef");
  CHECK(hex_decode("deadbeef") == "\xDE\xAD\xBE\xEF");
  CHECK(hex_decode("DEADbeef") == "\xDE\xAD\xBE\xEF");
  CHECK(hex_encode("") == "");
  CHECK(hex_decode("") == "");
  // Odd length: the last digit is dropped; bad aligned pairs are skipped.
  CHECK(hex_decode("abc") == "\xAB");
  CHECK(hex_decode("zz41") == "A");
  CHECK(hex_decode("a41") == "\xA4");
  CHECK(hex_decode("4") == "");
  // rref: u8::from_str_radix("+f", 16) is Ok(15), "-5" and " 5" are errors.
  CHECK(hex_decode("+f") == std::string(1, '\x0F'));
  CHECK(hex_decode("-5 541") == "A");
  // Every byte value: the encoding matches printf's %02x and reads back.
  const std::string bytes = all_bytes();
  std::string expected;
  for (int b = 0; b < 256; ++b) {
    char two[3];
    std::snprintf(two, sizeof two, "%02x", b);
    expected += two;
  }
  CHECK(hex_encode(bytes) == expected);
  CHECK(hex_decode(hex_encode(bytes)) == bytes);
}

TEST_CASE("text codecs: base64 encodes RFC 4648's vectors and all bytes like python") {
  // RFC 4648 section 10.
  CHECK(base64_encode("") == "");
  CHECK(base64_encode("f") == "Zg==");
  CHECK(base64_encode("fo") == "Zm8=");
  CHECK(base64_encode("foo") == "Zm9v");
  CHECK(base64_encode("foob") == "Zm9vYg==");
  CHECK(base64_encode("fooba") == "Zm9vYmE=");
  CHECK(base64_encode("foobar") == "Zm9vYmFy");
  // python3 -c "import base64; print(base64.b64encode(bytes(range(256))).decode())"
  CHECK(base64_encode(all_bytes()) ==
        "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+P0BBQkNERUZHSElKS0xNTk9Q"
        "UVJTVFVWV1hZWltcXV5fYGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6e3x9fn+AgYKDhIWGh4iJiouMjY6PkJGSk5SVlpeYmZqbnJ2en6Ch"
        "oqOkpaanqKmqq6ytrq+wsbKztLW2t7i5uru8vb6/wMHCw8TFxsfIycrLzM3Oz9DR0tPU1dbX2Nna29zd3t/g4eLj5OXm5+jp6uvs7e7v8PHy"
        "8/T19vf4+fr7/P3+/w==");
  // Every prefix of the 256 bytes (so every padding case) reads back.
  const std::string bytes = all_bytes();
  for (size_t n = 0; n <= bytes.size(); ++n) {
    const auto back = base64_decode(base64_encode(bytes.substr(0, n)));
    REQUIRE(back.has_value());
    CHECK(*back == bytes.substr(0, n));
  }
}

TEST_CASE("text codecs: base64 decoding accepts only canonical text, as the base64 crate's STANDARD engine") {
  // nb-rs digest.rs decodes with base64 0.22 general_purpose::STANDARD
  // (padding required and canonical, trailing bits must be zero) and maps
  // any error to empty bytes. Cases worked by hand from those rules.
  CHECK(base64_decode("") == std::optional<std::string>(""));
  CHECK(base64_decode("Zg==") == std::optional<std::string>("f"));
  CHECK(base64_decode("Zm9vYmE=") == std::optional<std::string>("fooba"));
  CHECK_FALSE(base64_decode("Zg").has_value());        // padding missing
  CHECK_FALSE(base64_decode("Zg=").has_value());       // length not a multiple of 4
  CHECK_FALSE(base64_decode("Zh==").has_value());      // 'h' leaves trailing bits 0001
  CHECK_FALSE(base64_decode("Zm9=").has_value());      // '9' leaves trailing bits 01
  CHECK_FALSE(base64_decode("Z===").has_value());      // one symbol is not a byte
  CHECK_FALSE(base64_decode("====").has_value());
  CHECK_FALSE(base64_decode("Zg==Zg==").has_value());  // padding inside
  CHECK_FALSE(base64_decode("Zm9v\n").has_value());    // no whitespace
  CHECK_FALSE(base64_decode("Zm-_").has_value());      // URL-safe alphabet is not STANDARD
  // Through the registry an error gives empty bytes.
  CHECK(call("from_base64", {Value::str("Zh==")}) == "");
}

TEST_CASE("text codecs: base32 matches data-encoding's BASE32") {
  // RFC 4648 section 10; rref printed the same from data_encoding::BASE32.encode.
  CHECK(base32_encode("") == "");
  CHECK(base32_encode("f") == "MY======");
  CHECK(base32_encode("fo") == "MZXQ====");
  CHECK(base32_encode("foo") == "MZXW6===");
  CHECK(base32_encode("foob") == "MZXW6YQ=");
  CHECK(base32_encode("fooba") == "MZXW6YTB");
  CHECK(base32_encode("foobar") == "MZXW6YTBOI======");
  // python3 -c "import base64; print(base64.b32encode(bytes(range(256))).decode())"
  CHECK(base32_encode(all_bytes()) ==
        "AAAQEAYEAUDAOCAJBIFQYDIOB4IBCEQTCQKRMFYYDENBWHA5DYPSAIJCEMSCKJRHFAUSUKZMFUXC6MBRGIZTINJWG44DSOR3HQ6T4P2AIFBEG"
        "RCFIZDUQSKKJNGE2TSPKBIVEU2UKVLFOWCZLJNVYXK6L5QGCYTDMRSWMZ3INFVGW3DNNZXXA4LSON2HK5TXPB4XU634PV7H7AEBQKBYJBMGQ"
        "6EITCULRSGY5D4QSGJJHFEVS2LZRGM2TOOJ3HU7UCQ2FI5EUWTKPKFJVKV2ZLNOV6YLDMVTWS23NN5YXG5LXPF5X274BQOCYPCMLRWHZDE4"
        "VS6MZXHM7UGR2LJ5JVOW27MNTWW33TO55X7A4HROHZHF43T6R2PK5PWO33XP6DY7F47U6X3PP6HZ7L57Z7P674======");
  const std::string bytes = all_bytes();
  for (size_t n = 0; n <= bytes.size(); ++n) {
    const auto back = base32_decode(base32_encode(bytes.substr(0, n)));
    REQUIRE(back.has_value());
    CHECK(*back == bytes.substr(0, n));
  }
  // rref, data_encoding::BASE32.decode: concatenated padded blocks decode;
  // bad length, trailing bits, lower case and padding lengths are errors.
  CHECK(base32_decode("MZXW6===MZXW6===") == std::optional<std::string>("foofoo"));
  CHECK(base32_decode("MY======MZXQ====") == std::optional<std::string>("ffo"));
  CHECK(base32_decode("MZXW6YQ=") == std::optional<std::string>("foob"));
  CHECK_FALSE(base32_decode("MZXW6").has_value());       // invalid length
  CHECK_FALSE(base32_decode("MZXW7===").has_value());    // non-zero trailing bits
  CHECK_FALSE(base32_decode("mzxw6===").has_value());    // invalid symbol
  CHECK_FALSE(base32_decode("M=======").has_value());    // invalid padding length
  CHECK_FALSE(base32_decode("========").has_value());    // invalid padding length
  CHECK_FALSE(base32_decode("MZXW6=Q=").has_value());    // invalid symbol
  CHECK_FALSE(base32_decode("MZ======MZ").has_value());  // invalid length
}

TEST_CASE("text codecs: url_encode keeps exactly the unreserved characters") {
  // nb-rs encoding.rs tests.
  CHECK(url_encode("hello world") == "hello%20world");
  CHECK(url_encode("a=1&b=2") == "a%3D1%26b%3D2");
  CHECK(url_encode("hello-world_123.txt~") == "hello-world_123.txt~");
  CHECK(url_encode("") == "");
  // python3 -c "import urllib.parse; print(urllib.parse.quote(bytes(range(256)), safe=''))"
  CHECK(url_encode(all_bytes()) ==
        "%00%01%02%03%04%05%06%07%08%09%0A%0B%0C%0D%0E%0F%10%11%12%13%14%15%16%17%18%19%1A%1B%1C%1D%1E%1F%20%21%22%23"
        "%24%25%26%27%28%29%2A%2B%2C-.%2F0123456789%3A%3B%3C%3D%3E%3F%40ABCDEFGHIJKLMNOPQRSTUVWXYZ%5B%5C%5D%5E_%60abcd"
        "efghijklmnopqrstuvwxyz%7B%7C%7D~%7F%80%81%82%83%84%85%86%87%88%89%8A%8B%8C%8D%8E%8F%90%91%92%93%94%95%96%97"
        "%98%99%9A%9B%9C%9D%9E%9F%A0%A1%A2%A3%A4%A5%A6%A7%A8%A9%AA%AB%AC%AD%AE%AF%B0%B1%B2%B3%B4%B5%B6%B7%B8%B9%BA%BB"
        "%BC%BD%BE%BF%C0%C1%C2%C3%C4%C5%C6%C7%C8%C9%CA%CB%CC%CD%CE%CF%D0%D1%D2%D3%D4%D5%D6%D7%D8%D9%DA%DB%DC%DD%DE%DF"
        "%E0%E1%E2%E3%E4%E5%E6%E7%E8%E9%EA%EB%EC%ED%EE%EF%F0%F1%F2%F3%F4%F5%F6%F7%F8%F9%FA%FB%FC%FD%FE%FF");
}

TEST_CASE("text codecs: url_decode follows nb-rs on malformed input and makes the result UTF-8") {
  // nb-rs encoding.rs url_roundtrip.
  CHECK(url_decode(url_encode("hello world & friends = cool")) == "hello world & friends = cool");
  // python3 -c "import urllib.parse; print(urllib.parse.unquote('%C3%A9'), urllib.parse.unquote('%zz%41'))"
  CHECK(url_decode("%C3%A9") == "\xC3\xA9");
  CHECK(url_decode("%c3%a9") == "\xC3\xA9");
  CHECK(url_decode("%zz%41") == "%zzA");
  // Worked by hand from nb-rs's loop (an escape needs two more bytes) and
  // rref's u8::from_str_radix ("+5" is 5, "-5" an error).
  CHECK(url_decode("") == "");
  CHECK(url_decode("%") == "%");
  CHECK(url_decode("%4") == "%4");
  CHECK(url_decode("%41") == "A");
  CHECK(url_decode("%4G") == "%4G");
  CHECK(url_decode("%%41") == "%A");
  CHECK(url_decode("%+5x") == "\x05x");
  CHECK(url_decode("%-5x") == "%-5x");
  CHECK(url_decode("a+b") == "a+b");  // nb-rs's help says '+' is a space; its code keeps it
  // rref, String::from_utf8_lossy: one U+FFFD per maximal ill-formed part.
  const std::string fffd = "\xEF\xBF\xBD";
  CHECK(url_decode("%C3") == fffd);
  CHECK(url_decode("%E0%80%80") == fffd + fffd + fffd);
  CHECK(url_decode("%F0%9F%98") == fffd);
  CHECK(url_decode("%E2%82x%F0%9F%98%80") == fffd + "x\xF0\x9F\x98\x80");
  // Every valid UTF-8 text reads back; a lone byte >= 0x80 is ill-formed.
  std::string ascii = all_bytes().substr(0, 128);
  CHECK(url_decode(url_encode(ascii)) == ascii);
  const std::string mixed = "h\xC3\xA9llo \xE2\x98\x83 \xF0\x9F\x98\x80 %+~";
  CHECK(url_decode(url_encode(mixed)) == mixed);
  for (int b = 0x80; b < 0x100; ++b) CHECK(url_decode(url_encode(std::string(1, static_cast<char>(b)))) == fffd);
}

TEST_CASE("text codecs: utf8_lossy replaces as Rust's from_utf8_lossy") {
  // rref: String::from_utf8_lossy on each input, printed as hex.
  CHECK(hex_encode(utf8_lossy("a\x80" "b")) == "61efbfbd62");
  CHECK(hex_encode(utf8_lossy("\xED\xA0\x80")) == "efbfbdefbfbdefbfbd");
  CHECK(hex_encode(utf8_lossy("\xC0\xAF")) == "efbfbdefbfbd");
  CHECK(hex_encode(utf8_lossy("\xF4\x90\x80\x80")) == "efbfbdefbfbdefbfbdefbfbd");
  CHECK(hex_encode(utf8_lossy("\xE2\x82")) == "efbfbd");
  CHECK(hex_encode(utf8_lossy("\xFF\xFE")) == "efbfbdefbfbd");
  CHECK(utf8_lossy("plain \xE2\x98\x83") == "plain \xE2\x98\x83");
}

TEST_CASE("text codecs: html encodes five characters and decodes by nb-rs's chained replaces") {
  // nb-rs encoding.rs tests.
  CHECK(html_encode("<b>hello & world</b>") == "&lt;b&gt;hello &amp; world&lt;/b&gt;");
  CHECK(html_encode("say \"hello\" it's fine") == "say &quot;hello&quot; it&#x27;s fine");
  CHECK(html_encode("plain text 123") == "plain text 123");
  const std::string div = "<div class=\"test\">hello & 'world'</div>";
  CHECK(html_decode(html_encode(div)) == div);
  // python3 -c "import html; print(html.escape('<b>\"x\" & \'y\'</b>', quote=True))"
  CHECK(html_encode("<b>\"x\" & 'y'</b>") == "&lt;b&gt;&quot;x&quot; &amp; &#x27;y&#x27;&lt;/b&gt;");
  CHECK(html_encode("") == "");
  // Worked by hand from the replace order (&amp; first, so "&amp;lt;" is "<").
  CHECK(html_decode("&amp;lt;") == "<");
  CHECK(html_decode("&#39;&#x27;&quot;") == "''\"");
  CHECK(html_decode("&#X27; &lt &nbsp; &#34;") == "&#X27; &lt &nbsp; &#34;");
  CHECK(html_decode("") == "");
  const std::string bytes = all_bytes();
  CHECK(html_decode(html_encode(bytes)) == bytes);
}

TEST_CASE("text codecs: md5 and sha256 digests") {
  // python3 -c "import hashlib; [print(hashlib.sha256(s).hexdigest(), hashlib.md5(s).hexdigest()) for s in (b'', b'abc')]"
  CHECK(hex_encode(sha256_digest("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(hex_encode(md5_digest("")) == "d41d8cd98f00b204e9800998ecf8427e");
  CHECK(hex_encode(sha256_digest("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hex_encode(md5_digest("abc")) == "900150983cd24fb0d6963f7d28e17f72");
  // printf 'The quick brown fox jumps over the lazy dog' | openssl dgst -sha256   (and -md5)
  const std::string fox = "The quick brown fox jumps over the lazy dog";
  CHECK(hex_encode(sha256_digest(fox)) == "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592");
  CHECK(hex_encode(md5_digest(fox)) == "9e107d9d372bb6826bd81d3542a419d6");
  // nb-rs nbrs/tests/stdlib.rs: to_hex(sha256(u64_to_bytes(0))) and md5 of the same.
  CHECK(call("sha256", {Value::str(call("u64_to_bytes", {u64v(0)}))}) ==
        "af5570f5a1810b7af78caf4bc70a660f0df51e42baf91d4de5b2328de0e83dfc");
  CHECK(call("md5", {Value::str(call("u64_to_bytes", {u64v(0)}))}) == "7dea362b3fac8e00956a4952a3d4f474");
}

TEST_CASE("text codecs: u64_to_bytes and bytes_from_hash") {
  // nb-rs nbrs/tests/stdlib.rs: u64_to_bytes(0xDEADBEEF) shows as "efbeadde00000000".
  CHECK(hex_encode(u64_le_bytes(0xDEADBEEF)) == "efbeadde00000000");
  CHECK(call("u64_to_bytes", {u64v(0xDEADBEEF)}) == "efbeadde00000000");
  // rref: nb-rs's bytes_from_hash recipe with xxhash_rust's xxh3_64.
  CHECK(hex_encode(bytes_from_hash(42, 20)) == "c827df38c8f8a6d5ec4561db902f38e16abb3335");
  CHECK(hex_encode(bytes_from_hash(UINT64_MAX, 16)) == "1344787de4c71151d9ac876fbb3a7bc7");  // seed + 1 wraps
  CHECK(hex_encode(bytes_from_hash(9, 3)) == "970475");
  CHECK(bytes_from_hash(0, 0).empty());
  CHECK(bytes_from_hash(1, uint64_t{1} << 40).size() == kMaxGeneratedLength);
  CHECK(call("bytes_from_hash", {u64v(42), u64v(20)}) == "c827df38c8f8a6d5ec4561db902f38e16abb3335");
}

TEST_CASE("text codecs: hashed_uuid") {
  // rref: nb-rs's recipe (h1 = xxh3(seed), h2 = xxh3(h1), version and variant bits).
  CHECK(hashed_uuid(0) == "d9ac876f-bb3a-4bc7-b9f8-382893178079");
  CHECK(hashed_uuid(1) == "2e79db64-3559-4c2f-8afc-353405f2fcd0");
  CHECK(hashed_uuid(42) == "c827df38-c8f8-46d5-a469-fa26ab8ad63c");
  CHECK(hashed_uuid(UINT64_MAX) == "1344787d-e4c7-4151-bb5c-764f4efdea46");
  // docs/stdlib.md: hash(0) = 0xc77b3abb6f87acd9, whose little-endian bytes open the UUID.
  CHECK(hashed_uuid(0).substr(0, 13) == "d9ac876f-bb3a");
  CHECK(call("hashed_uuid", {u64v(42)}) == "c827df38-c8f8-46d5-a469-fa26ab8ad63c");
}

TEST_CASE("text codecs: char_buf") {
  // rref: nb-rs's recipe (ranges expanded, h = xxh3(h) per character).
  CHECK(char_buf(42, "A-Za-z0-9", 20) == "G2PmE25LofsehXhKc9kk");
  CHECK(char_buf(0, "abc", 10) == "ccabcccbab");
  CHECK(char_buf(7, "", 5) == "vdxhy");                  // empty charset: a-z
  CHECK(char_buf(3, "z-a", 4) == "znpm");                // an empty range leaves a-z
  CHECK(char_buf(5, "a-", 6) == "aaa-a-");               // no range without an end
  CHECK(char_buf(1, "\xC3\xA9-\xC3\xAB\xE2\x98\x83", 6)  // "é-ë☃"
        == "\xC3\xAB\xC3\xAB\xC3\xAB\xE2\x98\x83\xC3\xAA\xC3\xAA");
  CHECK(char_buf(42, "A-Z", 0) == "");
  CHECK(char_buf(1, "a", uint64_t{1} << 40).size() == kMaxGeneratedLength);
  CHECK(call("char_buf", {u64v(42), Value::str("A-Za-z0-9"), u64v(20)}) == "G2PmE25LofsehXhKc9kk");
}

TEST_CASE("text codecs: rust_display writes floats as Rust's Display") {
  // rref: println!("{}", v).
  CHECK(rust_display(3.0) == "3");
  CHECK(rust_display(-0.0) == "-0");
  CHECK(rust_display(0.1) == "0.1");
  CHECK(rust_display(1e21) == "1000000000000000000000");
  CHECK(rust_display(1e-7) == "0.0000001");
  CHECK(rust_display(123456789.125) == "123456789.125");
  CHECK(rust_display(1.0 / 3.0) == "0.3333333333333333");
  CHECK(rust_display(std::numeric_limits<double>::quiet_NaN()) == "NaN");
  CHECK(rust_display(-std::numeric_limits<double>::infinity()) == "-inf");
  CHECK(rust_display(5e-324) == "0." + std::string(323, '0') + "5");
  CHECK(rust_display(0.1f) == "0.1");
  CHECK(rust_display(3.4028235e38f) == "340282350000000000000000000000000000000");
  // rref: an exact tie between two shortest candidates goes up, where
  // to_chars would pick the even one (bit patterns from rref's float sweep).
  CHECK(rust_display(std::bit_cast<float>(uint32_t{1247064649})) == "3484818.3");
  CHECK(rust_display(std::bit_cast<double>(uint64_t{4836313390970753841})) == "2113647607395532.3");
}

TEST_CASE("text codecs: printf follows nb-rs's format mini-language") {
  // nb-rs format.rs tests.
  CHECK(printf_of("hello {}", {u64v(42)}) == "hello 42");
  CHECK(printf_of("{} + {} = {}", {u64v(1), u64v(2), u64v(3)}) == "1 + 2 = 3");
  CHECK(printf_of("{:05}", {u64v(42)}) == "00042");
  CHECK(printf_of("{:x}", {u64v(255)}) == "ff");
  CHECK(printf_of("{:X}", {u64v(255)}) == "FF");
  CHECK(printf_of("{:.2}", {Value::f64(3.14159)}) == "3.14");
  CHECK(printf_of("id={:05} val={:.1}", {u64v(7), Value::f64(98.6)}) == "id=00007 val=98.6");
  CHECK(printf_of("{{escaped}} {}", {u64v(1)}) == "{escaped} 1");
  CHECK(printf_of("just text", {}) == "just text");
  CHECK(printf_of("hello {}", {Value::str("world")}) == "hello world");
  // nb-rs tests/function_coverage.rs: printf("id={:05}", cycle) at 42.
  CHECK(printf_of("id={:05}", {u64v(42)}) == "id=00042");
  // Worked by hand from nb-rs's parser: conversions, widths, what each type ignores.
  CHECK(printf_of("{:b} {:o} {:8x}", {u64v(5), u64v(8), u64v(255)}) == "101 10       ff");
  CHECK(printf_of("{:5}|{:>5}|{:0}", {u64v(42), u64v(42), u64v(42)}) == "   42|42|42");
  CHECK(printf_of("{:007}", {u64v(42)}) == "0000042");
  CHECK(printf_of("{5}", {u64v(1)}) == "    1");
  CHECK(printf_of("{:.3}", {u64v(7)}) == "7");
  CHECK(printf_of("{:08.2}", {Value::f64(-3.14159)}) == "000-3.14");  // zeros go before the sign
  CHECK(printf_of("{:x}", {Value::f64(2.5)}) == "2.5");
  CHECK(printf_of("{} {:.0} {:.2} {:.2}", {Value::f64(3.0), Value::f64(2.5), Value::f64(0.125), Value::f64(-0.0)}) ==
        "3 2 0.12 -0.00");  // rref: {:.0} of 2.5 is "2", {:.2} of 0.125 "0.12", of -0.0 "-0.00"
  CHECK(printf_of("{:.2}", {Value::f64(std::numeric_limits<double>::quiet_NaN())}) == "NaN");
  CHECK(printf_of("[{:05}]", {Value::str("ab")}) == "[   ab]");  // str pads with spaces only
  // rref: format!("[{:>6}] [{:>2}]", "héllo", "héllo") counts characters.
  CHECK(printf_of("[{:6}] [{:2}]", {Value::str("h\xC3\xA9llo"), Value::str("h\xC3\xA9llo")}) ==
        "[ h\xC3\xA9llo] [h\xC3\xA9llo]");
  CHECK(printf_of("{:10}|{}", {Value::boolean(true), Value::boolean(false)}) == "true|false");
  CHECK(printf_of("{}", {Value::f32(0.1f)}) == "0.1");
  // Signed integers (nb-rs has none): rref's {:x} of -1i8 is "ff", {:X} of -255i32 "FFFFFF01".
  CHECK(printf_of("{} {:x} {:X} {:4}", {Value::integer(TyKind::I64, static_cast<uint64_t>(-5)),
                                         Value::integer(TyKind::I8, 0xFF), Value::integer(TyKind::I32, 0xFFFFFF01),
                                         Value::integer(TyKind::I16, static_cast<uint64_t>(-3))}) ==
        "-5 ff FFFFFF01   -3");
  CHECK(printf_of("{}", {Value::integer(TyKind::U8, 200)}) == "200");
  // Braces: a lone '}' is text, an unclosed '{' takes the rest as its spec.
  CHECK(printf_of("a}b {{}}", {}) == "a}b {}");
  CHECK(printf_of("abc{", {u64v(7)}) == "abc7");
  CHECK(printf_of("{:5", {u64v(7)}) == "    7");
  // Totality: missing arguments write nothing, extra ones are ignored,
  // widths and precisions stop at kMaxFormatWidth.
  CHECK(printf_of("<{}|{}>", {u64v(1)}) == "<1|>");
  CHECK(printf_of("{}", {u64v(1), u64v(2)}) == "1");
  CHECK(printf_of("{:99999999999999999999999}", {u64v(1)}).size() == kMaxFormatWidth);
  CHECK(printf_of("{:.99999999999999999999999}", {Value::f64(1.0)}).size() == 2 + kMaxFormatWidth);
  CHECK(printf_of("", {}) == "");
}

TEST_CASE("text codecs: the registry entries") {
  const std::vector<std::string_view> names = {
      "printf",      "u64_to_bytes", "bytes_from_hash", "to_hex",     "from_hex",   "sha256",
      "md5",         "to_base64",    "from_base64",     "url_encode", "url_decode", "html_encode",
      "html_decode", "hashed_uuid",  "char_buf",        "to_base32",  "from_base32"};
  const auto fns = text_library_fns();
  REQUIRE(fns.size() >= names.size());  // the codecs come first; the regex and comparison functions follow
  for (size_t i = 0; i < names.size(); ++i) {
    CAPTURE(names[i]);
    CHECK(fns[i].name == names[i]);  // the order is the IR id order
    CHECK(fns[i].params.size() == fns[i].param_names.size());
    CHECK_FALSE(fns[i].help.empty());
    CHECK(fns[i].result == LibTy::Str);
    CHECK(find_library_fn(names[i]).has_value());
  }
  const LibraryFn& printf_fn = fns[0];
  CHECK(printf_fn.variadic);
  CHECK(printf_fn.params == std::vector<LibTy>{LibTy::Str, LibTy::Any});
  CHECK(fns[14].params == std::vector<LibTy>{LibTy::U64, LibTy::Str, LibTy::U64});
  CHECK(fns[14].param_names == std::vector<std::string_view>{"seed", "charset", "length"});

  // printf through the registry, with mixed argument types.
  CHECK(call("printf", {Value::str("{}-{:04x}-{:.1}-{}"), Value::str("k"), u64v(255), Value::f64(0.25),
                        Value::boolean(true)}) == "k-00ff-0.2-true");
  CHECK(call("printf", {Value::str("no args")}) == "no args");
  // Bytes as hex text: nb-rs's chains give the text nb-rs shows.
  // python3 -c "import base64,struct; print(base64.b64encode(struct.pack('<Q',0xDEADBEEF)).decode())"
  const std::string b = call("u64_to_bytes", {u64v(0xDEADBEEF)});
  CHECK(call("to_base64", {Value::str(b)}) == "776t3gAAAAA=");
  CHECK(call("from_base64", {Value::str("776t3gAAAAA=")}) == "efbeadde00000000");
  CHECK(call("to_hex", {Value::str(b)}) == "efbeadde00000000");
  CHECK(call("from_hex", {Value::str("EFBEADDE00000000")}) == "efbeadde00000000");
  CHECK(call("to_base32", {Value::str("666f6f")}) == "MZXW6===");
  CHECK(call("from_base32", {Value::str("MZXW6===")}) == "666f6f");
  CHECK(call("from_base32", {Value::str("MZXW6")}) == "");
  CHECK(call("url_encode", {Value::str("a b")}) == "a%20b");
  CHECK(call("url_decode", {Value::str("a%20b")}) == "a b");
  CHECK(call("html_encode", {Value::str("<")}) == "&lt;");
  CHECK(call("html_decode", {Value::str("&lt;")}) == "<");

  // Typing: printf takes any scalars after its format; sha256 takes str only.
  const uint32_t printf_id = *find_library_fn("printf");
  const Ty f64_ty = Ty::scalar(TyKind::F64);
  CHECK(library_result(printf_id, Ty::str()) == Ty::str());
  CHECK(library_result(printf_id, Ty::tuple({Ty::str(), Ty::u64(), f64_ty, Ty::boolean()})) == Ty::str());
  CHECK_FALSE(library_result(*find_library_fn("sha256"), Ty::u64()).has_value());
}
