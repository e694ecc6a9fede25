// polydat-calibrate-ice40: measures the iCE40 operator delays and areas the
// HLS operator library (hls/op_library.cc) models, with the project's own
// iCE40 flow (Yosys synth_ice40 -dsp, nextpnr-ice40, icepack) on a UP5K.
//
// For each operator and width it writes a probe module: the operands are
// registered, the operator alone sits between them and a result register, so
// the clock-to-clock path is register -> operator -> register. The operands
// are loaded by a serial shift chain from one pin and the result leaves as its
// XOR reduction on one pin, so a 64-bit operator needs three pins (the sg48
// package has 39); those pin paths are unconstrained (<async>) and are not part
// of the clock's Fmax. A probe `reg` (no operator) is the baseline: an
// operator's delay is its period minus the baseline's at the same width.
// nextpnr's placement is seeded: every probe runs with several seeds and the
// median Fmax is taken.
//
// nextpnr-ice40 0.4 (and icetime) treat every SB_MAC16 port as a register,
// so a multiplication Yosys puts in DSPs (a product of 11 bits or more) is
// never timed through the multiplier: such rows are recorded (dsps > 0) but
// calibrate nothing. The `*_lut` probes run the same multiplications through
// synth_ice40 without -dsp (as on the DSP-less iCE40 parts), which the tools
// time. The `chain_*` probes put two operators between the registers, to show
// how far a chain's delay is from the sum of its operators' delays.
//
//   polydat-calibrate-ice40 [CSV] [--seeds N] [--widths 8,16,32,64] [--ops add,lt,...]
//                           [--freq MHZ] [--jobs N] [--work DIR]
//   polydat-calibrate-ice40 --from CSV   (no flow: the report of a recorded CSV)
//
// CSV (stdout when no file is given): op,width,fmax_mhz,period_ns,delay_ns,luts,carries,dsps.
// A probe that does not fit the device has `nofit` as its Fmax and empty
// period and delay. luts are the operator's own LUT4s: the probe's minus its
// harness' (the result's XOR reduction, measured by `reg` at that width).
// The report (markdown: the fitted coefficients, model against measurement)
// goes to stdout after a CSV file, else to stderr.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "fpga/device.h"
#include "fpga/ice40_flow.h"
#include "hls/op_library.h"
#include "ir/expected.h"
#include "ir/op.h"

namespace fs = std::filesystem;
using polydat::hls::Op;

namespace {

// ---- the probes ----

constexpr uint64_t kMulConstant = 0x9E3779B97F4A7C15ull;  // truncated to the width

std::string literal(unsigned w, uint64_t v) {
  const uint64_t mask = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  return fmt::format("{}'h{:x}", w, v & mask);
}

struct Part {  // one operator of a probe, as the operator library names it
  Op op;
  bool constant_rhs;
};

struct Probe {
  std::string name;   // the CSV's op column
  std::string model;  // the op_library model it calibrates; empty: a baseline or a chain (calibrates nothing)
  std::vector<Part> parts;  // its operators (none: a baseline)
  bool one_bit = false;     // a comparison: the result is one bit
  bool lut_only = false;    // synth_ice40 without -dsp
  std::vector<std::string> operands;  // registers in the chain: w-bit ones, and "s" (1 bit)
  std::function<std::string(unsigned)> expr;  // the result, in the RTL emitter's forms (rtl/emit_sv.cc)
  std::string what;
};

std::function<std::string(unsigned)> fixed(const char* e) {
  return [e](unsigned) { return std::string(e); };
}

const std::vector<Probe>& probes() {
  using K = Op;
  static const std::vector<Probe> all = {
      {"reg", "", {}, false, false, {"a"}, fixed("a"), "baseline: register to register, no operator"},
      {"lut2", "", {}, false, false, {"a", "b", "c", "d", "e"}, fixed("a ^ b ^ c ^ d ^ e"),
       "two LUT levels (a 5-input XOR per bit)"},
      {"xor", "logic", {{K::Xor, false}}, false, false, {"a", "b"}, fixed("a ^ b"), "a ^ b (one LUT level)"},
      {"mux", "logic", {{K::Mux, false}}, false, false, {"a", "b", "s"}, fixed("s ? a : b"), "select (phi)"},
      {"add", "add", {{K::Add, false}}, false, false, {"a", "b"}, fixed("a + b"), "a + b"},
      {"sub", "sub", {{K::Sub, false}}, false, false, {"a", "b"}, fixed("a - b"), "a - b"},
      {"lt", "sub", {{K::Lt, false}}, true, false, {"a", "b"}, fixed("a < b"), "unsigned a < b"},
      {"eq", "equal", {{K::Eq, false}}, true, false, {"a", "b"}, fixed("a == b"), "a == b"},
      {"shl", "shifter", {{K::Shl, false}}, false, false, {"a", "b"},
       [](unsigned w) { return fmt::format("(b >= {}) ? '0 : (a << b)", literal(w, w)); }, "a << b, b variable"},
      {"popcount", "counter", {{K::Popcount, false}}, false, false, {"a"},
       [](unsigned w) { return fmt::format("popcount{}(a)", w); }, "popcount(a)"},
      {"mulc", "mul_const", {{K::Mul, true}}, false, false, {"a"},
       [](unsigned w) { return fmt::format("a * {}", literal(w, kMulConstant)); },
       "a * 0x9E3779B97F4A7C15 (truncated)"},
      {"mul", "mul", {{K::Mul, false}}, false, false, {"a", "b"}, fixed("a * b"), "a * b"},
      {"div", "div", {{K::Div, false}}, false, false, {"a", "b"},
       [](unsigned w) { return fmt::format("(b == {}) ? '1 : (a / b)", literal(w, 0)); }, "unsigned a / b"},
      {"mod", "div", {{K::Mod, false}}, false, false, {"a", "b"},
       [](unsigned w) { return fmt::format("(b == {}) ? a : (a % b)", literal(w, 0)); }, "unsigned a % b"},
      {"modc", "div_const", {{K::Mod, true}}, false, false, {"a"},
       [](unsigned w) { return fmt::format("a % {}", literal(w, 10)); }, "a % 10 (a decimal digit)"},
      {"mulc_lut", "mul_const", {{K::Mul, true}}, false, true, {"a"},
       [](unsigned w) { return fmt::format("a * {}", literal(w, kMulConstant)); },
       "a * 0x9E3779B97F4A7C15 (truncated), no DSPs: shift-and-add"},
      {"mul_lut", "mul", {{K::Mul, false}}, false, true, {"a", "b"}, fixed("a * b"), "a * b, no DSPs"},
      {"chain_xor_add", "", {{K::Xor, false}, {K::Add, false}}, false, false, {"a", "b", "c"}, fixed("(a ^ c) + b"),
       "chain: (a ^ c) + b"},
      {"chain_add_xor", "", {{K::Add, false}, {K::Xor, false}}, false, false, {"a", "b", "c"}, fixed("(a + b) ^ c"),
       "chain: (a + b) ^ c"},
      {"chain_add_add", "", {{K::Add, false}, {K::Add, false}}, false, false, {"a", "b", "c"}, fixed("(a + b) + c"),
       "chain: (a + b) + c"},
  };
  return all;
}

std::string probe_top(const Probe& p, unsigned w) { return fmt::format("cal_{}_w{}", p.name, w); }

std::string range(unsigned w) { return w == 1 ? std::string() : fmt::format("[{}:0] ", w - 1); }

std::string probe_sv(const Probe& p, unsigned w) {
  const unsigned yw = p.one_bit ? 1 : w;
  std::string sv = fmt::format("// polydat-calibrate-ice40 probe: {}, {} bits\n", p.what, w);
  sv += fmt::format("module {} (\n  input  logic clk,\n  input  logic din,\n  output logic dout\n);\n",
                    probe_top(p, w));
  for (const std::string& r : p.operands) sv += fmt::format("  logic {}{};\n", range(r == "s" ? 1 : w), r);
  sv += fmt::format("  logic {}y;\n", range(yw));
  if (p.name == "popcount") {  // as rtl/emit_sv.cc writes it
    const std::string f = fmt::format("popcount{}", w);
    sv += fmt::format("  function automatic logic {}{}(input logic {}x);\n", range(w), f, range(w));
    sv += fmt::format("    {} = '0;\n", f);
    sv += fmt::format("    for (int i = 0; i < {}; i++) {} = {} + {}'(x[i]);\n", w, f, f, w);
    sv += "  endfunction\n";
  }
  sv += "  // The operands: one shift chain from din; the result: registered.\n";
  sv += "  always_ff @(posedge clk) begin\n";
  std::string prev = "din";
  for (const std::string& r : p.operands) {
    if (r == "s") {
      sv += fmt::format("    s <= {};\n", prev);
      prev = "s";
    } else {
      sv += fmt::format("    {} <= {{{}[{}:0], {}}};\n", r, r, w - 2, prev);
      prev = fmt::format("{}[{}]", r, w - 1);
    }
  }
  sv += fmt::format("    y <= {};\n", p.expr(w));
  sv += "  end\n";
  sv += "  assign dout = ^y;  // every result bit observable on one pin\n";
  sv += "endmodule\n";
  return sv;
}

// ---- running ----

struct Run {  // one probe, one width, one seed
  size_t probe = 0;
  unsigned width = 0;
  uint32_t seed = 0;
  bool ok = false;  // the flow ran (fitting or not)
  std::string error;
  polydat::fpga::SynthReport report;
};

struct Row {  // one probe at one width, over the seeds
  size_t probe = 0;
  unsigned width = 0;
  bool fits = false;
  std::vector<double> fmax;  // per seed
  double fmax_mhz = 0, period_ns = 0, delay_ns = 0;
  uint32_t luts_total = 0, luts = 0, carries = 0, dsps = 0;
  std::string problem;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

// ---- fitting ----

// The delay tolerance the operator library is held to (tests/hls/op_library_calibration_test.cc).
double delay_tolerance(double measured) { return std::max(0.25 * std::abs(measured), 1.0); }
double area_tolerance(double measured) { return std::max(0.25 * std::abs(measured), 2.0); }

constexpr size_t kMaxTerms = 4;
using Basis = std::vector<std::pair<std::string, std::function<double(double)>>>;  // at most kMaxTerms

struct Fit {
  std::array<double, kMaxTerms> c{};  // per basis function (0 when unused)
  std::array<bool, kMaxTerms> used{};
  double worst = 0;  // the largest |model - measured| / tolerance
  bool found = false;
  size_t terms() const { return static_cast<size_t>(std::count(used.begin(), used.end(), true)); }
};

// Least squares, each point weighted by 1/tolerance^2, over every subset of
// the basis; among the subsets whose coefficients are all non-negative: the
// fewest terms that keep every point within half its tolerance (then the
// smallest worst error), else the smallest worst error.
Fit fit(const std::vector<std::pair<double, double>>& points, const Basis& basis,
        const std::function<double(double)>& tolerance) {
  Fit best;
  const size_t n = std::min(basis.size(), kMaxTerms);
  for (unsigned mask = 1; mask < (1u << n); ++mask) {
    std::array<size_t, kMaxTerms> terms{};
    size_t m = 0;
    for (size_t k = 0; k < n; ++k)
      if (mask & (1u << k)) terms[m++] = k;
    if (m > points.size()) continue;
    // The normal equations, A x = y in the first m rows (y in column m).
    std::array<std::array<double, kMaxTerms + 1>, kMaxTerms> a{};
    for (const auto& [w, y] : points) {
      const double wt = 1.0 / (tolerance(y) * tolerance(y));
      for (size_t i = 0; i < m; ++i) {
        const double fi = basis[terms[i]].second(w);
        for (size_t j = 0; j < m; ++j) a[i][j] += wt * fi * basis[terms[j]].second(w);
        a[i][m] += wt * fi * y;
      }
    }
    bool singular = false;
    for (size_t col = 0; col < m && !singular; ++col) {  // Gauss-Jordan, partial pivoting
      size_t piv = col;
      for (size_t r = col + 1; r < m; ++r)
        if (std::abs(a[r][col]) > std::abs(a[piv][col])) piv = r;
      if (std::abs(a[piv][col]) < 1e-12) {
        singular = true;
        break;
      }
      std::swap(a[col], a[piv]);
      for (size_t r = 0; r < m; ++r) {
        if (r == col) continue;
        const double f = a[r][col] / a[col][col];
        for (size_t k = col; k <= m; ++k) a[r][k] -= f * a[col][k];
      }
    }
    if (singular) continue;
    Fit f;
    f.found = true;
    bool negative = false;
    for (size_t i = 0; i < m; ++i) {
      f.c[terms[i]] = a[i][m] / a[i][i];
      f.used[terms[i]] = true;
      if (f.c[terms[i]] < -1e-9) negative = true;
    }
    if (negative) continue;
    for (const auto& [w, y] : points) {
      double model = 0;
      for (size_t k = 0; k < n; ++k) model += f.c[k] * basis[k].second(w);
      f.worst = std::max(f.worst, std::abs(model - y) / tolerance(y));
    }
    const bool f_ok = f.worst <= 0.5, best_ok = best.found && best.worst <= 0.5;
    bool better = !best.found;
    if (!better && f_ok != best_ok) better = f_ok;
    if (!better && f_ok && best_ok)
      better = f.terms() < best.terms() || (f.terms() == best.terms() && f.worst < best.worst);
    if (!better && !f_ok && !best_ok) better = f.worst < best.worst;
    if (better) best = f;
  }
  return best;
}

double log2w(double w) { return std::log2(std::max(2.0, w)); }

// A row calibrates the delay model when the tools time its path: a design
// with an SB_MAC16 does not count, as nextpnr-ice40 0.4 (and icetime) treat
// every DSP port as a register, so the multiplier itself is never timed.
bool times_operator(const Row& r) { return r.fits && r.dsps == 0 && !probes()[r.probe].model.empty(); }


// The cell counts of Yosys' `stat -json` (what run_ice40 reports), for a run
// that ended in an error after synthesis.
void read_yosys_stat(const fs::path& file, polydat::fpga::SynthReport& r) {
  std::ifstream in(file, std::ios::binary);
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.contains("design") || !j["design"].contains("num_cells_by_type")) return;
  const nlohmann::json& cells = j["design"]["num_cells_by_type"];
  r.luts.used = cells.value("SB_LUT4", 0u);
  r.carries.used = cells.value("SB_CARRY", 0u);
  r.dsps.used = cells.value("SB_MAC16", 0u);
}

// The rows of a CSV this program wrote (for --from).
polydat::ir::Expected<std::vector<Row>, std::string> read_rows(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot read " + path;
  std::vector<Row> rows;
  std::string line;
  size_t n = 0;
  while (std::getline(in, line)) {
    if (++n == 1 || line.empty()) continue;
    std::vector<std::string> f;
    std::stringstream cells(line);
    std::string cell;
    while (std::getline(cells, cell, ',')) f.push_back(cell);
    while (f.size() < 8) f.emplace_back();
    const auto probe = std::find_if(probes().begin(), probes().end(), [&](const Probe& p) { return p.name == f[0]; });
    if (probe == probes().end()) return fmt::format("{}:{}: no probe {}", path, n, f[0]);
    Row r;
    r.probe = static_cast<size_t>(probe - probes().begin());
    try {
      r.width = static_cast<unsigned>(std::stoul(f[1]));
      r.fits = f[2] != "nofit";
      if (r.fits) {
        r.fmax_mhz = std::stod(f[2]);
        r.period_ns = std::stod(f[3]);
        r.delay_ns = std::stod(f[4]);
      } else {
        r.problem = "recorded as nofit";
      }
      r.luts = static_cast<uint32_t>(std::stoul(f[5]));
      r.carries = static_cast<uint32_t>(std::stoul(f[6]));
      r.dsps = static_cast<uint32_t>(std::stoul(f[7]));
    } catch (const std::exception&) {
      return fmt::format("{}:{}: cannot read \"{}\"", path, n, line);
    }
    rows.push_back(r);
  }
  return rows;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Measure the iCE40 (UP5K) operator delays and areas behind hls/op_library.cc"};
  std::string csv_path;
  unsigned seeds = 3, jobs = std::max(1u, std::thread::hardware_concurrency());
  double freq = 48;
  std::string widths_arg = "8,16,32,64", ops_arg;
  std::string work = (fs::temp_directory_path() / "polydat-calibrate-ice40").string();
  app.add_option("csv", csv_path, "write the CSV here (default: stdout)");
  app.add_option("--seeds", seeds, "nextpnr seeds per probe (the median Fmax is taken)")->check(CLI::Range(1u, 99u));
  app.add_option("--widths", widths_arg, "widths, comma-separated");
  app.add_option("--ops", ops_arg, "probes to run, comma-separated (default: all; reg always runs)");
  app.add_option("--freq", freq, "the clock nextpnr is asked for, MHz (the model's default clock is 48 MHz)");
  app.add_option("--jobs", jobs, "flows run at once")->check(CLI::Range(1u, 64u));
  app.add_option("--work", work, "folder for the probes' designs, logs and reports");
  std::string from;
  app.add_option("--from", from,
                 "run no flow: report on a CSV this program wrote (against the operator library as built now)");
  CLI11_PARSE(app, argc, argv);

  const auto started = std::chrono::steady_clock::now();
  std::vector<unsigned> widths;
  for (const std::string& s : split_list(widths_arg)) {
    const unsigned w = static_cast<unsigned>(std::stoul(s));
    if (w < 2 || w > 64) {
      std::cerr << "polydat-calibrate-ice40: a width must be 2..64\n";
      return 2;
    }
    widths.push_back(w);
  }
  std::vector<size_t> chosen;
  const auto wanted = split_list(ops_arg);
  for (size_t i = 0; i < probes().size(); ++i)
    if (wanted.empty() || probes()[i].name == "reg" ||
        std::find(wanted.begin(), wanted.end(), probes()[i].name) != wanted.end())
      chosen.push_back(i);
  for (const std::string& w : wanted)
    if (std::none_of(probes().begin(), probes().end(), [&](const Probe& p) { return p.name == w; })) {
      std::cerr << "polydat-calibrate-ice40: no probe " << w << "\n";
      return 2;
    }

  std::vector<Row> rows;
  std::vector<Run> runs;
  FILE* report_out = stdout;
  if (!from.empty()) {
    auto read = read_rows(from);
    if (!read) {
      std::cerr << "polydat-calibrate-ice40: " << read.error() << "\n";
      return 1;
    }
    rows = std::move(*read);
    seeds = 0;
  } else {
    const polydat::fpga::Device* up5k = polydat::fpga::find_device("up5k");
    if (up5k == nullptr) {
      std::cerr << "polydat-calibrate-ice40: no up5k device\n";
      return 2;
    }
    polydat::fpga::Device up5k_luts = *up5k;  // the same part, synthesized without SB_MAC16s
    up5k_luts.use_dsp = false;

    // The flows, `jobs` at a time, each in its own folder, the widest first
    // (they take longest, so the jobs finish together). First seed 1 of every
    // probe; the other seeds only where seed 1 fits (placement seeds do not
    // make a design fit, and a 64-bit divider's synthesis alone takes minutes).
    std::mutex out_mu;
    auto run_all = [&](size_t from_run) {
      std::atomic<size_t> next{from_run};
      auto worker = [&] {
        for (size_t i = next++; i < runs.size(); i = next++) {
          Run& r = runs[i];
          const Probe& p = probes()[r.probe];
          polydat::fpga::Ice40Request req;
          req.top = probe_top(p, r.width);
          req.sv = probe_sv(p, r.width);
          req.device = p.lut_only ? &up5k_luts : up5k;
          req.freq_mhz = freq;
          req.dir = fs::path(work) / req.top / fmt::format("seed{}", r.seed);
          req.seed = r.seed;
          auto result = polydat::fpga::run_ice40(req, nullptr);
          if (result) {
            r.ok = true;
            r.report = *result;
          } else if (result.error().starts_with("nextpnr-ice40 failed")) {
            // nextpnr 0.4 gives up on some designs larger than the part with
            // an error run_ice40 does not know as a fit failure ("Failed to
            // expand region"): does not fit.
            r.ok = true;
            r.report.fits = false;
            read_yosys_stat(req.dir / "yosys_stat.json", r.report);
            r.report.problem = result.error().substr(0, result.error().find(';'));
            if (const size_t at = result.error().find("ERROR: "); at != std::string::npos)
              r.report.problem += ": " + result.error().substr(at + 7, result.error().find('\n', at) - at - 7);
          } else {
            r.error = result.error();
          }
          std::lock_guard<std::mutex> lock(out_mu);
          std::cerr << fmt::format("[{}] {} seed {}: {}\n", i + 1, req.top, r.seed,
                                   !r.ok              ? "error: " + r.error
                                   : !r.report.fits   ? "does not fit (" + r.report.problem + ")"
                                   : r.report.achieved_mhz ? fmt::format("{:.2f} MHz", *r.report.achieved_mhz)
                                                           : std::string("no clock path"));
        }
      };
      std::vector<std::thread> pool;
      for (unsigned j = 0; j < std::min<size_t>(jobs, runs.size() - from_run); ++j) pool.emplace_back(worker);
      for (std::thread& t : pool) t.join();
    };
    std::vector<unsigned> by_width = widths;
    std::sort(by_width.begin(), by_width.end(), std::greater<>());
    for (unsigned w : by_width)
      for (size_t p : chosen) runs.push_back(Run{p, w, 1, false, {}, {}});
    run_all(0);
    const size_t first = runs.size();
    for (size_t i = 0; i < first; ++i)
      if (runs[i].ok && runs[i].report.fits)
        for (uint32_t s = 2; s <= seeds; ++s) runs.push_back(Run{runs[i].probe, runs[i].width, s, false, {}, {}});
    run_all(first);
    for (const Run& r : runs)
      if (!r.ok) {
        std::cerr << "polydat-calibrate-ice40: the flow failed for " << probe_top(probes()[r.probe], r.width)
                  << " seed " << r.seed << ": " << r.error << "\n";
        return 1;
      }

    // ---- rows: the median over the seeds ----
    std::map<unsigned, const Row*> baseline;  // width -> the reg row
    for (size_t p : chosen)
      for (unsigned w : widths) {
        Row row;
        row.probe = p;
        row.width = w;
        row.fits = true;
        for (const Run& r : runs) {
          if (r.probe != p || r.width != w) continue;
          row.luts_total = r.report.luts.used;
          row.carries = r.report.carries.used;
          row.dsps = r.report.dsps.used;
          if (!r.report.fits || !r.report.achieved_mhz) {
            row.fits = false;
            if (row.problem.empty()) row.problem = r.report.fits ? "no clock-to-clock path" : r.report.problem;
          } else {
            row.fmax.push_back(*r.report.achieved_mhz);
          }
        }
        if (row.fits) {
          row.fmax_mhz = median(row.fmax);
          row.period_ns = 1000.0 / row.fmax_mhz;
        }
        rows.push_back(row);
      }
    for (const Row& r : rows)
      if (probes()[r.probe].name == "reg") baseline[r.width] = &r;
    for (Row& r : rows) {
      const auto b = baseline.find(r.width);
      if (b == baseline.end() || !b->second->fits) {
        std::cerr << "polydat-calibrate-ice40: no baseline at width " << r.width << "\n";
        return 1;
      }
      r.delay_ns = r.fits ? r.period_ns - b->second->period_ns : 0;
      // The harness' LUTs are the result's XOR reduction: none for a one-bit result.
      const uint32_t harness = probes()[r.probe].one_bit ? 0 : b->second->luts_total;
      r.luts = probes()[r.probe].name == "reg" ? 0 : r.luts_total - std::min(harness, r.luts_total);
    }

    // ---- the CSV ----
    std::string csv = "op,width,fmax_mhz,period_ns,delay_ns,luts,carries,dsps\n";
    for (const Row& r : rows) {
      const std::string& name = probes()[r.probe].name;
      if (r.fits)
        csv += fmt::format("{},{},{:.2f},{:.3f},{:.3f},{},{},{}\n", name, r.width, r.fmax_mhz, r.period_ns, r.delay_ns,
                           r.luts, r.carries, r.dsps);
      else
        csv += fmt::format("{},{},nofit,,,{},{},{}\n", name, r.width, r.luts, r.carries, r.dsps);
    }
    if (csv_path.empty()) {
      std::cout << csv << std::flush;
      report_out = stderr;
    } else {
      std::ofstream out(csv_path, std::ios::binary | std::ios::trunc);
      out << csv;
      if (!out.flush()) {
        std::cerr << "polydat-calibrate-ice40: cannot write " << csv_path << "\n";
        return 1;
      }
    }
  }

  // ---- the report ----
  using polydat::hls::op_cost;
  using polydat::hls::Target;
  auto model_delay = [](const Probe& p, unsigned w) {
    double d = 0;
    for (const Part& part : p.parts) d += op_cost(Target::Ice40, part.op, w, part.constant_rhs).delay_ns;
    return d;
  };
  auto model_area = [](const Probe& p, unsigned w) {
    double a = 0;
    for (const Part& part : p.parts) a += op_cost(Target::Ice40, part.op, w, part.constant_rhs).area;
    return a;
  };
  std::string rep;
  if (from.empty())
    rep += fmt::format("# iCE40 UP5K operator calibration ({} seeds, nextpnr asked for {} MHz)\n\n", seeds, freq);
  else
    rep += fmt::format("# iCE40 UP5K operator calibration (recorded in {})\n\n", from);
  rep += "delay = period - the `reg` period at that width; model: `op_cost(Target::Ice40, ...)` as built; "
         "within: |model - delay| <= max(25 %, 1 ns).\n\n";
  rep += "| op | width | Fmax MHz (seeds) | period ns | delay ns | model ns | within | LUT4 | model LUT4 | carries "
         "| DSPs |\n";
  rep += "|---|---:|---|---:|---:|---:|---|---:|---:|---:|---:|\n";
  for (const Row& r : rows) {
    const Probe& p = probes()[r.probe];
    std::string seeds_text;
    for (double f : r.fmax) seeds_text += (seeds_text.empty() ? " (" : ", ") + fmt::format("{:.1f}", f);
    if (!seeds_text.empty()) seeds_text += ")";
    std::string model, within, area;
    if (!p.parts.empty()) {
      const double d = model_delay(p, r.width);
      model = fmt::format("{:.2f}", d);
      area = fmt::format("{:.0f}", model_area(p, r.width));
      if (times_operator(r))
        within = std::abs(d - r.delay_ns) <= delay_tolerance(r.delay_ns) ? "yes" : "**no**";
      else if (r.fits && r.dsps > 0)
        within = "(SB_MAC16: not timed)";
      else if (r.fits && p.model.empty())
        within = "(chain: sum)";
    }
    if (r.fits)
      rep += fmt::format("| {} | {} | {:.2f}{} | {:.2f} | {:.2f} | {} | {} | {} | {} | {} | {} |\n", p.name, r.width,
                         r.fmax_mhz, seeds_text, r.period_ns, r.delay_ns, model, within, r.luts, area, r.carries,
                         r.dsps);
    else
      rep += fmt::format("| {} | {} | does not fit ({}) | | | {} | | {} | {} | {} | {} |\n", p.name, r.width,
                         r.problem.substr(0, r.problem.find("; nextpnr: ")), model, r.luts, area, r.carries, r.dsps);
  }

  rep += "\n## Least-squares fits (tolerance-weighted, non-negative terms; the fewest terms within half the "
         "tolerance)\n\n";
  rep += "Rows timed through the operator only (no SB_MAC16). "
         "delay ns = base + per_bit*w + per_log2*log2(w) + per_sq*w^2; LUT4 = a_base + a_bit*w + a_sq*w^2.\n\n";
  rep += "| model | rows | base | per_bit | per_log2 | per_sq | worst/tol | a_base | a_bit | a_sq | worst/tol |\n";
  rep += "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  std::vector<std::string> models;
  for (const Row& r : rows)
    if (const std::string& m = probes()[r.probe].model;
        !m.empty() && std::find(models.begin(), models.end(), m) == models.end())
      models.push_back(m);
  const Basis delay_basis = {{"base", [](double) { return 1.0; }},
                             {"per_bit", [](double w) { return w; }},
                             {"per_log2", log2w},
                             {"per_sq", [](double w) { return w * w; }}};
  const Basis area_basis = {{"a_base", [](double) { return 1.0; }},
                            {"a_bit", [](double w) { return w; }},
                            {"a_sq", [](double w) { return w * w; }}};
  for (const std::string& m : models) {
    std::vector<std::pair<double, double>> delays, areas;
    for (const Row& r : rows) {
      if (probes()[r.probe].model != m || !times_operator(r)) continue;
      // A LUT-only row where the flow's own row is timed too would count one measurement twice.
      if (probes()[r.probe].lut_only && std::any_of(rows.begin(), rows.end(), [&](const Row& q) {
            return q.width == r.width && probes()[q.probe].model == m && !probes()[q.probe].lut_only &&
                   times_operator(q);
          }))
        continue;
      {
        delays.emplace_back(r.width, r.delay_ns);
        areas.emplace_back(r.width, r.luts);
      }
    }
    const Fit d = fit(delays, delay_basis, delay_tolerance), a = fit(areas, area_basis, area_tolerance);
    auto coef = [](const Fit& f, size_t k) { return f.found && f.used[k] ? fmt::format("{:.3f}", f.c[k]) : "0"; };
    if (!d.found) {
      rep += fmt::format("| {} | 0 | (no timed row) | | | | | | | | |\n", m);
      continue;
    }
    rep += fmt::format("| {} | {} | {} | {} | {} | {} | {:.2f} | {} | {} | {} | {:.2f} |\n", m, delays.size(),
                       coef(d, 0), coef(d, 1), coef(d, 2), coef(d, 3), d.worst, coef(a, 0), coef(a, 1), coef(a, 2),
                       a.worst);
  }

  // Chains against the sum of their operators' measured delays.
  std::string chains;
  for (const Row& r : rows) {
    const Probe& p = probes()[r.probe];
    if (!p.model.empty() || p.parts.size() < 2 || !r.fits) continue;
    double sum = 0;
    bool known = true;
    for (const Part& part : p.parts) {
      const auto it = std::find_if(rows.begin(), rows.end(), [&](const Row& q) {
        const Probe& qp = probes()[q.probe];
        return q.width == r.width && times_operator(q) && qp.parts.size() == 1 && qp.parts[0].op == part.op &&
               qp.parts[0].constant_rhs == part.constant_rhs && !qp.lut_only;
      });
      if (it == rows.end()) known = false;
      else sum += it->delay_ns;
    }
    chains += fmt::format("| {} | {} | {:.2f} | {} | {:.2f} |\n", p.name, r.width, r.delay_ns,
                          known ? fmt::format("{:.2f}", sum) : std::string("?"), model_delay(p, r.width));
  }
  if (!chains.empty()) {
    rep += "\n## Chains: two operators between the registers\n\n";
    rep += "| probe | width | delay ns | sum of the operators' delays | sum of the models |\n"
           "|---|---:|---:|---:|---:|\n";
    rep += chains;
  }

  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (from.empty())
    rep += fmt::format("\n{} flows ({} probes x {} widths x {} seeds, {} at a time) in {:.0f} s\n", runs.size(),
                       chosen.size(), widths.size(), seeds, jobs, seconds);
  std::fputs(rep.c_str(), report_out);
  std::fflush(report_out);
  return 0;
}
