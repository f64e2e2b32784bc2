#!/usr/bin/env bash
# Installs the Debian packages switchscan needs that this machine lacks (Swift itself is assumed).
#   scripts/setup.sh          what building needs: libevdev-dev, pkg-config
#   scripts/setup.sh --tests  also what the device tests need: umockdev (+ its Python bindings),
#                             evemu-tools, evtest, qemu-system-x86, cpio, file (the VM suite downloads
#                             Debian's kernel and busybox-static itself, once, into ~/.cache/evdev-vm)
set -euo pipefail
packages=(libevdev-dev pkg-config)
if [ "${1:-}" = "--tests" ]; then
  packages+=(umockdev gir1.2-umockdev-1.0 python3-gi evemu-tools evtest qemu-system-x86 cpio file)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
