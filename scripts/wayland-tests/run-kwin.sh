#!/usr/bin/env bash
# run-kwin.sh [OPTIONS] [CMD [ARGS...]]
#
# Runs CMD inside a private, headless KWin 5.27 session on Wayland:
#   a private home ($SESSION_DIR/home: KWin's config, the .desktop files, the KService cache)
#     and XDG_RUNTIME_DIR, a private session bus, the a11y bus and registry;
#   the test tool kwin-fake-input (tools/kwin-fake-input.c, built here with wayland-scanner from
#     plasma-wayland-protocols' fake-input.xml) and any --grant binary named by .desktop files with
#     X-KDE-Wayland-Interfaces=org_kde_kwin_fake_input, a copy of python3 by one with
#     X-KDE-DBUS-Restricted-Interfaces=org.kde.KWin.ScreenShot2 (tools/screenshot.py), then
#     kbuildsycoca5 (KWin reads the grants from the KService cache);
#   a copy of /usr/bin/kwin_wayland whose file name stays kwin_wayland (the installed one carries a
#     file capability a container may not grant; KWin finds its helpers by its own name):
#     kwin_wayland --virtual --width 1280 --height 800 --socket wayland-k --no-lockscreen,
#     awaited until org.kde.KWin is on the bus and its socket is there;
#   the test applications asked for (--app), each awaited on the a11y bus;
# and tears all of it down on exit (session-lib.sh: no process left). Exits with CMD's status, 125
# when the session could not start (loudly: what failed, and KWin's log).
#
# Options:
#   --app gtk3|qt5|gtk4   start a test application (repeatable), as run-gnome.sh does
#   --grant PATH          also let the binary PATH use fake input (repeatable; e.g. switchscan)
#   --outputs 2           two virtual outputs of 1280x800 side by side (default one)
# CMD sees: WAYLAND_DISPLAY, DBUS_SESSION_BUS_ADDRESS, AT_SPI_BUS_ADDRESS, XDG_RUNTIME_DIR,
# XDG_CURRENT_DESKTOP=KDE, XDG_SESSION_TYPE=wayland, HOME, GDK_BACKEND=wayland,
# QT_QPA_PLATFORM=wayland, APP_PID_* / APP_NAME_*, SESSION_DIR, SWITCHSCAN_KWIN_FAKE_INPUT (the
# tool's path), SWITCHSCAN_KWIN_PYTHON (the python3 that may take screenshots), SWITCHSCAN_KWIN_LOG,
# SWITCHSCAN_KWIN_PID (KWin's process: the tests end it mid-run).
# Knobs: SESSION_VERBOSE=1, SESSION_KEEP=1. Needs scripts/apt/test-wayland-kwin.list.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)

apps=() grants=() outputs=1
while [ $# -gt 0 ]; do
  case "$1" in
    --app) apps+=("$2"); shift 2 ;;
    --outputs) outputs=$2; shift 2 ;;
    --grant) grants+=("$(readlink -f "$2")"); shift 2 ;;
    --) shift; break ;;
    -*) echo "run-kwin: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done

case "$outputs" in 1|2) ;; *) echo "run-kwin: --outputs 1 or 2, not '$outputs'" >&2; exit 2 ;; esac

SESSION_NAME=run-kwin
. "$HERE/session-lib.sh"
session_begin

# 1. The fake-input tool, and the .desktop files that grant it (and the others) what KWin restricts.
mkdir -p "$SESSION_DIR/bin" "$XDG_DATA_HOME/applications"
proto=/usr/share/plasma-wayland-protocols/fake-input.xml
[ -f "$proto" ] || session_die "no $proto (plasma-wayland-protocols)"
wayland-scanner client-header "$proto" "$SESSION_DIR/bin/fake-input-client-protocol.h" \
  && wayland-scanner private-code "$proto" "$SESSION_DIR/bin/fake-input-protocol.c" \
  && cc -O1 -Wall -I"$SESSION_DIR/bin" -o "$SESSION_DIR/bin/kwin-fake-input" "$HERE/tools/kwin-fake-input.c" \
       "$SESSION_DIR/bin/fake-input-protocol.c" -lwayland-client \
  || session_die "building kwin-fake-input failed"
export SWITCHSCAN_KWIN_FAKE_INPUT="$SESSION_DIR/bin/kwin-fake-input"
grant_desktop() {  # grant_desktop FILE-NAME EXEC KEY=VALUE
  printf '[Desktop Entry]\nType=Application\nName=%s\nExec=%s\nNoDisplay=true\n%s\n' "$1" "$2" "$3" \
    >"$XDG_DATA_HOME/applications/$1.desktop"
}
grant_desktop switchscan-test-fake-input "$SWITCHSCAN_KWIN_FAKE_INPUT" X-KDE-Wayland-Interfaces=org_kde_kwin_fake_input
n=0
for g in "${grants[@]}"; do
  n=$((n + 1)); grant_desktop "switchscan-test-grant-$n" "$g" X-KDE-Wayland-Interfaces=org_kde_kwin_fake_input
done
# Screenshots: KWin takes the first .desktop file naming the caller's binary, and Debian's
# python3.11.desktop names /usr/bin/python3.11 already: grant a copy of the interpreter instead.
cp "$(readlink -f /usr/bin/python3)" "$SESSION_DIR/bin/python3-screenshots" || session_die "cannot copy python3"
export SWITCHSCAN_KWIN_PYTHON="$SESSION_DIR/bin/python3-screenshots"
grant_desktop switchscan-test-screenshot "$SWITCHSCAN_KWIN_PYTHON" X-KDE-DBUS-Restricted-Interfaces=org.kde.KWin.ScreenShot2

# 2. Session bus (the KService cache is built against it), a11y bus and registry.
session_bus
kbuildsycoca5 --noincremental >"$SESSION_DIR/kbuildsycoca.log" 2>&1 || { cat "$SESSION_DIR/kbuildsycoca.log" >&2; session_die "kbuildsycoca5 failed"; }
session_a11y

# 3. KWin, from a copy named kwin_wayland.
cp /usr/bin/kwin_wayland "$SESSION_DIR/bin/kwin_wayland" || session_die "cannot copy /usr/bin/kwin_wayland"
export SWITCHSCAN_KWIN_LOG="$SESSION_DIR/kwin.log"
# No KWin effects that animate windows into place (a screenshot would catch them half way).
cat >"$XDG_CONFIG_HOME/kwinrc" <<'EOF'
[Compositing]
AnimationSpeed=0
[Plugins]
blurEnabled=false
contrastEnabled=false
fadeEnabled=false
scaleEnabled=false
slidingpopupsEnabled=false
kwin4_effect_fadeEnabled=false
kwin4_effect_scaleEnabled=false
kwin4_effect_maximizeEnabled=false
EOF
"$SESSION_DIR/bin/kwin_wayland" --virtual --width 1280 --height 800 --output-count "$outputs" --socket wayland-k --no-lockscreen \
  >"$SWITCHSCAN_KWIN_LOG" 2>&1 &
session_track $!
kwin_pid=$!
export SWITCHSCAN_KWIN_PID=$kwin_pid
kwin_failed() { echo "--- the end of KWin's log:" >&2; tail -25 "$SWITCHSCAN_KWIN_LOG" >&2; session_die "$*"; }
session_wait 30 "KWin on the session bus" session_has_owner --session org.kde.KWin \
  || kwin_failed "KWin did not start (alive: $(proc_alive $kwin_pid && echo yes || echo no))"
session_wait 10 "KWin's Wayland socket" test -S "$XDG_RUNTIME_DIR/wayland-k" || kwin_failed "KWin made no Wayland socket"
export WAYLAND_DISPLAY=wayland-k XDG_CURRENT_DESKTOP=KDE
session_log "KWin ready"

# 4. The applications, then CMD.
for a in "${apps[@]}"; do session_app "$a"; done
export GDK_BACKEND=wayland QT_QPA_PLATFORM=wayland
session_run "$@"
exit $?
