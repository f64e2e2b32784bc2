#!/usr/bin/python3
"""Pixel checks on screenshots (PNG, python3-pil) for the Wayland tests:

  ring_check.py ring BEFORE.png AFTER.png X Y W H LINEWIDTH #RRGGBB [DASH_ON DASH_OFF]
      A ring drawn on rect (X, Y, W, H) with its stroke inside the rect: in AFTER, every pixel of
      the band LINEWIDTH wide just inside the rect's edge is the colour (with a dash, the "on"
      share of each side is, within a pixel per dash), and everything inside the band and the
      LINEWIDTH+4 px around the rect is as in BEFORE (the scene without the ring).
  ring_check.py edges SHOT.png X Y W H
      The rect is a widget's true border box: along the middle half of each side, the line just
      inside differs from the line just outside, and the two lines outside are alike (background,
      or a soft shadow: less than a third of the edge's difference). A rect one pixel too large
      (no edge) or too small (the border itself outside) fails.
Both print one line ("ok: ..." or what failed, with numbers) and exit 0 or 1.
"""
import sys

from PIL import Image

# Mean channel difference (0-255) that counts as "different" and as "alike".
DIFFERENT = 18
ALIKE = 8


def parse_color(text):
    text = text.lstrip("#")
    return tuple(int(text[i:i + 2], 16) for i in (0, 2, 4))


def near(a, b, tolerance=2):
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def ring(before, after, x, y, w, h, lw, color, dash=None):
    """(ok, message) for a ring on (x, y, w, h) with stroke width lw inside the rect."""
    before, after = before.convert("RGB"), after.convert("RGB")
    pb, pa = before.load(), after.load()
    band, wrong_band, changed_inside, changed_outside = 0, 0, 0, 0
    margin = lw + 4
    for yy in range(max(0, y - margin), min(after.height, y + h + margin)):
        for xx in range(max(0, x - margin), min(after.width, x + w + margin)):
            inside_rect = x <= xx < x + w and y <= yy < y + h
            inside_inner = x + lw <= xx < x + w - lw and y + lw <= yy < y + h - lw
            if inside_rect and not inside_inner:
                band += 1
                if not near(pa[xx, yy], color):
                    wrong_band += 1
            elif pa[xx, yy] != pb[xx, yy]:
                if inside_inner:
                    changed_inside += 1
                else:
                    changed_outside += 1
    expected_wrong = 0
    if dash:
        on, off = dash
        # Along the ring's centre line the dash pattern turns at the corners; count the "off" share.
        expected_wrong = band * off / (on + off)
        ok_band = abs(wrong_band - expected_wrong) <= band * 0.08
    else:
        ok_band = wrong_band == 0
    ok = ok_band and changed_inside == 0 and changed_outside == 0
    message = ("band %d px, %d not the colour%s; changed inside %d, outside %d"
               % (band, wrong_band, " (expected about %d, dashed)" % expected_wrong if dash else "",
                  changed_inside, changed_outside))
    return ok, message


def _mean_diff(img, line_a, line_b):
    total = 0
    for pa, pb in zip(line_a, line_b):
        a, b = img[pa], img[pb]
        total += sum(abs(p - q) for p, q in zip(a, b)) / 3
    return total / max(1, len(line_a))


def edges(shot, x, y, w, h):
    """(ok, message): each side of (x, y, w, h) is where the widget meets the background."""
    px = shot.convert("RGB").load()
    xs = range(x + w // 4, x + 3 * w // 4)
    ys = range(y + h // 4, y + 3 * h // 4)
    sides = {
        "left": ([(x, v) for v in ys], [(x - 1, v) for v in ys], [(x - 2, v) for v in ys]),
        "right": ([(x + w - 1, v) for v in ys], [(x + w, v) for v in ys], [(x + w + 1, v) for v in ys]),
        "top": ([(u, y) for u in xs], [(u, y - 1) for u in xs], [(u, y - 2) for u in xs]),
        "bottom": ([(u, y + h - 1) for u in xs], [(u, y + h) for u in xs], [(u, y + h + 1) for u in xs]),
    }
    ok, notes = True, []
    for side, (inner, outer, outer2) in sides.items():
        edge, background = _mean_diff(px, inner, outer), _mean_diff(px, outer, outer2)
        good = edge >= DIFFERENT and background <= max(ALIKE, edge / 3)
        ok &= good
        notes.append("%s %s (edge %.0f, outside %.0f)" % (side, "ok" if good else "WRONG", edge, background))
    return ok, ", ".join(notes)


def main(argv):
    try:
        if argv and argv[0] == "ring" and len(argv) in (9, 11):
            x, y, w, h, lw = (int(v) for v in argv[3:8])
            dash = (float(argv[9]), float(argv[10])) if len(argv) == 11 else None
            ok, message = ring(Image.open(argv[1]), Image.open(argv[2]), x, y, w, h, lw, parse_color(argv[8]), dash)
        elif argv and argv[0] == "edges" and len(argv) == 6:
            ok, message = edges(Image.open(argv[1]), *(int(v) for v in argv[2:6]))
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except (OSError, ValueError) as e:
        print("ring_check: %s" % e, file=sys.stderr)
        return 2
    print(("ok: " if ok else "") + message)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
