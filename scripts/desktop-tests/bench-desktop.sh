#!/usr/bin/env bash
# The live desktop's benchmark (BENCHMARKS.md "Live desktop"), in one headless desktop session:
#   - time from start to the first highlight (`switchscan run --desktop --app gtk3-widget-factory`);
#   - time to read the scan items of gtk3-widget-factory's window, against the anchors in the same
#     run: a plain uncached libatspi full walk in C and a pyatspi walk (target: ≤ 0.3× the faster);
#   - time from a UI change (a row of buttons added, as the test application's "Add row" does) to
#     the re-read tree handed to the engine, p50/p99 over 200 changes (target: p99 < 50 ms);
#   - idle CPU while nothing changes (target: < 0.1 %), manual and auto scanning.
# Usage: scripts/desktop-tests/bench-desktop.sh [CHANGES]   (release build; about 2.5 minutes)
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/setup.sh --tests >/dev/null
swift build -c release --product switchscan 2>&1 | tail -1
swift build -c release --product switchscan-bench 2>&1 | tail -1
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d /tmp/switchscan-bench-desktop.XXXXXX)
trap 'rm -rf "$work"' EXIT
gcc -O2 -o "$work/walk-anchor" scripts/desktop-tests/bench/walk-anchor.c $(pkg-config --cflags --libs atspi-2 gobject-2.0)
scripts/desktop-tests/run-desktop.sh /usr/bin/python3 scripts/desktop-tests/bench/bench-inside.py \
  "$bin" "$work" "${1:-200}"
