#!/usr/bin/env bash
# A long fuzzing campaign, for RELIABILITY.md: each target runs until it has done RUNS executions
# or SECONDS have passed (whichever comes first), at the lowest CPU priority, one or two at a
# time. The working corpus grows in Fuzz/.corpus/TARGET (kept between campaigns, not committed);
# logs and crash reproducers go to Fuzz/.campaign/. One summary line per target:
#   TARGET  executions  seconds  exec/s  cov  ft  corpus  result
#
#   scripts/fuzz/campaign.sh [--runs N] [--seconds S] [--finish-by HH:MM] [--parallel 1|2] [TARGET…]
#   (defaults: 1,000,000 runs, 1,800 s, one at a time, every target)
# FUZZ_NICE=N runs the targets at that priority (default 19; libFuzzer's -timeout is wall-clock time,
# so on a busy machine a target at 19 can be starved past it: use 0 there).
# --finish-by (one at a time only): each target gets at most an equal share of the time left
# before HH:MM (UTC) among the targets still to run; a target that reaches RUNS early leaves its
# time to the next ones, so list the fast targets first. FUZZ_BIN=DIR skips the build.
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/fuzz/lib.sh
runs=1000000; seconds=1800; parallel=1; finish_by=; targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --parallel) parallel=$2; shift 2 ;;
    --finish-by) finish_by=$(date -u -d "$2" +%s) || exit 2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${FUZZ_TARGETS[@]}")
bin=${FUZZ_BIN:-$(nice -n 19 scripts/fuzz/build.sh release | tail -1)} || { echo "campaign: build failed"; exit 1; }
mkdir -p Fuzz/.campaign

one() {
  local target=$1 seconds=$2 work=Fuzz/.campaign/$1
  rm -rf "$work"; mkdir -p "$work/artifacts" "Fuzz/.corpus/$target"
  fuzz_gather_seeds "$target" "$work/seeds"
  local start=$SECONDS
  # shellcheck disable=SC2046
  nice -n "${FUZZ_NICE:-19}" "$bin/fuzz-$target" $(fuzz_options "$target") -runs="$runs" -max_total_time="$seconds" \
      -artifact_prefix="$work/artifacts/" "Fuzz/.corpus/$target" "$work/seeds" > "$work/log" 2>&1
  local status=$? took=$((SECONDS - start))
  local execs cov ft corpus result
  execs=$(grep -oE "stat::number_of_executed_units: *[0-9]+" "$work/log" | grep -oE "[0-9]+$")
  cov=$(grep -oE "cov: [0-9]+" "$work/log" | tail -1 | grep -oE "[0-9]+")
  ft=$(grep -oE "ft: [0-9]+" "$work/log" | tail -1 | grep -oE "[0-9]+")
  corpus=$(ls "Fuzz/.corpus/$target" | wc -l)
  if [ "$status" -eq 0 ] && [ -z "$(ls -A "$work/artifacts")" ]; then result=clean; else result="FOUND $(ls "$work/artifacts" | tr '\n' ' ')"; fi
  printf "%-9s %10s %6s %7s %6s %7s %7s  %s\n" "$target" "${execs:-?}" "$took" "$(( ${execs:-0} / (took > 0 ? took : 1) ))" \
      "${cov:-?}" "${ft:-?}" "$corpus" "$result" | tee -a Fuzz/.campaign/summary.txt
}

printf "%-9s %10s %6s %7s %6s %7s %7s  %s\n" target executions secs exec/s cov ft corpus result
running=0; left=${#targets[@]}
for t in "${targets[@]}"; do
  budget=$seconds
  if [ -n "$finish_by" ]; then
    share=$(( (finish_by - $(date -u +%s)) / left ))
    [ "$share" -lt "$budget" ] && budget=$share
    [ "$budget" -lt 10 ] && budget=10
  fi
  left=$((left - 1))
  if [ -n "$finish_by" ]; then one "$t" "$budget"; continue; fi
  one "$t" "$budget" &
  running=$((running + 1))
  if [ "$running" -ge "$parallel" ]; then wait -n; running=$((running - 1)); fi
done
wait
