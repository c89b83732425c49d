#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tracedat.sh - benchmark `tracecmdsrc ! ctfsink` against
# `trace-cmd report > /dev/null` on a large trace.dat (issue 4).
#
# Usage: bench/tracedat.sh [-i FILE.dat] [-r ROUNDS] [-B BUILD_DIR] [-o OUTDIR]
#   -i FILE   the trace.dat to convert (default: OUTDIR/big.dat, recorded
#             once with ../shared/corpus/record-tracedat.sh when missing:
#             needs root and tracefs; about 140 MB, v7 uncompressed)
#   -r N      rounds (default 3); the two commands run alternately, and the
#             medians are reported
#   -B DIR    meson build directory holding plugins/ (default: ./build)
#   -o DIR    where the input and the CTF output go (default:
#             /tmp/gst-ctf-bench-tracedat; keep it out of the repository)
#
# Reports wall time and CPU time (user + sys) of both commands, their
# ratios, and peak RSS (/usr/bin/time -v "Maximum resident set size").
# The machine load is printed too: with other jobs running, wall-time
# ratios move, CPU-time ratios much less.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(dirname "$HERE")
IN= ROUNDS=3 BUILD="$SRC/build" OUTDIR=/tmp/gst-ctf-bench-tracedat
while getopts i:r:B:o:h opt; do
	case $opt in
	i) IN=$OPTARG ;; r) ROUNDS=$OPTARG ;; B) BUILD=$OPTARG ;; o) OUTDIR=$OPTARG ;;
	*) sed -n '4,20p' "$0"; exit 2 ;;
	esac
done
mkdir -p "$OUTDIR"
[ -n "$IN" ] || IN="$OUTDIR/big.dat"
if [ ! -f "$IN" ]; then
	REC="$SRC/../shared/corpus/record-tracedat.sh"
	echo "recording $IN with $REC (root, tracefs) ..."
	"$REC" -o "$IN" -e "sched irq syscalls timer kmem" -d 8 -b 65536 -C none -K full
fi
SIZE=$(stat -c %s "$IN")
[ "$SIZE" -ge 100000000 ] || echo "warning: $IN is $SIZE bytes (< 100 MB)" >&2

export GST_PLUGIN_PATH="$BUILD/plugins"
export GST_REGISTRY="$OUTDIR/registry.bin"
gst-inspect-1.0 tracecmdsrc > /dev/null || { echo "tracecmdsrc not found in $BUILD/plugins" >&2; exit 1; }
command -v trace-cmd > /dev/null || { echo "trace-cmd not found" >&2; exit 1; }

# run NAME CMD... : appends "wall cpu rss_kb" to $OUTDIR/NAME.times
run() {
	local name=$1; shift
	/usr/bin/time -v -o "$OUTDIR/$name.time" "$@"
	awk -F': ' '
		/Elapsed \(wall clock\)/ { n = split($2, t, ":"); w = 0; for (i = 1; i <= n; i++) w = w * 60 + t[i] }
		/User time/ { u = $2 } /System time/ { s = $2 }
		/Maximum resident set size/ { m = $2 }
		END { printf "%.3f %.3f %d\n", w, u + s, m }' "$OUTDIR/$name.time" >> "$OUTDIR/$name.times"
}

median() {	# column N of file
	sort -g -k"$1","$1" "$2" | awk -v c="$1" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'
}

rm -f "$OUTDIR"/ours.times "$OUTDIR"/peer.times
cat /dev/null > "$OUTDIR/peer.out"
for r in $(seq 1 "$ROUNDS"); do
	rm -rf "$OUTDIR/ctf"
	run ours gst-launch-1.0 -q tracecmdsrc location="$IN" ! ctfsink location="$OUTDIR/ctf"
	run peer sh -c "trace-cmd report -i '$IN' > /dev/null 2>&1"
	echo "round $r: ours $(tail -1 "$OUTDIR/ours.times")  trace-cmd $(tail -1 "$OUTDIR/peer.times")  (wall s, cpu s, rss KB)"
done

OW=$(median 1 "$OUTDIR/ours.times") OC=$(median 2 "$OUTDIR/ours.times")
PW=$(median 1 "$OUTDIR/peer.times") PC=$(median 2 "$OUTDIR/peer.times")
OM=$(sort -n -k3,3 "$OUTDIR/ours.times" | tail -1 | cut -d' ' -f3)
PM=$(sort -n -k3,3 "$OUTDIR/peer.times" | tail -1 | cut -d' ' -f3)
OUTSZ=$(du -sb "$OUTDIR/ctf" | cut -f1)
echo
echo "input:    $IN ($SIZE bytes), $(nproc) CPUs, load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "output:   $OUTDIR/ctf ($OUTSZ bytes)"
printf "tracecmdsrc ! ctfsink:       wall %6.2f s  cpu %6.2f s  peak RSS %7d KB\n" "$OW" "$OC" "$OM"
printf "trace-cmd report >/dev/null: wall %6.2f s  cpu %6.2f s  peak RSS %7d KB\n" "$PW" "$PC" "$PM"
awk -v ow="$OW" -v oc="$OC" -v pw="$PW" -v pc="$PC" -v om="$OM" 'BEGIN {
	printf "ratio (trace-cmd / ours): wall %.1fx, cpu %.1fx  (goal >= 10x)\n", pw / ow, pc / oc
	printf "peak RSS of ours: %.1f MB (goal < 64 MB)\n", om / 1024
}'
