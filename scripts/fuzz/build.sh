#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ (every reader of outside bytes) with AddressSanitizer:
#   scripts/fuzz/build.sh            release build (-O), for the smoke runs and long campaigns
#   scripts/fuzz/build.sh debug      debug build (slower to run, easier to read in a debugger)
# Prints the directory holding the fuzz-* executables on its last line.
set -euo pipefail
cd "$(dirname "$0")/../.."
config="${1:-release}"
flags=(-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
       -Xcc -fsanitize=fuzzer-no-link,address)
swift build --package-path Fuzz -c "$config" "${flags[@]}" >&2
swift build --package-path Fuzz -c "$config" "${flags[@]}" --show-bin-path
