// Written as one would by hand, from the stdlib's definitions; no floats, so
// the project's -ffp-contract=off changes nothing here. Kept in their own
// file so the compiler cannot specialise them on the bench's inputs.
#include "hand_kernels.h"

namespace polydat::bench {

namespace {
uint64_t rotl(uint64_t v, int k) { return (v << k) | (v >> (64 - k)); }

// XXH3_64bits of the 8 little-endian bytes of x (seed 0), reduced as xxHash does for len 8.
uint64_t xxh3_8(uint64_t x) {
  uint64_t h = rotl(x, 32) ^ 0xC73AB174C5ECD5A2ull;
  h ^= rotl(h, 49) ^ rotl(h, 24);
  h *= 0x9FB21C651E98DF25ull;
  h ^= (h >> 35) + 8;
  h *= 0x9FB21C651E98DF25ull;
  return h ^ (h >> 28);
}

uint64_t splitmix64(uint64_t x) {
  uint64_t z = x + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// PCG-RXS-M-XS's output function of a state.
uint64_t pcg_output(uint64_t state) {
  const uint64_t w = ((state >> ((state >> 59) + 5)) ^ state) * 12605985483714917081ull;
  return (w >> 43) ^ w;
}

// PCG's pcg_advance from seed 0 by `position` steps, then the RXS-M-XS output.
uint64_t pcg(uint64_t position, uint64_t stream) {
  constexpr uint64_t kMultiplier = 6364136223846793005ull;
  uint64_t acc_plus = 0, cur_mult = kMultiplier, cur_plus = 2 * stream + 1;
  for (uint64_t delta = position; delta != 0; delta >>= 1) {
    if (delta & 1) acc_plus = acc_plus * cur_mult + cur_plus;
    cur_plus = (cur_mult + 1) * cur_plus;
    cur_mult *= cur_mult;
  }
  return pcg_output(acc_plus);  // acc_mult * seed vanishes: the seed is 0
}

// The same with the step taken through a mask, as the GK kernel's `if(take, ...)` selects: no branch to mispredict.
uint64_t pcg_branch_free(uint64_t position, uint64_t stream) {
  constexpr uint64_t kMultiplier = 6364136223846793005ull;
  uint64_t acc_plus = 0, cur_mult = kMultiplier, cur_plus = 2 * stream + 1;
  for (uint64_t delta = position; delta != 0; delta >>= 1) {
    const uint64_t take = 0 - (delta & 1);
    acc_plus = ((acc_plus * cur_mult + cur_plus) & take) | (acc_plus & ~take);
    cur_plus = (cur_mult + 1) * cur_plus;
    cur_mult *= cur_mult;
  }
  return pcg_output(acc_plus);
}
}  // namespace

void hand_hash(const CycleRecord* in, U64Record* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i].value = xxh3_8(in[i].cycle);
}

void hand_splitmix64(const CycleRecord* in, U64Record* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i].value = splitmix64(in[i].cycle);
}

void hand_pcg(const PcgInput* in, U64Record* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i].value = pcg(in[i].position, in[i].stream);
}

void hand_pcg_branch_free(const PcgInput* in, U64Record* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i].value = pcg_branch_free(in[i].position, in[i].stream);
}

void hand_key_value(const CycleRecord* in, KeyValueRecord* out, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const uint64_t id = xxh3_8(in[i].cycle) % 1000000;
    const uint64_t bucket = id / 1000;
    const uint64_t shard = xxh3_8(id) % 64;
    const uint64_t region = id % 7;
    const uint64_t slot = (bucket ^ shard) % 128;
    out[i] = {id, bucket, shard, region, id & 1, (id * 2654435761ull) >> 16, slot, rotl(id, 13) ^ region,
              splitmix64(id) % 100};
  }
}

}  // namespace polydat::bench
