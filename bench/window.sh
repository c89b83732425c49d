#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# window.sh - what a time window costs with timefilter (issue 3 benchmark).
#
# Usage: bench/window.sh [-b BUILD_DIR] [-f FRACTION] [-r RUNS] [-c] TRACE_DIR
#
# On an LTTng trace (a directory holding `metadata` + `index/*.idx`,
# e.g. one recorded with ../shared/corpus/record-lttng-ust.sh -k custom-2cpu
# -n 1500000 -s 1M -c 16, about 1 GB), times with /usr/bin/time -v:
#
#   full    gst-launch-1.0 ctfsrc ! ctfsink                      (whole trace)
#   window  gst-launch-1.0 ctfsrc ! timefilter ! ctfsink         (FRACTION of the
#           trace's time span in the middle, default 0.01)
#   bt      babeltrace2 --begin --end -o ctf                     (same window)
#
# and prints wall times, peak RSS, window/full and window/bt ratios (issue 3
# asks window <= 3% of full, <= 1/20 of bt, peak RSS < 64 MB), plus the event
# counts babeltrace2 prints for both windowed outputs.  Each run is repeated
# RUNS times (default 5); the median wall time and the largest peak RSS are kept.  By default the page cache
# is warm (the script reads the trace once first); with -c the trace's own
# files are evicted from the page cache (posix_fadvise DONTNEED, nothing
# else is touched) before every run, to see the cost at disk speed.
set -euo pipefail

BUILD=""
FRACTION=0.01
RUNS=5
COLD=0
while getopts "b:f:r:ch" o; do
  case $o in
    c) COLD=1 ;;
    b) BUILD=$OPTARG ;;
    f) FRACTION=$OPTARG ;;
    r) RUNS=$OPTARG ;;
    *) sed -n '3,20p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { sed -n '3,20p' "$0"; exit 2; }
TRACE=$(cd "$1" && pwd)

HERE=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "$BUILD" ]; then
  for d in "$HERE"/build-timefilter "$HERE"/build; do
    [ -f "$d/plugins/libgstctf.so" ] && { BUILD=$d; break; }
  done
fi
[ -n "$BUILD" ] && [ -f "$BUILD/plugins/libgstctf.so" ] ||
  { echo "no build dir with plugins/libgstctf.so (use -b)" >&2; exit 1; }
export GST_PLUGIN_PATH="$BUILD/plugins"
export GST_REGISTRY="${TMPDIR:-/tmp}/gst-ctf-bench-registry.bin"
export TZ=UTC LC_ALL=C

# The trace directory itself (holding metadata), below TRACE.
META=$(find "$TRACE" -name metadata -type f | head -1)
[ -n "$META" ] || { echo "no metadata below $TRACE" >&2; exit 1; }
TDIR=$(dirname "$META")

# Time span from the LTTng index (CTF 1.8 packet begin/end in cycles) and
# the clock's offset (LTTng clocks are 1 GHz: cycles are ns).
read -r FIRST LAST < <(python3 - "$TDIR" <<'EOF'
import os, re, struct, sys
d = sys.argv[1]
meta = open(os.path.join(d, "metadata"), "rb").read().decode("latin-1")
clock = re.search(r"clock\s*\{(.*?)\};", meta, re.S).group(1)
freq = int(re.search(r"freq\s*=\s*(\d+)", clock).group(1))
off = re.search(r"\boffset\s*=\s*(-?\d+)", clock)
off_s = re.search(r"offset_s\s*=\s*(-?\d+)", clock)
base = (int(off_s.group(1)) if off_s else 0) * 10**9 + \
    (int(off.group(1)) * 10**9 // freq if off else 0)
lo, hi = None, None
idx = os.path.join(d, "index")
for f in sorted(os.listdir(idx)):
    b = open(os.path.join(idx, f), "rb").read()
    magic, major, minor, esize = struct.unpack(">IIII", b[:16])
    assert magic == 0xC1F1DCC1
    for o in range(16, len(b) - esize + 1, esize):
        _, _, _, tb, te = struct.unpack(">QQQQQ", b[o:o + 40])
        lo = tb if lo is None else min(lo, tb)
        hi = te if hi is None else max(hi, te)
conv = lambda c: base + c * 10**9 // freq
print(conv(lo), conv(hi))
EOF
)
read -r WB WE < <(python3 -c "
f, l, x = $FIRST, $LAST, $FRACTION
span = l - f
mid = f + span // 2
half = int(span * x / 2)
fmt = lambda ns: '%d.%09d' % divmod(ns, 10**9)
print(fmt(mid - half), fmt(mid + half))")

SIZE=$(du -sh "$TDIR" | cut -f1)
echo "trace     $TDIR ($SIZE), page cache $([ "$COLD" = 1 ] && echo "evicted before each run" || echo warm), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "span      $(python3 -c "print('%.3f s' % (($LAST - $FIRST) / 1e9))"), window $FRACTION of it: [$WB, $WE]"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/gst-ctf-bench-XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# warm the page cache and the registry
cat "$TDIR"/channel* > /dev/null
gst-launch-1.0 -q fakesrc num-buffers=1 ! fakesink > /dev/null 2>&1 || true

# Evicts the trace's files from the page cache (-c).
evict() {
  [ "$COLD" = 1 ] || return 0
  python3 - "$TDIR" <<'EOF'
import os, sys
for root, _, files in os.walk(sys.argv[1]):
    for f in files:
        fd = os.open(os.path.join(root, f), os.O_RDONLY)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)
EOF
}

# run NAME CMD...: median of RUNS wall times, measured around the whole
# process with a nanosecond clock (/usr/bin/time -v only has 10 ms steps,
# as much as the whole window run); sets T_NAME (s) and RSS_NAME (kB, the
# largest of the runs, from /usr/bin/time -v).
run() {
  local name=$1; shift
  local times="" best_rss=0 i t0 t1 rss
  for i in $(seq "$RUNS"); do
    rm -rf "$WORK/out-$name"
    evict
    t0=$(date +%s%N)
    /usr/bin/time -v "$@" > "$WORK/$name.stdout" 2> "$WORK/$name.stderr" ||
      { echo "$name failed:"; tail -5 "$WORK/$name.stderr"; exit 1; }
    t1=$(date +%s%N)
    times="$times $((t1 - t0))"
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$WORK/$name.stderr")
    [ "$rss" -gt "$best_rss" ] && best_rss=$rss
  done
  eval "T_$name=$(python3 -c "import statistics, sys; print('%.4f' % (statistics.median(map(int, sys.argv[1:])) / 1e9))" $times)"
  eval "RSS_$name=$best_rss"
}

run full gst-launch-1.0 -q ctfsrc location="$TDIR" ! ctfsink location="$WORK/out-full"
run window gst-launch-1.0 -q ctfsrc location="$TDIR" ! timefilter start="$WB" end="$WE" ! ctfsink location="$WORK/out-window"
run bt babeltrace2 --begin="$WB" --end="$WE" "$TDIR" -o ctf -w "$WORK/out-bt"

N_WIN=$(babeltrace2 "$WORK/out-window" 2>/dev/null | wc -l)
N_BT=$(babeltrace2 "$WORK/out-bt" 2>/dev/null | wc -l)

printf '%-8s %10s %12s   %s\n' run "wall (s)" "peak RSS" what
printf '%-8s %10s %9s MB   %s\n' full "$T_full" "$((RSS_full / 1024))" "ctfsrc ! ctfsink (whole trace)"
printf '%-8s %10s %9s MB   %s\n' window "$T_window" "$((RSS_window / 1024))" "ctfsrc ! timefilter ! ctfsink"
printf '%-8s %10s %9s MB   %s\n' bt "$T_bt" "$((RSS_bt / 1024))" "babeltrace2 --begin --end -o ctf"
python3 -c "
w, f, b = $T_window, $T_full, $T_bt
print('window/full = %.2f%% (goal <= 3%%)' % (100 * w / f if f else 0))
print('window/bt   = 1/%.0f (goal <= 1/20)' % (b / w if w else 0))"
echo "events in the window: timefilter+ctfsink $N_WIN, babeltrace2 -o ctf $N_BT"
