#include "text/count.h"

namespace polydat::text {

std::optional<uint64_t> parse_count(std::string_view s) {
  if (s.empty() || s.front() < '0' || s.front() > '9') return std::nullopt;
  uint64_t scale = 1;
  switch (s.back()) {
    case 'K': case 'k': scale = 1'000; break;
    case 'M': scale = 1'000'000; break;
    case 'B': case 'G': scale = 1'000'000'000; break;
    default: break;
  }
  if (scale != 1) s.remove_suffix(1);
  unsigned __int128 n = 0;
  for (const char c : s) {
    if (c == '_') continue;
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<unsigned>(c - '0');
    if (n > UINT64_MAX) return std::nullopt;
  }
  n *= scale;
  if (n > UINT64_MAX) return std::nullopt;
  return static_cast<uint64_t>(n);
}

}  // namespace polydat::text
