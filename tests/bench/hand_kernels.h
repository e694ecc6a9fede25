// Hand-written C++ twins of four GK kernels, the yardstick for the native
// backend: each loops over the same plain C records the native engine reads
// and writes (record_layout.h lays out a struct of u64 fields as C does).
#pragma once

#include <cstddef>
#include <cstdint>

namespace polydat::bench {

struct CycleRecord {
  uint64_t cycle;
};
struct U64Record {
  uint64_t value;
};
struct PcgInput {
  uint64_t position;
  uint64_t stream;
};
// The key-value kernel's nine outputs, in declaration order.
struct KeyValueRecord {
  uint64_t id, bucket, shard, region, parity, score, slot, rank, weight;
};

// The GK sources the twins follow (compiled with the stdlib on the search path).
inline constexpr const char* kHashSource = "input cycle: u64\nh := hash(cycle)\n";
inline constexpr const char* kSplitmixSource = "input cycle: u64\nz := splitmix64(cycle)\n";
inline constexpr const char* kPcgSource = "input position: u64\ninput stream: u64\nout := pcg(position, stream)\n";
inline constexpr const char* kKeyValueSource =
    "input cycle: u64\n"
    "id := mod(hash(cycle), 1000000)\n"
    "bucket := id / 1000\n"
    "shard := mod(hash(id), 64)\n"
    "region := id % 7\n"
    "parity := id & 1\n"
    "score := (id * 2654435761) >> 16\n"
    "slot := (bucket ^ shard) % 128\n"
    "rank := rotl(id, 13) ^ region\n"
    "weight := splitmix64(id) % 100\n"
    "output id, bucket, shard, region, parity, score, slot, rank, weight\n";

// n records in, n out, as the native engine's run(in, out, n).
void hand_hash(const CycleRecord* in, U64Record* out, size_t n);
void hand_splitmix64(const CycleRecord* in, U64Record* out, size_t n);
void hand_pcg(const PcgInput* in, U64Record* out, size_t n);  // pcg_advance as PCG writes it: `if (delta & 1)`
void hand_pcg_branch_free(const PcgInput* in, U64Record* out, size_t n);
void hand_key_value(const CycleRecord* in, KeyValueRecord* out, size_t n);

}  // namespace polydat::bench
