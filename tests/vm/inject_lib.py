# SPDX-License-Identifier: GPL-2.0
"""tests/inject/inject-lib.sh for Python scenarios: frames injected with
elec-inject (the binary, as the bash scenarios call it) and the drop
counters checked against its predictions with tests/inject/drops.py,
imported (no python3 start per snapshot or check). Import it after
putting tests/vm on sys.path:

    import inject_lib
    inj = inject_lib.Injector(s)        # s: an electest Scenario
    inj.need() or s.end()
    s.timing = inject_lib.timing()
    ...
    inj.run(66, "replay", "eth0", cap, "nodes", spec, "groups", groups)
    inj.checked("replay", lambda: inj.run(...))

The scenario's nodes (s.nodes) are the ones snapshotted; a node that
only injects is left out of s.nodes.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

from electest import REPO, topo

INJ = os.path.join(REPO, "tests", "inject", "elec-inject")
DROPS = os.path.join(REPO, "tests", "inject", "drops.py")


def timing():
    """INJ_TIMING: a detection window of 2 s. The scenarios assert that
    no node begins an election across a section (seconds of electionctl
    calls under TCG), and a TCG guest on a busy host stalls for more than
    lib.sh's 0.5 s now and then."""
    from electest.scenario import dur
    return "hb-interval %s hb-miss 8 timeout %s coord-timeout %s" % (
        dur("250ms"), dur("100ms"), dur("400ms"))


def nodes_spec(ids):
    """"3@02:e1:00:00:00:03,17@..." for elec-inject's nodes."""
    return ",".join("%d@%s" % (i, topo.mac(i)) for i in ids)


def _drops():
    sys.path.insert(0, os.path.dirname(DROPS))
    import drops
    return drops


class Injector:
    """inject-lib.sh's state: the reports of the commands run since the
    last check, a temporary directory."""

    def __init__(self, s):
        self.s = s
        self.tmp = tempfile.mkdtemp()
        self.reports = []
        self.nrun = 0
        self.last = None        # the last report (report.json), parsed

    def need(self):
        """elec-inject and drops.py are there (make)."""
        if not os.access(INJ, os.X_OK):
            return self.s.fail("%s is not built (make)" % INJ)
        if not os.path.isfile(DROPS):
            return self.s.fail("%s is missing" % DROPS)
        return True

    def path(self, name):
        return os.path.join(self.tmp, name)

    def run(self, nid, *args, show=True):
        """elec-inject -j ARGS in node @nid's namespace: its report kept
        (self.last, and for the next check); its text summary printed
        (unless not @show). False if it failed (a FAIL)."""
        args = [str(a) for a in args]
        self.nrun += 1
        rep = self.path("report-%d.json" % self.nrun)
        with open(rep, "w") as out:
            p = subprocess.run(["ip", "netns", "exec", topo.ns(nid), INJ,
                                "-j"] + args, stdout=out,
                               stderr=subprocess.PIPE, text=True)
        if show:
            sys.stdout.write("".join("    %s\n" % line
                                     for line in p.stderr.splitlines()))
        if p.returncode != 0:
            self.s.fail("elec-inject %s (exit %d)" % (" ".join(args),
                                                       p.returncode))
            return False
        with open(rep) as f:
            try:
                self.last = json.load(f)
            except ValueError:
                self.last = {}
        self.reports.append(rep)
        return True

    def expect_total(self, reason):
        """The last report's predicted count of @reason (0 if none)."""
        return ((self.last or {}).get("expect") or {}).get(
            "total", {}).get(reason, 0)

    def snap(self, name):
        """Every node's (s.nodes) state and counters into NAME.json."""
        nodes = ["%s:%d" % (topo.ns(i), i) for i in self.s.nodes]
        try:
            _drops().cmd_snap(self.path(name + ".json"), nodes)
        except (RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
            print("    %s" % e)
            return self.s.fail("snapshot %s" % name)
        return True

    def check(self, label, a, b, accepted_ok=False):
        """drops.py check of snapshots @a, @b against the reports of the
        commands run since the last check (which it forgets); its PASS
        and FAIL lines counted."""
        if not self.reports:
            return self.s.fail("%s: no elec-inject report to check" % label)
        drops = _drops()
        p0, f0 = drops.PASSES, drops.FAILS
        err = None
        try:
            drops.cmd_check(self.path(a + ".json"), self.path(b + ".json"),
                            self.reports, label, accepted_ok)
        except SystemExit as e:
            err = str(e)
        finally:
            self.reports = []
        np, nf = drops.PASSES - p0, drops.FAILS - f0
        with self.s._lock:
            self.s.passed += np
            self.s.failed += nf
        if err is not None and nf == 0:
            print("    %s" % err)
            return self.s.fail("%s: drops.py check exit 1" % label)
        return nf == 0 and err is None

    def checked(self, name, fn):
        """inject-lib's section: snapshot, @fn(), snapshot, check."""
        self.s.log("--- %s" % name)
        if not self.snap("before-" + name):
            return False
        fn()
        if not self.snap("after-" + name):
            return False
        return self.check(name, "before-" + name, "after-" + name)

    def klog_clean(self, label):
        """No Oops, BUG, WARNING in dmesg."""
        out = subprocess.run(["dmesg"], capture_output=True, text=True).stdout
        bad = [line for line in out.splitlines() if re.search(
            r"Oops|BUG:|WARNING:|general protection|Call Trace", line)][:5]
        if not bad:
            return self.s.pass_("%s: no Oops, BUG or WARNING in the kernel "
                                "log" % label)
        return self.s.fail("%s: the kernel log has: %s" % (label,
                                                           "\n".join(bad)))
