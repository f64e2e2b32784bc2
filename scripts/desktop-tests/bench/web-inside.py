#!/usr/bin/python3
"""Runs inside run-desktop.sh (see ../bench-web.sh): BIN WORK."""
import browsers, json, math, os, re, subprocess, sys, threading, time

bin_dir, work = sys.argv[1], sys.argv[2]
only = os.environ.get("SWITCHSCAN_BENCH_ONLY", "")
# SWITCHSCAN_BENCH_STEPS: which of the steps below run (default all: 123456); SCROLLS: how many
# scrolls step 4 times (default 100).
steps = os.environ.get("SWITCHSCAN_BENCH_STEPS", "123456")
scrolls = int(os.environ.get("SCROLLS", "100"))
root = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))
fixtures = root + "/Tests/SwitchDesktopTests/Fixtures"
devices = root + "/Tests/SwitchInputTests/Fixtures/devices"
switchscan = bin_dir + "/switchscan"
checker = fixtures + "/atspi-check.py"
manual = fixtures + "/profile-two-switch.json"
umockdev = ["umockdev-run", "-d", devices + "/keyboard.umockdev", "-i", "/dev/input/event10=%s/keyboard.ioctl" % devices, "--"]
page = "file://" + work + "/links.html"
LAST = "Link 50.100"

def sh(*argv, timeout=600):
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout)

def cpu_ns(pid):
    return sum(int(open("/proc/%d/task/%s/schedstat" % (pid, t)).read().split()[0]) for t in os.listdir("/proc/%d/task" % pid))

def status(pid, key):
    for line in open("/proc/%d/status" % pid):
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0

def switchscan_pid(parent):
    for _ in range(200):
        try:
            if os.path.basename(os.readlink("/proc/%d/exe" % parent)) == "switchscan":
                return parent
        except OSError:
            pass
        r = sh("pgrep", "-P", str(parent), "-x", "switchscan")
        if r.stdout.strip():
            return int(r.stdout.split()[0])
        time.sleep(0.05)
    raise SystemExit("switchscan did not start")

class Run:
    """`switchscan run --desktop --app APP` under umockdev, its stdout and traced stderr read as they come."""
    def __init__(self, app, profile=manual, trace=True):
        env = dict(os.environ)
        if trace:
            env["SWITCHSCAN_DESKTOP_TRACE"] = "1"
        self.t0 = time.monotonic()
        self.p = subprocess.Popen(umockdev + [switchscan, "run", "--desktop", "--app", app, "--profile", profile, "--format", "jsonl", "--no-show"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1, env=env)
        self.out, self.err = [], []
        self.first_highlight = None
        threading.Thread(target=self._read_out, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read_out(self):
        for line in self.p.stdout:
            if self.first_highlight is None and '"type":"highlight"' in line:
                self.first_highlight = time.monotonic()
            self.out.append(line)

    def _read_err(self):
        for line in self.p.stderr:
            self.err.append((time.monotonic(), line))

    def wait_for(self, pattern, since=0, timeout=60):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for t, line in list(self.err):
                if t >= since and re.search(pattern, line):
                    return t, line
            time.sleep(0.01)
        return None

    def layouts(self):
        """CLOCK_MONOTONIC seconds of every tree handed to the engine."""
        return [int(m.group(1)) / 1e6 for _, l in list(self.err) for m in [re.search(r"layout handed at (\d+)", l)] if m]

    def stop(self):
        self.p.terminate()
        try:
            self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.p.kill()

def start_browser(name, url):
    return browsers.start_browser(name, url, work + "/profile-" + name, checker)

def wait_for_items(app, label, timeout=120):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        r = sh(switchscan, "tree", "show", "--desktop", "--app", app, "--format", "json")
        if r.returncode == 0 and ('"%s, ' % label) in r.stdout:
            return json.loads(r.stdout)
        time.sleep(1)
    raise SystemExit("%s: %s never came" % (app, label))

def quantile(values, q):
    v = sorted(values)
    return v[min(len(v) - 1, int(q * len(v)))]

def key(*keys):
    sh("xdotool", "key", "--clearmodifiers", *keys)

live_driver = root + "/scripts/device-tests/umockdev-live.py"

def taps(k, n=1, wait=150):
    return ("press /dev/input/event10 KEY_%s\nrelease /dev/input/event10 KEY_%s\nsleep %d\n" % (k, k, wait)) * n

def scenario_run(app, scenario, timeout=120):
    """`switchscan run --desktop --app APP` driven by a umockdev switch (the fixture keyboard:
    Space moves, Enter selects, M opens the menu); its JSONL lines."""
    path = work + "/scenario"
    open(path, "w").write(scenario)
    r = sh("/usr/bin/python3", live_driver, "--device", devices + "/keyboard.umockdev", "--ioctl", "/dev/input/event10=%s/keyboard.ioctl" % devices,
           "--scenario", path, "--", switchscan, "run", "--desktop", "--app", app, "--profile", manual, "--format", "jsonl", "--no-show", timeout=timeout)
    out = []
    for line in r.stdout.splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            pass
    return out

print("machine: %d cores, load %s" % (os.cpu_count(), open("/proc/loadavg").read().split()[0]))

def slope_mb_per_hour(points):
    """The least-squares slope of (seconds, KiB) points, in MB an hour."""
    n = len(points)
    mt = sum(t for t, _ in points) / n
    mv = sum(v for _, v in points) / n
    var = sum((t - mt) ** 2 for t, _ in points)
    return sum((t - mt) * (v - mv) for t, v in points) / var * 3600 / 1024 if var else 0.0

if only == "soak":
    # SOAK_MINUTES (default 30), SOAK_INTERVAL (seconds between samples, default 10), SOAK_APPS
    # (default "Chromium Firefox": one after the other), SOAK_PAGE (changing, default, or static:
    # the same page without its timer).
    minutes = float(os.environ.get("SOAK_MINUTES", "30"))
    interval = float(os.environ.get("SOAK_INTERVAL", "10"))
    soak_page = "file://" + work + ("/static.html" if os.environ.get("SOAK_PAGE") == "static" else "/changing.html")
    for app in os.environ.get("SOAK_APPS", "Chromium Firefox").split():
        b = start_browser(app, soak_page)
        run = Run(app, trace=False)
        pid = switchscan_pid(run.p.pid)
        time.sleep(30)
        samples = []
        end = time.monotonic() + minutes * 60
        while time.monotonic() < end and run.p.poll() is None:
            samples.append((time.monotonic() - run.t0, status(pid, "VmRSS"), len(os.listdir("/proc/%d/fd" % pid)), cpu_ns(pid)))
            time.sleep(interval)
        highlights = sum(1 for l in run.out if '"type":"highlight"' in l)
        trees = [l for l in run.out if '"type":"tree"' in l]
        run.stop(); b.terminate(); b.wait()
        print("soak, %s, %s, %.0f minutes (RSS KiB, open descriptors, every %.0f s; every minute shown):" % (app, soak_page.rsplit("/", 1)[1], minutes, interval))
        step = max(1, int(60 / interval))
        for t, rss, fds, cpu in samples[::step] + samples[-1:]:
            print("  %6.0f s  RSS %6d KiB  fds %3d  CPU %.1f s" % (t, rss, fds, cpu / 1e9))
        first, last = samples[0], samples[-1]
        mid = samples[len(samples) // 2]
        half = samples[len(samples) // 2:]
        print("soak %s: RSS %d → %d → %d KiB (first, middle, last), slope %.2f MB/h (least squares over %d samples; second half %.2f MB/h); descriptors %d → %d → %d (max %d); CPU %.1f %% of a core; %d highlights, tree lines: %s"
              % (app, first[1], mid[1], last[1], slope_mb_per_hour([(t, r) for t, r, _, _ in samples]), len(samples),
                 slope_mb_per_hour([(t, r) for t, r, _, _ in half]), first[2], mid[2], last[2], max(f for _, _, f, _ in samples),
                 (last[3] - first[3]) / 1e9 / (last[0] - first[0]) * 100, highlights, [json.loads(l).get("change") for l in trees]))
    sys.exit(0)

for app in os.environ.get("SWITCHSCAN_BENCH_APPS", "Chromium Firefox").split():
    browser = start_browser(app, page)
    tree = wait_for_items(app, LAST)
    print("== %s: %d scan items in tree show" % (app, len(tree["items"])))

    # 1. Start → first highlight, and → the whole page.
    firsts, wholes = [], []
    for _ in range(5 if "1" in steps else 0):
        run = Run(app)
        built = run.wait_for(r"page .*: built: \d{4,} items", timeout=120)  # the page of links (not an empty document of the browser's own)
        while run.first_highlight is None and time.monotonic() - run.t0 < 30:
            time.sleep(0.01)
        if run.first_highlight:
            firsts.append((run.first_highlight - run.t0) * 1000)
        if built:
            wholes.append((built[0] - run.t0) * 1000)
        run.stop()
    if firsts: print("start to first highlight: median %.0f ms (%.0f–%.0f, %d starts); to the whole page: median %.0f ms (%.0f–%.0f)"
          % (quantile(firsts, 0.5), min(firsts), max(firsts), len(firsts), quantile(wholes, 0.5), min(wholes), max(wholes)))

    # 2. What scanning needs of the whole page, against a pyatspi walk of the document (interleaved).
    for rnd in range(2 if "2" in steps else 0):
        print(sh(bin_dir + "/switchscan-bench", "page-read", app, "5").stdout.strip())
        print(sh("/usr/bin/python3", root + "/scripts/desktop-tests/bench/walk-anchor.py", app, "1", "--document", timeout=900).stdout.strip())

    # 3. tree stats on the dump; linear with page-by-page scrolling (the anchors' way).
    if "3" in steps:
        dump = work + "/dump-%s.json" % app
        sh(switchscan, "tree", "dump", "--desktop", "--app", app, "-o", dump)
        stats = json.loads(sh(switchscan, "tree", "stats", dump, "--format", "json").stdout)
        links = [i for i in tree["items"] if i["description"].startswith("Link ")]
        shown = [i for i in links if i.get("frame")]
        per_screen = max(1, len(shown))
        # Linear scanning of what shows, a "scroll down" stop after it (Android's auto-scroll), page by
        # page: link k (from 0) on screen p = k // per_screen costs p × (per_screen + 1) + k % per_screen + 1 stops.
        linear_scroll = sum((k // per_screen) * (per_screen + 1) + k % per_screen + 1 for k in range(len(links))) / len(links)
        auto = stats.get("auto") or {}
        print("tree stats: %d scan items (%d links); auto grouping average %.1f s, worst %.1f s; linear %.0f s; linear with page-by-page scrolling (%d links a screen) %.0f s"
              % (stats.get("scanItems", -1), len(links), auto.get("averageSeconds", -1), auto.get("worstSeconds", -1),
                 (stats.get("linear") or {}).get("averageSeconds", -1), per_screen, linear_scroll))

    if "4" in steps:
        # 4. A scroll by the Scroll page (a switch's menu, Scroll, Down or Up: the perform) to the new
        #    highlight (the first item now in view), over 100: the presses come from a umockdev switch
        #    (umockdev-live.py), the times are the transcript's own (the live clock).
        first_link = next(i for i, it in enumerate(tree["items"]) if it["description"].startswith("Link 1.1,"))
        probe = scenario_run(app, "wait running\nsleep 4000\n" + taps("SPACE", first_link) + taps("M") + "sleep 300\nsignal INT\n")
        menus = [l for l in probe if l.get("type") == "menu" and l.get("items")]
        top = menus[0]["items"] if menus else []
        if "menu:scroll" not in top:
            print("scroll by the Scroll page: no Scroll entry on %s's first link (%s)" % (app, top))
        else:
            k = top.index("menu:scroll")
            cycle = lambda up: taps("M") + taps("SPACE", k) + taps("ENTER", wait=300) + taps("SPACE", 1 if up else 0) + taps("ENTER", wait=4000)
            scen = "wait running\nsleep 4000\n" + taps("SPACE", first_link) + "".join(cycle((j // 10) % 2 == 1) for j in range(scrolls)) + "signal INT\n"
            lines = scenario_run(app, scen, timeout=900)
            lat, missed, failed, reasons = [], 0, 0, {}
            for j, l in enumerate(lines):
                if l.get("type") != "perform" or l.get("action") != "scroll":
                    continue
                res = next((r for r in lines[j:] if r.get("type") == "result"), {})
                if res.get("result") != "done":
                    failed += 1
                    why = res.get("reason", "no result line")
                    reasons[why] = reasons.get(why, 0) + 1
                    continue
                # The first highlight after the perform that is not the menu's origin coming back at once.
                nxt = next((h for h in lines[j:] if h.get("type") in ("highlight", "menu") and (h.get("type") == "menu" and h.get("items") or h.get("t", 0) > l["t"] + 0.001)), None)
                if nxt is not None and nxt.get("type") == "highlight":
                    lat.append((nxt["t"] - l["t"]) * 1000)
                else:
                    missed += 1
            if lat:
                print("scroll by the Scroll page (a switch: menu, Scroll, Down/Up) to the new highlight: p50 %.0f ms, p99 %.0f ms, max %.0f ms over %d scrolls (%d without a new highlight, %d failed: %s; %d of %d cycles came to no scroll)"
                      % (quantile(lat, 0.5), quantile(lat, 0.99), max(lat), len(lat), missed, failed, reasons, scrolls - len(lat) - missed - failed, scrolls))
            else:
                print("scroll by the Scroll page: no highlight after any of %d scrolls (%d failed); the run's last lines: %s"
                  % (missed, failed, [(l.get("type"), l.get("label") or l.get("items") or l.get("change")) for l in lines[-8:]]))

    run = Run(app)
    run.wait_for(r"page .*: built: \d{4,} items", timeout=120)
    time.sleep(1)
    pid = switchscan_pid(run.p.pid)
    # 5. A page change: the first tree of the new page (a read whose item count differs from the
    # last one before the change: the pages hold 5,000 links and a few items), over 100.
    def read_counts(since):
        return [(t, int(m.group(1))) for t, l in list(run.err) if t >= since for m in [re.search(r"read %s: \d+ calls(?: \(\d+ subtrees\))?, (\d+) items" % app, l)] if m]
    changes = []
    for k in range(100 if "5" in steps else 0):
        url = ("file://" + work + "/page2.html") if k % 2 == 0 else page
        key("ctrl+l"); sh("xdotool", "type", "--delay", "1", url)
        before = read_counts(0)
        last = before[-1][1] if before else -1
        t = time.monotonic(); key("Return")
        end = t + 30
        got = None
        while got is None and time.monotonic() < end:
            new = [x for x in read_counts(t) if x[1] != last]
            got = new[0][0] if new else None
            time.sleep(0.005)
        if got is not None:
            changes.append((got - t) * 1000)
        time.sleep(2.5 if k % 2 == 1 else 1)
    if changes:
        print("page change (address bar) to the new page's first tree: p50 %.0f ms, p99 %.0f ms over %d of 100" % (quantile(changes, 0.5), quantile(changes, 0.99), len(changes)))

    # 6. Peak memory, idle CPU.
    time.sleep(5 if "6" in steps else 0)
    c0, t0 = cpu_ns(pid), time.monotonic()
    time.sleep(30 if "6" in steps else 1)
    c1, t1 = cpu_ns(pid), time.monotonic()
    print("peak memory (VmHWM) %d KiB; idle CPU %.4f %% (%.1f ms in %.0f s)" % (status(pid, "VmHWM"), (c1 - c0) / 1e9 / (t1 - t0) * 100, (c1 - c0) / 1e6, t1 - t0))
    run.stop()
    browser.terminate()
    browser.wait()
