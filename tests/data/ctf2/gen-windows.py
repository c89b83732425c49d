#!/usr/bin/env python3
# Writes tests/data/ctf2/windows: a CTF 2 trace for timefilter and
# ctffilter, whose packets they re-encode: a clock, a packet header and
# context and an event header known by their roles only (member names
# TSDL does not reserve), 4 packets of 30 events, 1 ms apart, of two
# event record classes whose payloads hold the CTF 2 field classes
# CTF 1.8 lacks: boolean, bit array, static- and dynamic-length BLOBs,
# unsigned and signed LEB128 integers, optionals with a boolean and an
# integer selector, a variant with an integer selector, a bit map, and
# UTF-16/32 strings.  babeltrace2 2.1.2 crashes (a segmentation fault)
# on this trace when the bit array `bits` is in it (with `bits` or the
# optional `opt_b` left out it reads it), so `bits` is left out unless
# the second argument (members to leave out, comma separated) says
# otherwise.  Its text is checked against babeltrace2 2.1.2 by
# tests/test-timefilter.c (test_windows_ctf2) when ../shared/tools has it.
#
#   python3 gen-windows.py windows [MEMBER,...]
import json, os, struct, sys
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
def frag(o): return b'\x1e' + json.dumps(o, indent=1).encode() + b'\n'
def uint(n, roles=None, align=8):
  fc = {"type": "fixed-length-unsigned-integer", "length": n, "byte-order": "little-endian", "alignment": align}
  if roles: fc["roles"] = roles
  return fc
def st(*members): return {"type": "structure", "member-classes": [{"name": k, "field-class": v} for k, v in members]}
u8 = uint(8)
trace = {"type": "trace-class", "uid": "gst-ctf-windows",
         "packet-header-field-class": st(("mg", uint(32, ["packet-magic-number"])),
                                         ("sc", uint(8, ["data-stream-class-id"])),
                                         ("si", uint(8, ["data-stream-id"])))}
clock = {"type": "clock-class", "id": "clk", "frequency": 1000000000,
         "origin": "unix-epoch", "offset-from-origin": {"seconds": 1795000000, "cycles": 0}}
dsc = {"type": "data-stream-class", "id": 0, "default-clock-class-id": "clk",
       "packet-context-field-class": st(("total", uint(32, ["packet-total-length"])),
                                        ("content", uint(32, ["packet-content-length"])),
                                        ("begin", uint(64, ["default-clock-timestamp"])),
                                        ("end", uint(64, ["packet-end-default-clock-timestamp"])),
                                        ("lost", uint(32, ["discarded-event-record-counter-snapshot"])),
                                        ("seq", uint(32, ["packet-sequence-number"]))),
       "event-record-header-field-class": st(("cls", uint(8, ["event-record-class-id"])),
                                             ("at", uint(64, ["default-clock-timestamp"])))}
kinds_m = (
  ("flag", {"type": "fixed-length-boolean", "length": 8, "byte-order": "little-endian", "alignment": 8}),
  ("bits", {"type": "fixed-length-bit-array", "length": 8, "byte-order": "little-endian", "alignment": 8}),
  ("blob", {"type": "static-length-blob", "length": 3, "media-type": "application/x-test"}),
  ("n", u8),
  ("dblob", {"type": "dynamic-length-blob", "length-field-location": {"origin": "event-record-payload", "path": ["n"]}}),
  ("vu", {"type": "variable-length-unsigned-integer"}),
  ("vs", {"type": "variable-length-signed-integer"}),
  ("opt_b", {"type": "optional", "selector-field-location": {"origin": "event-record-payload", "path": ["flag"]}, "field-class": u8}),
  ("opt_i", {"type": "optional", "selector-field-location": {"origin": "event-record-payload", "path": ["n"]}, "selector-field-ranges": [[1, 2]], "field-class": {"type": "null-terminated-string"}}),
  ("var", {"type": "variant", "selector-field-location": {"origin": "event-record-payload", "path": ["n"]}, "options": [
      {"name": "zero", "field-class": u8, "selector-field-ranges": [[0, 0]]},
      {"name": "more", "field-class": {"type": "null-terminated-string"}, "selector-field-ranges": [[1, 255]]}]}),
  ("bm", {"type": "fixed-length-bit-map", "length": 8, "byte-order": "little-endian", "alignment": 8, "flags": {"A": [[0, 0]], "B": [[1, 2]]}}),
  ("w16", {"type": "null-terminated-string", "encoding": "utf-16le"}),
  ("m", u8),
  ("w32", {"type": "dynamic-length-string", "encoding": "utf-32be", "length-field-location": {"origin": "event-record-payload", "path": ["m"]}}))
DROP = set(sys.argv[2].split(',')) if len(sys.argv) > 2 else {"bits"}
kinds = st(*[m for m in kinds_m if m[0] not in DROP])
small = st(("x", {"type": "variable-length-unsigned-integer"}), ("s", {"type": "static-length-string", "length": 4, "encoding": "utf-16be"}))
md = frag({"type": "preamble", "version": 2}) + frag(trace) + frag(clock) + frag(dsc) + \
     frag({"type": "event-record-class", "id": 0, "name": "kinds", "payload-field-class": kinds}) + \
     frag({"type": "event-record-class", "id": 1, "name": "small", "payload-field-class": small})
open(os.path.join(out, "metadata"), "wb").write(md)
def leb_u(v):
  b = bytearray()
  while True:
    x = v & 0x7f; v >>= 7
    if v: b.append(x | 0x80)
    else: b.append(x); return bytes(b)
def leb_s(v):
  b = bytearray()
  while True:
    x = v & 0x7f; v >>= 7
    if (v == 0 and not (x & 0x40)) or (v == -1 and (x & 0x40)): b.append(x); return bytes(b)
    b.append(x | 0x80)
words = ["", "h\u00e9", "\U0001F600!", "tab\t", "\u4e2d\u6587"]
def event(k, t):
  if k % 3 == 2:
    s = words[k % 5][:2].encode("utf-16be")[:4].ljust(4, b'\0')
    return bytes([1]) + struct.pack("<Q", t) + leb_u(k * 1000) + s
  n = k % 3
  flag = k & 1
  e = bytes([0]) + struct.pack("<Q", t)
  K = lambda x: x not in DROP
  if K("flag"): e += bytes([flag])
  if K("bits"): e += bytes([k & 0xff])
  if K("blob"): e += bytes([k & 0xff, 0xab, 0xff])
  e += bytes([n])
  if K("dblob"): e += bytes(range(n))
  if K("vu"): e += leb_u(2**64 - 1 if k == 7 else k * 300)
  if K("vs"): e += leb_s(-2**63 if k == 8 else -k * 77)
  if K("opt_b") and flag: e += bytes([k])
  if K("opt_i") and 1 <= n <= 2: e += ("s%d" % k).encode() + b'\0'
  if K("var"): e += bytes([k]) if n == 0 else ("v%d" % k).encode() + b'\0'
  if K("bm"): e += bytes([k & 7])
  if K("w16"): e += words[k % 5].encode("utf-16le") + b'\0\0'
  w = words[(k + 1) % 5].encode("utf-32be")
  e += bytes([len(w)])
  if K("w32"): e += w
  return e
stream = b''
k = 0
base = 1000000
for p in range(4):
  evs = b''
  first = base + k * 1000000
  for i in range(30):
    evs += event(k, base + k * 1000000)
    k += 1
  last = base + (k - 1) * 1000000
  hdr_len = 4 + 1 + 1 + 4 + 4 + 8 + 8 + 4 + 4
  content = (hdr_len + len(evs)) * 8
  total = ((content // 8 + 255) // 256) * 256 * 8
  pkt = struct.pack("<IBBIIQQII", 0xC1FC1FC1, 0, 0, total, content, first, last, 0, p) + evs
  stream += pkt.ljust(total // 8, b'\0')
open(os.path.join(out, "stream"), "wb").write(stream)
