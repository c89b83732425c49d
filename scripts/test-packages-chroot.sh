#!/bin/sh
# Runs inside the clean Debian 12 root of scripts/test-packages.sh, where
# the gst-ctf packages were installed with apt (nothing of the build tree):
# checks the installed plugin, library, typelib, Python override,
# pkg-config file and programs on the bundled traces against their
# babeltrace2 text.
#   sh test-packages-chroot.sh DIR   (DIR/traces: a copy of examples/traces)
set -eu
dir=$1
traces=$dir/traces
oracle=$traces/ust-libc.babeltrace2.txt
out=$(mktemp -d)
export TZ=UTC LC_ALL=C.UTF-8
n_events=$(wc -l < "$oracle")

echo "-- gst-inspect-1.0 ctfsrc"
gst-inspect-1.0 ctfsrc > "$out/inspect.txt"
# (/lib is /usr/lib in Debian 12)
grep -q -E "Filename +(/usr)?/lib/[^/]+/gstreamer-1.0/libgstctf.so$" \
  "$out/inspect.txt" || {
  echo "gst-inspect-1.0 ctfsrc: not the packaged plugin:" >&2
  head -n 20 "$out/inspect.txt" >&2; exit 1; }
for e in ctfsrc ctfsink ctftextsink timefilter tracecmdsrc ctfmux \
    ctffilter ctfstatssink lttng0src lttnglivesrc; do
  gst-inspect-1.0 "$e" > /dev/null || { echo "element $e missing" >&2; exit 1; }
done

echo "-- the README's pipelines on ust-libc (demo.sh): text, CTF copy"
gst-launch-1.0 -q ctfsrc location="$traces/ust-libc" ! \
  ctftextsink location="$out/trace.txt"
cmp "$out/trace.txt" "$oracle"
gst-launch-1.0 -q ctfsrc location="$traces/ust-libc" ! \
  ctfsink location="$out/ctf"
gst-launch-1.0 -q ctfsrc location="$out/ctf" ! ctftextsink > "$out/copy.txt"
cmp "$out/copy.txt" "$oracle"
echo "$n_events events, identical to babeltrace2's text (copy too)"

echo "-- ctf-convert"
ctf-convert --begin 00:55:28.608343550 "$traces/ust-libc" "$out/cut" \
  2> "$out/convert.log" || { cat "$out/convert.log" >&2; exit 1; }
gst-launch-1.0 -q ctfsrc location="$out/cut" ! ctftextsink |
  sed 's/ (+[^)]*)//' > "$out/cut.txt"
# (the deltas are left out: the first event's is "(+?.?????????)")
tail -n +2 "$oracle" | sed 's/ (+[^)]*)//' | cmp - "$out/cut.txt"
echo "ctf-convert --begin: babeltrace2's text less its first event"

echo "-- Python: from gi.repository import GstCtf, the user guide's loop"
python3 -c "from gi.repository import GstCtf" 2> "$out/import.log" || {
  cat "$out/import.log" >&2; exit 1; }
# the override in effect, from Debian's dist-packages
python3 - "$traces" > "$out/py.txt" <<'PY'
import sys
import gi
gi.require_version("GstCtf", "1.0")
from gi.repository import GstCtf
import gi.overrides.GstCtf as override
assert override.__file__.startswith("/usr/lib/python3/dist-packages/"), \
    override.__file__
# the user guide's example ("Read a trace")
for ev in GstCtf.EventReader.open(sys.argv[1] + "/ust-sample"):
    if ev.name == "corpus_tp:enums":
        print(ev.timestamp_ns, ev.cpu, ev.name, ev["vtid"], ev["procname"],
              ev.payload)
PY
n_py=$(wc -l < "$out/py.txt")
n_bt=$(grep -c " corpus_tp:enums: " "$traces/ust-sample.babeltrace2-2.1.txt")
[ "$n_py" -gt 0 ] && [ "$n_py" -eq "$n_bt" ] || {
  echo "python: $n_py corpus_tp:enums events, babeltrace2: $n_bt" >&2; exit 1; }
python3 - "$traces" "$oracle" <<'PY'
import sys
import gi
gi.require_version("GstCtf", "1.0")
from gi.repository import GstCtf
# every event of ust-libc, in babeltrace2's order: name and vtid per line
names = [(ev.name, ev["vtid"])
         for ev in GstCtf.EventReader.open(sys.argv[1] + "/ust-libc")]
want = []
for line in open(sys.argv[2]):
    name = line.split(" ", 4)[3].rstrip(":")
    vtid = int(line.split("vtid = ", 1)[1].split(",", 1)[0])
    want.append((name, vtid))
assert names == want, (len(names), len(want))
print(len(names), "events, names and vtid as babeltrace2's text")
PY
echo "python: $n_py corpus_tp:enums events as babeltrace2's text"

echo "-- libgstctf-1.0-dev: pkg-config gstctf-1.0, a C program"
cat > "$out/count.c" <<'C'
#include <gstctf-event-reader.h>
int
main (int argc, char **argv)
{
  GError *error = NULL;
  GstCtfEventReader *r;
  guint n = 0;

  gst_init (&argc, &argv);
  r = gst_ctf_event_reader_open (argv[1], &error);
  if (r == NULL) {
    g_printerr ("%s\n", error->message);
    return 1;
  }
  while (gst_ctf_event_reader_next (r, &error))
    n++;
  if (error != NULL) {
    g_printerr ("%s\n", error->message);
    return 1;
  }
  g_print ("%u\n", n);
  g_object_unref (r);
  return 0;
}
C
# shellcheck disable=SC2046
gcc -o "$out/count" "$out/count.c" $(pkg-config --cflags --libs gstctf-1.0)
[ "$("$out/count" "$traces/ust-libc")" -eq "$n_events" ]
echo "a C program built with pkg-config gstctf-1.0 counts $n_events events"

echo "-- gst-ctf"
if command -v gst-ctf > /dev/null; then
  gst-ctf "$traces/ust-libc" > "$out/gst-ctf.txt"
  cmp "$out/gst-ctf.txt" "$oracle"
  echo "gst-ctf: identical to babeltrace2's text"
else
  echo "SKIP gst-ctf: not in these packages (no gst-ctf in this tree)"
fi
rm -rf "$out"
echo "== installed packages: all checks passed"
