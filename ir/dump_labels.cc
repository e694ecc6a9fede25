#include "ir/library_fn.h"
#include "ir/dump_labels.h"

#include <array>
#include <cstdio>

namespace polydat::ir {

namespace {
// A str constant shows at most this many characters, then "…".
constexpr size_t kMaxStrChars = 20;

bool is_utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The first `max_chars` code points of s; never splits a multi-byte character.
std::string_view utf8_prefix(std::string_view s, size_t max_chars) {
  size_t chars = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (is_utf8_continuation(s[i])) continue;
    if (chars == max_chars) return s.substr(0, i);
    ++chars;
  }
  return s;
}

// The visible escape of a backslash or control character; empty for any other byte.
std::string control_escape(unsigned char u) {
  switch (u) {
    case '\\': return "\\\\";
    case '\n': return "\\n";
    case '\t': return "\\t";
    case '\r': return "\\r";
    default: break;
  }
  if (u >= 0x20 && u != 0x7f) return {};
  std::array<char, 8> buf{};
  std::snprintf(buf.data(), buf.size(), "\\x%02x", u);
  return buf.data();
}

// Control characters become visible escapes, so a label always stays on one line.
std::string escape_controls(std::string_view s) {
  std::string out;
  for (char c : s) {
    const std::string e = control_escape(static_cast<unsigned char>(c));
    out += e.empty() ? std::string(1, c) : e;
  }
  return out;
}

// Truncated before escaping, so an escape sequence is never cut in half.
std::string str_text(std::string_view s) {
  const std::string_view kept = utf8_prefix(s, kMaxStrChars);
  std::string out = escape_controls(kept);
  if (kept.size() < s.size()) out += "…";
  return out;
}

std::string constant_text(const Value& v) { return v.ty().is_str() ? str_text(v.as_str()) : render(v); }

// A constant shows its value even when named: the value is what a reader needs.
std::string object_head(const Object& o) {
  if (o.kind == ObjectKind::Constant && o.value) return constant_text(*o.value);
  return o.name;
}
}  // namespace

namespace dump_detail {

// Each object's position among its function's objects, in insertion order.
std::vector<uint32_t> object_ordinals(const CategoryIr& ir) {
  std::vector<uint32_t> ordinal(ir.objects().size(), 0);
  std::vector<uint32_t> next(ir.funcs().size(), 0);
  for (const Object& o : ir.objects())
    if (ir.has_func(o.owner)) ordinal[o.id.v] = next[o.owner.v]++;
  return ordinal;
}

std::string node_id(const CategoryIr& ir, const std::vector<uint32_t>& ordinal, ObjectId o) {
  return "f" + std::to_string(ir.owner(o).v) + "o" + std::to_string(ordinal.at(o.v));
}

std::string node_text(const Object& o) {
  const std::string head = object_head(o);
  std::string text = head.empty() ? ty_label(o.ty) : head + ": " + ty_label(o.ty);
  if (o.kind == ObjectKind::LoopMerge) text = "⟲ " + text;
  if (o.is_volatile) text = "volatile " + text;
  return text;
}

std::string edge_text(const CategoryIr& ir, const Morphism& m) {
  const Operation& op = m.op;
  switch (op.kind) {
    case OpKind::Pair: return "Pair " + std::to_string(op.slot()) + "/" + std::to_string(op.arity());
    case OpKind::Proj: return "Proj " + std::to_string(op.index());
    case OpKind::Rom: return "Rom #" + std::to_string(op.rom());
    case OpKind::LibFn:
      return "LibFn " + (op.library_fn() < library_fns().size() ? std::string(library_fns()[op.library_fn()].name)
                                                              : "?" + std::to_string(op.a));
    case OpKind::Call:
      return "Call " + (ir.has_func(op.callee()) ? ir.func(op.callee()).name : "?" + std::to_string(op.a));
    case OpKind::Cast: return "Cast " + ty_label(ir.object(m.target).ty);
    case OpKind::LoopBack: return "LoopBack ↩";
    default: return std::string(op_name(op.kind));
  }
}

}  // namespace dump_detail

}  // namespace polydat::ir
