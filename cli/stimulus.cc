#include "cli/stimulus.h"

#include <fmt/core.h>

#include <map>

#include "cli/values.h"

namespace polydat::cli {

namespace {
void user_error(const std::string& message) { fmt::print(stderr, "error: {}\n", message); }
}  // namespace

std::optional<Stimulus> Stimulus::make(const frontend::Unit& k, const std::vector<std::string>& sets) {
  Stimulus s;
  s.kernel_ = &k;
  for (size_t i = 0; i < k.params.size() && !s.iterated_; ++i)
    if (!k.params[i].is_extern) s.iterated_ = i;
  std::map<std::string, std::string> given;
  for (const std::string& set : sets) {
    const size_t eq = set.find('=');
    if (eq == std::string::npos || eq == 0) {
      user_error("--set takes NAME=VALUE, not '" + set + "'");
      throw UsageError{};
    }
    given[set.substr(0, eq)] = set.substr(eq + 1);
  }
  s.values_.resize(k.params.size());
  for (size_t i = 0; i < k.params.size(); ++i) {
    const frontend::Port& p = k.params[i];
    auto it = given.find(p.name);
    if (s.iterated_ && i == *s.iterated_) {
      if (it != given.end()) {
        user_error("'" + p.name + "' is the input --cycles iterates; it cannot be --set");
        return std::nullopt;
      }
      continue;
    }
    if (it != given.end()) {
      auto v = parse_value(it->second, p.ty);
      if (!v) {
        user_error("'" + it->second + "' is not a " + ir::ty_label(p.ty) + " value for '" + p.name + "'");
        return std::nullopt;
      }
      s.values_[i] = *v;
      given.erase(it);
    } else if (p.default_constant) {
      s.values_[i] = *p.default_constant;
    } else {
      user_error("'" + p.name + "' has no value: give it with --set " + p.name + "=VALUE");
      return std::nullopt;
    }
  }
  if (!given.empty()) {
    user_error("the kernel has no input or extern named '" + given.begin()->first + "'");
    return std::nullopt;
  }
  return s;
}

ir::Expected<std::vector<ir::Value>, std::string> Stimulus::values_at(uint64_t cycle) const {
  std::vector<ir::Value> fields = values_;
  if (!iterated_) return fields;
  const frontend::Port& p = kernel_->params[*iterated_];
  auto v = parse_value(std::to_string(cycle), p.ty);
  if (!v) return "cycle " + std::to_string(cycle) + " does not fit '" + p.name + "' (" + ir::ty_label(p.ty) + ")";
  fields[*iterated_] = *v;
  return fields;
}

std::optional<std::vector<ir::Value>> Stimulus::at(uint64_t cycle) const {
  auto fields = values_at(cycle);
  if (!fields) {
    user_error(fields.error());
    return std::nullopt;
  }
  return std::move(*fields);
}

ir::Expected<ir::Value, std::string> Stimulus::record_at(uint64_t cycle, const ir::Ty& input) const {
  auto fields = values_at(cycle);
  if (!fields) return fields.error();
  return input.is_unit() ? ir::Value() : ir::Value::structure(input, std::move(*fields));
}

std::optional<std::vector<std::vector<ir::Value>>> Stimulus::rows(CycleRange range) const {
  std::vector<std::vector<ir::Value>> out;
  const uint64_t count = iterated_ ? range.end - range.begin : 1;
  for (uint64_t n = 0; n < count; ++n) {
    auto fields = at(range.begin + n);
    if (!fields) return std::nullopt;
    out.push_back(std::move(*fields));
  }
  return out;
}

std::optional<std::vector<ir::Value>> Stimulus::records(CycleRange range, const ir::Ty& input) const {
  std::vector<ir::Value> out;
  const uint64_t count = iterated_ ? range.end - range.begin : 1;
  for (uint64_t n = 0; n < count; ++n) {
    auto record = record_at(range.begin + n, input);
    if (!record) {
      user_error(record.error());
      return std::nullopt;
    }
    out.push_back(std::move(*record));
  }
  return out;
}

ir::Expected<Stimulus, int> stimulus_for(const frontend::Unit& kernel, const std::vector<std::string>& sets) {
  try {
    std::optional<Stimulus> s = Stimulus::make(kernel, sets);
    if (!s) return 1;
    return std::move(*s);
  } catch (const UsageError&) {
    return 2;
  }
}

}  // namespace polydat::cli
