# Sourced by vm-inside.sh (busybox sh, real kernel): touch passthrough (issue 20) with libinput as
# the client. `run` grabs a uinput touchscreen made by vmdev and mirrors it as a virtual one;
# libinput's own `debug-events` reads the virtual one. The VM runs no udev: the udev database
# entry libinput needs (ID_INPUT, ID_INPUT_TOUCHSCREEN) is written under /run/udev/data, as udev's
# input_id builtin would. One profile covers every case: hold 0.1 s, ignore repeat 0.5 s, tap
# assistance at the final location, gesture delay 0.4 s. Touches are 1 s apart or more, so
# ignore repeat only meets the tremor tap.
#
# Positions: the panel is 1920 × 1080 units at 10 units/mm, so libinput's mm are units / 10.
cat > /tmp/pass.json <<'EOF'
{"name": "VM passthrough", "switches": [],
 "touchAccommodations": {"holdDuration": 0.1, "ignoreRepeat": 0.5, "tapAssistance": "final", "tapAssistanceGestureDelay": 0.4}}
EOF
new_device touch "VM Touch Panel"; TK=$DEV_K TN=$DEV_NODE
new_device keyboard "VM Chord Keyboard"; CK=$DEV_K
# udev_db NODE: what udev's input_id would say about a touchscreen node, where libudev reads it
udev_db() {
  mkdir -p /run/udev/data
  printf 'I:1\nE:ID_INPUT=1\nE:ID_INPUT_TOUCHSCREEN=1\nG:seat\nQ:seat\n' > "/run/udev/data/c$(cat /sys/class/input/${1##*/}/dev)"
}
# libinput NODE OUT: libinput debug-events on NODE (its udev entry first), into OUT; sets LI
libinput() {
  udev_db "$1"
  ./libinput-debug-events --device "$1" > "$2" 2>&1 &
  LI=$!
  wait_for "DEVICE_ADDED" "$2" 100 || show "$2"
}
# the virtual touchscreen's node, the N-th the run has made (1 = the first)
virtual_node() { grep -o 'virtual touchscreen /dev/input/event[0-9]* ' /tmp/pass.err | sed -n "${1}p" | awk '{print $3}'; }
has_device() { grep -qsx "$1" /sys/class/input/input*/name; }
downs() { grep -c 'TOUCH_DOWN' "$1"; }
ups() { grep -c 'TOUCH_UP' "$1"; }
mm_of() { sed -n 's/.*(\([0-9.]*\)\/\([0-9.]*\)mm).*/\1 \2/p' "$1"; }
# near X Y "A B": |X-A| ≤ 1 and |Y-B| ≤ 1 (mm)
near() { echo "$3" | awk -v x="$1" -v y="$2" '{dx = $1 - x; dy = $2 - y; exit !(dx <= 1 && dx >= -1 && dy <= 1 && dy >= -1)}'; }
cmd() { echo "$*" >&3; }
chord() {
  for code in 29 56 42 31; do cmd key $CK $code 1; done
  cmd sleep 80
  for code in 31 42 56 29; do cmd key $CK $code 0; done
}

./switchscan run --profile /tmp/pass.json --device "$TN" --format jsonl --until 120 > /tmp/pass.out 2> /tmp/pass.err &
PASS_RUN=$!
wait_for "running" /tmp/pass.err
VT=$(virtual_node 1)
check "passthrough: run with a touch-only profile needs no tree; the touchscreen is grabbed and mirrored" \
  "grep -q 'reading $TN \"VM Touch Panel\" (named by path), grabbed, passed on to a virtual touchscreen' /tmp/pass.err && [ -n \"$VT\" ] && [ \"\$(./vmdev grabtest $TN)\" = busy ]"
[ -n "$VT" ] || show /tmp/pass.err
VS=/sys/class/input/${VT##*/}/device
RS=/sys/class/input/${TN##*/}/device
check "virtual touchscreen: named switchscan + the real name, the real bus:vendor:product, INPUT_PROP_DIRECT" \
  "[ \"\$(cat $VS/name)\" = 'switchscan VM Touch Panel' ] && [ \"\$(cat $VS/id/bustype):\$(cat $VS/id/vendor):\$(cat $VS/id/product)\" = \"\$(cat $RS/id/bustype):\$(cat $RS/id/vendor):\$(cat $RS/id/product)\" ] && [ \"\$(cat $VS/properties)\" = 2 ]"
./switchscan devices > /tmp/pass-devices.txt 2>&1
check "switchscan never opens its own device: devices does not list it" "! grep -q 'switchscan VM Touch Panel' /tmp/pass-devices.txt && grep -q 'VM Touch Panel' /tmp/pass-devices.txt"
./switchscan debug-events "$VT" --until 1 > /tmp/pass-own.out 2>&1; RC=$?
check "switchscan never opens its own device: naming it is an error" "[ $RC = 2 ] && grep -q 'is a device switchscan made; it never reads its own devices' /tmp/pass-own.out"

libinput "$VT" /tmp/li.out
check "libinput: the virtual device is a touchscreen of the real one's size (192x108mm) with its 10 slots" \
  "grep 'DEVICE_ADDED' /tmp/li.out | grep -q 'switchscan VM Touch Panel.*cap:t.*size 192x108mm ntouches 10'"
./vmdev read "$VT" 60000 > /tmp/vt-raw.txt 2> /tmp/vt-raw.err &
RAW=$!
wait_for "reading" /tmp/vt-raw.err 50

# 1. A tremor tap: three touches of 150 ms within the ignore-repeat time (starts 0, 210, 420 ms).
for id in 1 2 3; do cmd touch $TK 0 $id 500 300; cmd sleep 150; cmd lift $TK 0 1; cmd sleep 60; done
cmd sleep 1000
usleep 1500000
check "tremor tap (three touches within ignore repeat): libinput sees one DOWN/UP pair" "[ \$(downs /tmp/li.out) = 1 ] && [ \$(ups /tmp/li.out) = 1 ]"
check "tremor tap: one tap line, two rejected (ignoreRepeat) lines" \
  "[ \$(grep -c '\"decision\":\"tap\".*\"output\":\"virtualTouchscreen\"' /tmp/pass.out) = 1 ] && [ \$(grep -c '\"reason\":\"ignoreRepeat\"' /tmp/pass.out) = 2 ]"

# 2. Shorter than the hold duration (50 ms < 100 ms): nothing.
cmd touch $TK 0 4 800 500; cmd sleep 50; cmd lift $TK 0 1; cmd sleep 1000
wait_for '"reason":"holdDuration"' /tmp/pass.out 50
usleep 300000
check "a touch shorter than the hold duration: rejected (holdDuration), libinput sees nothing" \
  "grep -q '\"reason\":\"holdDuration\",\"point\":\[800.*\"contact\":4' /tmp/pass.out && [ \$(downs /tmp/li.out) = 1 ]"

# 3. Tap assistance at the final location: down at (100, 50) mm, wanders to (120, 54) mm and
#    lifts there 200 ms later (before the gesture delay): one DOWN/UP at the lift point.
cmd touch $TK 0 5 1000 500; cmd sleep 50; cmd move $TK 0 1100 520; cmd sleep 100; cmd move $TK 0 1200 540; cmd sleep 50
cmd lift $TK 0 1; cmd sleep 1000
wait_for '"contact":5' /tmp/pass.out 50
usleep 500000
grep 'TOUCH_DOWN' /tmp/li.out | tail -1 > /tmp/li-final.txt
check "final-location tap: one DOWN/UP within 1 mm of where the finger lifted (120, 54 mm)" \
  "[ \$(downs /tmp/li.out) = 2 ] && [ \$(ups /tmp/li.out) = 2 ] && near 120 54 \"\$(mm_of /tmp/li-final.txt)\""
grep -q '"decision":"tap"' /tmp/pass.out || show /tmp/pass.out

# 4. A slow swipe: down at (40, 60) mm, at (50, 60) mm when the delay runs out (0.1 + 0.4 s),
#    then 1 s to (150, 60) mm: libinput's DOWN at the delay point, motion to the lift point.
cmd touch $TK 0 6 400 600; cmd sleep 200; cmd move $TK 0 500 600; cmd sleep 400
cmd glide $TK 0 500 600 1500 600 1000 20; cmd lift $TK 0 1; cmd sleep 1000
wait_for '"contact":6' /tmp/pass.out 80
usleep 500000
awk '/TOUCH_DOWN/ {n++} n == 3' /tmp/li.out > /tmp/li-swipe.txt
grep 'TOUCH_DOWN' /tmp/li-swipe.txt > /tmp/li-swipe-down.txt
grep 'TOUCH_MOTION' /tmp/li-swipe.txt | tail -1 > /tmp/li-swipe-last.txt
check "slow swipe: DOWN where the finger was when the gesture delay ran out (50, 60 mm), not where it touched (40 mm)" \
  "near 50 60 \"\$(mm_of /tmp/li-swipe-down.txt)\""
check "slow swipe: motion all the way to the lift point (150, 60 mm), then UP" \
  "[ \$(grep -c TOUCH_MOTION /tmp/li-swipe.txt) -ge 15 ] && near 150 60 \"\$(mm_of /tmp/li-swipe-last.txt)\" && grep -q TOUCH_UP /tmp/li-swipe.txt"
[ -s /tmp/li-swipe-last.txt ] || show /tmp/li.out

# 5. A two-finger scroll: two fingers 20 mm apart, both down within the same millisecond, then
#    moving down together 30 mm: motion on two slots.
cmd touch $TK 0 7 800 300; cmd touch $TK 1 8 1000 300; cmd sleep 200
i=1; while [ $i -le 15 ]; do cmd move2 $TK 800 $((300 + i * 20)) 1000 $((300 + i * 20)); cmd sleep 30; i=$((i + 1)); done
cmd lift $TK 0; cmd lift $TK 1 1; cmd sleep 1000
wait_for '"contact":8' /tmp/pass.out 80
usleep 500000
awk '/TOUCH_DOWN/ {n++} n >= 4' /tmp/li.out > /tmp/li-scroll.txt
check "two-finger scroll: two fingers down, motion on slot 0 and on slot 1 (30 mm down), both up" \
  "[ \$(grep -c TOUCH_DOWN /tmp/li-scroll.txt) = 2 ] && grep 'TOUCH_MOTION' /tmp/li-scroll.txt | grep -q '	0 (0) .*/[0-9.]*mm' && grep 'TOUCH_MOTION' /tmp/li-scroll.txt | grep -q '	1 (1) ' && [ \$(grep -c TOUCH_UP /tmp/li-scroll.txt) = 2 ] && grep TOUCH_MOTION /tmp/li-scroll.txt | grep '	1 (1) ' | tail -1 | grep -q '(100.00/60.00mm)'"
check "two-finger scroll: one gesture line per finger (not a line per frame)" \
  "[ \$(grep -c '\"decision\":\"gesture\".*\"contact\":[78]}' /tmp/pass.out) = 2 ] && [ \$(grep -c '\"type\":\"touch\"' /tmp/pass.out) = 8 ]"
grep -q '	1 (1) ' /tmp/li-scroll.txt || show /tmp/li.out

# 6. The safety exit's chord: the virtual touchscreen goes away and the real one is given back;
#    the chord again: both return.
chord
wait_for '"state":"paused"' /tmp/pass.out 50
usleep 300000
check "pause (the chord): the virtual touchscreen is removed and the real one is not grabbed" \
  "! has_device 'switchscan VM Touch Panel' && [ \"\$(./vmdev grabtest $TN)\" = free ]"
chord
wait_for '"state":"resumed"' /tmp/pass.out 50
usleep 500000
check "resume: a virtual touchscreen again, the real one grabbed again" \
  "[ -n \"\$(virtual_node 2)\" ] && has_device 'switchscan VM Touch Panel' && [ \"\$(./vmdev grabtest $TN)\" = busy ]"
kill $LI 2>/dev/null; wait $LI 2>/dev/null
kill $RAW 2>/dev/null; wait $RAW 2>/dev/null

# 7. Unplugged mid-gesture (past the delay: passed live): the virtual finger is lifted, then the
#    virtual device removed; replugged: both back.
VT=$(virtual_node 2)
libinput "$VT" /tmp/li2.out
./vmdev read "$VT" 30000 > /tmp/vt-raw2.txt 2> /tmp/vt-raw2.err &
RAW=$!
wait_for "reading" /tmp/vt-raw2.err 50
cmd touch $TK 0 9 700 700; cmd sleep 800; cmd destroy $TK
wait_for '"change":"removed"' /tmp/pass.out 50
wait_for 'DEVICE_REMOVED' /tmp/li2.out 50
usleep 300000
check "unplug mid-gesture: the virtual finger was down, then lifted (tracking id -1, BTN_TOUCH 0) before the device went" \
  "grep -q 'ABS_MT_TRACKING_ID -1' /tmp/vt-raw2.txt && tail -3 /tmp/vt-raw2.txt | grep -q 'BTN_TOUCH 0' && [ \$(downs /tmp/li2.out) = 1 ] && awk '/TOUCH_UP/ {u = NR} /DEVICE_REMOVED/ {r = NR} END {exit !(u && r && u < r)}' /tmp/li2.out"
check "unplug: the virtual touchscreen is removed; nothing was decided for the cut touch" \
  "! has_device 'switchscan VM Touch Panel' && ! grep -q '\"contact\":9' /tmp/pass.out"
kill $LI 2>/dev/null; wait $LI 2>/dev/null
kill $RAW 2>/dev/null; wait $RAW 2>/dev/null
new_device touch "VM Touch Panel"; TK=$DEV_K TN=$DEV_NODE
wait_for '"change":"added"' /tmp/pass.out 50
usleep 500000
VT=$(virtual_node 3)
check "replug: the touchscreen is grabbed again and a new virtual touchscreen mirrors it" \
  "[ -n \"$VT\" ] && has_device 'switchscan VM Touch Panel' && [ \"\$(./vmdev grabtest $TN)\" = busy ]"
libinput "$VT" /tmp/li3.out
cmd touch $TK 0 10 300 300; cmd sleep 150; cmd lift $TK 0 1
wait_for 'TOUCH_UP' /tmp/li3.out 50
check "replug: touches pass again (libinput sees the tap)" "[ \$(downs /tmp/li3.out) = 1 ]"

# 8. SIGKILL with a finger down on the virtual touchscreen: the kernel removes the device with
#    switchscan's descriptor, so no contact is left down anywhere, and the grab goes too.
cmd sleep 600; cmd touch $TK 0 11 600 600; cmd sleep 800
usleep 2100000
check "SIGKILL: the finger was passed live before the kill" "[ \$(downs /tmp/li3.out) = 2 ]"
kill -KILL $PASS_RUN; wait $PASS_RUN 2>/dev/null
wait_for 'DEVICE_REMOVED' /tmp/li3.out 50
check "SIGKILL: the virtual touchscreen is gone (no stuck contact), the real one is free" \
  "! has_device 'switchscan VM Touch Panel' && [ \"\$(./vmdev grabtest $TN)\" = free ]"
cmd lift $TK 0 1
kill $LI 2>/dev/null; wait $LI 2>/dev/null

# 9. A clean exit (SIGINT) removes it too.
./switchscan run --profile /tmp/pass.json --device "$TN" --format jsonl > /tmp/pass2.out 2> /tmp/pass2.err &
P=$!
wait_for "running" /tmp/pass2.err
has_device 'switchscan VM Touch Panel' || show /tmp/pass2.err
kill -INT $P; wait $P; RC=$?
check "SIGINT: status 0, the virtual touchscreen removed, the real one free" \
  "[ $RC = 0 ] && ! has_device 'switchscan VM Touch Panel' && [ \"\$(./vmdev grabtest $TN)\" = free ]"
[ $FAIL = 0 ] || { show /tmp/pass.err; show /tmp/pass.out; }
