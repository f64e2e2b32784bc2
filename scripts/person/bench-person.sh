#!/bin/sh
# Issue 31's benchmarks (BENCHMARKS.md "The person's own timing"): every simulated person of
# Benchmarks/people swept over fixed scan times, set up by `setup --person`, and adapted from
# 1.0 s by adaptive timing; then the tables. Needs a release build (built here when missing).
#   scripts/person/bench-person.sh [PEOPLE…]        results in .build/bench-person/, tables on stdout
set -eu
cd "$(dirname "$0")/../.."
[ -x .build/release/switchscan ] || swift build -c release --product switchscan >&2
exec python3 scripts/person/bench_person.py "$@"
