#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# with-sessiond.sh - run a command as an unprivileged user next to a
# lttng-sessiond of its own (issue 21's benchmark inputs), then stop that
# daemon by its pid.
#
# Usage: bench/with-sessiond.sh [-u USER] -- COMMAND [ARG...]
#   -u USER   the user of the daemon and the command (default nobody)
#
# The daemon and the command share a temporary LTTNG_HOME (also HOME), so
# no system-wide daemon is needed or touched.  The command's output
# directories must be writable by USER.  Exits with the command's status.
set -euo pipefail

RUNAS=nobody
while getopts u:h opt; do
	case $opt in
	u) RUNAS=$OPTARG ;;
	*) sed -n '4,13p' "$0"; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = -- ] && shift
[ $# -gt 0 ] || { echo "need a command" >&2; exit 2; }
command -v lttng-sessiond >/dev/null || { echo "lttng-sessiond not found" >&2; exit 1; }

HOMEDIR=$(mktemp -d /tmp/with-sessiond.XXXXXX)
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

as_user lttng-sessiond --no-kernel --quiet --pidfile="$HOMEDIR/sessiond.pid" \
	> "$HOMEDIR/sessiond.log" 2>&1 &
for _ in $(seq 100); do as_user lttng list >/dev/null 2>&1 && break; sleep 0.1; done
SESSIOND_PID=$(cat "$HOMEDIR/sessiond.pid")
status=0
as_user "$@" || status=$?
exit $status
