// What native kernels call for strings (C linkage, so an object file from
// `polydat emit-obj` links against the same functions). A string is a
// (pointer, length) pair into storage owned by the step that produced it: its
// scratch, rewritten each time the step runs. At the boundary each output
// string is copied into the kernel's output store, which holds a batch's
// strings until the next batch starts.
#pragma once

#include <cstdint>

#include "sim/llvm/record_layout.h"

extern "C" {

struct PolydatScratch {
  char* data;
  uint64_t cap;
};

struct PolydatStore {
  void* chunks;  // a list of blocks that never move until the store is reset
};

// ToStr of a scalar given as its bit pattern and ir::TyKind, exactly as ir::render.
void polydat_rt_to_str(PolydatScratch* s, polydat::sim::StrView* out, uint64_t bits, uint32_t kind);
// Lowercase hexadecimal of the bit pattern, no prefix.
void polydat_rt_hex(PolydatScratch* s, polydat::sim::StrView* out, uint64_t bits);
// Decimal, zero-padded to at least `width` digits (at most ir::kMaxFormatWidth).
void polydat_rt_format_dec(PolydatScratch* s, polydat::sim::StrView* out, uint64_t value, uint64_t width);
void polydat_rt_format_fixed(PolydatScratch* s, polydat::sim::StrView* out, double value, uint64_t precision);
void polydat_rt_format_radix(PolydatScratch* s, polydat::sim::StrView* out, uint64_t value, uint64_t radix);
void polydat_rt_concat(PolydatScratch* s, polydat::sim::StrView* out, const polydat::sim::StrView* a,
                       const polydat::sim::StrView* b);
// One argument of a library function (ir/library_fn.h): a scalar's bit pattern
// and ir::TyKind, or a string's bytes.
struct PolydatLibArg {
  uint64_t bits;
  const char* ptr;
  uint64_t len;
  uint32_t kind;
};
// Library function `fn` on `n` arguments: a text result into the step's scratch,
// a u64 or f64 result as its bit pattern.
void polydat_rt_library_str(PolydatScratch* s, polydat::sim::StrView* out, uint32_t fn, const PolydatLibArg* args,
                            uint32_t n);
uint64_t polydat_rt_library_bits(uint32_t fn, const PolydatLibArg* args, uint32_t n);
// Copies the string `field` names into the store and points `field` at the copy.
void polydat_rt_publish(PolydatStore* store, polydat::sim::StrView* field);
// Frees every string of the previous batch.
void polydat_rt_store_reset(PolydatStore* store);
// Frees a step's scratch (the module's release function).
void polydat_rt_scratch_free(PolydatScratch* s);
}

namespace polydat::sim {
// Name -> address of every function above, for the JIT.
struct RuntimeSymbol {
  const char* name;
  void* address;
};
const RuntimeSymbol* runtime_symbols(size_t& count);
}  // namespace polydat::sim
