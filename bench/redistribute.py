#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Deal the packets of a recorded LTTng-UST trace over more streams or
more traces (issue 21: benchmark inputs with many CPUs or many inputs).

    bench/redistribute.py SRC OUT --streams 256
    bench/redistribute.py SRC OUT --traces 64

SRC is a trace directory written by LTTng-UST 2.13 (the `metadata` and
the stream files; packetized or plain metadata).  The packets are copied
byte for byte; only these packet fields change:

- `stream_instance_id` (packet header): the new stream's index in its
  trace, so that each file is a stream of its own;
- `packet_seq_num` (packet context): 0, 1, 2, ... in each new stream, so
  that no packet seems lost;
- `cpu_id` (packet context): the new stream's index, as a machine with
  that many CPUs would have;
- `uuid` (packet header, and the metadata): with --traces, trace T gets the
  source UUID with its last two bytes XORed with T + 1.

With --streams S (a multiple of the source's stream count C), the packets
of source stream c go round robin to the new streams c, c + C, c + 2C, ...
of one trace: each new stream keeps its packets in time order and without
overlap.  With --traces T, trace t gets packet j of every source stream
when j mod T = t: T traces of C streams each, named OUT/trace-NNN.  The
metadata is written as plain TSDL.  No LTTng index is written (readers scan
the packet headers).  Check the result with babeltrace2: it must read
every event of the source.

Only the LTTng-UST packet layout is handled (header: magic, uuid[16],
stream_id, stream_instance_id; context: timestamp_begin, timestamp_end,
content_size, packet_size, packet_seq_num, events_discarded, cpu_id, 64-bit
longs); anything else is refused.
"""
import argparse
import os
import re
import struct
import sys

HEADER_RE = (r"packet\.header\s*:=\s*struct\s*\{\s*uint32_t\s+magic;\s*"
             r"uint8_t\s+uuid\[16\];\s*uint32_t\s+stream_id;\s*"
             r"uint64_t\s+stream_instance_id;\s*\}")
CONTEXT_RE = (r"struct\s+packet_context\s*\{\s*"
              r"uint64_clock_monotonic_t\s+timestamp_begin;\s*"
              r"uint64_clock_monotonic_t\s+timestamp_end;\s*"
              r"uint64_t\s+content_size;\s*uint64_t\s+packet_size;\s*"
              r"uint64_t\s+packet_seq_num;\s*unsigned\s+long\s+"
              r"events_discarded;\s*uint32_t\s+cpu_id;\s*\}")
# byte offsets in a packet (header 32 bytes, context aligned on 8)
MAGIC, UUID, INSTANCE = 0, 4, 24
CONTENT, PACKET, SEQ, CPU = 48, 56, 64, 80


def read_metadata(path):
    data = open(path, "rb").read()
    if data[:4] in (b"\x57\x1d\xd1\x75", b"\x75\xd1\x1d\x57"):
        # packetized (CTF 1.8 §7.1): header 37 bytes (content_size and
        # packet_size in bits at bytes 24 and 28), then the text
        order = "<" if data[:4] == b"\x57\x1d\xd1\x75" else ">"
        text, o = b"", 0
        while o + 37 <= len(data):
            content, packet = struct.unpack(order + "II", data[o + 24:o + 32])
            if packet == 0 or content < 37 * 8:
                break
            text += data[o + 37:o + content // 8]
            o += packet // 8
        data = text
    return data.decode("utf-8")


def check_layout(meta):
    if not re.search(HEADER_RE, meta) or not re.search(CONTEXT_RE, meta):
        sys.exit("not the LTTng-UST packet layout this script knows")
    if not re.search(r"byte_order\s*=\s*le\s*;", meta):
        sys.exit("only little-endian traces are handled")
    m = re.search(r'typealias integer \{[^}]*size = (\d+);[^}]*\} := '
                  r'unsigned long;', meta)
    if m and m.group(1) != "64":
        sys.exit("only 64-bit traces are handled")
    u = re.search(r'\buuid\s*=\s*"([0-9a-f-]{36})"', meta)
    if not u:
        sys.exit("the trace has no UUID")
    return u.group(1)


def packets(path):
    """(offset, size) of each packet of a stream file."""
    data = open(path, "rb").read()
    o, out = 0, []
    while o + 88 <= len(data):
        if struct.unpack_from("<I", data, o + MAGIC)[0] != 0xC1FC1FC1:
            sys.exit(f"{path}: bad magic at byte {o}")
        size = struct.unpack_from("<Q", data, o + PACKET)[0] // 8
        if size < 88 or o + size > len(data):
            sys.exit(f"{path}: bad packet_size at byte {o}")
        out.append((o, size))
        o += size
    return data, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("src")
    ap.add_argument("out")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--streams", type=int)
    g.add_argument("--traces", type=int)
    a = ap.parse_args()
    if os.path.exists(a.out):
        sys.exit(f"{a.out} exists, refusing to overwrite")

    meta = read_metadata(os.path.join(a.src, "metadata"))
    uuid_text = check_layout(meta)
    uuid = bytes.fromhex(uuid_text.replace("-", ""))
    files = sorted(f for f in os.listdir(a.src)
                   if os.path.isfile(os.path.join(a.src, f))
                   and f != "metadata" and not f.startswith("."))
    srcs = [packets(os.path.join(a.src, f)) for f in files]
    n_src = len(srcs)

    if a.streams:
        if a.streams % n_src:
            sys.exit(f"--streams must be a multiple of {n_src}")
        n_traces, per_trace = 1, a.streams
    else:
        n_traces, per_trace = a.traces, n_src
    os.makedirs(a.out)
    for t in range(n_traces):
        d = a.out if n_traces == 1 else os.path.join(a.out, f"trace-{t:03d}")
        os.makedirs(d, exist_ok=True)
        tuuid = uuid
        text = meta
        if n_traces > 1:
            x = (t + 1) & 0xFFFF
            tuuid = uuid[:14] + bytes([uuid[14] ^ (x >> 8), uuid[15] ^ (x & 0xFF)])
            h = tuuid.hex()
            new = f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"
            text = meta.replace(uuid_text, new)
        if not text.startswith("/* CTF 1.8"):
            text = "/* CTF 1.8 */\n" + text
        with open(os.path.join(d, "metadata"), "w") as f:
            f.write(text)
        outs = [bytearray() for _ in range(per_trace)]
        for c, (data, pk) in enumerate(srcs):
            for j, (o, size) in enumerate(pk):
                if n_traces > 1:
                    if j % n_traces != t:
                        continue
                    s = c
                else:
                    s = c + n_src * (j % (per_trace // n_src))
                p = bytearray(data[o:o + size])
                struct.pack_into("<Q", p, INSTANCE, s)
                struct.pack_into("<I", p, CPU, s)
                p[UUID:UUID + 16] = tuuid
                outs[s] += p
        for s, b in enumerate(outs):
            # packet_seq_num: the packet's rank in its new stream
            o, k = 0, 0
            while o < len(b):
                struct.pack_into("<Q", b, o + SEQ, k)
                o += struct.unpack_from("<Q", b, o + PACKET)[0] // 8
                k += 1
            with open(os.path.join(d, f"channel0_{s}"), "wb") as f:
                f.write(b)
    total = sum(len(p) for _, p in srcs)
    print(f"{a.out}: {total} packets from {n_src} streams over "
          f"{n_traces} trace(s) of {per_trace} streams")


if __name__ == "__main__":
    sys.exit(main())
