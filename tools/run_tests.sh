#!/usr/bin/env bash
# Runs the doctest suites through meson and ends with the one line CI reads:
# "N passed, N failed" (test cases over all suites; a suite that dies counts as one failure).
set -uo pipefail
build=${1:-build}
suites=(--no-suite slow)
[ "${2:-}" = "--slow" ] && suites=()
meson test -C "$build" --print-errorlogs --num-processes 2 "${suites[@]}"
status=$?
log="$build/meson-logs/testlog.txt"
# One "[doctest] test cases:" line per suite that reached its end.
read -r passed failed summaries < <(awk '
  /^\[doctest\] test cases:/ { n++; p += $6; f += $9 }
  END { printf "%d %d %d\n", p, f, n }' "$log")
ran=$(meson test -C "$build" --list --no-rebuild "${suites[@]}" 2>/dev/null | grep -c .)
died=$(( ran > summaries ? ran - summaries : 0 ))
failed=$(( failed + died ))
[ "$status" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$status" -eq 0 ]
