#!/usr/bin/python3
"""walk-anchor.py APP [REPS] [--document]: the benchmark's second anchor: a pyatspi walk of APP (what
Orca-style clients do), reading role, name, states, screen extents and action names of every node;
one warm-up walk, then REPS timed walks; prints the median. --document: only the showing web
document of APP (bench-web.sh: the same page switchscan reads). Debian's python3 with
python3-pyatspi."""
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

args = [a for a in sys.argv[1:] if a != "--document"]
name, reps = args[0], int(args[1]) if len(args) > 1 else 10
desktop = pyatspi.Registry.getDesktop(0)
app = next((desktop.getChildAtIndex(i) for i in range(desktop.childCount) if desktop.getChildAtIndex(i).name == name), None)
if app is None:
    sys.exit("no application %s" % name)
if "--document" in sys.argv:
    def document(node):
        if node.getRole() == pyatspi.ROLE_DOCUMENT_WEB and node.getState().contains(pyatspi.STATE_SHOWING):
            return node
        for i in range(node.childCount):
            c = node.getChildAtIndex(i)
            if c is not None:
                d = document(c)
                if d is not None:
                    return d
        return None
    app = document(app)
    if app is None:
        sys.exit("no showing document in %s" % name)
nodes = walk(app)
times = []
for _ in range(reps):
    t0 = time.monotonic()
    nodes = walk(app)
    times.append((time.monotonic() - t0) * 1000)
times.sort()
print("pyatspi walk%s: %d nodes; median %.1f ms, min %.1f, max %.1f (%d walks)"
      % (" of the document" if "--document" in sys.argv else "", nodes, times[len(times) // 2], times[0], times[-1], reps))
