#!/usr/bin/env bash
# UI change → highlight drawn (issue 30, BENCHMARKS.md "Issue 30"): p50 and p99 over CHANGES
# changes (default 200), on each desktop in the same run, one after the other, with the same
# application, profile and release build (bench/highlight-inside.py says what is measured).
#
# Usage: scripts/desktop-tests/bench-highlight.sh [CHANGES] [DESKTOP...]
#   DESKTOP: x11 (Xvfb, run-desktop.sh), sway (headless sway 1.7, run-sway.sh), gnome (headless
#   GNOME Shell 43 with switchscan's extension, run-gnome.sh: needs root); default: all of them.
#   A desktop is one function below, `desktop_NAME WORK CHANGES`, that runs
#   bench/highlight-inside.py inside its session (as the session's user); add one and it joins
#   the default list. About a minute per desktop.
# BENCH_KEEP=1 keeps the work folder (path printed): per desktop the run's trace (trace-NAME.txt,
# SWITCHSCAN_DESKTOP_TRACE and SWITCHSCAN_OVERLAY_TRACE) and the application's stamps of its
# changes (changes-NAME.txt), all CLOCK_MONOTONIC µs, to see where a change's time went.
set -euo pipefail
cd "$(dirname "$0")/../.."
REPO=$(pwd)
CHANGES=${1:-200}
shift || true

desktop_x11() {   # WORK CHANGES
  scripts/desktop-tests/run-desktop.sh /usr/bin/python3 scripts/desktop-tests/bench/highlight-inside.py "$BIN" "$1" "$2" x11
}
desktop_sway() {  # WORK CHANGES
  scripts/wayland-tests/run-sway.sh /usr/bin/python3 "$REPO/scripts/desktop-tests/bench/highlight-inside.py" "$BIN" "$1" "$2" sway
}
desktop_gnome() { # WORK CHANGES (root: GNOME Shell 43 in a private mount namespace, switchscan's extension enabled)
  scripts/wayland-tests/run-gnome.sh /usr/bin/python3 "$REPO/scripts/desktop-tests/bench/highlight-inside.py" "$BIN" "$1" "$2" gnome 1
}

ALL=$(declare -F | awk '{print $3}' | sed -n 's/^desktop_//p')
DESKTOPS=("$@")
[ ${#DESKTOPS[@]} -eq 0 ] && read -r -a DESKTOPS <<<"$(echo $ALL)"
for d in "${DESKTOPS[@]}"; do
  declare -F "desktop_$d" >/dev/null || { echo "bench-highlight: no desktop \"$d\" (there are: $(echo $ALL))" >&2; exit 2; }
done

scripts/setup.sh --tests >/dev/null
swift build -c release --product switchscan 2>&1 | tail -1
BIN=$(swift build -c release --show-bin-path)
WORK=$(mktemp -d /tmp/switchscan-bench-highlight.XXXXXX)
chmod 777 "$WORK"   # the sway session's user writes its trace there
trap 'if [ -n "${BENCH_KEEP:-}" ]; then echo "bench-highlight: kept $WORK" >&2; else rm -rf "$WORK"; fi' EXIT
echo "machine: $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg); $CHANGES changes per desktop"
for d in "${DESKTOPS[@]}"; do
  "desktop_$d" "$WORK" "$CHANGES"
done
