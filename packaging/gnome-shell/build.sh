#!/usr/bin/env bash
# build.sh 43|45|auto DEST   writes switchscan's GNOME Shell extension into the folder DEST (the
# extension's own folder: .../gnome-shell/extensions/switchscan@switchscan.org).
#   45    GNOME 45 and later (ES modules): gnome-45/extension.js and src/*.js as they are.
#   43    GNOME 43 and 44 (`imports.*` modules): gnome-43/extension.js and src/*.js with `export`
#         taken off, as a legacy module exports its top-level `var`s and functions:
#         `export function f` -> `function f`, `export const X` -> `var X`,
#         `export class C` -> `var C = class C`. The shared files import nothing (the entry hands
#         them the toolkit), so that is the whole difference.
#   auto  43 or 45 by `gnome-shell --version` on this machine.
# One source for both module systems, made by a build step rather than kept twice, so a fix lands
# in both. Exit 2 for a bad argument, 1 if a legacy file still has an import or export after.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { echo "usage: $0 43|45|auto DEST" >&2; exit 2; }
[ $# -eq 2 ] || usage
variant=$1 dest=$2
if [ "$variant" = auto ]; then
  version=$(gnome-shell --version 2>/dev/null | awk '{print $3}') || true
  major=${version%%.*}
  case "$major" in
    ''|*[!0-9]*) echo "$0: cannot tell GNOME Shell's version (gnome-shell --version said '${version}')" >&2; exit 2 ;;
  esac
  if [ "$major" -ge 45 ]; then variant=45; else variant=43; fi
fi
case "$variant" in
  43) versions='["43", "44"]' ;;
  45) versions='["45", "46", "47", "48", "49"]' ;;
  *) usage ;;
esac
mkdir -p "$dest"
rm -f "$dest"/*.js "$dest/metadata.json"
sed "s/@SHELL_VERSIONS@/$versions/" "$here/src/metadata.json" > "$dest/metadata.json"
cp "$here/gnome-$variant/extension.js" "$dest/extension.js"
for f in "$here"/src/*.js; do
  if [ "$variant" = 45 ]; then
    cp "$f" "$dest/"
  else
    sed -E -e 's/^export function /function /' \
           -e 's/^export const ([A-Za-z_][A-Za-z0-9_]*) /var \1 /' \
           -e 's/^export class ([A-Za-z_][A-Za-z0-9_]*)/var \1 = class \1/' "$f" > "$dest/$(basename "$f")"
    if grep -nE '^\s*(import|export)\b' "$dest/$(basename "$f")" >&2; then
      echo "$0: $(basename "$f") keeps an import or export the GNOME 43 form cannot have" >&2
      exit 1
    fi
  fi
done
chmod 644 "$dest"/*
