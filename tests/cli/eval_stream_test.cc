// eval streams: rows in chunks, in cycle order whatever --threads, shards that
// join into one run, a closed pipe ending the run quietly, and every format.
#include <cstring>

#include "tests/cli/cli_support.h"

namespace polydat::clitest {
namespace {

// Signed, float, bool and string outputs; 20,000 cycles are three chunks of 8,192.
constexpr const char* kMixed =
    "input cycle: u64\n"
    "h := hash(cycle)\n"
    "small := (h % 200) as i8\n"
    "ratio := (h % 1000) as f64 / 7.0\n"
    "odd := h % 2 == 1\n"
    "name := \"n,{h % 97}\"\n";

const std::vector<std::string> kTextFormats{"csv", "tsv", "jsonl", "json", "table"};

TEST_CASE("eval stream: every format is byte-identical across --threads 1, 2, 7 and across engines") {
  Sandbox s;
  s.file("mixed.gk", kMixed);
  for (const std::string& format : kTextFormats) {
    CAPTURE(format);
    const Run oracle = s.run({"eval", "mixed.gk", "--cycles", "20000", "--format", format, "--threads", "1"});
    REQUIRE(oracle.status == 0);
    CHECK(oracle.err.empty());  // no progress line when stderr is not a terminal
    for (const std::string engine : {"interp", "llvm"})
      for (const std::string threads : {"1", "2", "7"}) {
        CAPTURE(engine);
        CAPTURE(threads);
        const Run r = s.run({"eval", "mixed.gk", "--cycles", "20000", "--format", format, "--engine", engine,
                             "--threads", threads});
        CHECK(r.status == 0);
        CHECK(r.out == oracle.out);
      }
  }
  // The csv oracle itself: a header, then one line per cycle in order.
  const Run csv = s.run({"eval", "mixed.gk", "--cycles", "20000", "--format", "csv", "--threads", "1"});
  const std::vector<std::string> lines = polydat::testing::split_lines(csv.out);
  REQUIRE(lines.size() == 20001);
  CHECK(lines[0] == "cycle,small,ratio,odd,name");
  for (size_t i = 1; i < lines.size(); i += 997) CHECK(lines[i].rfind(std::to_string(i - 1) + ",", 0) == 0);
}

TEST_CASE("eval stream: --format tsv and jsonl, by hand") {
  Sandbox s;
  s.file("t.gk", "input cycle: u64\nx := cycle * 2\ntext := \"a\\tb\\\\{cycle}\"\nq := \"say \\\"{cycle}\\\"\"\n");
  const Run tsv = s.run({"eval", "t.gk", "--cycles", "2", "--format", "tsv"});
  CHECK(tsv.status == 0);
  CHECK(tsv.out == "cycle\tx\ttext\tq\n0\t0\ta\\tb\\\\0\tsay \"0\"\n1\t2\ta\\tb\\\\1\tsay \"1\"\n");
  const Run jsonl = s.run({"eval", "t.gk", "--cycles", "1..2", "--format", "jsonl"});
  CHECK(jsonl.status == 0);
  CHECK(jsonl.out == "{\"cycle\":1,\"x\":2,\"text\":\"a\\tb\\\\1\",\"q\":\"say \\\"1\\\"\"}\n");
}

// The records of emit-obj's header: ids's outputs are three u64 (id, bucket, shard), 24 bytes per cycle.
TEST_CASE("eval stream: --format bin writes the output records of the C layout, the same on both engines") {
  Sandbox s;
  s.file("ids.gk", polydat::testing::read_file(fs::path(POLYDAT_SOURCE_ROOT) / "examples" / "ids.gk"));
  const Run csv = s.run({"eval", "ids.gk", "--cycles", "10000", "--format", "csv"});
  REQUIRE(csv.status == 0);
  const std::vector<std::string> lines = polydat::testing::split_lines(csv.out);
  for (const std::string engine : {"interp", "llvm"}) {
    CAPTURE(engine);
    const Run bin = s.run({"eval", "ids.gk", "--cycles", "10000", "--format", "bin", "--engine", engine});
    REQUIRE(bin.status == 0);
    REQUIRE(bin.out.size() == 10000 * 24);
    for (size_t i = 0; i < 10000; i += 1111) {
      uint64_t f[3];
      std::memcpy(f, bin.out.data() + i * 24, sizeof f);
      CHECK(lines[i + 1] == std::to_string(i) + "," + std::to_string(f[0]) + "," + std::to_string(f[1]) + "," +
                                std::to_string(f[2]));
    }
  }
  s.file("str.gk", "input cycle: u64\nname := \"k{cycle}\"\n");
  const Run refused = s.run({"eval", "str.gk", "--format", "bin"});
  CHECK(refused.status == 1);
  CHECK(refused.out.empty());
  CHECK(refused.err == "error: --format bin writes fixed-size records, and output 'name' is a string\n");
}

TEST_CASE("eval stream: N shards run as processes join into one run's bytes, in every format") {
  Sandbox s;
  s.file("mixed.gk", kMixed);
  std::vector<std::string> formats = kTextFormats;
  formats.push_back("bin");
  s.file("num.gk", "input cycle: u64\nv := hash(cycle) % 1000\nw := v as f32 / 3.0\n");
  for (const std::string& format : formats) {
    const std::string kernel = format == "bin" ? "num.gk" : "mixed.gk";
    for (const auto& [cycles, n] : std::vector<std::pair<std::string, int>>{{"17..20011", 3}, {"5", 7}, {"0", 2}}) {
      CAPTURE(format);
      CAPTURE(cycles);
      const Run whole = s.run({"eval", kernel, "--cycles", cycles, "--format", format, "--engine", "llvm"});
      REQUIRE(whole.status == 0);
      std::string joined;
      for (int k = 1; k <= n; ++k) {
        const Run part = s.run({"eval", kernel, "--cycles", cycles, "--format", format, "--engine", "llvm", "--shard",
                                std::to_string(k) + "/" + std::to_string(n)});
        CHECK(part.status == 0);
        joined += part.out;
      }
      CHECK(joined == whole.out);
    }
  }
}

TEST_CASE("eval stream: --shard and --threads take only what they say") {
  Sandbox s;
  s.file("k.gk", "input cycle: u64\nx := cycle\n");
  for (const std::string bad : {"0/3", "4/3", "3", "1/0", "a/b", "1..2/3"}) {
    CAPTURE(bad);
    const Run r = s.run({"eval", "k.gk", "--shard", bad});
    CHECK(r.status == 2);
    CHECK(contains(r.err, "--shard takes K/N"));
  }
  CHECK(s.run({"eval", "k.gk", "--threads", "0"}).status != 0);
  const Run shard = s.run({"eval", "k.gk", "--cycles", "10", "--shard", "2/3", "--format", "csv"});
  CHECK(shard.out == "3,3\n4,4\n5,5\n");  // rows [10 * 1 / 3, 10 * 2 / 3) = [3, 6), no header past the first shard
}

TEST_CASE("eval stream: -o writes the file, the same bytes as stdout") {
  Sandbox s;
  s.file("mixed.gk", kMixed);
  const Run out = s.run({"eval", "mixed.gk", "--cycles", "1000", "--format", "jsonl"});
  const Run file = s.run({"eval", "mixed.gk", "--cycles", "1000", "--format", "jsonl", "-o", "rows.jsonl"});
  CHECK(file.status == 0);
  CHECK(file.out.empty());
  CHECK(polydat::testing::read_file(s.path() / "rows.jsonl") == out.out);
  const Run bad = s.run({"eval", "mixed.gk", "-o", "no/such/folder/x.csv"});
  CHECK(bad.status == 2);  // refused by the parser: its folder is not there
  CHECK(contains(bad.err, "error: --output: the folder 'no/such/folder' does not exist"));
  // A path the parser lets by and open() refuses: the reason.
  const Run dir = s.run({"eval", "mixed.gk", "-o", "."});
  CHECK(dir.status == 1);
  CHECK(contains(dir.err, "error: cannot write '.': Is a directory"));
}

// A billion cycles take minutes: ending at once shows the run stopped at the
// closed pipe, and pipefail shows it stopped with status 0 (not SIGPIPE's 141).
TEST_CASE("eval stream: a closed pipe ends the run quietly with status 0") {
  Sandbox s;
  s.file("ids.gk", polydat::testing::read_file(fs::path(POLYDAT_SOURCE_ROOT) / "examples" / "ids.gk"));
  for (const std::string engine : {"interp", "llvm"}) {
    CAPTURE(engine);
    const std::string line = "set -o pipefail; '" + kPolydat + "' eval ids.gk --cycles 1000000000 --format csv --engine " +
                             engine + " | head -2";
    const Run r = polydat::testing::run_process("/bin/bash", {"bash", "-c", line}, s.path(), std::chrono::seconds(60));
    CHECK(r.status == 0);
    CHECK(r.out == "cycle,id,bucket,shard\n0,897,8,5\n");
    CHECK(r.err.empty());
  }
}

}  // namespace
}  // namespace polydat::clitest

namespace polydat::clitest {
namespace {
TEST_CASE("eval --outputs: only the outputs asked for, in that order, the same values on both engines") {
  Sandbox s;
  s.file("k.gk", "input cycle: u64\nid := mod(hash(cycle), 1000)\nbucket := id / 100\nshard := mod(hash(id), 16)\n");
  const Run all = s.run({"eval", "k.gk", "--cycles", "50", "--format", "csv", "--outputs", "id,bucket,shard"});
  REQUIRE(all.status == 0);
  std::string want = "cycle,shard,id\n";
  for (const std::string& line : polydat::testing::split_lines(all.out)) {
    if (line.rfind("cycle", 0) == 0) continue;
    const size_t a = line.find(','), b = line.find(',', a + 1), c = line.find(',', b + 1);
    want += line.substr(0, a) + "," + line.substr(c + 1) + "," + line.substr(a + 1, b - a - 1) + "\n";
  }
  for (const std::string engine : {"interp", "llvm"}) {
    const Run some = s.run({"eval", "k.gk", "--cycles", "50", "--format", "csv", "--outputs", "shard,id", "--engine", engine});
    CHECK(some.status == 0);
    CHECK(some.out == want);
  }
  const Run bad = s.run({"eval", "k.gk", "--outputs", "nope"});
  CHECK(bad.status == 2);  // a command-line mistake
  CHECK(contains(bad.err, "error: --outputs: 'nope' is asked for as an output, but it is not a binding of k.gk"));
}
}  // namespace
}  // namespace polydat::clitest
