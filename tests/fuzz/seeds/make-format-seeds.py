#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Seeds of fuzz-format: real ftrace event format files.

Usage: make-format-seeds.py OUT_DIR FILE.dat...

Each seed is the fuzz target's input: one byte (bit 0: a 4-byte kernel
long; bits 1-3: the event's system, index into SYSTEMS of fuzz-format.c)
then the text of one format file as `trace-cmd dump --events` prints it.
The events kept are those the LTTng layouts convert (sched, block,
syscalls, kmem, net, irq, timer) plus a few others, from 64-bit and
32-bit (ARM, i686) recordings.
"""
import os
import subprocess
import sys

SYSTEMS = ["other", "sched", "block", "syscalls", "kmem", "net", "irq",
           "timer"]

WANTED = {
    "sched_switch": "sched", "sched_wakeup": "sched",
    "sched_process_fork": "sched", "sched_process_exit": "sched",
    "sched_process_exec": "sched", "sched_stat_runtime": "sched",
    "block_rq_issue": "block", "block_rq_complete": "block",
    "block_bio_queue": "block", "block_getrq": "block",
    "sys_enter_openat": "syscalls", "sys_exit_openat": "syscalls",
    "sys_enter_read": "syscalls", "sys_enter_wait4": "syscalls",
    "sys_enter_mmap": "syscalls",
    "kmalloc": "kmem", "kmem_cache_alloc": "kmem", "kfree": "kmem",
    "mm_page_alloc": "kmem", "mm_page_free": "kmem",
    "net_dev_xmit": "net", "netif_rx": "net", "kfree_skb": "other",
    "softirq_entry": "irq", "irq_handler_entry": "irq",
    "timer_start": "timer", "hrtimer_start": "timer",
    "gpio_value": "other", "workqueue_execute_start": "other",
}


def formats(path):
    out = subprocess.run(["trace-cmd", "dump", "--events", path],
                         capture_output=True, text=True).stdout
    cur = []
    for line in out.splitlines():
        if line.startswith("name: "):
            if cur:
                yield cur
            cur = [line]
        elif cur:
            cur.append(line)
    if cur:
        yield cur


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for path in sys.argv[2:]:
        long4 = "armv7" in path or "i686" in path
        tag = os.path.basename(path).split(".")[0]
        for lines in formats(path):
            name = lines[0][6:].strip()
            if name not in WANTED:
                continue
            flags = (1 if long4 else 0) | (SYSTEMS.index(WANTED[name]) << 1)
            text = "\n".join(lines).rstrip() + "\n"
            with open(os.path.join(out_dir, f"{tag}-{name}"), "wb") as f:
                f.write(bytes([flags]) + text.encode())


if __name__ == "__main__":
    main()
