// The stdout formats (workload/render.h) against nb-rs's vectors: the tests
// of adapters/stdout/src/lib.rs (each format's text, cited by test name),
// nbrs-activity/tests/stdout_e2e.rs's full_pipeline_json_format, and for
// JSON numbers the tests of serde_json's float writer (dtolnay/zmij
// tests/test.rs, dtoa_test). Layout boundaries and the rest are derived by
// hand from those sources' rules, written out in render.h.
//
// Faults planted to see these tests fail (each restored afterwards):
//   - the JSON float's plain range cut from below 1e16 to below 1e15 (`e <=
//     14`): "json numbers as serde_json writes them" fails (1e15 and
//     9999999999999998.0 come out as "1e+15", "9.999999999999998e+15");
//   - csv quoting a value for a lone '\r' too (RFC 4180, not nb-rs's
//     csv_escape): "format_csv_escapes_commas" fails.
#include <doctest/doctest.h>

#include <limits>
#include <map>
#include <string>
#include <vector>

#include "workload/op_template.h"
#include "workload/render.h"

using namespace polydat;
using namespace polydat::workload;

namespace {

// An op of (name, template text) fields, parsed as the runner parses them.
PreparedOp op_of(const std::vector<std::pair<std::string, std::string>>& fields) {
  std::vector<InlineBinding> inlines;
  PreparedOp op;
  for (const auto& [name, text] : fields) {
    Field f;
    f.text = text;
    f.key = name;
    auto t = parse_template(f, "__inline_", inlines);
    REQUIRE(t);
    op.fields.emplace_back(name, *t);
  }
  return op;
}

using Values = std::map<std::string, ir::Value>;

std::string line(const PreparedOp& op, const RenderOptions& o, const Values& values = {}) {
  std::string out;
  auto st = render_op_line(
      op, o,
      [&](const std::string& name) -> ir::Expected<ir::Value, std::string> {
        auto it = values.find(name);
        if (it == values.end()) return "no value for " + name;
        return it->second;
      },
      out);
  REQUIRE_MESSAGE(st, (st ? "" : st.error()));
  return out;
}

RenderOptions with(const RenderSettings& s) {
  auto o = render_options(s);
  REQUIRE_MESSAGE(o, (o ? "" : o.error().message));
  return *o;
}

RenderOptions format(const char* name) {
  RenderSettings s;
  s.format = name;
  return with(s);
}

// nb-rs's typed_fields(): name alice, age 30, score 3.14, each one bind point.
PreparedOp typed_op() { return op_of({{"name", "{name}"}, {"age", "{age}"}, {"score", "{score}"}}); }
Values typed_values() {
  return {{"name", ir::Value::str("alice")}, {"age", ir::Value::integer(ir::TyKind::U64, 30)}, {"score", ir::Value::f64(3.14)}};
}

std::string json_of(double d) {
  std::string s;
  json_float(s, d);
  return s;
}

}  // namespace

TEST_CASE("format_statement_prefers_stmt_field, format_statement_falls_back_to_raw") {
  CHECK(line(op_of({{"stmt", "SELECT 1"}, {"other", "ignored"}}), format("stmt")) == "SELECT 1\n");
  CHECK(line(op_of({{"raw", "CREATE TABLE t"}}), format("stmt")) == "CREATE TABLE t\n");
  CHECK(line(op_of({{"a", "x"}, {"prepared", "P"}, {"raw", "R"}}), format("statement")) == "R\n");
  // No stmt, raw or prepared: every field's text, one per line.
  CHECK(line(op_of({{"method", "POST"}, {"url", "/u"}}), format("stmt")) == "POST\n/u\n");
}

TEST_CASE("format_readout_aligned") {
  const PreparedOp op = op_of({{"name", "alice"}, {"age", "30"}, {"x", "1"}});
  CHECK(line(op, format("readout")) == "  name = alice\n  age  = 30\n  x    = 1\n");
}

TEST_CASE("format_assignments") {
  CHECK(line(op_of({{"a", "1"}, {"b", "2"}}), format("assignments")) == "a=1, b=2\n");
  CHECK(line(op_of({{"a", "1"}, {"b", "2"}}), format("assign")) == "a=1, b=2\n");
}

TEST_CASE("format_json_typed_values, and full_pipeline_json_format's literal fields") {
  CHECK(line(typed_op(), format("json"), typed_values()) == "{\"name\":\"alice\",\"age\":30,\"score\":3.14}\n");
  for (const char* alias : {"jsonl", "inlinejson", "JSON"})
    CHECK(line(typed_op(), format(alias), typed_values()) == "{\"name\":\"alice\",\"age\":30,\"score\":3.14}\n");
  const PreparedOp create = op_of({{"method", "POST"}, {"url", "/api/users/{user_id}"}});
  const std::string j = line(create, format("json"), {{"user_id", ir::Value::integer(ir::TyKind::U64, 42)}});
  CHECK(j == "{\"method\":\"POST\",\"url\":\"/api/users/42\"}\n");
}

TEST_CASE("format_csv_escapes_commas, and csv quoting as nb-rs's csv_escape") {
  CHECK(line(op_of({{"a", "hello, world"}, {"b", "plain"}}), format("csv")) == "\"hello, world\",plain\n");
  CHECK(line(op_of({{"a", "say \"hi\""}, {"b", "two\nlines"}}), format("csv")) == "\"say \"\"hi\"\"\",\"two\nlines\"\n");
  CHECK(line(op_of({{"a", "cr\rhere"}}), format("csv")) == "cr\rhere\n");  // a lone CR is not a reason to quote
}

TEST_CASE("format_tsv, format_raw_custom_separator") {
  CHECK(line(op_of({{"a", "1"}, {"b", "2"}}), format("tsv")) == "1\t2\n");
  CHECK(line(op_of({{"a", "x\ty"}, {"b", "q\""}}), format("tsv")) == "x\\ty\tq\"\n");
  RenderSettings raw;
  raw.format = "raw";
  raw.separator = "|";
  CHECK(line(op_of({{"a", "1"}, {"b", "2"}, {"c", "3"}}), with(raw)) == "1|2|3\n");
  CHECK(line(op_of({{"a", "1,"}, {"b", "\"2\""}}), format("raw")) == "1,,\"2\"\n");  // the default separator, nothing escaped
  raw.separator = "";
  CHECK(line(op_of({{"a", "1"}, {"b", "2"}}), with(raw)) == "12\n");
}

TEST_CASE("format_csv_header, and dispenser_csv_with_header's two rows") {
  RenderSettings s;
  s.format = "csv";
  s.header = "true";
  const RenderOptions csv = with(s);
  const PreparedOp op = op_of({{"name", "{name}"}, {"age", "{age}"}});
  std::string out;
  render_header(op, csv, out);
  CHECK(out == "name,age\n");
  out += line(op, csv, {{"name", ir::Value::str("alice")}, {"age", ir::Value::str("30")}});
  out += line(op, csv, {{"name", ir::Value::str("bob")}, {"age", ir::Value::str("25")}});
  CHECK(out == "name,age\nalice,30\nbob,25\n");
}

TEST_CASE("header rows: tsv and raw join the names as their lines do; names are not quoted") {
  const PreparedOp op = op_of({{"a,b", "1"}, {"c", "2"}});
  for (auto [fmt, want] : {std::pair{"tsv", "a,b\tc\n"}, std::pair{"csv", "a,b,c\n"}}) {
    RenderSettings s;
    s.format = fmt;
    s.header = "yes";
    std::string out;
    render_header(op, with(s), out);
    CHECK(out == want);
  }
  RenderSettings raw;
  raw.format = "raw";
  raw.separator = " | ";
  raw.header = "1";
  std::string out;
  render_header(op, with(raw), out);
  CHECK(out == "a,b | c\n");
  // header off, or an op that shows no field: no row.
  raw.header = "false";
  out.clear();
  render_header(op, with(raw), out);
  CHECK(out.empty());
  raw.header = "true";
  raw.fields = "zzz";
  render_header(op, with(raw), out);
  CHECK(out.empty());
}

TEST_CASE("fields= keeps the named fields in the op's order, for every format") {
  RenderSettings s;
  s.fields = "b, a";
  s.format = "assignments";
  const PreparedOp op = op_of({{"a", "1"}, {"b", "2"}, {"c", "3"}});
  CHECK(line(op, with(s)) == "a=1, b=2\n");
  s.format = "json";
  CHECK(line(op, with(s)) == "{\"a\":\"1\",\"b\":\"2\"}\n");
  // stmt picks among the kept fields only.
  s.format = "stmt";
  s.fields = "a,c";
  CHECK(line(op_of({{"stmt", "S"}, {"a", "1"}, {"c", "3"}}), with(s)) == "1\n3\n");
  // A name no op has is the runner's to refuse: unknown_field finds it.
  s.fields = "a,nope";
  CHECK(unknown_field(with(s), {op}) == std::optional<std::string>("nope"));
  s.fields = "c";
  CHECK_FALSE(unknown_field(with(s), {op}));
}

TEST_CASE("json values: nb-rs's types, polydat's other integers as numbers") {
  const PreparedOp op = op_of({{"f", "{f}"}, {"n", "{n}"}, {"b", "{b}"}, {"s", "{s}"}, {"t", "{t}"}, {"x", "x{n}"}});
  const Values v = {{"f", ir::Value::f64(1.0)},
                    {"n", ir::Value::integer(ir::TyKind::I64, static_cast<uint64_t>(-5))},
                    {"b", ir::Value::boolean(true)},
                    {"s", ir::Value::str("q\"\\\b\f\n\r\t\x01/é")},
                    {"t", ir::Value::tuple({ir::Value::integer(ir::TyKind::U64, 1)})}};
  const std::string j = line(op, format("json"), v);
  CHECK(j.rfind("{\"f\":1.0,\"n\":-5,\"b\":true,\"s\":\"q\\\"\\\\\\b\\f\\n\\r\\t\\u0001/é\",\"t\":\"", 0) == 0);
  CHECK(j.ends_with("\",\"x\":\"x-5\"}\n"));
  // A float that is not finite is null in serde_json.
  for (double d : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                   -std::numeric_limits<double>::infinity()})
    CHECK(line(op_of({{"f", "{f}"}}), format("json"), {{"f", ir::Value::f64(d)}}) == "{\"f\":null}\n");
  CHECK(line(op_of({{"f", "{f}"}}), format("json"), {{"f", ir::Value::f32(0.1f)}}) == "{\"f\":0.1}\n");
  // The other formats show a float as nb-rs's text does.
  CHECK(line(op_of({{"f", "{f}"}}), format("csv"), {{"f", ir::Value::f64(1.0)}}) == "1\n");
}

TEST_CASE("json numbers as serde_json writes them") {
  // zmij tests/test.rs, dtoa_test: normal, subnormal, small_int, zero, shorter, single_candidate.
  CHECK(json_of(6.62607015e-34) == "6.62607015e-34");
  CHECK(json_of(5e-324) == "5e-324");
  CHECK(json_of(1e-323) == "1e-323");
  CHECK(json_of(1.2e-322) == "1.2e-322");
  CHECK(json_of(1.234e-320) == "1.234e-320");
  CHECK(json_of(1.0) == "1.0");
  CHECK(json_of(0.0) == "0.0");
  CHECK(json_of(-0.0) == "-0.0");
  CHECK(json_of(-4.932096661796888e-226) == "-4.932096661796888e-226");
  CHECK(json_of(3.439070283483335e+35) == "3.439070283483335e+35");
  CHECK(json_of(6.606854224493745e-17) == "6.606854224493745e-17");
  CHECK(json_of(6.079537928711555e+61) == "6.079537928711555e+61");
  // The layout's edges: plain from 1e-5 up to below 1e16.
  CHECK(json_of(1e15) == "1000000000000000.0");
  CHECK(json_of(9999999999999998.0) == "9999999999999998.0");
  CHECK(json_of(1e16) == "1e+16");
  CHECK(json_of(1.5e16) == "1.5e+16");
  CHECK(json_of(0.00001) == "0.00001");
  CHECK(json_of(0.000015) == "0.000015");
  CHECK(json_of(1e-6) == "1e-6");
  CHECK(json_of(0.5) == "0.5");
  CHECK(json_of(3.14) == "3.14");
  CHECK(json_of(123456.789) == "123456.789");
  CHECK(json_of(-2.5) == "-2.5");
  CHECK(json_of(1.5e300) == "1.5e+300");
  CHECK(json_of(120.0) == "120.0");
}

TEST_CASE("format_parse_all, and the names in messages") {
  const std::pair<const char*, LineFormat> names[] = {
      {"stmt", LineFormat::Stmt},       {"statement", LineFormat::Stmt}, {"readout", LineFormat::Readout},
      {"assignments", LineFormat::Assignments}, {"assign", LineFormat::Assignments}, {"json", LineFormat::Json},
      {"jsonl", LineFormat::Json},      {"inlinejson", LineFormat::Json}, {"csv", LineFormat::Csv},
      {"tsv", LineFormat::Tsv},         {"raw", LineFormat::Raw},        {"CSV", LineFormat::Csv}};
  for (auto [name, f] : names) {
    CAPTURE(name);
    CHECK(parse_line_format(name) == f);
  }
  CHECK_FALSE(parse_line_format("bogus"));
  CHECK(line_format_names() == "stmt (or statement), readout, assignments (or assign), json (or jsonl, inlinejson), csv, tsv, raw");
}

TEST_CASE("options refused where nb-rs falls back or ignores them") {
  auto refused = [](const RenderSettings& s) {
    auto o = render_options(s);
    REQUIRE_FALSE(o);
    return o.error();
  };
  RenderSettings s;
  s.format = "jsn";
  RenderOptionError e = refused(s);
  CHECK(e.option == "format");
  CHECK(e.kind == "unknown-format");
  CHECK(e.message.find("did you mean 'json'?") != std::string::npos);
  CHECK(e.message.find(line_format_names()) != std::string::npos);
  s.format = "csv";
  s.header = "TRUE";  // nb-rs reads it as false
  e = refused(s);
  CHECK(e.option == "header");
  CHECK(e.kind == "bad-value");
  s.format = "json";
  s.header = "true";
  CHECK(refused(s).kind == "not-applicable");
  s.header = "false";
  CHECK(render_options(s));  // header off is fine anywhere
  s.header.reset();
  s.format = "csv";
  s.separator = ";";  // nb-rs's csv joins with ',' whatever separator= says
  e = refused(s);
  CHECK(e.option == "separator");
  CHECK(e.kind == "not-applicable");
  s.separator.reset();
  s.fields = "a,,b";
  e = refused(s);
  CHECK(e.option == "fields");
  CHECK(e.kind == "bad-value");
  // Unset: stmt, ',' and no header, every field.
  const RenderOptions d = with({});
  CHECK(d.format == LineFormat::Stmt);
  CHECK(d.separator == ",");
  CHECK_FALSE(d.header);
  CHECK(d.fields.empty());
}

TEST_CASE("a value's error stops the line; the old LineFormat call renders as before") {
  std::string out;
  auto st = render_op_line(op_of({{"a", "{nope}"}}), format("csv"),
                           [](const std::string& n) -> ir::Expected<ir::Value, std::string> { return "no " + n; }, out);
  REQUIRE_FALSE(st);
  CHECK(st.error() == "no nope");
  out.clear();
  const Values values = typed_values();
  auto ok = render_op_line(typed_op(), LineFormat::Jsonl,
                           [&](const std::string& n) -> ir::Expected<ir::Value, std::string> { return values.at(n); }, out);
  REQUIRE(ok);
  CHECK(out == "{\"name\":\"alice\",\"age\":30,\"score\":3.14}\n");
}
