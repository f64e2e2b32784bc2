#!/usr/bin/python3
"""The desktop tests' independent view of an application, through pyatspi (Debian's
/usr/bin/python3 with python3-pyatspi), not through switchscan's own reader:

  atspi-check.py wait APP [SECS]   until APP is on the bus and its tree stopped growing (three equal
                                   node counts 50 ms apart); exit 1 on timeout
  atspi-check.py state APP [--visible]
                                   one JSON object per named (or editable) node that is showing, in order:
                                   {"name", "role", "states": [...], "value": number|null,
                                    "text": str|null (an editable node's or a terminal's),
                                    "selected": a combo box's selected option};
                                   the application's windows included;
                                   --visible: VISIBLE is enough (GTK 4.8 sets no SHOWING below
                                   its windows)
  atspi-check.py apps              the applications' names, one per line
"""
import json, sys, time
import pyatspi

def app_named(name):
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        a = desktop.getChildAtIndex(i)
        if a is not None and a.name == name:
            return a
    return None

def count(node):
    n = 1
    for i in range(node.childCount):
        c = node.getChildAtIndex(i)
        if c is not None:
            n += count(c)
    return n

def wait(name, secs):
    end = time.time() + secs
    app = None
    while app is None:
        if time.time() > end:
            return 1
        app = app_named(name)
        if app is None:
            time.sleep(0.05)
    last, stable = -1, 0
    while stable < 3 and time.time() < end:
        n = count(app)
        stable = stable + 1 if n == last else 0
        last = n
        time.sleep(0.05)
    return 0 if stable >= 3 else 1

def selected_option(node):
    """A combo box's option with SELECTED (a web page's select: shown or not)."""
    for i in range(node.childCount):
        c = node.getChildAtIndex(i)
        if c is None:
            continue
        if c.getRole() in (pyatspi.ROLE_MENU_ITEM, pyatspi.ROLE_LIST_ITEM) and c.getState().contains(pyatspi.STATE_SELECTED):
            return c.name
        found = selected_option(c)
        if found is not None:
            return found
    return None

def state(name, visible_is_enough=False):
    app = app_named(name)
    if app is None:
        print("no application %s" % name, file=sys.stderr)
        return 2
    def visit(node):
        states = node.getState()
        showing = states.contains(pyatspi.STATE_SHOWING) or (visible_is_enough and states.contains(pyatspi.STATE_VISIBLE))
        editable = states.contains(pyatspi.STATE_EDITABLE)
        if (node.name or editable) and (showing or node.getRole() in (pyatspi.ROLE_FRAME, pyatspi.ROLE_DIALOG)):
            value = text = None
            try:
                value = node.queryValue().currentValue
            except NotImplementedError:
                pass
            try:
                if editable or node.getRole() == pyatspi.ROLE_TERMINAL:
                    text = node.queryText().getText(0, -1)
            except NotImplementedError:
                pass
            out = {"name": node.name, "role": node.getRoleName(),
                   "states": sorted(pyatspi.stateToString(s) for s in states.getStates()),
                   "value": value, "text": text}
            if node.getRole() == pyatspi.ROLE_COMBO_BOX:
                out["selected"] = selected_option(node)
            print(json.dumps(out))
        if showing or node.getRole() == pyatspi.ROLE_APPLICATION:
            for i in range(node.childCount):
                c = node.getChildAtIndex(i)
                if c is not None:
                    visit(c)
    visit(app)
    return 0

def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "wait":
        return wait(sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 20)
    if cmd == "state":
        return state(sys.argv[2], "--visible" in sys.argv[3:])
    if cmd == "apps":
        d = pyatspi.Registry.getDesktop(0)
        for i in range(d.childCount):
            a = d.getChildAtIndex(i)
            if a is not None:
                print(a.name)
        return 0
    print(__doc__, file=sys.stderr)
    return 2

if __name__ == "__main__":
    sys.exit(main())
