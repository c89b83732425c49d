#!/bin/sh
# Sets everything up and runs the whole test suite: the build with warnings
# as errors, the tests, the tests again under AddressSanitizer +
# UndefinedBehaviorSanitizer, and each fuzz target for a short time.
# Tests that need ../shared/corpus skip with a message where it is absent.
# FUZZ_SECONDS=0 leaves the fuzz stage out. The fuzz stage is reproducible:
# each target runs FUZZ_RUNS inputs (default 20000) with libFuzzer seed
# FUZZ_SEED (default 1), so a run that passes here passes on any machine;
# FUZZ_SECONDS (default 300) only caps a target that is far too slow. FUZZ_SEED=0 takes a
# random seed, for hunting (scripts/fuzz-hunt.sh runs longer, in build-hunt).
# Between the sanitizer and fuzz stages the Debian packages are built,
# checked with lintian and tested installed in a clean Debian 12 root
# (scripts/test-packages.sh); TEST_PACKAGES=0 leaves that stage out.
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
FUZZ_SECONDS=${FUZZ_SECONDS:-300}
FUZZ_SEED=${FUZZ_SEED:-1}
FUZZ_RUNS=${FUZZ_RUNS:-20000}

echo "== build (werror) and tests"
rm -rf build-ci
meson setup build-ci -Dwerror=true -Dtests=enabled >/dev/null
ninja -C build-ci
meson test -C build-ci --print-errorlogs

echo "== tests under AddressSanitizer + UndefinedBehaviorSanitizer"
rm -rf build-asan
meson setup build-asan -Db_sanitize=address,undefined -Db_lundef=false \
  -Dtests=enabled >/dev/null
ninja -C build-asan
# intercept_strstr=0: ASan's strstr check takes strlen of the haystack on
# every call, which makes g_strsplit quadratic on the multi-MB oracle files.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:intercept_strstr=0 \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  meson test -C build-asan --print-errorlogs

if [ "${TEST_PACKAGES:-1}" != 0 ]; then
  echo "== Debian packages: built, lintian, installed in a clean Debian 12 root"
  sh scripts/test-packages.sh
fi

if [ "$FUZZ_SECONDS" -eq 0 ]; then
  echo "== all tests passed (fuzz targets not run: FUZZ_SECONDS=0)"
  exit 0
fi

echo "== fuzz targets, ${FUZZ_RUNS} inputs each (seed $FUZZ_SEED, at most ${FUZZ_SECONDS}s)"
rm -rf build-fuzz
CC=clang meson setup build-fuzz -Dfuzzing=true -Dtests=disabled \
  -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
ninja -C build-fuzz
for f in build-fuzz/tests/fuzz/fuzz-*; do
  [ -f "$f" ] && [ -x "$f" ] || continue
  name=$(basename "$f")
  mkdir -p "build-fuzz/corpus-$name"
  seeds="tests/fuzz/seeds/${name#fuzz-}"
  [ -d "$seeds" ] || seeds=
  echo "-- $name"
  # quarantine_size_mb: ASan keeps 256 MiB of freed memory by default,
  # which counts in the 512 MiB RSS limit (fuzz-filter, hundreds of
  # thousands of small allocations a minute, reached it with 24 MiB live)
  if ! ASAN_OPTIONS=quarantine_size_mb=64 \
      "$f" -seed="$FUZZ_SEED" -runs="$FUZZ_RUNS" \
      -max_total_time="$FUZZ_SECONDS" -rss_limit_mb=512 -timeout=10 \
      -artifact_prefix=build-fuzz/ \
      "build-fuzz/corpus-$name" $seeds > "build-fuzz/$name.log" 2>&1; then
    tail -n 60 "build-fuzz/$name.log"
    echo "$name found a crash, a leak of time or memory: see above" >&2
    exit 1
  fi
  tail -n 2 "build-fuzz/$name.log"
done
echo "== all tests passed"
