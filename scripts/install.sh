#!/usr/bin/env bash
# Installs switchscan like a Linux input tool (README "Install", docs/install.md):
#
#   scripts/install.sh [--prefix DIR]            build (release) and install into DIR (default /usr/local)
#   scripts/install.sh --uninstall [--prefix DIR]  remove exactly what that install put there
#
# What goes where (DIR = the prefix):
#   DIR/bin/switchscan                               the tool
#   DIR/share/switchscan/profiles/*.json             the bundled profiles (`--profile tremor` finds them)
#   DIR/share/switchscan/keyboards/*.json            the keyboard layouts (`"keyboard": {"layout": "qwerty"}`)
#   DIR/share/switchscan/keyboards/words/*           the word lists predictions complete from (CC BY-SA 4.0)
#   DIR/share/man/man1/switchscan.1                  the man page (swift-argument-parser's generate-manual)
#   DIR/share/doc/switchscan/                        the manual: README.md, docs/ (pages and pictures),
#                                                    BENCHMARKS.md, RELIABILITY.md (links between them work there)
#   DIR/share/bash-completion/completions/switchscan shell completions (switchscan --generate-completion-script)
#   DIR/share/zsh/site-functions/_switchscan
#   DIR/share/fish/vendor_completions.d/switchscan.fish
#   DIR/lib/udev/rules.d/70-switchscan.rules         access for the user at the seat to switch-like devices
#   DIR/lib/systemd/user/switchscan.service          the user service (`run --desktop` with the graphical session)
#   DIR/share/gnome-shell/extensions/switchscan@switchscan.org/   the GNOME Shell extension (GNOME on Wayland: the
#                                                    highlight, clicks, keys, window positions), in the form for
#                                                    this machine's Shell (--gnome-shell); each person turns it on
#   DIR/share/switchscan/kwin/switchscan-windows.js  the KWin script (KDE Plasma on Wayland: window positions, the
#                                                    Windows page)
#   DIR/share/applications/org.switchscan.switchscan-fake-input.desktop   lets KWin give DIR/bin/switchscan fake
#                                                    input (clicks and keys on KDE Plasma on Wayland)
#   DIR/share/switchscan/install-manifest            every file and directory this install created
#
# Options for packagers and tests:
#   --destdir DIR        install under DIR (DIR + prefix), for building a package: no manifest, no udev reload
#   --binary FILE        install this already-built switchscan instead of building one
#   --configuration C    release (default) or debug
#   --stage DIR          only lay the files out in DIR (relative to the prefix) and stop: what build-deb.sh packs
#   --build-only         only build what an install needs (the binary, the man page generator) and stop:
#                        scripts/test.sh runs it early in the background, so the install suite finds it built
#   --gnome-shell V      the GNOME Shell extension's form: 43 (GNOME 43 and 44: imports.*), 45 (45 and later:
#                        ES modules), auto (default: this machine's gnome-shell; none without one), none
#
# As root with a running udev, the rules are reloaded and applied to the plugged-in devices.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

PREFIX=/usr/local
DESTDIR=""
UNINSTALL=0
BINARY=""
CONFIGURATION=release
STAGE_ONLY=""
BUILD_ONLY=0
GNOME_SHELL=auto

die() { echo "install: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; PREFIX=$2; shift 2 ;;
    --prefix=*) PREFIX=${1#--prefix=}; shift ;;
    --destdir) [ $# -ge 2 ] || die "--destdir needs a directory"; DESTDIR=$2; shift 2 ;;
    --binary) [ $# -ge 2 ] || die "--binary needs a file"; BINARY=$2; shift 2 ;;
    --configuration) [ $# -ge 2 ] || die "--configuration needs release or debug"; CONFIGURATION=$2; shift 2 ;;
    --stage) [ $# -ge 2 ] || die "--stage needs a directory"; STAGE_ONLY=$2; shift 2 ;;
    --gnome-shell) [ $# -ge 2 ] || die "--gnome-shell needs 43, 45, auto or none"; GNOME_SHELL=$2; shift 2 ;;
    --uninstall) UNINSTALL=1; shift ;;
    --build-only) BUILD_ONLY=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument: $1 (see --help)" ;;
  esac
done
case "$PREFIX" in /*) ;; *) PREFIX="$(pwd)/$PREFIX" ;; esac
PREFIX=${PREFIX%/}
case "$CONFIGURATION" in release|debug) ;; *) die "--configuration is release or debug, not $CONFIGURATION" ;; esac
case "$GNOME_SHELL" in 43|45|none) ;; auto) command -v gnome-shell >/dev/null || GNOME_SHELL=none ;;
  *) die "--gnome-shell is 43, 45, auto or none, not $GNOME_SHELL" ;; esac

TARGET="$DESTDIR$PREFIX"
MANIFEST="$TARGET/share/switchscan/install-manifest"

udev_reload() {
  # Only for a real install as root, with udev running and reading this prefix's rules.
  [ -z "$DESTDIR" ] && [ "$(id -u)" -eq 0 ] || return 0
  command -v udevadm >/dev/null && udevadm control --ping >/dev/null 2>&1 || return 0
  udevadm control --reload && udevadm trigger --subsystem-match=input --action=change && echo "install: udev rules reloaded and applied" >&2
}

uninstall() {
  [ -f "$MANIFEST" ] || die "nothing to uninstall: $MANIFEST does not exist (was switchscan installed with --prefix $PREFIX?)"
  local kind path dirs=()
  while read -r kind path; do
    case "$kind" in
      f) rm -f -- "$path" ;;
      d) dirs+=("$path") ;;
    esac
  done < "$MANIFEST"
  rm -f -- "$MANIFEST"
  # Directories this install created, deepest first, when nothing else has been put in them.
  local k
  for ((k = ${#dirs[@]} - 1; k >= 0; k--)); do rmdir -- "${dirs[k]}" 2>/dev/null || true; done
  echo "install: removed switchscan from $PREFIX" >&2
}

if [ "$UNINSTALL" = 1 ]; then
  uninstall
  udev_reload
  exit 0
fi

# --- Build -------------------------------------------------------------------------------------
BUILD_DIR="$ROOT/.build/$CONFIGURATION"
if [ -z "$BINARY" ]; then
  scripts/setup.sh
  echo "install: building switchscan ($CONFIGURATION)" >&2
  # The Swift runtime and Foundation linked in: the binary needs only Debian libraries (libc,
  # libstdc++, libevdev…), so it runs where no Swift toolchain is installed.
  swift build -c "$CONFIGURATION" --static-swift-stdlib --product switchscan 2>&1 | grep -E "error|warning: unre|Compiling switchscan|Build of product" >&2 || true
  BINARY="$BUILD_DIR/switchscan"
fi
[ -x "$BINARY" ] || die "no switchscan binary at $BINARY (the build failed?)"
VERSION=$("$BINARY" --version) || die "$BINARY --version failed"
# The man page generator (a tool of swift-argument-parser), built once. It only turns the tool's
# help into roff, so a debug build does (it compiles in seconds beside the debug build the tests
# already have, where a release build of it takes a minute).
GENERATE_MANUAL="$ROOT/.build/debug/generate-manual"
if [ ! -x "$GENERATE_MANUAL" ]; then
  echo "install: building generate-manual (debug)" >&2
  swift build -c debug --product generate-manual 2>&1 | grep -E "error|Build of product" >&2 || true
fi
[ -x "$GENERATE_MANUAL" ] || die "no generate-manual at $GENERATE_MANUAL"
[ "$BUILD_ONLY" = 1 ] && exit 0

# --- Lay the files out in a staging directory (relative to the prefix) ------------------------
STAGE=$(mktemp -d -t switchscan-install.XXXXXX)
trap 'rm -rf "$STAGE"' EXIT
install -D -m 0755 "$BINARY" "$STAGE/bin/switchscan"
# Symbols out (62 MB instead of 85: the Swift runtime and Foundation are linked in), as packages do.
strip --strip-unneeded "$STAGE/bin/switchscan" 2>/dev/null || true
for p in Profiles/*.json; do install -D -m 0644 "$p" "$STAGE/share/switchscan/profiles/$(basename "$p")"; done
for k in Keyboards/*.json Keyboards/words/*; do install -D -m 0644 "$k" "$STAGE/share/switchscan/keyboards/${k#Keyboards/}"; done
# The manual, laid out as in the source tree so that the links between its pages still work (the
# man page points here: a clinician at the machine may have no web).
for f in README.md BENCHMARKS.md RELIABILITY.md; do install -D -m 0644 "$f" "$STAGE/share/doc/switchscan/$f"; done
while IFS= read -r -d '' f; do install -D -m 0644 "$f" "$STAGE/share/doc/switchscan/$f"; done < <(find docs -type f -print0)
# The man page's date: the last commit's, so the same sources give the same page.
MAN_DATE=$(git log -1 --format=%cs 2>/dev/null || date -u +%Y-%m-%d)
MAN_TMP="$STAGE/.man"
mkdir -p "$MAN_TMP"
"$GENERATE_MANUAL" "$BINARY" --output-directory "$MAN_TMP" --date "$MAN_DATE" --section 1 --authors "the switchscan developers" >/dev/null
# mdoc wants .Pp, not an empty line, between paragraphs.
sed 's/^$/.Pp/' "$MAN_TMP/switchscan.1" > "$MAN_TMP/switchscan.1.fixed"
install -D -m 0644 "$MAN_TMP/switchscan.1.fixed" "$STAGE/share/man/man1/switchscan.1"
rm -rf "$MAN_TMP"
"$BINARY" --generate-completion-script bash > "$STAGE/.bash"
"$BINARY" --generate-completion-script zsh > "$STAGE/.zsh"
"$BINARY" --generate-completion-script fish > "$STAGE/.fish"
install -D -m 0644 "$STAGE/.bash" "$STAGE/share/bash-completion/completions/switchscan"
install -D -m 0644 "$STAGE/.zsh" "$STAGE/share/zsh/site-functions/_switchscan"
install -D -m 0644 "$STAGE/.fish" "$STAGE/share/fish/vendor_completions.d/switchscan.fish"
rm -f "$STAGE/.bash" "$STAGE/.zsh" "$STAGE/.fish"
install -D -m 0644 packaging/udev/70-switchscan.rules "$STAGE/lib/udev/rules.d/70-switchscan.rules"
mkdir -p "$STAGE/lib/systemd/user"
sed "s|@BINDIR@|$PREFIX/bin|g" packaging/systemd/switchscan.service.in > "$STAGE/lib/systemd/user/switchscan.service"
chmod 0644 "$STAGE/lib/systemd/user/switchscan.service"
# The desktops' own pieces (docs/wayland.md): GNOME's extension, built for its Shell (the person
# turns it on: gnome-extensions enable switchscan@switchscan.org); KWin's script, and the grant
# naming this binary for KWin's fake input (KWin compares Exec with the client's real path).
if [ "$GNOME_SHELL" != none ]; then
  packaging/gnome-shell/build.sh "$GNOME_SHELL" "$STAGE/share/gnome-shell/extensions/switchscan@switchscan.org" >&2 \
    || die "building the GNOME Shell extension (--gnome-shell $GNOME_SHELL) failed"
fi
install -D -m 0644 packaging/kwin/switchscan-windows.js "$STAGE/share/switchscan/kwin/switchscan-windows.js"
mkdir -p "$STAGE/share/applications"
sed "s|@BINDIR@|$PREFIX/bin|g" packaging/kwin/switchscan-fake-input.desktop.in > "$STAGE/share/applications/org.switchscan.switchscan-fake-input.desktop"
chmod 0644 "$STAGE/share/applications/org.switchscan.switchscan-fake-input.desktop"

if [ -n "$STAGE_ONLY" ]; then
  mkdir -p "$STAGE_ONLY"
  cp -a "$STAGE/." "$STAGE_ONLY/"
  echo "install: switchscan $VERSION laid out in $STAGE_ONLY (for prefix $PREFIX)" >&2
  exit 0
fi

# --- Install, recording what was created ------------------------------------------------------
if [ -z "$DESTDIR" ] && [ -f "$MANIFEST" ]; then
  echo "install: replacing the switchscan installed in $PREFIX" >&2
  uninstall
fi
existing=$TARGET
while [ ! -d "$existing" ]; do existing=$(dirname "$existing"); done
[ -w "$existing" ] || die "cannot write to $existing (run as root for a system prefix, or choose --prefix)"
RECORD=$(mktemp -t switchscan-manifest.XXXXXX)
# Directories that did not exist, parents first, so uninstall can remove them deepest first.
new_dirs() {
  local dir=$1 missing=()
  while [ ! -d "$dir" ]; do missing+=("$dir"); dir=$(dirname "$dir"); done
  local k
  for ((k = ${#missing[@]} - 1; k >= 0; k--)); do
    mkdir "${missing[k]}"
    echo "d ${missing[k]}" >> "$RECORD"
  done
}
while IFS= read -r -d '' file; do
  rel=${file#"$STAGE"/}
  new_dirs "$(dirname "$TARGET/$rel")"
  install -m "$(stat -c %a "$file")" "$file" "$TARGET/$rel"
  echo "f $TARGET/$rel" >> "$RECORD"
done < <(find "$STAGE" -type f -print0 | sort -z)
if [ -z "$DESTDIR" ]; then
  echo "f $MANIFEST" >> "$RECORD"
  install -m 0644 "$RECORD" "$MANIFEST"
fi
rm -f "$RECORD"
echo "install: switchscan $VERSION installed in $TARGET" >&2

if [ -z "$DESTDIR" ]; then
  udev_reload
  case "$PREFIX" in
    /usr|/usr/local) ;;
    *) echo "install: note: udev reads rules only from /etc/udev/rules.d, /usr/lib/udev/rules.d and /usr/local/lib/udev/rules.d;" \
            "to use the rule: sudo cp $PREFIX/lib/udev/rules.d/70-switchscan.rules /etc/udev/rules.d/" >&2
       echo "install: note: for the user service: systemctl --user link $PREFIX/lib/systemd/user/switchscan.service" >&2
       [ "$GNOME_SHELL" = none ] || echo "install: note: GNOME Shell looks for extensions in XDG_DATA_DIRS (/usr/local/share, /usr/share) and" \
            "~/.local/share: to use the extension, ln -s $PREFIX/share/gnome-shell/extensions/switchscan@switchscan.org ~/.local/share/gnome-shell/extensions/" >&2 ;;
  esac
  if [ "$GNOME_SHELL" != none ]; then
    echo "install: note: on GNOME, each person turns the extension on once: gnome-extensions enable switchscan@switchscan.org" \
         "(on Wayland, after logging out and in: the Shell looks for new extensions at login)" >&2
  else
    echo "install: note: no GNOME Shell here: its extension was not installed (--gnome-shell 43 or 45 installs it anyway)" >&2
  fi
  case ":$PATH:" in *":$PREFIX/bin:"*) ;; *) echo "install: note: $PREFIX/bin is not on PATH" >&2 ;; esac
fi
