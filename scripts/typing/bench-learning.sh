#!/usr/bin/env bash
# Learning benchmark (issue 32, BENCHMARKS.md "Learning"): what learning a sentence costs with the
# person's words file at its bound (50,000 words), end to end: `switchscan simulate --learn`
# (learning as `run` does: presage's child learns into user-en.db, the words file is written
# atomically with fsync) types S sentences into a text field, each a two-letter word no one wrote
# before (so each makes room for a word). The cost of one sentence is the difference between
# S = 41 and S = 1, over 40: the session's start, presage's start and the file's one read cancel
# out. Then the same with no words file yet (what learning costs anyway), and the issue's file of
# 10,000,000 lines (988 MB and 21 s before the bound; now refused unread). Wall and CPU time
# (user + system of switchscan and presage's child) and peak RSS (switchscan's) from /usr/bin/time.
#   scripts/typing/bench-learning.sh [SWITCHSCAN, default: a release build of this checkout]
set -u
cd "$(dirname "$0")/../.."
root=$(pwd)
bin=${1:-}
if [ -z "$bin" ]; then
  swift build -c release --product switchscan 2>&1 | tail -1
  bin=$root/.build/release/switchscan
fi
W=$(mktemp -d /tmp/learning-bench.XXXXXX)
trap 'rm -rf "$W"' EXIT
cat >"$W/profile.json" <<'JSON'
{ "scanning": { "style": "manual", "tapBehavior": "alwaysTap", "focusedItemAfterTap": "current" },
  "switches": [ { "key": "KEY_SPACE", "action": "next" }, { "key": "KEY_ENTER", "action": "select" } ],
  "keyboard": { "layout": "qwerty", "predictions": 0, "grouping": "none", "learning": true } }
JSON
cat >"$W/tree.json" <<'JSON'
{ "screen": { "width": 800, "height": 600 }, "root": { "id": "window", "frame": [0, 0, 800, 600], "children": [
  { "id": "message", "label": "Message", "textEntry": "multiLine", "frame": [20, 20, 760, 100] } ] } }
JSON
# recording S: the field, then S sentences "XY⏎" (X, Y from the top row, never the same pair
# twice), then the keyboard's close key; qwerty scanned key by key from q (Space moves, Enter
# selects). Microseconds unpadded (umockdev-compatible) is not needed: simulate reads %.6f.
python3 - "$W" <<'PY'
import sys
w = sys.argv[1]
order = list("qwertyuiopasdfghjkl") + ["shift"] + list("zxcvbnm") + ["backspace", "123", " ", "return", "close"]
pairs = [(a, b) for a in "qwertyuiop" for b in "qwertyuiop" if a != b]
for s in (1, 41):
    t, out = 0.5, []
    def tap(code):
        global t
        out.append("E: %.6f 0001 %s 1\nE: %.6f 0000 0000 0\nE: %.6f 0001 %s 0\nE: %.6f 0000 0000 0\n" % (t, code, t, t + 0.05, code, t + 0.05))
        t += 0.15
    tap("001c")
    for k in range(s):
        for key in [pairs[k][0], pairs[k][1], "return"]:
            for _ in range(order.index(key)): tap("0039")
            tap("001c")
    for _ in range(order.index("close")): tap("0039")
    tap("001c")
    open("%s/sentences-%d.evemu" % (w, s), "w").write("".join(out))
PY
# The file at the bound: 50,000 words (the bundled list's 40,000, then made-up ones), Zipf counts.
python3 - "$W" <<'PY'
import sys, itertools, string
w = sys.argv[1]
words = [l.split()[0] for l in open("Keyboards/words/en.txt") if l.strip() and not l.startswith("#")]
for t in itertools.product(string.ascii_lowercase, repeat=5):
    if len(words) >= 50000: break
    words.append("qx" + "".join(t))
with open(w + "/bound.txt", "w") as f:
    for rank, word in enumerate(words[:50000]):
        f.write("%s %d %d\n" % (word.lower(), max(1, 100000 // (rank + 1)), (rank * 7919) % 5000))
with open(w + "/ten-million.txt", "w") as f:
    for k in range(10_000_000):
        f.write("w%07d 1\n" % k)
PY

# run NAME S WORDSFILE: one simulate --learn with a fresh data folder (WORDSFILE copied in, or
# none); prints "wall cpu rss" and keeps the outputs in $W/NAME.*.
run() {
  local name=$1 s=$2 words=$3
  rm -rf "$W/data"; mkdir -p "$W/data/switchscan"
  [ -n "$words" ] && cp "$words" "$W/data/switchscan/words-en.txt"
  sync
  XDG_DATA_HOME=$W/data XDG_CONFIG_HOME=$W/config /usr/bin/time -o "$W/time.txt" -f '%e %U %S %M' \
    "$bin" simulate --tree "$W/tree.json" --profile "$W/profile.json" --events "$W/sentences-$s.evemu" --learn --format jsonl \
    > "$W/$name.out" 2> "$W/$name.err"
  read -r wall user sys rss < <(tail -1 "$W/time.txt")
  awk -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" 'BEGIN { printf "%s %.3f %d\n", w, u + s, r / 1024 }'
}

printf '%-40s %9s %9s %9s\n' run wall CPU "peak RSS"
for case in bound empty; do
  words=""; [ "$case" = bound ] && words=$W/bound.txt
  read -r w1 c1 r1 < <(run "$case-1" 1 "$words")
  read -r w41 c41 r41 < <(run "$case-41" 41 "$words")
  printf '%-40s %8ss %8ss %6s MB\n' "$case: 1 sentence" "$w1" "$c1" "$r1" "$case: 41 sentences" "$w41" "$c41" "$r41"
  awk -v a="$w1" -v b="$w41" -v c="$c1" -v d="$c41" -v n="$case" 'BEGIN { printf "%-40s %7.1fms %7.1fms\n", n ": one sentence (41 − 1, over 40)", (b - a) * 25, (d - c) * 25 }'
  if [ "$case" = bound ]; then
    lines=$(wc -l < "$W/data/switchscan/words-en.txt")
    echo "  words file after 41 sentences: $lines lines (2 of them the header), $(stat -c %s "$W/data/switchscan/words-en.txt") bytes; $(grep -c '"learning":"full"' "$W/bound-41.out") \"full\" line"
  fi
done
read -r w c r < <(run "ten-million" 1 "$W/ten-million.txt")
printf '%-40s %8ss %8ss %6s MB\n' "10,000,000 lines ($(( $(stat -c %s "$W/ten-million.txt") / 1000000 )) MB): 1 sentence" "$w" "$c" "$r"
grep -o '"learning":"failed","reason":"[^"]*' "$W/ten-million.out" | head -1 | cut -c1-160
