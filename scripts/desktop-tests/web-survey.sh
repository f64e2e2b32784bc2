#!/usr/bin/env bash
# The web mapping checked on pages that are not the project's (issue 19: "do not tune it to these
# pages"; docs/desktop.md "Applications tried"), by hand, not in CI: each page in Chromium and
# Firefox ESR in one headless desktop, `tree dump --desktop` against pyatspi
# (bench/web-survey-inside.py says what is counted). Default pages: documentation Debian installs
# (a long policy document, a library's API reference with a side bar) and each browser's own
# settings (web applications: chrome://settings, about:preferences).
# Usage: scripts/desktop-tests/web-survey.sh [URL|Chromium=URL|Firefox=URL ...]   (debug build)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${SWITCHSCAN_BIN_DIR:-$(swift build --show-bin-path)}
[ $# -gt 0 ] || set -- file:///usr/share/doc/python3/python-policy.html file:///usr/share/doc/libjs-underscore/index.html \
  Chromium=chrome://settings Firefox=about:preferences
exec scripts/desktop-tests/run-desktop.sh /usr/bin/python3 scripts/desktop-tests/bench/web-survey-inside.py "$bin" "$@"
