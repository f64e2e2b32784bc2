#!/bin/sh
# Runs inside the benchmark VM (busybox sh, one vCPU): the latency of touch frames passed live to
# the virtual touchscreen (issue 20). Prints "BENCH …" lines and "lat LABEL K US" lines;
# bench-touch-vm.sh turns them into the table of BENCHMARKS.md.
#
# One harness for both forwarders: `vmdev touchlat` makes a protocol-B touchscreen, puts a finger
# down, moves it WARMUP times (not timed: the first frames after a start pay for the emulator
# translating the code), then N / ROUNDS times GAP ms apart; each move's latency is the kernel's
# CLOCK_MONOTONIC stamp of the forwarded frame on the forwarder's virtual device (read back by the
# driver) minus CLOCK_MONOTONIC just before the move was written. The forwarders take turns, ROUNDS
# rounds each (short rounds, so the host's load falls on both alike):
#   switchscan  `switchscan run` with a profile that lets every frame through live (no hold
#               duration, tap assistance off): read, engine, one write(2) per frame to uinput;
#   bare        `vmdev forward`: a bare libevdev → uinput loop (libevdev_next_event, then
#               libevdev_uinput_write_event per event), the anchor.
#
# The driver stands for the touchscreen's hardware, so it runs at nice DRIVER_NICE (19): on the one
# vCPU it must not compete with the forwarder it wakes. At nice 0 CFS lets a woken forwarder
# preempt the driver only while the forwarder has used less CPU than the driver (the bare loop
# does; switchscan does not), and a forwarder that may not preempt waits until the driver sleeps
# (the rest of its write(2), its read and its poll: 35-45 µs under TCG) before it even wakes,
# a wait the kernel's touchscreen interrupt never imposes. Both forwarders run at nice 0.
# DRIVER_NICE=0 gives the harness as it was before.
#
# SOURCE says what the driver's frames are: "screen", what a real touchscreen's kernel driver
# sends for a move (ABS_MT_POSITION_X, then the pointer emulation's ABS_X, SYN_REPORT: the
# kernel's input_mt_sync_frame adds ABS_X/Y for the oldest contact), or "mt", the multitouch
# events alone (ABS_MT_POSITION_X, SYN_REPORT), the harness before. The bare loop forwards what it
# reads, event by event; switchscan writes its virtual touchscreen's frame, which has the pointer
# emulation either way.
#
# BARE_WAIT says how the bare loop sleeps (`vmdev forward NODE WAIT`): "poll", poll(2) on the
# touchscreen alone (the default: the anchor), or, to see what watching more costs, "epoll" (the
# same fd through epoll_wait(2)) or "poll4" (poll(2) on the touchscreen and a pipe, a timerfd and an
# inotify watch, which switchscan also watches: signals, timers, hotplug).
cd /test
N=${1:-1000} GAP=${2:-8} ROUNDS=${3:-10} WARMUP=${4:-50} DRIVER_NICE=${5:-19} SOURCE=${6:-screen} BARE_WAIT=${7:-poll}
PER=$((N / ROUNDS))
wait_for() {  # wait_for PATTERN FILE [tenths of a second]
  i=0
  while ! grep -q -- "$1" "$2" 2>/dev/null; do
    usleep 100000; i=$((i + 1)); [ $i -gt "${3:-300}" ] && return 1
  done
  return 0
}
cpu_ns() { awk '{print $1}' "/proc/$1/schedstat" 2>/dev/null || echo 0; }
echo "BENCH vm_kernel=$(uname -r) vm_cpus=$(grep -c ^processor /proc/cpuinfo) vm_clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
echo "BENCH frames=$N gap_ms=$GAP rounds=$ROUNDS warmup=$WARMUP"
printf '{"name": "bench: every frame live", "switches": [], "touchAccommodations": {}}\n' > /tmp/live.json
mkfifo /tmp/go
./vmdev touchlat "$PER" "$GAP" "$WARMUP" "$([ "$SOURCE" = mt ] && echo 0 || echo 1)" < /tmp/go > /tmp/lat.out 2>&1 &
DRIVER=$!
[ "$DRIVER_NICE" = 0 ] || renice -n "$DRIVER_NICE" -p $DRIVER > /dev/null
echo "BENCH driver_nice=$DRIVER_NICE source=$SOURCE bare_wait=$BARE_WAIT"
exec 4>/tmp/go
wait_for "^node" /tmp/lat.out || { cat /tmp/lat.out; exit 1; }
NODE=$(awk '$1 == "node" {print $2}' /tmp/lat.out)
TENTHS=$(((PER + WARMUP) * GAP / 100 + 300))
# While a round runs the shell sleeps instead of polling for its end: a `grep` forked every 100 ms
# would take the one vCPU from the forwarder at random frames.
ROUND_US=$(((PER + WARMUP + 2) * GAP * 1000 + 200000))
r=1
while [ $r -le "$ROUNDS" ]; do
  # The last round's file goes first: a "forwarding" or "running" left in it would start the
  # round (and its CPU count) before this forwarder is ready.
  rm -f /tmp/fwd.out /tmp/ss.err
  ./vmdev forward "$NODE" "$BARE_WAIT" > /tmp/fwd.out 2>&1 &
  F=$!
  wait_for "forwarding" /tmp/fwd.out 50
  a=$(cpu_ns $F)
  echo "go bare$r bare Bench Touchscreen" >&4
  usleep $ROUND_US
  wait_for "done bare$r" /tmp/lat.out "$TENTHS" || echo "BENCH error=\"bare round $r did not finish\""
  echo "cpu bare$r $(( $(cpu_ns $F) - a ))"
  kill $F; wait $F 2>/dev/null
  ./switchscan run --profile /tmp/live.json --device "$NODE" > /dev/null 2> /tmp/ss.err &
  S=$!
  wait_for "running" /tmp/ss.err 100
  a=$(cpu_ns $S)
  echo "go switchscan$r switchscan Bench Touchscreen" >&4
  usleep $ROUND_US
  wait_for "done switchscan$r" /tmp/lat.out "$TENTHS" || echo "BENCH error=\"switchscan round $r did not finish\""
  echo "cpu switchscan$r $(( $(cpu_ns $S) - a ))"
  kill -INT $S; wait $S
  r=$((r + 1))
done
exec 4>&-
grep -E '^(lat|error)' /tmp/lat.out
echo "BENCH frames_per_round=$((PER + WARMUP + 2))"
