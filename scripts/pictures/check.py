#!/usr/bin/python3
"""Checks switchscan's pictures as real renderers draw them (scripts/pictures/suite-pictures.sh).

  check.py svg SVG PNG ZOOM TREE.json
      SVG rendered by rsvg-convert at ZOOM into PNG; TREE.json is `tree show --format json` of
      the same tree. Every scan item with a frame has its numbered badge inside its frame's
      top-left corner (or at the centre of a small item); the PNG has the badge colour around
      each badge centre and white digits inside, and Tesseract reads the numbers in scan order;
      the middle of a large item is not badge-coloured (the check can fail); every group's
      outline is dashed in the group colour.

  check.py html PAGE.html OUT_DIR FIGURES.json
      PAGE.html opened by headless Chromium over the DevTools protocol (a pipe, no port): the
      page asks for nothing but itself (every request the page makes is recorded); the screen
      picture inside it passes the badge checks above (on a 4x capture); the highlight path has
      its bars and press marks in their colours; the figures table says FIGURES (name → value).
      Screenshots go to OUT_DIR.

  check.py control PAGE.html OUT_DIR
      The request recorder sees a request when there is one: a copy of PAGE.html with an
      external image and without its Content-Security-Policy makes exactly that request, and the
      same copy with the policy makes none (the policy blocks it).

Prints one "PASS what" or "FAIL what: why" line per check.
"""
import base64, json, math, os, select, shutil, signal, subprocess, sys, tempfile, time
import xml.etree.ElementTree as ET
from PIL import Image, ImageOps

SVG = "{http://www.w3.org/2000/svg}"
BADGE = (0x15, 0x65, 0xC0)
GROUP = (0xE6, 0x51, 0x00)
failed = 0


def report(ok, what, why=""):
    global failed
    if ok:
        print(f"PASS {what}")
    else:
        failed += 1
        print(f"FAIL {what}: {why}")


def near(c, want, tol=60):
    return math.dist(c[:3], want) <= tol


# --- Badges ------------------------------------------------------------------------------------

def badge_checks(name, im, badges, items, scale, offset=(0, 0)):
    """badges: [(n, id, cx, cy, r)] in picture units; items: {id: (x, y, w, h)} in the same units.
    im: the picture rendered at `scale` pixels per unit, its origin at `offset` (pixels)."""
    pixels = im.load()

    def px(x, y):
        return pixels[int(round(offset[0] + x * scale)), int(round(offset[1] + y * scale))]

    where_bad = []
    for n, id_, cx, cy, r in badges:
        x, y, w, h = items[id_]
        inside = x <= cx <= x + w and y <= cy <= y + h
        corner = (cx - x <= max(w * 0.5, 2.5 * r)) and (cy - y <= max(h * 0.5, 2.5 * r))
        if not (inside and corner):
            where_bad.append(f"{n} ({id_}) at {cx:.1f},{cy:.1f} not in the top-left of {x},{y},{w},{h}")
    report(not where_bad, f"{name}: each badge sits in its item's top-left corner ({len(badges)} badges)", "; ".join(where_bad[:5]))

    ring_bad, digit_bad = [], []
    for n, id_, cx, cy, r in badges:
        ring = [px(cx + 0.85 * r * math.cos(a), cy + 0.85 * r * math.sin(a)) for a in (0.785, 2.356, 3.927, 5.498)]
        if not all(near(c, BADGE) for c in ring):
            ring_bad.append(f"{n}: {ring}")
        white = 0
        steps = max(4, int(r * scale))
        for i in range(-steps, steps + 1):
            for j in range(-steps, steps + 1):
                c = px(cx + 0.45 * r * i / steps, cy + 0.5 * r * j / steps)
                white += all(v > 200 for v in c[:3])
        if white < 6:
            digit_bad.append(f"{n}: {white} white pixels")
    report(not ring_bad, f"{name}: the badge colour around every badge centre", "; ".join(ring_bad[:3]))
    report(not digit_bad, f"{name}: white digits inside every badge", "; ".join(digit_bad[:3]))

    # Negative control: the middle of a large item (no badge there) is not badge-coloured.
    big = [(id_, f) for id_, f in items.items() if f[2] >= 8 * badges[0][4] and f[3] >= 3.5 * badges[0][4]] if badges else []
    centres = [px(f[0] + f[2] / 2, f[1] + f[3] / 2) for _, f in big]
    report(bool(big) and not any(near(c, BADGE) for c in centres),
           f"{name}: the middle of a large item is not badge-coloured ({len(big)} items)", f"{centres[:3]}")

    # The numbers, read by Tesseract from one sheet of all the badges (one call).
    crops = []
    for n, id_, cx, cy, r in badges:
        box = tuple(int(round(v)) for v in (offset[0] + (cx - 0.72 * r) * scale, offset[1] + (cy - 0.62 * r) * scale,
                                            offset[0] + (cx + 0.72 * r) * scale, offset[1] + (cy + 0.62 * r) * scale))
        crops.append(ImageOps.invert(im.crop(box).convert("L")).point(lambda v: 255 if v > 128 else 0))
    if crops:
        sheet = Image.new("L", (max(c.width for c in crops) + 60, sum(c.height + 30 for c in crops) + 40), 255)
        y = 20
        for c in crops:
            sheet.paste(c, (30, y))
            y += c.height + 30
        with tempfile.NamedTemporaryFile(suffix=".png") as f:
            sheet.save(f.name)
            read = subprocess.run(["tesseract", f.name, "-", "--psm", "6", "-c", "tessedit_char_whitelist=0123456789"],
                                  capture_output=True, text=True).stdout.split()
        want = [str(b[0]) for b in badges]
        report(read == want, f"{name}: Tesseract reads the badges' numbers in scan order", f"read {read}, expected {want}")


def dashed(name, im, rect, scale, colour, offset=(0, 0)):
    """The top and left edges of rect (picture units) alternate between `colour` and not."""
    x, y, w, h = rect
    fractions = []
    for (x0, y0, x1, y1) in ((x, y, x + w, y), (x, y, x, y + h)):
        length = max(abs(x1 - x0), abs(y1 - y0)) * scale
        hits = total = 0
        for k in range(int(length * 0.05), int(length * 0.95)):
            t = k / length
            c = im.getpixel((int(round(offset[0] + (x0 + (x1 - x0) * t) * scale)), int(round(offset[1] + (y0 + (y1 - y0) * t) * scale))))
            hits += near(c, colour, 70)
            total += 1
        fractions.append(hits / max(total, 1))
    return all(0.3 <= f <= 0.95 for f in fractions), fractions


def svg_check(svg, png, zoom, tree_json):
    root = ET.parse(svg).getroot()
    zoom = float(zoom)
    im = Image.open(png).convert("RGB")
    tree = json.load(open(tree_json))
    screen = next(e for e in root.iter(SVG + "rect") if e.get("class") == "screen")
    ox, oy = float(screen.get("x")), float(screen.get("y"))
    # Items from `tree show --format json`, moved onto the picture by the screen's place.
    items = {i["id"]: (i["frame"][0] + ox, i["frame"][1] + oy, i["frame"][2], i["frame"][3]) for i in tree["items"] if i["frame"]}
    numbers = {i["id"]: i["index"] for i in tree["items"]}
    badges = []
    for g in root.iter(SVG + "g"):
        if g.get("class") != "badge":
            continue
        c = g.find(SVG + "circle")
        badges.append((int(g.get("data-n")), g.get("data-id"), float(c.get("cx")), float(c.get("cy")), float(c.get("r"))))
    wrong = [b for b in badges if numbers.get(b[1]) != b[0]]
    report(not wrong and sorted(b[1] for b in badges) == sorted(items),
           f"{svg}: one badge per framed scan item, numbered as `tree show` numbers it", f"{wrong[:3]}")
    badge_checks(svg, im, badges, items, zoom)
    groups = [tuple(float(e.get(k)) for k in ("x", "y", "width", "height")) for e in root.iter(SVG + "rect") if e.get("class") == "group"]
    results = [dashed(svg, im, g, zoom, GROUP) for g in groups]
    report(groups and all(ok for ok, _ in results), f"{svg}: every group outlined, dashed ({len(groups)} groups)",
           f"{[f for _, f in results]}")


# --- Chromium over the DevTools protocol --------------------------------------------------------

class Chromium:
    """Headless Chromium with --remote-debugging-pipe (fds 3 and 4): no port, no other client.
    Networking is pointed nowhere (a dead proxy, no name resolution), so a request could not
    leave the machine even if one were made; the recorder still sees it being made.

    Teardown: Chromium's crash handlers detach themselves (their own session, parent init), so
    neither waiting for the browser nor killing its process group ends them. Everything Chromium
    starts names its own directory (self.dir) on its command line (--user-data-dir, and the crash
    database, which XDG_CONFIG_HOME puts there), so close() ends exactly those processes, waits
    until none is left, and says if one stays."""

    def __init__(self, width=1200, height=900):
        self.dir = tempfile.mkdtemp(prefix="pictures-chromium-")
        env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(self.dir, "config"), XDG_CACHE_HOME=os.path.join(self.dir, "cache"))
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()

        def fds():
            a, b = os.dup(to_r), os.dup(from_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             f"--user-data-dir={self.dir}", "--no-first-run", "--proxy-server=127.0.0.1:9",
             "--host-resolver-rules=MAP * ~NOTFOUND", f"--window-size={width},{height}", "about:blank"],
            pass_fds=(3, 4), preexec_fn=fds, env=env, stdout=subprocess.DEVNULL, stderr=open(os.path.join(self.dir, "stderr"), "w"))
        os.close(to_r)
        os.close(from_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.width, self.height = width, height

    def send(self, method, params=None, session=None):
        self.next_id += 1
        m = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            m["sessionId"] = session
        os.write(self.to_w, json.dumps(m).encode() + b"\0")
        return self.next_id

    def wait(self, until, timeout=30):
        end = time.time() + timeout
        while True:
            while b"\0" in self.buf:
                raw, self.buf = self.buf.split(b"\0", 1)
                m = json.loads(raw)
                if "method" in m:
                    self.events.append(m)
                if until(m):
                    return m
            ready, _, _ = select.select([self.from_r], [], [], max(0, end - time.time()))
            if not ready:
                raise TimeoutError("Chromium did not answer")
            chunk = os.read(self.from_r, 1 << 20)
            if not chunk:
                raise EOFError("Chromium closed the pipe")
            self.buf += chunk

    def call(self, method, params=None, session=None):
        i = self.send(method, params, session)
        m = self.wait(lambda m: m.get("id") == i)
        if "error" in m:
            raise RuntimeError(f"{method}: {m['error']}")
        return m["result"]

    def open(self, url):
        """Loads url in a new tab; returns its session and the URLs of every request it made."""
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.call("Network.enable", session=s)
        self.call("Page.enable", session=s)
        self.call("Emulation.setDeviceMetricsOverride", {"width": self.width, "height": self.height, "deviceScaleFactor": 1, "mobile": False}, session=s)
        start = len(self.events)
        self.call("Page.navigate", {"url": url}, session=s)
        self.wait(lambda m: m.get("method") == "Page.loadEventFired" and m.get("sessionId") == s)
        time.sleep(0.2)  # anything the page would still start after load
        self.call("Runtime.evaluate", {"expression": "1"}, session=s)
        mine = [e for e in self.events[start:] if e.get("sessionId") == s]
        blocked = {e["params"]["requestId"]: e["params"]["blockedReason"] for e in mine
                   if e.get("method") == "Network.loadingFailed" and e["params"].get("blockedReason")}
        # A request the page's policy stopped before it was sent is reported as blocked.
        requests = [e["params"]["request"]["url"] + (f" (blocked: {blocked[e['params']['requestId']]})" if e["params"]["requestId"] in blocked else "")
                    for e in mine if e.get("method") == "Network.requestWillBeSent"]
        return s, requests

    def js(self, session, expression):
        r = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=session)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expression}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def shot(self, session, path, clip=None, scale=1):
        if clip is None:
            size = self.call("Page.getLayoutMetrics", session=session)["cssContentSize"]
            clip = {"x": 0, "y": 0, "width": size["width"], "height": size["height"]}
        clip = dict(clip, scale=scale)
        data = self.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip}, session=session)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        return Image.open(path).convert("RGB")

    def close(self):
        """Ends the browser and every process it started; returns the pids still alive (none)."""
        try:
            self.call("Browser.close")
            self.proc.wait(10)
        except Exception:
            pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        end = time.time() + 5
        while (left := processes_naming(self.dir)) and time.time() < end:
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.05)
        shutil.rmtree(self.dir, ignore_errors=True)
        return left


def processes_naming(path):
    """The live processes (not zombies) whose command line contains path."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                if path.encode() not in f.read():
                    continue
            with open(f"/proc/{entry}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    continue
        except OSError:
            continue
        found.append(int(entry))
    return found


def close_reporting(chrome, what):
    left = chrome.close()
    report(not left, f"{what}: Chromium and every process it started are gone", f"still running: {left}")


# Where SVG shapes are, in page pixels: the geometry the picture gives them (getBBox, in the
# picture's units, which are CSS pixels here) moved by where the picture is on the page.
SHAPES = """(sel => [...document.querySelectorAll(sel)].map(e => { const s = e.ownerSVGElement.getBoundingClientRect();
  const b = e.getBBox(); const g = e.parentNode.dataset || {};
  return {x: s.x + scrollX + b.x, y: s.y + scrollY + b.y, w: b.width, h: b.height, id: e.dataset.id || g.id || '',
          n: g.n || '', kind: e.dataset.kind || '', fill: e.getAttribute('fill'), cls: e.getAttribute('class') || ''}; }))"""
# Where page elements are, in page pixels.
BOXES = """(sel => [...document.querySelectorAll(sel)].map(e => { const r = e.getBoundingClientRect();
  return {x: r.x + scrollX, y: r.y + scrollY, w: r.width, h: r.height}; }))"""


def html_check(page, out, figures_json):
    os.makedirs(out, exist_ok=True)
    want = json.load(open(figures_json))
    url = "file://" + os.path.abspath(page)
    chrome = Chromium()
    try:
        s, requests = chrome.open(url)
        report(requests == [url], f"{page}: the page asks for nothing but itself", f"requests: {requests}")
        if os.environ.get("PICTURES_KEEP"):
            chrome.shot(s, os.path.join(out, "report.png"))  # the whole page, to look at

        # The screen picture, captured at 4x so Tesseract can read the numbers.
        svg = chrome.js(s, BOXES + "('#screen-0')")[0]
        im = chrome.shot(s, os.path.join(out, "screen-0.png"), {"x": svg["x"], "y": svg["y"], "width": svg["w"], "height": svg["h"]}, scale=4)
        circles = chrome.js(s, SHAPES + "('#screen-0 g.badge circle')")
        badges = [(int(c["n"]), c["id"], c["x"] + c["w"] / 2 - svg["x"], c["y"] + c["h"] / 2 - svg["y"], c["w"] / 2) for c in circles]
        items = {r["id"]: (r["x"] - svg["x"], r["y"] - svg["y"], r["w"], r["h"]) for r in chrome.js(s, SHAPES + "('#screen-0 rect.item')")}
        report(len(badges) == len(items) > 0 and sorted(b[0] for b in badges) == list(range(1, len(badges) + 1)),
               f"{page}: the screen picture numbers its {len(items)} framed items 1…{len(badges)}")
        badge_checks(f"{page} #screen-0", im, badges, items, 4)
        groups = [(g["x"] - svg["x"], g["y"] - svg["y"], g["w"], g["h"]) for g in chrome.js(s, SHAPES + "('#screen-0 rect.group')")]
        results = [dashed(page, im, g, 4, GROUP) for g in groups]
        report(groups and all(ok for ok, _ in results), f"{page}: every group outlined, dashed ({len(groups)} groups)", f"{[f for _, f in results]}")

        # The highlight path: bars in their kinds' colours, press marks in theirs (those the
        # scrolling box shows).
        box = chrome.js(s, BOXES + "('#path .scroll')")[0]
        area = {"x": 0, "y": box["y"], "width": box["x"] + box["w"], "height": box["h"]}
        path_shot = chrome.shot(s, os.path.join(out, "path.png"), area)
        class Shifted:  # page coordinates onto the capture of the path's box
            def getpixel(self, p):
                return path_shot.getpixel((p[0], p[1] - int(box["y"])))
        full = Shifted()
        def visible(r):
            return r["x"] >= box["x"] and r["x"] + r["w"] <= box["x"] + box["w"]
        bars = [b for b in chrome.js(s, SHAPES + "('#timeline rect.bar')") if visible(b) and b["w"] >= 6]
        kinds = {}
        for b in bars:
            kinds.setdefault(b["kind"], b)
        bad = []
        for kind, b in kinds.items():
            c = full.getpixel((int(b["x"] + b["w"] / 2), int(b["y"] + 2)))
            want_c = tuple(int(b["fill"][i:i + 2], 16) for i in (1, 3, 5))
            if not near(c, want_c, 30):
                bad.append(f"{kind} bar at {b['x']:.0f},{b['y']:.0f}: {c} not {b['fill']}")
        report(len(kinds) >= 2 and not bad, f"{page}: the highlight path's bars in their colours ({', '.join(sorted(kinds))})", "; ".join(bad))
        all_marks = chrome.js(s, SHAPES + "('#timeline .marker')")
        def overlaps(m):  # a mark drawn over another (presses 12 ms apart) is not checked
            return any(o is not m and o["x"] < m["x"] + m["w"] and m["x"] < o["x"] + o["w"] for o in all_marks)
        marks = [m for m in all_marks if visible(m) and not overlaps(m)]
        bad = []
        for m in marks:
            colour = (0xC6, 0x28, 0x28) if "rejected" in m["cls"] else (0x2E, 0x7D, 0x32) if "touch" not in m["cls"] else (0x6A, 0x1B, 0x9A)
            # Inside a triangle; on a cross's crossing; in a dot's middle; on a hollow circle's
            # rim (the pixel nearest the colour across the rim's width).
            x = int(m["x"] + m["w"] / 2)
            if m["cls"] == "marker touch rejected":
                c = min((full.getpixel((x, int(m["y"]) + dy)) for dy in (-1, 0, 1, 2)), key=lambda c: math.dist(c, colour))
            else:
                c = full.getpixel((x, int(m["y"] + m["h"] * (0.6 if "accepted" in m["cls"] else 0.5))))
            if not near(c, colour, 40):
                bad.append(f"{m['cls']} at {m['x']:.0f}: {c}")
        report(marks and not bad, f"{page}: every press mark in its colour ({len(marks)} marks)", "; ".join(bad[:4]))

        rows = chrome.js(s, "[...document.querySelectorAll('#figures tr')].map(r => [r.cells[0].innerText, r.cells[1].innerText])")
        got = {k.strip(): v for k, v in rows}
        diff = {k: (got.get(k), v) for k, v in want.items() if got.get(k) != v}
        report(not diff, f"{page}: the figures ({len(want)} checked)", f"{diff}")
    finally:
        close_reporting(chrome, page)


def control_check(page, out):
    os.makedirs(out, exist_ok=True)
    html = open(page, encoding="utf-8").read()
    probe = '<img alt="" src="http://198.51.100.7/probe.png">'
    with_policy = html.replace("<body>", "<body>" + probe, 1)
    without = with_policy.replace('http-equiv="Content-Security-Policy"', 'name="no-policy"', 1)
    chrome = Chromium()
    try:
        for name, text, expect in (("without its policy", without, ["http://198.51.100.7/probe.png"]),
                                   ("with its policy", with_policy, ["http://198.51.100.7/probe.png (blocked: csp)"])):
            path = os.path.join(out, "control.html")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            url = "file://" + os.path.abspath(path)
            _, requests = chrome.open(url)
            report(requests == [url] + expect, f"control: an external image {name} is " + ("blocked by it" if "blocked" in expect[0] else "requested"), f"{requests}")
    finally:
        close_reporting(chrome, "control")


def stop(signum, _frame):
    """A TERM or HUP (the suite stopped) unwinds like an error, so every `finally` ends Chromium."""
    raise SystemExit(128 + signum)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, stop)
    cmd = sys.argv[1]
    if cmd == "svg":
        svg_check(*sys.argv[2:6])
    elif cmd == "html":
        html_check(*sys.argv[2:5])
    elif cmd == "control":
        control_check(*sys.argv[2:4])
    else:
        sys.exit(f"unknown check {cmd}")
    sys.exit(1 if failed else 0)
