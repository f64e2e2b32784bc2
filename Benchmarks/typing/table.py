#!/usr/bin/env python3
"""Markdown table of a `switchscan text stats --format json` run: every configuration, fastest
first within each switch count, with its speed against the run's baseline.
   python3 Benchmarks/typing/table.py RUN.json"""
import json, sys
d = json.load(open(sys.argv[1]))
cs = d["configurations"]
base = next(c for c in cs if c["name"] == d["baseline"])
print(f"{d['phrases']} phrases, {d['characters']} characters; baseline `{d['baseline']}`: "
      f"{base['secondsPerCharacter']} s/char, {base['wordsPerMinute']} wpm. Predictions: {d['prediction']['source']}, "
      f"{d['prediction']['contexts']} contexts in {d['prediction']['seconds']} s; whole run {d['seconds']} s"
      + (f", {d['cpuSeconds']} s of CPU in switchscan" if d.get('cpuSeconds') is not None else "") + ".\n")
print("| switches | configuration | s/char | presses/char | wpm | × baseline | keystroke savings | worst phrase (line: s/char) |")
print("|---|---|---|---|---|---|---|---|")
for k in range(1, 7):
    for c in sorted((c for c in cs if c["switches"] == k), key=lambda c: c["secondsPerCharacter"]):
        w = c["worstPhrase"]
        print(f"| {k} | {c['keyboard']} {c['method']} {c['predictions']}p | {c['secondsPerCharacter']:.3f} | {c['pressesPerCharacter']:.3f} | "
              f"{c['wordsPerMinute']:.3f} | {c['wordsPerMinute'] / base['wordsPerMinute']:.2f} | {100 * c['keystrokeSavings']:.1f} % | "
              f"{w['line']}: {w['secondsPerCharacter']:.2f} |")
