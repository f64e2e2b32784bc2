#!/usr/bin/python3
"""Runs inside run-desktop.sh (see ../web-survey.sh): BIN URL|Chromium=URL|Firefox=URL... The mapping checked on pages that
are not the project's (docs/desktop.md "Applications tried"): for each page, in Chromium and in
Firefox ESR, what `tree dump --desktop` scans of the page against what pyatspi says the page holds.

Per page and browser it prints:
  - scan items in the page (the document's group), with a frame, without one (out of view);
  - framed items whose frame is not inside the viewport (the document's frame);
  - items listed twice (the same id) and pairs of items with the same label and frame (a link and
    its own text, a check box and its label: what the mapping must make one item);
  - unnamed items;
  - pyatspi's count of the document's nodes that are SHOWING, VISIBLE and FOCUSABLE (what a person
    can reach on screen), against switchscan's framed items: a difference is named node by node.
"""
import browsers, json, os, subprocess, sys, time
import pyatspi

bin_dir, urls = sys.argv[1], sys.argv[2:]
switchscan = bin_dir + "/switchscan"
root = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))
checker = root + "/Tests/SwitchDesktopTests/Fixtures/atspi-check.py"
work = os.environ.get("RUN_DESKTOP_DIR", "/tmp")

def sh(*argv, timeout=300):
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout)

def start(name, url):
    return browsers.start_browser(name, url, work + "/survey-" + name, checker)

def document_group(e):
    """The page's group: the first scrollable group (its frame is the viewport)."""
    if e.get("scrollable") and e.get("shouldGroupChildren"):
        return e
    for c in e.get("children", []):
        d = document_group(c)
        if d is not None:
            return d
    return None

def items(e, out):
    if e.get("isAccessibilityElement") and "staticText" not in e.get("traits", []) and "header" not in e.get("traits", []):
        out.append(e)
    for c in e.get("children", []):
        items(c, out)
    return out

def inside(f, v):
    return f[0] >= v[0] - 1 and f[1] >= v[1] - 1 and f[0] + f[2] <= v[0] + v[2] + 1 and f[1] + f[3] <= v[1] + v[3] + 1

def pyatspi_focusable(app_name):
    desktop = pyatspi.Registry.getDesktop(0)
    app = next((desktop.getChildAtIndex(i) for i in range(desktop.childCount) if desktop.getChildAtIndex(i).name == app_name), None)
    found = []
    def walk(n, in_doc):
        try:
            role, st = n.getRole(), n.getState()
        except Exception:
            return
        if role == pyatspi.ROLE_DOCUMENT_WEB and not st.contains(pyatspi.STATE_SHOWING):
            return
        in_doc = in_doc or role == pyatspi.ROLE_DOCUMENT_WEB
        if in_doc and all(st.contains(s) for s in (pyatspi.STATE_SHOWING, pyatspi.STATE_VISIBLE, pyatspi.STATE_FOCUSABLE)) \
                and role != pyatspi.ROLE_DOCUMENT_WEB:
            found.append("%s %r" % (n.getRoleName(), n.name))
        for i in range(n.childCount):
            c = n.getChildAtIndex(i)
            if c is not None:
                walk(c, in_doc)
    if app is not None:
        walk(app, False)
    return found

for arg in urls:
    # "Chromium=URL" / "Firefox=URL": that browser only (its own pages: chrome://settings, about:preferences).
    only, _, url = arg.partition("=") if arg.split("=", 1)[0] in ("Chromium", "Firefox") else ("", "", arg)
    for name in ("Chromium", "Firefox"):
        if only and name != only:
            continue
        b = start(name, url)
        time.sleep(6)  # the page's load and a whole read
        r = sh(switchscan, "tree", "dump", "--desktop", "--app", name)
        b_items = []
        try:
            dump = json.loads(r.stdout)
        except ValueError:
            print("%s %s: no dump (%s)" % (name, url, r.stderr.strip()[:200]))
            b.terminate(); b.wait()
            continue
        doc = document_group(dump["root"])
        if doc is None:
            print("%s %s: no page group" % (name, url))
            b.terminate(); b.wait()
            continue
        view = doc.get("frame")
        b_items = items(doc, [])
        framed = [i for i in b_items if i.get("frame")]
        outside = [i for i in framed if view and not inside(i["frame"], view)]
        ids = [i["id"] for i in b_items]
        twice = len(ids) - len(set(ids))
        pairs = {}
        for i in framed:
            pairs.setdefault((i.get("label"), tuple(i["frame"])), []).append(i)
        doubled = [k for k, v in pairs.items() if len(v) > 1]
        unnamed = [i for i in b_items if not i.get("label")]
        focusable = pyatspi_focusable(name)
        print("%s %s (%s): %d scan items in the page (%d framed, %d out of view); %d framed outside the viewport; "
              "%d listed twice; %d label+frame pairs doubled; %d unnamed; pyatspi: %d SHOWING+FOCUSABLE nodes"
              % (name, url, doc.get("label"), len(b_items), len(framed), len(b_items) - len(framed), len(outside), twice,
                 len(doubled), len(unnamed), len(focusable)))
        for i in outside[:5]:
            print("   outside the viewport %s: %s %s" % (view, i.get("label"), i["frame"]))
        for k in doubled[:5]:
            print("   doubled: %s" % (k,))
        for i in unnamed[:5]:
            print("   unnamed: %s %s" % (i.get("traits"), i.get("frame")))
        b.terminate()
        try:
            b.wait(timeout=20)
        except subprocess.TimeoutExpired:
            b.kill()
