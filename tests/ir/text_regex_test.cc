// The regex functions against Rust's regex crate, the engine nb-rs uses:
// regex_rust_vectors.jsonl holds 1,500 random (pattern, text, replacement)
// cases and what regex 1.13.1 answered for each (null: Rust refuses the
// pattern), recorded by a scratch Rust program; plus nb-rs's own unit values.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

#include "ir/library_fn.h"
#include "ir/text_regex.h"

namespace polydat::ir {
namespace {

// Rust accepts these and this engine refuses them (docs/stdlib.md): class set
// operations, a repetition of a repetition, negated POSIX classes, \b{...},
// the u and R flags, white space in a class under (?x).
bool refused_by_design(const std::string& p) {
  for (const char* form : {"&&", "**", "*+", "}{", "[:^", "\\b{", "(?-u", "(?R)"})
    if (p.find(form) != std::string::npos) return true;
  return false;
}

TEST_CASE("regex functions give Rust's regex crate's answers on recorded vectors") {
  std::ifstream in("regex_rust_vectors.jsonl");
  REQUIRE(in.good());
  std::string line;
  size_t compared = 0, refused_both = 0, refused_here = 0;
  while (std::getline(in, line)) {
    const nlohmann::json v = nlohmann::json::parse(line);
    const std::string pattern = v["pattern"], text = v["text"];
    const bool ours_refuses = regex_error(pattern).has_value();
    INFO("pattern: " << pattern << "  text: " << text);
    if (v["rust"].is_null()) {
      CHECK(ours_refuses);
      ++refused_both;
      continue;
    }
    if (ours_refuses) {
      CHECK(refused_by_design(pattern));
      ++refused_here;
      continue;
    }
    if (v["op"] == "match") CHECK(regex_is_match(pattern, text) == v["rust"].get<bool>());
    else CHECK(regex_replace_all(pattern, text, v["replacement"].get<std::string>()) == v["rust"].get<std::string>());
    ++compared;
  }
  MESSAGE(compared << " compared, " << refused_both << " refused by both, " << refused_here << " refused here only");
  CHECK(compared > 1000);
  CHECK(refused_both > 50);
}

TEST_CASE("nb-rs's regex unit values") {
  CHECK(regex_replace_all("\\d+", "abc 123 def 456", "NUM") == "abc NUM def NUM");
  CHECK(regex_replace_all("\\d+", "no numbers here", "NUM") == "no numbers here");
  CHECK(regex_is_match("^\\d{3}-\\d{4}$", "123-4567"));
  CHECK_FALSE(regex_is_match("^\\d{3}-\\d{4}$", "hello"));
}

TEST_CASE("replacement syntax and empty matches follow Rust, worked by hand") {
  // "a*" on "baaab": empty at 0, "aaa" at 1..4, the empty match at 4 skipped (it ends the last), empty at 5.
  CHECK(regex_replace_all("a*", "baaab", "-") == "-b-b-");
  // $1_x names group "1_x" (absent: empty); ${1}_x is group 1 then "_x"; $$ is $; a lone $ stays.
  CHECK(regex_replace_all("(\\w+)", "ab", "$1_x ${1}_x $$ $") == " ab_x $ $");
  CHECK(regex_replace_all("(?P<first>\\w+)\\s+(?P<last>\\w+)", "Springsteen Bruce", "$last $first") == "Bruce Springsteen");
  // Empty matches fall between characters, never inside a multi-byte one.
  CHECK(regex_replace_all("", "hé", "-") == "-h-é-");
  // `$` is the end of the text only, not before a final line feed.
  CHECK_FALSE(regex_is_match("a$", "a\n"));
  // Rust's \u escape and ASCII-only POSIX classes.
  CHECK(regex_is_match("^\\u00e9$", "é"));
  CHECK_FALSE(regex_is_match("^[[:alpha:]]$", "é"));
}

TEST_CASE("what only PCRE2 or only Rust accepts is refused with a reason") {
  for (const char* p : {"a(?=b)", "(a)\\1", "(?>a)", "a{", "a{,3}", "[a-c&&b]", "[a[b]]", "a**", "\\K", "(?R)"}) {
    INFO(p);
    CHECK(regex_error(p).has_value());
  }
  CHECK(regex_error("a(")->find("missing closing parenthesis") != std::string::npos);
  CHECK_FALSE(regex_error("\\p{Greek}+\\x{e9}[[:digit:]]{2,3}(?i:x)(?P<n>y)").has_value());
}

TEST_CASE("the library's regex_match, regex_replace, str_eq and str_ne") {
  auto call = [](std::string_view name, std::vector<Value> args) {
    return library_fns()[*find_library_fn(name)].eval(args);
  };
  CHECK(call("regex_match", {Value::str("x42&"), Value::str("^x\\d+&$")}) == Value::boolean(true));
  CHECK(call("regex_replace", {Value::str("a1b22"), Value::str("\\d"), Value::str("<$0>")}) == Value::str("a<1>b<2><2>"));
  CHECK(call("str_eq", {Value::str("a"), Value::str("a")}) == Value::integer(TyKind::U64, 1));
  CHECK(call("str_ne", {Value::str("a"), Value::str("a")}) == Value::integer(TyKind::U64, 0));
  const LibraryFn& m = library_fns()[*find_library_fn("regex_match")];
  CHECK(m.constant_params == 0b10);
  CHECK(m.check_constant(1, Value::str("(")).has_value());
  CHECK_FALSE(m.check_constant(1, Value::str("a+")).has_value());
}

}  // namespace
}  // namespace polydat::ir
