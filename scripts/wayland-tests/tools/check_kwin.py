#!/usr/bin/python3
"""The KWin checks of suite-wayland-shells.sh, run inside run-kwin.sh --app gtk3 --app qt5 with
$SWITCHSCAN_KWIN_PYTHON (the python3 that may take screenshots): one line each, "PASS kwin: ..."
or "FAIL kwin: ...", with the numbers measured; every wait is for a condition, with a timeout.

  check_kwin.py WORKDIR
"""
import os
import subprocess
import sys

import atspi_probe as atspi
import checks
import ring_check
import screenshot
from checks import check
from kwin_helper import KWinHelper

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
SCRIPT = os.path.join(ROOT, "packaging", "kwin", "switchscan-windows.js")
KEY_LEFTMETA, BTN_LEFT = 125, 272


class FakeInput:
    """One kwin-fake-input connection for the whole run (KWin's seat has a pointer only while one is
    connected, and applications bind it only when it appears: a client per click races them)."""

    def __init__(self):
        self.proc = subprocess.Popen([os.environ["SWITCHSCAN_KWIN_FAKE_INPUT"], "--stdin"], text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def __call__(self, *steps):
        self.proc.stdin.write(" ".join(map(str, steps)) + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline().strip()
        if answer != "ok":
            raise RuntimeError("kwin-fake-input said %r to %s" % (answer, steps))

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(10)


fake = None


def top_level(app):
    return next(n for n in atspi.nodes(app) if n["role"] in ("frame", "filler", "window"))


def screen_rect(helper, app, pid, node_name):
    win = helper.window_of(pid)
    ox, oy, how = atspi.window_origin(win["buffer"], win["frame"], top_level(app)["window"][2:])
    x, y, w, h = atspi.find(app, node_name)["window"]
    return (ox + x, oy + y, w, h), how, win


def activate(helper, pid):
    serial = helper.request("activate", helper.window_of(pid)["id"])
    helper.wait(20, lambda h: serial in h.results and h.window_of(pid)["active"])
    return helper.results.get(serial)


@check("the KWin script's reports arrive over D-Bus")
def reports(helper, workdir):
    path = helper.load(SCRIPT)
    pids = (int(os.environ["APP_PID_GTK3"]), int(os.environ["APP_PID_QT5"]))
    ok = helper.wait(20, lambda h: all(h.window_of(p) for p in pids))
    return ok, "script object %s; %d reports; windows %s" % (
        path, helper.reports, [(w["caption"], w["pid"], w["buffer"]) for w in helper.windows])


def position(helper, workdir, kind, node_name):
    app, pid = os.environ["APP_NAME_" + kind], int(os.environ["APP_PID_" + kind])
    activate(helper, pid)
    atspi.wait_for("active", 20, lambda: "active" in top_level(app)["states"])
    rect, how, win = screen_rect(helper, app, pid, node_name)
    ok, msg = screenshot.take_until("kwin", os.path.join(workdir, "kwin-%s.png" % kind), lambda img: ring_check.edges(img, *rect))
    return ok and how == "buffer", "bufferGeometry %s, frame %s, AT-SPI top-level %s, origin %s, button at %s: %s" % (
        win["buffer"], win["frame"], top_level(app)["window"], how, rect, msg)


@check("GTK 3 button: bufferGeometry + AT-SPI = the true rectangle by screenshot")
def gtk3_position(helper, workdir):
    return position(helper, workdir, "GTK3", "Count")


@check("Qt 5 button: bufferGeometry + AT-SPI = the true rectangle by screenshot")
def qt5_position(helper, workdir):
    return position(helper, workdir, "QT5", "Qt press")


@check("fake input clicks a GTK 3 button")
def click(helper, workdir):
    app, pid = os.environ["APP_NAME_GTK3"], int(os.environ["APP_PID_GTK3"])
    activate(helper, pid)
    (x, y, w, h), _, _ = screen_rect(helper, app, pid, "Count")
    fake("click", x + w // 2, y + h // 2)
    label = atspi.wait_for("Clicked 1 times", 20, lambda: atspi.find(app, "Clicked 1 times"))
    return label is not None, "clicked (%d, %d); the label says %r" % (x + w // 2, y + h // 2, label and label["name"])


@check("fake input types into a GTK 3 entry and a Qt 5 line edit")
def typing(helper, workdir):
    got = []
    for kind in ("GTK3", "QT5"):
        app, pid = os.environ["APP_NAME_" + kind], int(os.environ["APP_PID_" + kind])
        activate(helper, pid)
        win = helper.window_of(pid)
        ox, oy, _ = atspi.window_origin(win["buffer"], win["frame"], top_level(app)["window"][2:])
        x, y, w, h = atspi.find(app, editable=True)["window"]
        fake("click", ox + x + w // 2, oy + y + h // 2)
        atspi.wait_for("focused", 20, lambda: "focused" in atspi.find(app, editable=True)["states"])
        fake("type", "Hello switch")
        atspi.wait_for("typed", 20, lambda: atspi.find(app, editable=True)["text"] == "Hello switch")
        got.append(atspi.find(app, editable=True)["text"])
    return got == ["Hello switch"] * 2, "typed 'Hello switch'; AT-SPI reads %s" % got


@check("the KWin script activates a window on request")
def activation(helper, workdir):
    steps = []
    for kind in ("QT5", "GTK3", "QT5"):
        app, pid = os.environ["APP_NAME_" + kind], int(os.environ["APP_PID_" + kind])
        found = activate(helper, pid)
        active = atspi.wait_for("active", 20, lambda: "active" in top_level(app)["states"])
        steps.append(bool(found and active and helper.window_of(pid)["active"]))
    serial = helper.request("activate", "{00000000-0000-0000-0000-000000000000}")
    helper.wait(20, lambda h: serial in h.results)
    return all(steps) and helper.results.get(serial) is False, (
        "Qt, GTK 3, Qt: %s (Result, AT-SPI active, reported active); an unknown id: %s" % (steps, helper.results.get(serial)))


@check("the KWin script reports a window moved by a Meta+drag")
def move(helper, workdir):
    pid = int(os.environ["APP_PID_GTK3"])
    activate(helper, pid)
    before = helper.window_of(pid)["buffer"]
    reports = helper.reports
    x, y = before["x"] + 100, before["y"] + 100
    fake("move", x, y, "keydown", KEY_LEFTMETA, "down", BTN_LEFT,
         *sum((["move", x + 10 * i, y + 5 * i] for i in range(1, 11)), []), "up", BTN_LEFT, "keyup", KEY_LEFTMETA)
    helper.wait(20, lambda h: (h.window_of(pid)["buffer"]["x"], h.window_of(pid)["buffer"]["y"]) == (before["x"] + 100, before["y"] + 50))
    after = helper.window_of(pid)["buffer"]
    delta = (after["x"] - before["x"], after["y"] - before["y"])
    return delta == (100, 50), "dragged by (100, 50): bufferGeometry moved by %s in %d reports" % (delta, helper.reports - reports)


@check("the KWin script reports a new window and closes one on request")
def add_close(helper, workdir):
    app = subprocess.Popen(["/usr/bin/python3", os.path.join(ROOT, "scripts", "wayland-tests", "apps", "gtk4app.py")],
                           env=dict(os.environ, GDK_BACKEND="wayland"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        added = helper.wait(20, lambda h: h.window_of(app.pid) is not None)
        serial = helper.request("close", helper.window_of(app.pid)["id"]) if added else None
        removed = added and helper.wait(20, lambda h: serial in h.results and h.window_of(app.pid) is None)
        exited = app.wait(20) == 0 if removed else False
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()
    return bool(added and removed and exited), "GTK 4 window reported: %s; closed (Result %s), gone from the reports: %s, its process ended: %s" % (
        bool(added), serial and helper.results.get(serial), bool(removed), exited)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    checks.prefix[0] = "kwin"
    fake = FakeInput()
    fake("move", 0, 0)
    helper = KWinHelper()
    for fn in (reports, gtk3_position, qt5_position, click, typing, activation, move, add_close):
        fn(helper, sys.argv[1])
    helper.unload()
    fake.close()
    sys.exit(0 if checks.results["fail"] == 0 else 1)
