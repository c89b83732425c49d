#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# record-perpid.sh - record an LTTng-UST session with per-PID buffers of N
# short processes (issue 21): one trace per process, as a session that
# traced N short-lived programs has.
#
# Usage: bench/record-perpid.sh -o OUTDIR [-n N] [-u USER]
#   -o OUTDIR  the session's output (must not exist yet); the traces end up
#              under OUTDIR/ust/pid/true-PID-DATE/ (metadata + channel0_0..)
#   -n N       number of `/bin/true` runs, each one trace (default 100)
#   -j JOBS    runs at a time (default 8)
#   -u USER    user that runs lttng-sessiond and the workload (default
#              nobody): a per-user session daemon under a temporary
#              LTTNG_HOME, so that no system-wide daemon is needed or
#              touched; it is stopped by its pid at the end
#
# Channel channel0, `--buffers-pid`, events lttng_ust_libc:* recorded with
# the libc wrapper (LD_PRELOAD liblttng-ust-libc-wrapper.so), contexts vpid
# and vtid: about 6 events per process.  Needs lttng-tools and liblttng-ust
# (scripts/install-deps.sh does not install them: apt-get install
# lttng-tools liblttng-ust1 liblttng-ust-common1).
set -euo pipefail

OUT= N=100 RUNAS=nobody JOBS=8
while getopts o:n:u:j:h opt; do
	case $opt in
	o) OUT=$OPTARG ;; n) N=$OPTARG ;; u) RUNAS=$OPTARG ;; j) JOBS=$OPTARG ;;
	*) sed -n '4,22p' "$0"; exit 2 ;;
	esac
done
[ -n "$OUT" ] || { echo "need -o OUTDIR" >&2; exit 2; }
[ ! -e "$OUT" ] || { echo "$OUT exists, refusing to overwrite" >&2; exit 1; }
command -v lttng-sessiond >/dev/null || { echo "lttng-sessiond not found" >&2; exit 1; }
WRAP=$(ldconfig -p | awk '/liblttng-ust-libc-wrapper.so / {w = $NF} END {print w}')
[ -n "$WRAP" ] || { echo "liblttng-ust-libc-wrapper.so not found" >&2; exit 1; }

mkdir -p "$(dirname "$OUT")"
OUT=$(cd "$(dirname "$OUT")" && pwd)/$(basename "$OUT")
HOMEDIR=$(mktemp -d /tmp/record-perpid.XXXXXX)
[ "$(id -un)" = "$RUNAS" ] || chown "$RUNAS" "$HOMEDIR"
SESSIOND_PID=
as_user() {
	if [ "$(id -un)" = "$RUNAS" ]; then env LTTNG_HOME="$HOMEDIR" "$@"
	else setpriv --reuid="$RUNAS" --regid="$(id -g "$RUNAS")" --clear-groups \
		env LTTNG_HOME="$HOMEDIR" HOME="$HOMEDIR" "$@"; fi
}
cleanup() {
	if [ -n "$SESSIOND_PID" ]; then
		kill "$SESSIOND_PID" 2>/dev/null || true
		for _ in $(seq 50); do kill -0 "$SESSIOND_PID" 2>/dev/null || break; sleep 0.1; done
	fi
	rm -rf "$HOMEDIR"
}
trap cleanup EXIT

# the output directory belongs to the daemon's user while recording
STAGE="$HOMEDIR/out"
as_user mkdir -p "$STAGE"
as_user lttng-sessiond --no-kernel --quiet --pidfile="$HOMEDIR/sessiond.pid" \
	> "$HOMEDIR/sessiond.log" 2>&1 &
for _ in $(seq 100); do as_user lttng list >/dev/null 2>&1 && break; sleep 0.1; done
SESSIOND_PID=$(cat "$HOMEDIR/sessiond.pid")
as_user lttng create perpid --output="$STAGE/s" >/dev/null
as_user lttng enable-channel -u --buffers-pid channel0 >/dev/null
as_user lttng enable-event -u -c channel0 'lttng_ust_libc:*' >/dev/null
as_user lttng add-context -u -c channel0 -t vpid -t vtid >/dev/null
as_user lttng start >/dev/null
# the runs are short but each waits for its registration with the daemon:
# JOBS of them at a time
seq "$N" | as_user xargs -P "$JOBS" -I{} env LD_PRELOAD="$WRAP" /bin/true
as_user lttng stop >/dev/null
as_user lttng destroy >/dev/null
mv "$STAGE/s" "$OUT"
chown -R "$(id -u):$(id -g)" "$OUT"
n=$(find "$OUT" -name metadata | wc -l)
echo "$OUT: $n traces, $(du -sh "$OUT" | cut -f1)"
[ "$n" -eq "$N" ] || { echo "warning: $n traces for $N runs" >&2; }
