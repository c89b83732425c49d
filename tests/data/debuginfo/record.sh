#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# record.sh - build the debug-info workload (src/) in /tmp/gst-ctf-debuginfo
# and record it with LTTng-UST (contexts vpid, vtid, ip; libc wrapper,
# liblttng-ust-dl, statedump), for ctfdebuginfo's tests and benchmark.
#
# Usage (root): bench/with-sessiond.sh -- tests/data/debuginfo/record.sh OUT [N [SUBBUF]]
#   OUT  trace directory to create (must not exist); N: loop count (3),
#   each loop of each process gives 3 events with an ip in the workload;
#   SUBBUF: sub-buffer (packet) size (4k)
#
# Processes, each pinned to CPU 0 (one stream: no cross-stream order):
#   app LIB       PIE, -g, dlopens libdi.so (-g) and calls it
#   app-bid       PIE, stripped; its DWARF in debug/.build-id/XX/YYYY.debug
#   app-link      non-PIE, stripped, .gnu_debuglink to .debug/app-link.debug
#   app-symtab    PIE, strip -g: ELF symbols only
# The binaries stay in /tmp/gst-ctf-debuginfo (the paths the trace names);
# tests copy them below a target prefix (tests/data/debuginfo/target).
set -euo pipefail
OUT=${1:?need OUT}; N=${2:-3}; SUBBUF=${3:-4k}
SRC=$(cd "$(dirname "$0")/src" && pwd)
W=/tmp/gst-ctf-debuginfo
[ -e "$OUT" ] && { echo "$OUT exists" >&2; exit 1; }
rm -rf "$W"; mkdir -p "$W/.debug" "$W/debug"
cp "$SRC"/*.c "$SRC"/*.h "$W"/
cd "$W"
CC="gcc -g -O0 -Wall -I."
$CC -c -fPIC di_tp.c
$CC -fPIC -shared -o libdi.so lib.c
$CC -o app app.c di_tp.o -llttng-ust -ldl
$CC -DDI_NAME='"app-bid"' -o app-bid app.c di_tp.o -llttng-ust -ldl
$CC -no-pie -DDI_NAME='"app-link"' -o app-link app.c di_tp.o -llttng-ust -ldl
$CC -DDI_NAME='"app-symtab"' -o app-symtab app.c di_tp.o -llttng-ust -ldl
# app-bid: separate debug file found by build id
id=$(readelf -n app-bid | awk '/Build ID/ {print $3}')
mkdir -p "debug/.build-id/${id:0:2}"
objcopy --only-keep-debug app-bid "debug/.build-id/${id:0:2}/${id:2}.debug"
strip --strip-all app-bid
# app-link: separate debug file found by debug link
objcopy --only-keep-debug app-link .debug/app-link.debug
strip --strip-all app-link
objcopy --add-gnu-debuglink=.debug/app-link.debug app-link
strip -g app-symtab
rm -f ./*.o

lttng create "di-$$" --output="$OUT" >/dev/null
lttng enable-channel -u --subbuf-size="$SUBBUF" --num-subbuf=16 --blocking-timeout=inf chan >/dev/null
lttng enable-event -u -c chan 'lttng_ust_statedump:*,lttng_ust_dl:*,lttng_ust_lib:*,di_app:*' >/dev/null
# the workload's allocations only (lttng-ust's own are many)
lttng enable-event -u -c chan lttng_ust_libc:malloc --filter 'size >= 64 && size < 128' >/dev/null
lttng enable-event -u -c chan lttng_ust_libc:calloc --filter 'size >= 16 && size < 48' >/dev/null
lttng add-context -u -c chan -t vpid -t vtid -t ip >/dev/null
lttng start >/dev/null
export LTTNG_UST_ALLOW_BLOCKING=1
export LD_PRELOAD="liblttng-ust-libc-wrapper.so liblttng-ust-dl.so"
taskset -c 0 ./app "$W/libdi.so" "$N" >/dev/null
taskset -c 0 ./app-bid "" "$N" >/dev/null
taskset -c 0 ./app-link "" "$N" >/dev/null
taskset -c 0 ./app-symtab "" "$N" >/dev/null
unset LD_PRELOAD
lttng stop >/dev/null
lttng destroy >/dev/null
