// The plain C layout of a kernel's input and output records: the scalar
// leaves of the entry's input (or output) type, in order, each at its natural
// alignment, as a C compiler lays out a struct of them. The native backend
// reads and writes records with exactly these offsets, and the header
// `polydat emit-obj` writes declares the same structs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ir/ty.h"
#include "ir/value.h"

namespace polydat::sim {

struct RecordField {
  std::string name;  // the port's name; a tuple component adds _0, _1, ...
  ir::TyKind kind;   // a scalar kind or Str
  size_t offset = 0;
  size_t size = 0;   // bool 1, integers and floats their width, str 16 (pointer, length)
};

struct RecordLayout {
  std::vector<RecordField> fields;
  size_t size = 0;
  size_t align = 1;
};

// The layout of a record of type `ty`: a struct's fields (named after them),
// a tuple's components, or one scalar (named `name`); unit has no fields.
RecordLayout record_layout(const ir::Ty& ty, const std::string& name = "value");

// The scalar leaves of a type, in record order (products flattened).
std::vector<ir::Ty> leaf_types(const ir::Ty& ty);

// A value's leaves into a record at `rec`, and back. Strings are not copied
// in: a str leaf holds a (pointer, length) pair into the Value, so `v` must
// outlive the record's use.
void store_record(const RecordLayout& layout, const ir::Value& v, void* rec);
ir::Value load_record(const RecordLayout& layout, const ir::Ty& ty, const void* rec);

// Room for `count` records of `record_size` bytes, in 8-byte words so every
// field is aligned; it grows, never shrinks, and new room is zeroed (padding stays zero).
class RecordBuffer {
 public:
  unsigned char* at(size_t record_size, size_t count) {
    const size_t words = (record_size * count + 7) / 8 + 1;
    if (words_.size() < words) words_.resize(words, 0);
    return reinterpret_cast<unsigned char*>(words_.data());
  }

 private:
  std::vector<uint64_t> words_;
};

// A string as a record holds it.
struct StrView {
  const char* ptr;
  uint64_t len;
};

}  // namespace polydat::sim
