#!/bin/sh
# Runs inside the benchmark VM (busybox sh). Prints "BENCH key=value" lines; bench-vm.sh collects
# them. Numbers come from an emulated CPU (TCG): compare them with each other (switchscan vs
# evtest vs a bare libevdev loop), not with hardware.
cd /test
N=${BENCH_PRESSES:-1000} GAP=${BENCH_GAP_MS:-50} SECS=${BENCH_SECONDS:-10}
wait_for() {
  i=0
  while ! grep -q -- "$1" "$2" 2>/dev/null; do
    usleep 100000; i=$((i + 1)); [ $i -gt "${3:-300}" ] && return 1
  done
  return 0
}
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
# percent of one CPU used by PID over SECS seconds (USER_HZ = 100)
cpu_over() { a=$(ticks "$1"); sleep "$2"; b=$(ticks "$1"); echo $(( (b - a) / $2 )); }
pct() { sort -n "$1" > "$1.sorted"; c=$(wc -l < "$1.sorted"); [ "$c" -gt 0 ] || { echo "n/a"; return; }
        k=$(( (c * $2 + 99) / 100 )); [ $k -lt 1 ] && k=1; sed -n "${k}p" "$1.sorted"; }

# 1. latency: kernel event time (≈ the press's send time: uinput stamps the event during the
# write) to the transcript line read from switchscan's stdout.
mkfifo /tmp/go /tmp/errfifo
./vmdev latency "$N" "$GAP" < /tmp/go > /tmp/sent.txt &
LAT=$!
exec 4>/tmp/go
wait_for "^node" /tmp/sent.txt
NODE=$(awk '$1 == "node" {print $2}' /tmp/sent.txt)
./vmdev stamp < /tmp/errfifo > /tmp/err.stamped &
./switchscan run --tree tree.json --profile bench-switch.json --device "$NODE" --show-frames --format jsonl 2> /tmp/errfifo \
  | ./vmdev stamp > /tmp/out.stamped &
wait_for "running" /tmp/err.stamped
echo go >&4
wait $LAT
sleep 1
kill -INT $(pidof switchscan) 2>/dev/null
sleep 1
awk '$1 == "sent" {print $2}' /tmp/sent.txt > /tmp/s.txt
if grep -q '"decision":"accepted"' /tmp/out.stamped; then
  echo "BENCH latency_to=transcript line (filter accepted)"
  grep '"decision":"accepted"' /tmp/out.stamped | awk '{print $1}' > /tmp/l.txt
else
  echo "BENCH latency_to=frame handed to the engine (--show-frames; the engine printed no filter lines: placeholder?)"
  grep 'frame .* KEY_SPACE 1$' /tmp/err.stamped | awk '{print $1}' > /tmp/l.txt
fi
awk 'NR == FNR {s[FNR] = $1; next} (FNR in s) {print $1 - s[FNR]}' /tmp/s.txt /tmp/l.txt > /tmp/lat.txt
echo "BENCH presses_sent=$(wc -l < /tmp/s.txt) presses_seen=$(wc -l < /tmp/l.txt)"
echo "BENCH latency_p50_us=$(pct /tmp/lat.txt 50) latency_p99_us=$(pct /tmp/lat.txt 99) latency_max_us=$(pct /tmp/lat.txt 100)"

# 2. idle CPU: a switch nobody presses.
mkfifo /tmp/cmd
./vmdev serve < /tmp/cmd > /tmp/vmdev.out 2>&1 &
exec 3>/tmp/cmd
echo "create switch Idle Switch" >&3
echo "create touch Bench Touchscreen" >&3
wait_for "created 1" /tmp/vmdev.out
SW=$(awk '$1 == "created" && $2 == 0 {print $3}' /tmp/vmdev.out)
TS=$(awk '$1 == "created" && $2 == 1 {print $3}' /tmp/vmdev.out)
./switchscan run --tree tree.json --profile bench-switch.json --device "$SW" > /dev/null 2> /tmp/idle.err &
IDLE=$!
wait_for "running" /tmp/idle.err
echo "BENCH idle_cpu_percent=$(cpu_over $IDLE "$SECS")"
kill -INT $IDLE; wait $IDLE

# 3. CPU while a 1 kHz touchscreen stream plays: switchscan, evtest, a bare libevdev loop.
stream_cpu() {  # stream_cpu LABEL PID
  echo "stream 1 1000 $((SECS * 1000))" >&3
  usleep 200000
  echo "BENCH stream_cpu_percent_$1=$(cpu_over "$2" $((SECS - 1)))"
  wait_for "streamed 1" /tmp/vmdev.out 200
  sed -i '/streamed 1/d' /tmp/vmdev.out
}
./switchscan run --tree tree.json --profile bench-touch.json --device "$TS" > /dev/null 2> /tmp/stream.err &
P=$!
wait_for "running" /tmp/stream.err
stream_cpu switchscan $P
kill -INT $P; wait $P
if [ -x ./evtest ]; then
  ./evtest "$TS" > /dev/null 2>&1 &
  P=$!
  usleep 500000
  stream_cpu evtest $P
  kill $P
fi
./vmdev drain "$TS" $((SECS * 1000 + 1000)) > /tmp/drain.out &
P=$!
usleep 300000
stream_cpu libevdev_loop $P
wait $P
echo "BENCH stream_events_read_by_libevdev_loop=$(awk '{print $1}' /tmp/drain.out) (over ${SECS} s; 5 events a frame)"
exec 3>&-
echo "bench done"
