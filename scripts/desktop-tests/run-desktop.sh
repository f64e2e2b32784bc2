#!/usr/bin/env bash
# run-desktop.sh [CMD [ARGS...]]   (owned copy of ../shared/tools/atspi/run-desktop.sh: the desktop tests
# and bench-desktop.sh run everything inside it)
#
# Runs CMD inside a private, headless desktop session with a live AT-SPI accessibility bus:
#   Xvfb (first free display, picked by Xvfb itself via -displayfd)
#   a private D-Bus session bus (dbus-daemon --session, own socket in a private temp dir)
#   at-spi-bus-launcher --launch-immediately --a11y=1  (starts the accessibility bus)
#   at-spi2-registryd                                   (the AT-SPI registry / desktop object)
# and tears all of it down on exit (TERM, then KILL after 2 s): the pids it started, their
# descendants, and any process whose environment carries this run's RUN_DESKTOP_DIR (apps CMD
# left in the background). Exits with CMD's status. Without CMD it runs "$SHELL" (interactive).
#
# Environment given to CMD: DISPLAY, DBUS_SESSION_BUS_ADDRESS, AT_SPI_BUS_ADDRESS, XDG_RUNTIME_DIR,
# NO_AT_BRIDGE=0 (GTK3's built-in atk-bridge then registers on the bus), GNOME_ACCESSIBILITY=1,
# QT_ACCESSIBILITY=1, QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1, GSETTINGS_BACKEND=memory (nothing
# touches the user's real dconf), RUN_DESKTOP_DIR (private temp dir, removed at exit; it holds an
# `env` file that another shell can source to join the session; what that shell starts then
# carries RUN_DESKTOP_DIR and is torn down with the session).
#
# Knobs: RUN_DESKTOP_SCREEN (default 1600x900x24), RUN_DESKTOP_VERBOSE=1 (timings to stderr).
# Needs: apt-get install -y --no-install-recommends xvfb at-spi2-core dbus-daemon dbus-bin
set -u

SCREEN="${RUN_DESKTOP_SCREEN:-1600x900x24}"
VERBOSE="${RUN_DESKTOP_VERBOSE:-0}"
AT_SPI_LIBEXEC="${AT_SPI_LIBEXEC:-/usr/libexec}"
t0=$(date +%s%N)
log() { [ "$VERBOSE" = 1 ] && echo "run-desktop: $(( ($(date +%s%N) - t0) / 1000000 )) ms: $*" >&2; return 0; }
die() { echo "run-desktop: error: $*" >&2; exit 125; }

DIR=$(mktemp -d /tmp/run-desktop.XXXXXX) || die "mktemp failed"
chmod 700 "$DIR"; mkdir -m 700 "$DIR/xdg"
# Every process of this session inherits RUN_DESKTOP_DIR (unique per run); teardown finds them by
# it, so apps that CMD left running in the background (orphans, re-parented to init) go too.
export RUN_DESKTOP_DIR="$DIR"
PIDS=()           # started by us, in start order
CMD_PID=""

. "$(dirname "$0")/../lib/processes.sh"

cleanup() {
  local rc=$?
  trap - EXIT INT TERM HUP
  # Reverse start order: CMD's leftovers, registryd, launcher (+ its a11y dbus-daemon), session bus
  # (+ anything it D-Bus-activated), Xvfb last.
  proc_end 2 $(proc_session "$CMD_PID" RUN_DESKTOP_DIR "$DIR" "${PIDS[@]}")
  wait 2>/dev/null
  rm -rf "$DIR"
  log "torn down"
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT; trap 'exit 143' TERM; trap 'exit 129' HUP

# 1+2. Xvfb on the first free display (it writes the display number to the fd when ready) and a
#      private session bus (it writes its address), started together, then both awaited.
mkfifo "$DIR/x.fifo" "$DIR/dbus.fifo"
exec {xfd}<>"$DIR/x.fifo" {dfd}<>"$DIR/dbus.fifo"
Xvfb -displayfd "$xfd" -screen 0 "$SCREEN" -nolisten tcp -noreset >"$DIR/xvfb.log" 2>&1 &
PIDS+=($!)
dbus-daemon --session --nofork --nopidfile --address="unix:path=$DIR/session-bus" \
  --print-address="$dfd" >"$DIR/dbus.log" 2>&1 &
PIDS+=($!)
IFS= read -r -t 10 -u "$xfd" dpy || { cat "$DIR/xvfb.log" >&2; die "Xvfb did not start"; }
IFS= read -r -t 10 -u "$dfd" addr || { cat "$DIR/dbus.log" >&2; die "dbus-daemon did not start"; }
exec {xfd}<&- {dfd}<&-
export DISPLAY=":$dpy" DBUS_SESSION_BUS_ADDRESS="$addr" XDG_RUNTIME_DIR="$DIR/xdg"
export GSETTINGS_BACKEND=memory
log "Xvfb ready on $DISPLAY; session bus $addr"

# 3. AT-SPI bus launcher. Poll with NameHasOwner (never a method call on org.a11y.Bus before it is
#    owned: that would D-Bus-activate a second launcher from /usr/share/dbus-1/services).
"$AT_SPI_LIBEXEC/at-spi-bus-launcher" --launch-immediately --a11y=1 >"$DIR/launcher.log" 2>&1 &
PIDS+=($!)
has_owner() {  # has_owner BUSOPT NAME
  dbus-send "$1" --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner \
    "string:$2" 2>/dev/null | grep -q 'boolean true'
}
for i in $(seq 400); do has_owner --session org.a11y.Bus && break; sleep 0.01; done
a11y=$(dbus-send --session --print-reply=literal --dest=org.a11y.Bus /org/a11y/bus \
  org.a11y.Bus.GetAddress 2>/dev/null | tr -d ' ')
[ -n "$a11y" ] || { cat "$DIR/launcher.log" >&2; die "at-spi-bus-launcher gave no address"; }
export AT_SPI_BUS_ADDRESS="$a11y"
log "a11y bus $a11y"

# 4. Registry (otherwise the a11y bus would D-Bus-activate it on first use, as its child).
"$AT_SPI_LIBEXEC/at-spi2-registryd" >"$DIR/registryd.log" 2>&1 &
PIDS+=($!)
for i in $(seq 400); do has_owner --bus="$a11y" org.a11y.atspi.Registry && break; sleep 0.01; done
has_owner --bus="$a11y" org.a11y.atspi.Registry || { cat "$DIR/registryd.log" >&2; die "registryd not up"; }
log "registry up"

# 5. Toolkit switches.
export NO_AT_BRIDGE=0 GNOME_ACCESSIBILITY=1 QT_ACCESSIBILITY=1 QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1
for v in DISPLAY DBUS_SESSION_BUS_ADDRESS AT_SPI_BUS_ADDRESS XDG_RUNTIME_DIR GSETTINGS_BACKEND \
         NO_AT_BRIDGE GNOME_ACCESSIBILITY QT_ACCESSIBILITY QT_LINUX_ACCESSIBILITY_ALWAYS_ON RUN_DESKTOP_DIR; do
  printf 'export %s=%q\n' "$v" "${!v}"
done >"$DIR/env"
log "ready; running: ${*:-${SHELL:-bash}}"

# 6. CMD in the background (so signals reach our trap at once), stdin passed through explicitly.
[ $# -eq 0 ] && set -- "${SHELL:-bash}"
exec {in}<&0
"$@" <&$in &
CMD_PID=$!
wait "$CMD_PID"; rc=$?
exit $rc
