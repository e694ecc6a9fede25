// libFuzzer target: any bytes as a board file. Whatever the input, the loader
// gives a board or one located error: never a crash, a hang or a sanitizer
// report. A board it accepts has the facts the flow relies on.
#include <cstddef>
#include <cstdint>
#include <string>

#include "boards/board.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 1 << 16) return 0;
  auto b = polydat::boards::parse_board_text(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.yaml");
  if (!b) {
    if (b.error().rfind("fuzz.yaml:", 0) != 0) __builtin_trap();  // every error is located
    return 0;
  }
  if (b->clock_mhz <= 0 || b->baud == 0 || b->device.empty() || b->package.empty()) __builtin_trap();
  return 0;
}
