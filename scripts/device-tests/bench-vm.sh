#!/usr/bin/env bash
# bench-vm.sh: end-to-end numbers on a real kernel in qemu (TCG, so absolute numbers are
# emulated; compare the rows with each other):
#   latency from the kernel event time to the transcript line (p50/p99 over BENCH_PRESSES presses),
#   idle CPU, CPU while a 1 kHz touchscreen stream plays, and the same stream read by evtest and
#   by a bare C libevdev read loop.
# Prints the "BENCH …" lines, then a Markdown table of them (BENCH-RESULTS.md holds a copy), and
# writes both to $BENCH_OUT (default .build/bench-vm.txt). bench-inside.sh says how each number
# is measured.
#
# usage: scripts/device-tests/bench-vm.sh [--no-build]
# env:   BENCH_PRESSES (1000), BENCH_GAP_MS (40), BENCH_ROUNDS (4), BENCH_SECONDS (6), BENCH_IDLE_SECONDS (20),
#        VM_CACHE (see run-in-vm.sh)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=1
[ "${1:-}" = "--no-build" ] && BUILD=0

need=()
for t in qemu-system-x86_64:qemu-system-x86 cpio:cpio file:file pkg-config:pkg-config evtest:evtest stdbuf:coreutils; do
  command -v "${t%%:*}" >/dev/null || need+=("${t#*:}")
done
command -v gcc >/dev/null || command -v clang >/dev/null || need+=(gcc)
pkg-config --exists libevdev 2>/dev/null || need+=(libevdev-dev)
if [ ${#need[@]} -gt 0 ]; then
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"; } >&2 \
    || { echo "bench-vm: SKIPPED: cannot install ${need[*]}"; exit 0; }
fi

cd "$ROOT"
# Release build: the numbers are about the shipped binary.
if [ $BUILD = 1 ]; then swift build -c release --product switchscan >&2; fi
BIN="$(swift build -c release --show-bin-path)/switchscan"
[ -x "$BIN" ] || { echo "bench-vm: no release switchscan at $BIN (run without --no-build)"; exit 1; }

WORK=$(mktemp -d -t switchscan-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
"${CC:-$(command -v gcc || command -v clang)}" -O2 -Wall -o "$WORK/vmdev" "$HERE/vmdev.c" $(pkg-config --cflags --libs libevdev)
cat > "$WORK/bench-switch.json" <<'JSON'
{"name": "bench: one switch, manual scanning", "switches": [{"key": "KEY_SPACE", "action": "next"}],
 "scanning": {"style": "manual"}, "switchStabilization": {"debounce": 0}}
JSON
cat > "$WORK/bench-touch.json" <<'JSON'
{"name": "bench: touch accommodations", "switches": [], "touchAccommodations": {"holdDuration": 0.1, "tapAssistance": "initial"}}
JSON
# Calibration: the same `simulate` run (the engine and the transcript, no devices) on the host
# and in the VM says how much slower TCG runs this code than the host's CPU.
python3 - "$WORK/calib.evemu" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("# EVEMU 1.3\nN: Calibration Switch\nI: 0003 1234 5001 0001\n")
    for i in range(20000):
        t = i * 40000
        for (dt, v) in ((0, 1), (20000, 0)):
            s, us = divmod(t + dt, 1000000)
            f.write(f"E: {s}.{us:06d} 0001 0039 {v}\nE: {s}.{us:06d} 0000 0000 0\n")
PY
"$BIN" simulate --tree "$ROOT/Tests/SwitchInputTests/Fixtures/tree.json" --profile "$WORK/bench-switch.json" --events "$WORK/calib.evemu" --format jsonl > /dev/null
calib_start=$(date +%s%N)
"$BIN" simulate --tree "$ROOT/Tests/SwitchInputTests/Fixtures/tree.json" --profile "$WORK/bench-switch.json" --events "$WORK/calib.evemu" --format jsonl > /dev/null
CALIB_HOST_MS=$(( ($(date +%s%N) - calib_start) / 1000000 ))
FILES=(-f "$BIN" -f "$WORK/vmdev" -f "$WORK/calib.evemu" -f "$ROOT/Tests/SwitchInputTests/Fixtures/tree.json" -f "$WORK/bench-switch.json" -f "$WORK/bench-touch.json"
       -f "$ROOT/Profiles/single-switch-auto.json")
command -v evtest >/dev/null && FILES+=(-f "$(command -v evtest)")
# evtest block-buffers a pipe; stdbuf -oL makes it write each line like the other readers.
STDBUF_LIB=$(ls /usr/libexec/coreutils/libstdbuf.so 2>/dev/null || true)
if command -v stdbuf >/dev/null && [ -n "$STDBUF_LIB" ]; then FILES+=(-f "$(command -v stdbuf)" -f "$STDBUF_LIB:$STDBUF_LIB"); fi
# The environment reaches the VM's script as arguments (run-in-vm passes no environment).
cat > "$WORK/bench.sh" <<EOF2
#!/bin/sh
export BENCH_PRESSES=${BENCH_PRESSES:-1000} BENCH_GAP_MS=${BENCH_GAP_MS:-40} BENCH_ROUNDS=${BENCH_ROUNDS:-4} BENCH_SECONDS=${BENCH_SECONDS:-6} BENCH_IDLE_SECONDS=${BENCH_IDLE_SECONDS:-20}
exec sh /test/bench-inside.sh
EOF2
FILES+=(-f "$HERE/bench-inside.sh")

LOG="$WORK/console.log"
set +e
bash "$HERE/run-in-vm.sh" -t 900 -m 1G "${FILES[@]}" "$WORK/bench.sh" 2>&1 | tee "$LOG"
RC=${PIPESTATUS[0]}
set -e
if ! grep -q "VM-BOOTED" "$LOG"; then
  echo "bench-vm: SKIPPED: qemu could not start the test kernel here (run-in-vm.sh status $RC)"
  exit 0
fi
OUT=${BENCH_OUT:-$ROOT/.build/bench-vm.txt}
mkdir -p "$(dirname "$OUT")"
{
  echo "BENCH date=$(date -u +%Y-%m-%dT%H:%M:%SZ) commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet 2>/dev/null || echo +changes)"
  echo "BENCH host_cpu=\"$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)\" host_cpus=$(nproc) host_kernel=$(uname -r) qemu=\"$(qemu-system-x86_64 --version | head -1)\" accel=tcg machine=${VM_MACHINE:-pc}"
  echo "BENCH swift=\"$(swift --version 2>&1 | head -1)\" build=release"
  echo "BENCH calib_host_ms=$CALIB_HOST_MS"
  grep -a "^BENCH " "$LOG" | tr -d '\r'
} > "$OUT.raw"
python3 "$HERE/bench-table.py" "$OUT.raw" | tee "$OUT"
cat "$OUT.raw" >> "$OUT"
exit "$RC"
