#include "workload/tags.h"

namespace polydat::workload {

const std::string* find_tag(const Tags& tags, std::string_view key) {
  for (auto it = tags.rbegin(); it != tags.rend(); ++it)
    if (it->first == key) return &it->second;
  return nullptr;
}

Tags op_tags(const Tags& workload, const Tags& scope, const Tags& own, std::string_view block, std::string_view op_name) {
  Tags out;
  auto set = [&out](std::string_view k, std::string_view v) {
    for (auto& [key, value] : out)
      if (key == k) {
        value = std::string(v);
        return;
      }
    out.emplace_back(std::string(k), std::string(v));
  };
  for (const Tags* layer : {&workload, &scope, &own})
    for (const auto& [k, v] : *layer) set(k, v);
  set("block", block);
  for (const char* key : {"name", "op"})
    if (!find_tag(out, key)) set(key, op_name);
  return out;
}

}  // namespace polydat::workload
