#!/usr/bin/env bash
# A long fuzzing campaign, for RELIABILITY.md: each target runs until it has done RUNS executions
# or SECONDS have passed (whichever comes first), at the lowest CPU priority, one or two at a
# time. The working corpus grows in Fuzz/.corpus/TARGET (kept between campaigns, not committed);
# logs and crash reproducers go to Fuzz/.campaign/. One summary line per target:
#   TARGET  executions  seconds  exec/s  cov  ft  corpus  result
#
#   scripts/fuzz/campaign.sh [--runs N] [--seconds S] [--parallel 1|2] [TARGET…]
#   (defaults: 1,000,000 runs, 1,800 s, one at a time, every target)
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/fuzz/lib.sh
runs=1000000; seconds=1800; parallel=1; targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --parallel) parallel=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${FUZZ_TARGETS[@]}")
bin=$(nice -n 19 scripts/fuzz/build.sh release | tail -1) || { echo "campaign: build failed"; exit 1; }
mkdir -p Fuzz/.campaign

one() {
  local target=$1 work=Fuzz/.campaign/$1
  rm -rf "$work"; mkdir -p "$work/artifacts" "Fuzz/.corpus/$target"
  fuzz_gather_seeds "$target" "$work/seeds"
  local start=$SECONDS
  # shellcheck disable=SC2046
  nice -n 19 "$bin/fuzz-$target" $(fuzz_options "$target") -runs="$runs" -max_total_time="$seconds" \
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
running=0
for t in "${targets[@]}"; do
  one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$parallel" ]; then wait -n; running=$((running - 1)); fi
done
wait
