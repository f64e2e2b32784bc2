#!/usr/bin/env bash
# run.sh SECONDS OUT-DIR [ENV=VALUE...]: GNOME's frames with and without the application's change
# (BENCHMARKS.md "Wayland (issue 30)", why the application's frame costs 8–12 ms). A diagnostic,
# not a test: it runs run-gnome.sh from a copy that also installs this folder's probe extension
# (and, with PROBE_MONITOR=WxH, another virtual monitor size), runs scenario.py, and prints
# analyse.py's table. ENV=VALUE pairs go to the Shell (LP_NUM_THREADS=0, MUTTER_DEBUG=backend,
# FRAME_PROBE_STALLS=1). Root, as run-gnome.sh.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SECONDS_EACH=${1:?seconds per phase}; OUT=${2:?output folder}; shift 2
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
copy="$OUT/run-gnome-probe.sh"
sed -e "s|^HERE=.*|HERE=$HERE/../..|" \
    -e "s|^enabled=\"\['\$SEAT_UUID'\]\"; |mkdir -p \"\$XDG_DATA_HOME/gnome-shell/extensions/probe@tests.switchscan.org\"; cp $HERE/extension.js $HERE/metadata.json \"\$XDG_DATA_HOME/gnome-shell/extensions/probe@tests.switchscan.org/\"; enabled=\"['probe@tests.switchscan.org', '\$SEAT_UUID']\"; |" \
    -e "s|enabled=\"\['\$SEAT_UUID', '\$UUID'\]\"|enabled=\"['probe@tests.switchscan.org', '\$SEAT_UUID', '\$UUID']\"|" \
    -e 's|--virtual-monitor 1280x800); done|--virtual-monitor ${PROBE_MONITOR:-1280x800}); done|' \
    "$HERE/../../run-gnome.sh" >"$copy"
grep -q probe@tests "$copy" || { echo "run.sh: run-gnome.sh changed; cannot add the probe" >&2; exit 2; }
chmod +x "$copy"
rm -f "$OUT/frames.txt" "$OUT/phases.txt"
env "$@" FRAME_PROBE_OUT="$OUT/frames.txt" "$copy" /usr/bin/python3 "$HERE/scenario.py" "$SECONDS_EACH" "$OUT/phases.txt"
/usr/bin/python3 "$HERE/analyse.py" "$OUT/frames.txt" "$OUT/phases.txt"
