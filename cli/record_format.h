// eval's output formats, row by row: a row is a kernel's output record (the
// plain C layout of sim/llvm/record_layout.h), and the iterated input's value
// beside it. Every row's text depends on the row alone (and on its index, for
// json's separators), so rows formatted by different threads and shards join
// into exactly the text of one run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/llvm/record_layout.h"

namespace polydat::cli {

enum class Format { Table, Csv, Tsv, Json, Jsonl, Bin };
std::optional<Format> parse_format(const std::string& name);
inline constexpr const char* kFormatNames = "table, csv, tsv, json, jsonl or bin";

// One scalar of a row: its kind, its bits (signed integers sign-extended), or its text.
struct Field {
  ir::TyKind kind;
  uint64_t bits = 0;
  std::string_view str;
};

class RowFormatter {
 public:
  // `iterated`: the iterated input's column name (its value goes first), or none.
  RowFormatter(Format format, std::optional<std::string> iterated, const sim::RecordLayout& outputs);

  Format format() const { return format_; }
  // bin writes strings nowhere: the output fields that make a kernel unfit for it.
  std::optional<std::string> bin_refusal() const;

  // What comes before row 0 and after the last row (the header line, json's brackets).
  std::string begin() const;
  std::string end(uint64_t rows) const;
  // Appends the row of output record `rec`; `row` is its index in the whole run.
  void row(std::string& out, uint64_t row, uint64_t iterated_value, const unsigned char* rec) const;

  // table: the columns' widths from these records (the first rows of the run), never narrower than the header.
  void fit_widths(uint64_t first_iterated, const unsigned char* recs, size_t count);

 private:
  // Column c of a row: the iterated input's value, or an output field of `rec`.
  Field column(size_t c, uint64_t iterated_value, const unsigned char* rec) const;

  Format format_;
  std::optional<std::string> iterated_;
  sim::RecordLayout layout_;
  std::vector<std::string> names_;  // the columns: the iterated input's, then the outputs'
  std::vector<size_t> widths_;      // table
};

// A field's text as eval prints it everywhere: ir::render of the value.
void render_field(std::string& out, const Field& f);

}  // namespace polydat::cli
