#!/bin/sh
# Runs inside the benchmark VM (busybox sh, one vCPU). Prints "BENCH key=value" lines; bench-vm.sh
# collects them into a table. The CPU is emulated (TCG), so absolute numbers are inflated: compare
# switchscan with evtest and with a bare libevdev read loop, measured here in the same run.
#
#   latency   N presses on one uinput switch, read in turn (4 rounds) by switchscan (transcript line "filter
#             accepted"), evtest (its "KEY_SPACE, value 1" line, line-buffered with stdbuf -oL) and
#             the bare loop (`vmdev read`, one printf+flush per event). Latency = the time the line
#             was read from the reader's stdout (`vmdev stamp`, CLOCK_MONOTONIC) minus the kernel's
#             CLOCK_MONOTONIC stamp of the press (read back by the driver, see vmdev.c). The readers
#             take turns: on one vCPU, readers woken together would queue behind each other.
#   idle      CPU time of switchscan on a switch nobody presses (manual scanning: no timers), and
#             while auto scanning (a timer and a transcript line a second).
#   stream    a 1 kHz protocol-B touchscreen stream (5 events a frame) read in turn (4 rounds) by
#             switchscan (touch accommodations on), by evtest (to /dev/null) and by the bare loop
#             (`vmdev drain`). CPU time per frame and wakeups (context switches) per frame.
# CPU time is the scheduler's (/proc/PID/schedstat, ns), not 10 ms ticks.
cd /test
N=${BENCH_PRESSES:-1000} GAP=${BENCH_GAP_MS:-40} SECS=${BENCH_SECONDS:-6} IDLE=${BENCH_IDLE_SECONDS:-20}
wait_for() {  # wait_for PATTERN FILE [tenths of a second]
  i=0
  while ! grep -q -- "$1" "$2" 2>/dev/null; do
    usleep 100000; i=$((i + 1)); [ $i -gt "${3:-300}" ] && return 1
  done
  return 0
}
cpu_ns() { awk '{print $1}' "/proc/$1/schedstat" 2>/dev/null || echo 0; }
ctx() { awk '/^(non)?voluntary_ctxt_switches/ {s += $2} END {print s + 0}' "/proc/$1/status" 2>/dev/null || echo 0; }
# measure PID SECONDS: sets CPU_NS and WAKEUPS for that window
measure() {
  a=$(cpu_ns "$1"); w=$(ctx "$1"); sleep "$2"; b=$(cpu_ns "$1"); x=$(ctx "$1")
  CPU_NS=$((b - a)); WAKEUPS=$((x - w))
}
percent() { awk -v ns="$1" -v s="$2" 'BEGIN {printf "%.3f", ns / (s * 1e9) * 100}'; }

echo "BENCH vm_kernel=$(uname -r) vm_cpu=\"$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)\" vm_cpus=$(grep -c ^processor /proc/cpuinfo) vm_clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource) vm_mem_kb=$(awk '/MemTotal/ {print $2}' /proc/meminfo)"
echo "BENCH presses=$N gap_ms=$GAP rounds=${BENCH_ROUNDS:-4} stream_seconds=$SECS idle_seconds=$IDLE"

# 0. calibration: the host runs the same command (bench-vm.sh); the ratio is TCG's slowdown for
# this code (20,000 presses through the engine and the JSON transcript). The first run also pays
# for TCG translating the code and for loading it: the second one is timed.
./switchscan simulate --tree tree.json --profile bench-switch.json --events calib.evemu --format jsonl > /dev/null
t0=$(./vmdev now)
./switchscan simulate --tree tree.json --profile bench-switch.json --events calib.evemu --format jsonl > /dev/null
echo "BENCH calib_vm_ms=$(( ($(./vmdev now) - t0) / 1000 ))"

# 1. latency: ROUNDS rounds; in each, every reader in turn gets N/ROUNDS presses (host load then
# falls on all readers alike).
ROUNDS=${BENCH_ROUNDS:-4}
PER=$((N / ROUNDS))
mkfifo /tmp/go
./vmdev latency "$PER" "$GAP" < /tmp/go > /tmp/lat.out 2>&1 &
exec 4>/tmp/go
wait_for "^node" /tmp/lat.out || { cat /tmp/lat.out; exit 1; }
NODE=$(awk '$1 == "node" {print $2}' /tmp/lat.out)
PASS_TENTHS=$((PER * GAP / 100 + 300))
# lat_pass LABEL PID PATTERN ROUND: PER presses; the i-th line matching PATTERN in the reader's
# stamped output ($S) is press i. Appends the latencies to /tmp/LABEL.lat, the CPU to /tmp/LABEL.cpu.
lat_pass() {
  a=$(cpu_ns "$2"); w=$(ctx "$2")
  echo "go $1-$4" >&4
  wait_for "^done $1-$4" /tmp/lat.out "$PASS_TENTHS" || echo "BENCH error=$1 pass $4 did not finish"
  echo "$(( $(cpu_ns "$2") - a )) $(( $(ctx "$2") - w ))" >> "/tmp/$1.cpu"
  grep "^press $1-$4 " /tmp/lat.out | awk '{print $4}' > "/tmp/$1.kernel"
  grep -- "$3" "$S" | awk '{print $1}' > "/tmp/$1.line"
  sent=$(wc -l < "/tmp/$1.kernel"); seen=$(wc -l < "/tmp/$1.line")
  echo "$sent $seen" >> "/tmp/$1.sent"
  # Lines pair with presses by position: a round with a line missing or extra cannot be paired.
  if [ "$sent" = "$seen" ]; then
    awk 'NR == FNR {k[FNR] = $1; next} (FNR in k) && k[FNR] > 0 {print $1 - k[FNR]}' "/tmp/$1.kernel" "/tmp/$1.line" >> "/tmp/$1.lat"
  else
    echo "BENCH error=$1 round $4: $sent presses, $seen lines (round left out)"
  fi
}
lat_report() {  # lat_report LABEL
  [ -f "/tmp/$1.lat" ] || return 0
  sent=$(awk '{s += $1} END {print s + 0}' "/tmp/$1.sent")
  seen=$(awk '{s += $2} END {print s + 0}' "/tmp/$1.sent")
  cpu=$(awk -v n="$sent" '{s += $1; w += $2} END {printf "cpu_us_per_press=%d wakeups_per_press=%.2f", n ? s / 1000 / n : 0, n ? w / n : 0}' "/tmp/$1.cpu")
  sort -n "/tmp/$1.lat" | awk -v label="$1" -v sent="$sent" -v seen="$seen" -v cpu="$cpu" '
    {v[NR] = $1; sum += $1}
    END {
      if (NR == 0) { printf "BENCH latency_%s presses=%d lines=%d paired=0 %s\n", label, sent, seen, cpu; exit }
      p50 = v[int((NR * 50 + 99) / 100)]; p99 = v[int((NR * 99 + 99) / 100)]
      printf "BENCH latency_%s presses=%d lines=%d paired=%d p50_us=%d p99_us=%d max_us=%d mean_us=%d %s\n", label, sent, seen, NR, p50, p99, v[NR], sum / NR, cpu
    }'
}
# Each reader writes into a FIFO of its own (a stamper still draining the last one must not take
# lines); the stamper prefixes every line with its arrival time.
stamped() { F=/tmp/out-$1-$r.fifo S=/tmp/$1-$r.stamped; mkfifo "$F"; ./vmdev stamp < "$F" > "$S" & }
r=1
while [ $r -le "$ROUNDS" ]; do
  stamped switchscan
  ./switchscan run --tree tree.json --profile bench-switch.json --device "$NODE" --format jsonl > "$F" 2> /tmp/ss-$r.err &
  P=$!
  wait_for "running" /tmp/ss-$r.err || cat /tmp/ss-$r.err
  lat_pass switchscan $P '"decision":"accepted"' $r
  kill -INT $P; wait $P

  if [ -x ./evtest ] && [ -x ./stdbuf ]; then
    stamped evtest
    ./stdbuf -oL ./evtest "$NODE" > "$F" 2>&1 &
    P=$!
    wait_for "Testing" "$S" 100
    lat_pass evtest $P '(KEY_SPACE), value 1' $r
    kill $P; wait $P
  fi

  stamped libevdev_loop
  ./vmdev read "$NODE" 3600000 > "$F" &
  P=$!
  usleep 500000
  lat_pass libevdev_loop $P 'EV_KEY KEY_SPACE 1' $r
  kill $P; wait $P
  sleep 1
  r=$((r + 1))
done
exec 4>&-
for l in switchscan evtest libevdev_loop; do lat_report $l; done

# 2. idle
mkfifo /tmp/cmd
./vmdev serve < /tmp/cmd > /tmp/vmdev.out 2>&1 &
exec 3>/tmp/cmd
echo "create switch Idle Switch" >&3
echo "create touch Bench Touchscreen" >&3
wait_for "created 1" /tmp/vmdev.out
SW=$(awk '$1 == "created" && $2 == 0 {print $3}' /tmp/vmdev.out)
TS=$(awk '$1 == "created" && $2 == 1 {print $3}' /tmp/vmdev.out)
idle() {  # idle LABEL PROFILE
  ./switchscan run --tree tree.json --profile "$2" --device "$SW" > /dev/null 2> "/tmp/idle-$1.err" &
  P=$!
  wait_for "running" "/tmp/idle-$1.err"
  sleep 1
  measure $P "$IDLE"
  echo "BENCH idle_$1 cpu_percent=$(percent $CPU_NS "$IDLE") cpu_ms=$((CPU_NS / 1000000)) wakeups_per_s=$(awk -v w=$WAKEUPS -v s="$IDLE" 'BEGIN {printf "%.2f", w / s}')"
  kill -INT $P; wait $P
}
idle manual bench-switch.json
idle auto_scanning single-switch-auto.json

# 3. a 1 kHz touchscreen stream, the readers taking turns over ROUNDS rounds (the host's load
# then falls on all alike); CPU and wakeups over the middle SECS-2 s of each stream.
stream() {  # stream LABEL PID
  echo "stream 1 1000 $((SECS * 1000))" >&3
  sleep 1
  W=$((SECS - 2))
  measure "$2" $W
  echo "$CPU_NS $WAKEUPS $W" >> "/tmp/stream-$1"
  wait_for "streamed 1" /tmp/vmdev.out 200
  sed -i '/streamed 1/d' /tmp/vmdev.out
}
r=1
while [ $r -le "$ROUNDS" ]; do
  ./switchscan run --tree tree.json --profile bench-touch.json --device "$TS" > /dev/null 2> /tmp/stream-$r.err &
  P=$!
  wait_for "running" /tmp/stream-$r.err
  stream switchscan $P
  kill -INT $P; wait $P
  if [ -x ./evtest ]; then
    ./evtest "$TS" > /dev/null 2>&1 &
    P=$!
    usleep 500000
    stream evtest $P
    kill $P; wait $P
  fi
  ./vmdev drain "$TS" $((SECS * 1000 + 1500)) > /tmp/drain.out &
  P=$!
  usleep 300000
  stream libevdev_loop $P
  wait $P
  r=$((r + 1))
done
for l in switchscan evtest libevdev_loop; do
  [ -f "/tmp/stream-$l" ] || continue
  awk -v label="$l" '{ns += $1; w += $2; s += $3; if (min == "" || $1 / $3 < min) min = $1 / $3; if ($1 / $3 > max) max = $1 / $3}
    END {printf "BENCH stream_%s cpu_percent=%.3f cpu_us_per_frame=%.1f wakeups_per_frame=%.2f rounds=%d cpu_us_per_frame_min=%.1f cpu_us_per_frame_max=%.1f\n",
         label, ns / (s * 1e9) * 100, ns / 1000 / (s * 1000), w / (s * 1000), NR, min / 1e6, max / 1e6}' "/tmp/stream-$l"
done
echo "BENCH stream_events_read_by_libevdev_loop=$(awk '{print $1}' /tmp/drain.out) (last round, over ${SECS} s; 5 events a frame)"
exec 3>&-
echo "bench done"
