// Temporary: the example kernel moved to tests/ir/example_kernel.h.
#pragma once
#include "../tests/ir/example_kernel.h"
