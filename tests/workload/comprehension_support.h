// What the comprehension suites share: running a spec and showing its tuples
// as nb-rs's emit phases print them.
#pragma once

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "workload/comprehension.h"
#include "workload/values.h"

namespace polydat::workload::comprehension::test {

using Lines = std::vector<std::string>;

inline const embed::MapLookup kNoNames;

// "x=1 y=a": a tuple as nb-rs's emit phases print it (cmp/xy x={x} y={y}).
inline std::string show(const Tuple& t) {
  std::string s;
  for (const auto& [n, v] : t) s += (s.empty() ? "" : " ") + n + "=" + workload::op_text(v);
  return s;
}

struct Run {
  const embed::Lookup* names = &kNoNames;
  std::map<std::string, std::pair<uint64_t, uint64_t>> cursors;
  bool strict = false;
  std::vector<SpecError> warnings;

  ir::Expected<Lines, SpecError> of(const Comprehension& c) {
    Env env{*names, [this](std::string_view n) -> std::optional<std::pair<uint64_t, uint64_t>> {
              auto it = cursors.find(std::string(n));
              if (it == cursors.end()) return std::nullopt;
              return it->second;
            },
            strict, [this](const SpecError& e) { warnings.push_back(e); }};
    auto tuples = evaluate(c, env);
    if (!tuples) return tuples.error();
    Lines out;
    for (const Tuple& t : *tuples) out.push_back(show(t));
    return out;
  }
  ir::Expected<Lines, SpecError> of(std::string_view spec) {
    auto c = parse(spec);
    if (!c) return c.error();
    return of(*c);
  }
};

inline Lines lines(std::string_view spec, const embed::Lookup& names = kNoNames) {
  Run r;
  r.names = &names;
  auto out = r.of(spec);
  if (!out) FAIL_CHECK(spec << ": " << out.error().to_string());
  return out ? *out : Lines{};
}

inline Lines lines_of(const Comprehension& c) {
  auto out = Run{}.of(c);
  if (!out) FAIL_CHECK(out.error().to_string());
  return out ? *out : Lines{};
}

inline Comprehension parsed(std::string_view spec) {
  auto c = parse(spec);
  REQUIRE_MESSAGE(c, spec << ": " << c.error().to_string());
  return *c;
}

inline Comprehension entries(std::vector<std::string> e) {
  auto c = parse_entries(e);
  REQUIRE_MESSAGE(c, c.error().to_string());
  return *c;
}

// The error evaluating (or parsing) `spec` gives.
inline SpecError error_of(std::string_view spec, const embed::Lookup& names = kNoNames) {
  Run r;
  r.names = &names;
  auto out = r.of(spec);
  REQUIRE_MESSAGE(!out, spec << " was accepted");
  return out.error();
}

inline Lines values(std::string_view spec) {  // the printed values of a one-variable spec
  Lines out;
  for (const std::string& l : lines(spec)) out.push_back(l.substr(l.find('=') + 1));
  return out;
}

inline Lines seq(uint64_t from, uint64_t to, const std::string& var) {  // var=from .. var=to-1
  Lines out;
  for (uint64_t i = from; i < to; ++i) out.push_back(var + "=" + std::to_string(i));
  return out;
}

}  // namespace polydat::workload::comprehension::test

