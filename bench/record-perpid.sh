#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# record-perpid.sh - record an LTTng-UST session with per-PID buffers of N
# short processes (issue 21): one trace per process, as a session that
# traced N short-lived programs has.
#
# Usage: bench/record-perpid.sh -o OUTDIR [-n N] [-j JOBS] [-u USER]
#   -o OUTDIR  the session's output (must not exist yet); the traces end up
#              under OUTDIR/ust/pid/true-PID-DATE/ (metadata + channel0_0..)
#   -n N       number of `/bin/true` runs, each one trace (default 100)
#   -j JOBS    runs at a time (default 8)
#   -u USER    user that runs the workload and its own lttng-sessiond
#              (bench/with-sessiond.sh; default nobody)
#
# Channel channel0, `--buffers-pid`, events lttng_ust_libc:* recorded with
# the libc wrapper (LD_PRELOAD liblttng-ust-libc-wrapper.so), contexts vpid
# and vtid: about 6 events per process.  Needs lttng-tools and liblttng-ust
# (apt-get install lttng-tools liblttng-ust1 liblttng-ust-common1).
# Traces with incomplete metadata (a process that ended before its
# registration completed) are removed: fewer traces than runs then.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
OUT= N=100 RUNAS=nobody JOBS=8
while getopts o:n:u:j:h opt; do
	case $opt in
	o) OUT=$OPTARG ;; n) N=$OPTARG ;; u) RUNAS=$OPTARG ;; j) JOBS=$OPTARG ;;
	*) sed -n '4,19p' "$0"; exit 2 ;;
	esac
done
[ -n "$OUT" ] || { echo "need -o OUTDIR" >&2; exit 2; }
[ ! -e "$OUT" ] || { echo "$OUT exists, refusing to overwrite" >&2; exit 1; }
WRAP=$(ldconfig -p | awk '/liblttng-ust-libc-wrapper.so / {w = $NF} END {print w}')
[ -n "$WRAP" ] || { echo "liblttng-ust-libc-wrapper.so not found" >&2; exit 1; }

mkdir -p "$(dirname "$OUT")"
OUT=$(cd "$(dirname "$OUT")" && pwd)/$(basename "$OUT")
STAGE=$(mktemp -d /tmp/record-perpid.XXXXXX)
trap 'rm -rf "$STAGE"' EXIT
[ "$(id -un)" = "$RUNAS" ] || chown "$RUNAS" "$STAGE"

# the runs are short but each waits for its registration with the daemon:
# JOBS of them at a time
# shellcheck disable=SC2016
bash "$HERE/with-sessiond.sh" -u "$RUNAS" -- sh -c '
	set -e
	lttng create perpid --output="$0/s" >/dev/null
	lttng enable-channel -u --buffers-pid channel0 >/dev/null
	lttng enable-event -u -c channel0 "lttng_ust_libc:*" >/dev/null
	lttng add-context -u -c channel0 -t vpid -t vtid >/dev/null
	lttng start >/dev/null
	seq "$1" | xargs -P "$2" -I{} env LD_PRELOAD="$3" /bin/true
	lttng stop >/dev/null
	lttng destroy >/dev/null' "$STAGE" "$N" "$JOBS" "$WRAP"
mv "$STAGE/s" "$OUT"
chown -R "$(id -u):$(id -g)" "$OUT"
# A process that ends before its registration is complete (seen on a
# loaded machine) leaves a trace whose metadata declares no stream class:
# babeltrace2 and ctfsrc both refuse the whole session then.  Those go.
bad=0
for m in "$OUT"/ust/pid/*/metadata; do
	[ -e "$m" ] || continue
	if ! grep -aq '^stream {' "$m"; then
		rm -rf "$(dirname "$m")"
		bad=$((bad + 1))
	fi
done
[ "$bad" -eq 0 ] || echo "warning: removed $bad traces with incomplete metadata" >&2
n=$(find "$OUT" -name metadata | wc -l)
echo "$OUT: $n traces, $(du -sh "$OUT" | cut -f1)"
[ "$n" -eq "$N" ] || echo "warning: $n traces for $N runs" >&2
