#!/usr/bin/python3
"""Runs inside run-desktop.sh (see ../bench-web.sh): BIN WORK."""
import browsers, json, math, os, re, subprocess, sys, threading, time

from live_switch import LiveSwitch

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

def item_highlight(l):
    return l.get("type") == "highlight" and l.get("kind") == "item"

def move_to(sw, label, limit=400):
    """Presses Space (waiting for each highlight) until an item whose label starts with LABEL is
    highlighted; its line, or None."""
    for _ in range(limit):
        r = sw.press_and_wait("SPACE", item_highlight)
        if r is None:
            return None
        if r[1].get("label", "").startswith(label):
            return r[1]
    return None

def is_menu(submenu=None):
    return lambda l: l.get("type") == "menu" and l.get("open") and l.get("items") and l.get("submenu") == submenu

def choose(sw, menu, entry):
    """In the open menu `menu` (its line, as `wait` gives it), Space to ENTRY (waiting for each
    highlight) and Enter: the index the lines after the Enter start at, or None."""
    if menu is None or entry not in menu[1]["items"]:
        return None
    for _ in range(menu[1]["items"].index(entry)):
        if sw.press_and_wait("SPACE", lambda l: l.get("type") == "highlight") is None:
            return None
    since = sw.mark()
    sw.press("ENTER")
    return since

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
        # 4. A scroll by the Scroll page (a switch: menu, Scroll, Down or Up; ten down, ten up, …) to
        #    the new highlight (the first item now in view), over SCROLLS: each press waits for the
        #    highlight it moves (live_switch.py), so the presses never lose step with the page; the
        #    latency is the transcript's own, from the `perform` line to the next item highlight.
        sw = LiveSwitch(switchscan, app, manual, devices)
        built = sw.wait_err(r"page .*: built: \d{4,} items", timeout=120)
        at = move_to(sw, "Link 1.1,") if built else None
        lat, missed, failed, reasons, lost = [], 0, 0, {}, 0
        t_start = time.monotonic()
        for j in range(scrolls if at else 0):
            direction = "up" if (j // 10) % 2 else "down"
            since = choose(sw, sw.press_and_wait("M", is_menu()), "menu:scroll")
            if since is not None:
                since = choose(sw, sw.wait(is_menu("menu:scroll"), since), "menu:scroll:" + direction)
            perf = sw.wait(lambda l: l.get("type") == "perform" and l.get("action") == "scroll", since) if since is not None else None
            if perf is None:
                # Out of step (a menu that did not open as expected): back to an item, go on.
                lost += 1
                sw.press_and_wait("ESC", item_highlight, timeout=3)
                continue
            res = sw.wait(lambda l: l.get("type") == "result", perf[0])
            if res is None or res[1].get("result") != "done":
                failed += 1
                why = res[1].get("reason", "?") if res else "no result line"
                reasons[why] = reasons.get(why, 0) + 1
                continue
            t0 = perf[1]["t"]
            new = sw.wait(lambda l: item_highlight(l) and l["t"] > t0, perf[0], timeout=10)
            if new is None:
                missed += 1
            else:
                lat.append((new[1]["t"] - t0) * 1000)
        sw.stop()
        if os.environ.get("BENCH_DUMP"):
            with open(os.environ["BENCH_DUMP"] + ".scroll-" + app, "w") as f:
                f.writelines(json.dumps(l) + "\n" for l in sw.lines)
        if lat:
            print("scroll by the Scroll page (a switch: menu, Scroll, Down/Up, each press after the highlight it waits for) to the new highlight: p50 %.0f ms, p99 %.0f ms, max %.0f ms, mean %.0f ms over %d scrolls of %d (%d without a new highlight within 10 s, %d failed: %s, %d out of step); %.0f s in all"
                  % (quantile(lat, 0.5), quantile(lat, 0.99), max(lat), sum(lat) / len(lat), len(lat), scrolls, missed, failed, reasons, lost, time.monotonic() - t_start))
        else:
            print("scroll by the Scroll page: no scroll measured (page read: %s, on the first link: %s; %d missed, %d failed: %s, %d out of step)"
                  % (bool(built), bool(at), missed, failed, reasons, lost))

    if "5" in steps:
        # 5. A page change to the new highlight, over CHANGES (default 100): a switch follows a link
        #    (Enter on it: the perform) to the other of two pages, A (the 5,000 links and, first, a
        #    link "Page B") and B (a short page whose first link is "Page A"); the latency is the
        #    transcript's, from the `perform` line to the first item highlight on the new page (an
        #    item of that page's). Then Space to the new page's link, Enter again.
        changes = int(os.environ.get("CHANGES", "100"))
        key("ctrl+l"); sh("xdotool", "type", "--delay", "1", "file://" + work + "/flip-a.html"); key("Return")
        wait_for_items(app, "Page B")
        sw = LiveSwitch(switchscan, app, manual, devices)
        sw.wait_err(r"page .*: built: \d{4,} items", timeout=120)
        on_a = lambda l: l.get("label", "").startswith(("Page B,", "Link ", "Section "))
        on_b = lambda l: l.get("label", "").startswith(("Page A,", "B item "))
        per = {"A": [], "B": []}
        missed, lost = 0, 0
        at = move_to(sw, "Page B,")
        for k in range(changes if at else 0):
            to_b = k % 2 == 0
            since = sw.mark()
            sw.press("ENTER")
            perf = sw.wait(lambda l: l.get("type") == "perform" and l.get("action") in ("activate", "tap"), since)
            new = sw.wait(lambda l: item_highlight(l) and l["t"] > perf[1]["t"] and (on_b if to_b else on_a)(l), perf[0], timeout=15) if perf else None
            if new is None:
                missed += 1
            else:
                per["B" if to_b else "A"].append((new[1]["t"] - perf[1]["t"]) * 1000)
            # As a person would, the next press after the page has settled: read whole (the trace's
            # "built" line after the new highlight; a browser laying a large page out answers
            # nothing for a while, and a press then fails with no reply).
            if new:
                sw.wait_err(r"page .*: built: [1-9]\d* items", since=sw.err_time(new[0]), timeout=15)
                time.sleep(0.3)
            # On to the new page's link (from wherever the highlight came), for the next change.
            target = "Page A," if to_b else "Page B,"
            if not (new and new[1].get("label", "").startswith(target)) and move_to(sw, target, limit=60) is None:
                lost += 1
                break
        sw.stop()
        if os.environ.get("BENCH_DUMP"):
            with open(os.environ["BENCH_DUMP"] + ".page-" + app, "w") as f:
                f.writelines(json.dumps(l) + "\n" for l in sw.lines)
            with open(os.environ["BENCH_DUMP"] + ".page-err-" + app, "w") as f:
                f.writelines("%.3f %s" % e for e in sw.err)
        both = per["A"] + per["B"]
        if both:
            print("page change (a switch follows a link to the other page) to the new page's first highlight: p50 %.0f ms, p99 %.0f ms, max %.0f ms over %d of %d changes (to the 5,000-link page: p50 %.0f, p99 %.0f ms over %d; to the short page: p50 %.0f, p99 %.0f ms over %d; %d without a highlight on the new page within 15 s, %d out of step)"
                  % (quantile(both, 0.5), quantile(both, 0.99), max(both), len(both), changes,
                     quantile(per["A"], 0.5) if per["A"] else -1, quantile(per["A"], 0.99) if per["A"] else -1, len(per["A"]),
                     quantile(per["B"], 0.5) if per["B"] else -1, quantile(per["B"], 0.99) if per["B"] else -1, len(per["B"]), missed, lost))
        else:
            print("page change: none measured (on the link: %s; %d missed, %d out of step)" % (bool(at), missed, lost))
        key("ctrl+l"); sh("xdotool", "type", "--delay", "1", page); key("Return")
        wait_for_items(app, LAST)

    run = Run(app)
    run.wait_for(r"page .*: built: \d{4,} items", timeout=120)
    time.sleep(1)
    pid = switchscan_pid(run.p.pid)
    # 6. Peak memory, idle CPU.
    time.sleep(5 if "6" in steps else 0)
    c0, t0 = cpu_ns(pid), time.monotonic()
    time.sleep(30 if "6" in steps else 1)
    c1, t1 = cpu_ns(pid), time.monotonic()
    print("peak memory (VmHWM) %d KiB; idle CPU %.4f %% (%.1f ms in %.0f s)" % (status(pid, "VmHWM"), (c1 - c0) / 1e9 / (t1 - t0) * 100, (c1 - c0) / 1e6, t1 - t0))
    run.stop()
    browser.terminate()
    browser.wait()
