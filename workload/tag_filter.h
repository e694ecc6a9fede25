// nb-rs's tag filters (`tags=` on the command line, a phase's `tags:`): which
// ops a phase runs, by the tags they carry.
//
// A filter is conditions separated by ',', all of which must hold (empty
// pieces are skipped). Each is `key:value` (split at the first ':'; both
// sides trimmed, then '"' stripped from both ends of the value) or a bare
// `key`. An op matches a condition when it has a tag `key` and
//   - the condition is a bare key, or its value is empty: any value;
//   - the value holds one of * + ? [ ( |: the tag's value matches the regex
//     ^VALUE$ somewhere (so `a|b` reads as ^a or b$, as in nb-rs), in Rust's
//     regex syntax and meaning (ir/text_regex.h, the library's engine);
//   - otherwise: the tag's value is the value exactly ('.' is a plain dot).
// There is no negation. The tags nb-rs gives every op are in op_tags().
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/expected.h"
#include "workload/tags.h"

namespace polydat::workload {

struct TagFilterError {
  std::string message;
  size_t offset = 0;  // in the filter's text
  std::string kind;   // tag-filter-key, tag-filter-regex, tag-filter-too-long
};

// The longest filter text read.
inline constexpr size_t kMaxTagFilter = 4096;

class TagFilter {
 public:
  static ir::Expected<TagFilter, TagFilterError> parse(std::string_view spec);

  // Whether `tags` meets every condition.
  bool matches(const Tags& tags) const;

  size_t conditions() const { return conditions_.size(); }

 private:
  struct Condition {
    std::string key;
    std::string value;  // empty: any value
    std::string regex;  // ^value$ when value is a regex, else empty
  };
  std::vector<Condition> conditions_;
};

}  // namespace polydat::workload
