#!/bin/sh
# Fuzz campaigns (docs/testing.md): build the libFuzzer targets of tests/fuzz with clang under
# AddressSanitizer and UndefinedBehaviorSanitizer in build-fuzz/, then run each named target
# (default: all) for SECONDS. New inputs go to build-fuzz/corpus/TARGET (the repository's
# tests/fuzz/corpus/TARGET and the extra seed directories are read, never written); an input
# that crashes, hangs (more than FUZZ_TIMEOUT seconds of wall time, default 30: the campaigns
# share the machine) or leaks is written to build-fuzz/artifacts/TARGET/ and the script exits 1.
# Run from the source root.
#   tools/fuzz.sh 60                     # CI: one minute per target
#   nice -n 10 tools/fuzz.sh 3600 deck   # a one-hour campaign of the deck reader
set -eu
seconds=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-deck beamdyn checkpoint}
build=build-fuzz
if [ ! -f "$build/build.ninja" ]; then
  CC=clang meson setup "$build" -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false \
    -Dopenmp=false -Dbench=false >/dev/null
fi
for t in $targets; do
  if ! ninja -C "$build" "tests/fuzz/fuzz_$t" >"$build/build_$t.log" 2>&1; then
    echo "fuzz: building $t FAILED (clang):"
    grep -E 'error|FAILED' "$build/build_$t.log" | head -n 20
    exit 1
  fi
done
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
status=0
for t in $targets; do
  mkdir -p "$build/corpus/$t" "$build/artifacts/$t"
  extra=""
  dict=""
  if [ "$t" = deck ]; then
    extra="input tests/decks"
    dict="-dict=tests/fuzz/deck.dict"
  fi
  # shellcheck disable=SC2086
  if ! "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-30}" -rss_limit_mb=2048 \
      -print_final_stats=1 $dict -artifact_prefix="$build/artifacts/$t/" \
      "$build/corpus/$t" "tests/fuzz/corpus/$t" "tests/fuzz/regressions/$t" $extra \
      >"$build/fuzz_$t.log" 2>&1; then
    echo "fuzz: $t FAILED: see $build/fuzz_$t.log and $build/artifacts/$t/"
    status=1
  fi
  # the closing counts of libFuzzer: executions, coverage, corpus
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/fuzz_$t.log" | tail -n 1)
  took=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$build/fuzz_$t.log" | tail -n 1)
  cov=$(grep -Eo 'cov: [0-9]+' "$build/fuzz_$t.log" | tail -n 1)
  ft=$(grep -Eo 'ft: [0-9]+' "$build/fuzz_$t.log" | tail -n 1)
  echo "fuzz: $t: ${runs:-?} executions in ${took:-?} s (of $seconds), ${cov:-cov: ?}, ${ft:-ft: ?}"
done
exit $status
