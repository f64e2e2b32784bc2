#!/usr/bin/env bash
# The web benchmark (BENCHMARKS.md "Web pages and GTK 4", issue 19), in one headless desktop
# session, for Chromium and Firefox ESR in turn, on a page of 5,000 links in 50 sections
# (bench/links-page.py):
#   - start to the first highlight (`switchscan run --desktop --app BROWSER` under umockdev), and to
#     the whole page (the page job's end);
#   - time to read what scanning needs of the whole page (`switchscan-bench page-read`) against a
#     pyatspi walk of the same document (walk-anchor.py --document), interleaved; target ≤ 0.3×;
#   - `tree stats` on `tree dump --desktop`: every link a scan item, `auto` grouping's average at
#     1 s per stop (target < 30 s) against linear scanning with page-by-page scrolling;
#   - a scroll by the Scroll page (a umockdev switch: menu, Scroll, Down or Up; each press waits for
#     the highlight before it, live_switch.py) to the new highlight, p50 / p99 over SCROLLS (100), and
#     a page change (the switch follows a link to the other of two pages) to the new page's first
#     highlight, over CHANGES (100) (the transcript's times);
#   - peak memory and idle CPU of switchscan with the browser open.
# SWITCHSCAN_BENCH_ONLY=soak: only the long run instead (memory and open descriptors of
# `run --desktop` over SOAK_MINUTES, default 30, of a page that changes every 100 ms, sampled
# every SOAK_INTERVAL s, default 10, the slope in MB/h; SOAK_APPS, default both browsers in turn;
# SOAK_PAGE=static: the same page, still); run it with nice -n 10 in the background.
# SWITCHSCAN_BENCH_STEPS (default 123456) and SWITCHSCAN_BENCH_APPS (default "Chromium Firefox")
# choose steps and browsers, SCROLLS and CHANGES the number of scrolls and page changes (web-inside.py).
# Usage: scripts/desktop-tests/bench-web.sh   (release build; about 35 minutes; the soak 30)
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/setup.sh --tests >/dev/null
swift build -c release --product switchscan 2>&1 | tail -1
swift build -c release --product switchscan-bench 2>&1 | tail -1
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d /tmp/switchscan-bench-web.XXXXXX)
trap 'rm -rf "$work"' EXIT
python3 scripts/desktop-tests/bench/links-page.py 50 100 > "$work/links.html"
cp scripts/desktop-tests/bench/changing-page.html "$work/changing.html"
# The page change's two pages (web-inside.py step 5): the 5,000 links with a link to B first, and a short B.
sed 's|<body>|<body><p><a href="flip-b.html">Page B</a></p>|' "$work/links.html" > "$work/flip-a.html"
printf '%s\n' '<!doctype html>' '<html lang="en"><head><meta charset="utf-8"><title>Page B</title></head><body><main>' \
  '<h1>Page B</h1><p><a href="flip-a.html">Page A</a></p>' '<ul><li><a href="#1">B item 1</a></li><li><a href="#2">B item 2</a></li><li><a href="#3">B item 3</a></li></ul>' \
  '</main></body></html>' > "$work/flip-b.html"
sed 's/setInterval(/void (/' scripts/desktop-tests/bench/changing-page.html > "$work/static.html"  # the soak's control: never changes
scripts/desktop-tests/run-desktop.sh /usr/bin/python3 scripts/desktop-tests/bench/web-inside.py "$bin" "$work"
