import struct, os, sys
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
meta = r'''/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
trace {
	major = 1;
	minor = 8;
	byte_order = le;
	uuid = "2a6422d0-6cee-11e0-8c08-cb07d7b3a564";
	packet.header := struct {
		uint32_t magic;
		uint8_t uuid[16];
		uint32_t stream_id;
	};
};
env {
	hostname = "testhost";
	domain = "ust";
	procname = "proc";
	vpid = 42;
};
clock {
	name = c;
	freq = 1000000000;
	offset_s = 1300000000;
	offset = 5;
};
typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := ts64;
stream {
	id = 0;
	packet.context := struct {
		ts64 timestamp_begin;
		ts64 timestamp_end;
		uint64_t content_size;
		uint64_t packet_size;
		uint64_t events_discarded;
		uint32_t cpu_id;
	};
	event.header := struct {
		uint8_t id;
		ts64 timestamp;
	};
	event.context := struct {
		integer { size = 32; align = 8; signed = true; } _tid;
	};
};
event {
	name = "ints";
	id = 0;
	stream_id = 0;
	fields := struct {
		integer { size = 8; align = 8; signed = true; } s8;
		integer { size = 16; align = 8; signed = true; base = 16; } h16s;
		integer { size = 12; align = 8; signed = true; base = 8; } o12s;
		integer { size = 4; align = 1; signed = false; base = 2; } b4;
		integer { size = 5; align = 8; signed = false; base = 2; } b5;
		integer { size = 3; align = 1; signed = false; } u3;
		integer { size = 64; align = 8; signed = false; base = 16; } x64;
		integer { size = 64; align = 8; signed = true; base = 16; } n64;
		integer { size = 64; align = 8; signed = true; } smin;
		integer { size = 64; align = 8; signed = false; } umax;
		integer { size = 7; align = 8; signed = true; base = 16; } h7;
		integer { size = 64; align = 8; signed = false; map = clock.c.value; } hidden_ts;
		integer { size = 8; align = 8; signed = false; base = 8; } o8;
	};
};
event {
	name = "enums";
	id = 1;
	stream_id = 0;
	fields := struct {
		enum : uint8_t { A = 0 ... 2, B = 1 ... 3, A = 5, "C\"q" = 10, _D = 11 } e1;
		enum : uint8_t { A = 0 ... 2, B = 1 ... 3, A = 5, "C\"q" = 10, _D = 11 } e2;
		enum : uint8_t { A = 0 ... 2, B = 1 ... 3, A = 5, "C\"q" = 10, _D = 11 } e3;
		enum : uint8_t { A = 0 ... 2, B = 1 ... 3, A = 5, "C\"q" = 10, _D = 11 } e4;
		enum : integer { size = 16; align = 8; signed = true; base = 16; } { NEG = -10 ... -1, ZERO = 0 } e5;
	};
};
event {
	name = "strs";
	id = 2;
	stream_id = 0;
	fields := struct {
		string s;
		integer { size = 8; align = 8; signed = true; encoding = UTF8; } ta[6];
		uint8_t _len;
		integer { size = 8; align = 8; signed = false; encoding = ASCII; } ts[_len];
		uint8_t na[3];
		integer { size = 8; align = 8; signed = false; encoding = UTF8; } empty[_len2];
		uint8_t __len2;
	};
};
event {
	name = "floats";
	id = 3;
	stream_id = 0;
	fields := struct {
		floating_point { exp_dig = 8; mant_dig = 24; align = 8; } f1;
		floating_point { exp_dig = 11; mant_dig = 53; align = 8; } f2;
		floating_point { exp_dig = 11; mant_dig = 53; align = 8; } f3;
		floating_point { exp_dig = 11; mant_dig = 53; align = 8; } f4;
		floating_point { exp_dig = 11; mant_dig = 53; align = 8; } f5;
		floating_point { exp_dig = 11; mant_dig = 53; align = 8; } f6;
		floating_point { exp_dig = 11; mant_dig = 53; align = 8; } f7;
	};
};
event {
	name = "compound";
	id = 4;
	stream_id = 0;
	fields := struct {
		enum : uint8_t { X, Y, Z } tag;
		variant <tag> { string X; struct { uint8_t a; uint8_t _b; } Y; uint8_t Z; } v;
		struct { } empty;
		struct { uint8_t __two; struct { uint32_t x; } inner; } nest;
		uint8_t n;
		struct { uint8_t p; uint8_t q; } arr[n];
		uint32_t arr2[2];
	};
};
'''
# event.context references "_len2" before declared? fix: move
meta = meta.replace("integer { size = 8; align = 8; signed = false; encoding = UTF8; } empty[_len2];\n\t\tuint8_t __len2;", "uint8_t __len2;\n\t\tinteger { size = 8; align = 8; signed = false; encoding = UTF8; } empty[__len2];")
open(os.path.join(out, 'metadata'), 'w').write(meta)

def ev(id, ts, tid, payload):
    return struct.pack('<BQ', id, ts) + struct.pack('<i', tid) + payload

events = []
base = 1000
# ints
p = struct.pack('<b', -5) + struct.pack('<h', -1)
# o12s: 12 bits signed -1 then b4 4 bits (align 1) -> together 16 bits LE bitfield
v = (0xFFF) | (0b1010 << 12)
p += struct.pack('<H', v)
# b5 (align 8) 5 bits + u3 3 bits
p += struct.pack('<B', (0b10011) | (5 << 5))
p += struct.pack('<Q', 0xDEADBEEF) + struct.pack('<q', -2) + struct.pack('<q', -(2**63)) + struct.pack('<Q', 2**64-1)
p += struct.pack('<B', 0x7f)  # h7 = -1 (7 bits) + pad bit
p += struct.pack('<Q', base + 10)  # same as the header: bt2 takes the event time after the header
p += struct.pack('<B', 8)
events.append(ev(0, base + 10, 7, p))
# enums
p = bytes([1, 5, 4, 10]) + struct.pack('<h', -3)
events.append(ev(1, base + 20, 7, p))
p = bytes([11, 0, 0, 0]) + struct.pack('<h', 0)
events.append(ev(1, base + 20, 7, p))
# strs
s = b'a"b\\c\'d?e\n\t\x01\x7f\x1b\xc3\xa9 end'
p = s + b'\0' + b'ab\0cd\0' + bytes([3]) + b'x\ty' + bytes([1,2,3]) + bytes([0])
events.append(ev(2, base + 1000000007, 8, p))
# floats
import math
p = struct.pack('<f', 0.25) + struct.pack('<d', -0.0) + struct.pack('<d', float('nan')) + struct.pack('<d', float('-inf')) + struct.pack('<d', 1e-300) + struct.pack('<d', 123456789.0) + struct.pack('<d', 5e-324)
events.append(ev(3, base + 3000000000, 9, p))
# compound: tag Y
p = bytes([1, 3, 4]) + bytes([9]) + struct.pack('<I', 77) + bytes([2]) + bytes([1,2,3,4]) + struct.pack('<II', 0, 1)
events.append(ev(4, base + 3000000001, 9, p))
p = bytes([0]) + b'hi\0' + bytes([9]) + struct.pack('<I', 77) + bytes([0]) + struct.pack('<II', 0, 1)
events.append(ev(4, base + 3000000001, 9, p))
body = b''.join(events)
hdr_len = 4 + 16 + 4
ctx_len = 8*5 + 4
content = hdr_len + ctx_len + len(body)
psize = (content + 63) // 64 * 64
def packet(tsb, tse, disc, body):
    content = hdr_len + ctx_len + len(body)
    psize = (content + 63) // 64 * 64
    uuid = bytes.fromhex('2a6422d06cee11e08c08cb07d7b3a564')
    h = struct.pack('<I', 0xC1FC1FC1) + uuid + struct.pack('<I', 0)
    c = struct.pack('<QQQQQI', tsb, tse, content*8, psize*8, disc, 3)
    return (h + c + body).ljust(psize, b'\0')
data = packet(base, base + 3000000002, 0, body)
# second packet: discarded 4 events, 1 event
data += packet(base + 4000000000, base + 4000000010, 4, ev(0, base+4000000005, 1, events[0][13:-9] + struct.pack('<Q', base + 4000000005) + events[0][-1:]))
open(os.path.join(out, 'stream_0'), 'wb').write(data)
