#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes the seeds of fuzz-live (tests/fuzz/fuzz-live.c): replies of an
LTTng live relay, one file per command, with the 6-byte prefix the target
reads (command, minor selector, GET_PACKET length asked)."""
import os
import struct
import sys

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.dirname(os.path.dirname(os.path.dirname(here)))
out = os.path.join(here, 'live')
os.makedirs(out, exist_ok=True)


def seed(name, cmd, minor15, asked, body):
    with open(os.path.join(out, name), 'wb') as f:
        f.write(bytes([cmd - 1, 200 if minor15 else 0]) +
                struct.pack('>I', asked) + body)


def fixed(s, n):
    b = s.encode()
    return b + b'\0' * (n - len(b))


def stream(i, trace, meta, path, chan):
    return struct.pack('>QQI', i, trace, meta) + fixed(path, 4096) + \
        fixed(chan, 255)


seed('connect', 1, False, 0, struct.pack('>QIII', 42, 2, 13, 1))
s24 = struct.pack('>QIII', 1, 100000, 0, 3) + fixed('host', 64) + \
    fixed('session', 255)
seed('list-2.4', 2, False, 0, struct.pack('>I', 2) + s24 + s24)
s15 = struct.pack('>QIIIIII', 1, 100000, 0, 3, 5, 8, 1) + b'host\0session\0'
seed('list-2.15', 2, True, 0, struct.pack('>I', 1) + s15)
streams = stream(1, 1, 1, 'host/s/ust/uid/0/64-bit', 'metadata') + \
    stream(2, 1, 0, 'host/s/ust/uid/0/64-bit', 'channel0_0')
seed('attach', 3, False, 0, struct.pack('>II', 1, 2) + streams)
seed('new-streams', 7, False, 0, struct.pack('>II', 1, 1) + streams[:4371])
idx = struct.pack('>QQQQQQQII', 0, 4096 * 8, 4000 * 8, 1000, 2000, 0, 0, 1, 2)
beacon = struct.pack('>QQQQQQQII', 0, 0, 0, 0, 3000, 0, 0, 5, 0)
seed('index', 4, False, 0, idx + beacon)
seed('packet', 5, False, 16, struct.pack('>III', 1, 16, 0) + bytes(range(16)))
meta_path = os.path.join(top, 'examples', 'traces', 'ust-sample', 'ust',
                         'uid', '0', '64-bit', 'metadata')
with open(meta_path, 'rb') as f:
    meta = f.read()[:6000]
body = b''
for off in range(0, len(meta), 1500):
    piece = meta[off:off + 1500]
    body += struct.pack('>QI', len(piece), 1) + piece
body += struct.pack('>QI', 0, 2)
seed('metadata', 6, False, 0, body)
seed('create', 8, False, 0, struct.pack('>I', 1))
seed('detach', 9, False, 0, struct.pack('>I', 1))
sys.exit(0)
