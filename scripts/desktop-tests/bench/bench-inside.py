#!/usr/bin/python3
"""Runs inside run-desktop.sh (see ../bench-desktop.sh): BIN WORK CHANGES."""
import os, re, statistics, subprocess, sys, time

bin_dir, work, changes = sys.argv[1], sys.argv[2], int(sys.argv[3])
# SWITCHSCAN_BENCH_ONLY=changes: only part 4 (UI change → re-read); SWITCHSCAN_BENCH_TRACE=FILE:
# keep part 4's SWITCHSCAN_DESKTOP_TRACE lines and the application's change times there.
only_changes = os.environ.get("SWITCHSCAN_BENCH_ONLY") == "changes"
keep_trace = os.environ.get("SWITCHSCAN_BENCH_TRACE")
root = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))
fixtures = root + "/Tests/SwitchDesktopTests/Fixtures"
devices = root + "/Tests/SwitchInputTests/Fixtures/devices"
switchscan = bin_dir + "/switchscan"
checker = fixtures + "/atspi-check.py"
manual = fixtures + "/profile-two-switch.json"
auto = root + "/Profiles/single-switch-auto.json"
umockdev = ["umockdev-run", "-d", devices + "/keyboard.umockdev", "-i", "/dev/input/event10=%s/keyboard.ioctl" % devices, "--"]

def sh(*argv):
    return subprocess.run(argv, capture_output=True, text=True)

def cpu_ns(pid):
    """Time on a CPU, all threads (/proc/PID/schedstat, nanoseconds)."""
    return sum(int(open("/proc/%d/task/%s/schedstat" % (pid, t)).read().split()[0]) for t in os.listdir("/proc/%d/task" % pid))

def switchscan_pid(parent):
    """The switchscan under `parent` (umockdev-run execs it or runs it as a child); never another
    switchscan on the machine."""
    for _ in range(100):
        if os.path.basename(os.readlink("/proc/%d/exe" % parent)) == "switchscan":
            return parent
        r = sh("pgrep", "-P", str(parent), "-x", "switchscan")
        if r.stdout.strip():
            return int(r.stdout.split()[0])
        time.sleep(0.05)
    raise SystemExit("switchscan did not start")

def run_desktop(app, profile, env=None, stderr=subprocess.DEVNULL):
    return subprocess.Popen(umockdev + [switchscan, "run", "--desktop", "--app", app, "--profile", profile, "--format", "jsonl"],
                            stdout=subprocess.PIPE, stderr=stderr, text=True, bufsize=1, env=env)

print("machine: %d cores, load %s" % (os.cpu_count(), open("/proc/loadavg").read().split()[0]))
subprocess.Popen(["gtk3-widget-factory"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
sh(checker, "wait", "gtk3-widget-factory", "30")

# 1. Reading the scan items, and the anchors, in the same run (interleaved rounds).
for rnd in range(0 if only_changes else 2):
    print(sh(work + "/walk-anchor", "gtk3-widget-factory", "20").stdout.strip())
    print(sh("/usr/bin/python3", root + "/scripts/desktop-tests/bench/walk-anchor.py", "gtk3-widget-factory", "10").stdout.strip())
    print(sh(bin_dir + "/switchscan-bench", "desktop-read", "gtk3-widget-factory", "20").stdout.strip())

# 2. Start to the first highlight (process spawn under umockdev included).
firsts = []
for _ in range(0 if only_changes else 7):
    t0 = time.monotonic()
    p = run_desktop("gtk3-widget-factory", manual)
    for line in p.stdout:
        if '"type":"highlight"' in line:
            firsts.append((time.monotonic() - t0) * 1000)
            break
    p.terminate(); p.wait()
firsts.sort()
if firsts: print("start to first highlight: median %.0f ms, min %.0f, max %.0f (%d starts; umockdev-run + switchscan + first read)"
      % (firsts[len(firsts) // 2], firsts[0], firsts[-1], len(firsts)))

# 3. Idle CPU while nothing changes.
for name, profile in () if only_changes else (("manual scanning", manual), ("auto scanning", auto)):
    p = run_desktop("gtk3-widget-factory", profile)
    pid = switchscan_pid(p.pid)
    time.sleep(5)   # the first seconds: the spinners' bounds events are checked, then paused
    c0, t0 = cpu_ns(pid), time.monotonic()
    time.sleep(30)
    c1, t1 = cpu_ns(pid), time.monotonic()
    p.terminate(); p.wait()
    print("idle CPU, %s, gtk3-widget-factory: %.4f %% (%.1f ms on a CPU in %.0f s)" % (name, (c1 - c0) / 1e9 / (t1 - t0) * 100, (c1 - c0) / 1e6, t1 - t0))

# 4. UI change → re-read tree, over CHANGES changes (a row added every 250 ms, at most 8 kept).
app = subprocess.Popen([fixtures + "/testapp.py", "--title", "Bench", "--add-every", "250", "--rows-max", "8"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
assert app.stdout.readline().strip() == "ready"
env = dict(os.environ, SWITCHSCAN_DESKTOP_TRACE="1")
trace = open(work + "/trace.txt", "w")
p = run_desktop("testapp.py", manual, env, stderr=trace)
changed = []
for line in app.stdout:
    m = re.match(r"changed (\d+) (\d+)", line)
    if m:
        changed.append(int(m.group(1)))
        if len(changed) >= changes + 5:
            break
time.sleep(0.5)
p.terminate()
p.wait()
trace.close()
err = open(work + "/trace.txt").read()
app.terminate()
if keep_trace:
    with open(keep_trace, "w") as f:
        f.write("".join("changed %d\n" % c for c in changed) + err)
reads = [(int(a), int(b)) for a, b in re.findall(r"read testapp\.py: .* started at (\d+), done at (\d+)", err)]
lat, missed, parts = [], 0, []
for c in changed[5:]:   # the first changes come while switchscan starts
    after = [(s, d) for s, d in reads if s >= c]
    if after:
        lat.append((after[0][1] - c) / 1000)
        parts.append(((after[0][1] - c) / 1000, (after[0][0] - c) / 1000, (after[0][1] - after[0][0]) / 1000))
    else:
        missed += 1
parts.sort()
print("slowest changes (total = wait from the change to the read's start + the read, ms): "
      + ", ".join("%.1f = %.1f + %.1f" % p for p in parts[-5:]))
lat.sort()
q = lambda f: lat[min(len(lat) - 1, int(f * len(lat)))]
calls = re.findall(r"read testapp\.py: (\d+) calls", err)
print("UI change to re-read tree: p50 %.1f ms, p99 %.1f ms, max %.1f ms over %d changes (%d reads, %s calls each; %d missed)"
      % (q(0.5), q(0.99), lat[-1], len(lat), len(reads), calls[-1] if calls else "?", missed))
