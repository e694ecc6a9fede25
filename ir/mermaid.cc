#include "ir/mermaid.h"

namespace polydat::ir {}  // namespace polydat::ir
