// Shared by the SystemC co-simulation suites: one batch through the SystemC
// engine (its reference model compiling the kernel's own file), compared on
// the host with the interpreter's run as the Verilator suites do.
#pragma once

#include <memory>
#include <string>

#include "sim/systemc/systemc_engine.h"
#include "tests/sim/cosim_support.h"

namespace polydat::sctest {

struct ScRun {
  simtest::CosimRun cosim;         // error, run, report, post_reset, built_now
  sim::ReferenceCheck reference;   // the testbench's own check against its reference model
};

// The per-build cache, the stall and seed, and the kernel's file for the reference model.
flow::EngineOptions test_options(const simtest::SimKernel& k, double stall, uint64_t seed);

// One batch through the registry's SystemC engine, compared on the host, and its reference model's own check.
ScRun cosimulate(const simtest::SimKernel& k, const sim::Batch& batch, const sim::EngineRun& expected,
                 const flow::EngineOptions& options);

// The registry's SystemC engine for `k`, as its class (the wrapper and reference check are its own); throws when refused.
std::unique_ptr<sim::SystemCEngine> make_systemc(const simtest::SimKernel& k, const flow::EngineOptions& options);

// A seed of its own for each kernel, stable when kernels are added (FNV-1a of the key).
uint64_t seed_of(const std::string& key);

}  // namespace polydat::sctest
