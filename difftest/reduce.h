// Delta debugging on kernel text: the smallest kernel, statement by
// statement, that still shows a finding.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace polydat::difftest {

// A kernel's top-level statements: lines joined while a bracket is open (a
// loop body, a module definition, a call over several lines).
std::vector<std::string> statements(const std::string& text);

// Removes statements while `still_fails(candidate)` holds (a candidate that
// does not compile fails the test, so it is not kept): halves first, then one
// at a time, until no single statement can go. At most `max_tries` calls.
std::string reduce(const std::string& text, const std::function<bool(const std::string&)>& still_fails,
                   size_t max_tries = 400);

}  // namespace polydat::difftest
