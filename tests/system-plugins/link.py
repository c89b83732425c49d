#!/usr/bin/env python3
"""Makes DIR hold symbolic links to the few system GStreamer plugins the
tests use, so that tests load those and nothing else from the system.

Usage: link.py DIR SYSTEM_PLUGIN_DIR NAME...

NAME is a plugin file's stem without "libgst" (coreelements, app, ...).
Plugins that are not installed are left out: the tests that need them
skip with a message.  The tests build their registry in-process
(GST_REGISTRY_FORK=no, the forked scanner is not built with the
sanitizers), so every plugin found would be loaded into the test process:
what other plugins leak at load time, or a plugin linked with
-ffast-math (which sets the CPU's flush-to-zero mode for the whole
process), would then change our tests' outcome on machines that have
them.
"""
import os
import sys


def main():
    out, sysdir, names = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(out, exist_ok=True)
    for entry in os.listdir(out):
        path = os.path.join(out, entry)
        if os.path.islink(path):
            os.unlink(path)
    for name in names:
        src = os.path.join(sysdir, "libgst%s.so" % name)
        if os.path.exists(src):
            os.symlink(src, os.path.join(out, os.path.basename(src)))
            print("system plugin for the tests: %s" % src)
        else:
            print("system plugin for the tests: %s not installed" % src)


if __name__ == "__main__":
    main()
