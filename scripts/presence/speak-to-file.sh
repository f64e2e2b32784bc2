#!/bin/sh
# speak-to-file.sh DIR RATE: speech-dispatcher's generic module runs this for every phrase (the
# suite's stand-in for a sound card): espeak-ng speaks the phrase on stdin into DIR/<start ns>.wav,
# then this waits as long as the audio lasts, so speech-dispatcher reports the phrase's end (or
# cancels it, killing this) in real time, as it would while playing it.
# When DIR/text exists, the phrase's text is kept there too (<start ns>.txt): what was said.
f="$1/$(date +%s%N).wav"
if [ -d "$1/text" ]; then
  t="$1/text/$(basename "$f" .wav).txt"
  cat >"$t" && espeak-ng -s "$2" -w "$f" -f "$t" && sleep "$(soxi -D "$f")"
else
  espeak-ng -s "$2" -w "$f" --stdin && sleep "$(soxi -D "$f")"
fi
