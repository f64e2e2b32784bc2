#!/usr/bin/python3
"""walk-anchor.py APP [REPS]: the benchmark's second anchor: a pyatspi walk of APP (what Orca-style
clients do), reading role, name, states, screen extents and action names of every node; one
warm-up walk, then REPS timed walks; prints the median. Debian's python3 with python3-pyatspi."""
import sys, time
import pyatspi

def walk(node):
    node.getRole(); node.name; node.getState()
    try:
        node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    except NotImplementedError:
        pass
    try:
        a = node.queryAction()
        for i in range(a.nActions):
            a.getName(i)
    except NotImplementedError:
        pass
    n = 1
    for i in range(node.childCount):
        c = node.getChildAtIndex(i)
        if c is not None:
            n += walk(c)
    return n

name, reps = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10
desktop = pyatspi.Registry.getDesktop(0)
app = next((desktop.getChildAtIndex(i) for i in range(desktop.childCount) if desktop.getChildAtIndex(i).name == name), None)
if app is None:
    sys.exit("no application %s" % name)
nodes = walk(app)
times = []
for _ in range(reps):
    t0 = time.monotonic()
    nodes = walk(app)
    times.append((time.monotonic() - t0) * 1000)
times.sort()
print("pyatspi walk: %d nodes; median %.1f ms, min %.1f, max %.1f (%d walks)" % (nodes, times[len(times) // 2], times[0], times[-1], reps))
