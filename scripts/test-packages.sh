#!/bin/sh
# Builds the Debian packages (debian/) and tests them installed:
#  1. copies this checkout's files (tracked and untracked, not the ignored
#     build directories) to a temporary directory and runs
#     `dpkg-buildpackage -us -uc -b` there, so nothing is written beside
#     the checkout; installs the build dependencies first (as root);
#  2. lintian on the result: an error or a warning fails;
#  3. makes a clean Debian 12 root with mmdebstrap from the Debian mirrors
#     this machine's apt uses, installs the packages there with apt (their
#     dependencies from the mirror) and runs scripts/test-packages-chroot.sh
#     in it on a copy of examples/traces: gst-inspect-1.0, the README's
#     pipelines, ctf-convert, Python (import, the user guide's loop), a C
#     program built with pkg-config, and gst-ctf when the tree has it,
#     each compared with the traces' babeltrace2 text.
# The root is temporary (mmdebstrap's null format, in /dev/shm when it has
# room); the .deb files are copied to build-packages/. Needs root (or
# sudo) and the mirror.
# GST_CTF_DEB_PROFILES=pkg.gst-ctf.gtk builds with that build profile.
set -eu
cd "$(dirname "$0")/.."
top=$PWD
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
profiles=${GST_CTF_DEB_PROFILES:-}
t0=$(date +%s)
work=$(mktemp -d /tmp/gst-ctf-packages-XXXXXX)
# kept when something fails: the build log, lintian's output, the .debs
trap 'rc=$?; if [ $rc -eq 0 ]; then rm -rf "$work"; else
  echo "(build directory kept: $work)" >&2; fi; exit $rc' EXIT
src=$work/src/gst-ctf
mkdir -p "$src"
git ls-files -z --cached --others --exclude-standard |
  xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
  tar -c --null -T - | tar -x -C "$src"

echo "== build dependencies"
(DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
  --no-install-recommends dpkg-dev lintian mmdebstrap &&
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get build-dep -y -qq \
  ${profiles:+-P "$profiles"} "$src") > "$work/apt.log" 2>&1 || {
  cat "$work/apt.log"; exit 1; }

echo "== dpkg-buildpackage -us -uc -b${profiles:+ -P$profiles} (in $work/src)"
(cd "$src" &&
  DEB_BUILD_OPTIONS="parallel=$(nproc) ${DEB_BUILD_OPTIONS:-}" \
  dpkg-buildpackage -us -uc -b ${profiles:+-P"$profiles"} \
    > "$work/build.log" 2>&1) || { tail -n 60 "$work/build.log"; exit 1; }
changes=$(ls "$work"/src/*.changes)
debs=$(ls "$work"/src/*.deb | grep -v -- '-dbgsym_')
ls "$work"/src/*.deb | sed 's|.*/|  |'
t1=$(date +%s)

echo "== lintian (errors and warnings fail)"
rc=0
lintian --fail-on error,warning --display-info --pedantic "$changes" \
  > "$work/lintian.txt" 2>&1 || rc=$?
# (lintian says that it runs as root; the check is the same)
grep -v "running with root privileges is not recommended" "$work/lintian.txt" || true
[ "$rc" -eq 0 ] || { echo "lintian: errors or warnings above" >&2; exit 1; }
t2=$(date +%s)

echo "== clean Debian 12 root (mmdebstrap), packages installed, checks"
# The Debian sources of this machine's apt (deb822 or one-line files).
mirrors=
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
    /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  grep -q -E '^[^#]*(deb|URIs:) .*/debian(-security)?/?( |$)' "$f" &&
    mirrors="$mirrors $f"
done
[ -n "$mirrors" ] || { echo "no Debian mirror in /etc/apt/sources.list*" >&2; exit 1; }
includes=
for d in $debs; do includes="$includes --include=$d"; done
mkdir -p "$work/in/traces"
cp -r examples/traces/. "$work/in/traces/"
cp scripts/test-packages-chroot.sh "$work/in/"
# The root lives in memory when /dev/shm has room (dpkg's writes made it
# 165 s on this machine's disk, 80 s there); it is thrown away at the end.
tmp=${TMPDIR:-/tmp}
shm_kib=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')
[ "${shm_kib:-0}" -gt 2097152 ] && tmp=/dev/shm
# shellcheck disable=SC2086
$SUDO env TMPDIR="$tmp" mmdebstrap --variant=apt --format=null --quiet \
  --dpkgopt=force-unsafe-io \
  --include=gstreamer1.0-tools,gcc,libc6-dev,pkgconf $includes \
  --hook-dir=/usr/share/mmdebstrap/hooks/file-mirror-automount \
  --customize-hook="mkdir \"\$1/tmp/gst-ctf\"" \
  --customize-hook="sync-in $work/in /tmp/gst-ctf" \
  --customize-hook='chroot "$1" sh /tmp/gst-ctf/test-packages-chroot.sh /tmp/gst-ctf' \
  bookworm /dev/null $mirrors
t3=$(date +%s)

mkdir -p build-packages
cp $debs build-packages/
echo "== packages built, lintian-clean and working installed" \
  "(build $((t1 - t0)) s, lintian $((t2 - t1)) s, root and checks $((t3 - t2)) s);" \
  ".deb files in $top/build-packages/"
