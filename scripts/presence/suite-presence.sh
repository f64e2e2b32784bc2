#!/usr/bin/env bash
# What the person sees and hears (issue 10), end to end with the real binary:
#   under a private Xvfb: `run --show` highlights a known item (screenshot: the cursor colour on the
#   item's edges, not inside), a real X client (xev) under the item still gets a click at the
#   item's centre, the menu panel lists the entries in the engine's order (read back by OCR), and
#   everything is gone once the run ends; without an X server, a clear message;
#   with a private speech-dispatcher writing WAV (ALSA file output): each highlight produces audio
#   of plausible length (against the speech-time model), and speech-paced scanning waits for
#   speech-dispatcher's end-of-phrase events; the sound cues (a tick per highlight, a click per
#   selection) are played by speech-dispatcher and written as audio; speech and sounds off in the
#   profile are turned on from the scanner menu's Settings (issue 23); the scanning keyboard's rows,
#   keys and words spoken, and nothing of a password field (issue 18).
# Devices: the umockdev one-key switch of Tests/SwitchInputTests. Starts and tears down everything
# it starts (also on failure). About 70 s. Ends with "N passed, M failed".
set -u
cd "$(dirname "$0")/../.."
HERE=scripts/presence
BIN=.build/debug/switchscan
DEV=Tests/SwitchInputTests/Fixtures/devices
LIVE=scripts/device-tests/umockdev-live.py
W=$(mktemp -d /tmp/presence-suite.XXXXXX)
PIDS=()
pass=0; fail=0

cleanup() {
  for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
  for i in $(seq 20); do
    alive=0; for p in "${PIDS[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break; sleep 0.1
  done
  for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
  wait 2>/dev/null
  if [ -n "${PRESENCE_KEEP:-}" ]; then echo "kept $W"; else rm -rf "$W"; fi
}
trap cleanup EXIT
ok()  { echo "PASS $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
check() {  # check WHAT CMD… : the command's output is shown indented
  local what=$1; shift
  if "$@" >"$W/last.out" 2>&1; then ok "$what"; else bad "$what"; fi
  sed 's/^/    /' "$W/last.out" | tail -8
}
wait_for() {  # wait_for FILE TEXT [SECONDS]
  for i in $(seq $(( ${3:-20} * 20 ))); do grep -q -- "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done
  return 1
}
until_ok() {  # until_ok SECONDS CMD…: CMD again until it succeeds (what shows may take a moment on a loaded machine)
  local end=$(( SECONDS + $1 )); shift
  until "$@"; do [ $SECONDS -lt $end ] || return 1; sleep 0.1; done
}

# What it needs, each named with its Debian package when missing (scripts/setup.sh --tests installs
# scripts/apt/test-presence.list).
missing=$(scripts/packages/programs.py missing Xvfb xev xdotool import convert tesseract speech-dispatcher sox soxi espeak-ng \
  /usr/bin/aplay /usr/bin/python3 umockdev-run)
[ -x "$BIN" ] || missing+=$'\n'"missing: $BIN (built by this project: swift build)"
if [ -n "${missing//$'\n'/}" ]; then
  echo "presence suite: ${missing#$'\n'}"
  echo "0 passed, 1 failed"; exit 1
fi

# --- A private X server -------------------------------------------------------------------------
Xvfb -displayfd 3 -screen 0 800x600x24 -nolisten tcp -br -noreset 3>"$W/display" 2>"$W/xvfb.log" &
PIDS+=($!)
wait_for "$W/display" "[0-9]" 20 || { cat "$W/xvfb.log"; echo "Xvfb did not start"; echo "0 passed, 1 failed"; exit 1; }
export DISPLAY=":$(head -1 "$W/display")"
red=ff3b30

# An application under the first item (Save, 200x60 at 100,100): xev prints what it receives.
xev -geometry 200x60+100+100 -name presence-app >"$W/xev.out" 2>&1 &
PIDS+=($!)
wait_for "$W/xev.out" "MapNotify" 10

sed "s|@W@|$W|g" "$HERE/scenario-show.txt" > "$W/scenario-show.txt"
/usr/bin/python3 "$LIVE" --device "$DEV/switch.umockdev" --ioctl "/dev/input/event2=$DEV/switch.ioctl" \
  --scenario "$W/scenario-show.txt" -- \
  "$BIN" run --tree "$HERE/tree.json" --profile "$HERE/profile-show.json" --show --format jsonl >"$W/show.out" 2>"$W/show.err" &
show=$!
PIDS+=($show)

ring_shown() { import -window root "$W/item.png" && /usr/bin/python3 $HERE/check.py ring "$W/item.png" 100 100 200 60 $red 4; }
panel_shown() {  # the panel is right of the item's ring: x = 300 + 4 + 6, top aligned with the item
  import -window root "$W/menu.png" && /usr/bin/python3 $HERE/check.py panel "$W/menu.png" 310 100 $red \
    Tap Delete Share Gestures Device Shortcuts Settings Escape "Close menu"
}
if wait_for "$W/show.out" '"type":"highlight","id":"save"' 30; then
  check "run --show: the cursor colour on the item's edges, not inside" until_ok 10 ring_shown
  before=$(grep -c ButtonPress "$W/xev.out")
  xdotool mousemove --sync 200 130 click 1
  check "a click at the item's centre reaches the application under the overlay" \
    until_ok 10 bash -c "[ \$(grep -c ButtonPress '$W/xev.out') -gt $before ] && grep -A2 ButtonPress '$W/xev.out' | tail -3"
  echo done > "$W/item-checked"
else
  bad "run --show highlighted nothing"; cat "$W/show.err" | tail -5
  echo done > "$W/item-checked"
fi
if wait_for "$W/show.out" '"type":"menu","open":true' 20; then
  check "the menu panel lists the entries in the engine's order" until_ok 20 panel_shown
  echo done > "$W/menu-checked"
  check "the transcript's menu has the same order" grep -q '"items":\["menu:tap","menu:action:Delete","menu:action:Share","menu:gestures","menu:device","menu:shortcuts","menu:settings","menu:escape","menu:close"\]' "$W/show.out"
else
  bad "the menu did not open"
  echo done > "$W/menu-checked"
fi
wait "$show"; rc=$?
check "run --show ends with status 0 and says where it draws" bash -c "[ $rc = 0 ] && grep 'showing the highlight on X display' '$W/show.err'"
import -window root "$W/after.png"
check "after the run nothing of the overlay is left" /usr/bin/python3 $HERE/check.py absent "$W/after.png" $red

DISPLAY=:97 "$BIN" run --tree "$HERE/tree.json" --profile "$HERE/profile-show.json" --show >/dev/null 2>"$W/nox.err"; rc=$?
check "without an X server: status 2 and a clear message" bash -c "[ $rc = 2 ] && grep -x 'switchscan: error: --show needs an X server: cannot open display \":97\" (is an X session running there, and may this user connect to it?)' '$W/nox.err'"

# --- A private speech-dispatcher -----------------------------------------------------------------
# Phrases go through its generic module to speak-to-file.sh: one WAV per phrase, each taking its
# real time (no sound card here). Sound icons: the generic module plays each with its ALSA
# backend's play command, aplay; the aplay first in its PATH runs the real one, writing through
# ALSA's file plugin to a WAV of its own, named by its start time in µs (ALSA's file output
# would otherwise keep only the last icon).
mkdir -p "$W/sd/modules" "$W/home" "$W/utt" "$W/bin" "$W/icons"
cat >"$W/bin/aplay" <<APLAY
#!/bin/bash
f=\${@: -1}
exec /usr/bin/aplay -q -D "file:$W/icons/\${EPOCHREALTIME/./}-\${f##*/},wav" "\$@"
APLAY
chmod +x "$W/bin/aplay"
cat >"$W/sd/modules/paced.conf" <<CONF
GenericExecuteSynth "printf %s \\'\$DATA\\' | $PWD/$HERE/speak-to-file.sh $W/utt \$RATE"
GenericRateAdd 170
GenericSoundIconFolder "/usr/share/sounds/sound-icons/"
GenericRateMultiply 1
AddVoice "en" "MALE1" "en"
CONF
cat >"$W/sd/speechd.conf" <<CONF
AudioOutputMethod "alsa"
AddModule "paced" "sd_generic" "paced.conf"
DefaultModule paced
CONF
printf 'pcm.!default { type file slave.pcm "null" file "%s" format "wav" }\n' "$W/icons.wav" >"$W/home/.asoundrc"
PATH="$W/bin:$PATH" HOME="$W/home" speech-dispatcher -s -t 0 -C "$W/sd" -S "$W/sd.sock" -c unix_socket -P "$W/sd.pid" -L "$W" >"$W/sd.out" 2>&1 &
PIDS+=($!)
for i in $(seq 100); do [ -S "$W/sd.sock" ] && break; sleep 0.05; done
export SPEECHD_ADDRESS="unix_socket:$W/sd.sock" UTT="$W/utt"

umock() { umockdev-run -d "$DEV/switch.umockdev" -i "/dev/input/event2=$DEV/switch.ioctl" -- "$@"; }
check "speech: each highlight is spoken, audio of plausible length (against the speech-time model)" \
  /usr/bin/python3 $HERE/check.py speech umockdev-run -d "$DEV/switch.umockdev" -i "/dev/input/event2=$DEV/switch.ioctl" -- \
  "$BIN" run --tree "$HERE/tree.json" --profile "$HERE/profile-speech.json" --until 14 --format jsonl
rm -f "$W"/utt/*
check "a new highlight interrupts the phrase: each phrase starts with its highlight" \
  /usr/bin/python3 $HERE/check.py interrupted umockdev-run -d "$DEV/switch.umockdev" -i "/dev/input/event2=$DEV/switch.ioctl" -- \
  "$BIN" run --tree "$HERE/tree.json" --profile "$HERE/profile-fast.json" --until 3.2 --format jsonl
rm -f "$W"/utt/*
check "speech-paced scanning: each dwell lasts until speech-dispatcher reports the phrase's end" \
  /usr/bin/python3 $HERE/check.py paced umockdev-run -d "$DEV/switch.umockdev" -i "/dev/input/event2=$DEV/switch.ioctl" -- \
  "$BIN" run --tree "$HERE/tree.json" --profile "$HERE/profile-paced.json" --until 12 --format jsonl

rm -f "$W"/utt/* "$W"/icons/*
check "sound cues: a tick with each highlight, a click with each selection, written as audio" \
  env ICONS="$W/icons" /usr/bin/python3 $HERE/check.py cues /usr/bin/python3 "$LIVE" --device "$DEV/switch.umockdev" \
  --ioctl "/dev/input/event2=$DEV/switch.ioctl" --scenario "$HERE/scenario-cues.txt" -- \
  "$BIN" run --tree "$HERE/tree.json" --profile "$HERE/profile-cues.json" --format jsonl

rm -f "$W"/utt/* "$W"/icons/*
check "speech and sounds turned on from the scanner menu's Settings: nothing before, spoken and ticking after (issue 23)" \
  env UTT="$W/utt" ICONS="$W/icons" /usr/bin/python3 $HERE/check.py toggles /usr/bin/python3 "$LIVE" --device "$DEV/keyboard.umockdev" \
  --ioctl "/dev/input/event10=$DEV/keyboard.ioctl" --scenario "$HERE/scenario-menu-toggles.txt" -- \
  "$BIN" run --tree "$HERE/tree.json" --profile "$HERE/profile-menu-toggles.json" --format jsonl

rm -f "$W"/utt/* "$W"/icons/*
mkdir -p "$W/utt/text"
check "the scanning keyboard spoken: its keys and rows as they are highlighted, the word typed, nothing of a password field (issue 18)" \
  env UTT="$W/utt" /usr/bin/python3 $HERE/check.py keyboard /usr/bin/python3 "$LIVE" --device "$DEV/keyboard.umockdev" \
  --ioctl "/dev/input/event10=$DEV/keyboard.ioctl" --scenario "$HERE/scenario-keyboard-speech.txt" -- \
  "$BIN" run --tree "$HERE/tree-keyboard.json" --profile "$HERE/profile-keyboard-speech.json" --format jsonl
rm -rf "$W/utt/text"

SPEECHD_ADDRESS="unix_socket:$W/nobody.sock" SPEECHD_CMD=/bin/false umock "$BIN" run --tree "$HERE/tree.json" \
  --profile "$HERE/profile-speech.json" --until 1 >/dev/null 2>"$W/nosd.err"; rc=$?
check "speech on without speech-dispatcher: status 2 and a clear message" \
  bash -c "[ $rc = 2 ] && grep 'speech is on in the profile, but speech-dispatcher cannot be reached at $W/nobody.sock' '$W/nosd.err'"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
