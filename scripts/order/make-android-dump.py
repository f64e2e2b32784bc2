#!/usr/bin/env python3
"""Build a large Android page source (Appium UiAutomator2 format) from the real dumps in
../shared/realdata/android, for the scan-order benchmark (issue 11 part 5). The generated file is
not committed: run this script to make it.

    make-android-dump.py [--nodes 300000] [--layout grid|column|stack|list] [-o OUT.xml] [DUMP.xml ...]

Each real screen's top node (everything under <hierarchy>) is copied again and again, in turn,
until the dump holds at least --nodes elements:

- grid (default): the copies tiled on a large canvas, 10 screens across (more when the canvas
  would otherwise be taller than the 1,000,000 points a tree may use), each copy's bounds moved
  by its tile's offset (a desktop-sized window of phone screens: containers side by side, rows of
  overlapping frames);
- column: the copies stacked one below the other (one very long scrolling page; past about 520
  screens it is taller than a tree may be, and the readers refuse it);
- stack: every copy at the same place (pages of a pager, fragments left in the tree: every frame
  overlaps its copies);
- list: the first real screen with a scrollable list: its first list is kept once and the items of every
  screen's lists are repeated inside it, moved down one below the other (one list of 10^5 rows;
  past 1,000,000 points tall the readers refuse it).

Attributes other than bounds are kept byte for byte; resource-ids repeat (as in real lists), so
the importer falls back to path-based ids for them.
"""
import argparse
import os
import re
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DIR = os.path.join(HERE, "..", "..", "..", "shared", "realdata", "android")
BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")


def moved(node, dx, dy):
    """A deep copy of `node` with every bounds attribute moved by (dx, dy)."""
    copy = ET.Element(node.tag, dict(node.attrib))
    b = BOUNDS.fullmatch(node.get("bounds", ""))
    if b:
        x1, y1, x2, y2 = (int(v) for v in b.groups())
        copy.set("bounds", "[%d,%d][%d,%d]" % (x1 + dx, y1 + dy, x2 + dx, y2 + dy))
    for child in node:
        copy.append(moved(child, dx, dy))
    return copy


def count(node):
    return 1 + sum(count(c) for c in node)


def first_list(node):
    if node.get("scrollable") == "true" and len(node) > 0:
        return node
    for c in node:
        found = first_list(c)
        if found is not None:
            return found
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nodes", type=int, default=300_000)
    ap.add_argument("--layout", choices=["grid", "column", "stack", "list"], default="grid")
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("dumps", nargs="*")
    a = ap.parse_args()
    paths = a.dumps or sorted(os.path.join(DEFAULT_DIR, f) for f in os.listdir(DEFAULT_DIR) if f.endswith(".xml"))
    screens = []
    for p in paths:
        h = ET.parse(p).getroot()
        w, ht = int(h.get("width", "1080")), int(h.get("height", "1920"))
        for top in h:
            screens.append((top, w, ht, count(top)))
    if not screens:
        sys.exit("make-android-dump: no screens in " + ", ".join(paths))

    tile_w = max(s[1] for s in screens)
    tile_h = max(s[2] for s in screens)
    # 10 screens across, or more when that many rows would pass the 1,000,000 points a tree file
    # may use (README "Limits of the readers"): the copies needed are counted first.
    copies, n_total = 0, 0
    while n_total < a.nodes:
        n_total += screens[copies % len(screens)][3]
        copies += 1
    rows_max = max(1, 1_000_000 // tile_h)
    cols = max(10, -(-copies // rows_max))
    root = ET.Element("hierarchy", {"index": "0", "class": "hierarchy", "rotation": "0"})
    total = 0
    k = 0
    if a.layout == "list":
        with_list = [s for s in screens if first_list(s[0]) is not None]
        if not with_list:
            sys.exit("make-android-dump: no screen has a scrollable list")
        base_screen = with_list[0]
        base = moved(base_screen[0], 0, 0)
        target = first_list(base)
        total = count(base)
        items = [c for s in screens for l in [first_list(s[0])] if l is not None for c in l]
        y = max(int(BOUNDS.fullmatch(c.get("bounds")).group(4)) for c in target)
        while total < a.nodes:
            item = items[k % len(items)]
            ib = BOUNDS.fullmatch(item.get("bounds")).groups()
            h = int(ib[3]) - int(ib[1])
            target.append(moved(item, 0, y - int(ib[1])))
            y += h
            total += count(item)
            k += 1
        root.append(base)
        width, height = base_screen[1], max(base_screen[2], y)
    else:
        while total < a.nodes:
            top, w, h, n = screens[k % len(screens)]
            if a.layout == "grid":
                dx, dy = (k % cols) * tile_w, (k // cols) * tile_h
            elif a.layout == "column":
                dx, dy = 0, k * tile_h
            else:
                dx, dy = 0, 0
            root.append(moved(top, dx, dy))
            total += n
            k += 1
        if a.layout == "grid":
            width, height = cols * tile_w, ((k + cols - 1) // cols) * tile_h
        elif a.layout == "column":
            width, height = tile_w, k * tile_h
        else:
            width, height = tile_w, tile_h
    root.set("width", str(width))
    root.set("height", str(height))
    ET.indent(root, "  ")
    out = sys.stdout.buffer if a.output == "-" else open(a.output, "wb")
    out.write(b"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n")
    ET.ElementTree(root).write(out, encoding="utf-8", xml_declaration=False)
    out.write(b"\n")
    if out is not sys.stdout.buffer:
        out.close()
    print("make-android-dump: %d nodes (%d copies, layout %s), %dx%d" % (total, k, a.layout, width, height), file=sys.stderr)


if __name__ == "__main__":
    main()
