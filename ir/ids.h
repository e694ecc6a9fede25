// Opaque ids of IR entities: dense indices in insertion order, so iteration is deterministic.
#pragma once

#include <compare>
#include <cstdint>
#include <limits>

namespace polydat::ir {

template <class Tag>
struct Id {
  static constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
  uint32_t v = kNone;

  constexpr Id() = default;
  constexpr explicit Id(uint32_t value) : v(value) {}
  constexpr bool valid() const { return v != kNone; }
  friend constexpr auto operator<=>(const Id&, const Id&) = default;
};

using ObjectId = Id<struct ObjectTag>;
using MorphismId = Id<struct MorphismTag>;
using FuncId = Id<struct FuncTag>;

}  // namespace polydat::ir
