#!/usr/bin/env bash
# suite-vm.sh: the real-kernel tests (vm-test.sh: qemu, TCG) as one suite of scripts/test.sh.
# Its last line is exactly "N passed, M failed"; where qemu cannot start the test kernel it says
# why and ends with "0 passed, 0 failed". vm-test.sh installs what it needs with apt-get (qemu,
# cpio, file, libevdev, evemu-tools, a C compiler) and builds switchscan if needed.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
LOG=$(mktemp -t switchscan-suite-vm.XXXXXX)
trap 'rm -f "$LOG"' EXIT

# vm-test.sh takes about 3 minutes on a loaded host (qemu itself is limited to 420 s); a backstop.
timeout 600 "$HERE/vm-test.sh" "$@" 2>&1 | tee "$LOG"
RC=${PIPESTATUS[0]}

if grep -q "^vm-test: SKIPPED" "$LOG"; then
  echo "suite-vm: skipped: $(grep "^vm-test: SKIPPED" "$LOG" | tail -1 | sed 's/^vm-test: SKIPPED: //')"
  echo "0 passed, 0 failed"
  exit 0
fi
summary=$(tr -d '\r' < "$LOG" | grep -a -E '^[0-9]+ passed, [0-9]+ failed$' | tail -1)
if [ -z "$summary" ]; then
  [ "$RC" = 124 ] && echo "suite-vm: vm-test.sh did not finish in 600 s" || echo "suite-vm: vm-test.sh gave no summary (status $RC)"
  echo "0 passed, 1 failed"
  exit 1
fi
read -r passed _ failed _ <<<"$summary"
# A VM that reported passes but ended badly (status, timeout) counts one failure more.
if [ "$RC" != 0 ] && [ "$failed" = 0 ]; then
  echo "suite-vm: vm-test.sh ended with status $RC"
  failed=1
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
