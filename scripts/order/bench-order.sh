#!/usr/bin/env bash
# Scan order before and after, in one run (issue 11 part 5): `switchscan tree show FILE` by two
# binaries on the same files, wall and CPU (user + system) time and peak RSS from /usr/bin/time.
#
#   scripts/order/bench-order.sh BEFORE_SWITCHSCAN AFTER_SWITCHSCAN [DATA_DIR] [TIMEOUT_S]
#
# Makes (once, in DATA_DIR, default /tmp/switchscan-order-data, not committed): 80,000 and 500,000
# buttons in one row, a 250-level tree of 100,000 buttons with a group and a custom action at every
# level (make-tree.py), and a 300,000-node Android dump from the real ones in ../shared/realdata
# (make-android-dump.py), tiled (grid) and all at one place (stack: every frame overlaps its
# copies). A run past TIMEOUT_S (default 300) is stopped and reported as such.
# The output of both binaries is compared (it must be the same, line for line).
set -u
here=$(cd "$(dirname "$0")" && pwd)
before=$1 after=$2 data=${3:-/tmp/switchscan-order-data} timeout_s=${4:-300}
mkdir -p "$data"
[ -s "$data/row80k.json" ] || python3 "$here/make-tree.py" row 80000 -o "$data/row80k.json"
[ -s "$data/row500k.json" ] || python3 "$here/make-tree.py" row 500000 -o "$data/row500k.json"
[ -s "$data/deep.json" ] || python3 "$here/make-tree.py" deep 100000 -o "$data/deep.json"
[ -s "$data/android300k.xml" ] || python3 "$here/make-android-dump.py" --nodes 300000 -o "$data/android300k.xml"
[ -s "$data/android300k-stack.xml" ] || python3 "$here/make-android-dump.py" --nodes 300000 --layout stack -o "$data/android300k-stack.xml"

printf '%-14s %-7s %-12s %-12s %-10s %s\n' file binary wall CPU "peak RSS" result
for f in row80k.json row500k.json deep.json android300k.xml android300k-stack.xml; do
  for which in before after; do
    bin=$before; [ "$which" = after ] && bin=$after
    out="$data/$which-${f%.*}.txt"
    /usr/bin/time -o "$data/time.txt" -f '%e %U %S %M' timeout "$timeout_s" "$bin" tree show "$data/$f" > "$out" 2> "$data/err.txt"
    status=$?
    read -r wall user sys rss < <(tail -1 "$data/time.txt")
    if [ "$status" = 124 ]; then result="stopped after $timeout_s s"
    elif [ "$status" != 0 ]; then result="exit $status: $(head -c 200 "$data/err.txt")"
    else result=$(head -1 "$out"); fi
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    printf '%-14s %-7s %-12s %-12s %-10s %s\n' "$f" "$which" "$wall s" "$cpu s" "$((rss / 1024)) MB" "$result"
  done
  if [ -s "$data/before-${f%.*}.txt" ] && [ -s "$data/after-${f%.*}.txt" ]; then
    if cmp -s "$data/before-${f%.*}.txt" "$data/after-${f%.*}.txt"; then echo "  same output"; else echo "  OUTPUT DIFFERS"; fi
  fi
done
