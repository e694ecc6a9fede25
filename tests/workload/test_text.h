// Helpers the workload suites share for looking at file text.
#pragma once

#include <cstdint>
#include <string>

namespace polydat::workload::test {

// The file's line `n` (1-based), without its newline; "" past the end.
inline std::string file_line(const std::string& text, uint32_t n) {
  size_t start = 0;
  for (uint32_t i = 1; i < n; ++i) {
    start = text.find('\n', start);
    if (start == std::string::npos) return "";
    ++start;
  }
  const size_t end = text.find('\n', start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

}  // namespace polydat::workload::test
