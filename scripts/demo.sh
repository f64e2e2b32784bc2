#!/usr/bin/env bash
# The main job on the bundled default: the demo tree, profile and recorded switch session,
# replayed by the real engine on a virtual clock. Extra arguments go to `switchscan demo`
# (e.g. --format jsonl, --profile group-scanning).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --product switchscan >&2
exec .build/debug/switchscan demo "$@"
