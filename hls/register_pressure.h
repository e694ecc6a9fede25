// Register-aware refinement of a pipeline schedule. A list schedule places
// each operation as early as it can; a value computed early and read late is
// then carried across every boundary between, once per bit (on iCE40 a
// carried bit costs a whole logic cell: a flip-flop is entered through its
// cell's LUT). Moving operations between steps, within their inputs' and
// readers' steps and the clock, trades those carries, as XLS's min-cut
// scheduler does: an inversion computed where it is read instead of where
// its input appears, an adder placed after a stage whose input it narrows.
#pragma once

#include <cstdint>

#include "hls/scheduling.h"

namespace polydat::hls {

// The register bits a pipeline schedule needs: each bit an operation reads
// (SchedOp::reads, SchedulingProblem::final_reads) is held once per step
// boundary between its source's step and the last step reading it (once per
// ii boundaries at an initiation interval ii: a register then holds ii steps).
uint64_t register_bits(const SchedulingProblem& p, const Schedule& s);

// `s` with operations moved between steps while that lowers register_bits:
// the length kept, every move verified against the problem (dependences, the
// clock, chaining); operations on a limited resource keep their steps (and so
// their modulo slots). Unchanged for problems with multi-cycle operations
// (FSMs) and for those without bit reads.
Schedule reduce_registers(const SchedulingProblem& p, Schedule s);

}  // namespace polydat::hls
