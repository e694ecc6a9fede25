#include "frontend/source.h"

#include <algorithm>

namespace polydat::frontend {

SourceFile::SourceFile(std::string p, std::string t) : path(std::move(p)), text(std::move(t)) {
  line_starts.push_back(0);
  for (uint32_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') line_starts.push_back(i + 1);
}

std::pair<uint32_t, uint32_t> SourceFile::line_col(uint32_t offset) const {
  auto it = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
  const auto line = static_cast<uint32_t>(it - line_starts.begin());
  return {line, offset - line_starts[line - 1] + 1};
}

std::string_view SourceFile::line_text(uint32_t line) const {
  if (line == 0 || line > line_starts.size()) return {};
  const uint32_t start = line_starts[line - 1];
  uint32_t end = line < line_starts.size() ? line_starts[line] - 1 : static_cast<uint32_t>(text.size());
  if (end > start && text[end - 1] == '\r') --end;
  return std::string_view(text).substr(start, end - start);
}

uint32_t SourceMap::add(std::string path, std::string text) {
  files_.push_back(std::make_unique<SourceFile>(std::move(path), std::move(text)));
  return static_cast<uint32_t>(files_.size() - 1);
}

ir::SourceLoc SourceMap::loc(Span s) const {
  const auto [line, col] = file(s.file).line_col(s.start);
  return ir::SourceLoc{s.file, s.start, s.end, line, col};
}

}  // namespace polydat::frontend
