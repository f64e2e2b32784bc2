#!/usr/bin/env bash
# suite-docs.sh: the manual's examples are run and its links resolved (issue 21; the conventions
# are in docs/README.md), one check per line, the last line "N passed, M failed".
#
#  1. The manual (README.md, docs/): every ```sh block runs, every ```console block prints what it
#     says, every `switchscan …` line (run or not) names real subcommands and options, every link
#     between pages resolves (#anchors included), links stay inside what is installed with the
#     manual, README.md has at most 250 lines and links every page, the headings of the README
#     before the split are all still headings, the README's picture is what the build draws now.
#  2. The checker itself, on fixtures (scripts/docs/fixtures/): a page that does everything right
#     passes; a page with one of each mistake (a failing example, wrong expected output, a wrong
#     exit status, a non-existent option and subcommand in a block that is not run, an unlabelled fence, bad JSON,
#     a link to a missing page, a missing anchor, a lost heading) fails with exactly those.
#
# Runs the examples with the debug build ($SWITCHSCAN_BIN_DIR, set by scripts/test.sh; else
# `swift build --show-bin-path`), needs python3 (scripts/apt/test-docs.list). A few seconds.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
HERE=scripts/docs
PASSED=0; FAILED=0
pass() { PASSED=$((PASSED + 1)); echo "ok   $1"; }
fail() { FAILED=$((FAILED + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && echo "$2" | sed 's/^/     /' | head -40; }
start=$SECONDS

BIN=${SWITCHSCAN_BIN_DIR:-}
if [ -z "$BIN" ]; then
  BIN=$(swift build --show-bin-path 2>/dev/null) || BIN=$ROOT/.build/debug
fi
if [ ! -x "$BIN/switchscan" ]; then
  echo "suite-docs: no switchscan in $BIN: building it" >&2
  swift build --product switchscan >&2 || { fail "swift build --product switchscan"; echo "$PASSED passed, $FAILED failed"; exit 1; }
fi
command -v python3 >/dev/null || { fail "python3 is missing (scripts/apt/test-docs.list)"; echo "$PASSED passed, $FAILED failed"; exit 1; }

# The summary line of a checker run, added to this suite's counts.
add_counts() {
  local line
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' <<<"$1" | tail -1)
  if [ -z "$line" ]; then fail "check_docs.py printed no summary line" "$1"; return; fi
  read -r p _ f _ <<<"$line"
  PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
}

# --- 1. The manual -------------------------------------------------------------------------------
out=$(python3 "$HERE/check_docs.py" --root "$ROOT" --bin "$BIN" \
  --headings "$HERE/headings.txt" \
  --max-lines README.md=250 \
  --index README.md \
  --installed README.md BENCHMARKS.md RELIABILITY.md docs \
  --generated "docs/pictures/demo-screen.svg=switchscan tree show Sources/switchscan/Demo/demo-tree.json --format svg 2>/dev/null" 2>&1)
grep -v -E '^[0-9]+ passed, [0-9]+ failed$' <<<"$out"
add_counts "$out"

# --- 2. The checker on its fixtures --------------------------------------------------------------
good=$(python3 "$HERE/check_docs.py" --root "$HERE/fixtures/good" --bin "$BIN" 2>&1)
if [ $? -eq 0 ] && ! grep -q '^FAIL' <<<"$good" && [ "$(grep -c '^ok' <<<"$good")" -ge 10 ]; then
  pass "fixtures/good: every check passes ($(grep -c '^ok' <<<"$good") checks: run, console with … and [2], no-run, synopsis, json, anchors)"
else
  fail "fixtures/good: every check passes" "$good"
fi

broken=$(python3 "$HERE/check_docs.py" --root "$HERE/fixtures/broken" --bin "$BIN" --headings "$HERE/fixtures/broken.headings" 2>&1)
status=$?
if [ "$status" -eq 1 ]; then
  pass "fixtures/broken: the checker exits with status 1"
else
  fail "fixtures/broken: the checker exits with status 1 (it exited with $status)" "$broken"
fi
# Each expected failure, and nothing else: the FAIL lines and their first detail line.
actual=$(awk '/^FAIL /{print; getline; if ($0 ~ /^     /) print}' <<<"$broken")
if diff <(cat "$HERE/fixtures/broken.expected") <(echo "$actual") > /dev/null; then
  pass "fixtures/broken: exactly the $(grep -c '^FAIL' "$HERE/fixtures/broken.expected") expected failures (failing example, wrong output, wrong exit status, unknown option not run, unlabelled fence, bad JSON, missing page, missing anchor, lost heading)"
else
  fail "fixtures/broken: exactly the expected failures" "$(diff <(cat "$HERE/fixtures/broken.expected") <(echo "$actual"))"
fi
for what in "exit status 2" "docs/missing.md: no such file" "#no-such-heading: no heading with the anchor" "has no option --grap" "has no subcommand shw" "has no option --colour"; do
  if grep -qF -- "$what" <<<"$broken"; then pass "fixtures/broken: reported: $what"; else fail "fixtures/broken: reported: $what" "$broken"; fi
done

echo "suite-docs: $((SECONDS - start)) s"
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
