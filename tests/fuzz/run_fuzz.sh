#!/usr/bin/env bash
# Runs the parser fuzz target for a fixed time from the seed corpus; fails on any crash.
# usage: run_fuzz.sh FUZZER SEED_DIR DICT SECONDS
set -euo pipefail
fuzzer=$(realpath "$1") seeds=$(realpath "$2") dict=$(realpath "$3") seconds=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
"$fuzzer" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -dict="$dict" \
  -print_final_stats=1 "$work" "$seeds" 2>&1 | tail -25
