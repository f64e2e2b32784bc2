#!/usr/bin/env bash
# `text stats` on long lines and large files (issue 32, BENCHMARKS.md "text stats on long lines
# and large files"): wall time, CPU and peak memory on one line of 10, 20 and 40 KB, on one word
# of 5,000 letters, and on files of 5,000 and 10,000 lines, to show the cost grows linearly with
# the text. The run measures qwerty's nine methods with five predicted words from the word list,
# each also without them (keystroke savings compare the two): 18 configurations (TEXT_STATS_ARGS
# changes them; the default run, every layout, method and prediction count with mixed predictions,
# has 108). The text is made of the words of the 500-phrase set (Benchmarks/phrases/),
# drawn with a fixed seed: every run types the same characters, and no two lines are the same
# (repeated contexts would be predicted once). BENCH_TIMEOUT=S stops each run after S seconds
# (status 137), for a build from before the fix, on which 40 KB never ends.
# Not a test: numbers for BENCHMARKS.md.
#   scripts/typing/bench-text-stats.sh [lines|long|all] [release switchscan, default .build/release/switchscan]
set -u
cd "$(dirname "$0")/../.."
WHAT=${1:-all}
BIN=${2:-.build/release/switchscan}
[ -x "$BIN" ] || { swift build -c release --product switchscan 2>&1 | tail -1; BIN=.build/release/switchscan; }
W=$(mktemp -d /tmp/text-stats-bench.XXXXXX)
trap 'rm -rf "$W"' EXIT
ARGS=${TEXT_STATS_ARGS:---keyboard qwerty --predictions 5 --predictor words}
export XDG_CONFIG_HOME="$W/config" XDG_DATA_HOME="$W/data"   # the built-in defaults, nothing learned
python3 - "$W" <<'PY'
import random, sys
out = sys.argv[1]
words = [w for line in open("Benchmarks/phrases/mackenzie-soukoreff-500.txt") for w in line.split()]
rng = random.Random(32)
def phrase():
    return " ".join(rng.choice(words) for _ in range(rng.randint(4, 8)))
for kb in (10, 20, 40):
    text = ""
    while len(text) < kb * 1000:
        text += phrase() + " "
    open(f"{out}/line-{kb}k.txt", "w").write(text[:kb * 1000].strip() + "\n")
# One word of 5,000 letters: the phrase set's words run together (the issue's 58 s word).
word = ""
while len(word) < 5000:
    word += "".join(c for c in rng.choice(words).lower() if c.isalpha())
open(f"{out}/word-5000.txt", "w").write(word[:5000] + "\n")
lines = [phrase() for _ in range(10000)]
for n in (5000, 10000):
    open(f"{out}/lines-{n}.txt", "w").write("\n".join(lines[:n]) + "\n")
PY
run() {
  local file=$1
  local chars
  chars=$(python3 -c "import sys; print(sum(len(l.rstrip(chr(10))) for l in open(sys.argv[1])))" "$file")
  # shellcheck disable=SC2086
  /usr/bin/time -f "%e %U %S %M" -o "$W/time" timeout --signal=KILL "${BENCH_TIMEOUT:-0}" "$BIN" text stats "$file" $ARGS --format json > "$W/out.json" 2> "$W/err"
  local status=$?
  # The last line (a run stopped by BENCH_TIMEOUT has "Command terminated by signal 9" first).
  read -r wall user sys rss < <(tail -1 "$W/time")
  python3 - "$W/out.json" "$(basename "$file")" "$chars" "$wall" "$user" "$sys" "$rss" "$status" <<'PY'
import json, sys
path, name, chars, wall, user, sys_, rss, status = sys.argv[1:]
try:
    d = json.load(open(path))
    phrases, contexts, predicting = d["phrases"], d["prediction"]["contexts"], d["prediction"]["seconds"]
    base = next((c["secondsPerCharacter"] for c in d["configurations"] if c["name"] == d["baseline"]), "-")
    configurations = len(d["configurations"])
except Exception:
    phrases, contexts, predicting, base, configurations = "-", "-", "-", "-", 0
cpu = float(user) + float(sys_)
print(f"| {name} | {int(chars):,} | {phrases} | {configurations} | {float(wall):.1f} | {cpu:.1f} | {1e6 * cpu / int(chars) / configurations if configurations else 0:.0f} | "
      f"{int(rss) / 1024:.0f} | {contexts} | {predicting} | {base} | {status} |")
PY
}
echo "| input | characters | phrases | configurations | wall s | CPU s (switchscan) | CPU µs per character and configuration | peak MB | contexts | s predicting | baseline s/char | status |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
if [ "$WHAT" = long ] || [ "$WHAT" = all ]; then for kb in 10 20 40; do run "$W/line-${kb}k.txt"; done; run "$W/word-5000.txt"; fi
if [ "$WHAT" = lines ] || [ "$WHAT" = all ]; then for n in 5000 10000; do run "$W/lines-$n.txt"; done; fi
