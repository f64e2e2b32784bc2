# Shared by the fuzz scripts (sourced): the targets, their dictionaries and input sizes, and the
# seed corpus of each, gathered from files the repository already has (test fixtures, bundled
# profiles and demo files) plus the small committed seeds and crash reproducers in Fuzz/seeds/.
FUZZ_TARGETS=(tree import profile evemu libinput picture words layout person)

# The largest input libFuzzer makes for a target (seeds above it are read truncated).
fuzz_max_len() {
  case "$1" in
    tree|import|picture) echo 65536 ;;
    profile|layout|person) echo 8192 ;;
    evemu|libinput) echo 32768 ;;
    words) echo 16384 ;;
  esac
}

# The seed files of a target, one path a line.
fuzz_seeds() {
  local fx=Tests/SwitchFormatsTests/Fixtures
  case "$1" in
    tree)
      ls Sources/switchscan/Demo/*.json Tests/SwitchInputTests/Fixtures/tree.json scripts/device-tests/vm-tree.json
      ;;
    picture)
      # The tree target's inputs (the picture target draws what it reads), and the native trees
      # of issue 22's bad inputs (huge screens and frames, escapes in labels).
      fuzz_seeds tree | grep -v '^Fuzz/seeds/tree/'
      ls Tests/CLITests/BadInput/*.json
      ;;
    import)
      find "$fx/import/handmade" "$fx/import/realdata" -type f \( -name '*.xml' -o -name '*.json' -o -name '*.txt' \)
      ls Sources/switchscan/Demo/demo-tree.json
      ;;
    profile)
      ls Profiles/*.json Sources/switchscan/Demo/demo-profile.json Tests/SwitchInputTests/Fixtures/profile-*.json
      ;;
    evemu)
      find "$fx/recordings/evemu-devices" "$fx/recordings/xorg-integration-tests" -type f
      ls Sources/switchscan/Demo/*.evemu
      ;;
    libinput)
      find "$fx/recordings/libinput-record" -type f
      ;;
    person)
      # The simulated people of the benchmarks and the bad person files of the tests
      # (Fuzz/seeds/person/: the extremes of every range and values refused).
      ls Benchmarks/people/*.json
      ;;
    words)
      # The learned-words files of issue 32's bad inputs are in Fuzz/seeds/words/ (below).
      ;;
    layout)
      ls Keyboards/*.json
      ;;
  esac
  [ -d "Fuzz/seeds/$1" ] && find "Fuzz/seeds/$1" -type f
  return 0
}

# Copies a target's seeds into a directory (created).
fuzz_gather_seeds() {
  local target=$1 dir=$2
  mkdir -p "$dir"
  fuzz_seeds "$target" | while read -r f; do
    [ -f "$f" ] && cp "$f" "$dir/$(echo "$f" | tr '/' '_')"
  done
}

# The environment every fuzz run gets: Swift's backtracer off (AddressSanitizer reports the
# crash), leak checking off (the Swift runtime's caches look like leaks to it).
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}

# The dictionary of a target: its own, or the tree's for the picture target (same inputs).
fuzz_dict() {
  case "$1" in
    picture) echo Fuzz/dict/tree.dict ;;
    *) echo "Fuzz/dict/$1.dict" ;;
  esac
}

# libFuzzer's options for a target: dictionary, input size, a 10 s hang limit, 2 GB of memory.
fuzz_options() {
  echo "-dict=$(fuzz_dict "$1") -max_len=$(fuzz_max_len "$1") -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 -detect_leaks=0 -print_final_stats=1"
}
