#!/usr/bin/env bash
# Overlay benchmark (BENCHMARKS.md, "Presence"), under a private Xvfb:
#   1. highlight-to-overlay-moved latency over 500 highlights (switchscan-overlay-bench, release);
#   2. idle CPU of `switchscan run --show` with the highlight shown and nothing changing (manual
#      scanning: no timer), over 30 s, from /proc/PID/stat (utime + stime).
set -u
cd "$(dirname "$0")/../.."
swift build -c release --product switchscan-overlay-bench 2>&1 | tail -1
swift build -c release --product switchscan 2>&1 | tail -1
W=$(mktemp -d /tmp/presence-bench.XXXXXX)
Xvfb -displayfd 3 -screen 0 800x600x24 -nolisten tcp -br -noreset 3>"$W/display" 2>/dev/null &
X=$!
trap 'kill $X 2>/dev/null; [ -n "${R:-}" ] && kill $R 2>/dev/null; wait 2>/dev/null; rm -rf "$W"' EXIT
for i in $(seq 200); do [ -s "$W/display" ] && break; sleep 0.05; done
export DISPLAY=":$(head -1 "$W/display")"
.build/release/switchscan-overlay-bench 500

cat >"$W/manual.json" <<'JSON'
{ "scanning": { "style": "manual" }, "switches": [ { "key": "KEY_SPACE", "action": "select" }, { "key": "KEY_ENTER", "action": "next" } ] }
JSON
DEV=Tests/SwitchInputTests/Fixtures/devices
umockdev-run -d "$DEV/switch.umockdev" -i "/dev/input/event2=$DEV/switch.ioctl" -- \
  .build/release/switchscan run --tree scripts/presence/tree.json --profile "$W/manual.json" --show >/dev/null 2>&1 &
R=$!
sleep 3
P=$(pgrep -f "release/switchscan run" | head -1)
ticks() { awk '{print $14 + $15}' "/proc/$P/stat"; }
a=$(ticks); sleep 30; b=$(ticks)
hz=$(getconf CLK_TCK)
python3 -c "print(f'idle CPU with the overlay shown: {($b - $a) / $hz / 30 * 100:.3f} % of one core over 30 s ({$b - $a} ticks)')"
