#!/usr/bin/python3
"""A client of switchscan's GNOME Shell extension (org.switchscan.Shell, packaging/gnome-shell/README.md)
for the tests, through GDBus (python3-gi). A module for the checkers and a command:

  shellctl.py version                    GetVersion: "43.9 1"
  shellctl.py scene JSON                 SetScene (a D-Bus error is printed, exit 1)
  shellctl.py clear                      ClearScene
  shellctl.py windows                    GetWindows, pretty JSON
  shellctl.py activate ID | close ID     ActivateWindow / CloseWindow: true or false
  shellctl.py click X Y [BUTTON]         PointerMove, PointerButton pressed, released
  shellctl.py type TEXT                  Key pressed and released per character (keysym)
  shellctl.py key KEYSYM                 one key pressed and released (a number, or a name: Return)
  shellctl.py text TEXT                  Text: committed through the input method (true), or not (false)
"""
import json
import sys
import time

from gi.repository import Gio, GLib

BUS_NAME = "org.switchscan.Shell"
PATH = "/org/switchscan/Shell"
IFACE = "org.switchscan.Shell1"
KEYSYMS = {"Return": 0xff0d, "BackSpace": 0xff08, "Tab": 0xff09, "Escape": 0xff1b, "Shift_L": 0xffe1}


class Shell:
    def __init__(self):
        self.bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)

    def call(self, method, signature=None, args=(), timeout_ms=25000):
        """The method's reply unpacked (a tuple); raises GLib.Error with the D-Bus error."""
        params = GLib.Variant(signature, tuple(args)) if signature else None
        reply = self.bus.call_sync(BUS_NAME, PATH, IFACE, method, params, None,
                                   Gio.DBusCallFlags.NONE, timeout_ms, None)
        return reply.unpack() if reply is not None else ()

    def has_owner(self):
        reply = self.bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                   "NameHasOwner", GLib.Variant("(s)", (BUS_NAME,)), None,
                                   Gio.DBusCallFlags.NONE, 2000, None)
        return reply.unpack()[0]

    def version(self):
        return self.call("GetVersion")

    def set_scene(self, scene):
        self.call("SetScene", "(s)", (scene if isinstance(scene, str) else json.dumps(scene),))

    def clear(self):
        self.call("ClearScene")

    def windows(self):
        return json.loads(self.call("GetWindows")[0])

    def activate(self, wid):
        return self.call("ActivateWindow", "(u)", (wid,))[0]

    def close(self, wid):
        return self.call("CloseWindow", "(u)", (wid,))[0]

    def move(self, x, y):
        self.call("PointerMove", "(dd)", (float(x), float(y)))

    def button(self, button, pressed):
        self.call("PointerButton", "(ub)", (button, pressed))

    def click(self, x, y, button=1):
        self.move(x, y)
        self.button(button, True)
        self.button(button, False)

    def key(self, keysym, pressed):
        self.call("Key", "(ub)", (keysym, pressed))

    def commit_text(self, text):
        return self.call("Text", "(s)", (text,))[0]

    def type_text(self, text):
        for ch in text:
            sym = ord(ch) if 0x20 <= ord(ch) <= 0x7e else 0x1000000 + ord(ch)
            self.key(sym, True)
            self.key(sym, False)


class SignalCounter:
    """Counts WindowsChanged signals while a GLib main context is iterated (wait())."""

    def __init__(self, shell):
        self.count = 0
        self.bus = shell.bus
        self.sub = self.bus.signal_subscribe(BUS_NAME, IFACE, "WindowsChanged", PATH, None,
                                             Gio.DBusSignalFlags.NONE, self._got)

    def _got(self, *_):
        self.count += 1

    def wait(self, secs, until=lambda c: c > 0):
        """Iterates the main context until until(count) or secs pass; returns the count."""
        end = time.time() + secs
        ctx = GLib.MainContext.default()
        while not until(self.count) and time.time() < end:
            ctx.iteration(False) or time.sleep(0.01)
        return self.count

    def close(self):
        self.bus.signal_unsubscribe(self.sub)


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    shell, cmd, rest = Shell(), argv[0], argv[1:]
    try:
        if cmd == "version":
            print(*shell.version())
        elif cmd == "scene" and len(rest) == 1:
            shell.set_scene(rest[0])
        elif cmd == "clear":
            shell.clear()
        elif cmd == "windows":
            print(json.dumps(shell.windows(), indent=1))
        elif cmd in ("activate", "close") and len(rest) == 1:
            print(json.dumps((shell.activate if cmd == "activate" else shell.close)(int(rest[0]))))
        elif cmd == "click" and len(rest) in (2, 3):
            shell.click(float(rest[0]), float(rest[1]), int(rest[2]) if len(rest) == 3 else 1)
        elif cmd == "type" and len(rest) == 1:
            shell.type_text(rest[0])
        elif cmd == "text" and len(rest) == 1:
            print(json.dumps(shell.commit_text(rest[0])))
        elif cmd == "key" and len(rest) == 1:
            sym = KEYSYMS.get(rest[0]) or int(rest[0], 0)
            shell.key(sym, True)
            shell.key(sym, False)
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except GLib.Error as e:
        print("shellctl: %s" % e.message, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
