# SPDX-License-Identifier: LGPL-2.1-or-later
"""Prints the directory under PREFIX from which this Python imports modules.

Usage: python3 python-site-dir.py PREFIX DEFAULT

DEFAULT is meson's choice for PREFIX (the Python's own install scheme).
It is printed when this Python looks there (a site directory or on
sys.path): Debian's /usr/lib/python3/dist-packages for prefix /usr.
Otherwise the first site directory under PREFIX is printed (Debian's
/usr/local/lib/python3.X/dist-packages for prefix /usr/local, where
meson's choice, /usr/local/lib/python3/dist-packages, is on no path);
with none, DEFAULT, and exit status 2 so that meson can say that
PYTHONPATH has to name it.
"""
import os
import site
import sys


def main():
    prefix, default = sys.argv[1:3]
    dirs = [d for d in site.getsitepackages() + sys.path if d]
    real = [os.path.realpath(d) for d in dirs]
    if os.path.realpath(default) in real:
        print(default)
        return 0
    top = os.path.realpath(prefix).rstrip("/") + "/"
    for d, r in zip(dirs, real):
        if r.startswith(top) and os.path.basename(r) in ("site-packages",
                                                         "dist-packages"):
            print(d)
            return 0
    print(default)
    return 2


sys.exit(main())
