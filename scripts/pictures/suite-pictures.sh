#!/usr/bin/env bash
# Pictures for clinicians (issue 10 part 5), drawn by real renderers and read back:
#   `tree show --format svg` of the demo screen and of a real Android dump, rendered by
#   rsvg-convert: one numbered badge per framed scan item, in its item's top-left corner, in the
#   badge colour with white digits that Tesseract reads in scan order; groups outlined, dashed;
#   a Chrome dump (no frames) drawn as a list with a note;
#   `simulate --report` pages for two sessions, opened by headless Chromium over the DevTools
#   protocol: the page requests nothing but itself (and, as a control, the recorder does see an
#   external image when there is one), the screen picture passes the same badge checks, the
#   highlight path's bars and press marks are in their colours, the figures are the ones counted
#   by hand from the golden transcripts.
# Starts and ends its own Chromium per page check (a pipe, no port), and checks that Chromium and
# every process it started (its crash handlers detach themselves) are gone afterwards; on any
# exit, also INT/TERM/HUP, the suite ends what is left of its own (processes naming its temporary
# directory) and removes that directory. Costs about 12 s of CPU (all processes, Chromium included).
# Ends with "N passed, M failed". PICTURES_KEEP=1 keeps the PNGs (path printed).
set -u
cd "$(dirname "$0")/../.."
HERE=scripts/pictures
BIN=.build/debug/switchscan
PY=/usr/bin/python3
W=$(mktemp -d /tmp/pictures-suite.XXXXXX)
pass=0; fail=0
# The pids of live processes whose command line names this run's directory (Chromium's, which
# check.py puts under $W through TMPDIR), found by their /proc entries, nothing broader.
own_processes() {
  local d pid
  for d in /proc/[0-9]*; do
    pid=${d#/proc/}
    [ "$pid" = $$ ] && continue
    { tr '\0' ' ' < "$d/cmdline"; } 2>/dev/null | grep -qF -- "$W" || continue
    grep -q '^State:[[:space:]]*Z' "$d/status" 2>/dev/null || echo "$pid"
  done
}
cleanup() {
  local left
  left=$(own_processes)
  if [ -n "$left" ]; then echo "pictures suite: ending what is left: $(echo $left)"; kill -KILL $left 2>/dev/null; fi
  if [ -n "${PICTURES_KEEP:-}" ]; then echo "kept $W"; else rm -rf "$W"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
ok()  { echo "PASS $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
# Runs check.py and counts its PASS/FAIL lines (a crash is one failure).
py_check() {
  local out rc
  out=$(TMPDIR="$W" "$PY" "$HERE/check.py" "$@" 2>&1); rc=$?
  echo "$out" | grep -E "^(PASS|FAIL) "
  local p f
  p=$(echo "$out" | grep -c "^PASS "); f=$(echo "$out" | grep -c "^FAIL ")
  pass=$((pass + p)); fail=$((fail + f))
  if [ $rc != 0 ] && [ "$f" = 0 ]; then bad "check.py $1 ended with status $rc"; echo "$out" | tail -8 | sed 's/^/    /'; fi
}

# What it needs, each named with its Debian package when missing (scripts/setup.sh --tests installs
# scripts/apt/test-pictures.list).
missing=$(scripts/packages/programs.py missing rsvg-convert chromium tesseract "$PY")
"$PY" -c "import PIL" 2>/dev/null || missing+=$'\n'"missing: the Python module PIL (Debian package python3-pil)"
[ -x "$BIN" ] || missing+=$'\n'"missing: $BIN (built by this project: swift build)"
if [ -n "${missing//$'\n'/}" ]; then
  echo "pictures suite: ${missing#$'\n'}"
  echo "0 passed, 1 failed"; exit 1
fi
start=$(date +%s%N)

# --- tree show --format svg, rendered by rsvg-convert ------------------------------------------
DEMO=Sources/switchscan/Demo
ANDROID=Tests/SwitchFormatsTests/Fixtures/import/realdata/android/shirates_android_NetworkAndInternetScreen.xml
CHROME=Tests/SwitchFormatsTests/Fixtures/import/realdata/web/chromium-dumpaxtree_commandfor-api-popover-menus-expected-mac.txt
for pair in "demo:$DEMO/demo-tree.json:4" "android:$ANDROID:2"; do
  IFS=: read -r name tree zoom <<<"$pair"
  "$BIN" tree show "$tree" --format svg > "$W/$name.svg" 2>/dev/null && "$BIN" tree show "$tree" --format json > "$W/$name.json" \
    || { bad "$name: tree show failed"; continue; }
  if rsvg-convert -z "$zoom" "$W/$name.svg" -o "$W/$name.png" 2>"$W/rsvg.err"; then
    ok "$name: rsvg-convert renders the picture"
    py_check svg "$W/$name.svg" "$W/$name.png" "$zoom" "$W/$name.json"
  else
    bad "$name: rsvg-convert failed: $(head -2 "$W/rsvg.err")"
  fi
done
"$BIN" tree show "$CHROME" --format svg > "$W/chrome.svg" 2>"$W/chrome.err"
if rsvg-convert "$W/chrome.svg" -o "$W/chrome.png" 2>/dev/null && grep -q "no element has a frame" "$W/chrome.err" \
   && [ "$(grep -c 'class="legend-badge"' "$W/chrome.svg")" = 10 ] && ! grep -q 'class="badge"' "$W/chrome.svg"; then
  ok "chrome dump: no frames: 10 items listed, none drawn, a note on stderr and in the picture; rsvg-convert renders it"
else
  bad "chrome dump: frameless fallback"
fi

# --- simulate --report, opened by Chromium ------------------------------------------------------
# report_check NAME PROFILE EVENTS FIGURES-JSON: simulate the demo screen with --report, check the page.
report_check() {
  "$BIN" simulate --tree $DEMO/demo-tree.json --profile "$2" --events "$3" --report "$W/$1.html" >/dev/null \
    || { bad "$1: simulate --report failed"; return; }
  echo "$4" > "$W/$1-figures.json"
  py_check html "$W/$1.html" "$W/$1" "$W/$1-figures.json"
}
# The figures, counted by hand from the golden transcripts (Tests/CLITests/Golden).
report_check demo $DEMO/demo-profile.json $DEMO/demo-session.evemu '{"Presses": "8", "Accepted": "7",
  "Rejected": "1 (debounce 1)", "Selections": "2", "Selections per minute": "4.07", "Average time to a selection": "6.350 s",
  "Misses": "0 of 2", "Escapes": "0", "Menus closed without an action": "0"}'
report_check manual two-switch-manual $DEMO/two-switch-session.evemu '{"Presses": "15", "Accepted": "15", "Rejected": "0",
  "Selections": "1", "Selections per minute": "2.98", "Average time to a selection": "7.500 s", "Misses": "1 of 1",
  "Escapes": "1", "Menus closed without an action": "0"}'
py_check control "$W/demo.html" "$W/control"

ms=$((($(date +%s%N) - start) / 1000000))
printf 'pictures suite: %d.%01d s\n' $((ms / 1000)) $((ms % 1000 / 100))
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
