# Writes a small CTF 1.8 trace whose enumerations have many labels that
# all hold one value, to check the order babeltrace2 prints them in
# (2.1: its label table, a libstdc++ unordered_map: 13, 29, 59, 127, 257
# buckets as it grows), and a few strings and text arrays (empty, bytes
# after a NUL, bytes >= 0x80).  Usage: gen-enums.py OUTDIR
import os
import struct
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def labels(prefix, n, lo, hi):
    return ', '.join('%s%d = %d ... %d' % (prefix, i, lo, hi)
                     for i in range(n))


meta = r'''/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
trace {
	major = 1;
	minor = 8;
	byte_order = le;
	uuid = "5b1c0a64-2f0e-4c43-9a7e-1d2c3b4a5f60";
	packet.header := struct {
		uint32_t magic;
		uint8_t uuid[16];
		uint32_t stream_id;
	};
};
env {
	hostname = "enumhost";
};
clock {
	name = c;
	freq = 1000000000;
	offset_s = 1400000000;
};
typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := ts64;
stream {
	id = 0;
	packet.context := struct {
		ts64 timestamp_begin;
		ts64 timestamp_end;
		uint64_t content_size;
		uint64_t packet_size;
	};
	event.header := struct {
		uint8_t id;
		ts64 timestamp;
	};
};
event {
	name = "many";
	id = 0;
	stream_id = 0;
	fields := struct {
		enum : uint8_t { %(l3)s } e3;
		enum : uint8_t { %(l14)s } e14;
		enum : uint8_t { %(l40)s } e40;
		enum : uint32_t { %(l130)s } e130;
		enum : integer { size = 16; align = 8; signed = true; } { %(ls)s, ONLY = -1, "q\"uote" = -7 ... 7, DUP = 20, DUP = -9 ... -8 } es;
	};
};
event {
	name = "strings";
	id = 1;
	stream_id = 0;
	fields := struct {
		string s;
		integer { size = 8; align = 8; signed = false; encoding = UTF8; } ta[6];
		uint8_t _n;
		integer { size = 8; align = 8; signed = false; encoding = UTF8; } seq[_n];
	};
};
''' % {
    'l3': labels('T', 3, 0, 9),
    'l14': labels('F', 14, 0, 9),
    'l40': labels('label_', 40, 5, 200),
    'l130': labels('WIDE_LABEL_NUMBER_', 130, 0, 100000),
    'ls': labels('S', 17, -9, 9),
}
open(os.path.join(out, 'metadata'), 'w').write(meta)

base = 500


def ev(id, ts, payload):
    return struct.pack('<BQ', id, ts) + payload


events = []
for i, (a, b, c, d, e) in enumerate([(1, 2, 7, 99999, -8), (10, 10, 3, 100001, -1),
                                     (0, 9, 200, 0, 20), (2, 3, 5, 5, -9)]):
    events.append(ev(0, base + 10 * i, bytes([a, b, c]) +
                     struct.pack('<I', d) + struct.pack('<h', e)))
for i, (s, ta, seq) in enumerate([(b'', b'\0\0\0\0\0\0', b''),
                                  (b'x', b'ab\0cd\0', b'p\0q'),
                                  (b'', b'\xc3\xa9\xff\x80z\0', b'\xfe\xfa'),
                                  (b'last', b'abcdef', b'')]):
    events.append(ev(1, base + 100 + i, s + b'\0' + ta + bytes([len(seq)]) +
                     seq))
body = b''.join(events)
content = 4 + 16 + 4 + 8 * 4 + len(body)
psize = (content + 63) // 64 * 64
uuid = bytes.fromhex('5b1c0a642f0e4c439a7e1d2c3b4a5f60')
pkt = (struct.pack('<I', 0xC1FC1FC1) + uuid + struct.pack('<I', 0) +
       struct.pack('<QQQQ', base, base + 200, content * 8, psize * 8) + body)
open(os.path.join(out, 'stream_0'), 'wb').write(pkt.ljust(psize, b'\0'))
