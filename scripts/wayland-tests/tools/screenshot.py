#!/usr/bin/python3
"""Screenshots of the whole desktop for the Wayland tests, as the desktop allows them:

  screenshot.py gnome OUT.png   gnome-screenshot -f (GNOME Shell 43 lets org.gnome.Screenshot's
                                owner use its Screenshot D-Bus API; other clients are refused)
  screenshot.py kwin OUT.png    KWin's org.kde.KWin.ScreenShot2 CaptureWorkspace into a pipe (the
                                calling binary must be named by a .desktop file with
                                X-KDE-DBUS-Restricted-Interfaces=org.kde.KWin.ScreenShot2, and be
                                the only binary so named: Debian's python3.11.desktop already names
                                /usr/bin/python3.11, so run-kwin.sh grants a copy of it,
                                $SWITCHSCAN_KWIN_PYTHON: run this with that)

Pixels are logical desktop pixels at scale 1. Needs python3-pil (and python3-dbus for kwin).
"""
import os
import subprocess
import sys
import threading
import time

from PIL import Image


def gnome(out):
    r = subprocess.run(["gnome-screenshot", "-f", out], capture_output=True, text=True, timeout=30)
    if r.returncode != 0 or not os.path.exists(out):
        raise RuntimeError("gnome-screenshot failed (%d): %s" % (r.returncode, r.stderr.strip()[-300:]))
    return Image.open(out).convert("RGB")


def kwin(out):
    import dbus
    bus = dbus.SessionBus()
    shots = dbus.Interface(bus.get_object("org.kde.KWin", "/org/kde/KWin/ScreenShot2"), "org.kde.KWin.ScreenShot2")
    read_end, write_end = os.pipe()
    data = bytearray()

    def reader():
        while True:
            chunk = os.read(read_end, 1 << 16)
            if not chunk:
                break
            data.extend(chunk)

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    try:
        fd = dbus.types.UnixFd(write_end)   # a copy of the write end, sent to KWin
        os.close(write_end)
        meta = shots.CaptureWorkspace({"include-cursor": False}, fd, timeout=15)
        del fd                              # our last write end: KWin's closing it ends the read
        thread.join(15)
    finally:
        os.close(read_end)
    if thread.is_alive():
        raise RuntimeError("KWin's screenshot did not end within 15 s")
    meta = {str(k): v for k, v in meta.items()}
    width, height, stride = int(meta["width"]), int(meta["height"]), int(meta["stride"])
    # QImage::Format_ARGB32(_Premultiplied), little-endian: B, G, R, A in memory.
    img = Image.frombuffer("RGBA", (width, height), bytes(data), "raw", "BGRA", stride, 1).convert("RGB")
    img.save(out)
    return img


def take(desktop, out):
    return {"gnome": gnome, "kwin": kwin}[desktop](out)


def take_until(desktop, out, test, secs=20):
    """Screenshots until test(image) -> (ok, message) is ok or secs pass (a window repaints a frame
    or two after it is activated: GTK 3 draws an inactive window paler); returns the last result."""
    end = time.time() + secs
    while True:
        ok, message = test(take(desktop, out))
        if ok or time.time() > end:
            return ok, message


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("gnome", "kwin"):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    image = take(sys.argv[1], sys.argv[2])
    print("%s %dx%d" % (sys.argv[2], image.width, image.height))
