#!/usr/bin/env bash
# suite-packages.sh: every program the tests, the scripts and the docs' examples call comes from a
# Debian package the scripts install (issue 32), one check per line, the last line
# "N passed, M failed" (scripts/test.sh adds it to the total).
#
#  1. The project: scripts/packages/programs.py check finds the calls in the files (Swift, Python,
#     shell, the docs' examples) and holds each to scripts/apt/programs.txt: its package is in a
#     scripts/apt/*.list or is Essential/required, the program is here, dpkg -S agrees, no row is
#     stale. A fresh CI machine has nothing else, so a program from any other package would fail
#     or skip a test there while passing on a developer's machine.
#  2. The checker itself, on a fixture project (scripts/packages/fixtures/fresh): calls of every
#     kind it must find (a path in Swift, subprocess in Python, a command in a pipeline, in $( ),
#     after `timeout 5`, in `bash -c '…'`, `command -v X`), and words it must not take for programs
#     (a heredoc's body, a function, a case pattern, an array's words, a redirection), checked
#     against the exact lines it prints; and `programs.py missing` says "missing: PROGRAM (Debian
#     package P)".
# Needs python3 (scripts/apt/test-docs.list) and dpkg-query. A few seconds.
set -uo pipefail
cd "$(dirname "$0")/../.."
HERE=scripts/packages
PASSED=0; FAILED=0
pass() { PASSED=$((PASSED + 1)); echo "ok   $1"; }
fail() { FAILED=$((FAILED + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && echo "$2" | sed 's/^/     /' | head -40; }
PY=/usr/bin/python3
[ -x "$PY" ] || { fail "missing: python3 (Debian package python3)"; echo "$PASSED passed, $FAILED failed"; exit 1; }

# 1. The project.
out=$("$PY" "$HERE/programs.py" check 2>&1)
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' <<<"$out" | tail -1)
if [ -z "$line" ]; then
  fail "programs.py check printed no summary line" "$out"
else
  grep -E '^FAIL ' <<<"$out"
  read -r p _ f _ <<<"$line"
  PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
  echo "programs: $p found and from installed packages, $f not"
fi

# 2. The checker on the fixture: exactly these lines.
fixture=$HERE/fixtures/fresh
got=$("$PY" "$HERE/programs.py" check --root "$fixture" 2>&1 | sed -E 's/^ok   ([^:]+):.*/ok   \1/')
if diff <(cat "$fixture/expected.txt") <(echo "$got") >/dev/null; then
  pass "the checker on a fixture project finds every kind of call, and nothing else, with the reasons"
else
  fail "the checker on a fixture project finds every kind of call, and nothing else, with the reasons" \
    "$(diff "$fixture/expected.txt" <(echo "$got"))"
fi
fake=/usr/bin/no-such-program  # (in a variable: not a program this suite calls)
got=$("$PY" "$HERE/programs.py" missing --root "$fixture" "$fake" sh 2>&1); rc=$?
want='missing: no-such-program (Debian package no-such-package)'
if [ "$rc" = 1 ] && [ "$got" = "$want" ]; then
  pass "programs.py missing names the Debian package of a program that is not here, and nothing that is"
else
  fail "programs.py missing names the Debian package of a program that is not here, and nothing that is" "status $rc: $got"
fi

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
