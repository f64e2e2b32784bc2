#!/bin/sh
# Runs inside the test VM (busybox sh, real kernel, /dev/uinput): uinput devices made by vmdev,
# read by the real switchscan. Prints PASS/FAIL/PENDING lines and "N passed, M failed, K pending".
# PENDING checks need the real engine (Engine.swift is a placeholder that prints no transcript);
# they turn into PASS/FAIL by themselves once it prints lines.
cd /test
PASS=0 FAIL=0 PEND=0
ok() { echo "PASS: $1"; PASS=$((PASS + 1)); }
bad() { echo "FAIL: $1"; FAIL=$((FAIL + 1)); }
pending() { echo "PENDING (needs the real engine): $1"; PEND=$((PEND + 1)); }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }
# wait_for PATTERN FILE [tenths of a second]
wait_for() {
  i=0
  while ! grep -q -- "$1" "$2" 2>/dev/null; do
    usleep 100000; i=$((i + 1)); [ $i -gt "${3:-150}" ] && return 1
  done
  return 0
}
show() { echo "---- $1"; cat "$1"; echo "----"; }

mkfifo /tmp/cmd
./vmdev serve < /tmp/cmd > /tmp/vmdev.out 2>&1 &
exec 3>/tmp/cmd
echo "create switch VM Switch" >&3
echo "create touch VM Touchscreen" >&3
wait_for "created 1" /tmp/vmdev.out || { show /tmp/vmdev.out; echo "0 passed, 1 failed, 0 pending"; exit 1; }
SW=$(awk '$1 == "created" && $2 == 0 {print $3}' /tmp/vmdev.out)
TS=$(awk '$1 == "created" && $2 == 1 {print $3}' /tmp/vmdev.out)
echo "switch $SW, touchscreen $TS"

# devices
./switchscan devices > /tmp/devices.txt 2>&1
check "devices: the uinput switch is switch-like buttons" "grep -A3 \"Kernel: *$SW\$\" /tmp/devices.txt | grep -q 'Kind: *switch-like buttons'"
check "devices: the uinput touchscreen is a touchscreen" "grep -A3 \"Kernel: *$TS\$\" /tmp/devices.txt | grep -q 'Kind: *touchscreen'"
./switchscan devices --format json > /tmp/devices.json 2>&1
check "devices --format json names them" "grep -q '\"name\": \"VM Switch\"' /tmp/devices.json && grep -q '\"name\": \"VM Touchscreen\"' /tmp/devices.json"

# record (real kernel stamps) while the switch is pressed
./switchscan record --device "$SW" -o /tmp/rec.evemu --until 2 2> /tmp/rec.err &
REC=$!
wait_for "recording" /tmp/rec.err
echo "key 0 57 1" >&3; echo "sleep 150" >&3; echo "key 0 57 0" >&3
wait $REC; RC=$?
check "record: status 0" "[ $RC = 0 ]"
check "record: first event at 0.000000, press and release" "grep -q '^E: 0.000000 0001 0039 1' /tmp/rec.evemu && grep -q '^E: 0.1[0-9]* 0001 0039 0' /tmp/rec.evemu"
if [ -x ./evemu-device ]; then
  ./evemu-device /tmp/rec.evemu > /tmp/evemu-device.out 2>&1 &
  EVD=$!
  wait_for "/dev/input/event" /tmp/evemu-device.out 50
  check "record: evemu-device accepts the recording" "grep -q '/dev/input/event' /tmp/evemu-device.out"
  EVNODE=$(grep -o '/dev/input/event[0-9]*' /tmp/evemu-device.out | head -1)
  if [ -x ./evemu-play ] && [ -n "$EVNODE" ]; then
    ./evemu-play "$EVNODE" < /tmp/rec.evemu > /tmp/evemu-play.out 2>&1; RC=$?
    check "record: evemu-play replays it" "[ $RC = 0 ] && ! grep -qi error /tmp/evemu-play.out"
  fi
  kill $EVD 2>/dev/null
fi

# the live run
./switchscan run --tree tree.json --profile profile-vm.json --device "$SW" --grab --inject --show-frames --format jsonl --until 25 \
  > /tmp/run.out 2> /tmp/run.err &
RUN=$!
wait_for "running" /tmp/run.err || show /tmp/run.err
OUT=$(sed -n 's/.*injecting into \(\/dev\/input\/event[0-9]*\).*/\1/p' /tmp/run.err)
check "--inject: the output device exists" "[ -n \"$OUT\" ] && [ -e \"$OUT\" ]"
./switchscan devices > /tmp/devices2.txt 2>&1
check "--inject: the output device is a touchscreen" "grep -A3 'Device: *switchscan output' /tmp/devices2.txt | grep -q 'Kind: *touchscreen'"
check "--grab: another program cannot grab the switch" "[ \"\$(./vmdev grabtest $SW)\" = busy ]"
check "CLOCK_MONOTONIC accepted (no read-time fallback)" "! grep -q 'cannot set CLOCK_MONOTONIC' /tmp/run.err"
[ -n "$OUT" ] && { ./vmdev read "$OUT" 5000 > /tmp/injected.txt & }

# presses in -> frames in (and, with the real engine, transcript lines out and a tap injected)
usleep 300000
echo "key 0 57 1" >&3; echo "sleep 120" >&3; echo "key 0 57 0" >&3; echo "sleep 1500" >&3
echo "key 0 57 1" >&3; echo "sleep 120" >&3; echo "key 0 57 0" >&3
wait_for "KEY_SPACE 0" /tmp/run.err
usleep 2000000
check "switch presses reach the engine as frames" "[ \$(grep -c \"frame .* $SW KEY_SPACE 1\$\" /tmp/run.err) -ge 2 ]"
if grep -q '"type":"filter"' /tmp/run.out; then
  check "switch presses give filter lines" "grep -q '\"decision\":\"accepted\"' /tmp/run.out"
else
  pending "switch presses give transcript lines (filter accepted, perform)"
fi
if grep -q '"type":"perform","action":"activate"' /tmp/run.out; then
  usleep 500000
  check "an activation is injected as a tap and read back" "grep -q 'BTN_TOUCH 1' /tmp/injected.txt && grep -q 'BTN_TOUCH 0' /tmp/injected.txt && grep -q 'ABS_X' /tmp/injected.txt"
else
  pending "an activation is injected as a tap and read back from the output device"
fi

# SYN_DROPPED: stop the reader, overflow its buffer, ending with the key held
kill -STOP $RUN
echo "flood 0 400" >&3
wait_for "flooded 0" /tmp/vmdev.out
kill -CONT $RUN
wait_for "SYN_DROPPED" /tmp/run.err 50
check "flood: SYN_DROPPED is noticed and resynced" "grep -q 'events were lost (SYN_DROPPED); resynced' /tmp/run.err"
check "flood: the engine gets the state after the gap (key held)" "[ \"\$(grep \"frame .* $SW \" /tmp/run.err | tail -1 | awk '{print \$NF}')\" = 1 ]"
echo "key 0 57 0" >&3
usleep 300000

# unplug and replug
echo "destroy 0" >&3
wait_for '"change":"removed"' /tmp/run.out 50
check "unplug: a device removed line" "grep -q '\"type\":\"device\",\"change\":\"removed\",\"name\":\"VM Switch\"' /tmp/run.out"
check "unplug: the engine keeps running" "kill -0 $RUN"
echo "create switch VM Switch" >&3
wait_for "created 2" /tmp/vmdev.out
SW2=$(awk '$1 == "created" && $2 == 2 {print $3}' /tmp/vmdev.out)
wait_for '"change":"added"' /tmp/run.out 50
check "replug: a device added line" "grep -q '\"type\":\"device\",\"change\":\"added\",\"name\":\"VM Switch\",\"node\":\"$SW2\"' /tmp/run.out"
check "replug: grabbed again" "[ \"\$(./vmdev grabtest $SW2)\" = busy ]"
echo "key 2 57 1" >&3; echo "sleep 100" >&3; echo "key 2 57 0" >&3
wait_for "frame .* $SW2 KEY_SPACE 0" /tmp/run.err 50
check "replug: presses are read again" "grep -q \"frame .* $SW2 KEY_SPACE 1\$\" /tmp/run.err"

# SIGINT: status 0, grab released
kill -INT $RUN
wait $RUN; RC=$?
check "SIGINT: status 0" "[ $RC = 0 ]"
check "exit: the grab is released" "[ \"\$(./vmdev grabtest $SW2)\" = free ]"
check "exit: the output device is gone" "! grep -qs 'switchscan output' /sys/class/input/input*/name"

exec 3>&-

# The uinput suite of the Swift tests (UInputTests: output device, read back, flood, removal).
if [ -x ./switchscanPackageTests.xctest ]; then
  ./switchscanPackageTests.xctest --testing-library swift-testing --filter UInputTests > /tmp/xctest.out 2>&1; RC=$?
  check "Swift UInputTests pass on the real kernel" "[ $RC = 0 ] && grep -q 'Test run with 4 tests.* passed' /tmp/xctest.out && ! grep -q skipped /tmp/xctest.out"
  [ $RC = 0 ] || show /tmp/xctest.out
fi

if [ $FAIL -gt 0 ]; then show /tmp/run.err; show /tmp/run.out; fi
echo "$PASS passed, $FAIL failed, $PEND pending"
[ $FAIL = 0 ]
