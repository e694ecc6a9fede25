// The interpreter behind a plain interface, for the generated SystemC
// testbench: the reference model evaluates every accepted input inside the
// simulation. This header is included by code compiled as C++17 (SystemC
// 2.3.4 requires it), so it names no project header and no C++20 feature;
// the implementation is an ordinary project file.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace polydat::sc {

class ReferenceModel {
 public:
  // Compiles `kernel_file` (with `lib_paths` as -L folders) and optimises it
  // as `polydat hls` does. Null when it does not compile; `error` says why.
  static std::unique_ptr<ReferenceModel> load(const std::string& kernel_file, const std::vector<std::string>& lib_paths,
                                              std::string& error);
  ~ReferenceModel();

  size_t input_count() const;   // streamed inputs (in_* ports), in order
  size_t config_count() const;  // externs (cfg_* ports), in order
  size_t output_count() const;  // results (out_* ports), in order

  // One evaluation on bit patterns (bools: 0 or 1). False when the interpreter stops; `error` says why.
  bool evaluate(const std::vector<uint64_t>& inputs, const std::vector<uint64_t>& configs,
                std::vector<uint64_t>& outputs, std::string& error);

 private:
  struct Impl;
  explicit ReferenceModel(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace polydat::sc
