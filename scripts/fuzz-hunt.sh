#!/bin/sh
# Hunts with the fuzz targets: each one (or those named) for SECONDS
# (default 600) with a random libFuzzer seed, keeping what it learns in
# build-hunt/corpus-NAME between runs. Crashes are written to
# build-hunt/crash-*; a reproducer becomes a seed in tests/fuzz/seeds/NAME
# with the fix. test-all.sh runs the same targets reproducibly (fixed seed).
#   sh scripts/fuzz-hunt.sh [SECONDS [fuzz-NAME ...]]
set -eu
cd "$(dirname "$0")/.."
secs=${1:-600}
[ $# -gt 0 ] && shift
if [ ! -d build-hunt ]; then
  CC=clang meson setup build-hunt -Dfuzzing=true -Dtests=disabled \
    -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi
ninja -C build-hunt
targets=${*:-$(cd build-hunt/tests/fuzz && ls fuzz-* | grep -v '\.p$')}
status=0
for name in $targets; do
  f=build-hunt/tests/fuzz/$name
  [ -f "$f" ] && [ -x "$f" ] || continue
  mkdir -p "build-hunt/corpus-$name"
  seeds="tests/fuzz/seeds/${name#fuzz-}"
  [ -d "$seeds" ] || seeds=
  echo "-- $name, ${secs}s"
  if ! ASAN_OPTIONS=quarantine_size_mb=64 \
      "$f" -max_total_time="$secs" -rss_limit_mb=512 -timeout=10 \
      -artifact_prefix=build-hunt/ \
      "build-hunt/corpus-$name" $seeds > "build-hunt/$name.log" 2>&1; then
    grep -E "ERROR|SUMMARY|assert|Test unit" "build-hunt/$name.log" | head
    status=1
  fi
  tail -n 1 "build-hunt/$name.log"
done
exit $status
