#!/usr/bin/env bash
# Regenerates the umockdev fixtures (.umockdev + .ioctl) from their JSON descriptions in
# Tests/SwitchInputTests/Fixtures/devices/. Needs python3 and the kernel headers
# (linux-libc-dev: /usr/include/linux/input-event-codes.h).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=$(cd "$HERE/../../Tests/SwitchInputTests/Fixtures/devices" && pwd)
for spec in "$DIR"/*.json; do
  python3 "$HERE/gen-umockdev.py" "$spec" "${spec%.json}"
  echo "wrote ${spec%.json}.umockdev ${spec%.json}.ioctl"
done
