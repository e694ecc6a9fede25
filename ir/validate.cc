#include "ir/validate.h"

namespace polydat::ir {}  // namespace polydat::ir
