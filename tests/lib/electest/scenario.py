# SPDX-License-Identifier: GPL-2.0
"""A VM scenario in Python: tests/vm/lib.sh's helpers, the same names and
output, in one process (no python3 start per assertion: a TCG guest spends
~1.5 s on each). A scenario is an executable file in tests/vm/scenarios/
that tests/vm/run starts inside the guest, as root, in the repository:

    #!/usr/bin/env python3
    import os, sys
    sys.path.insert(0, os.path.join(os.environ.get("ELECTION_REPO", "."),
                                    "tests", "lib"))
    from electest.scenario import Scenario

    s = Scenario()
    s.load() and s.topo(3, 17, 2001) and s.group_setup(1)
    s.start_all(1)
    s.agree(1, 2001)
    s.teardown(1)
    s.end()

Every check prints "PASS: DESC" or "FAIL: DESC" (with the command's
output indented under it) and counts; end() prints "N passed, N failed"
and exits 0 only without a failure. An exception, or an exit before end(),
counts as "scenario ended early" (its traceback shown). The namespaces are
deleted at exit, as lib.sh's trap does.

Tunables (environment, as lib.sh reads them): ELEC_TIMER_SCALE,
ELEC_TIMING, ELEC_BOUND, ELEC_KO, ELEC_DETECTOR; per scenario the
attributes algo, group_opts (a list of words) and pos ({id: position}).
"""

import atexit
import io
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback

from electest import REPO, SCALE, checks, topo

# argparse and friends ask gettext for messages; the guest's locale files
# cost a lookup over 9p each
os.environ.setdefault("LANGUAGE", "C")


_UNITS = {"us": 1, "ms": 1000, "s": 1000000}


def dur(v):
    """@v ("100ms", "1s", "250us", "0.5s") times ELEC_TIMER_SCALE, in the
    largest unit that keeps it an integer, as electionctl reads it
    ("400ms"); lib.sh's elec_dur."""
    m = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)(us|ms|s)", v)
    if not m:
        raise ValueError("not a duration: %r" % v)
    us = round(float(m.group(1)) * _UNITS[m.group(2)] * SCALE)
    if us % 1000000 == 0:
        return "%ds" % (us // 1000000)
    if us % 1000 == 0:
        return "%dms" % (us // 1000)
    return "%dus" % us


def sec(v):
    """The scaled duration of @v (a number: seconds) in seconds, a float;
    lib.sh's elec_sec."""
    if isinstance(v, (int, float)):
        return v * SCALE
    if re.fullmatch(r"[0-9]+(\.[0-9]+)?", v):
        return float(v) * SCALE
    d = dur(v)
    m = re.fullmatch(r"([0-9]+)(us|ms|s)", d)
    return int(m.group(1)) * _UNITS[m.group(2)] / 1e6


def read(path):
    """The text of file @path, "" if it cannot be read (a tracefs or
    sysfs file the kernel does not have)."""
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def kill_children(grace=2.0):
    """SIGTERM to every child process still running (monitors, captures,
    injectors a scenario started and did not stop), SIGKILL after @grace
    seconds, and reap them: run at every scenario's exit, before its
    namespaces go. Returns how many are left (0: all gone)."""
    me, kids = os.getpid(), []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                st = f.read()
        except OSError:
            continue
        if int(st.rsplit(")", 1)[1].split()[1]) == me:
            kids.append(int(d))
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in kids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + grace
        while kids and time.monotonic() < deadline:
            for pid in list(kids):
                try:
                    if os.waitpid(pid, os.WNOHANG)[0]:
                        kids.remove(pid)
                except ChildProcessError:
                    kids.remove(pid)
            time.sleep(0.05)
        if not kids:
            break
    return len(kids)


class Result:
    """A command's outcome: rc, out (stdout), err (stderr), text (both)."""

    def __init__(self, rc, out, err):
        self.rc, self.out, self.err = rc, out, err
        self.text = (out + err).rstrip("\n")

    def __bool__(self):
        return self.rc == 0


def run(argv, timeout=120, stdin=None):
    """Run @argv (a list); a Result. rc 124 after @timeout s times
    ELEC_TIMER_SCALE."""
    argv = [str(a) for a in argv]
    timeout *= SCALE
    try:
        p = subprocess.run(argv, input=stdin, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired as e:
        # (its stdout and stderr are bytes, whatever text= said)
        return Result(124, _text(e.stdout), _text(e.stderr) + "timed out")
    except OSError as e:
        return Result(127, "", "%s: %s" % (argv[0], e))
    return Result(p.returncode, p.stdout, p.stderr)


def _text(b):
    """@b (bytes, str or None) as str."""
    if isinstance(b, bytes):
        return b.decode(errors="replace")
    return b or ""


def indent(text):
    return "".join("    %s\n" % line for line in text.splitlines())


class Scenario:
    """One scenario's state: counters, nodes, timing. See the module doc."""

    def __init__(self, name=None):
        self.name = name or os.path.basename(sys.argv[0])
        self.ctl_path = os.path.join(REPO, "userspace", "electionctl")
        self.ko = os.environ.get("ELEC_KO") or os.path.join(
            REPO, "module", "election.ko")
        self.timing = os.environ.get("ELEC_TIMING") or (
            "hb-interval %s hb-miss 5 timeout %s coord-timeout %s" % (
                dur("100ms"), dur("100ms"), dur("400ms")))
        self.bound = float(os.environ.get("ELEC_BOUND") or 20 * SCALE)
        self.detector = os.environ.get("ELEC_DETECTOR") or ""
        self.algo = "bully"
        self.group_opts = []
        self.pos = {}
        self.nodes = []
        self.passed = self.failed = 0
        self.ended = False
        self.t0 = time.monotonic()
        self._keys = None
        self._lock = threading.Lock()
        sys.stdout.reconfigure(line_buffering=True)
        atexit.register(self._cleanup)
        sys.excepthook = self._excepthook
        for what, path, test in (("electionctl", self.ctl_path, os.X_OK),
                                 ("election.ko", self.ko, os.R_OK)):
            if not os.access(path, test):
                print("FAIL: %s not built (%s)" % (what, path))
                print("0 passed, 1 failed")
                self.ended = True
                os._exit(1)
        scale = "" if SCALE == 1 else ", timer scale %d" % SCALE
        self.log("scenario %s on %s%s" % (self.name, os.uname().release,
                                          scale))

    # ------------------------------------------------------- results ---
    def log(self, msg):
        d = int((time.monotonic() - self.t0) * 100)
        print("[%3d.%02d] %s" % (d // 100, d % 100, msg))

    def pass_(self, desc):
        with self._lock:
            self.passed += 1
        print("PASS: %s" % desc)
        return True

    def fail(self, desc):
        with self._lock:
            self.failed += 1
        print("FAIL: %s" % desc)
        return False

    def check(self, desc, ok, detail=""):
        """PASS if @ok (a Result, a bool, or a callable giving one), with
        @detail (or the Result's output) shown indented."""
        if callable(ok):
            ok = ok()
        if isinstance(ok, Result):
            detail = detail or ok.text
        if detail:
            sys.stdout.write(indent(str(detail)))
        if ok:
            return self.pass_(desc)
        rc = " (exit %d)" % ok.rc if isinstance(ok, Result) else ""
        return self.fail(desc + rc)

    def either(self, ok, desc, fail_desc):
        """PASS @desc if @ok, else FAIL @fail_desc; @ok's truth."""
        return self.pass_(desc) if ok else self.fail(fail_desc)

    def check_cmd(self, desc, *argv):
        """lib.sh's check: PASS if the command exits 0."""
        r = run(argv)
        if r.text:
            sys.stdout.write(indent(r.text))
        if r:
            return self.pass_(desc)
        return self.fail("%s (exit %d: %s)" % (desc, r.rc,
                                               " ".join(map(str, argv))))

    def check_fails(self, desc, r):
        """PASS if Result @r failed and said why (lib.sh's check_fails)."""
        if r.text:
            sys.stdout.write(indent(r.text))
        if r.rc == 0:
            return self.fail("%s: was accepted" % desc)
        if not r.text:
            return self.fail("%s: refused without a message" % desc)
        return self.pass_(desc)

    def check_refused(self, desc, pattern, r):
        """PASS if Result @r failed and its output matches @pattern (a
        regular expression; lib.sh's check_refused used grep)."""
        if r.text:
            sys.stdout.write(indent(r.text))
        if r.rc != 0 and re.search(pattern, r.text):
            return self.pass_(desc)
        return self.fail('%s (exit %d, expected a failure saying "%s")' % (
            desc, r.rc, pattern))

    def tmpdir(self):
        """The scenario's private directory (mode 0700, made at the first
        call): its key files and other scratch files."""
        if self._keys is None:
            self._keys = tempfile.mkdtemp()
            os.chmod(self._keys, 0o700)
        return self._keys

    def key_file(self, name, data):
        """A key file @name holding @data (str or bytes, written as
        given) in tmpdir(), created with mode 0600 as electionctl wants
        it; returns its path."""
        path = os.path.join(self.tmpdir(), name)
        if isinstance(data, str):
            data = data.encode()
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(fd, 0o600)
        with open(fd, "wb") as f:
            f.write(data)
        return path

    def refused_with(self, desc, msg, r):
        """PASS if Result @r failed and its output has @msg (a plain
        string): the kernel's (extack) or electionctl's refusal."""
        if r.rc != 0 and msg in r.text:
            return self.pass_('%s: refused with "%s"' % (desc, msg))
        return self.fail('%s: rc=%d, want a refusal naming "%s": %s' % (
            desc, r.rc, msg, r.text))

    def end(self):
        """Print the tally and exit: 0 without a failure, else 1."""
        self.ended = True
        self.log("done")
        print("%d passed, %d failed" % (self.passed, self.failed))
        sys.exit(0 if self.failed == 0 else 1)

    def _excepthook(self, kind, value, tb):
        traceback.print_exception(kind, value, tb, file=sys.stdout)

    def _cleanup(self):
        kill_children()
        topo.delete_all()
        if not self.ended:
            self.fail("scenario ended early")
            print("%d passed, %d failed" % (self.passed, self.failed))
            sys.stdout.flush()
            os._exit(1)

    # --------------------------------------------------------- nodes ---
    def modprobe(self, *mods):
        """Load @mods, unless the kernel has no module tree (the debug
        kernel: everything built in)."""
        if not os.path.isdir("/lib/modules/" + os.uname().release):
            return True
        return all(run(["modprobe", m]).rc == 0 for m in mods)

    def load(self, *params):
        """veth and bridge loaded, election.ko inserted afresh."""
        if not self.modprobe("veth", "bridge"):
            return self.fail("modprobe veth bridge")
        if "\nelection " in "\n" + run(["lsmod"]).out:
            if not run(["rmmod", "election"]):
                return self.fail("rmmod election")
        return self.check_cmd("insmod election.ko %s" % " ".join(params),
                              "insmod", self.ko, *params)

    def node_add(self, nid):
        try:
            topo.node_add(nid)
        except subprocess.CalledProcessError as e:
            sys.stdout.write(indent(e.output or ""))
            return False
        self.nodes.append(nid)
        return True

    def node_crash(self, nid):
        """Delete node @nid's namespace, its device and instance with it;
        False (the output shown) if ip refused."""
        try:
            topo.node_del(nid)
        except subprocess.CalledProcessError as e:
            sys.stdout.write(indent(e.output or ""))
            return False
        self.nodes.remove(nid)
        return True

    def topo(self, *ids):
        for nid in ids:
            if not self.node_add(nid):
                return self.fail("creating node %d" % nid)
        self.log("topology: switch esw/br0, nodes %s" %
                 " ".join(map(str, self.nodes)))
        return True

    def up(self, *ids, group=None, params=()):
        """load(@params) and topo(@ids), else end(); with @group, then
        group_setup(@group) and start_all(@group)."""
        if not (self.load(*params) and self.topo(*ids)):
            self.end()
        if group is not None:
            self.group_setup(group)
            self.start_all(group)

    # ---------------------------------------------------- electionctl ---
    def ctl(self, nid, *args, timeout=60):
        """electionctl ARGS in node @nid's namespace; a Result. A "group
        add" that names no detector gets ELEC_DETECTOR's."""
        args = [str(a) for a in args]
        if self.detector and args[:2] == ["group", "add"] and \
                "detector" not in args:
            args += ["detector", self.detector]
        return run([self.ctl_path, "-n", topo.ns(nid)] + args,
                   timeout=timeout)

    def ctl_json(self, nid, *args):
        """electionctl -j ARGS in node @nid's namespace, parsed; raises
        RuntimeError with the output when it fails."""
        r = self.ctl(nid, "-j", *args)
        if r.rc != 0:
            raise RuntimeError("node %d: electionctl -j %s: exit %d: %s" % (
                nid, " ".join(map(str, args)), r.rc, r.text))
        return json.loads(r.out)

    def show(self, nid, g, dev="eth0"):
        """Node @nid's `show` object of group @g."""
        return self.ctl_json(nid, "show", "dev", dev, "group", g)[0]

    def stats(self, nid, g, dev="eth0"):
        """Node @nid's `stats` object of group @g."""
        return self.ctl_json(nid, "stats", "dev", dev, "group", g)[0]

    def pos_kw(self, nid):
        return ["pos", self.pos[nid]] if nid in self.pos else []

    def ring_order(self, ids=None):
        """The nodes in ring order, ascending (position, id)."""
        ids = list(self.nodes if ids is None else ids)
        return sorted(ids, key=lambda i: (self.pos.get(i, i), i))

    def _setup_node(self, g, nid, algo, opts, timing):
        ok = self.ctl(nid, "group", "add", "dev", "eth0", "group", g, "id",
                      nid, "algo", algo, *self.pos_kw(nid), *opts,
                      *timing.split()).rc == 0
        for p in self.nodes:
            if p != nid:
                ok &= self.ctl(nid, "peer", "add", "dev", "eth0", "group", g,
                               "id", p, "lladdr", topo.mac(p),
                               *self.pos_kw(p)).rc == 0
        return ok

    def _parallel(self, fn, ids):
        res = {}
        threads = [threading.Thread(target=lambda i=i: res.__setitem__(
            i, fn(i))) for i in ids]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return [res.get(i, False) for i in ids]

    def group_setup(self, g, ids=None, algo=None, opts=None, timing=None):
        """Instances (stopped) of group @g on @ids (default every node),
        each with every other node as a peer; lib.sh's elec_group_setup."""
        ids = list(self.nodes if ids is None else ids)
        algo = algo or self.algo
        opts = [str(o) for o in (self.group_opts if opts is None else opts)]
        timing = self.timing if timing is None else timing
        ok = all(self._parallel(lambda i: self._setup_node(
            g, i, algo, opts, timing), ids))
        what = "algo %s%s" % (algo, "".join(" " + o for o in opts))
        if self.pos:
            what += ", ring order %s" % " ".join(
                map(str, self.ring_order(self.nodes)))
        who = " ".join(map(str, ids))
        if ok:
            return self.pass_("group %s configured on %s (%s)" % (g, who,
                                                                  what))
        return self.fail("group %s setup on %s (%s)" % (g, who, what))

    def start_all(self, g, ids=None):
        """group start on @ids (default every node) at once."""
        ids = list(self.nodes if ids is None else ids)
        ok = all(self._parallel(lambda i: self.ctl(
            i, "group", "start", "dev", "eth0", "group", g).rc == 0, ids))
        who = " ".join(map(str, ids))
        if ok:
            return self.pass_("group %s started on %s" % (g, who))
        return self.fail("group start on %s" % who)

    def nodes_of(self, ids=None):
        """[(netns, id)] of @ids (default every node), for electest.checks."""
        return [(topo.ns(i), i) for i in (self.nodes if ids is None else ids)]

    def agree(self, g, leader, bound=None, stable=0, ids=None):
        """The nodes agree on @leader within @bound s (default ELEC_BOUND);
        with @stable, for that long; lib.sh's elec_agree."""
        ids = list(self.nodes if ids is None else ids)
        bound = self.bound if bound is None else bound
        out = io.StringIO()
        rc = checks.agree(self.nodes_of(ids), g, leader, bound, stable,
                          out=out)
        return self.check("all of %s agree on leader %d within %ss" % (
            " ".join(map(str, ids)), leader, _num(bound)), rc == 0,
            out.getvalue())

    def views(self, g, ids=None):
        """Print each node's role, leader and term once."""
        print(checks.fmt_views(checks.views_of(self.nodes_of(ids), g)))

    def peer_alive(self, g, nid, peer, want):
        """Node @nid's view of @peer's liveness is @want."""
        got = [p["alive"] for p in self.show(nid, g)["peers"]
               if p["id"] == peer]
        word = "true" if want else "false"
        if got == [want]:
            return self.pass_("node %d sees peer %d alive=%s" % (nid, peer,
                                                                 word))
        return self.fail("node %d sees peer %d alive=%s, expected %s" % (
            nid, peer, got, word))

    def wait_for(self, seconds, fn, interval=0.1):
        """@fn() is true within @seconds (tried every @interval, then once
        more); its last value."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            v = fn()
            if v:
                return v
            time.sleep(interval)
        return fn()

    def two_bridges(self, *ids):
        """The switch made ready to split: a second bridge br1, joined to
        br0 by the veth pair bl0 (on br0) and bl1 (on br1), and the ports
        of @ids moved to br1; a check each step. bl0 down splits the nodes
        in two, up heals them. True if every step passed."""
        def sw(desc, *args):
            return self.check_cmd(desc, "ip", "-n", topo.SWITCH, *args)
        ok = [sw("a second bridge br1 in the switch", "link", "add", "br1",
                 "type", "bridge", "stp_state", 0, "forward_delay", 0),
              sw("br1 up", "link", "set", "br1", "up"),
              sw("the link between the bridges", "link", "add", "bl0",
                 "type", "veth", "peer", "name", "bl1"),
              sw("bl0 on br0", "link", "set", "bl0", "master", "br0", "up"),
              sw("bl1 on br1", "link", "set", "bl1", "master", "br1", "up")]
        ok += [sw("p%d on br1" % i, "link", "set", "p%d" % i, "master", "br1")
               for i in ids]
        return all(ok)

    def netem_delay(self, ms, ids=None):
        """A one-way delay of @ms ms (netem) on eth0 of @ids (default every
        node); 0 removes it. A Result of the tc runs."""
        rs = [run(["tc", "-n", topo.ns(i), "qdisc"] + (
            ["del", "dev", "eth0", "root"] if ms == 0 else
            ["replace", "dev", "eth0", "root", "netem", "delay", "%dms" % ms]))
            for i in (self.nodes if ids is None else ids)]
        return Result(0 if all(rs) else 1, "".join(r.out for r in rs),
                      "".join(r.err for r in rs))

    def vip_on(self, vip, want):
        """Within ELEC_BOUND, address @vip is on eth0 of exactly @want."""
        want = sorted(want)
        t0 = time.monotonic()
        self.wait_for(self.bound, lambda: sorted(topo.vip_holders(
            self.nodes, vip)) == want)
        got = sorted(topo.vip_holders(self.nodes, vip))
        wt = " ".join(map(str, want))
        if got == want:
            return self.pass_("%s is on '%s' only (after ~%.1f s)" % (
                vip, wt, time.monotonic() - t0))
        return self.fail("%s on: '%s', want '%s'" % (
            vip, " ".join(map(str, got)), wt))

    # ------------------------------------------------------ teardown ---
    def leak_check(self):
        """electionctl -j module reports no instance, peer or skb (skbs
        get 5 s to drain)."""
        r = None
        for _ in range(50):
            r = run([self.ctl_path, "-j", "module"])
            try:
                d = json.loads(r.out)
                if (d["instances"], d["peers"], d["skbs"]) == (0, 0, 0):
                    return self.pass_("leak counters zero: %s" %
                                      r.text)
            except (ValueError, KeyError, TypeError):
                pass
            time.sleep(0.1)
        return self.fail("leak counters not zero after every group was "
                         "deleted: %s" % r.text)

    def teardown(self, g):
        """group del on every node, then the leak check."""
        ok = all([self.ctl(i, "group", "del", "dev", "eth0", "group",
                           g).rc == 0 for i in self.nodes])
        if ok:
            self.pass_("group %s deleted on %s" % (
                g, " ".join(map(str, self.nodes))))
        else:
            self.fail("group del")
        return self.leak_check() and ok

    def finish(self, g=None):
        """teardown(@g) if given, rmmod election, end()."""
        if g is not None:
            self.teardown(g)
        self.check_cmd("rmmod election", "rmmod", "election")
        self.end()

    # -------------------------------------------------------- quorum ---
    def sides(self, g, sides, stable=0, bound=None, desc=None):
        """Quorum: within @bound s (default ELEC_BOUND) every side of
        @sides ([(leader, ids)]) is as its leader says: an id, the side
        agrees on it as agree() judges it; 0, every node of the side has
        role follower and no leader; with @stable, for that long
        (electest.checks.sides). @desc: the check's
        description (default: what the sides are to show)."""
        bound = self.bound if bound is None else bound
        spec = [(lead, self.nodes_of(ids)) for lead, ids in sides]
        if desc is None:
            desc = "; ".join("%s: %s" % (
                " ".join(map(str, ids)),
                "leader %d" % lead if lead else "no leader")
                for lead, ids in sides)
            desc += " within %ss" % _num(bound)
            if stable:
                desc += ", for %ss" % _num(stable)
        out = io.StringIO()
        rc = checks.sides(spec, g, bound, stable, out=out)
        return self.check(desc, rc == 0, out.getvalue())


def _num(v):
    """@v as lib.sh prints a bound: 20, not 20.0."""
    return "%d" % v if float(v).is_integer() else "%g" % v


# ------------------------------------------ in process: main(argv) ---
def in_netns(name, fn):
    """@fn() with this thread in network namespace @name (setns(2); the
    other threads stay where they are), back home after; its value."""
    from electest import nl

    with nl.InNetns(name):
        return fn()


def call(main, argv, netns=None):
    """`main(argv)` (a command line tool's main, e.g. elec_lib.main: what
    `elec.py ARGV` runs, without the ~1.5 s python3 start of a TCG guest)
    in process, in namespace @netns if given; a Result with what it
    printed. SystemExit and OSError are exit 1 with the message."""
    import contextlib

    argv = [str(a) for a in argv]
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            if netns:
                rc = in_netns(netns, lambda: main(argv))
            else:
                rc = main(argv)
    except SystemExit as e:
        code = e.code
        rc = code if isinstance(code, int) else 1
        if code is not None and not isinstance(code, int):
            err.write("%s\n" % code)
    except OSError as e:
        rc = 1
        err.write("%s\n" % e)
    return Result(rc or 0, out.getvalue(), err.getvalue())
