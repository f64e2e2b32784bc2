#!/usr/bin/env python3
"""Write an evemu recording of N presses of one key (Space by default) for the reliability
benchmarks (issue 22): `simulate --report` and `calibrate` on a million presses. Not committed:
run this script to make it.

    make-presses.py N [-o OUT.evemu] [--every SECONDS] [--hold SECONDS]

Press k goes down at k * every + 0.5 s and up `hold` later, each edge followed by its SYN_REPORT;
one in seven presses bounces (a second down 8 ms after the release), so the filters have work.
"""
import argparse
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", type=int)
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--every", type=float, default=1.0)
    ap.add_argument("--hold", type=float, default=0.15)
    a = ap.parse_args()
    out = sys.stdout if a.output == "-" else open(a.output, "w")
    lines = []
    for k in range(a.n):
        t = k * a.every + 0.5
        u = t + a.hold
        lines.append("E: %.6f 0001 0039 1\nE: %.6f 0000 0000 0\nE: %.6f 0001 0039 0\nE: %.6f 0000 0000 0\n" % (t, t, u, u))
        if k % 7 == 3:
            b = u + 0.008
            lines.append("E: %.6f 0001 0039 1\nE: %.6f 0000 0000 0\nE: %.6f 0001 0039 0\nE: %.6f 0000 0000 0\n" % (b, b, b + 0.004, b + 0.004))
        if len(lines) >= 10000:
            out.write("".join(lines))
            lines = []
    out.write("".join(lines))
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
