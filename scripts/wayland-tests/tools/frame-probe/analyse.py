#!/usr/bin/python3
# analyse.py FRAMES PHASES: per phase of scenario.py, the Shell's updates (before-update →
# after-update), paints (before-paint → after-paint) and main-loop stalls (FRAME_PROBE_STALLS=1):
# their sum, and how much of it fell outside a paint.
import sys
ev = [l.split() for l in open(sys.argv[1]) if l.strip()]
ph = [l.split() for l in open(sys.argv[2])]
bounds = []
for i in range(0, len(ph) - 1, 2): bounds.append((ph[i][0], int(ph[i][1]), int(ph[i + 1][1])))
def pct(v, q): v = sorted(v); return v[min(len(v) - 1, int(q * len(v)))] if v else float('nan')
for name, a, b in bounds:
    upd, paint, stalls, allstalls, paints = [], [], [], [], []
    bu = bp = None
    for e in ev:
        if e[0] == 'stall':
            if a <= int(e[1]) <= b: stalls.append(int(e[2]) / 1000); allstalls.append((int(e[1]), int(e[2])))
            continue
        t = int(e[1])
        if not (a <= t <= b): continue
        if e[0] == 'before-update': bu = t
        elif e[0] == 'before-paint': bp = t
        elif e[0] == 'after-paint' and bp: paint.append((t - bp) / 1000); paints.append((bp, t)); bp = None
        elif e[0] == 'after-update' and bu: upd.append((t - bu) / 1000); bu = None
    print(f"{name}: updates {len(upd)} (p50 {pct(upd,.5):.2f} p90 {pct(upd,.9):.2f} max {max(upd or [0]):.2f} ms), "
          f"paints {len(paint)} (p50 {pct(paint,.5):.2f} p90 {pct(paint,.9):.2f} max {max(paint or [0]):.2f} ms), "
          f"main-loop stalls over 2 ms: {len(stalls)} (p50 {pct(stalls,.5):.1f} max {max(stalls or [0]):.1f} ms, sum {sum(stalls):.0f} ms; of it outside paints {sum(d for s0, d in allstalls if not any(p0 - 2000 <= s0 <= p1 for p0, p1 in paints))/1000:.0f} ms)")
