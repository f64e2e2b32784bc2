#!/usr/bin/env bash
# Every test suite, with one honest summary line at the end: "N passed, M failed".
#   1. Swift tests (Swift Testing and XCTest): pure core, formats, CLI, umockdev device tests.
#   2. Every suite script scripts/*/suite-*.sh (each area keeps its own folder; each ends with its
#      own "N passed, M failed" line): the device suites in scripts/device-tests/ (a real kernel in
#      qemu when it can start), and whatever other areas add.
# Installs what is missing first (scripts/setup.sh --tests).
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests || { echo "test: setup failed"; echo "0 passed, 1 failed"; exit 1; }

out=.ci/out
rm -rf "$out"; mkdir -p "$out"
passed=0; failed=0

if ! swift build --build-tests 2>&1 | tee "$out/build.log" | grep -E "error:|warning: unre|Compiling|Build complete" | grep -v "^\[" ; then :; fi
if ! grep -q "Build complete" "$out/build.log"; then
  echo "test: build failed (see $out/build.log)"
  echo "0 passed, 1 failed"
  exit 1
fi

echo "test: build took ${SECONDS} s"
# The debug build's folder, found once: the suites use it without asking SwiftPM again (which
# would wait for the background build's lock on .build).
export SWITCHSCAN_BIN_DIR
SWITCHSCAN_BIN_DIR=$(swift build --show-bin-path)

# The builds later suites need start in the background at the lowest priority, on the core the
# tests leave idle (many tests wait on X, D-Bus or a replay; the VM suite's qemu is one thread):
# the fuzz targets with ASan now (their own package, Fuzz/.build), the release build the install
# suite installs once the Swift tests are done (`swift test` waits for any build holding .build's
# lock). A suite that comes to its build first waits for SwiftPM's lock and finds it done.
# Their output: .ci/out/prebuild-*.log.
nice -n 19 scripts/fuzz/build.sh release > "$out/prebuild-fuzz.log" 2>&1 &
prebuilds=($!)
trap 'kill "${prebuilds[@]}" 2>/dev/null' INT TERM HUP
t0=$SECONDS
swift test --skip-build --xunit-output "$out/xunit.xml" > "$out/swift-test.log" 2>&1
status=$?
grep -E "^(✘|􀢄)|Test run with|Executed [0-9]+ tests" "$out/swift-test.log" || true
# Skips: only for what this machine is (/dev/uinput, /dev/input, root), each reason said with its
# count. A skip for anything else (a program or package missing) counts as a failure: such a test
# must fail with "missing: PROGRAM (Debian package P)" (Tests/TestPrograms), and setup.sh installs it.
counts=$(python3 - "$out" <<'PY'
import collections, glob, sys, xml.etree.ElementTree as ET
passed = failed = skipped = 0
reasons = collections.Counter()
for f in glob.glob(sys.argv[1] + "/xunit*.xml"):
    for case in ET.parse(f).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.find("skipped") is not None:
            skipped += 1
            reasons[(case.find("skipped").text or case.find("skipped").get("message") or "no reason given").strip()] += 1
        else:
            passed += 1
machine = ("/dev/uinput", "/dev/input", "root")
for reason, n in sorted(reasons.items()):
    ok = any(m in reason for m in machine)
    print(f"skipped {n}: {reason}" + ("" if ok else "  <- not a property of this machine: counted as failures"), file=sys.stderr)
    if not ok:
        failed += n; skipped -= n
print(passed, failed, skipped)
PY
)
read -r p f s <<<"$counts"
if [ -z "${p:-}" ]; then p=0; f=1; s=0; fi
# swift test failed but no test case says so (a crash, a test process that died): one failure.
if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
  echo "swift test ended with status $status without a failing test case: counted as 1 failure"
  f=1
fi
echo "swift tests: $p passed, $f failed ($s skipped for this machine: /dev/uinput, /dev/input or root) in $((SECONDS - t0)) s"
passed=$((passed + p)); failed=$((failed + f))
nice -n 19 scripts/install.sh --build-only > "$out/prebuild-install.log" 2>&1 &
prebuilds+=($!)

for suite in scripts/*/suite-*.sh; do
  [ -x "$suite" ] || continue
  name=$(basename "$suite" .sh)
  t0=$SECONDS
  "$suite" 2>&1 | tee "$out/$name.log" | tail -n 40
  line=$(grep -E "^[0-9]+ passed, [0-9]+ failed$" "$out/$name.log" | tail -1)
  if [ -z "$line" ]; then
    echo "$name: no summary line: counted as 1 failure"
    failed=$((failed + 1))
  else
    read -r sp _ sf _ <<<"$line"
    echo "$name: $line in $((SECONDS - t0)) s"
    passed=$((passed + sp)); failed=$((failed + sf))
  fi
done

wait "${prebuilds[@]}" 2>/dev/null
echo "test: everything took ${SECONDS} s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
