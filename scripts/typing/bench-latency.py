#!/usr/bin/python3
"""The typing latency benchmark's two halves (scripts/typing/bench-latency.sh runs them).

  bench-latency.py scenario N > scenario.txt
      umockdev-live lines for a switch box (Space next, Enter select) typing words with the
      bundled qwerty layout's top row (rows as groups, manual scanning, the prediction row first):
      per letter: next (row 1), select (its keys), next × its place, select (the letter); per space:
      next × 4 (the last row), select, next, select (space). About N letters and spaces.
  bench-latency.py measure STDERR STDOUT
      pairs every "keyboard words drawn at T" note of the overlay's trace with the select press
      before it (run's --show-frames lines: the press's engine time) and prints the latency's
      percentiles; the first pair (the keyboard's opening, presage's child starting) is left out.
"""
import json, re, sys

WORDS = ["we", "were", "tire", "pretty", "type", "rope", "quit", "quiet", "route", "pure", "wire", "yet",
         "you", "your", "try", "tie", "power", "tower", "trip", "ripe", "prey", "top", "toy", "pie", "query"]
ROW1 = "qwertyuiop"
TAP_MS = 110

def tap(key):
    return "press /dev/input/event10 KEY_%s\nrelease /dev/input/event10 KEY_%s\nsleep %d\n" % (key, key, TAP_MS)

def scenario(n):
    out = ["wait running", "sleep 800"]
    text = ""
    k = 0
    while len(text) < n:
        text += WORDS[k % len(WORDS)] + " "
        k += 1
    lines = tap("ENTER") + "sleep 600\n"  # the field: the keyboard opens (presage's child starts)
    for c in text:
        if c == " ":
            lines += tap("SPACE") * 4 + tap("ENTER") + tap("SPACE") + tap("ENTER")
        else:
            lines += tap("SPACE") + tap("ENTER") + tap("SPACE") * ROW1.index(c) + tap("ENTER")
        lines += "sleep 60\n"
    return "\n".join(out) + "\n" + lines + "sleep 500\nsignal INT\n", text

def measure(err_path, out_path):
    presses, drawn = [], []
    for line in open(err_path, errors="replace"):
        m = re.match(r"frame ([0-9.]+) \S+ KEY_ENTER 1", line)
        if m:
            presses.append(float(m.group(1)))
        m = re.search(r"overlay: keyboard words drawn at ([0-9.]+) s", line)
        if m:
            drawn.append(float(m.group(1)))
    typed = ""
    words_in = []  # (engine time the words came in, the text typed then)
    for line in open(out_path, errors="replace"):
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if o.get("type") == "type":
            typed = typed[:len(typed) - o.get("delete", 0)] + o.get("text", "")
        if o.get("type") == "keyboard" and "predictions" in o:
            words_in.append((o["t"], typed))
    lat, samples = [], []
    for t in drawn[1:]:
        before = [p for p in presses if p <= t]
        if before:
            lat.append((t - before[-1]) * 1000)
            came = [w for w in words_in if before[-1] <= w[0] <= t]
            samples.append((lat[-1], (came[-1][0] - before[-1]) * 1000 if came else None, came[-1][1] if came else "?", before[-1]))
    lat.sort()
    if not lat:
        print("no samples"); return 1
    def pct(q):
        return lat[min(len(lat) - 1, int(len(lat) * q))]
    print("slowest: total ms (of which press → words in the engine ms) after the text typed:")
    for total, engine, text, at in sorted(samples, key=lambda s: -s[0])[:6]:
        print("  %.1f (%s) at %.3f s after %r" % (total, "%.1f" % engine if engine is not None else "-", at, text[-20:]))
    print("typed %d characters: %r" % (len(typed), typed[:60] + ("…" if len(typed) > 60 else "")))
    print("key selected (the press's time) → new words on the screen (drawn, XSync): %d samples, "
          "p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms" % (len(lat), pct(0.5), pct(0.9), pct(0.99), lat[-1]))
    return 0

if __name__ == "__main__":
    if sys.argv[1] == "scenario":
        s, text = scenario(int(sys.argv[2]))
        sys.stdout.write(s)
        sys.stderr.write("types %d characters\n" % len(text))
    else:
        sys.exit(measure(sys.argv[2], sys.argv[3]))
