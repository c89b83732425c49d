#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""lttnglivesrc against real LTTng daemons (Debian's lttng-tools 2.13).

In a private mount namespace (tmpfs on /var/run/lttng and /dev/shm, so no
other session daemon is seen or disturbed) and a temporary LTTNG_HOME:
lttng-relayd on 127.0.0.1 with unique ports and lttng-sessiond
--no-kernel; a live UST session (per-UID buffers, --live=100000) records a
small tracef() app (two at once, on two CPUs, started after the viewer
attached) while `lttnglivesrc ! ctfsink` follows it, once with per-UID
and once with per-PID buffers (a trace per process), then once more
per-UID with lttnglivesrc's default properties (session-not-found=wait)
into ctftextsink; the session is destroyed, the source must end by
itself, and babeltrace2 must print the same events for what ctfsink
wrote (or ctftextsink's text) and for the relay's own output
directory.  Every daemon is stopped by its pid.  Prints SKIP and passes
when the daemons, a C compiler, lttng-ust or unshare are missing.

usage: test-lttng-live-real.py SOURCE_ROOT GST_LAUNCH [ASAN_RUNTIME]
"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

APP = r'''
#include <lttng/tracef.h>
#include <unistd.h>
int main (int argc, char **argv)
{
  int i, n = argc > 1 ? atoi (argv[1]) : 200;
  for (i = 0; i < n; i++) {
    tracef ("live event %d", i);
    if (i % 20 == 0)
      usleep (20000);
  }
  /* stay until told (argv[2] exists): lttng-relayd 2.13 can lose the
   * streams of a per-PID trace whose process ended before a viewer got
   * them, babeltrace2 as well */
  while (argc > 2 && access (argv[2], F_OK) != 0)
    usleep (10000);
  return 0;
}
'''


def skip(why):
    print('SKIP: ' + why)
    sys.exit(0)


def free_ports(n):
    socks, ports = [], []
    for _ in range(n):
        s = socket.socket()
        s.bind(('127.0.0.1', 0))
        socks.append(s)
        ports.append(s.getsockname()[1])
    for s in socks:
        s.close()
    return ports


def stop(proc):
    if proc and proc.poll() is None:
        os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()


def events(text):
    # the event lines without the delta column (babeltrace2 prints it
    # relative to the previous line, equal when the lines are)
    return [l for l in text.splitlines() if l.strip()]


def inner(root, gst_launch, asan):
    tmp = tempfile.mkdtemp(prefix='lttng-live-real-')
    for d in ('/var/run/lttng', '/dev/shm'):
        os.makedirs(d, exist_ok=True)
        subprocess.run(['mount', '-t', 'tmpfs', 'tmpfs', d], check=True)
    env = dict(os.environ)
    env['LTTNG_HOME'] = os.path.join(tmp, 'home')
    env['HOME'] = env['LTTNG_HOME']
    os.makedirs(env['LTTNG_HOME'])
    app_src = os.path.join(tmp, 'app.c')
    app = os.path.join(tmp, 'app')
    with open(app_src, 'w') as f:
        f.write('#include <stdlib.h>\n' + APP)
    r = subprocess.run(['cc', '-o', app, app_src, '-llttng-ust', '-ldl'],
                       capture_output=True, text=True)
    if r.returncode != 0:
        skip('cannot build a lttng-ust app: ' + r.stderr.strip()[:200])
    c, d, l = free_ports(3)
    relay_out = os.path.join(tmp, 'relay-out')
    relayd = sessiond = viewer = None
    try:
        relayd = subprocess.Popen(
            ['lttng-relayd', '-C', 'tcp://127.0.0.1:%d' % c,
             '-D', 'tcp://127.0.0.1:%d' % d, '-L', 'tcp://127.0.0.1:%d' % l,
             '-o', relay_out], env=env, stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(tmp, 'relayd.log'), 'w'))
        sessiond = subprocess.Popen(
            ['lttng-sessiond', '--no-kernel'], env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(tmp, 'sessiond.log'), 'w'))
        ready = False
        for _ in range(100):
            if relayd.poll() is not None or sessiond.poll() is not None:
                break
            ok = subprocess.run(['lttng', 'list'], env=env,
                                capture_output=True).returncode == 0
            try:
                socket.create_connection(('127.0.0.1', l), 0.2).close()
            except OSError:
                ok = False
            if ok:
                ready = True
                break
            time.sleep(0.1)
        if not ready:
            skip('the LTTng daemons did not start')
        for mode in ('uid', 'pid', 'wait'):
            rc = session(env, tmp, c, d, l, relay_out, app, gst_launch, asan,
                         mode)
            if rc:
                return rc
        return 0
    finally:
        stop(sessiond)
        stop(relayd)
        for d in ('/dev/shm', '/var/run/lttng'):
            subprocess.run(['umount', d])
        shutil.rmtree(tmp, ignore_errors=True)


def session(env, tmp, c, d, l, relay_out, app, gst_launch, asan, mode):
    """One live session with per-UID or per-PID buffers; 'wait': per-UID,
    lttnglivesrc with its default properties (session-not-found=wait must
    still end when the session it reads is destroyed)."""
    name = 'livetest%d%s' % (os.getpid(), mode)
    lttng = lambda *a: subprocess.run(['lttng'] + list(a), env=env,
                                      check=True, capture_output=True)
    viewer = None
    try:
        lttng('create', name, '--live=100000',
              '--set-url=net://127.0.0.1:%d:%d' % (c, d))
        lttng('enable-channel', '-u',
              '--buffers-' + ('pid' if mode == 'pid' else 'uid'), 'ch')
        lttng('enable-event', '-u', '-c', 'ch', 'lttng_ust_tracef:*')
        lttng('start')
        out = os.path.join(tmp, 'viewer-out-' + mode)
        penv = dict(env)
        if asan:
            # a sanitizer build's plugin needs its runtime loaded first
            penv['LD_PRELOAD'] = asan
            penv.setdefault('ASAN_OPTIONS', 'detect_leaks=0')
        host = socket.gethostname()
        # per-PID: a trace per process; babeltrace2 prints each one's
        # procname and vpid, which a merged trace written by ctfsink does
        # not keep, so the text is compared there
        # (ctftextsink babeltrace-version=2.0 prints nothing before EOS)
        sink = (['ctfsink', 'location=' + out] if mode == 'uid' else
                ['ctftextsink', 'babeltrace-version=2.0', 'location=' + out])
        props = ([] if mode == 'wait' else
                 ['session-not-found=end', 'poll-interval=20'])
        viewer = subprocess.Popen(
            [gst_launch, '-q', 'lttnglivesrc',
             'url=net://127.0.0.1:%d/host/%s/%s' % (l, host, name)] +
            props + ['!'] + sink,
            env=penv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True)
        time.sleep(0.5)
        # two apps at once, on two CPUs when there are two
        cpus = sorted(os.sched_getaffinity(0))
        done = os.path.join(tmp, 'apps-may-end-' + mode)
        apps = [subprocess.Popen(['taskset', '-c', str(cpus[k % len(cpus)]),
                                  app, n, done], env=env)
                for k, n in enumerate(('300', '100'))]
        time.sleep(1.5)
        lttng('stop')
        lttng('destroy', name)
        open(done, 'w').close()
        for p in apps:
            if p.wait() != 0:
                print('FAIL: the app failed')
                return 1
        try:
            vout, _ = viewer.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            stop(viewer)
            print('FAIL: lttnglivesrc %sdid not end after the session was '
                  'destroyed' % ('(default properties) ' if mode == 'wait'
                                 else ''))
            return 1
        if viewer.returncode != 0:
            print('FAIL: lttnglivesrc ! ctfsink: exit %d\n%s' %
                  (viewer.returncode, vout))
            return 1
        if mode == 'uid':
            ours = subprocess.run(['babeltrace2', out], capture_output=True,
                                  text=True, env=dict(env, TZ='UTC'))
        else:
            with open(out) as f:
                ours = subprocess.CompletedProcess([], 0, f.read(), '')
        session_dir = [os.path.join(dp, x) for dp, dn, fn in
                       os.walk(relay_out) for x in dn
                       if x.startswith(name + '-')]
        theirs = subprocess.run(['babeltrace2'] + session_dir[:1],
                                capture_output=True, text=True,
                                env=dict(env, TZ='UTC'))
        if ours.returncode or theirs.returncode:
            print('FAIL: babeltrace2: %s %s' % (ours.stderr, theirs.stderr))
            return 1
        a, b = events(ours.stdout), events(theirs.stdout)
        if len(b) != 400:
            print('FAIL: the relay recorded %d events, expected 400' % len(b))
            return 1
        if a != b:
            print('FAIL: %d events through lttnglivesrc, %d on the relay; '
                  'first difference: %r / %r' % (
                      len(a), len(b),
                      next((x for x, y in zip(a, b) if x != y), None),
                      next((y for x, y in zip(a, b) if x != y), None)))
            return 1
        print('OK: %s: %d events, equal to babeltrace2 on the relay output'
              % ('per-UID buffers, default properties' if mode == 'wait'
                 else 'per-%s buffers' % mode.upper(), len(a)))
        return 0
    finally:
        stop(viewer)


def main():
    root, gst_launch = sys.argv[1], sys.argv[2]
    asan = sys.argv[3] if len(sys.argv) > 3 else ''
    if os.environ.get('GST_CTF_LIVE_REAL_INNER') == '1':
        sys.exit(inner(root, gst_launch, asan))
    for prog in ('lttng', 'lttng-sessiond', 'lttng-relayd', 'babeltrace2',
                 'cc', 'unshare', 'taskset'):
        if shutil.which(prog) is None:
            skip(prog + ' not found (sh scripts/install-deps.sh)')
    if os.geteuid() != 0:
        skip('needs root for a private mount namespace')
    r = subprocess.run(['unshare', '-m', '--propagation', 'private', 'true'])
    if r.returncode != 0:
        skip('unshare -m is not allowed here')
    env = dict(os.environ, GST_CTF_LIVE_REAL_INNER='1')
    sys.exit(subprocess.run(['unshare', '-m', '--propagation', 'private',
                             sys.executable] + sys.argv, env=env).returncode)


if __name__ == '__main__':
    main()
