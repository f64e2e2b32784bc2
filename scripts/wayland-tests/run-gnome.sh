#!/usr/bin/env bash
# run-gnome.sh [OPTIONS] [CMD [ARGS...]]
#
# Runs CMD inside a private, headless GNOME Shell 43 session on Wayland:
#   a private mount namespace (unshare -m) with tmpfs over /run/systemd and /run/dbus, so the
#     Shell sees no logind and a system bus of its own (a private dbus-daemon --system);
#   a private home ($SESSION_DIR/home: dconf settings, the extension) and XDG_RUNTIME_DIR;
#   a private session bus, the a11y bus and registry;
#   switchscan's Shell extension (packaging/gnome-shell, built for this Shell) installed into
#     ~/.local/share/gnome-shell/extensions/switchscan@switchscan.org/ and enabled by gsettings
#     before the Shell starts;
#   a test-only extension (seat-devices/) giving the headless seat a pointer and a keyboard of its
#     own, as a real desktop's seat has, enabled first;
#   gnome-shell --headless --wayland --no-x11 --wayland-display wayland-g --virtual-monitor 1280x800,
#     awaited until its startup is complete ("GNOME Shell started at" in its log), the overview
#     hidden (org.gnome.Shell's OverviewActive set false) and, when enabled, the extension on the
#     bus (org.switchscan.Shell);
#   the test applications asked for (--app), each awaited on the a11y bus;
# and tears all of it down on exit (session-lib.sh: no process left). Exits with CMD's status, 125
# when the session could not start (loudly: what failed, and the Shell's log).
#
# Options:
#   --app gtk3|qt5|gtk4     start a test application (repeatable; in that order): GTK 3
#                           Tests/SwitchDesktopTests/Fixtures/testapp.py (GDK_BACKEND=wayland),
#                           Qt 5 apps/qt5app.py (QT_QPA_PLATFORM=wayland), GTK 4 apps/gtk4app.py
#   --extension enabled|disabled|none
#                           enabled (default); disabled: installed, not enabled; none: not installed
#   --monitors N            N virtual monitors side by side, 1280x800 each (default 1)
#   --scale 2               a 2560x1600 monitor at scale 2 (logical 1280x800): mutter's
#                           scale-monitor-framebuffer layout, set in monitors.xml (see README.md)
# CMD sees: WAYLAND_DISPLAY, DBUS_SESSION_BUS_ADDRESS, AT_SPI_BUS_ADDRESS, XDG_RUNTIME_DIR,
# XDG_CURRENT_DESKTOP=GNOME, XDG_SESSION_TYPE=wayland, HOME, GDK_BACKEND=wayland,
# QT_QPA_PLATFORM=wayland, APP_PID_* / APP_NAME_* of the applications, SESSION_DIR (its `env`
# file lets another shell join), SWITCHSCAN_GNOME_SHELL_LOG (the Shell's log).
# Knobs: SESSION_VERBOSE=1 (timings to stderr), SESSION_KEEP=1 (keep the folder).
# Needs root (a mount namespace) and scripts/apt/test-wayland-gnome.list.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
UUID=switchscan@switchscan.org

apps=() extension=enabled monitors=1 scale=1
while [ $# -gt 0 ]; do
  case "$1" in
    --app) apps+=("$2"); shift 2 ;;
    --extension) extension=$2; shift 2 ;;
    --monitors) monitors=$2; shift 2 ;;
    --scale) scale=$2; shift 2 ;;
    --) shift; break ;;
    -*) echo "run-gnome: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
case "$extension" in enabled|disabled|none) ;; *) echo "run-gnome: --extension enabled|disabled|none, not '$extension'" >&2; exit 2 ;; esac
case "$monitors" in 1|2|3|4) ;; *) echo "run-gnome: --monitors 1 to 4, not '$monitors'" >&2; exit 2 ;; esac
case "$scale" in 1|2) ;; *) echo "run-gnome: --scale 1 or 2, not '$scale'" >&2; exit 2 ;; esac

# 1. Into a private mount namespace (this script again, as the same process: unshare execs it).
if [ -z "${RUN_GNOME_NAMESPACE:-}" ]; then
  [ "$(id -u)" = 0 ] || { echo "run-gnome: error: needs root for a private mount namespace (unshare -m)" >&2; exit 125; }
  RUN_GNOME_NAMESPACE=1 exec unshare --mount --propagation private -- "$0" \
    $(for a in "${apps[@]}"; do printf -- '--app %s ' "$a"; done) \
    --extension "$extension" --monitors "$monitors" --scale "$scale" -- "$@"
  echo "run-gnome: error: unshare -m failed" >&2; exit 125
fi
unset RUN_GNOME_NAMESPACE

SESSION_NAME=run-gnome
. "$HERE/session-lib.sh"
session_begin
for d in /run/systemd /run/dbus; do
  mkdir -p "$d" && mount -t tmpfs -o mode=755 tmpfs "$d" || session_die "cannot mount a tmpfs over $d"
done

# 2. The private system bus (its socket is /run/dbus/system_bus_socket, in our tmpfs).
dbus-daemon --system --nofork --nopidfile >"$SESSION_DIR/system-bus.log" 2>&1 &
session_track $!
session_wait 10 "the private system bus" test -S /run/dbus/system_bus_socket || session_die "dbus-daemon --system did not start"

# 3. Session bus, a11y bus and registry.
session_bus
session_a11y

# 4. The extension, the settings (dconf, through the private session bus), the monitors. The
#    background is a plain colour: the Shell's startup waits for its backgrounds, and Debian's
#    default picture (a .webp, without a pixbuf loader for it here) sometimes never came back
#    with two monitors (startup stuck, seen once in about ten runs).
if [ "$extension" != none ]; then
  "$SESSION_ROOT/packaging/gnome-shell/build.sh" auto "$XDG_DATA_HOME/gnome-shell/extensions/$UUID" \
    || session_die "building the extension failed"
fi
# The seat's own pointer and keyboard, as a real desktop's (seat-devices/extension.js says why).
SEAT_UUID=seat-devices@tests.switchscan.org
mkdir -p "$XDG_DATA_HOME/gnome-shell/extensions/$SEAT_UUID" \
  && cp "$HERE/seat-devices/extension.js" "$HERE/seat-devices/metadata.json" "$XDG_DATA_HOME/gnome-shell/extensions/$SEAT_UUID/" \
  || session_die "cannot install the seat's devices"
enabled="['$SEAT_UUID']"; [ "$extension" = enabled ] && enabled="['$SEAT_UUID', '$UUID']"
gsettings set org.gnome.shell enabled-extensions "$enabled" \
  && gsettings set org.gnome.shell welcome-dialog-last-shown-version '999' \
  && gsettings set org.gnome.desktop.notifications show-banners false \
  && gsettings set org.gnome.desktop.interface enable-animations false \
  && gsettings set org.gnome.desktop.background picture-options none \
  && gsettings set org.gnome.desktop.background primary-color '#204a87' \
  || session_die "gsettings failed"
monitor_args=()
if [ "$scale" = 2 ]; then
  gsettings set org.gnome.mutter experimental-features "['scale-monitor-framebuffer']" || session_die "gsettings failed"
  monitor_args=(--virtual-monitor 2560x1600)
  cat >"$XDG_CONFIG_HOME/monitors.xml" <<'EOF'
<monitors version="2">
  <configuration>
    <logicalmonitor>
      <x>0</x><y>0</y><scale>2</scale><primary>yes</primary>
      <monitor>
        <monitorspec><connector>Meta-0</connector><vendor>MetaVendor</vendor><product>MetaVirtualMonitor</product><serial>0x00</serial></monitorspec>
        <mode><width>2560</width><height>1600</height><rate>60.000</rate></mode>
      </monitor>
    </logicalmonitor>
  </configuration>
</monitors>
EOF
else
  for i in $(seq "$monitors"); do monitor_args+=(--virtual-monitor 1280x800); done
fi

# 5. The Shell, awaited until its startup animation is over (before that a full-screen cover
#    takes every click), then the overview hidden.
export SWITCHSCAN_GNOME_SHELL_LOG="$SESSION_DIR/gnome-shell.log"
gnome-shell --headless --wayland --no-x11 --wayland-display wayland-g "${monitor_args[@]}" \
  >"$SWITCHSCAN_GNOME_SHELL_LOG" 2>&1 &
session_track $!
shell_pid=$!
shell_failed() { echo "--- the end of gnome-shell's log:" >&2; tail -25 "$SWITCHSCAN_GNOME_SHELL_LOG" >&2; session_die "$*"; }
session_wait 60 "GNOME Shell's startup" grep -q "GNOME Shell started at" "$SWITCHSCAN_GNOME_SHELL_LOG" \
  || shell_failed "GNOME Shell did not finish starting (alive: $(proc_alive $shell_pid && echo yes || echo no))"
export WAYLAND_DISPLAY=wayland-g XDG_CURRENT_DESKTOP=GNOME
overview() {
  gdbus call --session -d org.gnome.Shell -o /org/gnome/Shell -m org.freedesktop.DBus.Properties.Get \
    org.gnome.Shell OverviewActive 2>/dev/null
}
gdbus call --session -d org.gnome.Shell -o /org/gnome/Shell -m org.freedesktop.DBus.Properties.Set \
  org.gnome.Shell OverviewActive '<false>' >/dev/null || shell_failed "cannot hide the overview"
session_wait 10 "the overview to hide" sh -c "gdbus call --session -d org.gnome.Shell -o /org/gnome/Shell -m org.freedesktop.DBus.Properties.Get org.gnome.Shell OverviewActive | grep -q false" \
  || shell_failed "the overview stayed open ($(overview))"
if [ "$extension" = enabled ]; then
  session_wait 20 "the extension's name org.switchscan.Shell" session_has_owner --session org.switchscan.Shell \
    || shell_failed "the extension did not come up (org.switchscan.Shell has no owner)"
fi
session_log "GNOME Shell ready"

# 6. The applications, then CMD.
for a in "${apps[@]}"; do session_app "$a"; done
export GDK_BACKEND=wayland QT_QPA_PLATFORM=wayland
session_run "$@"
exit $?
