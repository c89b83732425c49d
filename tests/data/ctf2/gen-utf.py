#!/usr/bin/env python3
# Writes tests/data/ctf2/utf: a CTF 2 trace (no packet header or context,
# one event record class, six events) whose strings are UTF-16 and
# UTF-32 in both byte orders: null-terminated (the null code unit is 2 or
# 4 bytes, at a code-unit boundary from the string's start), static-length
# (a null code unit ends the text, bytes after it are ignored) and
# dynamic-length (length in bytes), after odd offsets, U+0100 after
# "a" (00 00 across two UTF-16LE code units is no null code unit), with escapes, a
# byte order mark (a character, not removed), surrogate pairs, U+FFFF and
# U+10FFFF.  utf.txt is what babeltrace2 2.1.2 prints for it
# (`TZ=UTC LC_ALL=C babeltrace2-2.1 utf > utf.txt`).
#
#   python3 gen-utf.py utf
import json, os, sys
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
def frag(o): return b'\x1e' + json.dumps(o, indent=1).encode() + b'\n'
u8 = {"type": "fixed-length-unsigned-integer", "length": 8, "byte-order": "little-endian", "alignment": 8}
def nt(e): return {"type": "null-terminated-string", "encoding": e}
def sl(e, n): return {"type": "static-length-string", "encoding": e, "length": n}
def dl(e, f): return {"type": "dynamic-length-string", "encoding": e, "length-field-location": {"path": [f]}}
members = [("a", u8), ("s16le", nt("utf-16le")), ("s16be", nt("utf-16be")), ("b", u8),
           ("s32le", nt("utf-32le")), ("s32be", nt("utf-32be")), ("f16le", sl("utf-16le", 8)),
           ("f32be", sl("utf-32be", 8)), ("n", u8), ("d32le", dl("utf-32le", "n")),
           ("m", u8), ("d16be", dl("utf-16be", "m")), ("s8", nt("utf-8")), ("c", u8)]
payload = {"type": "structure", "member-classes": [{"name": k, "field-class": v} for k, v in members]}
md = frag({"type": "preamble", "version": 2}) + frag({"type": "data-stream-class"}) + \
     frag({"type": "event-record-class", "name": "utf", "payload-field-class": payload})
open(os.path.join(out, "metadata"), "wb").write(md)
def z(e): return b'\0' * (2 if '16' in e else 4)
def enc(s, e): return s.encode(e)
texts = ["", "h\u00e9llo", "a\u0100b\u0100", "tab\t\"q\" \\ nl\n\x01\x7f", "\ufeffbom \U0001F600 \u4e2d", "\uffff\U0010ffff"]
ev = b''
for i, t in enumerate(texts):
  e = bytes([i])
  e += enc(t, "utf-16le") + z("16")
  e += enc(t[::-1], "utf-16be") + z("16")
  e += bytes([0x40 + i])
  e += enc(t, "utf-32le") + z("32")
  e += enc(t, "utf-32be") + z("32")
  f = enc(t[:3], "utf-16le")[:8]
  if len(f) % 2: f = f[:-1]
  f = (f + b'\0\0' + b'\x00\xd8\xff\xff')[:8] if len(f) < 8 else f
  e += f.ljust(8, b'\0')
  g = enc(t[:1], "utf-32be") + b'\0\0\0\0'
  e += g[:8].ljust(8, b'\xff')
  d = enc(t, "utf-32le")
  e += bytes([len(d)]) + d
  d = enc(t[:4], "utf-16be")
  e += bytes([len(d)]) + d
  e += t.encode("utf-8") + b'\0'
  e += bytes([0x80 + i])
  ev += e
open(os.path.join(out, "stream"), "wb").write(ev)
