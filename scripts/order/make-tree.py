#!/usr/bin/env python3
"""Write a large native tree file (JSON) for the scan-order benchmark (issue 11 part 5). The
generated files are not committed: run this script to make them.

    make-tree.py row N -o OUT.json     N buttons in one ragged row (tops 0-3, heights 40-42; 10 points
                                       wide, narrower past 100,000 so x stays within 1,000,000)
    make-tree.py deep N -o OUT.json    nested containers as deep as the JSON reader allows
                                       (250 levels), N buttons spread over the levels; every
                                       container has its own frame and a custom action, so
                                       every level is a group and every item inherits 250 actions

The row is the shape where the pairwise row test was quadratic; the deep tree is the shape where
group paths and inherited container actions were stored per item (quadratic in the depth).
"""
import argparse
import json
import sys

DEPTH = 250  # the JSON reader stops at 512 nesting levels; a level here is an object and an array


def button(k, x, y, w, h):
    return {"id": "b%d" % k, "label": "Item %d" % k, "traits": ["button"], "frame": [x, y, w, h]}


def row(n):
    # 10 points a button, narrower past 100,000 buttons: every coordinate stays within the
    # 1,000,000 points a tree file may use (README "Limits of the readers").
    w = max(1, min(10, 1_000_000 // max(n, 1)))
    kids = [button(k, k * w, k % 4, w, 40 + k % 3) for k in range(n)]
    return {"screen": {"width": 1000, "height": 1000},
            "root": {"id": "root", "frame": [0, 0, 1000, 1000], "children": kids}}


def deep(n):
    per = max(1, n // DEPTH)
    k = 0
    inner = None
    for d in range(DEPTH - 1, -1, -1):
        kids = []
        for j in range(per):
            kids.append(button(k, j * 10, d * 50, 10, 40))
            k += 1
        if inner is not None:
            kids.append(inner)
        inner = {"id": "c%d" % d, "label": "Level %d" % d, "customActions": [{"name": "Action %d" % d}],
                 "frame": [0, d * 50, 10 * per + DEPTH - d, (DEPTH - d) * 50], "children": kids}
    return {"screen": {"width": 1000, "height": 1000}, "root": inner}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("shape", choices=["row", "deep"])
    ap.add_argument("n", type=int)
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args()
    tree = row(a.n) if a.shape == "row" else deep(a.n)
    out = sys.stdout if a.output == "-" else open(a.output, "w")
    json.dump(tree, out, separators=(",", ":"))
    out.write("\n")


if __name__ == "__main__":
    main()
