#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""gst-ctf-viewer and GstCtfGtkEventModel on live LTTng sessions.

1. The tests' relay (test-live-relay, tests/live-relay.c) serving the
   bundled ust-sample: the viewer opened on its net:// URL, while the
   session runs (--never-end), shows every event with the status
   "Live: N events so far, following" and saves a screenshot
   (SHOTS/live-running.png); on a session that ends it says "Live session
   ended: N events"; a missing session is an error message and exit 1.
   --live-seek=last shows what `lttnglivesrc seek=last` reads, --filter
   the rows of `lttnglivesrc ! ctffilter`, and --export writes what
   `lttnglivesrc ! timefilter ! ctfsink` writes (babeltrace2's text).
2. Real LTTng daemons (lttng-relayd on 127.0.0.1 with ports of its own
   and lttng-sessiond --no-kernel, in a private mount namespace, stopped
   by pid, as tests/test-lttng-live-real.py starts them): a live UST
   session with per-UID buffers, then per-PID buffers (a trace per
   process, joining while the session runs) records two tracef() apps
   while gtk-live-dump (the model) follows it.  The model must have rows
   while the session still runs (before `lttng destroy`), end by itself
   once it is destroyed, and its rows (count, time, name, fields) must
   equal babeltrace2's lines for the same session: lttng-relayd 2.13 lets
   one viewer attach to a session (a second `babeltrace2 -i lttng-live`
   is refused), so babeltrace2 reads what the relay recorded of it (its
   output directory), as tests/test-lttng-live-real.py does.  The same
   model's filter (made as the session starts), its search next/previous
   and the viewer's export of a range (gtk-live-dump --filter --export)
   equal babeltrace2's lines that keep the filter's condition and
   `babeltrace2 --begin --end` on the relay's output.  Skipped
   with a message when the daemons, babeltrace2, a C compiler, lttng-ust,
   unshare or root are missing.

usage: test-viewer-live.py VIEWER DUMP RELAY EXAMPLES SHOTS GST_LAUNCH [ASAN]
(ASAN: the sanitizer runtime gst-launch-1.0 preloads in a sanitizer build)
"""
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

APP = r'''
#include <stdlib.h>
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
  /* stay until told: the per-PID trace of a process that ended can be
   * lost by lttng-relayd 2.13 before a viewer got it */
  while (argc > 2 && access (argv[2], F_OK) != 0)
    usleep (10000);
  return 0;
}
'''


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def stop(proc):
    if proc and proc.poll() is None:
        os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()


class Relay:
    """test-live-relay on a directory; stops when its stdin closes."""

    def __init__(self, relay, trace, never_end=False):
        args = [relay] + (['--never-end'] if never_end else []) + [trace]
        self.p = subprocess.Popen(args, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        self.port = int(self.p.stdout.readline())

    def url(self, session='testsession'):
        return 'net://127.0.0.1:%d/host/testhost/%s' % (self.port, session)

    def close(self):
        self.p.stdin.close()
        self.p.wait(30)


def run_viewer(viewer, url, extra, timeout=120):
    return subprocess.run([viewer, url, '--quit-after-load',
                           '--print-selected', '--size', '1280x800'] + extra,
                          capture_output=True, text=True, timeout=timeout)


def stand_in(viewer, relay, examples, shots):
    trace = os.path.join(examples, 'ust-sample')
    n = 358
    os.makedirs(shots, exist_ok=True)
    png = os.path.join(shots, 'live-running.png')
    if os.path.exists(png):
        os.unlink(png)
    r = Relay(relay, trace, never_end=True)
    try:
        p = run_viewer(viewer, r.url(), ['--screenshot-rows', str(n),
                                         '--screenshot', png])
    finally:
        r.close()
    if p.returncode != 0:
        fail('viewer on a running session: exit %d\n%s%s' %
             (p.returncode, p.stdout, p.stderr))
    want = 'status Live: %d events so far, following' % n
    if ('shown %d' % n) not in p.stdout or want not in p.stdout:
        fail('viewer on a running session printed %r, expected %r' %
             (p.stdout, want))
    if not os.path.exists(png) or os.path.getsize(png) < 20000:
        fail('no screenshot of the running session (%s)' % png)
    print('OK: running session: %d rows, following, screenshot %s' %
          (n, png))

    r = Relay(relay, trace)
    try:
        p = run_viewer(viewer, r.url(), ['--screenshot',
                                         os.path.join(shots,
                                                      'live-ended.png')])
    finally:
        r.close()
    want = 'status Live session ended: %d events' % n
    if p.returncode != 0 or want not in p.stdout:
        fail('viewer on an ending session: exit %d, %r, expected %r' %
             (p.returncode, p.stdout + p.stderr, want))
    print('OK: ended session: ' + want)

    r = Relay(relay, trace)
    try:
        p = run_viewer(viewer, r.url('nosuch'), [])
    finally:
        r.close()
    if p.returncode != 1 or 'No session "nosuch"' not in p.stderr:
        fail('viewer on a missing session: exit %d, %r' %
             (p.returncode, p.stderr))
    print('OK: missing session: exit 1, ' + next(
        l for l in p.stderr.splitlines() if 'No session' in l))


def stand_in_tools(viewer, relay, examples, gst_launch, asan):
    """--live-seek=last, --filter and --export on sessions of the tests'
    relay, against lttnglivesrc pipelines on a relay serving the same."""
    trace = os.path.join(examples, 'ust-sample')
    genv = dict(os.environ)
    if asan:
        # a sanitizer build's plugin needs its runtime loaded first
        genv['LD_PRELOAD'] = asan
        genv.setdefault('ASAN_OPTIONS', 'detect_leaks=0')

    def pipeline(tail, seek=''):
        r = Relay(relay, trace)
        try:
            p = subprocess.run([gst_launch, '-q', 'lttnglivesrc',
                                'url=' + r.url(), 'session-not-found=end'] +
                               ([seek] if seek else []) + ['!'] + tail,
                               capture_output=True, text=True, timeout=120,
                               env=genv)
        finally:
            r.close()
        if p.returncode != 0:
            fail('gst-launch %s: %s' % (' '.join(tail), p.stderr))
        return p.stdout

    def viewer_on(extra):
        r = Relay(relay, trace)
        try:
            return run_viewer(viewer, r.url(), extra)
        finally:
            r.close()

    tmp = tempfile.mkdtemp(prefix='gtk-viewer-live-tools-')
    try:
        txt = os.path.join(tmp, 'last.txt')
        pipeline(['ctftextsink', 'location=' + txt], 'seek=last')
        with open(txt) as f:
            n = len([line for line in f if line.strip()])
        p = viewer_on(['--live-seek=last'])
        want = 'status Live session ended: %d events' % n
        if p.returncode != 0 or want not in p.stdout or n >= 358:
            fail('viewer --live-seek=last: exit %d, %r, expected %r' %
                 (p.returncode, p.stdout + p.stderr, want))
        print('OK: --live-seek=last: ' + want)
        p = subprocess.run([viewer, 'net://127.0.0.1:1/host/h/s',
                            '--live-seek=end'], capture_output=True,
                           text=True, timeout=60)
        if p.returncode != 2 or '--live-seek' not in p.stderr:
            fail('viewer --live-seek=end: exit %d, %r' % (p.returncode,
                                                         p.stderr))

        txt = os.path.join(tmp, 'cpu1.txt')
        pipeline(['ctffilter', 'cpus=1', '!', 'ctftextsink',
                  'location=' + txt])
        with open(txt) as f:
            n = len([line for line in f if line.strip()])
        p = viewer_on(['--filter', 'cpus=1'])
        if p.returncode != 0 or ('shown %d' % n) not in p.stdout:
            fail('viewer --filter cpus=1 on a live session: exit %d, %r, '
                 'expected "shown %d"' % (p.returncode, p.stdout + p.stderr,
                                          n))
        print('OK: --filter on a live session: shown %d' % n)

        # rows 89..268 of ust-sample, ns from the clock origin
        start, end = 1795307694382985344, 1795307694383686101
        ours = os.path.join(tmp, 'viewer')
        theirs = os.path.join(tmp, 'pipeline')
        p = viewer_on(['--select-range', '%d:%d' % (start, end),
                       '--export', ours])
        if p.returncode != 0:
            fail('viewer --export on a live session: exit %d, %r' %
                 (p.returncode, p.stdout + p.stderr))
        pipeline(['timefilter', 'start-time=%d' % start,
                  'end-time=%d' % end, '!', 'ctfsink',
                  'location=' + theirs])
        if shutil.which('babeltrace2') is None:
            print('SKIP (live export): no babeltrace2')
            return
        a, b = (subprocess.run(['babeltrace2', d], capture_output=True,
                               text=True).stdout for d in (ours, theirs))
        if a != b or not a:
            fail('viewer --export of a live session differs from '
                 'lttnglivesrc ! timefilter ! ctfsink (%d, %d lines)' %
                 (len(a.splitlines()), len(b.splitlines())))
        print('OK: --export of a live session: %d events, as lttnglivesrc '
              '! timefilter ! ctfsink' % len(a.splitlines()))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ---- real daemons ----

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


BT2_LINE = re.compile(r'^\[([0-9:.]+)\] \(\+[^)]*\) (?:\S+ )??(\S+): (.*)$')


def bt2_rows(text):
    rows = []
    for line in text.splitlines():
        if not line.strip():
            continue
        m = BT2_LINE.match(line)
        if m is None:
            fail('not a babeltrace2 event line: %r' % line)
        rows.append('%s %s: %s' % m.groups())
    return rows


# the filter model and the search on the session (gtk-live-dump --filter)
FILTER = 'lttng_ust_tracef/event: _msg_length > 13'
MSG_LENGTH = re.compile(r'_msg_length = ([0-9]+)')


def check_tools(mode, rest, theirs, session_dir, export_dir, denv):
    """gtk-live-dump's filter rows (its search walked the same) against
    babeltrace2's lines that keep FILTER's condition, and its export of a
    range against `babeltrace2 --begin --end` on what the relay
    recorded."""
    if not rest or not rest[0].startswith('filter '):
        fail('%s: gtk-live-dump printed no filter rows: %r' % (mode,
                                                               rest[:2]))
    n = int(rest[0].split()[1])
    ours = rest[1:1 + n]
    want = [r for r in theirs
            if int(MSG_LENGTH.search(r).group(1)) > 13]
    if ours != want or not want:
        fail('%s: filter "%s": %d rows, %d of babeltrace2\'s lines keep it'
             % (mode, FILTER, len(ours), len(want)))
    exp = rest[1 + n:]
    if len(exp) != 1 or not exp[0].startswith('export '):
        fail('%s: gtk-live-dump printed no export: %r' % (mode, exp))
    start, end = (int(x) for x in exp[0].split()[1:3])
    bound = lambda ns: '%d.%09d' % (ns // 10**9, ns % 10**9)
    o = subprocess.run(['babeltrace2', '--begin=' + bound(start),
                        '--end=' + bound(end)] + session_dir,
                       capture_output=True, text=True, env=denv)
    e = subprocess.run(['babeltrace2', export_dir], capture_output=True,
                       text=True, env=denv)
    if o.returncode != 0 or e.returncode != 0:
        fail('%s: babeltrace2: %s %s' % (mode, o.stderr, e.stderr))
    a, b = bt2_rows(e.stdout), bt2_rows(o.stdout)
    if a != b or not a:
        fail('%s: the live export of %d..%d ns has %d events, babeltrace2 '
             '--begin --end %d' % (mode, start, end, len(a), len(b)))
    print('OK: real daemons, per-%s buffers: filter, search (%d matches) '
          'and export (%d events) of the live session' % (mode.upper(),
                                                          len(ours), len(a)))


def real_session(env, tmp, ports, app, dump, relay_out, mode):
    c, d, l = ports
    name = 'gtklive%d%s' % (os.getpid(), mode)
    host = socket.gethostname()
    url = 'net://127.0.0.1:%d/host/%s/%s' % (l, host, name)
    lttng = lambda *a: subprocess.run(['lttng'] + list(a), env=env,
                                      check=True, capture_output=True)
    procs = []
    try:
        lttng('create', name, '--live=100000',
              '--set-url=net://127.0.0.1:%d:%d' % (c, d))
        lttng('enable-channel', '-u', '--buffers-' + mode, 'ch')
        lttng('enable-event', '-u', '-c', 'ch', 'lttng_ust_tracef:*')
        lttng('start')
        denv = dict(env, TZ='UTC')
        export_dir = os.path.join(tmp, 'export-' + mode)
        model = subprocess.Popen([dump, url, '--filter', FILTER,
                                  '--export', export_dir], env=denv,
                                 stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        procs.append(model)
        time.sleep(0.5)
        cpus = sorted(os.sched_getaffinity(0))
        done = os.path.join(tmp, 'apps-may-end-' + mode)
        apps = [subprocess.Popen(['taskset', '-c', str(cpus[k % len(cpus)]),
                                  app, n, done], env=env)
                for k, n in enumerate(('300', '100'))]
        procs += apps
        started = time.monotonic()
        # rows while the session runs: before it is destroyed
        line = model.stdout.readline()
        if not line.startswith('loading '):
            fail('%s: the model gave no rows while the session ran (%r, %s)'
                 % (mode, line, model.stderr.read() if model.poll()
                    is not None else 'still running'))
        # (the apps' 400 events are all out well before then)
        time.sleep(max(0.0, started + 1.5 - time.monotonic()))
        lttng('stop')
        lttng('destroy', name)
        open(done, 'w').close()
        for p in apps:
            if p.wait(30) != 0:
                fail('the app failed')
        try:
            mout, merr = model.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            fail('%s: the model did not end after the session was '
                 'destroyed' % mode)
        if model.returncode != 0:
            fail('%s: model exit %d (%s)' % (mode, model.returncode, merr))
        session_dir = [os.path.join(dp, x) for dp, dn, fn in
                       os.walk(relay_out) for x in dn
                       if x.startswith(name + '-')]
        oracle_name = 'babeltrace2 on the relay output'
        o = subprocess.run(['babeltrace2'] + session_dir[:1],
                           capture_output=True, text=True, env=denv)
        if o.returncode != 0:
            fail('%s: babeltrace2 %s: %s' % (mode, session_dir, o.stderr))
        oout = o.stdout
        lines = mout.splitlines()
        if not lines or not lines[0].startswith('rows '):
            fail('%s: gtk-live-dump printed %r' % (mode, mout[:200]))
        n_rows = int(lines[0].split()[1])
        ours, theirs = lines[1:1 + n_rows], bt2_rows(oout)
        rest = lines[1 + n_rows:]
        if len(theirs) != 400:
            fail('%s: %s printed %d events, expected 400' %
                 (mode, oracle_name, len(theirs)))
        if ours != theirs:
            diff = next(((a, b) for a, b in zip(ours, theirs) if a != b),
                        None)
            fail('%s: %d rows in the model, %d from %s; first difference: '
                 '%r' % (mode, len(ours), len(theirs), oracle_name, diff))
        print('OK: real daemons, per-%s buffers: %d rows (%s while the '
              'session ran) equal to %s' % (mode.upper(), len(ours),
                                            line.split()[1], oracle_name))
        check_tools(mode, rest, theirs, session_dir[:1], export_dir, denv)
    finally:
        for p in procs:
            stop(p)


def real_inner(dump, gst_launch):
    tmp = tempfile.mkdtemp(prefix='gtk-live-real-')
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
        f.write(APP)
    # (not the sanitizer's preload: the app and lttng tools are not ours)
    cenv = {k: v for k, v in env.items() if k != 'LD_PRELOAD'}
    r = subprocess.run(['cc', '-o', app, app_src, '-llttng-ust', '-ldl'],
                       capture_output=True, text=True, env=cenv)
    relayd = sessiond = None
    try:
        if r.returncode != 0:
            print('SKIP: cannot build a lttng-ust app: ' +
                  r.stderr.strip()[:200])
            return 0
        ports = free_ports(3)
        c, d, l = ports
        relayd = subprocess.Popen(
            ['lttng-relayd', '-C', 'tcp://127.0.0.1:%d' % c,
             '-D', 'tcp://127.0.0.1:%d' % d, '-L', 'tcp://127.0.0.1:%d' % l,
             '-o', os.path.join(tmp, 'relay-out')], env=cenv,
            stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(tmp, 'relayd.log'), 'w'))
        sessiond = subprocess.Popen(
            ['lttng-sessiond', '--no-kernel'], env=cenv,
            stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(tmp, 'sessiond.log'), 'w'))
        ready = False
        for _ in range(100):
            if relayd.poll() is not None or sessiond.poll() is not None:
                break
            ok = subprocess.run(['lttng', 'list'], env=cenv,
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
            print('SKIP: the LTTng daemons did not start')
            return 0
        for mode in ('uid', 'pid'):
            real_session(cenv, tmp, ports, app, dump,
                         os.path.join(tmp, 'relay-out'), mode)
        return 0
    finally:
        stop(sessiond)
        stop(relayd)
        for d in ('/dev/shm', '/var/run/lttng'):
            subprocess.run(['umount', d])
        shutil.rmtree(tmp, ignore_errors=True)


def real(dump, gst_launch):
    for prog in ('lttng', 'lttng-sessiond', 'lttng-relayd', 'babeltrace2',
                 'cc', 'unshare', 'taskset'):
        if shutil.which(prog) is None:
            print('SKIP (real daemons): %s not found (sh '
                  'scripts/install-deps.sh)' % prog)
            return
    if os.geteuid() != 0:
        print('SKIP (real daemons): needs root for a private mount '
              'namespace')
        return
    if subprocess.run(['unshare', '-m', '--propagation', 'private',
                       'true']).returncode != 0:
        print('SKIP (real daemons): unshare -m is not allowed here')
        return
    env = dict(os.environ, GST_CTF_GTK_LIVE_REAL_INNER='1')
    rc = subprocess.run(['unshare', '-m', '--propagation', 'private',
                         sys.executable] + sys.argv, env=env).returncode
    if rc != 0:
        sys.exit(rc)


def main():
    viewer, dump, relay, examples, shots, gst_launch = sys.argv[1:7]
    asan = sys.argv[7] if len(sys.argv) > 7 else ''
    if os.environ.get('GST_CTF_GTK_LIVE_REAL_INNER') == '1':
        sys.exit(real_inner(dump, gst_launch))
    stand_in(viewer, relay, examples, shots)
    stand_in_tools(viewer, relay, examples, gst_launch, asan)
    real(dump, gst_launch)


if __name__ == '__main__':
    main()
