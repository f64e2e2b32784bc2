#!/usr/bin/env bash
# Smoke run of every fuzz target (part of scripts/test.sh): builds Fuzz/ with libFuzzer and
# AddressSanitizer, then runs every target at once for FUZZ_SMOKE_SECONDS (default 20) from its seed
# corpus, which includes every committed crash reproducer. A target passes when libFuzzer finds no
# crash, hang or out-of-memory. Long campaigns: scripts/fuzz/campaign.sh. Last line:
# "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/fuzz/lib.sh
seconds=${FUZZ_SMOKE_SECONDS:-20}
out=.ci/out/fuzz
rm -rf "$out"; mkdir -p "$out"
passed=0; failed=0

if ! bin=$(scripts/fuzz/build.sh release 2>"$out/build.log" | tail -1) || [ ! -x "$bin/fuzz-tree" ]; then
  tail -20 "$out/build.log"
  echo "fuzz: the fuzz targets did not build (see $out/build.log)"
  echo "0 passed, 1 failed"
  exit 0
fi

# All targets at once (each libFuzzer process is one thread): on 2 cores the smoke costs
# FUZZ_SMOKE_SECONDS of wall time, not five times that.
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; exit 1' INT TERM HUP
for target in "${FUZZ_TARGETS[@]}"; do
  work="$out/$target"
  fuzz_gather_seeds "$target" "$work/seeds"
  mkdir -p "$work/new" "$work/artifacts"
  # shellcheck disable=SC2046
  "$bin/fuzz-$target" $(fuzz_options "$target") -max_total_time="$seconds" \
      -artifact_prefix="$work/artifacts/" "$work/new" "$work/seeds" > "$work/log" 2>&1 &
  pids+=($!)
done
k=0
for target in "${FUZZ_TARGETS[@]}"; do
  work="$out/$target"
  wait "${pids[$k]}"
  status=$?
  k=$((k + 1))
  runs=$(grep -oE "stat::number_of_executed_units: *[0-9]+" "$work/log" | grep -oE "[0-9]+$")
  cov=$(grep -oE "cov: [0-9]+ ft: [0-9]+" "$work/log" | tail -1)
  if [ "$status" -eq 0 ] && [ -z "$(ls -A "$work/artifacts")" ]; then
    echo "fuzz-$target: ok (${runs:-?} executions in ${seconds} s, $cov)"
    passed=$((passed + 1))
  else
    echo "fuzz-$target: FAILED (status $status); reproducer: $(ls "$work/artifacts" | head -1)"
    grep -E "ERROR|Fatal error|fuzz invariant|SUMMARY" "$work/log" | head -5
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
