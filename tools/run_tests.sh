#!/usr/bin/env bash
# Runs every suite through meson and ends with the one line CI reads:
# "N passed, N failed" — doctest's test cases summed over the suites; a suite
# without doctest (the fuzz run) counts as one case, passed when it exits 0; a
# suite that dies before its summary counts as one failure.
set -uo pipefail
build=${1:-build}
# --slow: every suite; --only "A B": those tests, already built (make test-asan).
suites=(--no-suite slow)
[ "${2:-}" = "--slow" ] && suites=()
# shellcheck disable=SC2206
[ "${2:-}" = "--only" ] && suites=(--no-rebuild --timeout-multiplier 4 ${3:-})  # sanitized code runs slower
meson test -C "$build" --print-errorlogs --num-processes 2 "${suites[@]}"
status=$?
log="$build/meson-logs/testlog.txt"
read -r passed failed < <(awk '
  function close_block() {
    if (!open) return
    if (summary) { p += sp; f += sf }
    else if (ok) p += 1
    else f += 1
    open = 0
  }
  /^=+ [0-9]+\/[0-9]+ =+$/ { close_block(); open = 1; summary = 0; ok = 0; sp = 0; sf = 0; next }
  /^result:/ { ok = ($0 ~ /exit status 0$/) }
  /^\[doctest\] test cases:/ { summary = 1; sp = $6; sf = $9; if ($9 > 0) ok = 0 }
  END { close_block(); printf "%d %d\n", p, f }' "$log")
[ "$status" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$status" -eq 0 ]
