// Documentation compiled into the binary (docs/*.md, by tools/embed_files.py --docs), for `polydat help`.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace polydat::cli {

// The text of docs/NAME.md, if it is bundled.
std::optional<std::string_view> bundled_doc(std::string_view name);

// The bundled documents' names (file stems), sorted.
std::vector<std::string> bundled_doc_names();

// The section of a Markdown text under the heading `title` (a leading "N. " is ignored), heading included,
// up to the next heading of its level or above; "" when there is none.
std::string doc_section(std::string_view text, std::string_view title);

}  // namespace polydat::cli
