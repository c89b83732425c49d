#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""JSON Lines output of ctftextsink (format=json-lines) against babeltrace2's
text of the same traces: every line must parse as JSON (strict: no NaN
literals), and every value the text shows must be the value of the JSON
object of the same event: the time (HH:MM:SS.NNNNNNNNN in UTC from
time_ns) and the delta from the previous event's time_ns, the trace
environment fields, the event name, and the four scopes field by field
(integers in any base, enumerations' labels and container values, floats
as %g prints them, strings byte for byte, arrays, structures, variants,
BLOBs, bit maps, optionals).  The text is parsed with the JSON value as
its guide, so a field that is missing, extra or different fails.

Traces: the bundled ones (examples/traces, tests/data/text,
tests/data/ctf2/kinds) always; with the corpus, every CTF 1.8 unit the
oracle test compares (babeltrace2 2.1.2's text where the corpus has it,
else 2.0.4's) and every CTF 2 unit of ctf2/ (2.1.2's text).

Usage: test-json-lines.py SOURCE_ROOT GST_LAUNCH [ASAN_RUNTIME]
"""
import json
import os
import re
import subprocess
import sys
import time

root, gst_launch = sys.argv[1], sys.argv[2]
env = dict(os.environ)
if len(sys.argv) > 3 and sys.argv[3]:
    env["LD_PRELOAD"] = sys.argv[3]


class Mismatch(Exception):
    pass


INT_RE = re.compile(rb"-?(?:0x[0-9A-F]+|0b[01]+|[0-9]+)")
FLOAT_RE = re.compile(rb"-?(?:nan|inf|[0-9][0-9.e+\-]*)")
ESCAPES = {ord("\\"): b"\\", ord("'"): b"'", ord('"'): b'"', ord("?"): b"?",
           ord("a"): b"\a", ord("b"): b"\b", ord("e"): b"\x1b",
           ord("f"): b"\f", ord("n"): b"\n", ord("r"): b"\r",
           ord("t"): b"\t", ord("v"): b"\v"}


def expect(t, pos, lit):
    if not t.startswith(lit, pos):
        raise Mismatch("expected %r at %d: %r" % (lit, pos, t[pos:pos + 40]))
    return pos + len(lit)


def text_string(t, pos):
    """A babeltrace2-escaped string at @pos: (bytes, end)."""
    pos = expect(t, pos, b'"')
    out = bytearray()
    while True:
        c = t[pos]
        if c == ord('"'):
            return bytes(out), pos + 1
        if c == ord("\\"):
            e = t[pos + 1]
            if e == ord("x"):
                out.append(int(t[pos + 2:pos + 4], 16))
                pos += 4
            else:
                out += ESCAPES[e]
                pos += 2
        else:
            out.append(c)
            pos += 1


def text_int(t, pos):
    m = INT_RE.match(t, pos)
    if not m:
        raise Mismatch("no integer at %d: %r" % (pos, t[pos:pos + 40]))
    s = m.group(0).decode()
    neg = s.startswith("-")
    s = s.lstrip("-")
    if s.startswith("0x"):
        v, based = int(s[2:], 16), True
    elif s.startswith("0b"):
        v, based = int(s[2:], 2), True
    elif len(s) > 1 and s.startswith("0"):
        v, based = int(s[1:], 8), True
    else:
        v, based = int(s), False
    return (-v if neg else v), based, m.end()


def same_int(text_v, based, v):
    if text_v == v:
        return True
    # hexadecimal, octal and binary print the two's complement bits
    return based and v < 0 and any(
        (v - text_v) % (1 << r) == 0 and text_v < (1 << r)
        for r in range(1, 65))


def match_labels(t, pos, labels):
    """Labels of an enumeration (2.1: `{ "A", "B" }` for several, 2.0:
    `"A", "B"`), up to ` : container`."""
    got = []
    if t.startswith(b"<unknown>", pos):
        pos += len(b"<unknown>")
    elif t.startswith(b"{ ", pos):
        pos += 2
        while True:
            s, pos = text_string(t, pos)
            got.append(s)
            if t.startswith(b", ", pos):
                pos += 2
                continue
            pos = expect(t, pos, b" }")
            break
    else:
        while True:
            s, pos = text_string(t, pos)
            got.append(s)
            if t.startswith(b", ", pos):
                pos += 2
                continue
            break
    want = [x.encode("utf-8", "surrogateescape") for x in labels]
    if sorted(got) != sorted(want) or len(set(want)) != len(want):
        raise Mismatch("labels %r != %r" % (got, want))
    return pos


def match_value(t, pos, v):
    if t.startswith(b"{ ", pos) and not isinstance(v, dict) and (
            not isinstance(v, str) or t.startswith(b'{ "', pos)):
        # a CTF 2 optional with a value: babeltrace2 braces it
        pos = match_value(t, pos + 2, v)
        return expect(t, pos, b" }")
    if v is None:
        return expect(t, pos, b"<none>")
    if isinstance(v, bool):
        return expect(t, pos, b"true" if v else b"false")
    if isinstance(v, int):
        tv, based, end = text_int(t, pos)
        if not same_int(tv, based, v):
            raise Mismatch("integer %d != %d" % (tv, v))
        return end
    if isinstance(v, float):
        m = FLOAT_RE.match(t, pos)
        want = ("%g" % v).encode()
        if not m or m.group(0) != want:
            raise Mismatch("float %r != %r" % (m and m.group(0), want))
        return m.end()
    if isinstance(v, str):
        if t.startswith(b'"', pos):
            s, end = text_string(t, pos)
            if s != v.encode("utf-8", "surrogateescape"):
                raise Mismatch("string %r != %r" % (s, v))
            return end
        if t.startswith(b"{", pos):  # a BLOB
            end = t.index(b"}", pos)
            got = bytes.fromhex(t[pos + 1:end].decode())
            if got != bytes.fromhex(v):
                raise Mismatch("BLOB %r != %r" % (got, v))
            return end + 1
        m = FLOAT_RE.match(t, pos)  # "nan", "inf", "-inf"
        if not m or m.group(0).lstrip(b"-") != v.lstrip("-").encode() \
                or (v == "-inf") != m.group(0).startswith(b"-"):
            raise Mismatch("special float %r != %r" % (m and m.group(0), v))
        return m.end()
    if isinstance(v, list):
        if not v:
            return expect(t, pos, b"[ ]")
        pos = expect(t, pos, b"[ ")
        for i, x in enumerate(v):
            if i:
                pos = expect(t, pos, b", ")
            pos = expect(t, pos, b"[%d] = " % i)
            pos = match_value(t, pos, x)
        return expect(t, pos, b" ]")
    assert isinstance(v, dict)
    if set(v) == {"value", "labels"}:
        if t.startswith(b"( ", pos):  # enumeration
            pos = match_labels(t, pos + 2, v["labels"])
            pos = expect(t, pos, b" : container = ")
            pos = match_value(t, pos, v["value"])
            return expect(t, pos, b" )")
        pos = match_value(t, pos, v["value"])  # bit map
        if t.startswith(b" { ", pos):
            pos = match_labels(t, pos + 1, v["labels"])
        elif v["labels"]:
            raise Mismatch("bit map without its flags")
        return pos
    if not v:
        return expect(t, pos, b"{ }")
    pos = expect(t, pos, b"{ ")
    keys = list(v)
    if t.startswith(keys[0].encode("utf-8", "surrogateescape") + b" = ", pos):
        for i, k in enumerate(keys):
            if i:
                pos = expect(t, pos, b", ")
            pos = expect(t, pos, k.encode("utf-8", "surrogateescape") + b" = ")
            pos = match_value(t, pos, v[k])
    else:  # a variant: its selected option's value
        if len(keys) != 1:
            raise Mismatch("struct members %r not in the text" % keys)
        pos = match_value(t, pos, v[keys[0]])
    return expect(t, pos, b" }")


def wall(ns):
    s, frac = divmod(ns, 10**9)
    tm = time.gmtime(s)
    return b"%02d:%02d:%02d.%09d" % (tm.tm_hour, tm.tm_min, tm.tm_sec, frac)


class Delta:
    def __init__(self):
        self.prev = None

    def text(self, ns):
        if self.prev is None or ns is None:
            d = b"+?.?????????"
        else:
            d = b"+%d.%09d" % divmod(ns - self.prev, 10**9)
        if ns is not None:
            self.prev = ns
        return d


def match_line(t, obj, delta):
    pos = 0
    if "cycles" in obj:
        ns = obj.get("time_ns")
        pos = expect(t, pos, b"[")
        pos = expect(t, pos, wall(ns) if ns is not None else b"Error")
        pos = expect(t, pos, b"] (" + delta.text(ns) + b") ")
    tr = obj["trace"]
    head = []
    for key in ("hostname", "procname"):
        if key in tr:
            head.append(tr[key].encode("utf-8", "surrogateescape"))
    if "vpid" in tr:
        head.append(b"(%d)" % tr["vpid"])
    if head:
        pos = expect(t, pos, b":".join(head) + b" ")
    pos = expect(t, pos, obj["name"].encode("utf-8", "surrogateescape") +
                 b": ")
    first = True
    for scope in ("packet_context", "stream_event_context", "event_context",
                  "payload"):
        if scope not in obj:
            continue
        if not first:
            pos = expect(t, pos, b", ")
        first = False
        pos = match_value(t, pos, obj[scope])
    if pos != len(t):
        raise Mismatch("text left over: %r" % t[pos:pos + 60])


def strict_constant(name):
    raise ValueError("non-standard JSON constant " + name)


def check_unit(unit, oracle):
    """None when the unit's JSON matches @oracle, else why not."""
    r = subprocess.run([gst_launch, "-q", "ctfsrc", "location=" + unit, "!",
                        "ctftextsink", "format=json-lines"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=env, timeout=300)
    if r.returncode != 0:
        return "gst-launch exit %d: %s" % (r.returncode, r.stderr[-300:])
    with open(oracle, "rb") as f:
        text = f.read().split(b"\n")
    out = r.stdout.split(b"\n")
    if out[-1] != b"" or text[-1] != b"":
        return "last line not terminated"
    out, text = out[:-1], text[:-1]
    if len(out) != len(text):
        return "%d JSON lines, %d text lines" % (len(out), len(text))
    delta = Delta()
    for i, (j, t) in enumerate(zip(out, text)):
        try:
            obj = json.loads(j.decode("utf-8"), parse_constant=strict_constant)
        except ValueError as e:
            return "line %d: not JSON (%s): %.200r" % (i + 1, e, j)
        try:
            match_line(t, obj, delta)
        except (Mismatch, KeyError, IndexError, ValueError) as e:
            return "line %d: %s\n    json: %.300s\n    text: %.300r" % (
                i + 1, e, j.decode(), t)
    return None


def corpus_units(corpus):
    """(unit, oracle) of the corpus: the CTF 1.8 units babeltrace2 2.0.4
    reads (2.1.2's text where the corpus has it), the CTF 2 units."""
    units = []
    for d in ("ctf/babeltrace", "ctf/lttng-ust", "ctf/other"):
        base = os.path.join(corpus, d)
        with open(os.path.join(base, "oracle", "STATUS.tsv")) as f:
            rows = [ln.rstrip("\n").split("\t") for ln in f][1:]
        for row in rows:
            if row[1] != "0":
                continue
            o21 = os.path.join(corpus, "ctf/lttng-ust/oracle-bt2.1",
                               row[0] + ".txt")
            oracle = o21 if d == "ctf/lttng-ust" and os.path.exists(o21) \
                else os.path.join(base, "oracle", row[0] + ".txt")
            units.append((os.path.join(base, row[0]), oracle))
    for d, o in (("babeltrace/succeed", "babeltrace/oracle/succeed"),
                 ("babeltrace/intersection", "babeltrace/oracle/intersection"),
                 ("converted", "converted/oracle"),
                 ("lttng-2.15", "lttng-2.15/oracle")):
        base = os.path.join(corpus, "ctf2", d)
        for n in sorted(os.listdir(base)):
            if n != "oracle":
                units.append((os.path.join(base, n),
                              os.path.join(corpus, "ctf2", o, n + ".txt")))
    return units


def main():
    data = os.path.join(root, "tests", "data")
    ex = os.path.join(root, "examples", "traces")
    units = [(os.path.join(ex, "ust-libc"),
              os.path.join(ex, "ust-libc.babeltrace2.txt")),
             (os.path.join(ex, "ust-sample"),
              os.path.join(ex, "ust-sample.babeltrace2-2.1.txt")),
             (os.path.join(data, "text", "enums"),
              os.path.join(data, "text", "enums.bt2.1.txt")),
             (os.path.join(data, "text", "formats"),
              os.path.join(data, "text", "formats.bt2.1.txt")),
             (os.path.join(data, "ctf2", "kinds"),
              os.path.join(data, "ctf2", "kinds.txt"))]
    corpus = os.environ.get("GST_CTF_CORPUS", "")
    if corpus and os.path.isdir(corpus):
        more = corpus_units(corpus)
        if len(sys.argv) > 3 and sys.argv[3]:
            # under the sanitizers (10x slower): every 4th corpus unit
            more = more[::4]
            print("sanitizer build: %d corpus units of %d" % (
                len(more), len(corpus_units(corpus))))
        units += more
    else:
        print("SKIP corpus units: GST_CTF_CORPUS not set or missing; "
              "bundled traces only")
    failures = []
    for unit, oracle in units:
        why = check_unit(unit, oracle)
        rel = os.path.relpath(unit, corpus) if corpus and \
            unit.startswith(corpus) else os.path.relpath(unit, root)
        if why:
            failures.append("FAIL %s: %s" % (rel, why))
            print(failures[-1])
    print("%d/%d traces: JSON lines parse and equal babeltrace2's text "
          "field for field" % (len(units) - len(failures), len(units)))
    sys.exit(1 if failures else 0)


main()
