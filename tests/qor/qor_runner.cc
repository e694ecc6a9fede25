#include "tests/qor/qor_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "boards/board.h"
#include "tests/support/process.h"

namespace polydat::qor {

namespace fs = std::filesystem;
using nlohmann::json;

std::string Job::label() const {
  std::string l = board.empty() ? device : board;
  if (lut_only) l += ", --dsp 0";
  return l;
}

std::optional<double> Row::fmax() const {
  if (report.is_null() || !report.contains("achieved_mhz") || !report["achieved_mhz"].is_number()) return std::nullopt;
  return report["achieved_mhz"].get<double>();
}

namespace {
// The words after `key` on a corpus kernel's first line.
std::vector<std::string> corpus_words(const fs::path& kernel, const std::string& key) {
  std::vector<std::string> out;
  const auto lines = testing::split_lines(testing::read_file(kernel));
  if (lines.empty() || lines[0].rfind("// corpus:", 0) != 0) return out;
  std::istringstream words(lines[0].substr(10));
  for (std::string w; words >> w;)
    if (w == key && (words >> w)) out.push_back(w);
  return out;
}
}  // namespace

std::vector<fs::path> corpus_lib_paths(const fs::path& kernel) {
  std::vector<fs::path> libs;
  for (const std::string& w : corpus_words(kernel, "lib")) libs.push_back(kernel.parent_path() / w);
  return libs;
}

std::vector<std::string> corpus_sets(const fs::path& kernel) { return corpus_words(kernel, "set"); }

Job corpus_job(const fs::path& kernel, const std::string& board, bool lut_only) {
  return Job{kernel.stem().string(), kernel,        board, "", std::nullopt, lut_only, corpus_lib_paths(kernel),
             corpus_sets(kernel)};
}

std::vector<fs::path> accepted_kernels(const Settings& s, const fs::path& corpus) {
  std::vector<fs::path> all, ok;
  for (const auto& e : fs::directory_iterator(corpus))
    if (e.path().extension() == ".gk") all.push_back(e.path());
  std::sort(all.begin(), all.end());
  const std::string exe = s.polydat.string();
  for (const fs::path& k : all) {
    std::vector<std::string> argv = {exe, "hls", k.string()};
    for (const fs::path& l : corpus_lib_paths(k)) argv.insert(argv.end(), {"-L", l.string()});
    const auto r = testing::run_process(exe, argv, corpus, std::chrono::seconds(120));
    if (r.status == 0) ok.push_back(k);
  }
  return ok;
}

std::vector<Job> board_jobs(const std::vector<fs::path>& kernels) {
  std::vector<Job> jobs;
  for (const std::string& board : boards::board_names()) {
    for (const fs::path& k : kernels) jobs.push_back(corpus_job(k, board, false));
    if (board == "icebreaker")
      for (const fs::path& k : kernels) jobs.push_back(corpus_job(k, board, true));
  }
  return jobs;
}

std::vector<Job> icebreaker_jobs(const std::vector<fs::path>& kernels) {
  std::vector<Job> jobs;
  for (bool lut_only : {false, true})
    for (const fs::path& k : kernels) jobs.push_back(corpus_job(k, "icebreaker", lut_only));
  return jobs;
}

const std::vector<Expert>& experts() {
  // The figures: UP5K, LUTs only, II = 1, Yosys 0.23 + nextpnr-ice40 0.4, seed 1, inside a QoR
  // wrapper of 90 logic cells, which they include (xorshift's 88 is below the wrapper's own 90: its XOR
  // network merges into the wrapper's fold). The bounds: 1.1 times the cells (2 times for xorshift),
  // 48 MHz (100 for xorshift).
  static const std::vector<Expert> all = {
      {"hash", "hash64", 2389, 15, 52.0, 1.1, 48},
      {"splitmix64", "splitmix", 2574, 16, 48.8, 1.1, 48},
      {"mod(hash(cycle), 1000)", "mod_hash", 2636, 19, 49.5, 1.1, 48},
      {"xorshift", "xorshift", 88, 1, 124, 2.0, 100},
  };
  return all;
}

std::vector<Job> anchor_jobs(const fs::path& kernels_dir) {
  std::vector<Job> jobs;
  for (const Expert& e : experts())
    jobs.push_back(Job{e.file, kernels_dir / (e.file + ".gk"), "", "up5k", 48.0, true, {}, {}});
  return jobs;
}

std::string unfinished_tool(const std::string& error) {
  const size_t at = error.find(" timed out after");
  if (at == std::string::npos || at == 0) return {};
  const size_t space = error.rfind(' ', at - 1);
  const size_t start = space == std::string::npos ? 0 : space + 1;
  return error.substr(start, at - start);
}

std::vector<std::string> anchor_misses(const Expert& e, const Row& r) {
  if (!r.unfinished.empty()) return {"not finished: " + r.unfinished + " ran over the limit"};
  if (!r.finished()) return {"error: " + r.error};
  if (!r.fits()) return {"does not fit: " + r.report.value("problem", std::string())};
  std::vector<std::string> misses;
  if (!r.report.contains("logic_cells") || !r.report["logic_cells"].is_number())
    misses.push_back("no cell count");
  else if (r.report["logic_cells"].get<double>() > e.cell_factor * e.cells)
    misses.push_back("too many cells");
  if (!r.fmax() || *r.fmax() < e.min_mhz) misses.push_back("too slow");
  if (r.hls.is_null() || r.hls.value("ii", 0) != 1) misses.push_back("II is not 1");
  return misses;
}

namespace {

std::string folder_name(const Job& j) {
  std::string l = j.board.empty() ? j.device : j.board;
  if (j.lut_only) l += "-dsp0";
  return l;
}

json read_json(const fs::path& p) {
  std::error_code ec;
  if (!fs::exists(p, ec)) return nullptr;
  json j = json::parse(testing::read_file(p), nullptr, false);
  return j.is_discarded() ? json(nullptr) : j;
}

Row run_one(const Job& job, const Settings& s) {
  Row row;
  row.job = job;
  row.dir = s.root / folder_name(job) / job.kernel;
  std::error_code ec;
  fs::create_directories(row.dir, ec);
  for (const char* stale : {"report.json", "hls.json"}) fs::remove(row.dir / stale, ec);
  const std::string exe = s.polydat.string();
  std::vector<std::string> argv = {exe, "synth", fs::absolute(job.file).string()};
  if (!job.board.empty()) argv.insert(argv.end(), {"--board", job.board});
  if (!job.device.empty()) argv.insert(argv.end(), {"--device", job.device});
  if (job.freq_mhz) argv.insert(argv.end(), {"--freq", fmt::format("{}", *job.freq_mhz)});
  if (job.lut_only) argv.insert(argv.end(), {"--dsp", "0"});
  for (const fs::path& l : job.lib_paths) argv.insert(argv.end(), {"-L", fs::absolute(l).string()});
  for (const std::string& set : job.sets) argv.insert(argv.end(), {"--set", set});
  argv.insert(argv.end(), {"--tool-timeout", std::to_string(s.tool_timeout_s), "-o", row.dir.string()});
  const auto t0 = std::chrono::steady_clock::now();
  // Yosys and nextpnr for the design, and for the wrapper's cost with --device: four tools at most.
  const auto r = testing::run_process(exe, argv, row.dir, std::chrono::seconds(4 * s.tool_timeout_s + 300));
  row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  row.status = r.status;
  row.hls = read_json(row.dir / "hls.json");
  if (r.status >= 0 && r.status <= 3) row.report = read_json(row.dir / "report.json");
  if (row.report.is_null()) {
    for (const std::string& l : testing::split_lines(r.err))
      if (l.rfind("error: ", 0) == 0) {
        row.error = l.substr(7);
        break;
      }
    if (row.error.empty()) row.error = fmt::format("polydat exited {} without a report", r.status);
    row.unfinished = unfinished_tool(row.error);
  }
  return row;
}

}  // namespace

std::vector<Row> run(const std::vector<Job>& jobs, const Settings& s) {
  std::vector<Row> rows(jobs.size());
  std::atomic<size_t> next{0};
  std::mutex say;
  size_t done = 0;
  auto worker = [&] {
    for (size_t i; (i = next++) < jobs.size();) {
      rows[i] = run_one(jobs[i], s);
      if (s.verbose) {
        std::lock_guard<std::mutex> lock(say);
        const Row& r = rows[i];
        fmt::print(stderr, "[{}/{}] {} on {}: {} ({:.0f} s)\n", ++done, jobs.size(), r.job.kernel, r.job.label(),
                   !r.unfinished.empty() ? r.unfinished + " over the limit"
                   : !r.finished()       ? "error: " + r.error
                   : !r.fits()           ? std::string("does not fit")
                   : r.meets()           ? std::string("meets")
                                         : std::string("misses"),
                   r.seconds);
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < std::max(1u, s.jobs); ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  return rows;
}

namespace {

std::string use(const json& r, const char* key) {
  if (r.is_null() || !r.contains(key)) return "-";
  const json& u = r[key];
  const uint32_t used = u.value("used", 0u), total = u.value("total", 0u);
  return total ? fmt::format("{}/{}", used, total) : fmt::format("{}", used);
}

std::string seconds(const Row& r, const char* key, const char* tool, uint32_t limit) {
  if (r.unfinished == tool) return fmt::format("> {}", limit);
  if (r.report.is_null() || !r.report.contains(key)) return "-";
  return fmt::format("{:.1f}", r.report[key].get<double>());
}

std::string result(const Row& r, uint32_t limit) {
  if (!r.unfinished.empty()) return fmt::format("not finished: {} ran over {} s", r.unfinished, limit);
  if (!r.finished()) return "error: " + r.error;
  if (!r.fits()) return "does not fit: " + r.report.value("problem", std::string());
  return r.meets() ? "meets timing" : "misses timing";
}

std::string md_cell(std::string s) {
  for (char& c : s)
    if (c == '|' || c == '\n') c = ' ';
  return s;
}

// Results a second: the clock the design runs at (the requested one, or Fmax when lower) over
// its II, in k or M.
std::string results_per_second(const Row& r) {
  if (r.hls.is_null() || !r.fmax() || r.hls.value("ii", 0) == 0) return "-";
  const double mhz = std::min(*r.fmax(), r.report.value("requested_mhz", *r.fmax()));
  const double per_s = mhz * 1e6 / r.hls.value("ii", 1.0);
  if (per_s >= 1e6) return fmt::format("{:.3g} M", per_s / 1e6);
  if (per_s >= 1e3) return fmt::format("{:.3g} k", per_s / 1e3);
  return fmt::format("{:.3g}", per_s);
}

}  // namespace

std::string board_table(const std::vector<Row>& rows, uint32_t limit) {
  std::string t =
      "| kernel | board | design | II | LUTs | FFs | carry | DSP | logic cells | results/s | model path / clock (ns) | "
      "Fmax / clock (MHz) | Yosys (s) | nextpnr (s) | result |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Row& r : rows) {
    const json& h = r.hls;
    const json& p = r.report;
    const std::string design = h.is_null() ? "-" : h.value("design", std::string("-"));
    const std::string ii = h.is_null() ? "-" : fmt::format("{}", h.value("ii", 0));
    const std::string model =
        h.is_null() ? "-" : fmt::format("{:.1f} / {:.1f}", h.value("critical_path_ns", 0.0), h.value("clock_ns", 0.0));
    const std::string cells =
        p.is_null() || !p.contains("logic_cells") || p["logic_cells"].is_null() ? "-" : fmt::format("{}", p["logic_cells"].get<int>());
    const double clock = h.is_null() || h.value("clock_ns", 0.0) <= 0 ? 0 : 1000.0 / h.value("clock_ns", 1.0);
    const std::string fmax = r.fmax() ? fmt::format("{:.1f} / {:.4g}", *r.fmax(), p.value("requested_mhz", clock))
                             : clock > 0 ? fmt::format("- / {:.4g}", clock)
                                         : std::string("-");
    t += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", r.job.kernel,
                     r.job.label(), design, ii, use(p, "luts"), use(p, "ffs"),
                     p.is_null() ? "-" : fmt::format("{}", p["carries"].value("used", 0)), use(p, "dsps"), cells,
                     results_per_second(r), model,
                     fmax, seconds(r, "yosys_s", "yosys", limit), seconds(r, "nextpnr_s", "nextpnr-ice40", limit),
                     md_cell(result(r, limit)));
  }
  return t;
}

std::string board_summary(const std::vector<Row>& rows, uint32_t limit) {
  struct Count {
    size_t runs = 0, meets = 0, misses = 0, unfit = 0, yosys = 0, nextpnr = 0, errors = 0;
  };
  std::vector<std::string> order;
  std::map<std::string, Count> by;
  for (const Row& r : rows) {
    const std::string l = r.job.label();
    if (!by.count(l)) order.push_back(l);
    Count& c = by[l];
    ++c.runs;
    if (r.unfinished == "yosys") ++c.yosys;
    else if (!r.unfinished.empty()) ++c.nextpnr;
    else if (!r.finished()) ++c.errors;
    else if (!r.fits()) ++c.unfit;
    else if (r.meets()) ++c.meets;
    else ++c.misses;
  }
  std::string s = fmt::format(
      "| configuration | runs | meet the clock | miss it | do not fit | Yosys over {} s | nextpnr over {} s | errors |\n"
      "|---|---|---|---|---|---|---|---|\n",
      limit, limit);
  Count total;
  for (const std::string& l : order) {
    const Count& c = by[l];
    s += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", l, c.runs, c.meets, c.misses, c.unfit, c.yosys,
                     c.nextpnr, c.errors);
    total.runs += c.runs, total.meets += c.meets, total.misses += c.misses, total.unfit += c.unfit;
    total.yosys += c.yosys, total.nextpnr += c.nextpnr, total.errors += c.errors;
  }
  s += fmt::format("| all | {} | {} | {} | {} | {} | {} | {} |\n", total.runs, total.meets, total.misses, total.unfit,
                   total.yosys, total.nextpnr, total.errors);
  return s;
}

std::string anchor_table(const std::vector<Row>& rows) {
  std::string t =
      "| kernel | expert: cells, stages, Fmax | polydat: cells (kernel + wrapper), stages, II, Fmax | cells / expert's | "
      "bounds | verdict |\n|---|---|---|---|---|---|\n";
  for (const Expert& e : experts()) {
    const auto it = std::find_if(rows.begin(), rows.end(), [&](const Row& r) { return r.job.kernel == e.file; });
    if (it == rows.end()) continue;
    const Row& r = *it;
    const std::string expert = fmt::format("{}, {}, {:.1f} MHz", e.cells, e.stages, e.mhz);
    const std::string bounds = fmt::format("<= {:.0f} cells, >= {:.0f} MHz, II 1", std::floor(e.cell_factor * e.cells), e.min_mhz);
    std::string ours = "-", ratio = "-";
    const json& h = r.hls;
    const uint64_t ii = h.is_null() ? 0 : h.value("ii", 0), stages = h.is_null() ? 0 : h.value("latency", 0);
    if (r.fits() && r.report.contains("logic_cells") && r.report["logic_cells"].is_number()) {
      const int cells = r.report["logic_cells"].get<int>();
      const json& w = r.report["wrapper"]["logic_cells"];
      const int wrapper = w.is_number() ? w.get<int>() : 0;
      ours = fmt::format("{} ({} + {}), {}, {}, {}", cells, cells - wrapper, wrapper, stages, ii,
                         r.fmax() ? fmt::format("{:.1f} MHz", *r.fmax()) : std::string("-"));
      ratio = fmt::format("{:.2f}", double(cells) / e.cells);
    } else if (!h.is_null()) {
      ours = fmt::format("-, {}, {}, -", stages, ii);
    }
    const std::vector<std::string> misses = anchor_misses(e, r);
    const std::string verdict = misses.empty() ? "within bounds" : fmt::format("{}", fmt::join(misses, "; "));
    t += fmt::format("| {} | {} | {} | {} | {} | {} |\n", e.name, expert, ours, ratio, bounds, md_cell(verdict));
  }
  return t;
}

bool replace_between(std::string& text, const std::string& name, const std::string& with) {
  const std::string begin = "<!-- " + name + ":begin -->\n", end = "<!-- " + name + ":end -->";
  const size_t b = text.find(begin);
  if (b == std::string::npos) return false;
  const size_t e = text.find(end, b + begin.size());
  if (e == std::string::npos) return false;
  text.replace(b + begin.size(), e - (b + begin.size()), with);
  return true;
}

}  // namespace polydat::qor
