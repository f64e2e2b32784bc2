# session-lib.sh — sourced by the headless Wayland session runners (run-gnome.sh, run-kwin.sh):
# a private home and runtime folder, a private session bus, the a11y bus and registry, the test
# applications, and a teardown that leaves no process behind. Not run on its own.
#
# The caller sets SESSION_NAME (for messages and the temporary folder's name) and calls, in order:
#   session_begin                the folder ($SESSION_DIR), HOME and XDG_* inside it, the EXIT trap
#   session_bus                  a private dbus-daemon --session (DBUS_SESSION_BUS_ADDRESS)
#   session_a11y                 at-spi-bus-launcher + at-spi2-registryd (AT_SPI_BUS_ADDRESS)
#   session_track PID            a process the runner started (torn down in reverse order)
#   session_app gtk3|qt5|gtk4    a test application under Wayland, awaited on the a11y bus
#   session_run CMD...           CMD with the session's environment; exits with CMD's status
# Teardown (any exit, also INT/TERM/HUP): TERM to CMD's descendants, to every process whose
# environment carries this run's SESSION_DIR (apps left in the background, D-Bus-activated
# services), and to the tracked processes and their descendants; KILL after 3 s to what is left;
# then the folder goes. Every process started here carries SESSION_DIR in its environment.

SESSION_LIB_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SESSION_ROOT=$(cd "$SESSION_LIB_HERE/../.." && pwd)
AT_SPI_LIBEXEC="${AT_SPI_LIBEXEC:-/usr/libexec}"
SESSION_PIDS=()
SESSION_CMD_PID=""
SESSION_T0=$(date +%s%N)

session_log() { [ "${SESSION_VERBOSE:-0}" = 1 ] && echo "$SESSION_NAME: $(( ($(date +%s%N) - SESSION_T0) / 1000000 )) ms: $*" >&2; return 0; }
session_die() { echo "$SESSION_NAME: error: $*" >&2; exit 125; }

# Waits for a condition: session_wait SECONDS WHAT CMD... runs CMD every 50 ms until it succeeds;
# after SECONDS it says what it waited for and fails.
session_wait() {
  local secs=$1 what=$2; shift 2
  local end=$(( $(date +%s%N) + secs * 1000000000 ))
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s%N)" -lt "$end" ] || { echo "$SESSION_NAME: waited ${secs} s for $what" >&2; return 1; }
    sleep 0.05
  done
}

. "$SESSION_ROOT/scripts/lib/processes.sh"

session_cleanup() {
  local rc=$?
  trap - EXIT INT TERM HUP
  proc_end 3 $(proc_session "$SESSION_CMD_PID" SESSION_DIR "$SESSION_DIR" "${SESSION_PIDS[@]}")
  # What started while the first ones were ending (a D-Bus activation during teardown).
  proc_end 1 $(proc_marked SESSION_DIR "$SESSION_DIR")
  wait 2>/dev/null
  if [ -n "${SESSION_KEEP:-}" ]; then echo "$SESSION_NAME: kept $SESSION_DIR" >&2; else rm -rf "$SESSION_DIR"; fi
  session_log "torn down"
  exit $rc
}

session_begin() {
  SESSION_DIR=$(mktemp -d "/tmp/$SESSION_NAME.XXXXXX") || session_die "mktemp failed"
  chmod 700 "$SESSION_DIR"
  export SESSION_DIR
  trap session_cleanup EXIT
  trap 'exit 130' INT; trap 'exit 143' TERM; trap 'exit 129' HUP
  # A home of its own: settings (dconf), caches, extensions and KWin's config never touch the
  # real user's. Set before any daemon starts, since D-Bus-activated services inherit the bus's.
  mkdir -m 700 "$SESSION_DIR/home" "$SESSION_DIR/xdg"
  export HOME="$SESSION_DIR/home" XDG_RUNTIME_DIR="$SESSION_DIR/xdg"
  export XDG_CONFIG_HOME="$HOME/.config" XDG_DATA_HOME="$HOME/.local/share" XDG_CACHE_HOME="$HOME/.cache"
  mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME"
  export XDG_SESSION_TYPE=wayland
  unset DISPLAY WAYLAND_DISPLAY DBUS_SESSION_BUS_ADDRESS AT_SPI_BUS_ADDRESS GSETTINGS_BACKEND SWAYSOCK
}

session_track() { SESSION_PIDS+=("$1"); }

session_has_owner() {  # session_has_owner BUSOPT NAME
  dbus-send "$1" --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner \
    "string:$2" 2>/dev/null | grep -q 'boolean true'
}

session_bus() {
  local fifo="$SESSION_DIR/dbus.fifo" fd addr
  mkfifo "$fifo"; exec {fd}<>"$fifo"
  dbus-daemon --session --nofork --nopidfile --address="unix:path=$SESSION_DIR/session-bus" \
    --print-address="$fd" >"$SESSION_DIR/session-bus.log" 2>&1 &
  session_track $!
  IFS= read -r -t 10 -u "$fd" addr || { cat "$SESSION_DIR/session-bus.log" >&2; session_die "dbus-daemon --session did not start"; }
  exec {fd}<&-
  export DBUS_SESSION_BUS_ADDRESS="$addr"
  session_log "session bus $addr"
}

# The a11y bus and its registry, started here rather than D-Bus-activated (an activated launcher
# would be a child of the bus, and a method call on org.a11y.Bus before it is owned would start a
# second one): poll with NameHasOwner only.
session_a11y() {
  "$AT_SPI_LIBEXEC/at-spi-bus-launcher" --launch-immediately --a11y=1 >"$SESSION_DIR/a11y.log" 2>&1 &
  session_track $!
  session_wait 10 "org.a11y.Bus" session_has_owner --session org.a11y.Bus || session_die "at-spi-bus-launcher did not start"
  local a11y
  a11y=$(dbus-send --session --print-reply=literal --dest=org.a11y.Bus /org/a11y/bus org.a11y.Bus.GetAddress 2>/dev/null | tr -d ' ')
  [ -n "$a11y" ] || { cat "$SESSION_DIR/a11y.log" >&2; session_die "at-spi-bus-launcher gave no address"; }
  export AT_SPI_BUS_ADDRESS="$a11y"
  "$AT_SPI_LIBEXEC/at-spi2-registryd" >"$SESSION_DIR/registryd.log" 2>&1 &
  session_track $!
  session_wait 10 "the AT-SPI registry" session_has_owner --bus="$a11y" org.a11y.atspi.Registry \
    || { cat "$SESSION_DIR/registryd.log" >&2; session_die "at-spi2-registryd did not start"; }
  # Toolkit switches: GTK's atk-bridge registers; Qt 5 exposes its tree without a screen reader asking.
  export NO_AT_BRIDGE=0 GNOME_ACCESSIBILITY=1 QT_ACCESSIBILITY=1 QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1
  unset GTK_A11Y
  session_log "a11y bus $a11y"
}

# The test applications, each under Wayland, awaited until its tree is on the a11y bus and stable.
# Their pids: APP_PID_GTK3, APP_PID_QT5, APP_PID_GTK4; their AT-SPI names: APP_NAME_*.
session_app() {
  local kind=$1 name pid
  case "$kind" in
    gtk3) name=testapp.py
          GDK_BACKEND=wayland /usr/bin/python3 "$SESSION_ROOT/Tests/SwitchDesktopTests/Fixtures/testapp.py" \
            --title "GTK3 test" >"$SESSION_DIR/app-gtk3.log" 2>&1 & ;;
    qt5)  name=qt5app.py
          QT_QPA_PLATFORM=wayland /usr/bin/python3 "$SESSION_LIB_HERE/apps/qt5app.py" >"$SESSION_DIR/app-qt5.log" 2>&1 & ;;
    gtk4) name=gtk4app.py
          GDK_BACKEND=wayland /usr/bin/python3 "$SESSION_LIB_HERE/apps/gtk4app.py" >"$SESSION_DIR/app-gtk4.log" 2>&1 & ;;
    *) session_die "unknown application '$kind' (gtk3, qt5 or gtk4)" ;;
  esac
  pid=$!
  session_track "$pid"
  local upper=${kind^^}
  export "APP_PID_$upper=$pid" "APP_NAME_$upper=$name"
  if ! /usr/bin/python3 "$SESSION_LIB_HERE/tools/atspi_probe.py" wait "$name" 20; then
    cat "$SESSION_DIR/app-$kind.log" >&2
    session_die "the $kind test application ($name) did not appear on the a11y bus"
  fi
  session_log "$kind up (pid $pid)"
}

# Runs CMD in the background (so signals reach the trap at once), stdin passed through, and
# writes $SESSION_DIR/env for another shell to join the session.
session_run() {
  local v
  for v in $(compgen -e); do
    case "$v" in
      WAYLAND_DISPLAY|DBUS_SESSION_BUS_ADDRESS|AT_SPI_BUS_ADDRESS|XDG_*|HOME|SESSION_DIR|APP_PID_*|APP_NAME_*|\
      NO_AT_BRIDGE|GNOME_ACCESSIBILITY|QT_ACCESSIBILITY|QT_LINUX_ACCESSIBILITY_ALWAYS_ON|GDK_BACKEND|QT_QPA_PLATFORM|\
      SWITCHSCAN_*) printf 'export %s=%q\n' "$v" "${!v}" ;;
    esac
  done >"$SESSION_DIR/env"
  [ $# -eq 0 ] && set -- "${SHELL:-bash}"
  session_log "ready; running: $*"
  local in
  exec {in}<&0
  "$@" <&$in &
  SESSION_CMD_PID=$!
  wait "$SESSION_CMD_PID"
}
