# Sourced by vm-inside.sh (busybox sh, real kernel): the safety exit (issue 13 part 5) with
# grabbed devices. A long hold on the switch pauses and releases the grab (another reader then
# sees the keys); the next long hold grabs again and resumes. The pause chord Ctrl+Alt+Shift+S on
# a keyboard that is only watched, and on a keyboard that is itself the grabbed switch device.
TREE=vm-tree.json MANUAL=two-switch-manual.json
new_device switch "VM Pause Switch"; PSK=$DEV_K PSN=$DEV_NODE
new_device keyboard "VM Keyboard"; KBK=$DEV_K KBN=$DEV_NODE
hold_switch() { echo "key $PSK 57 1" >&3; echo "sleep 3300" >&3; echo "key $PSK 57 0" >&3; }
tap() { echo "key $1 $2 1" >&3; echo "sleep 60" >&3; echo "key $1 $2 0" >&3; }
# Ctrl+Alt+Shift+S on keyboard $1, then everything released
chord() {
  for code in 29 56 42 31; do echo "key $1 $code 1" >&3; done
  echo "sleep 80" >&3
  for code in 31 42 56 29; do echo "key $1 $code 0" >&3; done
}
# reads NODE (2 s at most) while one press of CODE is made on device K; says whether it was seen
seen_by_reader() {
  # Emptied here, not by the reader's own redirection: that happens in the child, maybe after
  # wait_for has already found the previous call's "reading" and the press gone out unread.
  : > /tmp/reader.err
  ./vmdev read "$1" 2000 1 > /tmp/reader.txt 2> /tmp/reader.err &
  rd=$!
  wait_for "reading" /tmp/reader.err 50
  tap "$2" "$3"
  wait $rd
  grep -q "EV_KEY .* 1\$" /tmp/reader.txt && echo seen || echo unseen
}
pause_lines() { grep '"type":"pause"' "$1" | sed 's/^{"t":[0-9.]*,//'; }

./switchscan run --tree $TREE --profile $MANUAL --device "$PSN" --grab --format jsonl --until 90 > /tmp/pz.out 2> /tmp/pz.err &
PZ=$!
wait_for "running" /tmp/pz.err
NOTE=$(grep "to pause or resume" /tmp/pz.err)
check "safety exit: the start says how to pause, and the keyboard is watched for the chord, not grabbed" \
  'case "$NOTE" in *"hold any switch 3.0 s, or press Ctrl+Alt+Shift+S (also watching "*"$KBN \"VM Keyboard\""*", not grabbed)") true;; *) false;; esac && [ "$(./vmdev grabtest $KBN)" = free ]'
check "safety exit: grabbed, another reader does not see the switch" \
  "[ \"\$(./vmdev grabtest $PSN)\" = busy ] && [ \$(seen_by_reader $PSN $PSK 57) = unseen ]"
usleep 200000
hold_switch
wait_for '"state":"paused"' /tmp/pz.out 60
check "long hold: paused, scanning stopped" \
  "grep -q '\"type\":\"pause\",\"state\":\"paused\",\"by\":\"hold\",\"switch\":\"KEY_SPACE\"}' /tmp/pz.out && tail -1 /tmp/pz.out | grep -q '\"type\":\"scan\",\"state\":\"stopped\"'"
usleep 500000
check "long hold: every grab released, another reader sees the switch's keys" \
  "[ \"\$(./vmdev grabtest $PSN)\" = free ] && [ \$(seen_by_reader $PSN $PSK 28) = seen ]"
check "long hold: presses while paused do nothing" "tail -1 /tmp/pz.out | grep -q '\"state\":\"stopped\"'"
hold_switch
wait_for '"state":"resumed"' /tmp/pz.out 60
usleep 500000
check "the next long hold: resumed, grabbed again" \
  "grep -q '\"state\":\"resumed\",\"by\":\"hold\"' /tmp/pz.out && [ \"\$(./vmdev grabtest $PSN)\" = busy ]"
N=$(grep -c '"decision":"accepted"' /tmp/pz.out)
tap $PSK 57
i=0; while [ $(grep -c '"decision":"accepted"' /tmp/pz.out) = "$N" ] && [ $i -lt 30 ]; do usleep 100000; i=$((i + 1)); done
usleep 200000
check "the next long hold: scanning again from the first item, the next press moves on" \
  "sed -n '/\"state\":\"resumed\"/,\$p' /tmp/pz.out | sed 's/^{\"t\":[0-9.]*,//' | tr '\\n' ' ' | grep -q '\"type\":\"scan\",\"state\":\"started\"} \"type\":\"highlight\",\"id\":\"play\",\"label\":\"Play, button\",\"kind\":\"item\"} \"type\":\"filter\",\"switch\":\"KEY_SPACE\",\"decision\":\"accepted\",\"action\":\"next\"} \"type\":\"highlight\",\"id\":\"stop\"'"
sed -n '/"state":"resumed"/,$p' /tmp/pz.out | grep -q '"id":"stop"' || show /tmp/pz.out
chord $KBK
wait_for '"by":"chord"' /tmp/pz.out 30
usleep 300000
check "chord on a watched keyboard: paused, the switch's grab released" \
  "grep -q '\"state\":\"paused\",\"by\":\"chord\",\"chord\":\"Ctrl+Alt+Shift+S\"' /tmp/pz.out && [ \"\$(./vmdev grabtest $PSN)\" = free ]"
chord $KBK
wait_for '"state":"resumed","by":"chord"' /tmp/pz.out 30
usleep 300000
check "chord again: resumed, grabbed again" "[ \"\$(./vmdev grabtest $PSN)\" = busy ]"
BEFORE=$(grep -c '"decision":"accepted"' /tmp/pz.out)
tap $KBK 57
usleep 500000
check "the watched keyboard's Space is not the switch" "[ \$(grep -c '\"decision\":\"accepted\"' /tmp/pz.out) = $BEFORE ]"
chord $KBK
wait_for '"state":"paused","by":"chord"' /tmp/pz.out 30
kill -TERM $PZ; wait $PZ; RC=$?
check "SIGTERM while paused: status 0, nothing grabbed" "[ $RC = 0 ] && [ \"\$(./vmdev grabtest $PSN)\" = free ]"
check "the transcript's pauses: hold, hold, chord, chord, chord" \
  "[ \"\$(pause_lines /tmp/pz.out | cut -d, -f2,3 | tr '\\n' ' ')\" = '\"state\":\"paused\",\"by\":\"hold\" \"state\":\"resumed\",\"by\":\"hold\" \"state\":\"paused\",\"by\":\"chord\" \"state\":\"resumed\",\"by\":\"chord\" \"state\":\"paused\",\"by\":\"chord\" ' ]"
grep -q '"state":"resumed","by":"chord"' /tmp/pz.out || { show /tmp/pz.out; show /tmp/pz.err; }

# The keyboard itself is the switch device, named and grabbed: the chord still reaches the engine
# (through the device's own frames) and releases that grab.
./switchscan run --tree $TREE --profile $MANUAL --device "$KBN" --grab --format jsonl --until 60 > /tmp/pk.out 2> /tmp/pk.err &
PKB=$!
wait_for "running" /tmp/pk.err
NOTE=$(grep "to pause or resume" /tmp/pk.err)
check "grabbed keyboard: grabbed, and read as the switch device, not also watched" \
  '[ "$(./vmdev grabtest $KBN)" = busy ] && case "$NOTE" in *"$KBN"*) false;; *Ctrl+Alt+Shift+S*) true;; *) false;; esac'
chord $KBK
wait_for '"by":"chord"' /tmp/pk.out 30
usleep 300000
G=$(./vmdev grabtest $KBN) SEEN=$(seen_by_reader $KBN $KBK 30)
check "grabbed keyboard: the chord pauses and releases it; another reader sees its keys" "[ $G = free ] && [ $SEEN = seen ]"
[ $SEEN = seen ] || { echo "grab $G"; show /tmp/reader.txt; show /tmp/pk.out; show /tmp/pk.err; }
chord $KBK
wait_for '"state":"resumed"' /tmp/pk.out 30
usleep 300000
check "grabbed keyboard: the chord again resumes and grabs it again" "[ \"\$(./vmdev grabtest $KBN)\" = busy ]"
kill -INT $PKB; wait $PKB
check "grabbed keyboard: released at the end" "[ \"\$(./vmdev grabtest $KBN)\" = free ]"
grep -q '"state":"resumed"' /tmp/pk.out || { show /tmp/pk.out; show /tmp/pk.err; }

# Pause from the scanner menu (issue 23): Enter opens the menu on Play, Space ×4 Settings, Enter
# the page (manual: Auto scanning, Speech, Sounds, Pause), Space ×3 Pause, Enter. The transcript
# says it, every grab is released; the hold resumes (the person can alone: Pause is offered only
# with a pause hold).
./switchscan run --tree $TREE --profile $MANUAL --device "$PSN" --grab --format jsonl --until 60 > /tmp/pm.out 2> /tmp/pm.err &
PM=$!
wait_for "running" /tmp/pm.err
usleep 200000
for code in 28 57 57 57 57 28 57 57 57 28; do tap $PSK $code; echo "sleep 150" >&3; done
wait_for '"by":"menu"' /tmp/pm.out 50
usleep 300000
check "menu pause: the transcript says paused by the menu, scanning stopped" \
  "grep -q '\"id\":\"menu:pause\",\"label\":\"Pause scanning\"' /tmp/pm.out && [ \"\$(sed 's/^{\"t\":[0-9.]*,//' /tmp/pm.out | tail -3 | tr '\\n' ' ')\" = '\"type\":\"menu\",\"open\":false} \"type\":\"pause\",\"state\":\"paused\",\"by\":\"menu\"} \"type\":\"scan\",\"state\":\"stopped\"} ' ]"
G=$(./vmdev grabtest $PSN) SEEN=$(seen_by_reader $PSN $PSK 57)
check "menu pause: every grab released, another reader sees the switch's keys" "[ $G = free ] && [ $SEEN = seen ]"
hold_switch
wait_for '"state":"resumed"' /tmp/pm.out 60
usleep 500000
check "menu pause: the long hold resumes and grabs again" \
  "grep -q '\"state\":\"resumed\",\"by\":\"hold\"' /tmp/pm.out && [ \"\$(./vmdev grabtest $PSN)\" = busy ]"
kill -INT $PM; wait $PM
grep -q '"state":"resumed"' /tmp/pm.out || { show /tmp/pm.out; show /tmp/pm.err; }
echo "destroy $PSK" >&3
echo "destroy $KBK" >&3
