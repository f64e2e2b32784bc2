#!/usr/bin/python3
"""Runs inside a desktop session (see ../bench-highlight.sh): BIN WORK CHANGES DESKTOP [NEXTS].

UI change → highlight drawn: the test application moves every widget below its heading every
250 ms (testapp.py --shift-every: the heading shown and hidden in turn, "changed <µs>" printed);
`switchscan run --desktop` (release build, under umockdev with the switch box, never pressed)
keeps its ring on Count, which moves with each change: the first item, or NEXTS presses on where
the window draws its own title bar (GNOME: its Close button is scanned first; the presses come
through umockdev's live driver). Per change:

  read   the change → the re-read tree handed to the engine ("layout handed at", the desktop trace)
  draw   that → the ring drawn where the widget is now, and the display server has it
         ("highlight drawn at", the overlay trace: after XSync on X11, after the compositor
         answered a round trip with every output's surface up to date on sway, after GNOME Shell
         painted the frame with the new scene on GNOME: the extension's Sync)
  total  the change → drawn

All times CLOCK_MONOTONIC. Prints one line per measure: DESKTOP, p50 and p99 over CHANGES changes.
"""
import os, re, subprocess, sys, time

bin_dir, work, changes, desktop = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
nexts = int(sys.argv[5]) if len(sys.argv) > 5 else 0
root = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))
fixtures = root + "/Tests/SwitchDesktopTests/Fixtures"
devices = root + "/Tests/SwitchInputTests/Fixtures/devices"
checker = fixtures + "/atspi-check.py"
umockdev = ["umockdev-run", "-d", devices + "/keyboard.umockdev", "-i", "/dev/input/event10=%s/keyboard.ioctl" % devices, "--"]

subprocess.run([checker, "wait", "testapp.py", "1"], capture_output=True)  # warms pyatspi
app = subprocess.Popen(["/usr/bin/python3", fixtures + "/testapp.py", "--title", "Bench", "--shift-every", "250"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
assert app.stdout.readline().strip() == "ready"
subprocess.run([checker, "wait", "testapp.py", "30"], capture_output=True)
env = dict(os.environ, SWITCHSCAN_DESKTOP_TRACE="1", SWITCHSCAN_OVERLAY_TRACE="1")
trace_path = "%s/trace-%s.txt" % (work, desktop)
trace = open(trace_path, "w")
command = [bin_dir + "/switchscan", "run", "--desktop", "--app", "testapp.py", "--profile", fixtures + "/profile-two-switch.json",
           "--format", "jsonl"]
stop = "%s/stop-%s" % (work, desktop)
if nexts:
    # Space NEXTS times, each awaited, then nothing until the measuring is over.
    scenario = "%s/scenario-%s" % (work, desktop)
    with open(scenario, "w") as f:
        f.write("wait running\nexpect \"type\":\"highlight\"\n")
        f.write("sleep 60\nmark\npress /dev/input/event10 KEY_SPACE\nrelease /dev/input/event10 KEY_SPACE\nexpect \"type\":\"highlight\"\n" * nexts)
        # Each waitfile gives up after 30 s (umockdev-live.py): four cover the ~50 s of changes
        # (one alone ended the run 30 s in, and the last ~80 changes counted as missed).
        f.write("waitfile %s go\n" % stop * 4 + "signal INT\n")
    driver = ["/usr/bin/python3", root + "/scripts/device-tests/umockdev-live.py", "--device", devices + "/keyboard.umockdev",
              "--ioctl", "/dev/input/event10=%s/keyboard.ioctl" % devices, "--scenario", scenario, "--"]
    p = subprocess.Popen(driver + command, stdout=subprocess.DEVNULL, stderr=trace, env=env)
else:
    p = subprocess.Popen(umockdev + command, stdout=subprocess.DEVNULL, stderr=trace, env=env)
changed = []
for line in app.stdout:
    m = re.match(r"changed (\d+)", line)
    if m:
        changed.append(int(m.group(1)))
        if len(changed) >= changes + 5:
            break
time.sleep(0.5)
if nexts:
    open(stop, "w").write("go\n")
else:
    p.terminate()
p.wait()
app.terminate()
trace.close()
with open("%s/changes-%s.txt" % (work, desktop), "w") as f:  # the application's stamps, beside the trace
    f.write("".join("changed %d\n" % c for c in changed))
err = open(trace_path).read()
handed = [int(t) for t in re.findall(r"layout handed at (\d+)", err)]
drawn = [int(t) for t in re.findall(r"overlay: highlight drawn at (\d+)", err)]

def first_after(ts, t):
    for x in ts:
        if x >= t:
            return x
    return None

total, read, draw, missed = [], [], [], 0
# The first changes come while switchscan starts (and, with NEXTS, before the ring reached Count).
ringOnCount = drawn[0] if nexts and drawn else 0
for c in [c for c in changed[5:] if c > ringOnCount]:
    d = first_after(drawn, c)
    h = first_after(handed, c)
    if d is None or h is None or h > d:
        missed += 1
        continue
    total.append((d - c) / 1000)
    read.append((h - c) / 1000)
    draw.append((d - h) / 1000)

def q(xs, f):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(f * len(xs)))] if xs else float("nan")

load = open("/proc/loadavg").read().split()[0]
for name, xs in (("UI change to highlight drawn", total), ("  of which the re-read", read), ("  of which the drawing", draw)):
    print("%s: %s: p50 %.1f ms, p99 %.1f ms, max %.1f ms over %d changes (%d missed; load %s)"
          % (desktop, name, q(xs, 0.5), q(xs, 0.99), max(xs) if xs else float("nan"), len(xs), missed, load), flush=True)
