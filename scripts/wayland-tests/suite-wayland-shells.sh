#!/usr/bin/env bash
# The Wayland routes on the real compositors, headless (issue 30): switchscan's GNOME Shell
# extension on GNOME Shell 43 and its KWin script and fake input on KWin 5.27, against real GTK 3,
# Qt 5 and GTK 4 applications, each need checked by AT-SPI read-back and screenshot pixels
# (tools/check_gnome.py, tools/check_kwin.py: what each check proves is in their lines).
#   1. the extension's two forms: GNOME 43's has no import/export left, GNOME 45's parses as ES
#      modules (node --check);
#   2. GNOME, extension enabled, GTK 3 + Qt 5 + GTK 4 (14 checks);
#   3. GNOME without the extension, two monitors (2 checks);
#   4. GNOME at scale 2 (1 check);
#   5. KWin, GTK 3 + Qt 5 (8 checks);
# and after each session, that it left no process (every process of a session carries this run's
# WAYLAND_SUITE_RUN in its environment). A session that cannot start fails loudly (its log's
# end), as does a checker that stops short of its checks; nothing is skipped.
# Ends with "N passed, M failed". WAYLAND_SUITE_KEEP=1 keeps the screenshots (path printed).
set -u
cd "$(dirname "$0")/../.."
HERE=scripts/wayland-tests
W=$(mktemp -d /tmp/wayland-suite.XXXXXX)
TAG="wayland-suite-$$-$RANDOM"
pass=0; fail=0
ok()  { echo "PASS $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

# Processes that carry this run's tag (a session's, left behind), not this shell or its children.
left_over() {
  local p
  for p in $(grep -lzx "WAYLAND_SUITE_RUN=$TAG" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3); do
    grep -q '^State:[[:space:]]*Z' "/proc/$p/status" 2>/dev/null || echo "$p"
  done
}
cleanup() {
  local left; left=$(left_over)
  if [ -n "$left" ]; then echo "wayland suite: ending what is left: $(echo $left)"; kill -KILL $left 2>/dev/null; fi
  if [ -n "${WAYLAND_SUITE_KEEP:-}" ]; then echo "kept $W"; else rm -rf "$W"; fi
}
trap cleanup EXIT
trap 'exit 130' INT; trap 'exit 143' TERM; trap 'exit 129' HUP

# Runs one session: session NAME EXPECTED RUNNER-ARGS... -- CHECKER-ARGS...; counts the checker's
# PASS/FAIL lines, fails what it did not reach, and checks the teardown.
session() {
  local name=$1 expected=$2; shift 2
  local runner=() out rc t0=$SECONDS
  while [ "$1" != -- ]; do runner+=("$1"); shift; done; shift
  out=$(WAYLAND_SUITE_RUN=$TAG timeout 300 "${runner[@]}" "$@" 2>"$W/$name.stderr" </dev/null); rc=$?
  echo "$out" | grep -E "^(PASS|FAIL) "
  local p f
  p=$(echo "$out" | grep -c "^PASS "); f=$(echo "$out" | grep -c "^FAIL ")
  pass=$((pass + p)); fail=$((fail + f))
  if [ $((p + f)) -lt "$expected" ]; then
    bad "$name: $((expected - p - f)) of $expected checks did not run (status $rc$([ $rc = 125 ] && echo ': the session did not start'))"
    grep -v "dbind-WARNING\|^$" "$W/$name.stderr" | tail -15 | sed 's/^/    /'
  fi
  local left=""
  for i in $(seq 200); do left=$(left_over); [ -z "$left" ] && break; sleep 0.05; done
  if [ -z "$left" ]; then ok "$name: torn down, no process left ($((SECONDS - t0)) s)"
  else bad "$name: processes left after the session: $(ps -o pid=,args= -p $(echo $left | tr ' ' ,) | head -5)"; fi
}

# Each missing program named with its Debian package (scripts/setup.sh --tests installs
# scripts/apt/test-wayland-*.list).
missing=$(scripts/packages/programs.py missing gnome-shell kwin_wayland gnome-screenshot kbuildsycoca5 wayland-scanner cc unshare \
  dbus-daemon gsettings node)
/usr/bin/python3 -c "import pyatspi, dbus, PIL, gi" 2>/dev/null \
  || missing+=$'\n'"missing: a Python module of pyatspi, dbus, PIL, gi (Debian packages python3-pyatspi, python3-dbus, python3-pil, python3-gi)"
[ "$(id -u)" = 0 ] || missing+=$'\n'"root (GNOME Shell runs in a private mount namespace)"
if [ -n "${missing//$'\n'/}" ]; then
  bad "the Wayland tests need: ${missing#$'\n'}"
  echo "$pass passed, $fail failed"
  exit 1
fi

# 1. The extension's two forms, as build.sh makes them.
if packaging/gnome-shell/build.sh 43 "$W/ext-43" 2>"$W/build43.err"; then
  ok "gnome: build.sh 43 makes the imports.* form ($(ls "$W/ext-43" | tr '\n' ' '))"
else bad "gnome: build.sh 43: $(cat "$W/build43.err")"; fi
if packaging/gnome-shell/build.sh 45 "$W/ext-45" 2>"$W/build45.err"; then
  errors=""
  for f in "$W"/ext-45/*.js; do
    cp "$f" "$W/check.mjs"
    node --check "$W/check.mjs" 2>>"$W/node.err" || errors+=" $(basename "$f")"
  done
  /usr/bin/python3 -c "import json,sys; m=json.load(open(sys.argv[1])); assert '45' in m['shell-version'] and '43' not in m['shell-version']" \
    "$W/ext-45/metadata.json" 2>/dev/null || errors+=" metadata.json"
  if [ -z "$errors" ]; then ok "gnome: build.sh 45 makes ES modules that parse (node --check) and a 45+ metadata.json"
  else bad "gnome: the GNOME 45 form:$errors: $(head -5 "$W/node.err")"; fi
else bad "gnome: build.sh 45: $(cat "$W/build45.err")"; fi

# 2-4. GNOME Shell 43; 5. KWin.
session "gnome main" 15 $HERE/run-gnome.sh --app gtk3 --app qt5 --app gtk4 -- $HERE/tools/check_gnome.py main "$W"
session "gnome missing" 2 $HERE/run-gnome.sh --extension none --monitors 2 --app gtk3 -- $HERE/tools/check_gnome.py missing "$W"
session "gnome scale2" 1 $HERE/run-gnome.sh --scale 2 --app gtk3 -- $HERE/tools/check_gnome.py scale2 "$W"
session "kwin" 8 $HERE/run-kwin.sh --app gtk3 --app qt5 -- sh -c '"$SWITCHSCAN_KWIN_PYTHON" "$0" "$1"' $HERE/tools/check_kwin.py "$W"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
