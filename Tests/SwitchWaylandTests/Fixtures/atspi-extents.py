#!/usr/bin/python3
"""Where AT-SPI says a node is, for the Wayland tests (pyatspi, an independent view):

  atspi-extents.py APP NAME   one JSON object for the first node of APP named NAME that has a
                              component: {"pid", "x", "y", "width", "height"} in WINDOW_COORDS
                              (on Wayland, relative to its window), "window": the title of the
                              frame it is in, and "first": the same four of its first child (a
                              GTK 3 window's title bar: where its window starts inside its
                              shadow); exit 1 when there is none
"""
import json, sys
import pyatspi

def find(node, name, frame):
    if node is None:
        return None
    if node.getRole() in (pyatspi.ROLE_FRAME, pyatspi.ROLE_WINDOW, pyatspi.ROLE_DIALOG):
        frame = node.name
    if node.name == name:
        try:
            e = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
            found = {"x": e.x, "y": e.y, "width": e.width, "height": e.height, "window": frame}
            if node.childCount > 0 and node.getChildAtIndex(0) is not None:
                f = node.getChildAtIndex(0).queryComponent().getExtents(pyatspi.WINDOW_COORDS)
                found["first"] = {"x": f.x, "y": f.y, "width": f.width, "height": f.height}
            return found
        except NotImplementedError:
            pass
    for i in range(node.childCount):
        found = find(node.getChildAtIndex(i), name, frame)
        if found:
            return found
    return None

app_name, name = sys.argv[1], sys.argv[2]
desktop = pyatspi.Registry.getDesktop(0)
for i in range(desktop.childCount):
    app = desktop.getChildAtIndex(i)
    if app is not None and app.name == app_name:
        found = find(app, name, None)
        if found:
            found["pid"] = app.get_process_id()
            print(json.dumps(found))
            sys.exit(0)
sys.exit(1)
