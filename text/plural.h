// "1 module", "2 modules": a count and its noun, agreeing, for every message that counts.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace polydat::text {

// `plural` empty means `singular` + "s"; give it for the irregular ones ("entry", "entries").
inline std::string counted(uint64_t n, std::string_view singular, std::string_view plural = {}) {
  std::string out = std::to_string(n) + " ";
  if (n == 1) return out.append(singular);
  return plural.empty() ? out.append(singular).append("s") : out.append(plural);
}

}  // namespace polydat::text
