#!/usr/bin/env bash
# suite-install.sh: switchscan installed like a Linux input tool (docs/install.md), one check per
# line, the last line "N passed, M failed" (scripts/test.sh adds it to the total).
#
#  1. scripts/install.sh --prefix TMP (one release build, reused below): the installed binary run
#     from another directory and through a symlink finds its profiles by name, runs the demo,
#     needs no Swift toolchain library; `man -l` renders the man page, which points to the manual
#     installed in share/doc/switchscan (README.md, docs/, BENCHMARKS.md, RELIABILITY.md), whose
#     links all resolve there; the bash completion loads
#     and completes; zsh -n and fish -n parse theirs; `systemd-analyze verify --user` accepts
#     the user unit; the Wayland desktops' pieces: GNOME Shell's extension in the form for this
#     machine's Shell, KWin's script, KWin's fake-input grant naming PREFIX/bin/switchscan;
#     installing again replaces; --uninstall leaves nothing behind (and keeps what was there before).
#  2. The udev rule, run by `udevadm test` on umockdev devices in a private mount namespace (no
#     trace on this machine): a one-key switch, a gamepad and /dev/uinput get the uaccess tag, a
#     full keyboard and a touchscreen do not, a keyboard configured with SWITCHSCAN_SWITCH=1 does.
#  3. scripts/build-deb.sh from the same build: the .deb declares what the binary links and what
#     the desktops need (Recommends, Suggests), carries the GNOME extension and KWin's files, installs
#     with apt-get, runs, and is removed leaving none of its files (skipped, with the reason, when
#     not root or when a switchscan package is already installed).
#  4. The README's first set-up command (scripts/demo.sh) still prints the demo's transcript.
#
# Cost: the release build (about 4 minutes on 2 cores from scratch; nothing when it is up to date),
# then about 30 s.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
PASSED=0; FAILED=0
pass() { PASSED=$((PASSED + 1)); echo "ok   $1"; }
fail() { FAILED=$((FAILED + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && echo "$2" | sed 's/^/     /' | head -20; }
check() { local name=$1; shift; local out; if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$out"; fi; }
finish() { echo "$PASSED passed, $FAILED failed"; [ "$FAILED" -eq 0 ]; exit $?; }

scripts/setup.sh --tests >/dev/null 2>&1 || { fail "scripts/setup.sh --tests"; finish; }

WORK=$(mktemp -d -t switchscan-install-test.XXXXXX)
DEB_INSTALLED=0
cleanup() {
  if [ "$DEB_INSTALLED" = 1 ]; then DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq switchscan >/dev/null 2>&1; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
PREFIX="$WORK/prefix"
ELSEWHERE="$WORK/elsewhere"
mkdir -p "$ELSEWHERE" "$WORK/config"
unset SWITCHSCAN_PROFILES
# The installed tool runs with an empty configuration folder (no user profiles, no default
# profile); builds keep the real HOME (SwiftPM's caches and mirrors live there).
isolated() { XDG_CONFIG_HOME="$WORK/config" "$@"; }

# --- 1. install.sh -------------------------------------------------------------------------------
start=$(date +%s)
if ! scripts/install.sh --prefix "$PREFIX" > "$WORK/install.log" 2>&1; then
  fail "scripts/install.sh --prefix $PREFIX" "$(tail -20 "$WORK/install.log")"
  finish
fi
pass "scripts/install.sh --prefix TMP ($(( $(date +%s) - start )) s with the release build)"
BUILT="$ROOT/.build/release/switchscan"
SW="$PREFIX/bin/switchscan"

expected_files() {
  echo bin/switchscan
  for p in Profiles/*.json; do echo "share/switchscan/profiles/$(basename "$p")"; done
  for k in Keyboards/*.json Keyboards/words/*; do echo "share/switchscan/keyboards/${k#Keyboards/}"; done
  printf '%s\n' share/man/man1/switchscan.1 share/bash-completion/completions/switchscan share/zsh/site-functions/_switchscan \
    share/fish/vendor_completions.d/switchscan.fish lib/udev/rules.d/70-switchscan.rules lib/systemd/user/switchscan.service \
    share/switchscan/install-manifest share/switchscan/kwin/switchscan-windows.js \
    share/applications/org.switchscan.switchscan-fake-input.desktop
  gnome_extension_files | sed 's|^|share/gnome-shell/extensions/switchscan@switchscan.org/|'
  manual_files
}
# The GNOME Shell extension (install.sh's --gnome-shell auto: only where GNOME Shell is installed).
gnome_extension_files() {
  command -v gnome-shell >/dev/null || return 0
  echo extension.js
  echo metadata.json
  (cd "$ROOT/packaging/gnome-shell/src" && ls *.js)
}
# The manual: README.md, BENCHMARKS.md, RELIABILITY.md and every file of docs/, as in the source tree.
manual_files() {
  printf 'share/doc/switchscan/%s\n' README.md BENCHMARKS.md RELIABILITY.md
  (cd "$ROOT" && find docs -type f | sed 's|^|share/doc/switchscan/|')
}
check "the layout: binary, profiles, keyboards, man page, the manual, three completions, udev rule, user unit, GNOME extension, KWin script and grant, manifest" \
  diff <(expected_files | sort) <(cd "$PREFIX" && find . -type f | sed 's|^\./||' | sort)
check "the manifest lists every file installed" \
  diff <(expected_files | sed "s|^|f $PREFIX/|" | sort) <(grep '^f ' "$PREFIX/share/switchscan/install-manifest" | sort)

# The desktops' pieces (docs/wayland.md): the extension in the form for this Shell, the KWin
# grant naming the installed binary (KWin compares Exec with the client's real path).
gnome_extension_form() {
  local dir="$PREFIX/share/gnome-shell/extensions/switchscan@switchscan.org" major
  major=$(gnome-shell --version | awk '{print $3}' | cut -d. -f1)
  python3 -c "import json, sys; m = json.load(open(sys.argv[1])); assert m['uuid'] == 'switchscan@switchscan.org', m; \
assert sys.argv[2] in m['shell-version'], m['shell-version']" "$dir/metadata.json" "$major" || return 1
  if [ "$major" -lt 45 ]; then ! grep -nE '^\s*(import|export)\b' "$dir"/*.js; else grep -q '^export default class' "$dir/extension.js"; fi
}
if command -v gnome-shell >/dev/null; then
  check "the GNOME Shell extension is the form for this machine's Shell ($(gnome-shell --version))" gnome_extension_form
fi
fake_input_grant() {
  local f="$PREFIX/share/applications/org.switchscan.switchscan-fake-input.desktop"
  grep -qx "Exec=$PREFIX/bin/switchscan" "$f" && grep -qx "X-KDE-Wayland-Interfaces=org_kde_kwin_fake_input" "$f" \
    && grep -qx "NoDisplay=true" "$f" || { cat "$f"; return 1; }
  "$ROOT/scripts/packages/programs.py" missing desktop-file-validate && desktop-file-validate "$f"
}
check "the KWin fake-input grant names PREFIX/bin/switchscan" fake_input_grant
check "the KWin script is the packaged one" cmp "$ROOT/packaging/kwin/switchscan-windows.js" "$PREFIX/share/switchscan/kwin/switchscan-windows.js"

cd "$ELSEWHERE"
check "--version from another directory is the build's" test "$("$SW" --version)" = "$("$BUILT" --version)"
profiles_installed() {
  local out; out=$(isolated "$1" profiles) || return 1
  for p in "$ROOT"/Profiles/*.json; do
    local name; name=$(basename "$p" .json)
    echo "$out" | grep -Eq "^$name +installed +$PREFIX/share/switchscan/profiles/$name.json " || { echo "$name not installed: $out"; return 1; }
  done
}
check "profiles by name come from PREFIX/share/switchscan/profiles" profiles_installed "$SW"
ln -s "$SW" "$ELSEWHERE/sw"
check "... also through a symbolic link to the binary" profiles_installed "$ELSEWHERE/sw"
cp "$ROOT/Sources/switchscan/Demo/demo-tree.json" "$ROOT/Sources/switchscan/Demo/demo-session.evemu" "$ELSEWHERE/"
check "simulate --profile tremor (by name) prints the golden transcript" \
  diff "$ROOT/Tests/CLITests/Golden/tremor.jsonl" <(isolated "$SW" simulate --tree demo-tree.json --profile tremor --events demo-session.evemu --format jsonl)
printf 'hi there\n' > "$ELSEWHERE/phrases.txt"
text_stats_installed() {
  isolated "$SW" text stats phrases.txt --keyboard qwerty --predictions 0 --predictor none --format json | grep -q '"baseline": "qwerty grouped 0p 1sw"'
}
check "text stats finds the installed layouts by name (PREFIX/share/switchscan/keyboards)" text_stats_installed
check "demo runs from the binary alone (embedded files)" diff "$ROOT/Tests/CLITests/Golden/demo.txt" <(isolated "$SW" demo 2>/dev/null)
check "the binary needs no library of the Swift toolchain" bash -c "! ldd '$SW' | grep -E 'swift|Foundation|not found'"
cd "$ROOT"

# The man page: rendered by man -l with no groff/mdoc warning, and found by name on MANPATH.
man_renders() {
  local out err
  out=$(MANWIDTH=80 man -l "$PREFIX/share/man/man1/switchscan.1" 2>"$WORK/man.err") || return 1
  err=$(cat "$WORK/man.err"); [ -z "$err" ] || { echo "warnings: $err"; return 1; }
  for want in "SWITCHSCAN(1)" "NAME" "switchscan — Switch control" "debug-events" "profiles"; do
    echo "$out" | grep -qF -- "$want" || { echo "missing: $want"; return 1; }
  done
  [ "$(MANPATH="$PREFIX/share/man" man -w switchscan)" = "$PREFIX/share/man/man1/switchscan.1" ]
}
check "man -l renders the man page (no warnings); man -w finds it on MANPATH" man_renders
check "the man page points to the manual in share/doc/switchscan" \
  bash -c "MANWIDTH=200 man -l '$PREFIX/share/man/man1/switchscan.1' 2>/dev/null | grep -q 'share/doc/switchscan'"
check "the installed manual is the source tree's (same bytes)" bash -c "
  for f in \$(cd '$ROOT' && { ls README.md BENCHMARKS.md RELIABILITY.md; find docs -type f; }); do cmp -s '$ROOT/'\$f '$PREFIX/share/doc/switchscan/'\$f || { echo \"differs: \$f\"; exit 1; }; done"
check "every link of the installed manual resolves there, #anchors included" \
  python3 "$ROOT/scripts/docs/check_docs.py" --links-only --root "$PREFIX/share/doc/switchscan" --installed README.md BENCHMARKS.md RELIABILITY.md docs

# Bash: the completion script loads, registers, and completes subcommands and options.
bash_completes() {
  bash --norc --noprofile -c '
    source "$1" || exit 1
    complete -p switchscan | grep -q "_switchscan" || { echo "not registered"; exit 1; }
    PATH="$(dirname "$2"):$PATH"
    COMP_WORDS=(switchscan pro); COMP_CWORD=1; COMP_LINE="switchscan pro"; COMP_POINT=${#COMP_LINE}
    _switchscan switchscan pro switchscan; echo "${COMPREPLY[*]}" | grep -qw profiles || { echo "got: ${COMPREPLY[*]}"; exit 1; }
    COMP_WORDS=(switchscan record --sh); COMP_CWORD=2; COMP_LINE="switchscan record --sh"; COMP_POINT=${#COMP_LINE}
    _switchscan switchscan --sh record; echo "${COMPREPLY[*]}" | grep -q -- "--show-keycodes" || { echo "got: ${COMPREPLY[*]}"; exit 1; }
  ' _ "$PREFIX/share/bash-completion/completions/switchscan" "$SW"
}
check "the bash completion loads and completes (profiles, record --show-keycodes)" bash_completes
# Never skipped for a shell that is not here: "missing: zsh (Debian package zsh)" is a failure.
needing() { scripts/packages/programs.py missing "$1" && "$@"; }
check "the zsh completion parses" needing zsh -n "$PREFIX/share/zsh/site-functions/_switchscan"
check "the fish completion parses" needing fish -n "$PREFIX/share/fish/vendor_completions.d/switchscan.fish"

# The user unit: what it runs, and systemd's own verifier (it also checks that the binary and the
# man page named in Documentation= exist).
UNIT="$PREFIX/lib/systemd/user/switchscan.service"
check "the unit runs PREFIX/bin/switchscan run --desktop, restarts on failure, with the graphical session" \
  bash -c "grep -qx 'ExecStart=$SW run --desktop' '$UNIT' && grep -qx 'Restart=on-failure' '$UNIT' && grep -qx 'WantedBy=graphical-session.target' '$UNIT' && grep -qx 'PartOf=graphical-session.target' '$UNIT'"
unit_verifies() {
  mkdir -p "$WORK/runtime" && chmod 700 "$WORK/runtime"
  local err
  err=$(XDG_RUNTIME_DIR="$WORK/runtime" MANPATH="$PREFIX/share/man" systemd-analyze verify --user "$UNIT" 2>&1) || { echo "$err"; return 1; }
  [ -z "$err" ] || { echo "$err"; return 1; }
}
if command -v systemd-analyze >/dev/null; then
  check "systemd-analyze verify --user accepts the unit (no warning)" unit_verifies
else
  echo "skip systemd-analyze is not installed"
fi

reinstall() {
  scripts/install.sh --prefix "$PREFIX" --binary "$BUILT" > "$WORK/reinstall.log" 2>&1 || { cat "$WORK/reinstall.log"; return 1; }
  grep -q "replacing the switchscan installed in $PREFIX" "$WORK/reinstall.log" || { cat "$WORK/reinstall.log"; return 1; }
  diff <(expected_files | sort) <(cd "$PREFIX" && find . -type f | sed 's|^\./||' | sort)
}
check "installing again replaces the installation (the same files)" reinstall
check "--uninstall removes everything it installed, the prefix included" bash -c "
  scripts/install.sh --uninstall --prefix '$PREFIX' >/dev/null 2>&1 && [ ! -e '$PREFIX' ]"
# A prefix that already holds other things keeps them, and only them.
OTHER="$WORK/shared-prefix"
mkdir -p "$OTHER/share/man/man1" "$OTHER/bin"
echo keep > "$OTHER/share/man/man1/other.1"; echo keep > "$OTHER/bin/other"
check "--uninstall in a shared prefix leaves exactly what was there before" bash -c "
  before=\$(cd '$OTHER' && find . | sort)
  scripts/install.sh --prefix '$OTHER' --binary '$BUILT' >/dev/null 2>&1 && [ -x '$OTHER/bin/switchscan' ] &&
  scripts/install.sh --uninstall --prefix '$OTHER' >/dev/null 2>&1 &&
  [ \"\$(cd '$OTHER' && find . | sort)\" = \"\$before\" ]"

# --- 2. The udev rule under udevadm test -----------------------------------------------------------
RULE="$ROOT/packaging/udev/70-switchscan.rules"
DEVICES="$ROOT/Tests/SwitchInputTests/Fixtures/devices"
# One device through all the rules: installed ones, plus $WORK/rules (the switchscan rule and
# optionally a local one) in place of /etc/udev/rules.d. /run/udev and /dev/char, which udevadm
# test writes, are private tmpfs mounts: nothing is left on this machine.
udev_tags() {
  local fixture=$1 devpath=$2
  unshare -m sh -c "mount -t tmpfs none /run/udev 2>/dev/null || { mkdir -p /run/udev && mount -t tmpfs none /run/udev; }
    mount -t tmpfs none /dev/char 2>/dev/null
    mount --bind '$WORK/rules' /etc/udev/rules.d &&
    umockdev-run -d '$DEVICES/$fixture.umockdev' -- udevadm test --action=add '$devpath' 2>/dev/null" |
    sed -n -e 's/^TAGS=/tags /p' -e 's/^DEVPATH=/devpath /p'
}
udev_missing=$(scripts/packages/programs.py missing udevadm umockdev-run unshare)
if [ "$(id -u)" -ne 0 ]; then
  echo "skip the udev rule checks: they need root (udevadm test in a private mount namespace)"
elif [ -n "$udev_missing" ]; then
  fail "the udev rule checks" "$udev_missing"
elif ! unshare -m true 2>/dev/null || [ ! -d /etc/udev/rules.d ]; then
  echo "skip the udev rule checks: this machine gives no private mount namespace (unshare -m) or has no /etc/udev/rules.d"
else
  mkdir -p "$WORK/rules" && cp "$RULE" "$WORK/rules/"
  rule_tags() {  # fixture devpath want(yes|no)
    local out tags
    out=$(udev_tags "$1" "$2")
    echo "$out" | grep -qx "devpath ${2#/sys}" || { echo "udevadm test did not run the rules on $2: $out"; return 1; }
    tags=$(echo "$out" | sed -n 's/^tags //p')
    case "$3:$tags" in yes:*:uaccess:*) ;; no:*:uaccess:*) echo "$1: TAGS=$tags"; return 1 ;; no:*) ;; *) echo "$1: TAGS=$tags"; return 1 ;; esac
  }
  check "udev rule: a one-key switch gets the uaccess tag" rule_tags switch /sys/devices/virtual/input/input102/event2 yes
  check "udev rule: a full keyboard does not" rule_tags keyboard /sys/devices/virtual/input/input110/event10 no
  check "udev rule: a touchscreen does not" rule_tags touch /sys/devices/virtual/input/input105/event5 no
  check "udev rule: a gamepad does" rule_tags gamepad /sys/devices/virtual/input/input111/event11 yes
  check "udev rule: /dev/uinput gets the uaccess tag (touch passthrough's virtual touchscreen)" rule_tags uinput /sys/devices/virtual/misc/uinput yes
  # Without switchscan's rule the one-key switch gets no uaccess: the tag above is the rule's.
  mv "$WORK/rules/70-switchscan.rules" "$WORK/70-switchscan.rules.aside"
  check "... and without the rule the switch gets none (the tag is the rule's)" rule_tags switch /sys/devices/virtual/input/input102/event2 no
  check "... nor /dev/uinput" rule_tags uinput /sys/devices/virtual/misc/uinput no
  mv "$WORK/70-switchscan.rules.aside" "$WORK/rules/70-switchscan.rules"
  # A clinician's configuration for one device (a switch interface that is a full keyboard), as
  # the rule's header and the README describe it.
  echo 'SUBSYSTEM=="input", ATTRS{id/vendor}=="046d", ATTRS{id/product}=="c32b", ENV{SWITCHSCAN_SWITCH}="1"' > "$WORK/rules/69-switchscan-local.rules"
  check "udev rule: a full keyboard configured with SWITCHSCAN_SWITCH=1 (by vendor:product) does" \
    rule_tags keyboard /sys/devices/virtual/input/input110/event10 yes
  rm -f "$WORK/rules/69-switchscan-local.rules"
fi

# --- 3. The Debian package -----------------------------------------------------------------------
if ! DEB=$(scripts/build-deb.sh --binary "$BUILT" --output "$WORK" 2>"$WORK/deb.err"); then
  fail "scripts/build-deb.sh" "$(cat "$WORK/deb.err")"
else
  VERSION=$("$BUILT" --version)
  check "build-deb.sh makes switchscan_${VERSION}_$(dpkg --print-architecture).deb" test "$(basename "$DEB")" = "switchscan_${VERSION}_$(dpkg --print-architecture).deb"
  depends=$(dpkg-deb -f "$DEB" Depends)
  deps_match() {
    # Every library the binary links directly (its NEEDED entries, resolved by ldd) is provided by
    # a declared package, and libevdev2 is there. Libraries those pull in (libxcb under libX11)
    # are their packages' dependencies, not ours, as dpkg-shlibdeps has it.
    echo "$depends" | grep -q "libevdev2" || { echo "no libevdev2 in: $depends"; return 1; }
    local lib pkg needed
    needed=$(objdump -p "$BUILT" | awk '/NEEDED/{print $2}')
    for lib in $(ldd "$BUILT" | awk -v n="$needed" 'BEGIN{split(n, a, "\n"); for (k in a) want[a[k]]=1} /=> \//{ if ($1 in want) print $3 }'); do
      pkg=$(dpkg -S "$(readlink -f "$lib")" 2>/dev/null | head -1 | cut -d: -f1) || pkg=""
      [ -n "$pkg" ] || pkg=$(dpkg -S "$lib" 2>/dev/null | head -1 | cut -d: -f1)
      [ -n "$pkg" ] || { echo "$lib belongs to no package"; return 1; }
      echo "$depends" | tr ',' '\n' | awk '{print $1}' | grep -qxF "$pkg" || { echo "$lib ($pkg) not in Depends: $depends"; return 1; }
    done
  }
  check "Depends declares the package of every library the binary links ($depends)" deps_match
  check "the package holds the Debian layout (the manual in /usr/share/doc/switchscan)" bash -c "dpkg-deb -c '$DEB' | awk '{print \$6}' | grep -qx './usr/bin/switchscan' &&
    dpkg-deb -c '$DEB' | awk '{print \$6}' | grep -qx './usr/share/man/man1/switchscan.1.gz' &&
    dpkg-deb -c '$DEB' | awk '{print \$6}' | grep -qx './usr/lib/udev/rules.d/70-switchscan.rules' &&
    dpkg-deb -c '$DEB' | awk '{print \$6}' | grep -qx './usr/lib/systemd/user/switchscan.service' &&
    dpkg-deb -c '$DEB' | awk '{print \$6}' | grep -qx './usr/share/zsh/vendor-completions/_switchscan' &&
    dpkg-deb -c '$DEB' | awk '{print \$6}' | grep -qx './usr/share/doc/switchscan/README.md' &&
    [ \$(dpkg-deb -c '$DEB' | grep -c '/usr/share/doc/switchscan/docs/.*\.md') = $(ls docs/*.md | wc -l) ] &&
    [ \$(dpkg-deb -c '$DEB' | grep -c '/usr/share/switchscan/profiles/.*\.json') = $(ls Profiles/*.json | wc -l) ] &&
    [ \$(dpkg-deb -c '$DEB' | grep -c '/usr/share/switchscan/keyboards/.*\.json') = $(ls Keyboards/*.json | wc -l) ]"
  check "the package carries the GNOME Shell extension, the KWin script and the grant naming /usr/bin/switchscan" bash -c "
    dpkg-deb -c '$DEB' | awk '{print \$6}' | grep -qx './usr/share/gnome-shell/extensions/switchscan@switchscan.org/extension.js' &&
    dpkg-deb -c '$DEB' | awk '{print \$6}' | grep -qx './usr/share/gnome-shell/extensions/switchscan@switchscan.org/metadata.json' &&
    dpkg-deb -c '$DEB' | awk '{print \$6}' | grep -qx './usr/share/switchscan/kwin/switchscan-windows.js' &&
    dpkg-deb --fsys-tarfile '$DEB' | tar -xO ./usr/share/applications/org.switchscan.switchscan-fake-input.desktop | grep -qx 'Exec=/usr/bin/switchscan'"
  check "Recommends at-spi2-core and fonts-dejavu-core; Suggests the Extensions app and speech-dispatcher" bash -c "
    dpkg-deb -f '$DEB' Recommends | grep -q at-spi2-core && dpkg-deb -f '$DEB' Recommends | grep -q fonts-dejavu-core &&
    dpkg-deb -f '$DEB' Suggests | grep -q gnome-shell-extension-prefs && dpkg-deb -f '$DEB' Suggests | grep -q speech-dispatcher"
  check "Depends names libpresage-data (presage's English model, which no library brings)" \
    bash -c "echo '$depends' | tr ',' '\n' | awk '{print \$1}' | grep -qx libpresage-data"
  if [ "$(id -u)" -ne 0 ]; then
    echo "skip apt-get install of the .deb: not root"
  elif dpkg -s switchscan >/dev/null 2>&1; then
    echo "skip apt-get install of the .deb: a switchscan package is already installed on this machine"
  else
    if DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$DEB" > "$WORK/apt.log" 2>&1; then
      DEB_INSTALLED=1
      pass "apt-get install ./$(basename "$DEB")"
      FILES=$(dpkg -L switchscan | while read -r f; do [ -f "$f" ] && echo "$f"; done)
      cd "$ELSEWHERE"
      check "the packaged switchscan runs: --version" test "$(/usr/bin/switchscan --version)" = "$VERSION"
      check "the packaged switchscan finds its profiles in /usr/share/switchscan/profiles" \
        bash -c "XDG_CONFIG_HOME='$WORK/config' /usr/bin/switchscan profiles | grep -Eq '^tremor +installed +/usr/share/switchscan/profiles/tremor.json '"
      check "man -w switchscan finds the packaged man page" test "$(man -w switchscan)" = "/usr/share/man/man1/switchscan.1.gz"
      check "the packaged GNOME Shell extension is where GNOME Shell looks (/usr/share/gnome-shell/extensions)" \
        test -f /usr/share/gnome-shell/extensions/switchscan@switchscan.org/metadata.json
      cd "$ROOT"
      if DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq switchscan >> "$WORK/apt.log" 2>&1; then
        DEB_INSTALLED=0
        left=$(for f in $FILES; do [ -e "$f" ] && echo "$f"; done)
        if [ -z "$left" ]; then pass "apt-get remove switchscan leaves none of its $(echo "$FILES" | wc -l) files"
        else fail "apt-get remove switchscan leaves none of its files" "$left"; fi
        # Its maintainer scripts keep it known to dpkg ("config-files") until purged, as for any package.
        DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq switchscan >> "$WORK/apt.log" 2>&1
        check "apt-get purge switchscan: dpkg no longer knows it" bash -c "! dpkg -s switchscan >/dev/null 2>&1"
      else
        fail "apt-get remove switchscan" "$(tail -5 "$WORK/apt.log")"
      fi
    else
      fail "apt-get install ./$(basename "$DEB")" "$(tail -10 "$WORK/apt.log")"
    fi
  fi
fi

# --- 4. The README's set-up command for the main job ---------------------------------------------
check "scripts/demo.sh prints the demo's transcript" bash -c "diff '$ROOT/Tests/CLITests/Golden/demo.txt' <(scripts/demo.sh 2>/dev/null)"

finish
