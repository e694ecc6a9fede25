// What `eval` and `cosim` feed a kernel: the first input takes the cycle, the
// other inputs and the externs their --set values or defaults.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frontend/program.h"
#include "cli/values.h"
#include "ir/expected.h"
#include "ir/value.h"

namespace polydat::cli {

struct UsageError {};  // a malformed option: exit 2, like the parser's own errors

class Stimulus {
 public:
  // Reads NAME=VALUE settings against the kernel's ports. Prints what is wrong
  // and returns nullopt (a user error), or throws UsageError (a malformed --set).
  static std::optional<Stimulus> make(const frontend::Unit& kernel, const std::vector<std::string>& sets);

  // The port --cycles iterates: the first streamed input, if any.
  std::optional<size_t> iterated() const { return iterated_; }
  // Every port's value at `cycle` (in the kernel's port order); nullopt, with
  // a message printed, when the cycle does not fit the iterated port.
  std::optional<std::vector<ir::Value>> at(uint64_t cycle) const;
  // The same without printing: the values, or what is wrong.
  ir::Expected<std::vector<ir::Value>, std::string> values_at(uint64_t cycle) const;
  // The entry's input record at `cycle` (a struct of the ports; unit when there are none).
  ir::Expected<ir::Value, std::string> record_at(uint64_t cycle, const ir::Ty& input) const;
  // Every evaluation of `range` (one when no port is iterated), each as at() gives it.
  std::optional<std::vector<std::vector<ir::Value>>> rows(CycleRange range) const;
  // The same as the entry's input records (a struct of the ports; unit when there are none).
  std::optional<std::vector<ir::Value>> records(CycleRange range, const ir::Ty& input) const;

 private:
  const frontend::Unit* kernel_ = nullptr;
  std::optional<size_t> iterated_;
  std::vector<ir::Value> values_;
};

// Stimulus::make with its failure as the exit status: 2 for a malformed --set, 1 for a value the kernel refuses.
ir::Expected<Stimulus, int> stimulus_for(const frontend::Unit& kernel, const std::vector<std::string>& sets);

}  // namespace polydat::cli
