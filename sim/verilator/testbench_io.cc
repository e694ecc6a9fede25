#include "sim/verilator/testbench_io.h"

#include <fmt/core.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "sim/build_support.h"

namespace polydat::sim {

namespace {
void write_batch_words(const std::filesystem::path& file, const hls::Design& d, const Batch& batch) {
  std::vector<uint64_t> words{batch.inputs.size(), d.dfg.inputs.size(), batch.configs.size()};
  for (const ir::Value& c : batch.configs) words.push_back(c.bits());
  for (const auto& row : batch.inputs)
    for (const ir::Value& v : row) words.push_back(v.bits());
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(words.data()),
                                              static_cast<std::streamsize>(words.size() * sizeof(uint64_t)));
}
}  // namespace

std::string result_words_as_text(const std::string& bytes, size_t outputs) {
  std::vector<uint64_t> w(bytes.size() / 8);
  std::memcpy(w.data(), bytes.data(), w.size() * 8);
  std::string text;
  size_t i = 0;
  // The next `count` words as " v1 v2 ...", or false when the file ends first (a truncated record).
  auto values = [&](size_t count) {
    if (i + count > w.size()) return false;
    for (size_t k = 0; k < count; ++k) text += " " + std::to_string(w[i++]);
    return true;
  };
  while (i < w.size()) {
    const auto tag = static_cast<ResultTag>(w[i++]);
    bool whole = true;
    switch (tag) {
      case ResultTag::PostReset: text += "POSTRESET"; whole = values(2 + outputs); break;
      case ResultTag::Accepted: text += "A"; whole = values(1); break;
      case ResultTag::Result: text += "R"; whole = values(1 + outputs); break;
      case ResultTag::Hang: text += "HANG"; whole = values(1); break;
      case ResultTag::End: text += "END"; whole = values(1); break;
      case ResultTag::Checked:
        text += "CHECKED";
        whole = values(2);
        if (whole && i < w.size()) text += " " + std::to_string(static_cast<int64_t>(w[i++]));
        else whole = false;
        break;
      case ResultTag::RefError: {
        if (i >= w.size()) return text;
        const uint64_t n = w[i++];
        const uint64_t padded = (n + 7) / 8;
        if (i + padded > w.size()) return text;
        text += "REFERROR " + std::string(bytes.data() + i * 8, n);
        i += padded;
        break;
      }
      default: return text + "BADTAG " + std::to_string(static_cast<uint64_t>(tag)) + "\n";
    }
    if (!whole) return text;
    text += "\n";
  }
  return text;
}

void write_batch(const std::filesystem::path& file, const hls::Design& d, const Batch& batch, Protocol protocol) {
  if (protocol == Protocol::Words) {
    write_batch_words(file, d, batch);
    return;
  }
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

ir::Expected<EngineRun, std::string> run_testbench(const std::vector<std::string>& argv, const std::filesystem::path& work,
                                                   const std::filesystem::path& result, const std::string& what,
                                                   const hls::Design& d, const Batch& batch, uint64_t max_idle,
                                                   std::string& post_reset, const OtherTag& other,
                                                   Protocol protocol, const ProgressHook& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  int status = 0;
  if (progress && protocol == Protocol::Words) {
    // An evaluation writes an Accepted record (2 words) and a Result record (2 + outputs words).
    const uint64_t bytes_per_result = 8 * (4 + d.dfg.outputs.size());
    std::atomic<bool> done{false};
    std::thread poll([&] {
      while (!done.load()) {
        std::error_code ec;
        const uint64_t bytes = std::filesystem::file_size(result, ec);
        if (!ec) progress(std::min<uint64_t>(bytes / bytes_per_result, batch.inputs.size()), batch.inputs.size());
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
      }
    });
    status = run_program(argv, work / "run.log");
    done = true;
    poll.join();
  } else {
    status = run_program(argv, work / "run.log");
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::istringstream in(protocol == Protocol::Words ? result_words_as_text(read_text(result), d.dfg.outputs.size())
                                                     : read_text(result));
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
