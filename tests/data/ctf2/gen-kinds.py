#!/usr/bin/env python3
# Writes tests/data/ctf2/kinds: a CTF 2 trace (no packet header or
# context, one event record class, three events) with a field of each
# CTF 2 class CTF 1.8 lacks: boolean, bit array, static- and
# dynamic-length BLOB, unsigned and signed variable-length integers
# (LEB128, up to 2^64-1 and -2^63), optionals with a boolean and an
# integer selector, a variant with an integer selector without mappings,
# a bit map.  kinds.txt is its text: babeltrace2 2.1.2 crashes on this
# trace as a whole (a segmentation fault), so each line was checked field
# by field: `gen-kinds.py DIR FIELD,...` writes the trace with only those
# members, and babeltrace2 2.1.2 printed every subset the same as
# ctftextsink does.
#
#   python3 gen-kinds.py kinds
import json, os, sys
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
def frag(o): return b'\x1e' + json.dumps(o, indent=1).encode() + b'\n'
u8 = {"type": "fixed-length-unsigned-integer", "length": 8, "byte-order": "little-endian", "alignment": 8}
payload = {"type": "structure", "member-classes": [
  {"name": "flag", "field-class": {"type": "fixed-length-boolean", "length": 8, "byte-order": "little-endian", "alignment": 8}},
  {"name": "bits", "field-class": {"type": "fixed-length-bit-array", "length": 8, "byte-order": "little-endian", "alignment": 8}},
  {"name": "blob", "field-class": {"type": "static-length-blob", "length": 3, "media-type": "application/x-test"}},
  {"name": "n", "field-class": u8},
  {"name": "dblob", "field-class": {"type": "dynamic-length-blob", "length-field-location": {"path": ["n"]}}},
  {"name": "vu", "field-class": {"type": "variable-length-unsigned-integer"}},
  {"name": "vs", "field-class": {"type": "variable-length-signed-integer"}},
  {"name": "opt_b", "field-class": {"type": "optional", "selector-field-location": {"path": ["flag"]}, "field-class": u8}},
  {"name": "opt_i", "field-class": {"type": "optional", "selector-field-location": {"path": ["n"]}, "selector-field-ranges": [[1, 2]], "field-class": {"type": "null-terminated-string"}}},
  {"name": "var", "field-class": {"type": "variant", "selector-field-location": {"path": ["n"]}, "options": [
      {"name": "zero", "field-class": u8, "selector-field-ranges": [[0, 0]]},
      {"name": "more", "field-class": {"type": "null-terminated-string"}, "selector-field-ranges": [[1, 255]]}]}},
  {"name": "bm", "field-class": {"type": "fixed-length-bit-map", "length": 8, "byte-order": "little-endian", "alignment": 8, "flags": {"A": [[0, 0]], "B": [[1, 2]]}}},
]}
keep = sys.argv[2].split(',') if len(sys.argv) > 2 else None
if keep: payload["member-classes"] = [m for m in payload["member-classes"] if m["name"] in keep]
md = frag({"type": "preamble", "version": 2}) + frag({"type": "data-stream-class"}) + \
     frag({"type": "event-record-class", "name": "kinds", "payload-field-class": payload})
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
ev = b''
K = lambda x: keep is None or x in keep
for flag, bits, n, vu, vs, bm in [(1, 0xA5, 0, 0, 0, 0), (0, 0x01, 2, 300, -2, 3), (1, 0xFF, 1, 2**64-1, -2**63, 6)]:
  e = b''
  if K("flag"): e += bytes([flag])
  if K("bits"): e += bytes([bits])
  if K("blob"): e += b'\x00\xab\xff'
  if K("n"): e += bytes([n])
  if K("dblob"): e += bytes(range(0x10, 0x10 + n))
  if K("vu"): e += leb_u(vu)
  if K("vs"): e += leb_s(vs)
  if K("opt_b") and flag: e += bytes([7])
  if K("opt_i") and 1 <= n <= 2: e += b'hi\0'
  if K("var"): e += bytes([9]) if n == 0 else b'yo\0'
  if K("bm"): e += bytes([bm])
  ev += e
open(os.path.join(out, "stream"), "wb").write(ev)
