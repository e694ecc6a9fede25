#include "hwtop/decode.h"

#include <sstream>

#include "text/plural.h"

namespace polydat::hwtop {

namespace {

uint64_t field_bits(const std::vector<uint32_t>& words, unsigned offset, unsigned width) {
  uint64_t v = 0;
  for (unsigned i = 0; i < width; ++i) {
    const unsigned b = offset + i;
    const uint32_t word = b / 32 < words.size() ? words[b / 32] : 0;
    v |= static_cast<uint64_t>((word >> (b % 32)) & 1) << i;
  }
  return v;
}

// A record belongs to one cycle of its entry, after the previous record's, and
// carries the op the stanza gives that cycle (the runner renders the same one).
ir::Expected<void, DecodeError> stanza_agrees(const HwEntry& e, const Record& r, size_t index, const Record* previous) {
  const std::vector<size_t>& stanza = e.plan->stanza;
  const std::string which = "record " + std::to_string(index) + " (entry " + std::to_string(r.entry) + ", cycle " +
                            std::to_string(r.cycle) + ", op " + std::to_string(r.op) + ")";
  if (r.cycle >= e.plan->cycles || stanza.empty())
    return DecodeError{which + " is past the entry's " + text::counted(e.plan->cycles, "cycle")};
  if (previous && previous->cycle >= r.cycle)
    return DecodeError{which + " comes after cycle " + std::to_string(previous->cycle) + "'s record: one record a cycle, in order"};
  const size_t want = stanza[r.cycle % stanza.size()];
  if (r.op != want) return DecodeError{which + ": the stanza renders op " + std::to_string(want) + " at that cycle"};
  return {};
}

}  // namespace

ir::Expected<Record, std::string> parse_record_line(const std::string& line) {
  std::istringstream in(line);
  std::string tag, hex;
  Record r;
  if (!(in >> tag >> r.entry >> r.op >> r.cycle >> hex) || tag != "R") return "not a record: '" + line + "'";
  for (size_t end = hex.size(); end > 0;) {
    const size_t start = end >= 8 ? end - 8 : 0;
    r.payload.push_back(static_cast<uint32_t>(std::stoul(hex.substr(start, end - start), nullptr, 16)));
    end = start;
  }
  return r;
}

ir::Expected<std::string, DecodeError> decode_records(const HwWorkload& hw, const std::vector<Record>& records,
                                                      workload::LineFormat format,
                                                      const std::vector<std::string>* host_lines) {
  std::string out;
  size_t next_host = 0;  // host entries before this one are in `out`
  auto host_up_to = [&](size_t end) -> ir::Expected<void, DecodeError> {
    for (; next_host < end; ++next_host) {
      if (!hw.entries[next_host].host) continue;
      if (!host_lines || next_host >= host_lines->size())
        return DecodeError{"entry " + std::to_string(next_host) + " runs on the host, and its lines were not given"};
      out += (*host_lines)[next_host];
    }
    return {};
  };
  for (size_t i = 0; i < records.size(); ++i) {
    const Record& r = records[i];
    if (r.entry >= hw.entries.size() || r.op >= hw.entries[r.entry].ops.size() || r.entry < next_host)
      return DecodeError{"record " + std::to_string(i) + " names entry " + std::to_string(r.entry) + " op " + std::to_string(r.op) +
             ", which the design does not have (or not at this point of the stream)"};
    if (auto h = host_up_to(r.entry); !h) return h.error();
    const HwEntry& e = hw.entries[r.entry];
    if (auto s = stanza_agrees(e, r, i, i > 0 && records[i - 1].entry == r.entry ? &records[i - 1] : nullptr); !s)
      return s.error();
    const HwOp& op = e.ops[r.op];
    auto value = [&](const std::string& name) -> ir::Expected<ir::Value, std::string> {
      for (const HwField& f : op.payload)
        if (f.name == name) return value_of_bits(f.source.ty, field_bits(r.payload, f.offset, f.width));
      const workload::ValueSource& src = e.plan->names.at(name);
      if (src.kind == workload::ValueSource::Kind::Cycle) return ir::Value::integer(ir::TyKind::U64, r.cycle);
      return src.value;  // known to the host
    };
    if (auto s = workload::render_op_line(e.plan->ops[r.op], format, value, out); !s) return DecodeError{s.error()};
  }
  if (auto h = host_up_to(hw.entries.size()); !h) return h.error();
  return out;
}

}  // namespace polydat::hwtop
