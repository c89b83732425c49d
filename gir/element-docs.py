#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes the element reference (Markdown) from gst-inspect-1.0 data of
the gst-ctf plugin.  usage: element-docs.py PLUGIN-DIR OUT.md"""
import os
import subprocess
import sys

plugin_dir, out = sys.argv[1], sys.argv[2]
env = dict(os.environ, GST_PLUGIN_PATH=plugin_dir, GST_REGISTRY_FORK="no",
           GST_REGISTRY=os.path.join(os.path.dirname(os.path.abspath(out)),
                                     "registry.bin"))
plugin = subprocess.run(["gst-inspect-1.0", "ctf"], env=env, check=True,
                        capture_output=True, text=True).stdout
names = []
for line in plugin.splitlines():
    line = line.strip()
    if ":" in line and not line.startswith(("+--", "Name", "Description")):
        name = line.split(":")[0].strip()
        if name and " " not in name and name not in ("Filename", "Version",
                                                     "License", "Source",
                                                     "Binary", "Origin"):
            names.append(name)
os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
with open(out, "w") as f:
    f.write("# gst-ctf element reference\n\nGenerated from `gst-inspect-1.0`"
            " by gir/element-docs.py.\n\n## Plugin\n\n```\n%s```\n" % plugin)
    for name in names:
        text = subprocess.run(["gst-inspect-1.0", name], env=env,
                              capture_output=True, text=True).stdout
        if text:
            f.write("\n## %s\n\n```\n%s```\n" % (name, text))
print("wrote %s (%d elements)" % (out, len(names)))
