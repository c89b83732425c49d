#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Seeds of fuzz-lttng0: small cuts of the LTTng 0.x corpus traces.

Usage: make-lttng0-seeds.py CORPUS_LTT0_DIR OUT_DIR

Each seed is the fuzz target's input format: records of { u8 file index,
u32 little-endian length, bytes }.  A tracefile is cut to its first
sub-buffers, each sub-buffer to the events that fit in a byte budget (at
an event boundary) and its size fields rewritten to the cut, so that the
seed reads without warnings: the metadata keeps all its markers.
"""
import os
import struct
import subprocess
import sys
import tempfile

NAMES = ["metadata_0", "metadata_1", "kernel_0", "kernel_1", "fs_0",
         "flight-net_0"]
HDR = 68


def field_align(minor, alignment, size):
    if alignment == 0 or size == 0:
        return 1
    return size if minor in (4, 5) else min(alignment, size)


def up(x, a):
    return (x + a - 1) // a * a


CORE_ID = ("channel %s name %s event_id %hu int #1u%zu long #1u%zu "
           "pointer #1u%zu size_t #1u%zu alignment #1u%u")
CORE_FORMAT = "channel %s name %s format %s"


def parse_format(fmt, sizes):
    """[(type, size)] of a marker format (see gstlttng0-marker.c)."""
    int_size, long_size, ptr_size, sizet_size = sizes
    quals = {"L": 8, "l": long_size, "Z": sizet_size, "z": sizet_size,
             "t": ptr_size, "h": 2, "1": 1, "2": 2, "4": 4, "8": 8}
    fields, i, n, pend = [], 0, len(fmt), None
    while i < n:
        c = fmt[i]
        if c in "#%":
            trace = c == "#"
            i += 1
            if i < n and fmt[i] == c:
                i += 1
                continue
            if trace:
                while i < n and fmt[i] == "n":
                    i += 1
            else:
                while i < n and fmt[i] in "-+ #0123456789.":
                    i += 1
            q = None
            if i < n and fmt[i] in ("hlLZztS1248" if trace else "hlLZztS"):
                q = fmt[i]
                i += 1
                if q == "l" and i < n and fmt[i] == "l":
                    q, i = "L", i + 1
            cv = fmt[i] if i < n else ""
            if cv == "s":
                t = ("s", 0)
            elif cv == "c":
                t = ("i", 1)
            elif cv == "p":
                t = ("i", ptr_size)
            elif cv and cv in "diouxX":
                t = ("i", quals.get(q, int_size))
            else:
                t = None
            i += 1
            if trace:
                pend = t
            else:
                if t is None:
                    raise ValueError(fmt)
                if pend and (pend[0] == "s" or t[0] != "s"):
                    t = pend
                fields.append(t)
                pend = None
            continue
        i += 1
    return fields


def payload_end(sb, pos, fields, minor, alignment):
    largest = max([field_align(minor, alignment, s) for t, s in fields
                   if t == "i"] + [1])
    pos = up(pos, largest)
    for t, size in fields:
        if t == "s":
            pos = sb.index(b"\0", pos) + 1
        else:
            pos = up(pos, field_align(minor, alignment, size)) + size
    return pos


def walk(sb, bo, minor, alignment, data_end, markers, on_event=None):
    """Offsets where events end (markers: id -> (fields, alignment))."""
    pos = HDR
    ends = []
    while True:
        pos = up(pos, field_align(minor, alignment, 4))
        if pos + 4 > data_end:
            break
        word, = struct.unpack_from(bo + "I", sb, pos)
        pos += 4
        eid = word >> 27
        if eid >= 29:
            packed = eid
            eid, = struct.unpack_from(bo + "H", sb, pos)
            pos += 2
            if packed in (29, 30):
                size, = struct.unpack_from(bo + "H", sb, pos)
                pos += 2
                if size == 0xFFFF:
                    pos += 4
            if packed == 29:
                pos = up(pos, field_align(minor, alignment, 8)) + 8
        if eid not in markers:
            break
        fields, malign = markers[eid]
        start = pos
        pos = payload_end(sb, pos, fields, minor, malign)
        if on_event:
            on_event(eid, sb, start, fields, malign)
        ends.append(pos)
    return ends


def read_markers(root, bo, minor, alignment):
    """channel -> {id: (fields, alignment)} from the metadata files."""
    core = {0: (parse_format(CORE_ID, (4, 4, 4, 4)), alignment),
            1: (parse_format(CORE_FORMAT, (4, 4, 4, 4)), alignment)}
    ids, formats = {}, {}

    def strings(sb, pos, k):
        out = []
        for _ in range(k):
            e = sb.index(b"\0", pos)
            out.append(sb[pos:e].decode("latin1"))
            pos = e + 1
        return out, pos

    def on_event(eid, sb, start, fields, malign):
        pos = up(start, max(field_align(minor, malign, 2), 1))
        if eid == 0:
            (ch, name), pos = strings(sb, pos, 2)
            pos = up(pos, field_align(minor, malign, 2))
            mid, = struct.unpack_from(bo + "H", sb, pos)
            ids[(ch, name)] = (mid, tuple(sb[pos + 2:pos + 6]), sb[pos + 6])
        else:
            (ch, name, fmt), _ = strings(sb, start, 3)
            formats[(ch, name)] = fmt

    for f in sorted(os.listdir(root)):
        if not f.startswith("metadata_"):
            continue
        d = open(os.path.join(root, f), "rb").read()
        off = 0
        while off + HDR <= len(d):
            a52, a56 = struct.unpack_from(bo + "II", d, off + 52)
            data_end = a56 - a52 if minor <= 4 else a52
            walk(d[off:off + a56], bo, minor, alignment, data_end, core,
                 on_event)
            off += a56
    markers = {"metadata": core}
    for (ch, name), (mid, sizes, malign) in ids.items():
        if (ch, name) in formats:
            sz = (sizes[0], sizes[1], sizes[2], sizes[3])
            markers.setdefault(ch, {})[mid] = (
                parse_format(formats[(ch, name)], sz), malign)
    return markers


def cut_file(path, n_subbufs, budget, markers):
    d = open(path, "rb").read()
    bo = "<" if d[16:20] == b"\xed\xb7\xd6\x00" else ">"
    minor, alignment = d[21], d[23]
    chan = os.path.basename(path).rsplit("_", 1)[0]
    out = b""
    off = 0
    for _ in range(n_subbufs):
        if off + HDR > len(d):
            break
        a52, a56 = struct.unpack_from(bo + "II", d, off + 52)
        size = a56
        data_end = a56 - a52 if minor <= 4 else a52
        sb = bytearray(d[off:off + size])
        cut = data_end
        if budget and data_end > budget:
            ends = [e for e in walk(sb, bo, minor, alignment, data_end,
                                    markers.get(chan, {})) if e <= budget]
            cut = ends[-1] if ends else HDR
        new_size = up(cut, 8)
        sb = sb[:cut] + b"\0" * (new_size - cut)
        if minor <= 4:
            struct.pack_into(bo + "II", sb, 52, new_size - cut, new_size)
        else:
            struct.pack_into(bo + "II", sb, 52, cut, new_size)
        out += bytes(sb)
        off += size
    return out


def record(index, data):
    return struct.pack("<BI", index, len(data)) + data


def main():
    corpus, outdir = sys.argv[1], sys.argv[2]
    seeds = {
        # name: (tarball, [(file, seed name, sub-buffers, budget)])
        "v2.3-packed": ("trace-1021events-nolost-1cpu.tar.gz",
                        [("metadata_0", "metadata_0", 1, 0),
                         ("kernel_0", "kernel_0", 2, 3000)]),
        "v2.3-align4": ("trace-698650events_3029lost-8CPU.tar.gz",
                        [("metadata_0", "metadata_0", 1, 0),
                         ("metadata_2", "metadata_1", 1, 0),
                         ("kernel_0", "kernel_0", 1, 3000),
                         ("kernel_1", "kernel_1", 1, 3000),
                         ("net_0", "flight-net_0", 1, 2000)]),
        "v2.5": ("trace-15316events_nolost_newformat.tar.gz",
                 [("metadata_0", "metadata_0", 1, 0),
                  ("kernel_0", "kernel_0", 2, 3000),
                  ("fs_0", "fs_0", 1, 3000)]),
        "v2.6": ("trace-2.6.tar.gz",
                 [("metadata_0", "metadata_0", 1, 0),
                  ("metadata_1", "metadata_1", 4, 0),
                  ("kernel_0", "kernel_0", 1, 3000),
                  ("kernel_1", "kernel_1", 1, 3000)]),
    }
    os.makedirs(outdir, exist_ok=True)
    for seed, (tarball, files) in seeds.items():
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(["tar", "xzf", os.path.join(corpus, tarball),
                            "-C", tmp], check=True)
            root = tmp
            for dirpath, _, names in os.walk(tmp):
                if "metadata_0" in names:
                    root = dirpath
            m0 = open(os.path.join(root, "metadata_0"), "rb").read(HDR)
            bo = "<" if m0[16:20] == b"\xed\xb7\xd6\x00" else ">"
            markers = read_markers(root, bo, m0[21], m0[23])
            data = b""
            for src, name, n, budget in files:
                data += record(NAMES.index(name),
                               cut_file(os.path.join(root, src), n, budget,
                                        markers))
        with open(os.path.join(outdir, seed), "wb") as f:
            f.write(data)
        print(seed, len(data))


if __name__ == "__main__":
    main()
