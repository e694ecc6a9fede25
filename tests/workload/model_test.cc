// The workload loader (workload/model.h): every shape of nb-rs's workload YAML
// read into the model, each field's place (line and column counted by hand in
// the texts below, which are written one file line per string literal), every
// error kind at its place with its key, and nb-rs's own example workloads.
//
// Faults planted to see these tests fail (each restored afterwards):
//   - a `|` block's text line 0 put on its first non-blank line instead of the
//     line after the indicator (`f.content.line += first` in scalar_field):
//     "every top-level section" fails (content 7:3, expected 6:3, and the
//     block no longer maps line for line, so it is not shown as literal) and
//     "literal block marks" fails (5:5, expected 3:5);
//   - the duplicate-key check disabled in `entries`: "duplicate keys, in
//     every map" and "errors: each kind" fail (the second key is taken);
//   - the step depth cap raised from 64 to 1000: "deep nesting is refused"
//     fails (65 levels load).
#include <doctest/doctest.h>

#include "test_text.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

#include "workload/model.h"

using namespace polydat::workload;

namespace {

std::string str(Mark m) { return std::to_string(m.line) + ":" + std::to_string(m.col); }

Workload load(const std::string& text) {
  auto r = parse_workload_text(text, "w.yaml");
  if (!r) FAIL_CHECK(r.error().rendered);
  REQUIRE(r.ok());
  return std::move(r).value();
}

LoadError error_of(const std::string& text) {
  auto r = parse_workload_text(text, "w.yaml");
  REQUIRE_FALSE(r.ok());
  return r.error();
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

using test::file_line;

// For a literal block: every non-blank line i of the text is file line
// content.line + i from column content.col (the contract of model.h).
void check_block_maps(const std::string& file, const Field& f) {
  REQUIRE(f.literal_block);
  size_t start = 0;
  for (uint32_t i = 0; start <= f.text.size(); ++i) {
    size_t end = f.text.find('\n', start);
    if (end == std::string::npos) end = f.text.size();
    const std::string line = f.text.substr(start, end - start);
    if (line.find_first_not_of(' ') != std::string::npos) {
      const std::string raw = file_line(file, f.content.line + i);
      INFO("text line " << i << " '" << line << "' against file line " << f.content.line + i << " '" << raw << "'");
      CHECK(raw.size() >= f.content.col - 1);
      CHECK(raw.substr(std::min<size_t>(raw.size(), f.content.col - 1)) == line);
    }
    start = end + 1;
  }
}

const Field* field(const OpDef& op, const std::string& name) {
  for (const auto& [n, f] : op.fields)
    if (n == name) return &f;
  return nullptr;
}

std::vector<std::string> names(const std::vector<OpDef>& ops) {
  std::vector<std::string> out;
  for (const OpDef& op : ops) out.push_back(op.name);
  return out;
}

std::vector<std::string> ignored_keys(const Workload& w) {
  std::vector<std::string> out;
  for (const IgnoredKey& k : w.ignored) out.push_back(k.key);
  return out;
}

std::string lines(std::initializer_list<const char*> ls) {
  std::string out;
  for (const char* l : ls) out += std::string(l) + "\n";
  return out;
}

}  // namespace

TEST_SUITE("workload") {

TEST_CASE("every top-level section, with its marks") {
  const std::string text = lines({
      "description: \"A test\"",       // 1
      "params:",                       // 2
      "  count: 10",                   // 3
      "  name: 'x y'",                 // 4
      "bindings: |",                   // 5
      "",                              // 6
      "  input cycle: u64",            // 7
      "  h := hash(cycle)",            // 8
      "ops:",                          // 9
      "  a: \"select {h}\"",           // 10
      "  b:",                          // 11
      "    stmt: insert {h}",          // 12
      "    ratio: 2",                  // 13
      "    if: h > 3",                 // 14
      "    prepared: true",            // 15
      "    tags: {x: y}",              // 16
      "phases:",                       // 17
      "  rampup:",                     // 18
      "    cycles: \"{count}\"",       // 19
      "    concurrency: 4",            // 20
      "scenarios:",                    // 21
      "  default:",                    // 22
      "    - rampup",                  // 23
      "report: {a: b}",                // 24
  });
  const Workload w = load(text);
  CHECK(w.path == "w.yaml");
  CHECK(w.text == text);

  REQUIRE(w.description);
  CHECK(w.description->text == "A test");
  CHECK(str(w.description->at) == "1:14");
  CHECK(str(w.description->content) == "1:15");
  CHECK(w.description->key == "description");
  CHECK_FALSE(w.description->literal_block);

  REQUIRE(w.params.size() == 2);
  CHECK(w.params[0].first == "count");
  CHECK(w.params[0].second.text == "10");
  CHECK(str(w.params[0].second.at) == "3:10");
  CHECK(str(w.params[0].second.content) == "3:10");
  CHECK(w.params[0].second.key == "params.count");
  CHECK(w.params[1].first == "name");
  CHECK(w.params[1].second.text == "x y");
  CHECK(str(w.params[1].second.at) == "4:9");
  CHECK(str(w.params[1].second.content) == "4:10");

  REQUIRE(w.bindings);
  CHECK(w.bindings->text == "\ninput cycle: u64\nh := hash(cycle)\n");
  CHECK(w.bindings->literal_block);
  CHECK(str(w.bindings->at) == "5:11");
  CHECK(str(w.bindings->content) == "6:3");  // text line 0 is the blank line 6
  check_block_maps(text, *w.bindings);

  REQUIRE(w.ops.size() == 2);
  CHECK(w.ops[0].name == "a");
  CHECK(str(w.ops[0].at) == "10:3");
  REQUIRE(w.ops[0].fields.size() == 1);
  CHECK(w.ops[0].fields[0].first == "stmt");
  CHECK(w.ops[0].fields[0].second.text == "select {h}");
  CHECK(str(w.ops[0].fields[0].second.content) == "10:7");
  CHECK_FALSE(w.ops[0].condition);
  const OpDef& b = w.ops[1];
  CHECK(b.name == "b");
  CHECK(str(b.at) == "11:3");
  REQUIRE(b.fields.size() == 2);  // stmt, prepared; in order
  CHECK(b.fields[0].first == "stmt");
  CHECK(b.fields[0].second.text == "insert {h}");
  CHECK(str(b.fields[0].second.content) == "12:11");
  CHECK(b.fields[0].second.key == "ops.b.stmt");
  CHECK(b.fields[1].first == "prepared");
  CHECK(b.fields[1].second.text == "true");
  CHECK(str(b.fields[1].second.content) == "15:15");
  REQUIRE(b.condition);
  CHECK(b.condition->text == "h > 3");
  CHECK(str(b.condition->content) == "14:9");
  CHECK(b.condition->key == "ops.b.if");
  REQUIRE(b.ratio);
  CHECK(b.ratio->text == "2");
  CHECK(str(b.ratio->content) == "13:12");
  // Its own tags, then nb-rs's automatic ones: the block (block0 for top-level ops), its name.
  using Tags = std::vector<std::pair<std::string, std::string>>;
  CHECK(b.tags == Tags{{"x", "y"}, {"block", "block0"}, {"name", "b"}, {"op", "b"}});
  CHECK(w.ops[0].tags == Tags{{"block", "block0"}, {"name", "a"}, {"op", "a"}});

  REQUIRE(w.phases.size() == 1);
  const PhaseDef& p = w.phases[0];
  CHECK(p.name == "rampup");
  CHECK(str(p.at) == "18:3");
  REQUIRE(p.cycles);
  CHECK(p.cycles->text == "{count}");
  CHECK(str(p.cycles->at) == "19:13");
  CHECK(str(p.cycles->content) == "19:14");
  CHECK(p.cycles->key == "phases.rampup.cycles");
  CHECK(w.find_phase("rampup") == &w.phases[0]);
  CHECK(w.find_phase("nope") == nullptr);

  REQUIRE(w.scenarios.size() == 1);
  CHECK(w.scenarios[0].name == "default");
  CHECK(str(w.scenarios[0].at) == "22:3");
  REQUIRE(w.scenarios[0].steps.size() == 1);
  CHECK(w.scenarios[0].steps[0].kind == Step::Kind::Phase);
  CHECK(w.scenarios[0].steps[0].phase == "rampup");
  CHECK(str(w.scenarios[0].steps[0].at) == "23:7");
  CHECK(w.find_scenario("default") == &w.scenarios[0]);
  CHECK(w.find_scenario("rampup") == nullptr);

  CHECK(ignored_keys(w) == std::vector<std::string>{"phases.rampup.concurrency", "report"});
  CHECK(str(w.ignored[0].at) == "20:5");
  CHECK(str(w.ignored[1].at) == "24:1");
}

TEST_CASE("literal block marks") {
  SUBCASE("leading blank lines and a line indented further") {
    const std::string text = lines({
        "ops: x",                // 1
        "bindings: |",           // 2
        "",                      // 3
        "",                      // 4
        "    a := 1",            // 5
        "      b := f(a)",       // 6
        "    c := 2",            // 7
        "phases:",               // 8
    });
    const Workload w = load(text);
    REQUIRE(w.bindings);
    CHECK(w.bindings->text == "\n\na := 1\n  b := f(a)\nc := 2\n");
    CHECK(str(w.bindings->at) == "2:11");
    CHECK(str(w.bindings->content) == "3:5");
    check_block_maps(text, *w.bindings);
    // The text's line 3 is "  b := f(a)": file line 6, from column 5.
    CHECK(file_line(text, w.bindings->content.line + 3).substr(w.bindings->content.col - 1) == "  b := f(a)");
  }
  SUBCASE("chomping indicators, an explicit indentation, properties, a comment") {
    const std::string text = lines({
        "ops: x",                        // 1
        "phases:",                       // 2
        "  p:",                          // 3
        "    bindings: |-",              // 4
        "      k := 1",                  // 5
        "  q:",                          // 6
        "    bindings: |+  # keep",      // 7
        "        k := 2",                // 8
        "",                              // 9
        "  r:",                          // 10
        "    bindings: &b !!str |2",     // 11
        "         k := 3",               // 12
        "        j := 4",                // 13
    });
    const Workload w = load(text);
    REQUIRE(w.phases.size() == 3);
    const Field& p = *w.phases[0].bindings;
    CHECK(p.text == "k := 1");
    CHECK(str(p.at) == "4:15");
    CHECK(str(p.content) == "5:7");
    CHECK(p.key == "phases.p.bindings");
    check_block_maps(text, p);
    const Field& q = *w.phases[1].bindings;
    CHECK(q.text == "k := 2\n\n");
    CHECK(str(q.at) == "7:15");
    CHECK(str(q.content) == "8:9");
    check_block_maps(text, q);
    // `|2` under a key at column 5: the block's indentation is 4 + 2 = 6, so
    // the text keeps the extra spaces and starts at column 7.
    const Field& r = *w.phases[2].bindings;
    CHECK(r.text == "   k := 3\n  j := 4\n");
    CHECK(str(r.at) == "11:24");  // the `|`, past the anchor and the tag
    CHECK(str(r.content) == "12:7");
    check_block_maps(text, r);
  }
  SUBCASE("a folded block keeps its first line") {
    const std::string text = lines({
        "description: >",   // 1
        "  one",            // 2
        "  two",            // 3
        "ops: x",           // 4
    });
    const Workload w = load(text);
    CHECK(w.description->text == "one two\n");
    CHECK_FALSE(w.description->literal_block);
    CHECK(str(w.description->at) == "1:14");
    CHECK(str(w.description->content) == "2:3");
  }
  SUBCASE("an empty block and a CRLF file") {
    const Workload w = load("ops: x\r\nbindings: |\r\n  a := 1\r\n  b := 2\r\ndescription: |\r\nphases:\r\n");
    CHECK(w.bindings->text == "a := 1\nb := 2\n");
    CHECK(str(w.bindings->content) == "3:3");
    CHECK(w.description->text.empty());
    CHECK(str(w.description->at) == "5:14");
    CHECK(w.description->content.line == 6);
  }
}

TEST_CASE("bindings as a map") {
  const std::string text = lines({
      "bindings:",                          // 1
      "  user_id: Hash(); Mod(1000000)",    // 2
      "  seq: \"Identity()\"",              // 3
      "ops:",                               // 4
      "  o:",                               // 5
      "    stmt: x",                        // 6
      "    bindings:",                      // 7
      "      k: 'f(1)'",                    // 8
      "  o2:",                              // 9
      "    stmt: y",                        // 10
      "    bindings: |",                    // 11
      "      k := 2",                       // 12
      "  o3:",                              // 13
      "    bindings: {}",                   // 14
  });
  const Workload w = load(text);
  REQUIRE(w.bindings);
  // The top-level map's values are nb-rs's legacy chains (frontend/legacy_chain.h), with nb-rs's step names.
  CHECK(w.bindings->text ==
        "__chain_user_id_0 := hash(cycle); user_id := mod(__chain_user_id_0, 1000000)\nseq := identity(cycle)\n");
  CHECK_FALSE(w.bindings->literal_block);
  CHECK(str(w.bindings->at) == "2:3");
  CHECK(str(w.bindings->content) == "2:12");  // the first entry's value
  CHECK(w.bindings->key == "bindings");
  REQUIRE(w.ops.size() == 3);
  REQUIRE(w.ops[0].bindings);
  CHECK(w.ops[0].bindings->text == "k := f(1)\n");
  CHECK(str(w.ops[0].bindings->content) == "8:11");
  CHECK(w.ops[0].bindings->key == "ops.o.bindings");
  REQUIRE(w.ops[1].bindings);
  CHECK(w.ops[1].bindings->text == "k := 2\n");
  CHECK(str(w.ops[1].bindings->content) == "12:7");
  CHECK(w.ops[1].bindings->literal_block);
  REQUIRE(w.ops[2].bindings);
  CHECK(w.ops[2].bindings->text.empty());
  CHECK(w.ops[2].fields.empty());
}

TEST_CASE("ops in every shape") {
  SUBCASE("a list") {
    const std::string text = lines({
        "ops:",                          // 1
        "  - \"plain text {x}\"",        // 2
        "  - named: select 1",           // 3
        "  - full:",                     // 4
        "      stmt: select 2",          // 5
        "      raw: r",                  // 6
        "  - name: byname",              // 7
        "    stmt: select 3",            // 8
        "  - stmt: select 4",            // 9
        "    ratio: 1",                  // 10
        "  - solo:",                     // 11
        "  - name: lonely",              // 12
    });
    const Workload w = load(text);
    // nb-rs's names: the key, `name:`, else stmtN by the position in the list.
    CHECK(names(w.ops) == std::vector<std::string>{"stmt1", "named", "full", "byname", "stmt5", "solo", "lonely"});
    CHECK(str(w.ops[0].at) == "2:5");
    REQUIRE(field(w.ops[0], "stmt"));
    CHECK(field(w.ops[0], "stmt")->text == "plain text {x}");
    CHECK(str(field(w.ops[0], "stmt")->content) == "2:6");
    CHECK(field(w.ops[0], "stmt")->key == "ops.stmt1.stmt");
    CHECK(str(w.ops[1].at) == "3:5");
    CHECK(field(w.ops[1], "stmt")->text == "select 1");
    CHECK(str(field(w.ops[1], "stmt")->content) == "3:12");
    REQUIRE(w.ops[2].fields.size() == 2);
    CHECK(w.ops[2].fields[0].first == "stmt");
    CHECK(w.ops[2].fields[1].first == "raw");
    CHECK(w.ops[2].fields[1].second.key == "ops.full.raw");
    CHECK(str(w.ops[3].at) == "7:5");
    REQUIRE(w.ops[3].fields.size() == 1);  // `name` is the name, not a field
    CHECK(field(w.ops[3], "stmt")->text == "select 3");
    CHECK(field(w.ops[3], "stmt")->key == "ops.byname.stmt");
    CHECK(str(w.ops[4].at) == "9:5");
    CHECK(field(w.ops[4], "stmt")->text == "select 4");
    CHECK(w.ops[5].fields.empty());
    CHECK(w.ops[6].fields.empty());
    REQUIRE(w.ops[4].ratio);
    CHECK(w.ops[4].ratio->text == "1");
    CHECK(ignored_keys(w).empty());
  }
  SUBCASE("one text") {
    const Workload w = load("ops: \"select 1\"\n");
    REQUIRE(w.ops.size() == 1);
    CHECK(w.ops[0].name == "stmt1");
    CHECK(field(w.ops[0], "stmt")->text == "select 1");
    CHECK(str(field(w.ops[0], "stmt")->content) == "1:7");
    CHECK(field(w.ops[0], "stmt")->key == "ops.stmt1.stmt");
  }
  SUBCASE("the keys acted on, the keys noted, and every other scalar key a field") {
    const std::string text = lines({
        "ops:",
        "  o:",
        "    tags: {a: b}",
        "    params: {ratio: 3, prepared: true}",
        "    delay: 2",
        "    verify: v",
        "    result: r",
        "    adapter: stdout",
        "    stdout: {}",
        "    space: s",
        "    capture: c",
        "    errors: stop",
        "    json: \"{}\"",
        "    if:",
        "    description: about it",
    });
    const Workload w = load(text);
    REQUIRE(w.ops.size() == 1);
    const OpDef& o = w.ops[0];
    REQUIRE(o.fields.size() == 2);
    CHECK(o.fields[0].first == "capture");
    CHECK(o.fields[1].first == "json");
    CHECK_FALSE(o.condition);  // an empty `if:` is no condition
    REQUIRE(o.ratio);  // from params, as nb-rs reads it
    CHECK(o.ratio->text == "3");
    CHECK(o.tags.front() == std::pair<std::string, std::string>{"a", "b"});
    CHECK(ignored_keys(w) == std::vector<std::string>{"ops.o.params.prepared", "ops.o.delay", "ops.o.verify",
                                                      "ops.o.result", "ops.o.stdout", "ops.o.space", "ops.o.errors"});
  }
  SUBCASE("the op's text under nb-rs's other spellings, and a map of fields") {
    const Workload w = load(lines({"ops:", "  a:", "    statement: s1", "  b:", "    op: {stmt: s2, raw: r2}", "    extra: e"}));
    REQUIRE(w.ops.size() == 2);
    CHECK(field(w.ops[0], "stmt")->text == "s1");
    REQUIRE(w.ops[1].fields.size() == 3);
    CHECK(w.ops[1].fields[0].first == "stmt");
    CHECK(w.ops[1].fields[1].first == "raw");
    CHECK(w.ops[1].fields[2].first == "extra");
  }
}

TEST_CASE("blocks: each block's ops in order, tagged with the block, its bindings kept once") {
  const std::string text = lines({
      "tags: {owner: me}",          // 1
      "blocks:",                    // 2
      "  schema:",                  // 3
      "    ops:",                   // 4
      "      create: \"CREATE\"",   // 5
      "  main:",                    // 6
      "    tags:",                  // 7
      "      phase: main",          // 8
      "    bindings: |",            // 9
      "      x := 1",               // 10
      "    ops:",                   // 11
      "      - write: INSERT",      // 12
      "      - read",               // 13
      "  nothing:",                 // 14
  });
  const Workload w = load(text);
  CHECK(names(w.ops) == std::vector<std::string>{"create", "write", "stmt2"});
  CHECK(str(w.ops[0].at) == "5:7");
  CHECK(field(w.ops[0], "stmt")->key == "blocks.schema.ops.create.stmt");
  CHECK(field(w.ops[2], "stmt")->text == "read");
  using Tags = std::vector<std::pair<std::string, std::string>>;
  CHECK(w.ops[0].tags == Tags{{"owner", "me"}, {"block", "schema"}, {"name", "create"}, {"op", "create"}});
  CHECK(w.ops[1].tags == Tags{{"owner", "me"}, {"phase", "main"}, {"block", "main"}, {"name", "write"}, {"op", "write"}});
  REQUIRE(w.blocks.size() == 3);
  CHECK(w.blocks[1].name == "main");
  REQUIRE(w.blocks[1].bindings);
  CHECK(w.blocks[1].bindings->text == "x := 1\n");
  CHECK(w.ops[1].block == 1);
  CHECK(w.ops[2].block == 1);
  CHECK(w.ops[0].block == 0);
  CHECK(ignored_keys(w).empty());
}

TEST_CASE("phases: every key") {
  const std::string text = lines({
      "phases:",                      // 1
      "  a:",                         // 2
      "    cycles: 10",               // 3
      "    for_each: \"k in 1,2\"",   // 4
      "    loop_scope: clean",        // 5
      "    iter_scope: inherit",      // 6
      "    where: \"{k} > 1\"",       // 7
      "    rate: 100",                // 8
      "    bindings: |-",             // 9
      "      k2 := k",                // 10
      "    ops:",                     // 11
      "      o: \"{k}\"",             // 12
      "    concurrency: 2",           // 13
      "  b:",                         // 14
      "    for:",                     // 15
      "      - \"j in a,b\"",         // 16
      "      - \"j in c\"",           // 17
      "    order: lex/1",             // 18
      "    loop_scope: inherit",      // 19
      "  c:",                         // 20
      "    tags: \"type:read\"",      // 21
      "  emit:",                      // 22
      "  empty: {}",                  // 23
  });
  const Workload w = load(text);
  REQUIRE(w.phases.size() == 5);
  const PhaseDef& a = w.phases[0];
  CHECK(a.cycles->text == "10");
  REQUIRE(a.for_each);
  REQUIRE(a.for_each->entries.size() == 1);
  CHECK_FALSE(a.for_each->list);
  CHECK(a.for_each->entries[0].text == "k in 1,2");
  CHECK(str(a.for_each->entries[0].content) == "4:16");
  CHECK(a.for_each->entries[0].key == "phases.a.for_each");
  REQUIRE(a.for_each->where);
  CHECK(a.for_each->where->text == "{k} > 1");
  CHECK_FALSE(a.for_each->order);
  CHECK(a.loop_scope == ScopeMode::Clean);
  CHECK(a.iter_scope == ScopeMode::Inherit);
  CHECK_FALSE(a.tags);
  CHECK(a.bindings->text == "k2 := k");
  CHECK(str(a.bindings->content) == "10:7");
  REQUIRE(a.ops.size() == 1);
  CHECK(a.ops[0].name == "o");
  CHECK(field(a.ops[0], "stmt")->key == "phases.a.ops.o.stmt");
  using Tags = std::vector<std::pair<std::string, std::string>>;
  CHECK(a.ops[0].tags == Tags{{"phase", "a"}, {"block", "a"}, {"name", "o"}, {"op", "o"}});
  const PhaseDef& b = w.phases[1];
  REQUIRE(b.for_each);
  CHECK(b.for_each->list);
  REQUIRE(b.for_each->entries.size() == 2);
  CHECK(b.for_each->entries[1].text == "j in c");
  CHECK(b.for_each->entries[1].key == "phases.b.for[1]");
  CHECK(b.for_each->key == "for");
  CHECK(b.for_each->order->text == "lex/1");
  CHECK(b.loop_scope == ScopeMode::Inherit);
  CHECK(b.iter_scope == ScopeMode::Default);
  REQUIRE(w.phases[2].tags);
  CHECK(w.phases[2].tags->text == "type:read");
  for (const PhaseDef* p : {&w.phases[3], &w.phases[4]}) {
    CHECK_FALSE(p->cycles);
    CHECK_FALSE(p->bindings);
    CHECK_FALSE(p->for_each);
    CHECK(p->ops.empty());
    CHECK_FALSE(p->tags);
    CHECK(p->loop_scope == ScopeMode::Default);
  }
  CHECK(w.phases[3].name == "emit");
  CHECK(str(w.phases[3].at) == "22:3");
  CHECK(ignored_keys(w) == std::vector<std::string>{"phases.a.rate", "phases.a.concurrency"});
}

TEST_CASE("scenarios: phases and loops nested") {
  const std::string text = lines({
      "phases:",                         // 1
      "  p1: {ops: {o: x}}",             // 2
      "  p2:",                           // 3
      "scenarios:",                      // 4
      "  s:",                            // 5
      "    - p1",                        // 6
      "    - for_each: \"i in 1,2\"",    // 7
      "      loop_scope: inherit",       // 8
      "      phases:",                   // 9
      "        - p2",                    // 10
      "        - for: \"j in a\"",       // 11
      "          iter_scope: clean",     // 12
      "          phases: [p1]",          // 13
      "    - do_while: \"{i} < 3\"",     // 14
      "      counter: i",                // 15
      "      phases:",                   // 16
      "        - p1",                    // 17
      "    - do_until: done",            // 18
      "      phases: []",                // 19
      "  empty:",                        // 20
  });
  const Workload w = load(text);
  REQUIRE(w.scenarios.size() == 2);
  const Scenario& s = w.scenarios[0];
  REQUIRE(s.steps.size() == 4);
  CHECK(s.steps[0].kind == Step::Kind::Phase);
  CHECK(s.steps[0].phase == "p1");
  CHECK(str(s.steps[0].at) == "6:7");

  const Step& fe = s.steps[1];
  CHECK(fe.kind == Step::Kind::ForEach);
  CHECK(str(fe.at) == "7:7");
  REQUIRE(fe.loop.entries.size() == 1);
  CHECK(fe.loop.entries[0].text == "i in 1,2");
  CHECK(str(fe.loop.entries[0].at) == "7:17");
  CHECK(str(fe.loop.entries[0].content) == "7:18");
  CHECK(fe.loop.entries[0].key == "scenarios.s[1].for_each");
  CHECK(fe.loop_scope == ScopeMode::Inherit);
  CHECK(fe.iter_scope == ScopeMode::Default);
  CHECK_FALSE(fe.counter);
  REQUIRE(fe.body.size() == 2);
  CHECK(fe.body[0].phase == "p2");
  CHECK(str(fe.body[0].at) == "10:11");
  const Step& inner = fe.body[1];
  CHECK(inner.kind == Step::Kind::ForEach);
  CHECK(str(inner.at) == "11:11");
  CHECK(inner.loop.entries[0].text == "j in a");
  CHECK(inner.loop.entries[0].key == "scenarios.s[1].phases[1].for");
  CHECK(inner.iter_scope == ScopeMode::Clean);
  REQUIRE(inner.body.size() == 1);
  CHECK(inner.body[0].phase == "p1");
  CHECK(str(inner.body[0].at) == "13:20");

  const Step& dw = s.steps[2];
  CHECK(dw.kind == Step::Kind::DoWhile);
  CHECK(dw.spec.text == "{i} < 3");
  REQUIRE(dw.counter);
  CHECK(*dw.counter == "i");
  REQUIRE(dw.body.size() == 1);
  CHECK(str(dw.body[0].at) == "17:11");

  const Step& du = s.steps[3];
  CHECK(du.kind == Step::Kind::DoUntil);
  CHECK(du.spec.text == "done");
  CHECK(str(du.spec.content) == "18:17");
  CHECK_FALSE(du.counter);
  CHECK(du.body.empty());

  CHECK(w.scenarios[1].name == "empty");
  CHECK(w.scenarios[1].steps.empty());
}

TEST_CASE("errors: each kind at its place, with its key") {
  struct Case {
    const char* name;
    std::string text;
    std::string kind;
    std::string at;
    std::string key;
    std::string first;  // the rendered form's first line
  };
  const std::vector<Case> cases = {
      {"yaml syntax", lines({"ops: x", "  bad: 1"}), "yaml-syntax", "2:6", "",
       "w.yaml:2:6: error: invalid YAML: illegal map value [yaml-syntax]"},
      // yaml-cpp would drop the NUL from the block's text (the fuzzer found it); nb-rs's YAML parser refuses it.
      {"a control character", std::string("ops: x\nbindings: |\n  a\0b\n", 25), "yaml-syntax", "3:4", "",
       "w.yaml:3:4: error: invalid YAML: the control character 0x00 is not allowed in a YAML file [yaml-syntax]"},
      {"a second document", lines({"ops: x", "---", "ops: y"}), "yaml-syntax", "2:1", "",
       "w.yaml:2:1: error: a workload file holds one YAML document; another begins here [yaml-syntax]"},
      {"the file is a list", lines({"- a", "- b"}), "not-a-map", "1:1", "",
       "w.yaml:1:1: error: a workload file is a map of description, params, bindings, ops, blocks, phases, scenarios, "
       "not a list [not-a-map]"},
      {"a phase that is a list", lines({"ops: x", "phases:", "  p: [1]"}), "not-a-map", "3:6", "phases.p",
       "w.yaml:3:6: error: phase 'p' is a map (KEY: VALUE lines), not a list (at phases.p) [not-a-map]"},
      {"params as a list", lines({"ops: x", "params: [a]"}), "not-a-map", "2:9", "params", ""},
      {"a block that is a list", lines({"blocks:", "  b: [x]"}), "not-a-map", "2:6", "blocks.b", ""},
      {"an op that is a list", lines({"ops:", "  o: [a]"}), "not-a-map", "2:6", "ops.o", ""},
      {"an op item that is a list", lines({"ops:", "  - [a]"}), "not-a-map", "2:5", "ops[0]", ""},
      {"a scenario that is a map", lines({"phases:", "  p:", "scenarios:", "  s: {a: b}"}), "not-a-list", "4:6",
       "scenarios.s",
       "w.yaml:4:6: error: scenario 's' is a list (- ITEM lines), not a map (at scenarios.s) [not-a-list]"},
      {"a description that is a list", lines({"description: [a]", "ops: x"}), "not-a-scalar", "1:14", "description",
       "w.yaml:1:14: error: 'description' is a scalar, not a list (at description) [not-a-scalar]"},
      {"cycles as a map", lines({"phases:", "  p:", "    cycles: {a: 1}"}), "not-a-scalar", "3:13",
       "phases.p.cycles", ""},
      {"a param that is a map", lines({"ops: x", "params:", "  a: {b: c}"}), "not-a-scalar", "3:6", "params.a", ""},
      {"bindings as a list", lines({"ops: x", "bindings: [a]"}), "not-a-scalar", "2:11", "bindings", ""},
      {"a binding that is a list", lines({"ops: x", "bindings:", "  a: [1]"}), "not-a-scalar", "3:6", "bindings.a",
       ""},
      // nb-rs reads legacy chains in the top-level map only; a step nb-rs would cut apart is refused at its place.
      {"a legacy chain in an op's map", lines({"ops:", "  o:", "    stmt: x", "    bindings:", "      k: Hash(); Mod(7)"}),
       "legacy-chain", "5:10", "ops.o.bindings.k",
       "w.yaml:5:10: error: this is a legacy binding chain (`Hash(); Mod(100)`), which nb-rs reads only in the "
       "workload's top-level bindings map; in an op's, a block's or a phase's map a binding is one GK expression (at "
       "ops.o.bindings.k) [legacy-chain]"},
      {"a call inside a chain step", lines({"ops: x", "bindings:", "  a: Hash(); Mod(hash(3))"}), "legacy-chain", "3:22",
       "bindings.a", ""},
      {"an if that is a map", lines({"ops:", "  o:", "    if: {a: b}"}), "not-a-scalar", "3:9", "ops.o.if", ""},
      {"a key that is a list", lines({"ops: x", "? [a]", ": b"}), "not-a-scalar", "2:3", "", ""},
      {"a step that is a list", lines({"phases:", "  p:", "scenarios:", "  s:", "    - [p]"}), "not-a-scalar", "5:7",
       "scenarios.s[0]", ""},
      {"a for_each clause that is empty", lines({"phases:", "  p:", "scenarios:", "  s:", "    - for_each:",
                                                 "      phases: [p]"}),
       "not-a-scalar", "5:7", "scenarios.s[0].for_each", ""},
      {"an op's tag that is a list", lines({"ops:", "  o:", "    stmt: x", "    tags: {a: [1]}"}), "not-a-scalar", "4:15",
       "ops.o.tags.a", ""},
      {"loop_scope", lines({"ops: x", "phases:", "  p:", "    loop_scope: fresh"}), "bad-value", "4:17",
       "phases.p.loop_scope",
       "w.yaml:4:17: error: 'loop_scope' is clean or inherit, not 'fresh' (at phases.p.loop_scope) [bad-value]"},
      {"iter_scope in a step", lines({"phases:", "  p:", "scenarios:", "  s:", "    - for: x",
                                      "      iter_scope: \"Clean\"", "      phases: [p]"}),
       "bad-value", "6:19", "scenarios.s[0].iter_scope", ""},
      {"a key given twice", lines({"ops: x", "phases:", "  p:", "    cycles: 1", "    cycles: 2"}), "duplicate-key",
       "5:5", "phases.p.cycles",
       "w.yaml:5:5: error: 'cycles' is given twice in phase 'p' (first on line 4) (at phases.p.cycles) "
       "[duplicate-key]"},
      {"for and for_each in a phase", lines({"ops: x", "phases:", "  p:", "    for: a", "    for_each: b"}),
       "duplicate-key", "5:5", "phases.p.for_each", ""},
      {"for and for_each in a step", lines({"phases:", "  p:", "scenarios:", "  s:", "    - for_each: a",
                                            "      for: b", "      phases: [p]"}),
       "duplicate-key", "6:7", "scenarios.s[0].for", ""},
      {"a step naming no phase", lines({"phases:", "  rampup:", "scenarios:", "  s:", "    - rampu"}),
       "unknown-phase", "5:7", "scenarios.s[0]",
       "w.yaml:5:7: error: unknown phase 'rampu'; did you mean 'rampup'? (at scenarios.s[0]) [unknown-phase]"},
      {"a nested step naming no phase", lines({"phases:", "  main:", "scenarios:", "  s:", "    - main",
                                               "    - do_while: x", "      phases:", "        - main",
                                               "        - zzz"}),
       "unknown-phase", "9:11", "scenarios.s[1].phases[1]",
       "w.yaml:9:11: error: unknown phase 'zzz' (at scenarios.s[1].phases[1]) [unknown-phase]"},
      {"no phases at all", lines({"ops: x", "scenarios:", "  s: [p]"}), "unknown-phase", "3:7", "scenarios.s[0]",
       "w.yaml:3:7: error: unknown phase 'p'; the workload defines no phases (at scenarios.s[0]) [unknown-phase]"},
      {"an unknown step key", lines({"phases:", "  p:", "scenarios:", "  s:", "    - phaze: p"}), "unknown-key", "5:7",
       "scenarios.s[0].phaze",
       "w.yaml:5:7: error: 'phaze' is not a scenario step; a step is a phase's name or a map with one of for_each, "
       "for, for_combinations, do_while, do_until, scenario, scenarios, set, bindings, phase; did you mean 'phase'? "
       "(at scenarios.s[0].phaze) [unknown-key]"},
      {"an unknown key in a phase", lines({"phases:", "  p:", "    bindngs: |", "      x := 1"}), "unknown-key", "3:5",
       "phases.p.bindngs",
       "w.yaml:3:5: error: 'bindngs' is not a key of phase 'p'; did you mean 'bindings'? (at phases.p.bindngs) "
       "[unknown-key]"},
      {"an unknown top-level key", lines({"ops: x", "senarios: {}"}), "unknown-key", "2:1", "senarios", ""},
      {"an unknown key in a block", lines({"blocks:", "  b:", "    opz: x"}), "unknown-key", "3:5", "blocks.b.opz", ""},
      {"a removed key", lines({"ops: x", "summary: {}"}), "removed-key", "2:1", "summary", ""},
      {"an adapter other than stdout", lines({"ops: x", "adapter: cql"}), "unsupported-adapter", "2:10", "adapter", ""},
      {"a phase's adapter", lines({"phases:", "  p:", "    adapter: http", "    ops: x"}), "unsupported-adapter", "3:14",
       "phases.p.adapter", ""},
      {"an op field that is a list", lines({"ops:", "  o:", "    stmt: x", "    args: [a]"}), "unsupported-field",
       "4:11", "ops.o.args", ""},
      {"top-level ops beside blocks", lines({"ops: x", "blocks:", "  b: {ops: y}"}), "conflicting-keys", "1:1", "ops",
       ""},
      {"an include of no scenario", lines({"phases:", "  p:", "scenarios:", "  s:", "    - scenario: t"}),
       "unknown-scenario", "5:7", "scenarios.s[0]", ""},
      {"an include cycle", lines({"phases:", "  p:", "scenarios:", "  a: [{scenario: b}]", "  b: [p, {scenario: a}]"}),
       "include-cycle", "5:10", "scenarios.b[1]",
       "w.yaml:5:10: error: scenario 'a' includes itself: a -> b -> a (at scenarios.b[1]) [include-cycle]"},
      {"set: as text without =", lines({"phases:", "  p:", "scenarios:", "  s:", "    - set: mode", "      phases: [p]"}),
       "bad-value", "5:12", "scenarios.s[0].set", ""},
      {"a set and a loop in one step", lines({"phases:", "  p:", "scenarios:", "  s:", "    - set: {a: 1}",
                                               "      for: x in 1", "      phases: [p]"}),
       "conflicting-keys", "6:7", "scenarios.s[0].for", ""},
      {"a phase step with another key", lines({"phases:", "  p:", "scenarios:", "  s:", "    - phase: p",
                                                "      phases: [p]"}),
       "unknown-key", "6:7", "scenarios.s[0].phases", ""},
      {"a counter on a for_each", lines({"phases:", "  p:", "scenarios:", "  s:", "    - for_each: x",
                                         "      counter: i", "      phases: [p]"}),
       "unknown-key", "6:7", "scenarios.s[0].counter", ""},
      {"a step with no loop", lines({"phases:", "  p:", "scenarios:", "  s:", "    - phases: [p]"}), "missing-key",
       "5:7", "scenarios.s[0]", ""},
      {"a tag filter that is a list", lines({"phases:", "  p:", "    tags: [a]"}), "not-a-scalar", "3:11", "phases.p.tags",
       ""},
      {"a loop without phases", lines({"phases:", "  p:", "scenarios:", "  s:", "    - do_until: x",
                                       "      counter: n"}),
       "missing-key", "5:7", "scenarios.s[0]",
       "w.yaml:5:7: error: a do_until step needs phases: the steps it runs (at scenarios.s[0]) [missing-key]"},
      {"two loops in a step", lines({"phases:", "  p:", "scenarios:", "  s:", "    - for_each: x",
                                     "      do_while: y", "      phases: [p]"}),
       "conflicting-keys", "6:7", "scenarios.s[0].do_while", ""},
      {"an empty file", "", "empty-workload", "1:1", "", ""},
      {"comments only", "# nothing\n", "empty-workload", "1:1", "", ""},
      {"nothing to run", lines({"description: d", "params: {a: 1}"}), "empty-workload", "1:1", "",
       "w.yaml:1:1: error: the workload defines no ops and no phases: there is nothing to run [empty-workload]"},
  };
  for (const Case& c : cases) {
    INFO(std::string(c.name));
    const LoadError e = error_of(c.text);
    CAPTURE(e.rendered);
    CHECK(e.path == "w.yaml");
    CHECK(e.kind == c.kind);
    if (!c.at.empty()) CHECK(str(e.at) == c.at);
    CHECK(e.key == c.key);
    if (!c.first.empty()) CHECK(first_line(e.rendered) == c.first);
    // The rendered form: "PATH:LINE:COL: error: MESSAGE (at KEY) [KIND]".
    const std::string head = "w.yaml:" + str(e.at) + ": error: " + e.message +
                             (e.key.empty() ? "" : " (at " + e.key + ")") + " [" + e.kind + "]";
    CHECK(first_line(e.rendered) == head);
  }
}

TEST_CASE("yaml syntax errors are located") {
  const LoadError e = error_of(lines({"ops:", "  a: [1, 2", "phases:"}));
  CHECK(e.kind == "yaml-syntax");
  CHECK(e.key.empty());
  CHECK(e.at.line >= 2);
  CHECK(e.message.rfind("invalid YAML: ", 0) == 0);
  const LoadError tab = error_of("ops:\n\ta: 1\n");
  CHECK(tab.kind == "yaml-syntax");
}

TEST_CASE("duplicate keys, in every map") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {lines({"ops: x", "ops: y"}), "2:1 ops"},
      {lines({"ops: x", "params:", "  a: 1", "  a: 2"}), "4:3 params.a"},
      {lines({"ops:", "  o: x", "  o: y"}), "3:3 ops.o"},
      {lines({"ops:", "  o:", "    stmt: x", "    stmt: y"}), "4:5 ops.o.stmt"},
      {lines({"ops:", "  - name: a", "    name: b"}), "3:5 ops[0].name"},
      {lines({"ops: x", "bindings:", "  a: 1", "  a: 2"}), "4:3 bindings.a"},
      {lines({"blocks:", "  b: {ops: x}", "  b: {ops: y}"}), "3:3 blocks.b"},
      {lines({"blocks:", "  b:", "    ops: x", "    ops: y"}), "4:5 blocks.b.ops"},
      {lines({"phases:", "  p:", "  p:"}), "3:3 phases.p"},
      {lines({"ops:", "  o:", "    tags: {a: 1, a: 2}"}), "3:18 ops.o.tags.a"},
      {lines({"phases:", "  p:", "scenarios:", "  s: [p]", "  s: [p]"}), "5:3 scenarios.s"},
      {lines({"phases:", "  p:", "scenarios:", "  s:", "    - do_while: x", "      phases: [p]", "      phases: [p]"}),
       "7:7 scenarios.s[0].phases"},
  };
  for (const auto& [text, expected] : cases) {
    CAPTURE(text);
    const LoadError e = error_of(text);
    CHECK(e.kind == "duplicate-key");
    CHECK(str(e.at) + " " + e.key == expected);
  }
}

TEST_CASE("deep nesting is refused") {
  // 64 levels of loops load; 65 do not.
  auto nested = [](int levels) {
    std::string text = "phases:\n  p:\nscenarios:\n  s:\n";
    std::string indent = "    ";
    for (int i = 1; i < levels; ++i) {
      text += indent + "- for: x\n" + indent + "  phases:\n";
      indent += "    ";
    }
    return text + indent + "- p\n";
  };
  CHECK(parse_workload_text(nested(64), "w.yaml").ok());
  const LoadError e = error_of(nested(65));
  CHECK(e.kind == "nesting-too-deep");
  CHECK(e.at.line == 4 + 2 * 64 + 1);  // the 65th level's step
  CHECK(e.key.rfind("scenarios.s[0].phases[0]", 0) == 0);
  // An anchor used inside itself: yaml-cpp builds a cycle; the walk stops at the cap.
  const LoadError cycle = error_of(lines({"phases:", "  p:", "scenarios:", "  s: &s", "    - for: x", "      phases: *s"}));
  CHECK(cycle.kind == "nesting-too-deep");
  CHECK(str(cycle.at) == "5:7");
  // Aliases repeating a list: the walk's budget stops it before it runs for ages.
  // (The anchors sit under `report:`, a key nb-rs has that this loader notes and does not walk.)
  std::string text = "phases:\n  p:\nreport:\n  x0: &x0 [p, p, p, p, p, p, p, p]\n";
  for (int i = 1; i <= 8; ++i) {
    text += "  x" + std::to_string(i) + ": &x" + std::to_string(i) + " [";
    for (int j = 0; j < 8; ++j) text += std::string(j ? ", " : "") + "{for: x, phases: *x" + std::to_string(i - 1) + "}";
    text += "]\n";
  }
  text += "scenarios:\n  s: *x8\n";
  const LoadError big = error_of(text);
  CHECK(big.kind == "too-large");
  // An alias repeating a long scalar: each use copies its text; the text budget stops it (a 1 MB
  // file asking for 100 MB).
  std::string bomb = "description: &s \"" + std::string(1 << 20, 'x') + "\"\nops: [";
  for (int i = 0; i < 100; ++i) bomb += std::string(i ? ", " : "") + "*s";
  bomb += "]\n";
  const LoadError bytes = error_of(bomb);
  CHECK(bytes.kind == "too-large");
  CHECK(bytes.message.find("MB of text") != std::string::npos);
}

TEST_CASE("noted keys: each key path once, in file order") {
  const std::string text = lines({
      "rate: 1",                    // 1
      "ops:",                       // 2
      "  - a: {delay: 1}",          // 3
      "  - a: {delay: 2}",          // 4
      "report: {x: y}",             // 5
      "phases:",                    // 6
      "  p:",                       // 7
      "    concurrency: 4",         // 8
      "    adapter: stdout",        // 9
  });
  const Workload w = load(text);
  CHECK(ignored_keys(w) == std::vector<std::string>{"rate", "ops.a.delay", "report", "phases.p.concurrency"});
  CHECK(str(w.ignored[1].at) == "3:9");
  // A noted key changes nothing.
  const Workload plain = load(lines({"ops:", "  - a: {}", "  - a: {}", "phases:", "  p:"}));
  CHECK(names(plain.ops) == names(w.ops));
  CHECK(plain.phases.size() == w.phases.size());
}

TEST_CASE("params keep their text") {
  const Workload w = load(lines({"ops: x", "params:", "  a: 010", "  b: true", "  c: 1.50", "  d:", "  e: \"\""}));
  REQUIRE(w.params.size() == 5);
  CHECK(w.params[0].second.text == "010");
  CHECK(w.params[1].second.text == "true");
  CHECK(w.params[2].second.text == "1.50");
  CHECK(w.params[3].second.text.empty());
  CHECK(str(w.params[3].second.at) == "6:3");
  CHECK(w.params[4].second.text.empty());
}

TEST_CASE("the rendered form: the line and a caret") {
  const LoadError e = error_of(lines({"ops: x", "phases:", "  p:", "    loop_scope: fresh"}));
  CHECK(e.rendered ==
        "w.yaml:4:17: error: 'loop_scope' is clean or inherit, not 'fresh' (at phases.p.loop_scope) [bad-value]\n"
        "      loop_scope: fresh\n"
        "                  ^\n");
  // Directly: tabs shown as one space, control bytes escaped, no key, a line past the end.
  CHECK(render_workload_error("f.yaml", "a:\tb\x01" "c\n", Mark{1, 6}, "m", "k") ==
        "f.yaml:1:6: error: m [k]\n  a: b\\x01c\n          ^\n");
  CHECK(render_workload_error("f.yaml", "a\n", Mark{7, 1}, "m", "k") == "f.yaml:7:1: error: m [k]\n");
  CHECK(render_workload_error("f.yaml", "", Mark{1, 1}, "m", "io") == "f.yaml:1:1: error: m [io]\n");
  // A long line is cut around the caret.
  const std::string long_line = std::string(300, 'a') + "X" + std::string(300, 'b');
  const std::string r = render_workload_error("f.yaml", long_line, Mark{1, 301}, "m", "k");
  const std::string shown = r.substr(r.find('\n') + 1);
  const std::string source = shown.substr(0, shown.find('\n'));
  const std::string caret = shown.substr(shown.find('\n') + 1);
  CHECK(source.size() == 2 + 160);
  CHECK(source[caret.find('^')] == 'X');
}

TEST_CASE("files: read, missing, a directory") {
  const auto dir = std::filesystem::temp_directory_path() / ("polydat_workload_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / "w.yaml";
  {
    std::ofstream out(file);
    out << "ops:\n  a: x\n";
  }
  auto ok = load_workload_file(file);
  REQUIRE(ok.ok());
  CHECK(ok->path == file.string());
  CHECK(ok->ops.size() == 1);
  auto missing = load_workload_file(dir / "nope.yaml");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().kind == "io");
  CHECK(first_line(missing.error().rendered) ==
        (dir / "nope.yaml").string() + ":1:1: error: cannot read the workload file: no such file [io]");
  auto directory = load_workload_file(dir);
  REQUIRE_FALSE(directory.ok());
  CHECK(directory.error().kind == "io");
  std::filesystem::remove_all(dir);
}

TEST_CASE("inputs that must be errors, not crashes") {
  for (const std::string& text :
       {std::string("\0\0\0", 3), std::string("]"), std::string(","), std::string("{"), std::string("- ["),
        std::string("a: &a\n  b: *a\n"), std::string("*x"), std::string("ops: !!binary AAAA\n"),
        std::string("\xef\xbb\xbfops: x\nphases:\n  p: {loop_scope: 1}\n"), std::string(5000, '['),
        std::string("ops:\n  - name:\n"), std::string("? \n: x\n")}) {
    CAPTURE(text.substr(0, 40));
    auto r = parse_workload_text(text, "w.yaml");
    if (!r) {
      CHECK(r.error().rendered.rfind("w.yaml:", 0) == 0);
      CHECK(r.error().at.line >= 1);
      CHECK_FALSE(r.error().kind.empty());
    }
  }
  // A byte-order mark does not shift columns on line 1 of the text.
  const LoadError bom = error_of("\xef\xbb\xbf" "description: [a]\nops: x\n");
  CHECK(str(bom.at) == "1:17");
}

// nb-rs's own examples: read from the mirror (a bare git repository) when it is there.
namespace {
std::string nbrs_example(const std::string& name) {
  const char* env = std::getenv("NBRS_REPO");
  const std::string repo = env ? env : "/work/.mirror/nosqlbench+nb-rs/repo";
  const std::filesystem::path checked_out = std::filesystem::path(repo) / "examples/workloads" / name;
  if (std::filesystem::is_regular_file(checked_out)) {
    std::ifstream in(checked_out);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  if (!std::filesystem::is_directory(repo)) return "";
  const std::string command = "git -C '" + repo + "' show 'HEAD:examples/workloads/" + name + "' 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return "";
  std::string out;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  if (::pclose(pipe) != 0) return "";
  return out;
}

std::vector<Step::Kind> kinds(const std::vector<Step>& steps) {
  std::vector<Step::Kind> out;
  for (const Step& s : steps) out.push_back(s.kind);
  return out;
}

std::vector<std::string> phase_names(const Workload& w) {
  std::vector<std::string> out;
  for (const PhaseDef& p : w.phases) out.push_back(p.name);
  return out;
}

std::vector<std::string> scenario_names(const Workload& w) {
  std::vector<std::string> out;
  for (const Scenario& s : w.scenarios) out.push_back(s.name);
  return out;
}
}  // namespace

TEST_CASE("nb-rs examples: scope_coverage.yaml") {
  const std::string text = nbrs_example("scope_coverage.yaml");
  if (text.empty()) {
    MESSAGE("skipped: nb-rs's examples are not at /work/.mirror/nosqlbench+nb-rs/repo (set NBRS_REPO)");
    return;
  }
  const Workload w = load(text);
  REQUIRE(w.description);
  CHECK(w.description->literal_block);
  REQUIRE(w.params.size() == 2);
  CHECK(w.params[0].first == "iter_list");
  CHECK(w.params[0].second.text == "0,1,2");
  CHECK(w.params[1].first == "iter_count");
  CHECK(w.params[1].second.text == "3");
  REQUIRE(w.bindings);
  CHECK(w.bindings->text.rfind("input cycle: u64\n", 0) == 0);
  CHECK(w.bindings->text.find("doubled_count := mul(count_big, 2)") != std::string::npos);
  check_block_maps(text, *w.bindings);
  CHECK(file_line(text, w.bindings->at.line) == "bindings: |");

  CHECK(phase_names(w) == std::vector<std::string>{"emit_shared_types", "emit_const", "emit_derived",
                                                   "emit_in_for_each", "emit_in_do_while", "emit_conditional",
                                                   "emit_multi_cell", "emit_nested"});
  CHECK(w.phases[0].ops.size() == 8);
  CHECK(w.phases[0].cycles->text == "1");
  const PhaseDef* cond = w.find_phase("emit_conditional");
  REQUIRE(cond);
  CHECK(names(cond->ops) == std::vector<std::string>{"gated_on", "gated_off", "always"});
  REQUIRE(cond->ops[0].condition);
  CHECK(cond->ops[0].condition->text == "flag_on");
  CHECK(cond->ops[1].condition->text == "flag_off");
  CHECK_FALSE(cond->ops[2].condition);
  CHECK(field(cond->ops[2], "stmt")->text == "cm/conditional gated=always result=fired");

  CHECK(scenario_names(w) == std::vector<std::string>{"shared_types", "const_modifier", "derived_from_shared",
                                                      "for_each_chain", "nested_for_each", "do_while_chain",
                                                      "conditional_op", "multi_cell", "sequential_phases", "default"});
  const Scenario* nested = w.find_scenario("nested_for_each");
  REQUIRE(nested);
  REQUIRE(nested->steps.size() == 1);
  const Step& outer = nested->steps[0];
  CHECK(outer.kind == Step::Kind::ForEach);
  CHECK(outer.loop.entries[0].text == "outer in a,b,c");
  REQUIRE(outer.body.size() == 1);
  CHECK(outer.body[0].kind == Step::Kind::ForEach);
  CHECK(outer.body[0].loop.entries[0].text == "inner in pre_{outer}");
  REQUIRE(outer.body[0].body.size() == 1);
  CHECK(outer.body[0].body[0].phase == "emit_nested");
  const Scenario* dw = w.find_scenario("do_while_chain");
  REQUIRE(dw);
  REQUIRE(dw->steps.size() == 1);
  CHECK(dw->steps[0].kind == Step::Kind::DoWhile);
  CHECK(dw->steps[0].spec.text == "{i} < {iter_count}");
  CHECK(dw->steps[0].counter == std::optional<std::string>("i"));
  const Scenario* def = w.find_scenario("default");
  REQUIRE(def);
  using K = Step::Kind;
  CHECK(kinds(def->steps) == std::vector<K>{K::Phase, K::Phase, K::Phase, K::ForEach, K::DoWhile, K::Phase, K::Phase});
  CHECK(w.find_scenario("sequential_phases")->steps.size() == 3);
  // concurrency: once per phase, nothing else ignored.
  CHECK(w.ignored.size() == 8);
  for (const IgnoredKey& k : w.ignored) CHECK(k.key.find(".concurrency") != std::string::npos);
}

TEST_CASE("nb-rs examples: shared_cells.yaml") {
  const std::string text = nbrs_example("shared_cells.yaml");
  if (text.empty()) {
    MESSAGE("skipped: nb-rs's examples are not at /work/.mirror/nosqlbench+nb-rs/repo (set NBRS_REPO)");
    return;
  }
  const Workload w = load(text);
  REQUIRE(w.params.size() == 1);
  CHECK(w.params[0].second.text == "3");
  REQUIRE(w.bindings);
  check_block_maps(text, *w.bindings);
  CHECK(phase_names(w) == std::vector<std::string>{"emit_shared", "emit_iter", "emit_typed"});
  CHECK(w.find_phase("emit_shared")->cycles->text == "3");
  CHECK(w.find_phase("emit_typed")->ops.size() == 4);
  CHECK(scenario_names(w) == std::vector<std::string>{"basic", "loop", "mixed_types", "default"});
  const Scenario* loop = w.find_scenario("loop");
  REQUIRE(loop);
  REQUIRE(loop->steps.size() == 1);
  CHECK(loop->steps[0].kind == Step::Kind::DoWhile);
  CHECK(loop->steps[0].spec.text == "{i} < {iterations}");
  CHECK(loop->steps[0].counter == std::optional<std::string>("i"));
  REQUIRE(loop->steps[0].body.size() == 1);
  CHECK(loop->steps[0].body[0].phase == "emit_iter");
  const Scenario* def = w.find_scenario("default");
  REQUIRE(def);
  using K = Step::Kind;
  CHECK(kinds(def->steps) == std::vector<K>{K::Phase, K::DoWhile, K::Phase});
  CHECK(def->steps[0].phase == "emit_shared");
  CHECK(def->steps[2].phase == "emit_typed");
  // The step's mark is on its own line of the file.
  CHECK(file_line(text, def->steps[1].at.line).find("- do_while:") != std::string::npos);
}

TEST_CASE("nb-rs examples: getting_started/basic_workload.yaml") {
  const std::string text = nbrs_example("getting_started/basic_workload.yaml");
  if (text.empty()) {
    MESSAGE("skipped: nb-rs's examples are not at /work/.mirror/nosqlbench+nb-rs/repo (set NBRS_REPO)");
    return;
  }
  const Workload w = load(text);
  REQUIRE(w.bindings);
  // The top-level map's values are nb-rs's legacy chains (frontend/legacy_chain.h), with nb-rs's step names.
  CHECK(w.bindings->text ==
        "__chain_user_id_0 := hash(cycle); user_id := mod(__chain_user_id_0, 1000000)\nseq := identity(cycle)\n");
  CHECK(names(w.ops) == std::vector<std::string>{"create_table", "write", "read"});
  REQUIRE(w.ops[1].ratio);
  CHECK(w.ops[1].ratio->text == "3");
  CHECK(ignored_keys(w).empty());
}

}  // TEST_SUITE

// A block line of spaces and tabs: the tabs past the indentation are text, so the block's column is
// found on that line (fuzz-workload found column 1 given for `|2`, the line taken for blank).
TEST_CASE("fields: a literal block whose only line is spaces and tabs keeps its column") {
  const std::string text = "ops: x\nbindings: |2\n     \t\t\n";
  const Workload w = load(text);
  REQUIRE(w.bindings);
  CHECK(w.bindings->text == "   \t\t\n");
  CHECK(w.bindings->literal_block);
  CHECK(str(w.bindings->content) == "3:3");
  check_block_maps(text, *w.bindings);
}
