#!/bin/sh
# speak-to-file.sh DIR RATE: speech-dispatcher's generic module runs this for every phrase (the
# suite's stand-in for a sound card): espeak-ng speaks the phrase on stdin into DIR/<start ns>.wav,
# then this waits as long as the audio lasts, so speech-dispatcher reports the phrase's end (or
# cancels it, killing this) in real time, as it would while playing it.
f="$1/$(date +%s%N).wav"
espeak-ng -s "$2" -w "$f" --stdin && sleep "$(soxi -D "$f")"
