#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes the fuzz-packet seeds (tests/fuzz/seeds/packet/): stream files
of the fixed LTTng-like trace class of tests/fuzz/fuzz-trace-class.c
(first byte 0), with events of its four event classes under compact and
extended headers, so the fuzzer starts from packets whose events decode
(a valid magic, UUID and sizes are hard to find by mutation); and the
fuzz-tracedir seeds (tests/fuzz/seeds/tracedir/): the same stream files
with LTTng packet indexes, without, and cut in two indexed files.
Also ctf2-NAME for the CTF 2 fixtures tests/data/ctf2/NAME (first byte
2: the metadata carried, then the stream file): kinds (booleans, bit
arrays, BLOBs, LEB128 integers, optionals, variants with integer
selectors, bit maps), utf (UTF-16/32 strings of every kind) and windows
(all of those with a clock and role-only header fields, 4 packets).

    python3 tests/fuzz/seeds/make-packet-seeds.py
"""
import os
import struct

UUID = bytes.fromhex("f96fbada6a4242f6a313e72cc760ce24")
HEAD_BYTES = 32 + 52             # packet header, packet context
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "packet")
OUT_TRACEDIR = os.path.join(HERE, "tracedir")


def align(buf, nbytes):
    while len(buf) % nbytes:
        buf.append(0)


def event_header(buf, ev_id, ts, extended, large):
    """The event header, align(8).  Compact (LTTng kernel): a 5-bit id,
    then a 27-bit timestamp, or (id 31, extended) a uint32 id and a uint64
    timestamp after padding to the byte.  Large (LTTng-UST): a 16-bit id,
    then a 32-bit timestamp, or (id 65535) the same extended form."""
    if large:
        if extended:
            buf += struct.pack("<HIQ", 65535, ev_id, ts)
        else:
            buf += struct.pack("<HI", ev_id, ts & 0xFFFFFFFF)
    elif extended:
        buf += struct.pack("<BIQ", 31, ev_id, ts)
    else:
        # CTF 1.8 little-endian bit fields: the id in the low 5 bits
        buf += struct.pack("<I", ev_id | ((ts & ((1 << 27) - 1)) << 5))


def context(buf, vtid, procname):
    buf += struct.pack("<i", vtid)
    buf += procname.encode().ljust(17, b"\0")[:17]


def payload(buf, ev_id, k):
    if ev_id == 0:                    # a: ptr, string, n, text[n], ints[n]
        text = b"seq%d" % k
        buf += struct.pack("<Q", 0xdead0000 + k)
        buf += b"message %d\0" % k
        buf += struct.pack("<H", len(text))
        buf += text
        for i in range(len(text)):
            buf += struct.pack("<i", i - k)
    elif ev_id == 1:                  # b: float, BE double, enum, BE u16
        align(buf, 8)                 # the structure: its double's
        buf += struct.pack("<f", 0.5 + k)
        align(buf, 8)
        buf += struct.pack(">d", -1.25 * k)
        buf += struct.pack("<B", k % 4)
        buf += struct.pack(">H", 0x1234 + k)
    elif ev_id == 3:                  # d: u16, s32, string, len, text, u32,
        text = b"t%02d" % k           # s16, s8, BE s64
        buf += struct.pack("<Hi", k, -k)
        buf += b"s%d\0" % k
        buf += struct.pack("<B", len(text))
        buf += text
        buf += struct.pack("<Ihb", 7 * k, -300 * k, -k)
        buf += struct.pack(">q", -1000000 * k)
    elif ev_id == 4:                  # e: tag, variant (u16 or string)
        if k % 2 == 0:
            buf += struct.pack("<BH", 0, 1000 + k)
        else:
            buf += struct.pack("<B", 1) + b"opt%d\0" % k
    # c (2): no payload


def packet(events, ts0, seq, large):
    """One packet of @events: (event class id, extended header)."""
    # the events after the packet header and context (84 bytes), so that
    # alignments count from the packet's start
    body = bytearray(HEAD_BYTES)
    ts = ts0
    for k, (ev_id, extended) in enumerate(events):
        ts += 37 + 11 * k
        event_header(body, ev_id, ts, extended, large)
        context(body, 100 + k, "proc%d" % (k % 3))
        payload(body, ev_id, k)
    head = bytearray()
    head += struct.pack("<I", 0xC1FC1FC1) + UUID
    head += struct.pack("<IQ", 0, 0)
    content = len(body)
    size = (content + 7) // 8 * 8
    head += struct.pack("<QQQQQQI", ts0, ts, content * 8, size * 8, seq, 0, 0)
    assert len(head) == HEAD_BYTES
    return bytes((head + body[HEAD_BYTES:]).ljust(size, b"\0"))


def lttng_index(packets):
    """An LTTng 1.1 packet index (big endian) of the stream file made of
    @packets: header {magic, major, minor, entry size}, then per packet
    {offset, packet_size, content_size (bits), timestamp_begin,
    timestamp_end, events_discarded, stream_id, stream_instance_id,
    packet_seq_num}."""
    idx = struct.pack(">IIII", 0xC1F1DCC1, 1, 1, 72)
    offset = 0
    for p in packets:
        ts_begin, ts_end, content, size, seq, discarded = struct.unpack_from(
            "<QQQQQQ", p, 32)
        idx += struct.pack(">QQQQQQQQQ", offset, size, content, ts_begin,
                           ts_end, discarded, 0, 0, seq)
        offset += len(p)
    return idx


def le16(data):
    assert len(data) < 65536
    return struct.pack("<H", len(data)) + data


def tracedir_seeds(name, packets, cls):
    """fuzz-tracedir inputs (tests/fuzz/fuzz-tracedir.c): the stream with
    its index, without (scanned), and cut in two files of one stream (an
    LTTng rotation) each with its index."""
    F_IDX0, F_TWO, F_IDX1 = 4, 8, 16
    stream = b"".join(packets)
    out = {
        "indexed": bytes([cls | F_IDX0]) + le16(lttng_index(packets)) +
        stream,
        "scanned": bytes([cls]) + stream,
    }
    if len(packets) > 1:
        a, b = packets[:1], packets[1:]
        out["two-files"] = (bytes([cls | F_IDX0 | F_TWO | F_IDX1]) +
                            le16(lttng_index(a)) + le16(b"".join(a)) +
                            le16(lttng_index(b)) + b"".join(b))
    os.makedirs(OUT_TRACEDIR, exist_ok=True)
    for kind, data in out.items():
        with open(os.path.join(OUT_TRACEDIR, f"{name}-{kind}"), "wb") as f:
            f.write(data)


def main():
    os.makedirs(OUT, exist_ok=True)
    seeds = {
        "all-classes": [[(0, False), (1, False), (2, False), (3, False),
                         (4, False), (4, False), (3, False), (2, False),
                         (1, False), (0, False), (4, True)]],
        "joined-runs": [[(3, False)] * 6 + [(2, False), (3, False)],
                        [(3, False), (3, True), (3, False)]],
        "extended-headers": [[(3, True), (0, True), (1, True), (2, True)]],
    }
    # first byte: 0 the compact header's class, 3 the large header's
    for large, prefix in ((False, "compact-"), (True, "large-")):
        for name, packets in seeds.items():
            cls = 3 if large else 0
            made = [packet(events, 1000 + 100000 * seq, seq, large)
                    for seq, events in enumerate(packets)]
            with open(os.path.join(OUT, prefix + name), "wb") as f:
                f.write(bytes([cls]) + b"".join(made))
            tracedir_seeds(prefix + name, made, cls)
    ctf2_seeds()


def ctf2_seeds():
    data = os.path.join(HERE, "..", "..", "data", "ctf2")
    for name in ("kinds", "utf", "windows"):
        with open(os.path.join(data, name, "metadata"), "rb") as f:
            md = f.read()
        with open(os.path.join(data, name, "stream"), "rb") as f:
            stream = f.read()
        with open(os.path.join(OUT, "ctf2-" + name), "wb") as f:
            f.write(bytes([2]) + le16(md) + stream)


if __name__ == "__main__":
    main()
