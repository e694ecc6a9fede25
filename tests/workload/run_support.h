// Running a workload written in a test on both engines: the suites that
// check the runner share it.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "workload/model.h"
#include "workload/runner.h"

namespace polydat::workload::test {

struct Ran {
  bool ok = false;
  std::string out;    // the lines
  std::string error;  // the rendered error
  RunSummary summary;
};

// A loaded workload run with `o`, its lines collected.
inline Ran run_loaded(const Workload& w, const RunOptions& o) {
  Ran r;
  auto s = run_workload(w, o, [&](const std::string& text) {
    r.out += text;
    return true;
  });
  if (!s) {
    r.error = s.error();
    return r;
  }
  r.ok = true;
  r.summary = *s;
  return r;
}

// `yaml` as the file `path`, run with `o`.
inline Ran run_on(const std::string& yaml, const RunOptions& o, const std::string& path = "test.yaml") {
  auto w = parse_workload_text(yaml, path);
  if (!w) return Ran{false, "", w.error().rendered, {}};
  return run_loaded(*w, o);
}

// Both engines; their lines and errors must agree.
inline Ran run(const std::string& yaml, RunOptions o = {}) {
  Ran interp = run_on(yaml, o);
  o.native = true;
  Ran native = run_on(yaml, o);
  CHECK(native.out == interp.out);
  CHECK(native.ok == interp.ok);
  if (!interp.ok) CHECK(native.error.substr(0, 40) == interp.error.substr(0, 40));
  return interp;
}

}  // namespace polydat::workload::test
