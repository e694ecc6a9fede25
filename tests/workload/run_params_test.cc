// nb-rs's NAME=VALUE parameters (workload/run_params.h): each acts, is
// noted, or is refused; a typo is "unrecognized parameter" with the nearest
// name, as nb-rs's runner words it (nbrs-activity/src/runner.rs's check of
// KNOWN_PARAMS).
#include <doctest/doctest.h>

#include "workload/model.h"
#include "workload/run_params.h"

using namespace polydat;
using namespace polydat::workload;

namespace {

const Workload& declared() {
  static const Workload w = [] {
    auto r = parse_workload_text("params:\n  users: \"5\"\nops: x\n", "w.yaml");
    REQUIRE(r);
    return *r;
  }();
  return w;
}

struct Resolved {
  RunOptions o;
  ir::Expected<ResolvedParams, std::string> r = ResolvedParams{};
};

Resolved resolve(const std::vector<std::string>& words, ParamUse use = ParamUse::Lines) {
  Resolved out;
  auto pairs = split_assignments(words);
  REQUIRE(pairs);
  out.r = resolve_params(*pairs, declared(), use, out.o);
  return out;
}

}  // namespace

TEST_SUITE("workload") {

TEST_CASE("run params: a typo is refused with nb-rs's words and the nearest known name") {
  const Resolved t = resolve({"cyles=5"});
  REQUIRE_FALSE(t.r);
  CHECK(t.r.error() == "error: unrecognized parameter 'cyles='. Did you mean 'cycles='? [unknown-parameter]");
  // A declared param is a known name too.
  const Resolved u = resolve({"usres=10"});
  REQUIRE_FALSE(u.r);
  CHECK(u.r.error().find("Did you mean 'users='?") != std::string::npos);
  const Resolved far = resolve({"zzzzzzzz=1"});
  REQUIRE_FALSE(far.r);
  CHECK(far.r.error() == "error: unrecognized parameter 'zzzzzzzz=' [unknown-parameter]");
  // threads= is not one of nb-rs's parameters either.
  CHECK_FALSE(resolve({"threads=4"}).r);
}

TEST_CASE("run params: the ones acted on") {
  const Resolved r = resolve({"scenario=main", "cycles=10K", "users=7", "seq=concat", "tags=type:read", "adapter=stdout",
                              "filename=out.txt"});
  REQUIRE(r.r);
  CHECK(r.o.scenario == "main");
  CHECK(r.o.overrides == std::vector<std::pair<std::string, std::string>>{{"cycles", "10K"}, {"users", "7"}});
  CHECK(r.o.sequencer == Sequencer::Concat);
  REQUIRE(r.o.tags);
  CHECK(r.o.tags->matches({{"type", "read"}}));
  CHECK_FALSE(r.o.tags->matches({{"type", "write"}}));
  REQUIRE(r.r->filename);
  CHECK(*r.r->filename == "out.txt");
  CHECK(r.r->notes.empty());
}

TEST_CASE("run params: nb-rs reads its settings from the workload's params too, the command line winning") {
  auto w = parse_workload_text("params:\n  format: csv\n  seq: concat\n  concurrency: \"100\"\nops: x\n", "w.yaml");
  REQUIRE(w);
  RunOptions o;
  auto r = resolve_params({}, *w, ParamUse::Lines, o);
  REQUIRE(r);
  CHECK(o.render.format == LineFormat::Csv);
  CHECK(o.sequencer == Sequencer::Concat);
  REQUIRE(r->notes.size() == 1);
  CHECK(r->notes[0].rfind("params.concurrency (line 4) is not acted on", 0) == 0);
  RunOptions cli;
  REQUIRE(resolve_params({{"format", "json"}}, *w, ParamUse::Lines, cli));
  CHECK(cli.render.format == LineFormat::Json);
  CHECK(cli.overrides == std::vector<std::pair<std::string, std::string>>{{"format", "json"}});
  // visual/heatmap.yaml's `params: {adapter: plotter}`: nb-rs sends the ops to its plotter; refused at the line.
  auto plot = parse_workload_text("params:\n  adapter: plotter\nops: x\n", "w.yaml");
  REQUIRE(plot);
  RunOptions p;
  auto refused = resolve_params({}, *plot, ParamUse::Lines, p);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().rfind("w.yaml:2:12: error: params.adapter: this runner renders ops with nb-rs's stdout adapter only", 0) == 0);
  RunOptions stdout_cli;
  CHECK(resolve_params({{"adapter", "stdout"}}, *plot, ParamUse::Lines, stdout_cli));
}

TEST_CASE("run params: the stdout adapter's options, refused where they cannot act") {
  auto w = parse_workload_text("ops: x\n", "w.yaml");
  REQUIRE(w);
  RunOptions o;
  auto r = resolve_params({{"format", "csv"}, {"header", "true"}}, *w, ParamUse::Lines, o);
  REQUIRE(r);
  CHECK(o.render.format == LineFormat::Csv);
  CHECK(o.render.header);
  RunOptions bad;
  auto x = resolve_params({{"format", "xml"}}, *w, ParamUse::Lines, bad);
  REQUIRE_FALSE(x);
  CHECK(x.error().find("[unknown-format]") != std::string::npos);
  RunOptions hw;
  auto h = resolve_params({{"format", "csv"}}, *w, ParamUse::Hardware, hw);
  REQUIRE_FALSE(h);
  CHECK(h.error().find("[not-applicable]") != std::string::npos);
  // --format on the command line, with format= of nb-rs beside it: format= wins.
  RunOptions both;
  REQUIRE(resolve_params({{"format", "tsv"}}, *w, ParamUse::Lines, both, RenderSettings{"json", {}, {}, {}}));
  CHECK(both.render.format == LineFormat::Tsv);
}

TEST_CASE("run params: nb-rs's settings a stdout run has no use for are noted with the reason; some are refused") {
  const Resolved r = resolve({"concurrency=8", "rate=100", "errors=stop"});
  REQUIRE(r.r);
  REQUIRE(r.r->notes.size() == 3);
  CHECK(r.r->notes[0] == "concurrency=8 is not acted on: ops run one at a time, in cycle order (nb-rs's order at concurrency=1)");
  for (const char* word : {"adapter=cql", "driver=http", "op=hello", "dryrun=phase", "resume=x", "seq=random", "tags=!x"}) {
    CAPTURE(word);
    CHECK_FALSE(resolve({word}).r);
  }
  auto bad = split_assignments({"scenario"});
  REQUIRE_FALSE(bad);
  CHECK(bad.error().find("'scenario' is not NAME=VALUE") != std::string::npos);
}

TEST_CASE("run params: workload=FILE is taken out first") {
  auto pairs = split_assignments({"workload=a.yaml", "cycles=3"});
  REQUIRE(pairs);
  CHECK(take_workload(*pairs) == std::optional<std::string>("a.yaml"));
  CHECK(pairs->size() == 1);
  CHECK_FALSE(take_workload(*pairs));
}

}  // TEST_SUITE
