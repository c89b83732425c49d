#!/bin/sh
# Installs what gst-ctf needs to build and test on Debian 12 (run as root).
# lttng-tools and liblttng-ust-dev: the lttnglivesrc test against real
# lttng-sessiond / lttng-relayd daemons (tests/test-lttng-live-real.py).
set -eu
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
  build-essential meson ninja-build pkg-config clang libclang-rt-14-dev \
  libglib2.0-dev libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev \
  gstreamer1.0-tools gstreamer1.0-plugins-base check \
  gstreamer1.0-plugins-good gstreamer1.0-plugins-bad \
  zlib1g-dev libzstd-dev libjson-glib-dev libtraceevent-dev libtraceevent1-plugin \
  babeltrace2 babeltrace python3 trace-cmd \
  gobject-introspection libgirepository1.0-dev python3-gi \
  gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0 python3-bt2 \
  libgtk-4-dev gir1.2-gtk-4.0 python3-matplotlib xvfb xauth gi-docgen \
  lttng-tools liblttng-ust-dev >/dev/null
# libdw-dev, libelf-dev: ctfdebuginfo reads ELF symbols and DWARF (elfutils)
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends libdw-dev libelf-dev >/dev/null
# scdoc: the gst-ctf(1) man page, built from docs/gst-ctf.1.scd;
# bash-completion: what gst-ctf's completion file needs (tested)
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
  scdoc bash-completion >/dev/null
# openjdk-17-jre-headless and the four *-java libraries: Trace Compass's CTF
# reader, ../shared/tools/tracecompass-ctf (tests/test-tracecompass.py)
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
  openjdk-17-jre-headless libantlr3-runtime-java libguava-java \
  libgoogle-gson-java libcommons-io-java >/dev/null
# perfettosink's test decodes its output with Perfetto's trace proto
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
  protobuf-compiler python3-protobuf >/dev/null
# Benchmark inputs (bench/): `sh scripts/install-deps.sh --bench` also
# installs LTTng to record them (bench/record-perpid.sh, the corpus
# recording scripts) and trace-cmd.
if [ "${1:-}" = --bench ]; then
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    lttng-tools liblttng-ust-dev liblttng-ust-common1 liblttng-ust1 trace-cmd \
    time >/dev/null
fi
