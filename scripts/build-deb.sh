#!/usr/bin/env bash
# Builds the Debian package from the layout scripts/install.sh makes (prefix /usr):
#
#   scripts/build-deb.sh [--binary FILE] [--output DIR]   → DIR/switchscan_VERSION_ARCH.deb (DIR default: .)
#
# Install it with `sudo apt-get install ./switchscan_VERSION_amd64.deb`, remove it with
# `sudo apt-get remove switchscan`. The version is the binary's (`switchscan --version`); the
# dependencies are what the binary really links, found by dpkg-shlibdeps (libc6, libevdev2, …;
# the Swift runtime is linked in statically by install.sh's build). --binary packs an
# already-built switchscan (the tests reuse one release build).
#
# The GNOME Shell extension goes in the form for the GNOME Shell of the release the package is
# built on (a package is for one distribution release: 43 on Debian 12), found from the
# installed gnome-shell, else from apt's candidate version; --gnome-shell 43|45 says it.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

BINARY_ARGS=()
OUTPUT=.
GNOME_SHELL=""
die() { echo "build-deb: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) [ $# -ge 2 ] || die "--binary needs a file"; BINARY_ARGS=(--binary "$2"); shift 2 ;;
    --output) [ $# -ge 2 ] || die "--output needs a directory"; OUTPUT=$2; shift 2 ;;
    --gnome-shell) [ $# -ge 2 ] || die "--gnome-shell needs 43 or 45"; GNOME_SHELL=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument: $1 (see --help)" ;;
  esac
done
for tool in dpkg-deb dpkg-shlibdeps; do
  command -v "$tool" >/dev/null || die "$tool is missing (apt-get install dpkg-dev)"
done

# The release's GNOME Shell: the installed one, else the one apt would install.
if [ -z "$GNOME_SHELL" ]; then
  shell_version=$(gnome-shell --version 2>/dev/null | awk '{print $3}') || true
  [ -n "$shell_version" ] || shell_version=$(apt-cache policy gnome-shell 2>/dev/null | awk '/Candidate:/{print $2}' | sed 's/^[0-9]*://') || true
  major=${shell_version%%.*}
  case "$major" in
    ''|*[!0-9]*) die "cannot tell which GNOME Shell this release has (no gnome-shell, nor one apt knows): give --gnome-shell 43 or 45" ;;
  esac
  if [ "$major" -ge 45 ]; then GNOME_SHELL=45; else GNOME_SHELL=43; fi
fi
case "$GNOME_SHELL" in 43|45) ;; *) die "--gnome-shell is 43 or 45, not $GNOME_SHELL" ;; esac

WORK=$(mktemp -d -t switchscan-deb.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
PKG="$WORK/pkg"
scripts/install.sh --prefix /usr --stage "$PKG/usr" --gnome-shell "$GNOME_SHELL" "${BINARY_ARGS[@]}"

# Debian's places: zsh completions in vendor-completions, man pages compressed.
mkdir -p "$PKG/usr/share/zsh/vendor-completions"
mv "$PKG/usr/share/zsh/site-functions/_switchscan" "$PKG/usr/share/zsh/vendor-completions/_switchscan"
rmdir "$PKG/usr/share/zsh/site-functions"
gzip -9n "$PKG/usr/share/man/man1/switchscan.1"

VERSION=$("$PKG/usr/bin/switchscan" --version)
ARCH=$(dpkg --print-architecture)

# What the binary links, as Debian package dependencies (dpkg-shlibdeps reads the shared
# libraries' shlibs/symbols files; it wants a debian/control to run from).
mkdir -p "$WORK/src/debian"
printf 'Source: switchscan\n\nPackage: switchscan\nArchitecture: any\n' > "$WORK/src/debian/control"
DEPENDS=$(cd "$WORK/src" && dpkg-shlibdeps -O -e "$PKG/usr/bin/switchscan" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$DEPENDS" ] || die "dpkg-shlibdeps found no dependencies for $PKG/usr/bin/switchscan"
# presage's English model: no library brings it, and the keyboard's predictions read it.
DEPENDS="$DEPENDS, libpresage-data"

# Recommends: what every desktop's route needs besides the libraries linked: udev (the rule),
# at-spi2-core (the accessibility bus and its registry: --desktop reads every application there),
# fonts-dejavu-core (the highlight's panels are laid out in DejaVu Sans: Xft on X11, Pango on
# Wayland and in GNOME's extension). Suggests: gnome-shell-extension-prefs (the Extensions app: a
# person turns switchscan's extension on without a terminal), speech-dispatcher (speech; on a
# Wayland compositor nothing can be drawn on, switchscan speaks instead of the highlight). Nothing
# for KDE Plasma or sway: KWin and wlroots provide what switchscan uses.
mkdir -p "$PKG/DEBIAN"
cat > "$PKG/DEBIAN/control" <<EOF
Package: switchscan
Version: $VERSION
Architecture: $ARCH
Maintainer: switchscan developers <switchscan@localhost>
Depends: $DEPENDS
Recommends: udev, at-spi2-core, fonts-dejavu-core
Suggests: gnome-shell-extension-prefs, speech-dispatcher
Section: utils
Priority: optional
Installed-Size: $(du -sk --exclude=DEBIAN "$PKG" | cut -f1)
Description: switch control and touch accommodations for Linux
 switchscan reads adapted switches, keyboards, gamepads and touchscreens
 through libevdev, filters them (debounce, hold duration, ignore repeat,
 long press, tap assistance) and drives scanning over an accessibility
 element tree, as iOS Switch Control does.
 .
 The package installs the tool, its bundled profiles, the man page, its
 manual (/usr/share/doc/switchscan), shell completions, a udev rule that
 gives the user at the seat access to switch-like input devices, a
 systemd user unit (switchscan.service), and what the Wayland desktops
 need: a GNOME Shell extension (for GNOME Shell $GNOME_SHELL; each person
 turns it on with gnome-extensions enable switchscan@switchscan.org), a
 KWin script and the grant that lets KWin take clicks and keys from
 switchscan on KDE Plasma (/usr/share/doc/switchscan/docs/wayland.md).
EOF
# The udev rule applies to plugged-in devices at once (as install.sh does), and stops applying on removal.
for script in postinst postrm; do
  cat > "$PKG/DEBIAN/$script" <<'EOF'
#!/bin/sh
set -e
if command -v udevadm >/dev/null 2>&1 && udevadm control --ping >/dev/null 2>&1; then
  udevadm control --reload || true
  udevadm trigger --subsystem-match=input --action=change || true
fi
exit 0
EOF
  chmod 0755 "$PKG/DEBIAN/$script"
done

mkdir -p "$OUTPUT"
DEB="$OUTPUT/switchscan_${VERSION}_${ARCH}.deb"
dpkg-deb --root-owner-group -Zxz --build "$PKG" "$DEB" >/dev/null
echo "build-deb: $DEB (Depends: $DEPENDS)" >&2
echo "$DEB"
