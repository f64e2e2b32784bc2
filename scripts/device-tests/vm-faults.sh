# Sourced by vm-inside.sh (busybox sh, real kernel): faults in the live loop (issue 12 part 4),
# each a named check. Uses vm-inside.sh's helpers (check, wait_for, new_device, same_as_simulate)
# and its vmdev server on fd 3. docs/live.md "Faults in the live loop" says what each one expects.
TREE=vm-tree.json MANUAL=two-switch-manual.json AUTO=single-switch-auto.json

# --- The node disappears between enumeration and open -----------------------------------------
# vmgate.so holds `run` inside its second open(2) of the node (the first is the enumeration);
# meanwhile the device is unplugged for real, then the open goes on against the kernel.
new_device switch "VM Vanishing Switch"; VK=$DEV_K VN=$DEV_NODE
rm -f /tmp/gate.ready /tmp/gate.go
LD_PRELOAD=/test/vmgate.so VMGATE_PATH="$VN" VMGATE_NTH=2 VMGATE_READY=/tmp/gate.ready VMGATE_GO=/tmp/gate.go \
  ./switchscan run --tree $TREE --profile $MANUAL --device "$VN" --grab --format jsonl --until 40 > /tmp/v.out 2> /tmp/v.err &
VP=$!
i=0; while [ ! -e /tmp/gate.ready ] && [ $i -lt 300 ]; do usleep 100000; i=$((i + 1)); done
echo "destroy $VK" >&3
wait_for "destroyed $VK" /tmp/vmdev.out 50
touch /tmp/gate.go
wait_for "running" /tmp/v.err 50
check "vanished before open: the run goes on and says the device is gone" \
  "kill -0 $VP 2>/dev/null && grep -q \"$VN: gone before it could be opened; looking for it every 0.5 s\" /tmp/v.err"
check "vanished before open: a device removed line at t = 0" \
  "grep -q '^{\"t\":0.000,\"type\":\"device\",\"change\":\"removed\",\"name\":\"VM Vanishing Switch\"' /tmp/v.out"
new_device switch "VM Vanishing Switch"; VK2=$DEV_K VN2=$DEV_NODE
wait_for '"change":"added"' /tmp/v.out 50
check "vanished before open: found when it comes back, and grabbed" \
  "grep -q '\"change\":\"added\",\"name\":\"VM Vanishing Switch\",\"node\":\"$VN2\"' /tmp/v.out && [ \"\$(./vmdev grabtest $VN2)\" = busy ]"
echo "key $VK2 57 1" >&3; echo "sleep 80" >&3; echo "key $VK2 57 0" >&3
wait_for '"decision":"accepted"' /tmp/v.out 50
check "vanished before open: its presses are read" "grep -q '\"switch\":\"KEY_SPACE\",\"decision\":\"accepted\"' /tmp/v.out"
kill -INT $VP 2>/dev/null; wait $VP
grep -q "gone before" /tmp/v.err || { show /tmp/v.err; show /tmp/v.out; }
echo "destroy $VK2" >&3

# --- EINTR storm: SIGHUP every millisecond for 4 s while presses arrive ------------------------
# SIGHUP is the signal `run` handles without ending: each one interrupts epoll_wait (EINTR) and
# asks for a tree reload. The transcript must be the simulator's on the same presses, and the
# reloads coalesced (at most one per 0.1 s), not one per signal.
new_device switch "VM Storm Switch"; SK=$DEV_K SN=$DEV_NODE
./switchscan record --device "$SN" -o /tmp/st.evemu --until 30 2> /tmp/strec.err &
REC=$!
wait_for "recording" /tmp/strec.err
./switchscan run --tree $TREE --profile $AUTO --device "$SN" --show-frames --format jsonl --until 7 > /tmp/st.out 2> /tmp/st.err &
SP=$!
wait_for "running" /tmp/st.err
./vmdev storm $SP 1 1000 4000 > /tmp/storm.out &
STORM=$!
pressk() { echo "key $1 57 1" >&3; echo "sleep 100" >&3; echo "key $1 57 0" >&3; }
wait_for '"id":"stop","label":"Stop, button","kind":"item"' /tmp/st.out 50; usleep 400000
pressk $SK; echo "sleep 400" >&3; pressk $SK
wait_for '"id":"volume","label":"Volume, 50%, adjustable","kind":"item"' /tmp/st.out 60; usleep 400000
pressk $SK
wait $STORM
wait $SP; RC=$?
kill -INT $REC; wait $REC
SENT=$(awk '{print $2}' /tmp/storm.out)
RELOADS=$(grep -c "SIGHUP: tree reloaded" /tmp/st.err)
echo "storm: $SENT signals sent, $RELOADS reloads"
check "EINTR storm: the storm happened (at least 1000 SIGHUPs in 4 s)" "[ \"${SENT:-0}\" -ge 1000 ]"
check "EINTR storm: status 0 at --until" "[ $RC = 0 ]"
check "EINTR storm: the recording has the 3 presses" "[ \$(grep -c '^E: .* 0001 0039 1' /tmp/st.evemu) = 3 ]"
# Each reload writes a layout line (issue 22) that the simulator, which gets no SIGHUP, cannot:
# compared without them, and counted.
grep -v '"type":"tree","change":"layout"' /tmp/st.out > /tmp/st-noreload.out
same_as_simulate storm /tmp/st-noreload.out /tmp/st.err /tmp/st.evemu $AUTO 7; RC=$?
check "EINTR storm: run and simulate give the same transcript (times within 50 ms), reloads aside" "[ $RC = 0 ]"
check "EINTR storm: one layout line per reload" "[ \$(grep -c '\"type\":\"tree\",\"change\":\"layout\"' /tmp/st.out) = $RELOADS ]"
check "EINTR storm: reloads coalesced, at most one per 0.1 s (at most 45 in 4 s)" "[ $RELOADS -ge 1 ] && [ $RELOADS -le 45 ]"
echo "destroy $SK" >&3

# --- SIGSTOP for 10 s while presses arrive, then SIGCONT ---------------------------------------
# The presses wait in the kernel's buffer (64 events for this device: 16 presses); after SIGCONT
# they are read in order with their kernel stamps, and the timers due before each fire first:
# the transcript is the simulator's on the same presses.
new_device switch "VM Stopped Switch"; TK=$DEV_K TN=$DEV_NODE
./switchscan record --device "$TN" -o /tmp/stop.evemu --until 40 2> /tmp/stoprec.err &
REC=$!
wait_for "recording" /tmp/stoprec.err
./switchscan run --tree $TREE --profile $AUTO --device "$TN" --show-frames --format jsonl --until 15 > /tmp/stop.out 2> /tmp/stop.err &
TP=$!
wait_for "running" /tmp/stop.err
usleep 1300000
kill -STOP $TP
STOPPED_AT=$(./vmdev now)
echo "presses $TK 57 5 1700" >&3
wait_for "pressed $TK" /tmp/vmdev.out 150
while [ $(( $(./vmdev now) - STOPPED_AT )) -lt 10000000 ]; do usleep 100000; done
kill -CONT $TP
wait $TP; RC=$?
kill -INT $REC; wait $REC
check "SIGSTOP: status 0 at --until" "[ $RC = 0 ]"
check "SIGSTOP: the 5 presses made while stopped are read, in order, none lost" \
  "[ \$(grep -c \"frame .* $TN KEY_SPACE 1\$\" /tmp/stop.err) = 5 ] && [ \$(grep -c '^E: .* 0001 0039 1' /tmp/stop.evemu) = 5 ] && ! grep -q SYN_DROPPED /tmp/stop.err"
check "SIGSTOP: timers caught up at their own times (highlights timed inside the stop)" \
  "awk -F'[:,]' '/\"type\":\"highlight\"/ && \$2 > 3 && \$2 < 10 {n++} END {exit !(n >= 3)}' /tmp/stop.out"
same_as_simulate stop /tmp/stop.out /tmp/stop.err /tmp/stop.evemu $AUTO 15; RC=$?
check "SIGSTOP: run and simulate give the same transcript (times within 50 ms)" "[ $RC = 0 ]"
echo "destroy $TK" >&3

# --- Running out of file descriptors -----------------------------------------------------------
new_device switch "VM Fd Switch"; FK=$DEV_K FN=$DEV_NODE
( exec 3>&-; ulimit -n 6; exec ./switchscan run --tree $TREE --profile $MANUAL --device "$FN" --until 5 ) > /dev/null 2> /tmp/fd0.err; RC=$?
check "no fds at start: a non-zero status and a clear error naming the limit" \
  "[ $RC != 0 ] && [ $RC -lt 128 ] && grep -q 'switchscan: error: .*too many open files (this process may have 6): raise the limit' /tmp/fd0.err"
grep -q "may have 6" /tmp/fd0.err || { echo "status $RC"; show /tmp/fd0.err; }
./switchscan run --tree $TREE --profile $MANUAL --device "$FN" --grab --format jsonl --until 60 > /tmp/fd.out 2> /tmp/fd.err &
FP=$!
wait_for "running" /tmp/fd.err
# The device's fd number: after an unplug it is free again, so the limit goes just below it.
DEVFD=$(ls -l /proc/$FP/fd | awk -v n="$FN" '$NF == n {print $(NF-2)}' | head -1)
OLD=$(./vmdev nofile $FP "$DEVFD")
echo "destroy $FK" >&3
wait_for '"change":"removed"' /tmp/fd.out 50
new_device switch "VM Fd Switch"; FK2=$DEV_K FN2=$DEV_NODE
wait_for "cannot reopen" /tmp/fd.err 30
check "no fds at a replug: said once, with the limit" \
  "[ \$(grep -c 'cannot reopen: .*too many open files (this process may have $DEVFD): raise the limit' /tmp/fd.err) = 1 ]"
check "no fds at a replug: the engine keeps running" "kill -0 $FP"
./vmdev nofile $FP "${OLD:-1024}" > /dev/null
wait_for '"change":"added"' /tmp/fd.out 30
check "no fds at a replug: found once descriptors are available again, and grabbed" \
  "grep -q '\"change\":\"added\",\"name\":\"VM Fd Switch\"' /tmp/fd.out && [ \"\$(./vmdev grabtest $FN2)\" = busy ]"
[ -n "$DEVFD" ] && grep -q "cannot reopen" /tmp/fd.err || show /tmp/fd.err
kill -INT $FP; wait $FP
echo "destroy $FK2" >&3

# --- A full stdout pipe: the reader stops reading ----------------------------------------------
# Its pipe is shrunk to 4 KiB and it reads nothing while 60 presses arrive (120 lines, 9 KiB) and
# the switch is held twice for the pause (3 s each); then it reads everything. The loop must keep reading the
# switch (no SYN_DROPPED), keep its timers (the pause releases the grab while stdout is full),
# and lose nothing: the lines wait in memory and come out, in order, when the reader reads again.
new_device switch "VM Pipe Switch"; PK=$DEV_K PN=$DEV_NODE
rm -f /tmp/stall.go
( ./switchscan run --tree $TREE --profile $MANUAL --device "$PN" --grab --format jsonl --until 24 2> /tmp/pipe.err
  echo $? > /tmp/pipe.rc ) | ./vmdev stall /tmp/stall.go /tmp/pipe.out 4096 > /tmp/stall.out &
STALL=$!
wait_for "running" /tmp/pipe.err
echo "presses $PK 57 60 80" >&3
wait_for "pressed $PK" /tmp/vmdev.out 100
echo "key $PK 57 1" >&3; echo "sleep 3400" >&3; echo "key $PK 57 0" >&3
usleep 3700000
FREE1=$(./vmdev grabtest $PN)
echo "key $PK 57 1" >&3; echo "sleep 3400" >&3; echo "key $PK 57 0" >&3
usleep 3700000
BUSY2=$(./vmdev grabtest $PN)
STILL=$([ -e /tmp/pipe.out ] && echo read || echo stalled)
touch /tmp/stall.go
wait $STALL
PAUSES=$(grep '"type":"pause"' /tmp/pipe.out | sed 's/.*"state":"\([a-z]*\)".*/\1/' | tr '\n' ' ')
check "full stdout: the reader was still stalled during the holds" "[ $STILL = stalled ]"
check "full stdout: the loop kept reading the switch (no SYN_DROPPED)" "! grep -q SYN_DROPPED /tmp/pipe.err"
check "full stdout: the long hold still paused and released the grab" "[ \"$FREE1\" = free ]"
check "full stdout: the next long hold resumed and grabbed again" "[ \"$BUSY2\" = busy ]"
check "full stdout: no line lost: 61 accepted presses (the resuming hold starts paused), the pause and the resume, nothing dropped" \
  "[ \$(grep -c '\"decision\":\"accepted\"' /tmp/pipe.out) = 61 ] && ! grep -q '\"type\":\"dropped\"' /tmp/pipe.out && [ \"$PAUSES\" = 'paused resumed ' ]"
check "full stdout: status 0" "[ \"\$(cat /tmp/pipe.rc)\" = 0 ]"
grep -q SYN_DROPPED /tmp/pipe.err && show /tmp/pipe.err

# The same with a 1 KiB bound (SWITCHSCAN_OUTPUT_BUFFER): lines beyond it are dropped, and a
# "dropped" line says how many, where they were. Manual scanning: start 2 lines + 2 per press.
new_device switch "VM Drop Switch"; DK=$DEV_K DN=$DEV_NODE
rm -f /tmp/stall.go
( SWITCHSCAN_OUTPUT_BUFFER=1024 ./switchscan run --tree $TREE --profile $MANUAL --device "$DN" --format jsonl 2> /tmp/drop.err &
  echo $! > /tmp/drop.pid; wait $!; echo $? > /tmp/drop.rc ) | ./vmdev stall /tmp/stall.go /tmp/drop.out 4096 > /dev/null &
STALL=$!
wait_for "running" /tmp/drop.err
echo "presses $DK 57 60 80" >&3
wait_for "pressed $DK" /tmp/vmdev.out 150
touch /tmp/stall.go
usleep 1000000
kill -INT "$(cat /tmp/drop.pid)"
wait $STALL
GAPS=$(grep -c '"type":"dropped"' /tmp/drop.out)
DROPPED=$(sed -n 's/.*"type":"dropped","lines":\([0-9]*\).*/\1/p' /tmp/drop.out | awk '{n += $1} END {print n + 0}')
WRITTEN=$(grep -vc '"type":"dropped"' /tmp/drop.out)
echo "bounded: $WRITTEN lines written, $DROPPED dropped, in $GAPS dropped line(s)"
check "bounded stdout: one dropped line says how many, and written + dropped = every line" \
  "[ $GAPS = 1 ] && [ \$((WRITTEN + DROPPED)) = 122 ]"
check "bounded stdout: stderr says lines were dropped, and status 0" \
  "grep -q 'stdout is not being read' /tmp/drop.err && [ \"\$(cat /tmp/drop.rc)\" = 0 ]"
[ "$GAPS" = 1 ] || { show /tmp/drop.err; tail -5 /tmp/drop.out; }
echo "destroy $DK" >&3

# --- SIGKILL: the kernel releases the grab -----------------------------------------------------
./switchscan run --tree $TREE --profile $MANUAL --device "$PN" --grab --inject --until 60 > /dev/null 2> /tmp/kill.err &
KP=$!
wait_for "running" /tmp/kill.err
check "SIGKILL: grabbed while running" "[ \"\$(./vmdev grabtest $PN)\" = busy ]"
kill -KILL $KP; wait $KP 2>/dev/null
check "SIGKILL: the kernel released the grab" "[ \"\$(./vmdev grabtest $PN)\" = free ]"
./vmdev read "$PN" 2000 1 > /tmp/kill.read 2> /tmp/kill.rerr &
RD=$!
wait_for "reading" /tmp/kill.rerr 50
echo "key $PK 57 1" >&3; echo "sleep 50" >&3; echo "key $PK 57 0" >&3
wait $RD
check "SIGKILL: another reader sees the switch's keys" "grep -q 'EV_KEY KEY_SPACE 1' /tmp/kill.read"
check "SIGKILL: the --inject output device went with the process" "! grep -qs 'switchscan output' /sys/class/input/input*/name"
echo "destroy $PK" >&3
