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
# SwiftPM keeps the build plan of this nested package across builds and does not notice a source
# file added to the main package's modules: drop the plan so it is made again (a few seconds).
rm -f "Fuzz/.build/$config.yaml"
# Nor does it rebuild a fuzz target whose own source is unchanged when a type of the main package
# it uses changed its layout (a stale object then overflows its stack buffer for the old size:
# RELIABILITY.md, campaign 4, and issue 32's fuzz-words). The targets are one small file each:
# always compiled afresh.
rm -rf Fuzz/.build/*/"$config"/fuzz_*.build Fuzz/.build/*/"$config"/FuzzSupport.build
swift build --package-path Fuzz -c "$config" "${flags[@]}" >&2
swift build --package-path Fuzz -c "$config" "${flags[@]}" --show-bin-path
