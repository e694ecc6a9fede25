// nb-rs's legacy binding chains (frontend/legacy_chain.h): the GK each chain
// becomes, with nb-rs's step names and renames, the values of those lines on
// the interpreter, and the steps nb-rs would cut apart refused at their place.
// Vectors are nb-rs's own where its tests have them (nbrs-activity/src/bindings.rs).
//
// Fault planted to see this fail (restored afterwards): the Java `L` suffix
// kept (`--e` removed in step_call): "nb-rs's test vectors" fails on
// Mod(1000000000L).
#include <doctest/doctest.h>

#include <string>

#include "frontend/legacy_chain.h"
#include "tests/frontend/stdlib_kernel.h"

using namespace polydat;
using stdlibtest::Kernel;
using stdlibtest::ref_hash;
using stdlibtest::u64;

namespace {

std::string gk(const std::string& name, const std::string& chain) {
  auto r = frontend::legacy_chain_to_gk(name, chain);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
  return *r;
}

frontend::ChainError refusal(const std::string& chain) {
  auto r = frontend::legacy_chain_to_gk("v", chain);
  REQUIRE_FALSE(r.ok());
  return r.error();
}

// The chain's binding in a kernel of `cycle`, evaluated at `cycle`.
ir::Value value_at(const std::string& chain, uint64_t cycle) {
  Kernel k("input cycle: u64\n" + gk("v", chain) + "\noutput v\n");
  const std::vector<ir::Value> out = k.run({u64(cycle)});
  for (size_t i = 0; i < k.unit().outputs.size(); ++i)
    if (k.unit().outputs[i].name == "v") return out[i];
  FAIL("no output v");
  return {};
}

}  // namespace

TEST_CASE("nb-rs's test vectors") {
  // compile_hash_mod_binding: Hash(); Mod(1000000) at 42, below 1000000.
  CHECK(gk("id", "Hash(); Mod(1000000)") == "__chain_id_0 := hash(cycle); id := mod(__chain_id_0, 1000000)");
  CHECK(value_at("Hash(); Mod(1000000)", 42).as_u64() == ref_hash(42) % 1000000);
  // compile_identity_binding: Identity() at 42 is 42.
  CHECK(gk("myval", "Identity()") == "myval := identity(cycle)");
  CHECK(value_at("Identity()", 42).as_u64() == 42);
  // compile_add_chain: Add(100); Mod(1000) at 5 is 105.
  CHECK(value_at("Add(100); Mod(1000)", 5).as_u64() == 105);
  // parse_long_chain: four steps; legacy_tostring_translates: ToString is format_u64 (radix 10 added).
  CHECK(gk("v", "Add(10); Hash(); Mod(100); ToString()") ==
        "__chain_v_0 := add(cycle, 10); __chain_v_1 := hash(__chain_v_0); __chain_v_2 := mod(__chain_v_1, 100); "
        "v := format_u64(__chain_v_2, 10)");
  CHECK(value_at("Add(10); Hash(); Mod(100); ToString()", 7).as_str() == std::to_string(ref_hash(17) % 100));
  // parse_with_long_suffix: the L is dropped when the step becomes GK.
  CHECK(gk("v", "Mod(1000000000L)") == "v := mod(cycle, 1000000000)");
  // legacy_uniform_translates: Uniform is hash_range, its arguments passed on as written.
  CHECK(gk("v", "Uniform(0, 1000)") == "v := hash_range(cycle, 0, 1000)");
}

TEST_CASE("renames, spaces, empty steps and quoted arguments as nb-rs reads them") {
  CHECK(gk("v", "ToHexString()") == "v := format_u64(cycle, 16)");
  CHECK(gk("v", "HASH ( ) ;; mod( 7 )") == "__chain_v_0 := hash(cycle); v := mod(__chain_v_0, 7)");
  CHECK(gk("v", "Identity") == "v := identity(cycle)");  // no parentheses: a function of no arguments
  CHECK(gk("v", "Template('a,b', 3)") == "v := template(cycle, 'a,b', 3)");  // nb-rs keeps commas inside '...'
  CHECK(value_at("Mod(10); ToOctalString()", 15).as_str() == "0o5");
  CHECK(value_at("ToBinaryString()", 5).as_str() == "0b101");
}

TEST_CASE("a step nb-rs would cut apart is refused at its place") {
  struct Case {
    std::string chain, part;
    size_t offset;
  };
  const std::vector<Case> cases = {
      {"", "empty binding expression for 'v'", 0},
      {" ; ", "empty binding expression", 0},
      {"Mod(hash(3))", "no calls or parentheses", 8},
      {"Template('a;b')", "at every ';', even this one inside a string", 11},
      {"Format(\"a,b\", 2)", "at every ',' outside '...' quotes", 9},
      {"Mod(1,,2)", "an empty argument", 6},
      {"3x()", "'3x' is not a name", 0},
      {"Mod(5", "never closed with ')'", 5},
      {"Template('abc)", "never closed", 14},
  };
  for (const Case& c : cases) {
    CAPTURE(c.chain);
    const frontend::ChainError e = refusal(c.chain);
    CHECK_MESSAGE(e.message.find(c.part) != std::string::npos, e.message);
    CHECK(e.offset == c.offset);
  }
}

TEST_CASE("the shape of a chain, where a GK expression is expected") {
  CHECK(frontend::looks_like_legacy_chain("Hash(); Mod(100)"));
  CHECK(frontend::looks_like_legacy_chain("hash(cycle);"));
  CHECK_FALSE(frontend::looks_like_legacy_chain("mod(hash(cycle), 100)"));
  CHECK_FALSE(frontend::looks_like_legacy_chain("combinations(cycle, \"0-9;A-Z\")"));
  CHECK_FALSE(frontend::looks_like_legacy_chain("weighted_u64(cycle, '1:0.5;2:0.5')"));
}
