#!/usr/bin/env bash
# Typing latency benchmark (issue 18, BENCHMARKS.md "Typing"): from a key's selection to the new
# predicted words on the screen, on the live path: `switchscan run --show` (release build) reading
# a umockdev switch box, the keyboard opened on a text field, predictions from presage's real
# child process and the word list, the overlay drawing the panel on a private Xvfb. The press's
# time is its own stamp (the event's, carried over to the engine's clock); "on the screen" is when
# the overlay has rendered the new words and the X server has carried it out (XSync, the overlay's
# SWITCHSCAN_OVERLAY_TRACE note). Not a test: numbers for BENCHMARKS.md.
#   scripts/typing/bench-latency.sh [N letters, default 300]
set -u
cd "$(dirname "$0")/../.."
N=${1:-300}
swift build -c release --product switchscan 2>&1 | tail -1
W=$(mktemp -d /tmp/typing-bench.XXXXXX)
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -br -noreset 3>"$W/display" 2>/dev/null &
X=$!
trap 'kill $X 2>/dev/null; wait 2>/dev/null; rm -rf "$W"' EXIT
for i in $(seq 200); do [ -s "$W/display" ] && break; sleep 0.05; done
export DISPLAY=":$(head -1 "$W/display")"
export XDG_DATA_HOME="$W/data" XDG_CONFIG_HOME="$W/config"
cat >"$W/profile.json" <<'JSON'
{ "scanning": { "style": "manual", "grouping": "containers", "tapBehavior": "alwaysTap" },
  "switches": [ { "key": "KEY_SPACE", "action": "next" }, { "key": "KEY_ENTER", "action": "select" } ],
  "keyboard": { "layout": "qwerty", "predictions": 8, "learning": false } }
JSON
cat >"$W/tree.json" <<'JSON'
{ "screen": { "width": 1280, "height": 800 }, "root": { "id": "window", "frame": [0, 0, 1280, 800], "children": [
  { "id": "message", "label": "Message", "textEntry": "multiLine", "frame": [40, 40, 1200, 200] } ] } }
JSON
python3 scripts/typing/bench-latency.py scenario "$N" > "$W/scenario.txt"
D=Tests/SwitchInputTests/Fixtures/devices
SWITCHSCAN_OVERLAY_TRACE=1 /usr/bin/python3 scripts/device-tests/umockdev-live.py --device "$D/keyboard.umockdev" \
  --ioctl "/dev/input/event10=$D/keyboard.ioctl" --scenario "$W/scenario.txt" -- \
  "$PWD/.build/release/switchscan" run --tree "$W/tree.json" --profile "$W/profile.json" --show --show-frames --format jsonl \
  > "$W/out.jsonl" 2> "$W/err.txt"
echo "load average before and after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 scripts/typing/bench-latency.py measure "$W/err.txt" "$W/out.jsonl"
