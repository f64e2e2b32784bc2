#!/usr/bin/env bash
# Issue 22's benchmarks, before and after in one run: `tree stats` on the 1,000,000-sibling tree and
# the 300,000-node Android dump (target: under 5 s of CPU, user + system, each), `simulate --report`
# on 1,000,000 presses (target: under 300 MB peak RSS), and, with --calibrate, `calibrate`'s default
# grid on the same presses. Wall and CPU time and peak RSS from /usr/bin/time; run it `nice`.
#
#   scripts/reliability/bench-reliability.sh BEFORE_SWITCHSCAN AFTER_SWITCHSCAN [--calibrate] [DATA_DIR]
#
# Makes its inputs once in DATA_DIR (default /tmp/switchscan-reliability-data, not committed):
# scripts/order/make-tree.py row 1000000, scripts/order/make-android-dump.py --nodes 300000
# (REALDATA=dir of the real Android dumps, default ../shared/realdata/android), make-presses.py
# 1000000. The two binaries' `tree stats --format json` must agree (the keys issue 22 added, the
# profile's name and the scanning style, aside); a difference is printed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
before=$1 after=$2; shift 2
calibrate=0
if [ "${1:-}" = --calibrate ]; then calibrate=1; shift; fi
data=${1:-/tmp/switchscan-reliability-data}
realdata=${REALDATA:-$root/../shared/realdata/android}
mkdir -p "$data"
[ -s "$data/row1m.json" ] || python3 "$root/scripts/order/make-tree.py" row 1000000 -o "$data/row1m.json"
[ -s "$data/android300k.xml" ] || python3 "$root/scripts/order/make-android-dump.py" --nodes 300000 -o "$data/android300k.xml" "$realdata"/*.xml
[ -s "$data/presses1m.evemu" ] || python3 "$here/make-presses.py" 1000000 -o "$data/presses1m.evemu"
tree=$root/Sources/switchscan/Demo/demo-tree.json
profile=$root/Profiles/single-switch-auto.json

# measure NAME BINARY ARGS…: one run, its line of the table; stdout kept in $data/NAME.out.
measure() {
  local name=$1 bin=$2; shift 2
  /usr/bin/time -o "$data/time.txt" -f '%e %U %S %M' "$bin" "$@" > "$data/$name.out" 2> "$data/$name.err"
  local status=$?
  read -r wall user sys rss < <(tail -1 "$data/time.txt")
  local cpu
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
  printf '%-34s %-7s %9s %9s %9s  %s\n' "$name" "status $status" "$wall s" "$cpu s" "$((rss / 1024)) MB" "$(head -c 120 "$data/$name.err" | tr '\n' ' ')"
}

printf '%-34s %-7s %9s %9s %9s\n' run status wall CPU "peak RSS"
for f in row1m.json android300k.xml; do
  for which in before after; do
    bin=$before; [ "$which" = after ] && bin=$after
    measure "stats-${f%.*}-$which" "$bin" tree stats "$data/$f" --profile "$profile" --format json
  done
  python3 - "$data/stats-${f%.*}-before.out" "$data/stats-${f%.*}-after.out" <<'PY'
import json, sys
def load(p):
    d = json.load(open(p))
    d.pop("profile", None)
    d.get("scanning", {}).pop("style", None)
    return d
a, b = load(sys.argv[1]), load(sys.argv[2])
print("  same figures" if a == b else "  FIGURES DIFFER")
PY
done
for which in before after; do
  bin=$before; [ "$which" = after ] && bin=$after
  measure "report-1m-presses-$which" "$bin" simulate --tree "$tree" --profile "$profile" --events "$data/presses1m.evemu" --report "$data/report-$which.html"
  echo "  page: $(stat -c %s "$data/report-$which.html" 2>/dev/null || echo 0) bytes"
done
if [ "$calibrate" = 1 ]; then
  for which in before after; do
    bin=$before; [ "$which" = after ] && bin=$after
    measure "calibrate-1m-presses-$which" "$bin" calibrate --events "$data/presses1m.evemu" --tree "$tree" --profile "$profile" --format json
  done
  cmp -s "$data/calibrate-1m-presses-before.out" "$data/calibrate-1m-presses-after.out" && echo "  same report" || echo "  REPORTS DIFFER"
fi
