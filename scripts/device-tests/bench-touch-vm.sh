#!/usr/bin/env bash
# bench-touch-vm.sh: touch passthrough's latency on a real kernel in qemu (TCG: compare the rows
# with each other, not with hardware). Frames passed live (no hold duration, tap assistance off:
# what every frame after the gesture delay goes through), from the real touch event to the virtual
# one, p50 and p99 over BENCH_FRAMES frames per round, against a bare libevdev → uinput forwarding
# loop measured in the same VM by the same driver (bench-touch-inside.sh says how). Target
# (issue 20): switchscan's p99 ≤ 1.3 × the bare loop's.
#
# usage: scripts/device-tests/bench-touch-vm.sh [--no-build]
# env:   BENCH_FRAMES (1000 per forwarder), BENCH_GAP_MS (8), BENCH_ROUNDS (10), BENCH_WARMUP (50 frames
#        per round, not timed), BENCH_DRIVER_NICE (19: the driver, which stands for the hardware,
#        never competes with the forwarder it wakes; 0: the harness before, see
#        bench-touch-inside.sh), BENCH_SOURCE (screen: the driver's frames are a real
#        touchscreen's, pointer emulation included; mt: multitouch events only, the harness before),
#        BENCH_BARE_WAIT (poll: the bare loop sleeps in poll(2) on the touchscreen alone, the
#        anchor; epoll or poll4: see bench-touch-inside.sh), VM_CACHE (see run-in-vm.sh)
# Prints the BENCH lines and a Markdown table; writes both to $BENCH_OUT (.build/bench-touch-vm.txt).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=1
[ "${1:-}" = "--no-build" ] && BUILD=0
cd "$ROOT"
if [ $BUILD = 1 ]; then swift build -c release --product switchscan >&2; fi
BIN="$(swift build -c release --show-bin-path)/switchscan"
[ -x "$BIN" ] || { echo "bench-touch-vm: no release switchscan at $BIN (run without --no-build)"; exit 1; }
WORK=$(mktemp -d -t switchscan-bench-touch.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
"${CC:-$(command -v gcc || command -v clang)}" -O2 -Wall -o "$WORK/vmdev" "$HERE/vmdev.c" $(pkg-config --cflags --libs libevdev)
N=${BENCH_FRAMES:-1000} GAP=${BENCH_GAP_MS:-8} ROUNDS=${BENCH_ROUNDS:-10} WARMUP=${BENCH_WARMUP:-50}
OUT=${BENCH_OUT:-$ROOT/.build/bench-touch-vm.txt}
TIMEOUT=$(( 2 * ((N + ROUNDS * WARMUP) * GAP / 1000 + ROUNDS * 15) + 60 ))
bash "$HERE/run-in-vm.sh" -t "$TIMEOUT" -m 1G -f "$BIN" -f "$WORK/vmdev" "$HERE/bench-touch-inside.sh" "$N" "$GAP" "$ROUNDS" "$WARMUP" "${BENCH_DRIVER_NICE:-19}" "${BENCH_SOURCE:-screen}" "${BENCH_BARE_WAIT:-poll}" \
  | tr -d '\r' > "$WORK/raw.txt"
grep -E '^BENCH' "$WORK/raw.txt" > "$WORK/bench.txt" || true
{
  echo "BENCH date=$(date -u +%Y-%m-%d) commit=$(git rev-parse --short HEAD) host_cpu=\"$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)\" host_load=\"$(cut -d' ' -f1-3 /proc/loadavg)\""
  cat "$WORK/bench.txt"
  python3 - "$WORK/raw.txt" <<'PY'
import sys
lat, cpu, per_round = {}, {}, 0
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) == 3 and w[0] == "cpu":
        cpu.setdefault(w[1].rstrip("0123456789"), []).append(int(w[2]))
    if line.startswith("BENCH frames_per_round="):
        per_round = int(line.split("=")[1])
    if len(w) == 4 and w[0] == "lat":
        reader = w[1].rstrip("0123456789")
        v = int(w[3])
        lat.setdefault(reader, {}).setdefault(w[1], []).append(v)
def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]
rows = {}
for reader, rounds in lat.items():
    every = [v for r in rounds.values() for v in r]
    lost = sum(1 for v in every if v < 0)
    ok = [v for v in every if v >= 0]
    per = [(pct([v for v in r if v >= 0], 50), pct([v for v in r if v >= 0], 99)) for _, r in sorted(rounds.items(), key=lambda kv: int(kv[0][len(reader):]))]
    cpu_us = sum(cpu.get(reader, [0])) / 1000 / max(1, per_round * len(cpu.get(reader, [1])))
    rows[reader] = (pct(ok, 50), pct(ok, 99), len(ok), lost, per, cpu_us)
    print(f"BENCH touch_{reader} frames={len(ok)} lost={lost} p50_us={rows[reader][0]} p99_us={rows[reader][1]} cpu_us_per_frame={cpu_us:.0f} "
          + "rounds=\"" + " ".join(f"{a}/{b}" for a, b in per) + "\"")
if "switchscan" in rows and "bare" in rows:
    ratio = rows["switchscan"][1] / rows["bare"][1]
    print(f"BENCH touch_ratio_p99={ratio:.2f} target=1.30 met={'yes' if ratio <= 1.3 else 'no'}")
    print()
    print("| forwarder | frames | p50 | p99 | CPU per frame | p50/p99 of each round (µs) |")
    print("|---|---|---|---|---|---|")
    for reader, name in (("switchscan", "switchscan run (touch passthrough, every frame live)"), ("bare", "bare libevdev → uinput loop")):
        p50, p99, n, lost, per, cpu_us = rows[reader]
        print(f"| {name} | {n}{f' ({lost} lost)' if lost else ''} | {p50 / 1000:.3f} ms | {p99 / 1000:.3f} ms | {cpu_us:.0f} µs | " + ", ".join(f"{a}/{b}" for a, b in per) + " |")
    print(f"\np99 ratio switchscan / bare loop: {ratio:.2f} (target ≤ 1.30)")
PY
} | tee "$OUT"
