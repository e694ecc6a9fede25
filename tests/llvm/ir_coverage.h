// What a suite of kernels exercised, read from their IR: each operation kind
// by operand type, each cast (from, to), and the loop shapes; plus the
// generator's own notes for what the IR no longer shows.
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace polydat::nativetest {

class Coverage {
 public:
  // The entry function of optimize()'s output: "Add:u8", "Cast:f32->i64", "Shl-amount:u16", "loop:nested", ...
  void add_optimized(const ir::CategoryIr& ir);
  // Calls, which optimize() inlines away: "Call" from the frontend's IR.
  void add_frontend(const ir::CategoryIr& ir);
  void add_features(const std::set<std::string>& features);

  size_t count(const std::string& key) const;
  std::vector<std::string> missing(const std::vector<std::string>& required) const;
  // One line per key, for the report.
  std::string summary() const;

 private:
  std::map<std::string, size_t> seen_;
};

// Every operation kind (at every operand type it accepts), every cast pair of
// distinct scalar types, both loop shapes and the generator's required notes.
std::vector<std::string> required_coverage();

}  // namespace polydat::nativetest
