#!/usr/bin/env bash
# Installs the Debian packages switchscan needs that this machine lacks (Swift itself is assumed).
#   scripts/setup.sh          what building needs: every scripts/apt/build-*.list
#   scripts/setup.sh --tests  also what the tests need: every scripts/apt/test-*.list
# A list holds one package per line; `#` starts a comment. One file per area, so adding a
# package to one area never touches another's list.
set -euo pipefail
cd "$(dirname "$0")/.."
lists=(scripts/apt/build-*.list)
if [ "${1:-}" = "--tests" ]; then lists+=(scripts/apt/test-*.list); fi
packages=()
for list in "${lists[@]}"; do
  [ -f "$list" ] || continue
  while read -r p _; do
    case "$p" in ""|\#*) continue ;; esac
    packages+=("$p")
  done < "$list"
done
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
