// CSV fields as RFC 4180 writes them, for `polydat eval` and a workload's format=csv.
#pragma once

#include <string>
#include <string_view>

namespace polydat::text {

// Which bytes make a field quoted: RFC 4180's (a comma, a quote, a line feed or a carriage return),
// or nb-rs's csv_escape (a carriage return left as it is), which a workload's format=csv follows.
enum class CsvQuoting { Rfc4180, NbRs };

// Appends `field`, in double quotes (each quote doubled) when it holds one of those bytes.
void append_csv_field(std::string& out, std::string_view field, CsvQuoting quoting = CsvQuoting::Rfc4180);

}  // namespace polydat::text
