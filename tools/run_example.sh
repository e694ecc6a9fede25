#!/bin/sh
# `make run`: the bundled example through the whole flow, one step per heading:
# check -> eval -> hls -> emit-sv -> cosim (Verilator against the interpreter).
set -e
build=${1:-build}
kernel=examples/ids.gk
polydat="$build/cli/polydat"
out="$build/run"

step() { printf '\n== %s\n$ polydat %s\n' "$1" "$2"; }

step "check: the kernel's signature" "check $kernel"
"$polydat" check "$kernel"
step "eval: ten cycles as native code (LLVM, the default engine; --engine interp: the oracle)" "eval $kernel --cycles 10"
"$polydat" eval "$kernel" --cycles 10
step "hls: the schedule and its cost (iCE40, 48 MHz)" "hls $kernel"
"$polydat" hls "$kernel" | sed '/^  schedule:/,$d'
echo "  (polydat hls $kernel prints the whole schedule; --format json|svg)"
step "emit-sv: SystemVerilog and report" "emit-sv $kernel -o $out"
"$polydat" emit-sv "$kernel" -o "$out"
step "cosim: Verilator against the interpreter, free flow, then 30% stalls" "cosim $kernel --cycles 10000"
"$polydat" cosim "$kernel" --cycles 10000
"$polydat" cosim "$kernel" --cycles 10000 --stall 0.3 --seed 7
workload=examples/workloads/budget.yaml
step "run: a workload — scopes, shared cells with combine templates, one line per op" "run $workload"
"$polydat" run "$workload"
step "run --explain: the scope tree of a for_each sweep (structural and parametric variables)" "run examples/workloads/sweep.yaml --explain"
"$polydat" run examples/workloads/sweep.yaml --explain
step "cosim: the same workload as hardware — scope modules, a sequencer top, cells in registers — its records decoded into run's lines" "cosim $workload --sim verilator --stall 0.3"
"$polydat" cosim "$workload" --sim verilator --stall 0.3
