#!/usr/bin/env bash
# vm-test.sh: the device path on a real Linux kernel (qemu, TCG): uinput devices created inside
# the VM, read by the real `switchscan run --grab --inject` (vm-inside.sh lists the checks).
# Skips with a clear message where qemu cannot start; finishes in well under 5 minutes.
#
# usage: scripts/device-tests/vm-test.sh [--no-build] [--only faults|pause]
# env:   VM_CACHE (kernel cache, default ~/.cache/evdev-vm), see run-in-vm.sh
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=1 ONLY=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) BUILD=0; shift ;;
    --only) ONLY=("$2"); shift 2 ;;  # faults, pause or touch: vm-faults.sh, vm-pause.sh or vm-touch.sh alone
    *) echo "vm-test: unknown option $1" >&2; exit 2 ;;
  esac
done

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
need=()
command -v qemu-system-x86_64 >/dev/null || need+=(qemu-system-x86)
command -v cpio >/dev/null || need+=(cpio)
command -v file >/dev/null || need+=(file)
# vmdev.c needs a C compiler: gcc, else the clang that comes with Swift.
command -v gcc >/dev/null || command -v clang >/dev/null || need+=(gcc)
command -v pkg-config >/dev/null || need+=(pkg-config)
pkg-config --exists libevdev 2>/dev/null || need+=(libevdev-dev)
command -v evemu-device >/dev/null || need+=(evemu-tools)
# libinput's own debug-events reads the virtual touchscreen (vm-touch.sh).
[ -x /usr/libexec/libinput/libinput-debug-events ] || need+=(libinput-tools)
if [ ${#need[@]} -gt 0 ]; then
  echo "vm-test: installing ${need[*]}" >&2
  if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"; } >&2; then
    echo "vm-test: SKIPPED: cannot install ${need[*]}"
    exit 0
  fi
fi
# The kernel is fetched once with apt-get download (run-in-vm.sh): a fresh machine needs the lists.
CACHE=${VM_CACHE:-$HOME/.cache/evdev-vm}
if [ ! -f "$CACHE/ready" ] && ! apt-cache depends linux-image-amd64 2>/dev/null | grep -q "Depends: linux-image-[0-9]"; then
  $SUDO apt-get update -qq >&2 || true
fi
CC=${CC:-$(command -v gcc || command -v clang)}

cd "$ROOT"
if [ $BUILD = 1 ] && [ -z "${SWITCHSCAN_BIN_DIR:-}" ]; then swift build --build-tests >&2; fi
# SWITCHSCAN_BIN: another build to test (e.g. main's, to see which checks fail there)
# SWITCHSCAN_BIN_DIR: the debug build's folder when the caller knows it (scripts/test.sh does).
BIN_DIR="${SWITCHSCAN_BIN_DIR:-$(swift build --show-bin-path)}"
BIN="${SWITCHSCAN_BIN:-$BIN_DIR/switchscan}"
TESTS="$BIN_DIR/switchscanPackageTests.xctest"
[ -x "$BIN" ] || { echo "vm-test: no switchscan binary at $BIN (build first)"; exit 1; }

WORK=$(mktemp -d -t switchscan-vm.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
"$CC" -O2 -Wall -o "$WORK/vmdev" "$HERE/vmdev.c" $(pkg-config --cflags --libs libevdev)
"$CC" -O2 -Wall -shared -fPIC -o "$WORK/vmgate.so" "$HERE/vmgate.c" -ldl
# The bundled profiles by path, and a three-item tree with an explicit activation point.
FILES=(-f "$BIN" -f "$WORK/vmdev" -f "$WORK/vmgate.so" -f "$HERE/vm-faults.sh" -f "$HERE/vm-pause.sh" -f "$HERE/vm-touch.sh" -f "$HERE/vm-tree.json"
       -f "$ROOT/Profiles/two-switch-manual.json" -f "$ROOT/Profiles/single-switch-auto.json")
# libinput debug-events (its libraries come along, as the test bundle's do) and its quirks files.
FILES+=(-f /usr/libexec/libinput/libinput-debug-events)
for q in /usr/share/libinput/*.quirks; do FILES+=(-f "$q:$q"); done
[ -x "$TESTS" ] && FILES+=(-f "$TESTS")
# The keyboard layouts (xkb-data) for --inject's keyboard, unpacked inside (UInputTests, issue 23).
if [ -d /usr/share/X11/xkb ]; then tar -C /usr/share/X11 -cf "$WORK/xkb.tar" xkb && FILES+=(-f "$WORK/xkb.tar"); fi
for t in evemu-device evemu-play; do command -v $t >/dev/null && FILES+=(-f "$(command -v $t)"); done

LOG="$WORK/console.log"
set +e
# The watchdog bounds a hung VM, it times nothing: the suite takes about 200 s emulated on a quiet
# machine and over 420 s beside a CPU hog (issue 32: the whole suite passes there too).
bash "$HERE/run-in-vm.sh" -t ${VM_TIMEOUT:-900} -m 1G "${FILES[@]}" "$HERE/vm-inside.sh" ${ONLY[@]+"${ONLY[@]}"} 2>&1 | tee "$LOG"
RC=${PIPESTATUS[0]}
set -e
if ! grep -q "VM-BOOTED" "$LOG"; then
  echo "vm-test: SKIPPED: qemu could not start the test kernel here (run-in-vm.sh status $RC; see above)"
  exit 0
fi
grep -a -E '^[0-9]+ passed, [0-9]+ failed' "$LOG" | tail -1 || echo "0 passed, 1 failed (no summary from the VM)"
exit "$RC"
