// Tag filters (workload/tag_filter.h) against nb-rs's vectors: the tests of
// nbrs-workload/src/tags.rs and the auto-tag tests of nbrs-workload/src/parse.rs
// (parse_named_blocks, parse_property_inheritance, parse_auto_tagging), each
// cited by name; the rest is derived by hand from tags.rs's grammar.
//
// Fault planted to see these tests fail (restored afterwards): the regex
// anchors dropped (the pattern compiled as VALUE, not ^VALUE$): "regex_match"
// (`block:main.*` then takes "xmain"), "alternatives" and "regexes mean what
// Rust's regex crate makes of them" fail.
#include <doctest/doctest.h>

#include <string>

#include "workload/tag_filter.h"

using namespace polydat::workload;

namespace {

bool match(const std::string& spec, const Tags& tags) {
  auto f = TagFilter::parse(spec);
  REQUIRE_MESSAGE(f, (f ? "" : f.error().message));
  return f->matches(tags);
}

TagFilterError refusal(const std::string& spec) {
  auto f = TagFilter::parse(spec);
  REQUIRE_FALSE(f);
  return f.error();
}

}  // namespace

TEST_CASE("exact_match") {
  CHECK(match("block:schema", {{"block", "schema"}}));
  CHECK_FALSE(match("block:schema", {{"block", "main"}}));
}

TEST_CASE("regex_match") {
  CHECK(match("block:main.*", {{"block", "main_read"}}));
  CHECK(match("block:main.*", {{"block", "main"}}));
  CHECK_FALSE(match("block:main.*", {{"block", "schema"}}));
  CHECK_FALSE(match("block:main.*", {{"block", "xmain"}}));  // anchored at the start
}

TEST_CASE("multiple_conditions_and") {
  CHECK(match("block:main, phase:read", {{"block", "main"}, {"phase", "read"}}));
  CHECK_FALSE(match("block:main, phase:read", {{"block", "main"}, {"phase", "write"}}));
}

TEST_CASE("key_only_match, and a key with an empty value reads the same") {
  CHECK(match("phase", {{"phase", "anything"}}));
  CHECK_FALSE(match("phase", {{"block", "main"}}));
  CHECK(match("phase:", {{"phase", "x"}}));
  CHECK(match("phase:\"\"", {{"phase", "x"}}));
  CHECK_FALSE(match("phase:", {{"block", "x"}}));
}

TEST_CASE("filter_ops_from_workload: block:schema keeps the op of block schema") {
  const Tags create = op_tags({}, {}, {}, "schema", "create");
  const Tags read = op_tags({}, {}, {}, "main", "read");
  CHECK(match("block:schema", create));
  CHECK_FALSE(match("block:schema", read));
}

TEST_CASE("alternatives: `|` splits the anchored pattern, as nb-rs compiles ^a|b$") {
  CHECK(match("type:read|write", {{"type", "read"}}));
  CHECK(match("type:read|write", {{"type", "write"}}));
  CHECK(match("type:read|write", {{"type", "reader"}}));   // ^read
  CHECK(match("type:read|write", {{"type", "rewrite"}}));  // write$
  CHECK_FALSE(match("type:read|write", {{"type", "delete"}}));
  CHECK(match("type:(read|write)", {{"type", "write"}}));
  CHECK_FALSE(match("type:(read|write)", {{"type", "rewrite"}}));
}

TEST_CASE("a value is a regex only with * + ? [ ( or |; otherwise exact") {
  CHECK(match("v:1.2", {{"v", "1.2"}}));
  CHECK_FALSE(match("v:1.2", {{"v", "1x2"}}));  // '.' alone: exact
  CHECK(match("v:1.2+", {{"v", "1x22"}}));      // '+' makes it a regex, and '.' any character
  CHECK(match("v:a\\d", {{"v", "a\\d"}}));       // a backslash alone: exact
  CHECK(match("v:[ab]c", {{"v", "bc"}}));
  CHECK(match("v:x?", {{"v", ""}}));
}

TEST_CASE("trimming and quotes: spaces around parts, keys and values; '\"' off the value's ends") {
  CHECK(match("  block : \"main\" ,phase:read", {{"block", "main"}, {"phase", "read"}}));
  CHECK(match("block:\"\"main\"\"", {{"block", "main"}}));
  CHECK(match("block:\" main \"", {{"block", " main "}}));  // spaces inside the quotes stay
  CHECK(match("block:main\u00a0", {{"block", "main"}}));    // Unicode white space is trimmed too
  CHECK(match(",,block:main,", {{"block", "main"}}));       // empty parts are skipped
  CHECK(match("", {{"block", "main"}}));                    // no condition: every op
  CHECK(match("k:a:b", {{"k", "a:b"}}));                    // split at the first ':'
}

TEST_CASE("a missing tag fails its condition; the last setting of a key counts") {
  CHECK_FALSE(match("type:read", {}));
  CHECK(match("type:read", {{"type", "write"}, {"type", "read"}}));
  CHECK_FALSE(match("type:write", {{"type", "write"}, {"type", "read"}}));
}

TEST_CASE("refused, each at its offset in the filter") {
  TagFilterError e = refusal("block:main,:x");
  CHECK(e.kind == "tag-filter-key");
  CHECK(e.offset == 11);
  e = refusal("a:b, !phase:x");
  CHECK(e.kind == "tag-filter-key");
  CHECK(e.offset == 5);
  CHECK(e.message.find("negation") != std::string::npos);
  e = refusal("k:v, block: (main");
  CHECK(e.kind == "tag-filter-regex");
  CHECK(e.offset == 12);
  // What Rust's regex crate refuses and a backtracking engine would take.
  e = refusal("k:(a)\\1");
  CHECK(e.kind == "tag-filter-regex");
  CHECK(e.message.find("\\1") != std::string::npos);
  CHECK(refusal("k:(?=a)a*").kind == "tag-filter-regex");
  e = refusal(std::string(kMaxTagFilter + 1, 'a'));
  CHECK(e.kind == "tag-filter-too-long");
}

TEST_CASE("regexes mean what Rust's regex crate makes of them") {
  CHECK(match("k:.?", {{"k", "\u00e9"}}));              // '.' is one code point, not one byte
  CHECK(match("k:(?i)MAIN.*", {{"k", "main_read"}}));    // inline flags
  CHECK(match("k:\\d+", {{"k", "\u0663"}}));           // \d is Unicode's digits (ARABIC-INDIC THREE)
  CHECK_FALSE(match("k:a+", {{"k", "aa\n"}}));          // $ only at the very end
  CHECK(match("k:[[:alpha:]]+", {{"k", "abc"}}));
}

TEST_CASE("nb-rs's auto tags: block, name, op") {
  // parse_auto_tagging: a top-level op of a file without blocks.
  const Tags top = op_tags({}, {}, {}, "block0", "myop");
  CHECK(*find_tag(top, "name") == "myop");
  CHECK(*find_tag(top, "op") == "myop");
  CHECK(*find_tag(top, "block") == "block0");
  // parse_named_blocks and parse_property_inheritance: the block's name, the workload's tags inherited.
  const Tags in_block = op_tags({{"workload", "test"}}, {}, {}, "main", "op1");
  CHECK(*find_tag(in_block, "workload") == "test");
  CHECK(*find_tag(in_block, "block") == "main");
  // Layers: the op's own tags over its block's over the workload's; `block`
  // is always the block's name; `name` and `op` only when not set.
  const Tags layered = op_tags({{"type", "w"}, {"k", "1"}}, {{"type", "b"}}, {{"type", "o"}, {"block", "mine"}, {"name", "alias"}},
                               "main", "op1");
  CHECK(*find_tag(layered, "type") == "o");
  CHECK(*find_tag(layered, "k") == "1");
  CHECK(*find_tag(layered, "block") == "main");
  CHECK(*find_tag(layered, "name") == "alias");
  CHECK(*find_tag(layered, "op") == "op1");
  // A phase's op: `phase` from its scope, block the phase's name.
  const Tags phased = op_tags({}, {{"phase", "rampup"}}, {}, "rampup", "insert");
  CHECK(match("phase:rampup,block:rampup,op:insert", phased));
  CHECK(find_tag(phased, "missing") == nullptr);
}
