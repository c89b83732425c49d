#!/usr/bin/env python3
"""Checks the gst-launch-1.0 command lines of the README and docs/*.md:
one that prints text with ctftextsink on stdout must run gst-launch with
-q, or gst-launch's own lines ("Setting pipeline to PAUSED ...") end up
in the text a user redirects to a file.

Usage: check-doc-commands.py SOURCE_ROOT
"""
import glob
import os
import re
import shlex
import sys


def commands(text):
    """gst-launch-1.0 commands of a text, continuation lines joined."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if "gst-launch-1.0" in line:
            start = i + 1
            cmd = line
            while cmd.rstrip().endswith("\\") and i + 1 < len(lines):
                i += 1
                cmd = cmd.rstrip()[:-1] + " " + lines[i]
            yield start, cmd[cmd.index("gst-launch-1.0"):]
        i += 1


def text_to_stdout(cmd):
    """Whether a ctftextsink of the command writes to stdout."""
    cmd = re.split(r"\s#|\||>|`", cmd)[0]
    try:
        words = shlex.split(cmd)
    except ValueError:
        words = cmd.split()
    for k, w in enumerate(words):
        if w.startswith("ctftextsink"):
            props = []
            for w2 in words[k + 1:]:
                if w2 == "!" or w2.endswith("."):
                    break
                props.append(w2)
            if not any(p.startswith("location=") for p in props):
                return True
    return False


def main():
    root = sys.argv[1]
    files = [os.path.join(root, "README.md")] + sorted(
        glob.glob(os.path.join(root, "docs", "*.md")))
    bad = []
    n = 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for line, cmd in commands(text):
            n += 1
            words = cmd.split()
            if text_to_stdout(cmd) and "-q" not in words[1:3]:
                bad.append("%s:%d: %s" % (os.path.relpath(path, root), line,
                                          cmd.strip()))
    print("%d gst-launch-1.0 commands checked" % n)
    for b in bad:
        print("text on stdout without -q: " + b)
    if n == 0:
        print("no command found: wrong source root?")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
