#include "text/csv.h"

namespace polydat::text {

void append_csv_field(std::string& out, std::string_view field, CsvQuoting quoting) {
  if (field.find_first_of(quoting == CsvQuoting::Rfc4180 ? ",\"\n\r" : ",\"\n") == std::string_view::npos) {
    out += field;
    return;
  }
  out += '"';
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

}  // namespace polydat::text
