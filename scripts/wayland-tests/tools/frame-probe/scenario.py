#!/usr/bin/python3
# scenario.py SECONDS PHASES (inside run.sh's session): phase "app", testapp.py --shift-every 250
# (the benchmark's application) and no ring; phase "ring", the application still and a ring moved
# by SetScene every 250 ms. Phase bounds (CLOCK_MONOTONIC µs) written to PHASES.
import subprocess, time, os, sys
from gi.repository import Gio, GLib
DUR = float(sys.argv[1]) if len(sys.argv) > 1 else 12
def mono(): return time.monotonic_ns() // 1000
phases = open(sys.argv[2], "w")
bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
def scene(y):
    js = '{"shapes": [{"kind": "rect", "x": 180, "y": %d, "w": 200, "h": 40, "stroke": "#0072B2", "lineWidth": 4}]}' % y
    bus.call_sync("org.switchscan.Shell", "/org/switchscan/Shell", "org.switchscan.Shell1", "SetScene",
                  GLib.Variant("(s)", (js,)), None, 0, 1000, None)
app = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../Tests/SwitchDesktopTests/Fixtures/testapp.py")
def start(args):
    p = subprocess.Popen(["/usr/bin/python3", app, "--title", "Bench"] + args, stdout=subprocess.PIPE, text=True)
    while p.stdout.readline().strip() != "ready": pass
    return p
p = start(["--shift-every", "250"]); time.sleep(2)
phases.write("app %d\n" % mono()); time.sleep(DUR); phases.write("end %d\n" % mono())
p.kill(); p.wait()
p = start([]); time.sleep(2)
phases.write("ring %d\n" % mono())
t0 = time.monotonic(); i = 0
while time.monotonic() - t0 < DUR:
    i += 1; scene(200 + 22 * (i % 2)); time.sleep(0.25)
phases.write("end %d\n" % mono())
scene(-100)
p.kill(); p.wait()
time.sleep(1.5)
phases.close()
