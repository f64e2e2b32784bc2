#!/usr/bin/python3
"""The tests' side of switchscan's KWin script (packaging/kwin/README.md): owns
org.switchscan.KWinHelper on the session bus, as switchscan does, and loads the script into KWin.
A module for check_kwin.py (python3-dbus, python3-gi):

  helper = KWinHelper()            the name and object /org/switchscan/KWinHelper
  helper.load(script_path)         unloadScript("switchscan") if there, loadScript, run
  helper.wait(secs, until)         iterates the main loop until until(helper) or secs pass
  helper.windows                   the last Windows(s) report, parsed; helper.reports: how many came
  helper.request(op, wid) -> serial  queued for the script's long poll (NextRequest)
  helper.results[serial]           the script's Result(s serial, b found)
"""
import json
import time

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)

NAME = "org.switchscan.KWinHelper"
PATH = "/org/switchscan/KWinHelper"
IFACE = "org.switchscan.KWinHelper"
PLUGIN = "switchscan"
IDLE_REPLY_S = 20   # KWin gives up on a call's reply after 25 s, which would end the script's poll


class KWinHelper(dbus.service.Object):
    def __init__(self):
        self.bus = dbus.SessionBus()
        self.name = dbus.service.BusName(NAME, self.bus, do_not_queue=True)
        super().__init__(self.bus, PATH)
        self.windows, self.reports = [], 0
        self.queue, self.waiting, self.results, self.serial = [], [], {}, 0

    @dbus.service.method(IFACE, in_signature="s", out_signature="")
    def Windows(self, text):
        self.windows = json.loads(text)
        self.reports += 1

    @dbus.service.method(IFACE, in_signature="", out_signature="s", async_callbacks=("reply", "error"))
    def NextRequest(self, reply, error):
        if self.queue:
            reply(self.queue.pop(0))
            return
        entry = [reply, 0]
        entry[1] = GLib.timeout_add_seconds(IDLE_REPLY_S, self._idle_reply, entry)
        self.waiting.append(entry)

    def _idle_reply(self, entry):
        if entry in self.waiting:
            self.waiting.remove(entry)
            entry[0]("")
        return False

    @dbus.service.method(IFACE, in_signature="sb", out_signature="")
    def Result(self, serial, found):
        self.results[str(serial)] = bool(found)

    def request(self, op, wid):
        self.serial += 1
        text = json.dumps({"serial": self.serial, "op": op, "id": wid})
        if self.waiting:
            reply, timer = self.waiting.pop(0)
            GLib.source_remove(timer)
            reply(text)
        else:
            self.queue.append(text)
        return str(self.serial)

    def load(self, path):
        scripting = dbus.Interface(self.bus.get_object("org.kde.KWin", "/Scripting"), "org.kde.kwin.Scripting")
        if scripting.isScriptLoaded(PLUGIN):
            scripting.unloadScript(PLUGIN)
        sid = int(scripting.loadScript(path, PLUGIN, signature="ss"))  # overloaded: (s) and (ss)
        if sid < 0:
            raise RuntimeError("KWin refused to load %s (id %d)" % (path, sid))
        # KWin 5.27 puts a script at /<id>, KWin 6 at /Scripting/Script<id>.
        for obj in ("/%d" % sid, "/Scripting/Script%d" % sid):
            try:
                dbus.Interface(self.bus.get_object("org.kde.KWin", obj, introspect=False), "org.kde.kwin.Script").run()
                return obj
            except dbus.DBusException:
                continue
        raise RuntimeError("no script object for id %d" % sid)

    def unload(self):
        scripting = dbus.Interface(self.bus.get_object("org.kde.KWin", "/Scripting"), "org.kde.kwin.Scripting")
        scripting.unloadScript(PLUGIN)

    def wait(self, secs, until):
        """Iterates the main loop until until(self) is true or secs pass; returns until(self)."""
        end = time.time() + secs
        ctx = GLib.MainContext.default()
        while not until(self) and time.time() < end:
            ctx.iteration(False) or time.sleep(0.01)
        return until(self)

    def window_of(self, pid):
        return next((w for w in self.windows if w["pid"] == pid and w["type"] == "normal"), None)
