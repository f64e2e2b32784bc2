#!/usr/bin/env bash
# run-sway.sh [OPTIONS] [CMD [ARGS...]]
# run-sway.sh --join DIR CMD [ARGS...]
#
# Runs CMD inside a private, headless sway session (issue 30's wlroots gate), as the session's
# user, and tears all of it down on exit (TERM, then KILL after 2 s; then checks that no process
# of the session is left). Exits with CMD's status (125 when the session cannot start).
#
#   a private D-Bus session bus (dbus-daemon --session, its socket in the session's runtime dir)
#   at-spi-bus-launcher --launch-immediately --a11y=1, at-spi2-registryd (the a11y bus, registry)
#   sway with WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman, no Xwayland,
#     fixed outputs (default one of 1280x800 at scale 1), pixel borders of 2, a solid background,
#     the pointer's image hidden 100 ms after it last moved
#   test applications (--app), each awaited in sway's tree and on the accessibility bus
#
# sway refuses to run as root: run as root, the session runs as the unprivileged user
# `switchscan-wl` (created on first use: a system user without home or shell); run as anyone
# else, as that user. Every file the session's user must reach has to be readable by it: the
# repository (for the test applications under Tests/) and the build folder, i.e. every folder
# from / down must be o+x and the files o+r (checked at start; /work here is 0755, and SwiftPM
# writes .build with the umask 022). The session's own files live in a private temp folder
# (RUN_SWAY_DIR, removed at exit): xdg/ (XDG_RUNTIME_DIR, 0700, the user's), home/ (HOME), log/,
# env (a file another shell can source), sway.conf.
#
# Options:
#   --output WxH[@S]   an output of W x H logical pixels at integer scale S (mode W·S x H·S);
#                      repeat for more, placed left to right (default: one 1280x800@1)
#   --app gtk3[:ARGS]  the GTK 3 test application (Tests/SwitchDesktopTests/Fixtures/testapp.py
#                      ARGS…, GDK_BACKEND=wayland); gtk4: the Wayland tests' application in GTK 4
#                      (Tests/SwitchWaylandTests/Fixtures/wlapp.py --gtk 4, named wlapp-gtk4.py on
#                      the a11y bus); qt5: Qt's calculator example (QT_QPA_PLATFORM=wayland);
#                      repeatable
#   --join DIR         run CMD inside the running session whose RUN_SWAY_DIR is DIR (as its user,
#                      with its environment; this process becomes CMD); no session is started or
#                      torn down
#
# Environment given to CMD: WAYLAND_DISPLAY, SWAYSOCK, XDG_RUNTIME_DIR, DBUS_SESSION_BUS_ADDRESS,
# AT_SPI_BUS_ADDRESS, HOME, GDK_BACKEND=wayland, QT_QPA_PLATFORM=wayland,
# QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1, QT_ACCESSIBILITY=1, GNOME_ACCESSIBILITY=1,
# GSETTINGS_BACKEND=memory, RUN_SWAY_DIR, RUN_SWAY_USER; DISPLAY and NO_AT_BRIDGE unset.
# Knobs: RUN_SWAY_VERBOSE=1 (timings to stderr), RUN_SWAY_USER (default switchscan-wl).
# Needs: sway, dbus-daemon, dbus-bin, at-spi2-core, python3-gi (scripts/apt/test-wayland.list).
set -u

REPO=$(cd "$(dirname "$0")/../.." && pwd)
VERBOSE="${RUN_SWAY_VERBOSE:-0}"
AT_SPI_LIBEXEC="${AT_SPI_LIBEXEC:-/usr/libexec}"
t0=$(date +%s%N)
log() { [ "$VERBOSE" = 1 ] && echo "run-sway: $(( ($(date +%s%N) - t0) / 1000000 )) ms: $*" >&2; return 0; }
die() { echo "run-sway: error: $*" >&2; exit 125; }

# --- who the session runs as ---
if [ "$(id -u)" = 0 ]; then
  USER_NAME="${RUN_SWAY_USER:-switchscan-wl}"
  if ! id -u "$USER_NAME" >/dev/null 2>&1; then
    useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin \
      --comment "switchscan headless Wayland tests" "$USER_NAME" 2>/dev/null || id -u "$USER_NAME" >/dev/null 2>&1 \
      || die "cannot create the user $USER_NAME (useradd)"
  fi
  USER_ID=$(id -u "$USER_NAME"); GROUP_ID=$(id -g "$USER_NAME")
  AS_USER=(setpriv --reuid="$USER_ID" --regid="$GROUP_ID" --init-groups --inh-caps=-all)
else
  USER_NAME=$(id -un); USER_ID=$(id -u); GROUP_ID=$(id -g)
  AS_USER=()
fi

# The session's environment, clean (nothing of the caller's desktop leaks in), as `env` arguments.
session_env() {
  printf '%s\n' "PATH=${SESSION_PATH}" "LANG=C.UTF-8" "HOME=$DIR/home" "USER=$USER_NAME" "LOGNAME=$USER_NAME" \
    "XDG_RUNTIME_DIR=$DIR/xdg" "XDG_CONFIG_HOME=$DIR/home/.config" "XDG_CACHE_HOME=$DIR/home/.cache" \
    "XDG_DATA_HOME=$DIR/home/.local/share" "RUN_SWAY_DIR=$DIR" "RUN_SWAY_USER=$USER_NAME" "GSETTINGS_BACKEND=memory" \
    "GDK_BACKEND=wayland" "QT_QPA_PLATFORM=wayland" "QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1" "QT_ACCESSIBILITY=1" \
    "GNOME_ACCESSIBILITY=1" "XDG_SESSION_TYPE=wayland" "XDG_CURRENT_DESKTOP=sway"
  [ -n "${DBUS_ADDR:-}" ] && echo "DBUS_SESSION_BUS_ADDRESS=$DBUS_ADDR"
  [ -n "${A11Y_ADDR:-}" ] && echo "AT_SPI_BUS_ADDRESS=$A11Y_ADDR"
  [ -n "${WAYLAND_NAME:-}" ] && echo "WAYLAND_DISPLAY=$WAYLAND_NAME" && echo "SWAYSOCK=$DIR/xdg/sway-ipc.sock"
  return 0
}
in_session() {  # in_session [NAME=VALUE...] CMD...: as the session's user, in its environment
  local vars=()
  mapfile -t vars < <(session_env)
  "${AS_USER[@]}" env -i "${vars[@]}" "$@"
}
start() {       # start LOG [NAME=VALUE...] CMD...: in_session in the background; its pid in $STARTED
  local out=$1 vars=(); shift
  mapfile -t vars < <(session_env)
  "${AS_USER[@]}" env -i "${vars[@]}" "$@" >"$out" 2>&1 &
  STARTED=$!
}

# --- --join: run inside a running session ---
if [ "${1:-}" = "--join" ]; then
  [ $# -ge 3 ] || die "usage: run-sway.sh --join DIR CMD [ARGS...]"
  DIR=$2; shift 2
  [ -f "$DIR/env" ] || die "$DIR is not a running session (no $DIR/env)"
  # shellcheck disable=SC1091
  . "$DIR/env"
  SESSION_PATH=$PATH; DBUS_ADDR=$DBUS_SESSION_BUS_ADDRESS; A11Y_ADDR=$AT_SPI_BUS_ADDRESS; WAYLAND_NAME=$WAYLAND_DISPLAY
  mapfile -t vars < <(session_env)
  # exec: the caller's process becomes CMD (its pid is the one sway reports for CMD's windows).
  exec "${AS_USER[@]}" env -i "${vars[@]}" "$@"
fi

OUTPUTS=(); APPS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --output) [[ "${2:-}" =~ ^([0-9]+)x([0-9]+)(@([0-9]+))?$ ]] || die "--output takes WxH or WxH@S (e.g. 1280x800@2), not \"${2:-}\""
              OUTPUTS+=("$2"); shift 2 ;;
    --app) [[ "${2:-}" =~ ^(gtk3|gtk4|qt5)(:.*)?$ ]] || die "--app takes gtk3[:ARGS], gtk4 or qt5, not \"${2:-}\""
           APPS+=("$2"); shift 2 ;;
    --) shift; break ;;
    -*) die "unknown option $1 (see the header of $0)" ;;
    *) break ;;
  esac
done
[ ${#OUTPUTS[@]} -eq 0 ] && OUTPUTS=(1280x800)

for tool in sway swaymsg dbus-daemon dbus-send setpriv; do
  command -v "$tool" >/dev/null || die "$tool not found (scripts/apt/test-wayland.list)"
done
[ -x "$AT_SPI_LIBEXEC/at-spi-bus-launcher" ] || die "at-spi2-core is not installed"
if [ "$(id -u)" = 0 ]; then
  SESSION_PATH=/usr/local/bin:/usr/bin:/bin
  # The session's user must reach the repository (the test applications) and the build.
  "${AS_USER[@]}" test -r "$REPO/Tests/SwitchDesktopTests/Fixtures/testapp.py" \
    || die "the user $USER_NAME cannot read $REPO (every folder from / down needs o+x, the files o+r; see the header)"
else
  SESSION_PATH=$PATH
fi

DIR=$(mktemp -d /tmp/run-sway.XXXXXX) || die "mktemp failed"
chmod 755 "$DIR"
mkdir -m 700 "$DIR/xdg" "$DIR/home"; mkdir -m 755 "$DIR/log"
chown "$USER_ID:$GROUP_ID" "$DIR/xdg" "$DIR/home" "$DIR/log"
PIDS=()
CMD_PID=""

descendants() {   # all descendants of pid $1 (children before parents)
  local c
  for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do descendants "$c"; echo "$c"; done
}
alive() {         # pid exists and is not a zombie
  local st; read -r st 2>/dev/null <"/proc/$1/stat" || return 1
  st=${st##*) }; [ "${st%% *}" != Z ]
}
session_pids() {  # every process whose environment carries this session's RUN_SWAY_DIR
  local p
  for p in $(grep -lzx "RUN_SWAY_DIR=$DIR" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3); do
    [ "$p" != $$ ] && [ "$p" != "$BASHPID" ] && echo "$p"
  done
}

cleanup() {
  local rc=$?
  trap - EXIT INT TERM HUP
  local all=() p i
  [ -n "$CMD_PID" ] && all+=($(descendants "$CMD_PID") "$CMD_PID")
  all+=($(session_pids))
  for (( i=${#PIDS[@]}-1; i>=0; i-- )); do all+=($(descendants "${PIDS[i]}") "${PIDS[i]}"); done
  for p in "${all[@]}"; do kill -TERM "$p" 2>/dev/null; done
  for i in $(seq 40); do   # up to 2 s
    local any=0
    for p in "${all[@]}"; do alive "$p" && any=1 && break; done
    [ $any = 0 ] && break; sleep 0.05
  done
  for p in "${all[@]}"; do kill -KILL "$p" 2>/dev/null; done
  wait 2>/dev/null
  local left
  left=$(session_pids | tr '\n' ' ')
  if [ -n "$left" ]; then
    echo "run-sway: error: processes of the session left after teardown: $left" >&2
    for p in $left; do kill -KILL "$p" 2>/dev/null; done
    [ $rc = 0 ] && rc=1
  fi
  rm -rf "$DIR"
  log "torn down"
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT; trap 'exit 143' TERM; trap 'exit 129' HUP

# 1. The session bus (it prints its address when ready).
mkfifo "$DIR/dbus.fifo"
exec {dfd}<>"$DIR/dbus.fifo"
start "$DIR/log/dbus.log" dbus-daemon --session --nofork --nopidfile --address="unix:path=$DIR/xdg/bus" --print-address="$dfd"
PIDS+=($STARTED)
IFS= read -r -t 10 -u "$dfd" DBUS_ADDR || { cat "$DIR/log/dbus.log" >&2; die "dbus-daemon did not start"; }
exec {dfd}<&-
log "session bus $DBUS_ADDR"

# 2. The a11y bus and the registry (polled with NameHasOwner, never a call that would D-Bus-activate
#    a second launcher).
has_owner() {  # has_owner BUSOPT NAME
  in_session dbus-send "$1" --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner \
    "string:$2" 2>/dev/null | grep -q 'boolean true'
}
start "$DIR/log/launcher.log" "$AT_SPI_LIBEXEC/at-spi-bus-launcher" --launch-immediately --a11y=1
PIDS+=($STARTED)
for i in $(seq 400); do has_owner --session org.a11y.Bus && break; sleep 0.01; done
A11Y_ADDR=$(in_session dbus-send --session --print-reply=literal --dest=org.a11y.Bus /org/a11y/bus \
  org.a11y.Bus.GetAddress 2>/dev/null | tr -d ' ')
[ -n "$A11Y_ADDR" ] || { cat "$DIR/log/launcher.log" >&2; die "at-spi-bus-launcher gave no address"; }
start "$DIR/log/registryd.log" "$AT_SPI_LIBEXEC/at-spi2-registryd"
PIDS+=($STARTED)
for i in $(seq 400); do has_owner --bus="$A11Y_ADDR" org.a11y.atspi.Registry && break; sleep 0.01; done
has_owner --bus="$A11Y_ADDR" org.a11y.atspi.Registry || { cat "$DIR/log/registryd.log" >&2; die "registryd not up"; }
log "a11y bus $A11Y_ADDR, registry up"

# 3. sway: its configuration, then the compositor, awaited until its IPC answers with every output.
{
  x=0; n=0
  for o in "${OUTPUTS[@]}"; do
    n=$((n + 1))
    [[ "$o" =~ ^([0-9]+)x([0-9]+)(@([0-9]+))?$ ]]
    w=${BASH_REMATCH[1]}; h=${BASH_REMATCH[2]}; s=${BASH_REMATCH[4]:-1}
    echo "output HEADLESS-$n resolution $((w * s))x$((h * s)) position $x 0 scale $s bg #204060 solid_color"
    x=$((x + w))
  done
  echo "xwayland disable"
  echo "default_border pixel 2"
  echo "default_floating_border pixel 2"
  echo "focus_follows_mouse no"
  echo "focus_on_window_activation focus"
  # The pointer's image hidden 100 ms after it last moved: screenshots show what is drawn, not it.
  echo "seat * hide_cursor 100"
} >"$DIR/sway.conf"
chmod 644 "$DIR/sway.conf"
start "$DIR/log/sway.log" WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman \
  WLR_HEADLESS_OUTPUTS=${#OUTPUTS[@]} SWAYSOCK="$DIR/xdg/sway-ipc.sock" sway -c "$DIR/sway.conf"
PIDS+=($STARTED)
SWAY_PID=$STARTED
ready=0
for i in $(seq 1000); do   # up to 10 s
  alive "$SWAY_PID" || break
  if [ -S "$DIR/xdg/sway-ipc.sock" ]; then
    count=$(in_session swaymsg -s "$DIR/xdg/sway-ipc.sock" -t get_outputs -r 2>/dev/null | grep -c '"name": "HEADLESS-')
    [ "$count" = ${#OUTPUTS[@]} ] && ready=1 && break
  fi
  sleep 0.01
done
[ $ready = 1 ] || { tail -n 30 "$DIR/log/sway.log" >&2; die "sway did not start with ${#OUTPUTS[@]} output(s)"; }
for s in "$DIR"/xdg/wayland-*; do
  case "$s" in *.lock) ;; *) [ -S "$s" ] && WAYLAND_NAME=$(basename "$s") && break ;; esac
done
[ -n "${WAYLAND_NAME:-}" ] || die "sway made no Wayland socket in $DIR/xdg"
log "sway up on $WAYLAND_NAME (${OUTPUTS[*]})"

# The environment file (another shell joins with --join, or sources it to connect as root).
session_env | while IFS= read -r line; do printf 'export %s=%q\n' "${line%%=*}" "${line#*=}"; done >"$DIR/env"
chmod 644 "$DIR/env"

# 4. Test applications, each awaited in sway's tree (a window of its pid) and on the a11y bus.
window_of_pid() {  # window_of_pid PID: true once sway shows a window of that process
  in_session swaymsg -t get_tree -r 2>/dev/null | grep -q "\"pid\": $1,"
}
for app in "${APPS[@]}"; do
  case "$app" in
    gtk3*) args=${app#gtk3}; args=${args#:}
           # shellcheck disable=SC2086
           start "$DIR/log/gtk3.log" /usr/bin/python3 "$REPO/Tests/SwitchDesktopTests/Fixtures/testapp.py" $args
           name=testapp.py ;;
    gtk4)  start "$DIR/log/gtk4.log" /usr/bin/python3 "$REPO/Tests/SwitchWaylandTests/Fixtures/wlapp.py" --gtk 4 --name wlapp-gtk4.py
           name=wlapp-gtk4.py ;;
    qt5)   start "$DIR/log/qt5.log" /usr/lib/x86_64-linux-gnu/qt5/examples/widgets/widgets/calculator/calculator
           name=calculator ;;
  esac
  pid=$STARTED
  for i in $(seq 1500); do window_of_pid "$pid" && break; alive "$pid" || break; sleep 0.02; done
  window_of_pid "$pid" || { cat "$DIR/log/"*.log >&2; die "$app showed no window"; }
  in_session /usr/bin/python3 "$REPO/Tests/SwitchDesktopTests/Fixtures/atspi-check.py" wait "$name" 30 \
    || die "$app did not appear on the accessibility bus"
  log "$app up (pid $pid)"
done

# 5. CMD, as the session's user, in the background (so signals reach our trap at once).
[ $# -eq 0 ] && set -- "${SHELL:-bash}"
log "ready; running: $*"
exec {in}<&0
mapfile -t vars < <(session_env)
"${AS_USER[@]}" env -i "${vars[@]}" "$@" <&$in &
CMD_PID=$!
wait "$CMD_PID"; rc=$?
exit $rc
