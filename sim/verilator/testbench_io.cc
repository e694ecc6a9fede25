#include "sim/verilator/testbench_io.h"

#include <fmt/core.h>

#include <chrono>
#include <fstream>

#include "sim/verilator/build_util.h"

namespace polydat::sim {

void write_batch(const std::filesystem::path& file, const hls::Design& d, const Batch& batch) {
  std::ofstream out(file);
  out << batch.inputs.size() << " " << d.dfg.inputs.size() << " " << batch.configs.size() << "\n";
  for (const ir::Value& c : batch.configs) out << c.bits() << " ";
  out << "\n";
  for (const auto& row : batch.inputs) {
    for (const ir::Value& v : row) out << v.bits() << " ";
    out << "\n";
  }
}

ir::Expected<EngineRun, std::string> read_results(std::istream& in, const hls::Design& d, const Batch& batch,
                                                  uint64_t max_idle, std::string& post_reset, const OtherTag& other) {
  EngineRun run;
  std::string tag;
  while (in >> tag) {
    if (tag == "POSTRESET") {
      std::getline(in, post_reset);
    } else if (tag == "A") {
      uint64_t c;
      in >> c;
      run.accepted_at.push_back(c);
    } else if (tag == "R") {
      uint64_t c;
      in >> c;
      run.delivered_at.push_back(c);
      std::vector<ir::Value> row;
      for (const hls::DfgPort& o : d.dfg.outputs) {
        unsigned long long bits;
        in >> bits;
        row.push_back(o.ty.is_bool() ? ir::Value::boolean(bits != 0) : ir::Value::integer(o.ty.kind(), bits));
      }
      run.outputs.push_back(std::move(row));
    } else if (tag == "HANG") {
      uint64_t c;
      in >> c;
      return fmt::format("no result for {} cycles: the design hangs at cycle {} after {} of {} results", max_idle, c,
                         run.outputs.size(), batch.inputs.size());
    } else if (tag == "END") {
      in >> run.cycles;
    } else if (other) {
      if (std::string why = other(tag, in); !why.empty()) return why;
    }
  }
  return run;
}

ir::Expected<EngineRun, std::string> run_testbench(const std::string& command, const std::filesystem::path& work,
                                                   const std::filesystem::path& result, const std::string& what,
                                                   const hls::Design& d, const Batch& batch, uint64_t max_idle,
                                                   std::string& post_reset, const OtherTag& other) {
  const auto t0 = std::chrono::steady_clock::now();
  const int status = shell(command, work / "run.log");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::ifstream in(result);
  if (status != 0) {
    std::string first_line;
    std::getline(in, first_line);
    return what + " exited with status " + std::to_string(status) + ": " + first_line + read_text(work / "run.log");
  }
  auto run = read_results(in, d, batch, max_idle, post_reset, other);
  if (run) run->seconds = seconds;
  return run;
}

}  // namespace polydat::sim
