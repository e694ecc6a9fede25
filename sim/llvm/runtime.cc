#include "sim/llvm/runtime.h"

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <string>

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
}

namespace polydat::sim {

const RuntimeSymbol* runtime_symbols(size_t& count) {
  static const RuntimeSymbol symbols[] = {
      {"polydat_rt_to_str", reinterpret_cast<void*>(&polydat_rt_to_str)},
      {"polydat_rt_hex", reinterpret_cast<void*>(&polydat_rt_hex)},
      {"polydat_rt_format_dec", reinterpret_cast<void*>(&polydat_rt_format_dec)},
      {"polydat_rt_format_radix", reinterpret_cast<void*>(&polydat_rt_format_radix)},
      {"polydat_rt_format_fixed", reinterpret_cast<void*>(&polydat_rt_format_fixed)},
      {"polydat_rt_concat", reinterpret_cast<void*>(&polydat_rt_concat)},
      {"polydat_rt_publish", reinterpret_cast<void*>(&polydat_rt_publish)},
      {"polydat_rt_store_reset", reinterpret_cast<void*>(&polydat_rt_store_reset)},
  };
  count = sizeof symbols / sizeof symbols[0];
  return symbols;
}

}  // namespace polydat::sim
