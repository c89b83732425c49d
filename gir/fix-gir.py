#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Makes GstCtf-1.0.gir compilable by g-ir-compiler 1.74.

g-ir-compiler (gobject-introspection <= 1.74, girparser.c state_switch)
aborts on a <record> nested in a <record> or <union>, which is how
g-ir-scanner writes the anonymous structures of the trace model
(GstCtfFieldClass.integer, GstCtfFieldValue.v.s).  Those C structures are
not boxed types and bindings never allocate them, so they become opaque
records: their fields are dropped (a binding would otherwise compute wrong
field offsets) and a note says why.

usage: fix-gir.py IN.gir OUT.gir
"""
import sys
import xml.dom.minidom

NESTABLE = ("record", "union")


def has_nested_record(node):
    for ch in node.childNodes:
        if ch.nodeType == ch.ELEMENT_NODE and ch.tagName in NESTABLE:
            return True
    return False


def main():
    src, dst = sys.argv[1], sys.argv[2]
    doc = xml.dom.minidom.parse(src)
    fixed = []
    for rec in doc.getElementsByTagName("record"):
        if rec.parentNode is None or \
                rec.parentNode.tagName != "namespace":
            continue
        if not has_nested_record(rec) and not any(
                has_nested_record(u) for u in rec.childNodes
                if u.nodeType == u.ELEMENT_NODE and u.tagName in NESTABLE):
            continue
        for ch in list(rec.childNodes):
            if ch.nodeType == ch.ELEMENT_NODE and \
                    ch.tagName in ("field",) + NESTABLE:
                rec.removeChild(ch)
        fixed.append(rec.getAttribute("name"))
    with open(dst, "w", encoding="utf-8") as f:
        f.write(doc.toxml(encoding="utf-8").decode("utf-8"))
        f.write("\n")
    if fixed:
        print("fix-gir: opaque records (nested anonymous structures): " +
              ", ".join(fixed))


if __name__ == "__main__":
    main()
