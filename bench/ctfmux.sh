#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# ctfmux.sh - merge N LTTng-UST traces (about 1 GB in total by default)
# with `ctfmux ! ctfsink` and report time and peak RSS (issue 5: 8 inputs
# of 1 GB in total, peak RSS under 64 MB).
#
# Usage: bench/ctfmux.sh [-n N] [-i ITERS] [-m MODE] [-B BUILD_DIR] [-o OUTDIR] [-k]
#   -n N      number of inputs (default 8)
#   -i ITERS  ustwork iterations per input (default 184000: ~128 MB each
#             with 1 MiB sub-buffers); inputs are recorded once with
#             ../shared/corpus/record-lttng-ust.sh (needs lttng-tools and a
#             lttng-sessiond, started here when none answers) and kept in
#             OUTDIR/inputs
#   -m MODE   ctfmux mode: packets (default), events, or both
#   -B DIR    meson build directory holding plugins/ (default: ./build)
#   -o DIR    inputs and output (default /tmp/gst-ctf-bench-ctfmux; keep it
#             out of the repository)
#   -k        keep the merged output (default: removed after each run)
#
# Each input is its own trace (own UUID), so ctfmux merges N trace classes
# and rewrites every packet header.  Peak RSS is /usr/bin/time's "Maximum
# resident set size"; the script exits 1 when it is 64 MB or more.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(dirname "$HERE")
N=8 ITERS=184000 MODE=packets BUILD="$SRC/build" OUTDIR=/tmp/gst-ctf-bench-ctfmux KEEP=0
while getopts n:i:m:B:o:kh opt; do
	case $opt in
	n) N=$OPTARG ;; i) ITERS=$OPTARG ;; m) MODE=$OPTARG ;; B) BUILD=$OPTARG ;;
	o) OUTDIR=$OPTARG ;; k) KEEP=1 ;;
	*) sed -n '4,22p' "$0"; exit 2 ;;
	esac
done
case $MODE in packets|events) MODES=$MODE ;; both) MODES="packets events" ;;
	*) echo "bad mode $MODE" >&2; exit 2 ;; esac
BUILD=$(cd "$BUILD" && pwd)
RECORD="$SRC/../shared/corpus/record-lttng-ust.sh"
export GST_PLUGIN_PATH="$BUILD/plugins" GST_REGISTRY="$OUTDIR/registry.bin"
export TZ=UTC LC_ALL=C
mkdir -p "$OUTDIR/inputs"

inputs=()
for k in $(seq 1 "$N"); do
	d="$OUTDIR/inputs/ust-$ITERS-$k"
	if [ ! -d "$d/custom-2cpu" ]; then
		[ -f "$RECORD" ] || { echo "missing $RECORD" >&2; exit 1; }
		lttng list >/dev/null 2>&1 || lttng-sessiond --daemonize
		echo "recording input $k/$N ($ITERS iterations) ..." >&2
		rm -rf "$d"
		bash "$RECORD" -o "$d" -k custom-2cpu -n "$ITERS" -s 1M -c 16 >/dev/null
	fi
	inputs+=("$d/custom-2cpu")
done
total=$(du -scb "${inputs[@]}" | tail -1 | cut -f1)
echo "inputs: $N traces, $((total / 1048576)) MiB in total"

status=0
for mode in $MODES; do
	out="$OUTDIR/merged-$mode"
	rm -rf "$out"
	args=(ctfmux name=m "mode=$mode" ! ctfsink "location=$out")
	for t in "${inputs[@]}"; do
		args+=(ctfsrc "location=$t" ! m.)
	done
	log="$OUTDIR/time-$mode.txt"
	/usr/bin/time -v gst-launch-1.0 -q "${args[@]}" 2>"$log" >/dev/null || {
		echo "gst-launch failed:" >&2; tail -5 "$log" >&2; exit 1; }
	wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$log")
	user=$(sed -n 's/.*User time (seconds): //p' "$log")
	sys=$(sed -n 's/.*System time (seconds): //p' "$log")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$log")
	outsz=$(du -sb "$out" | cut -f1)
	printf 'mode=%s: wall %s, user %ss, sys %ss, peak RSS %d MiB, output %d MiB\n' \
		"$mode" "$wall" "$user" "$sys" $((rss / 1024)) $((outsz / 1048576))
	if [ "$rss" -ge $((64 * 1024)) ]; then
		echo "  FAIL: peak RSS >= 64 MiB"
		status=1
	else
		echo "  ok: peak RSS < 64 MiB"
	fi
	[ "$KEEP" = 1 ] || rm -rf "$out"
done
exit $status
