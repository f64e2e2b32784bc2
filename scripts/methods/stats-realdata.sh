#!/usr/bin/env bash
# Issue 11's acceptance on real screens: `switchscan tree stats` on every tree dump in a folder
# (default ../shared/realdata), a table of linear, grouped, rowColumn, auto and 2…6 switches
# (average seconds), auto's gain over the better of grouped and rowColumn, and a check that auto
# is never slower than linear or grouped. Exit 1 when that check fails. Not a suite (it needs
# the real data, which CI does not have); run it by hand: scripts/methods/stats-realdata.sh [DIR] [-- profile args]
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
dir="${1:-$here/../shared/realdata}"
shift || true
bin="${SWITCHSCAN:-$here/.build/debug/switchscan}"
[ -x "$bin" ] || { echo "build first: swift build ($bin missing)" >&2; exit 2; }
files=$(find "$dir" -type f \( -name '*.xml' -o -name '*.json' -o -name '*dumpaxtree*.txt' \) | sort)
[ -n "$files" ] || { echo "no tree dumps under $dir" >&2; exit 2; }
for f in $files; do
    printf '%s\t' "$f"
    "$bin" tree stats --format json "$@" "$f" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)))'
done | python3 -c '
import json, sys
rows, bad = [], []
for line in sys.stdin:
    path, js = line.rstrip("\n").split("\t", 1)
    s = json.loads(js)
    a = lambda k: s[k]["averageSeconds"]
    best = min(a("grouped"), a("rowColumn"))
    gain = 1 - a("auto") / best if best > 0 else 0.0
    if a("auto") > a("linear") + 1e-9 or a("auto") > a("grouped") + 1e-9: bad.append(path)
    ks = {g["switches"]: g["averageSeconds"] for g in s["groupSelection"]}
    rows.append((path.split("/")[-1], s["scanItems"], a("linear"), a("grouped"), a("rowColumn"), a("auto"), gain, ks))
print("| screen | items | linear | grouped | rowColumn | auto | auto vs best of grouped/rowColumn | k=2 | k=3 | k=4 | k=6 |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for n, items, l, g, rc, au, gain, ks in rows:
    print(f"| {n} | {items} | {l:.3f} | {g:.3f} | {rc:.3f} | {au:.3f} | {gain*100:.1f} % | {ks[2]:.3f} | {ks[3]:.3f} | {ks[4]:.3f} | {ks[6]:.3f} |")
mean = sum(r[6] for r in rows) / len(rows)
print(f"\naverage gain of auto over the better of grouped and rowColumn: {mean*100:.1f} % over {len(rows)} screens")
print("auto never slower than linear or grouped: " + ("yes" if not bad else "NO: " + ", ".join(bad)))
sys.exit(1 if bad else 0)
'
