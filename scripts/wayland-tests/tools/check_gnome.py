#!/usr/bin/python3
"""The GNOME checks of suite-wayland-shells.sh, run inside run-gnome.sh (one line each:
"PASS gnome: ..." or "FAIL gnome: ...", with the numbers measured). Each waits for its condition
with a timeout, never for a fixed time.

  check_gnome.py main WORKDIR     in a session with the extension enabled and --app gtk3 --app qt5
                                  --app gtk4: the extension, positions, overlay, input, windows,
                                  bad scenes, and last the extension disabled mid-run
  check_gnome.py missing WORKDIR  in a session with --extension none --monitors 2: no
                                  org.switchscan.Shell, AT-SPI actions still work, two monitors
  check_gnome.py scale2 WORKDIR   in a session with --scale 2 and --app gtk3: positions, the ring
                                  and a click in logical pixels
"""
import json
import os
import subprocess
import sys
import time

from gi.repository import GLib
from PIL import Image

import atspi_probe as atspi
import checks
from checks import check
import ring_check
import screenshot
from shellctl import Shell, SignalCounter

RING = "#0072B2"


def window_of(shell, pid):
    return next((w for w in shell.windows() if w["pid"] == pid and w["type"] == "normal"), None)


def top_level(app):
    """The application's top-level node (its frame, or a bare QWidget's filler)."""
    return next(n for n in atspi.nodes(app) if n["role"] in ("frame", "filler", "window"))


def origin(win, top):
    return atspi.window_origin(win["buffer"], win["frame"], top["window"][2:])


def shot(workdir, name):
    path = os.path.join(workdir, name + ".png")
    return screenshot.take("gnome", path)


def screen_rect(shell, app, pid, node_name):
    win = window_of(shell, pid)
    top = top_level(app)
    ox, oy, how = origin(win, top)
    node = atspi.find(app, node_name)
    x, y, w, h = node["window"]
    return (ox + x, oy + y, w, h), how, win


def wait_ring(workdir, name, rect, lw, color=RING):
    """Screenshots until the ring's top-left band pixel shows (the Shell paints on its next frame)."""
    x, y = rect[0], rect[1]
    want = ring_check.parse_color(color)
    img = None
    end = time.time() + 20
    while time.time() < end:
        img = shot(workdir, name)
        if ring_check.near(img.getpixel((x + rect[2] // 2, y)), want):
            return img
    return img


# --- main session -------------------------------------------------------------------------------

@check("the extension loads (GetVersion)")
def extension_loads(shell, workdir):
    version, api = shell.version()
    return (version.startswith("43.") and api == 2, "%s, API %d" % (version, api))


def position(shell, workdir, kind, node_name, expected_origin):
    """The button's rect from the compositor's window rects and AT-SPI, checked by its edges in a
    screenshot once the window is active (its colours settled)."""
    app, pid = os.environ["APP_NAME_" + kind], int(os.environ["APP_PID_" + kind])
    shell.activate(window_of(shell, pid)["id"])
    atspi.wait_for("active", 20, lambda: "active" in top_level(app)["states"])
    rect, how, win = screen_rect(shell, app, pid, node_name)
    ok, msg = screenshot.take_until("gnome", os.path.join(workdir, "position-%s.png" % kind),
                                    lambda img: ring_check.edges(img, *rect))
    return ok and how == expected_origin, "buffer %s, frame %s, AT-SPI top-level %s, origin %s, button at %s: %s" % (
        win["buffer"], win["frame"], top_level(app)["window"], how, rect, msg)


@check("GTK 3 button: buffer rect + AT-SPI = the true rectangle by screenshot")
def gtk3_position(shell, workdir):
    return position(shell, workdir, "GTK3", "Count", "buffer")


@check("Qt 5 button: buffer rect + Qt's own title bar + AT-SPI = the true rectangle")
def qt5_position(shell, workdir):
    return position(shell, workdir, "QT5", "Qt press", "buffer + (3, 30)")


@check("GTK 4 button: frame rect + AT-SPI, content box inside the border box")
def gtk4_position(shell, workdir):
    app, pid = os.environ["APP_NAME_GTK4"], int(os.environ["APP_PID_GTK4"])
    shell.activate(window_of(shell, pid)["id"])
    atspi.wait_for("GTK 4 active", 20, lambda: "active" in top_level(app)["states"])
    content, how, win = screen_rect(shell, app, pid, "GTK4 press")
    img = shot(workdir, "gtk4-position")
    # GTK 4.8 reports the content box: find the border box by growing the rect until its edges hold.
    found = None
    for pad_x in range(0, 24):
        for pad_y in range(0, 24):
            r = (content[0] - pad_x, content[1] - pad_y, content[2] + 2 * pad_x, content[3] + 2 * pad_y)
            if ring_check.edges(img, *r)[0]:
                found = (pad_x, pad_y, r)
                break
        if found:
            break
    return (found is not None and how == "frame", "buffer %s, frame %s, origin %s, content box %s, border box %s (padding %s)"
            % (win["buffer"], win["frame"], how, content, found and found[2], found and found[:2]))


@check("SetScene draws a ring whose pixels sit on the rect's border")
def ring_on_button(shell, workdir):
    app, pid = os.environ["APP_NAME_GTK3"], int(os.environ["APP_PID_GTK3"])
    shell.activate(window_of(shell, pid)["id"])
    rect, _, _ = screen_rect(shell, app, pid, "Count")
    shell.clear()
    before = shot(workdir, "ring-before")
    x, y, w, h = rect
    shell.set_scene({"shapes": [{"kind": "rect", "x": x, "y": y, "w": w, "h": h, "stroke": RING, "lineWidth": 4}]})
    after = wait_ring(workdir, "ring-after", rect, 4)
    ok, msg = ring_check.ring(before, after, x, y, w, h, 4, ring_check.parse_color(RING))
    return (ok, "ring on %s, width 4: %s" % (rect, msg))


@check("Sync answers once the Shell painted; a scene goes when the client that set it leaves the bus")
def scene_owner(shell, workdir):
    app, pid = os.environ["APP_NAME_GTK3"], int(os.environ["APP_PID_GTK3"])
    rect, _, _ = screen_rect(shell, app, pid, "Count")
    x, y, w, h = rect
    shell.clear()
    # Set, synced and painted by a client of its own (shellctl's process), which then ends.
    scene = json.dumps({"shapes": [{"kind": "rect", "x": x, "y": y, "w": w, "h": h, "stroke": RING, "lineWidth": 4}]})
    other = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, %r); from shellctl import Shell; s = Shell(); "
                            "s.set_scene(sys.argv[1]); print(s.call('Sync')[0])" % os.path.dirname(os.path.abspath(__file__)), scene],
                           capture_output=True, text=True, timeout=30)
    painted = other.stdout.strip() == "True"
    want = ring_check.parse_color(RING)
    gone = None
    end = time.time() + 20
    while time.time() < end and gone is None:
        img = shot(workdir, "scene-owner-gone")
        if not ring_check.near(img.getpixel((x + w // 2, y)), want):
            gone = img
    return (painted and gone is not None and other.returncode == 0,
            "Sync said %r (%s); the ring %s after its client ended" % (other.stdout.strip(), other.stderr.strip()[-200:],
                                                                        "went" if gone is not None else "stayed"))


@check("SetScene draws a dashed ring, text and a pie, and replaces the scene whole")
def scene_shapes(shell, workdir):
    shell.clear()
    before = shot(workdir, "shapes-before")
    dashed = (700, 500, 200, 100)
    scene = {"shapes": [
        {"kind": "rect", "x": dashed[0], "y": dashed[1], "w": dashed[2], "h": dashed[3], "stroke": RING, "lineWidth": 4, "dash": [8, 4]},
        {"kind": "rect", "x": 100, "y": 700, "w": 160, "h": 40, "fill": "#FFFFFF"},
        {"kind": "text", "x": 104, "y": 704, "text": "Exit group", "size": 20, "color": "#000000", "font": "DejaVu Sans"},
        {"kind": "pie", "cx": 1100, "cy": 150, "r": 40, "fraction": 0.25, "fill": "#D55E00", "stroke": "#FFFFFF", "lineWidth": 2},
    ]}
    shell.set_scene(scene)
    img = wait_ring(workdir, "shapes-after", dashed, 4)
    ok_dash, msg_dash = ring_check.ring(before, img, *dashed, 4, ring_check.parse_color(RING), (8, 4))
    # Text: black pixels inside the white box, none outside the text's box.
    px = img.load()
    dark = sum(1 for xx in range(100, 260) for yy in range(700, 740) if sum(px[xx, yy]) < 200)
    pie_in = px[1100 + 20, 150 - 20]      # upper right quarter: filled
    pie_out = px[1100 - 20, 150 + 20]     # lower left: not filled
    ok_text = 80 < dark < 2000
    ok_pie = ring_check.near(pie_in, (0xD5, 0x5E, 0x00)) and not ring_check.near(pie_out, (0xD5, 0x5E, 0x00))
    # Replaced whole: a scene with the pie alone leaves no dashed ring behind.
    shell.set_scene({"shapes": scene["shapes"][3:]})
    end, replaced = time.time() + 20, False
    while time.time() < end and not replaced:
        again = shot(workdir, "shapes-replaced")
        replaced = ring_check.ring(before, again, *dashed, 4, ring_check.parse_color(RING), (8, 4))[0] is False \
            and again.getpixel((dashed[0] + 2, dashed[1] + 2)) == before.getpixel((dashed[0] + 2, dashed[1] + 2))
    shell.clear()
    return (ok_dash and ok_text and ok_pie and replaced,
            "dashed ring: %s; text: %d dark px; pie: in %s, out %s; replaced: %s"
            % (msg_dash, dark, pie_in, pie_out, replaced))


@check("a click through the extension (through the ring) presses a GTK 3 button")
def click_gtk3(shell, workdir):
    app, pid = os.environ["APP_NAME_GTK3"], int(os.environ["APP_PID_GTK3"])
    shell.activate(window_of(shell, pid)["id"])
    rect, _, _ = screen_rect(shell, app, pid, "Count")
    x, y, w, h = rect
    shell.set_scene({"shapes": [{"kind": "rect", "x": x, "y": y, "w": w, "h": h, "stroke": RING, "lineWidth": 4}]})
    shell.click(x + w / 2, y + 2)   # on the ring's band itself: the ring takes no input
    label = atspi.wait_for("Clicked 1 times", 20, lambda: atspi.find(app, "Clicked 1 times"))
    shell.clear()
    return (label is not None, "clicked (%.0f, %.0f) on the ring's band; the label says %r" % (x + w / 2, y + 2, label and label["name"]))


@check("keys (and Text for what the keymap lacks) type into a GTK 3 entry")
def type_gtk3(shell, workdir):
    app, pid = os.environ["APP_NAME_GTK3"], int(os.environ["APP_PID_GTK3"])
    win = window_of(shell, pid)
    top = top_level(app)
    ox, oy, _ = origin(win, top)
    entry = atspi.find(app, editable=True)
    x, y, w, h = entry["window"]
    shell.click(ox + x + w / 2, oy + y + h / 2)
    atspi.wait_for("entry focused", 20, lambda: "focused" in atspi.find(app, editable=True)["states"])
    keys, committed = "Hello switch", ", é!"
    shell.type_text(keys)
    typed = atspi.wait_for("typed", 20, lambda: atspi.find(app, editable=True)["text"] == keys)
    # "é" is not on the US keymap: Key drops it; Text commits it through the input method.
    done = shell.commit_text(committed)
    text = keys + committed
    got = atspi.wait_for("committed", 20, lambda: atspi.find(app, editable=True)["text"] == text and text)
    return (bool(typed) and done and got == text,
            "keys %r then Text %r (committed: %s), AT-SPI reads %r"
            % (keys, committed, done, atspi.find(app, editable=True)["text"]))


@check("a right click opens the entry's context menu; its item, clicked at the popup's buffer + AT-SPI, acts")
def context_menu(shell, workdir):
    app, pid = os.environ["APP_NAME_GTK3"], int(os.environ["APP_PID_GTK3"])
    win = window_of(shell, pid)
    ox, oy, _ = origin(win, top_level(app))
    x, y, w, h = atspi.find(app, editable=True)["window"]
    shell.move(ox + x + w / 2, oy + y + h / 2)
    shell.button(3, True)
    shell.button(3, False)
    # The popup is listed at once, 0x0, and gets its size when it maps: wait for that.
    popup = atspi.wait_for("the menu's window", 20, lambda: next(
        (p for p in shell.windows() if p["pid"] == pid and p["type"] != "normal" and p["buffer"]["w"] > 0), None))
    item = atspi.wait_for("Select All", 20, lambda: atspi.find(app, "Select All"))
    ix, iy, iw, ih = item["window"]
    px, py = popup["buffer"]["x"] + ix + iw / 2, popup["buffer"]["y"] + iy + ih / 2
    shell.click(px, py)
    entry = next(n for n in atspi.walk(atspi.app_named(app)) if n.getState().contains(atspi.pyatspi.STATE_EDITABLE))
    text = entry.queryText()
    selected = atspi.wait_for("selected", 20, lambda: text.getNSelections() == 1 and text.getSelection(0))
    whole = (0, text.characterCount)
    return (selected == whole,
            "popup %s: buffer %s, frame %s; 'Select All' at %s in it, clicked at (%.0f, %.0f); selection %s of %s"
            % (popup["type"], popup["buffer"], popup["frame"], item["window"], px, py, selected, whole))


@check("ActivateWindow switches the active window")
def activate(shell, workdir):
    gtk3, qt5 = os.environ["APP_NAME_GTK3"], os.environ["APP_NAME_QT5"]
    wg, wq = window_of(shell, int(os.environ["APP_PID_GTK3"])), window_of(shell, int(os.environ["APP_PID_QT5"]))
    steps = []
    for app, win in ((qt5, wq), (gtk3, wg), (qt5, wq)):
        found = shell.activate(win["id"])
        active = atspi.wait_for("%s active" % app, 20, lambda: "active" in top_level(app)["states"])
        focused = atspi.wait_for("focused in GetWindows", 20, lambda: window_of(shell, win["pid"])["focused"])
        steps.append(bool(found and active and focused))
    missing = shell.activate(4000000000)
    return (all(steps) and missing is False, "Qt, GTK 3, Qt: %s (AT-SPI active and GetWindows focused); an unknown id: %s" % (steps, missing))


@check("WindowsChanged fires when a window is dragged, and the buffer rect follows")
def drag_window(shell, workdir):
    pid = int(os.environ["APP_PID_GTK3"])
    win = window_of(shell, pid)
    shell.activate(win["id"])
    atspi.wait_for("GTK 3 focused", 20, lambda: window_of(shell, pid)["focused"])
    counter = SignalCounter(shell)
    f = win["frame"]
    x, y = f["x"] + 60, f["y"] + 18   # the title bar (GTK 3's own, inside the frame)
    shell.move(x, y)
    shell.button(1, True)
    for i in range(1, 11):
        shell.move(x + 10 * i, y + 5 * i)
        counter.wait(0.05, lambda c: False)   # lets the signals in while the drag goes on
    shell.button(1, False)
    moved = atspi.wait_for("moved", 20, lambda: window_of(shell, pid)["frame"]["x"] != f["x"] and window_of(shell, pid))
    count = counter.wait(20)
    counter.close()
    now = moved["frame"] if moved else window_of(shell, pid)["frame"]
    delta = (now["x"] - f["x"], now["y"] - f["y"])
    return (count > 0 and delta == (100, 50), "dragged by (100, 50): frame moved by %s, buffer now %s; %d WindowsChanged signals"
            % (delta, window_of(shell, pid)["buffer"], count))


@check("bad scenes get a D-Bus error naming the problem, and the Shell stays up")
def bad_scenes(shell, workdir):
    cases = [
        ("{bad json", "scene: not JSON"),
        ('{"shapes": [{"kind": "rect", "x": 1, "y": 2, "w": "abc", "h": 3}]}', 'shapes[0].w: expected a number from 0 to 100000, got "abc"'),
        ('{"shapes": [{"kind": "circle"}]}', 'shapes[0].kind: expected "rect", "text" or "pie", got "circle"'),
        ('{"shapes": [{"kind": "rect", "x": 0, "y": 0, "w": 1, "h": 1, "stroke": "red"}]}', 'shapes[0].stroke: expected a colour'),
        ('[]', "scene: expected an object"),
        ('{"shapes": [], "extra": 1}', "scene.extra: expected no such key"),
        ('{"shapes": [' + ",".join(['{"kind": "pie", "cx": 0, "cy": 0, "r": 1, "fraction": 0}'] * 5000) + "]}",
         "5000 shapes is more than the 4096 allowed"),
        (" " * (1 << 20) + "{}", "is more than the 1048576 allowed"),
    ]
    got = []
    for text, want in cases:
        try:
            shell.set_scene(text)
            got.append((want, "no error"))
        except GLib.Error as e:
            ok = "org.switchscan.Shell1.Error.InvalidArgument" in e.message and want in e.message
            got.append((want, "ok" if ok else e.message[-160:]))
    try:
        shell.button(4, True)
        bad_button = "no error"
    except GLib.Error as e:
        bad_button = "ok" if "button 4 is not one of" in e.message else e.message
    alive = shell.version()[1] == 2
    wrong = [g for g in got if g[1] != "ok"]
    return (not wrong and bad_button == "ok" and alive, "%d bad scenes and a bad button refused with InvalidArgument%s; GetVersion after: %s"
            % (len(cases), (", wrong: %s" % wrong) if wrong else "", alive))


@check("CloseWindow closes a window")
def close_window(shell, workdir):
    pid = int(os.environ["APP_PID_GTK4"])
    win = window_of(shell, pid)
    found = shell.close(win["id"])
    gone = atspi.wait_for("GTK 4 window gone", 20, lambda: window_of(shell, pid) is None)
    return (found and gone, "GTK 4 window %d: found %s, gone from GetWindows %s" % (win["id"], found, gone))


@check("the extension disabled mid-run: its name leaves the bus; enabled again, a click at once lands")
def disable_midrun(shell, workdir):
    uuid = "switchscan@switchscan.org"
    app, pid = os.environ["APP_NAME_GTK3"], int(os.environ["APP_PID_GTK3"])
    shell.activate(window_of(shell, pid)["id"])
    atspi.wait_for("GTK 3 active", 20, lambda: "active" in top_level(app)["states"])
    (x, y, w, h), _, _ = screen_rect(shell, app, pid, "Count")
    before = next(n["name"] for n in atspi.nodes(app) if n["name"].startswith("Clicked "))
    want = "Clicked %d times" % (int(before.split()[1]) + 1)
    subprocess.run(["gnome-extensions", "disable", uuid], check=True)
    gone = atspi.wait_for("name gone", 20, lambda: not shell.has_owner())
    subprocess.run(["gnome-extensions", "enable", uuid], check=True)
    # Click the moment the name is back: the devices are new, and GNOME drops what a new virtual
    # device sends before the seat has announced it (the extension owns its name only after that;
    # without the wait this click was lost now and then). Only switchscan's extension goes and
    # comes back: the seat keeps run-gnome.sh's own pointer and keyboard, as a real desktop keeps
    # its mouse (without them GTK dropped its wl_pointer and a click at once was lost under load).
    back = atspi.wait_for("name back", 20, lambda: shell.has_owner(), interval=0.005)
    shell.click(x + w / 2, y + h / 2)
    clicked = atspi.wait_for(want, 20, lambda: atspi.find(app, want))
    errors = [line for line in open(os.environ["SWITCHSCAN_GNOME_SHELL_LOG"], errors="replace")
              if "JS ERROR" in line or "switchscan" in line.lower() and "error" in line.lower()]
    return (bool(gone) and bool(back) and clicked is not None and not errors,
            "gone: %s, back: %s; a click the moment it is back: %r (was %r); errors in the Shell's log: %s"
            % (bool(gone), bool(back), clicked and clicked["name"], before, errors[:3]))


# --- other sessions -----------------------------------------------------------------------------

@check("without the extension: no org.switchscan.Shell, AT-SPI actions still work")
def missing(shell, workdir):
    app = os.environ["APP_NAME_GTK3"]
    owner = shell.has_owner()
    button = atspi.node_named(app, "Count")
    done = button.queryAction().doAction(0)
    label = atspi.wait_for("Clicked 1 times", 20, lambda: atspi.find(app, "Clicked 1 times"))
    return (not owner and done and label is not None, "name owned: %s; DoAction: %s; label %r" % (owner, done, label and label["name"]))


@check("two virtual monitors side by side")
def two_monitors(shell, workdir):
    out = subprocess.run(["gdbus", "call", "--session", "-d", "org.gnome.Mutter.DisplayConfig", "-o",
                          "/org/gnome/Mutter/DisplayConfig", "-m", "org.gnome.Mutter.DisplayConfig.GetCurrentState"],
                         capture_output=True, text=True, check=True).stdout
    img = shot(workdir, "two-monitors")
    ok = "Meta-1" in out and "(1280, 0, 1.0" in out and img.size == (2560, 800)
    return (ok, "Meta-0 at (0, 0) and Meta-1 at (1280, 0): %s; screenshot %dx%d"
            % ("Meta-1" in out and "(1280, 0, 1.0" in out, *img.size))


@check("scale 2: buffer rect + AT-SPI in logical pixels, the ring and a click land on the button")
def scale2(shell, workdir):
    app, pid = os.environ["APP_NAME_GTK3"], int(os.environ["APP_PID_GTK3"])
    rect, how, win = screen_rect(shell, app, pid, "Count")
    x, y, w, h = rect
    shell.clear()
    before = shot(workdir, "scale2-before")
    ok_edges, msg_edges = ring_check.edges(before, 2 * x, 2 * y, 2 * w, 2 * h)
    shell.set_scene({"shapes": [{"kind": "rect", "x": x, "y": y, "w": w, "h": h, "stroke": RING, "lineWidth": 4}]})
    after = wait_ring(workdir, "scale2-after", (2 * x, 2 * y, 2 * w, 2 * h), 8)
    ok_ring, msg_ring = ring_check.ring(before, after, 2 * x, 2 * y, 2 * w, 2 * h, 8, ring_check.parse_color(RING))
    shell.click(x + w / 2, y + h / 2)
    label = atspi.wait_for("Clicked 1 times", 20, lambda: atspi.find(app, "Clicked 1 times"))
    return (ok_edges and ok_ring and label is not None and before.size == (2560, 1600),
            "screenshot %dx%d; button at %s logical (origin %s): edges at 2x: %s; ring 4 logical = 8 px: %s; click: %r"
            % (*before.size, rect, how, msg_edges, msg_ring, label and label["name"]))


SESSIONS = {
    "main": [extension_loads, gtk3_position, qt5_position, gtk4_position, ring_on_button, scene_owner, scene_shapes,
             click_gtk3, type_gtk3, context_menu, activate, drag_window, bad_scenes, close_window, disable_midrun],
    "missing": [missing, two_monitors],
    "scale2": [scale2],
}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in SESSIONS:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    checks.prefix[0] = "gnome"
    shell = Shell()
    for fn in SESSIONS[sys.argv[1]]:
        fn(shell, sys.argv[2])
    sys.exit(0 if checks.results["fail"] == 0 else 1)
