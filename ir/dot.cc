#include "ir/dot.h"

namespace polydat::ir {}  // namespace polydat::ir
