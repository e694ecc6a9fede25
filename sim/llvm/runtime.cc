#include "sim/llvm/runtime.h"

#include <bit>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ir/library_fn.h"
#include "ir/semantics.h"
#include "ir/value.h"

namespace {

using polydat::sim::StrView;

// The step's scratch holds `text` (the step may read its own last value: copied first).
void publish_in_scratch(PolydatScratch* s, StrView* out, const std::string& text) {
  if (text.size() > s->cap) {
    const uint64_t cap = std::max<uint64_t>(text.size(), 2 * s->cap);
    char* grown = static_cast<char*>(std::realloc(s->data, cap ? cap : 1));
    if (!grown) std::abort();
    s->data = grown;
    s->cap = cap;
  }
  if (!text.empty()) std::memcpy(s->data, text.data(), text.size());
  *out = StrView{s->data, text.size()};
}

// The arguments as the interpreter holds them, so both engines run one eval.
polydat::ir::Value call_library(uint32_t fn, const PolydatLibArg* args, uint32_t n) {
  using polydat::ir::TyKind;
  using polydat::ir::Value;
  std::vector<Value> values;
  for (uint32_t i = 0; i < n; ++i) {
    const auto k = static_cast<TyKind>(args[i].kind);
    if (k == TyKind::Str) values.push_back(Value::str(std::string(args[i].ptr, args[i].len)));
    else if (k == TyKind::Bool) values.push_back(Value::boolean(args[i].bits != 0));
    else if (k == TyKind::F64) values.push_back(Value::f64(std::bit_cast<double>(args[i].bits)));
    else if (k == TyKind::F32) values.push_back(Value::f32(std::bit_cast<float>(static_cast<uint32_t>(args[i].bits))));
    else values.push_back(Value::integer(k, args[i].bits));
  }
  return polydat::ir::library_fns()[fn].eval(values);
}

struct Chunk {
  Chunk* next;
  // the bytes follow
};

}  // namespace

extern "C" {

void polydat_rt_to_str(PolydatScratch* s, StrView* out, uint64_t bits, uint32_t kind) {
  const auto k = static_cast<polydat::ir::TyKind>(kind);
  const polydat::ir::Value v =
      k == polydat::ir::TyKind::Bool ? polydat::ir::Value::boolean(bits != 0) : polydat::ir::Value::integer(k, bits);
  publish_in_scratch(s, out, polydat::ir::render(v));
}

void polydat_rt_hex(PolydatScratch* s, StrView* out, uint64_t bits) {
  char buf[20];
  const auto r = std::to_chars(buf, buf + sizeof buf, bits, 16);
  publish_in_scratch(s, out, std::string(buf, r.ptr));
}

void polydat_rt_format_dec(PolydatScratch* s, StrView* out, uint64_t value, uint64_t width) {
  std::string digits = std::to_string(value);
  const uint64_t w = std::min(width, polydat::ir::kMaxFormatWidth);
  if (digits.size() < w) digits.insert(0, w - digits.size(), '0');
  publish_in_scratch(s, out, digits);
}

void polydat_rt_format_radix(PolydatScratch* s, StrView* out, uint64_t value, uint64_t radix) {
  publish_in_scratch(s, out, polydat::ir::format_radix(value, radix));
}

void polydat_rt_format_fixed(PolydatScratch* s, StrView* out, double value, uint64_t precision) {
  publish_in_scratch(s, out, polydat::ir::format_fixed(value, precision));
}

void polydat_rt_concat(PolydatScratch* s, StrView* out, const StrView* a, const StrView* b) {
  std::string text(a->ptr, a->len);
  text.append(b->ptr, b->len);
  publish_in_scratch(s, out, text);
}

void polydat_rt_library_str(PolydatScratch* s, StrView* out, uint32_t fn, const PolydatLibArg* args, uint32_t n) {
  publish_in_scratch(s, out, call_library(fn, args, n).as_str());
}

uint64_t polydat_rt_library_bits(uint32_t fn, const PolydatLibArg* args, uint32_t n) {
  return call_library(fn, args, n).bits();
}

void polydat_rt_publish(PolydatStore* store, StrView* field) {
  auto* c = static_cast<Chunk*>(std::malloc(sizeof(Chunk) + field->len + 1));
  if (!c) std::abort();
  c->next = static_cast<Chunk*>(store->chunks);
  store->chunks = c;
  char* bytes = reinterpret_cast<char*>(c + 1);
  if (field->len) std::memcpy(bytes, field->ptr, field->len);
  bytes[field->len] = '\0';
  field->ptr = bytes;
}

void polydat_rt_store_reset(PolydatStore* store) {
  auto* c = static_cast<Chunk*>(store->chunks);
  while (c) {
    Chunk* next = c->next;
    std::free(c);
    c = next;
  }
  store->chunks = nullptr;
}

void polydat_rt_scratch_free(PolydatScratch* s) {
  std::free(s->data);
  s->data = nullptr;
  s->cap = 0;
}
}

namespace polydat::sim {

const RuntimeSymbol* runtime_symbols(size_t& count) {
  static const RuntimeSymbol symbols[] = {
      {"polydat_rt_to_str", reinterpret_cast<void*>(&polydat_rt_to_str)},
      {"polydat_rt_hex", reinterpret_cast<void*>(&polydat_rt_hex)},
      {"polydat_rt_library_str", reinterpret_cast<void*>(&polydat_rt_library_str)},
      {"polydat_rt_library_bits", reinterpret_cast<void*>(&polydat_rt_library_bits)},
      {"polydat_rt_format_dec", reinterpret_cast<void*>(&polydat_rt_format_dec)},
      {"polydat_rt_format_radix", reinterpret_cast<void*>(&polydat_rt_format_radix)},
      {"polydat_rt_format_fixed", reinterpret_cast<void*>(&polydat_rt_format_fixed)},
      {"polydat_rt_concat", reinterpret_cast<void*>(&polydat_rt_concat)},
      {"polydat_rt_publish", reinterpret_cast<void*>(&polydat_rt_publish)},
      {"polydat_rt_store_reset", reinterpret_cast<void*>(&polydat_rt_store_reset)},
      {"polydat_rt_scratch_free", reinterpret_cast<void*>(&polydat_rt_scratch_free)},
  };
  count = sizeof symbols / sizeof symbols[0];
  return symbols;
}

}  // namespace polydat::sim
