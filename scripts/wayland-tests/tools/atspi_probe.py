#!/usr/bin/python3
"""The Wayland tests' independent view of an application through pyatspi (Debian's python3-pyatspi),
not through switchscan's own reader. A module for the checkers and a command:

  atspi_probe.py wait APP SECS   until APP is on the a11y bus with a top-level that shows and its tree stopped
                                 growing (three equal node counts 50 ms apart); exit 1 on timeout
  atspi_probe.py nodes APP       one JSON object per node with a name, an editable text, or
                                 a top-level (a frame, a window, a bare QWidget's filler): {"name", "role", "states", "text", "pid",
                                 "window": [x, y, w, h] (WINDOW_COORDS), "desktop": [...] (DESKTOP_COORDS)}

On Wayland a toolkit knows no global position: DESKTOP_COORDS equal WINDOW_COORDS, both relative
to the toolkit's idea of its window's origin; the compositor's window origin is added to them.
"""
import importlib.util
import json
import os
import sys
import time

import pyatspi
from gi.repository import GLib


# The desktop tests' checker (Tests/SwitchDesktopTests/Fixtures/atspi-check.py) finds applications
# by name: the same lookup serves here.
_spec = importlib.util.spec_from_file_location("atspi_check", os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Tests", "SwitchDesktopTests", "Fixtures", "atspi-check.py"))
_atspi_check = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_atspi_check)
app_named = _atspi_check.app_named


def walk(node):
    yield node
    for i in range(node.childCount):
        child = node.getChildAtIndex(i)
        if child is not None:
            yield from walk(child)


def extents(node, kind):
    e = node.queryComponent().getExtents(kind)
    return [e.x, e.y, e.width, e.height]


def describe(node):
    states = node.getState()
    text = None
    if states.contains(pyatspi.STATE_EDITABLE):
        try:
            t = node.queryText()
            text = t.getText(0, t.characterCount)
        except NotImplementedError:
            pass
    out = {"name": node.name, "role": node.getRoleName(),
           "states": sorted(pyatspi.stateToString(s) for s in states.getStates()), "text": text}
    try:
        out["window"] = extents(node, pyatspi.WINDOW_COORDS)
        out["desktop"] = extents(node, pyatspi.DESKTOP_COORDS)
    except NotImplementedError:
        pass
    return out


def nodes(name):
    """The named, editable and top-level nodes of application `name`, in tree order (the app's pid in each)."""
    app = app_named(name)
    if app is None:
        return None
    pid = app.get_process_id()
    found = []
    for node in walk(app):
        if node is app:
            continue
        try:
            role = node.getRole()
            editable = node.getState().contains(pyatspi.STATE_EDITABLE)
            if node.name or editable or node.getParent() is app:
                found.append(dict(describe(node), pid=pid))
        except Exception:  # a node that went away while read: the next read sees the new tree
            continue
    return found


def find(name, node_name=None, role=None, editable=False):
    """The first node of `name` with that accessible name (or role, or editable text), or None."""
    for n in nodes(name) or []:
        if node_name is not None and n["name"] != node_name:
            continue
        if role is not None and n["role"] != role:
            continue
        if editable and n["text"] is None:
            continue
        return n
    return None


def node_named(app_name, node_name):
    """The live accessible of that name (for actions), or None."""
    app = app_named(app_name)
    for node in walk(app) if app is not None else []:
        if node.name == node_name:
            return node
    return None


def window_origin(buffer, frame, size):
    """Where a toolkit's window coordinates start on the desktop, (x, y, how), from the compositor's
    buffer and frame rects ({x, y, w, h}) and the AT-SPI size (w, h) of the window's top-level node
    (measured on GNOME 43 and KWin 5.27, see ../README.md):
      the top-level is as large as the buffer (GTK 3: its shadows and title bar are inside both):
        the buffer's origin;
      as large as the frame (GTK 4: AT-SPI starts at its window geometry): the frame's origin;
      else the toolkit draws decorations into the buffer around it (Qt 5 on GNOME): the buffer's
        origin plus the side margin, and down by what the height leaves after a bottom margin as
        wide as the side one (its title bar)."""
    w, h = size
    if (w, h) == (buffer["w"], buffer["h"]):
        return buffer["x"], buffer["y"], "buffer"
    if (w, h) == (frame["w"], frame["h"]):
        return frame["x"], frame["y"], "frame"
    side = (buffer["w"] - w) // 2
    top = buffer["h"] - h - side
    return buffer["x"] + side, buffer["y"] + top, "buffer + (%d, %d)" % (side, top)


def wait(name, secs):
    end = time.time() + secs
    last, stable = -1, 0
    while time.time() < end:
        app = app_named(name)
        if app is not None:
            try:
                count = sum(1 for _ in walk(app))
                # A top-level that shows: a frame (GTK), a filler (a bare QWidget), a window.
                has_frame = any(c is not None and c.getState().contains(pyatspi.STATE_SHOWING)
                                for c in (app.getChildAtIndex(i) for i in range(app.childCount)))
            except Exception:
                count, has_frame = -1, False
            stable = stable + 1 if has_frame and count == last else 0
            last = count
            if stable >= 3:
                return True
        time.sleep(0.05)
    return False


def dispatch():
    """Lets the GLib main context run what is pending: libatspi keeps names and states it has read
    up to date from the events it receives there, and a process with a D-Bus service (the KWin
    helper) receives its calls there."""
    ctx = GLib.MainContext.default()
    while ctx.pending():
        ctx.iteration(False)


def wait_for(what, secs, probe, interval=0.05):
    """Calls probe() every interval seconds until it returns something true; returns it, or None
    after secs."""
    end = time.time() + secs
    while True:
        dispatch()
        try:
            value = probe()
        except Exception:
            value = None
        if value:
            return value
        if time.time() > end:
            return None
        time.sleep(interval)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "wait":
        sys.exit(0 if wait(sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 10) else 1)
    if len(sys.argv) == 3 and sys.argv[1] == "nodes":
        found = nodes(sys.argv[2])
        if found is None:
            print("no application %s on the a11y bus" % sys.argv[2], file=sys.stderr)
            sys.exit(1)
        for n in found:
            print(json.dumps(n))
        sys.exit(0)
    print(__doc__, file=sys.stderr)
    sys.exit(2)
