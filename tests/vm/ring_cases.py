# SPDX-License-Identifier: GPL-2.0
"""The cases every ring scenario (71-74) runs, in order, on one topology of
six nodes (once tests/vm/ring-cases.sh), on electest. A scenario makes an
electest Scenario and calls

    ring_cases.run_cases(s, algo, opts, cases)

with the algorithm, the group options (a list of words: ["suppress",
"off"] for 72) and the cases (default: all but refusals, in this order):

  first     configure (-j show reports the positions), start every node:
            all agree on the highest id, 2001; hops were acknowledged,
            nothing was an ANSWER, a queue overflow or a bad frame
  textbook  one initiator (`group elect` on the successor of 2001 in ring
            order, the worst case of Chang and Roberts) in the settled
            group: the sums over all nodes of the deltas of tx.election,
            tx.coordinator and tx.ack equal electsim's counts for the
            same ring (--ids in ring order, --initiator the same id),
            tx.retry stays 0, rx matches tx
  concurrent  `group elect` at the same moment (elec_lib's elect: one
            netlink socket per namespace, requests microseconds apart;
            a 10 ms netem delay on every link so that the elections
            overlap) on every node, then on three non-neighbours: one
            leader, 2001, each time; every initiator began a run, no
            queue overflow. The round's message counts are printed next
            to electsim --initiator all's (not asserted: how much the
            elections overlap depends on the guest's timing)
  crash     the leader 2001 crashes (namespace deleted): the survivors
            agree on 777; 2001's predecessor declared it failed
  skip      non-coordinator 17 crashes, then the leader 777: the
            survivors agree on 100, the highest live id; 17's
            predecessor (42) declared it failed and re-sent past it
  mixed     2001 returns configured with algo bully: its frames are
            wrong_algo drops on every ring node (and the ring's
            heartbeats on it); the ring keeps leader 100
  return    2001's instance is replaced by a ring one: it takes over
            (the ring probes it although its predecessor declared it
            failed: a message is always tried at its owner)
  refusals  (71 only) the kernel's refusals of pos/suppress (extack)

After the cases: group del on every node left and the leak check, the
refusals if asked for, rmmod, end().
"""

import contextlib
import io
import json
import os
import socket
import sys

from electest import REPO, checks, topo
from electest.scenario import SCALE, call, in_netns, run

# elec.py nl and elect, in process through call() (tests/vm is on
# sys.path: the scenario put it there to import this module)
import elec_lib

G = 1
IDS = (3, 17, 42, 100, 777, 2001)
# Ring order 17 100 2001 3 777 42 (positions 10..60): the highest id sits
# in the middle, neither ascending nor descending ids follow each other.
POS = {3: 40, 17: 10, 42: 60, 100: 20, 777: 50, 2001: 30}
VICTIM = 17             # the non-coordinator that crashes (case skip)
CASES = ("first", "textbook", "concurrent", "crash", "skip", "mixed",
         "return")
BAD_DROPS = ("queue_full", "malformed", "wrong_algo", "unknown_peer",
             "wrong_dst")
SIM = "userspace/sim/electsim"


def run_cases(s, algo, opts=(), cases=CASES):
    """Load, topology, then @cases in order; teardown, the refusals if
    asked for, rmmod; s.end()."""
    Ring(s, algo, opts).run(cases)


class Ring:
    def __init__(self, s, algo, opts):
        self.s = s
        self.algo = algo
        self.opts = list(opts)
        s.algo = algo
        s.group_opts = list(opts)
        s.pos = dict(POS)

    # ------------------------------------------------------- helpers ---
    def label(self):
        return " ".join([self.algo] + self.opts)

    def suppress_off(self):
        return self.opts == ["suppress", "off"]

    def succ(self, nid, ids=None):
        """@nid's successor among @ids (default: every node)."""
        order = self.s.ring_order(ids)
        return order[(order.index(nid) + 1) % len(order)]

    def pred(self, nid, ids=None):
        """@nid's predecessor among @ids (default: every node)."""
        order = self.s.ring_order(ids)
        return order[order.index(nid) - 1]

    def order_csv(self):
        return ",".join(map(str, self.s.ring_order()))

    def nodes(self, ids=None):
        return self.s.nodes_of(ids)

    def stats(self, ids=None):
        """Every node's stats, keyed by id (a string), as `elec.py stats`
        prints them; None (the error printed) if one is unreadable."""
        try:
            return checks.all_stats(self.nodes(ids), G, "eth0")
        except (RuntimeError, ValueError) as e:
            print("    stats: %s" % e)
            return None

    def quiet(self):
        """The stats once the counters settled (checks.quiet), or None."""
        out = io.StringIO()
        try:
            rc = checks.quiet(self.nodes(), G, out=out, err=sys.stdout)
        except (RuntimeError, ValueError) as e:
            print("    quiet: %s" % e)
            return None
        return json.loads(out.getvalue()) if rc == 0 else None

    def stat(self, nid, fn):
        """@fn of node @nid's stats, None (the error printed) if they are
        unreadable."""
        try:
            return fn(self.s.stats(nid, G))
        except (RuntimeError, ValueError, KeyError, IndexError) as e:
            print("    stats of %d: %s" % (nid, e))
            return None

    def check_py(self, desc, fn, *args):
        """PASS if @fn(*args) returns without an exception (what it
        prints shown indented; a failed assertion's message after it):
        the bash version's `check DESC python3 -c ...`."""
        buf = io.StringIO()
        ok = True
        try:
            with contextlib.redirect_stdout(buf):
                fn(*args)
        except Exception as e:      # a python3 -c exiting non-zero
            buf.write("%s: %s\n" % (type(e).__name__, e))
            ok = False
        return self.s.check(desc, ok, buf.getvalue().rstrip("\n"))

    def crash(self, nid):
        """Check: node @nid's namespace deleted."""
        # node_crash shows ip's output when it refuses
        return self.s.check("namespace of %d deleted" % nid,
                            self.s.node_crash(nid))

    def setup_node(self, nid, algo):
        """Group 1 on node @nid with @algo (the scenario's options only
        with the scenario's algorithm) and every one of the six ids as a
        peer (crashed ones included, as a real configuration lists
        them)."""
        saved = self.s.nodes
        self.s.nodes = list(IDS)
        try:
            return self.s.group_setup(
                G, [nid], algo=algo,
                opts=self.opts if algo == self.algo else [])
        finally:
            self.s.nodes = saved

    def elect(self, ids):
        """`elec.py elect`: GROUP_ELECT on @ids at the same moment."""
        return call(elec_lib.main, ["elect", "--group", G] + [
            "%s:%d" % n for n in self.nodes(ids)])

    def nl3(self, cmd, *attrs):
        """`ip netns exec en3 elec.py nl CMD ATTRS`: one raw request."""
        return call(elec_lib.main, ["nl", cmd, *attrs], netns=topo.ns(3))

    def ctl3(self, *args):
        return self.s.ctl(3, "--unchecked", *args)

    # -------------------------------------------------------- cases ---
    def run(self, cases):
        s = self.s
        s.up(*IDS)
        for c in cases:
            if c == "refusals":
                continue
            f0 = s.failed
            getattr(self, "case_" + c)()
            # nothing after a failed first election would mean anything
            if c == "first" and s.failed != f0:
                s.fail("first election (%s) failed: the other cases are "
                       "skipped" % self.label())
                break
        s.teardown(G)
        if "refusals" in cases:
            self.case_refusals()
        s.finish()

    # ------------------------------------------------ first election ---
    def positions_ok(self):
        """Every node's `-j show` reports its own position, each peer's,
        the algorithm, and suppress (true/false) for algo ring only."""
        want = {i: POS.get(i, i) for i in IDS}
        sup = not self.suppress_off()
        docs = []
        for nid in IDS:
            r = self.s.ctl(nid, "-j", "show", "dev", "eth0", "group", G)
            if r.rc != 0:
                raise RuntimeError("node %d: exit %d: %s" % (nid, r.rc,
                                                             r.text))
            docs.append(json.loads(r.out)[0])
        assert sorted(d["id"] for d in docs) == sorted(want), \
            [d["id"] for d in docs]
        for d in docs:
            me = d["id"]
            peers = {p["id"]: p["pos"] for p in d["peers"]}
            print("id %d pos %d peers %s%s" % (
                me, d["pos"], sorted(peers.items()),
                " suppress %s" % d["suppress"] if "suppress" in d else ""))
            assert d["algo"] == self.algo, d["algo"]
            assert d["pos"] == want[me], ("own pos", me, d["pos"], want[me])
            assert peers == {i: p for i, p in want.items() if i != me}, \
                ("peer pos", me)
            if self.algo == "ring":
                assert d["suppress"] is sup, ("suppress", d.get("suppress"))
            else:
                assert "suppress" not in d, ("suppress reported for",
                                             self.algo)

    @staticmethod
    def sane(d):
        """Hops were acknowledged; no ANSWER, no rx.retry (a counter, never
        on the wire); nothing dropped as a queue overflow, malformed, of
        another algorithm, of an unknown peer or for another node."""
        assert d is not None, "no stats"
        bad = []
        for n in sorted(d, key=int):
            t, r, dr = d[n]["tx"], d[n]["rx"], d[n]["drops"]
            print("    id %-5s tx el %d co %d hb %d ack %d retry %d | rx el %d "
                  "co %d ack %d | elections %d | drops %s" % (
                      n, t["election"], t["coordinator"], t["heartbeat"],
                      t["ack"], t["retry"], r["election"], r["coordinator"],
                      r["ack"], d[n]["elections"],
                      {k: v for k, v in dr.items() if v}))
            if t["answer"] or r["answer"] or r["retry"]:
                bad.append("%s: ANSWER or rx.retry" % n)
            for k in BAD_DROPS:
                if dr[k]:
                    bad.append("%s: drops.%s %d" % (n, k, dr[k]))
        if not sum(d[n]["tx"]["ack"] for n in d):
            bad.append("no hop was acknowledged")
        assert not bad, bad

    def case_first(self):
        s = self.s
        s.log("--- first election (%s), ring order %s" % (
            self.label(), " ".join(map(str, s.ring_order()))))
        if not s.group_setup(G):
            return
        self.check_py("-j show reports the positions configured",
                      self.positions_ok)
        s.start_all(G)
        s.agree(G, 2001, s.bound, 1)
        first = self.stats()
        self.check_py("first election: hops acknowledged, no ANSWER, "
                      "overflow or bad frame", self.sane, first)

    # ------------------------------------ textbook count against electsim
    @staticmethod
    def compare(before, after, sim):
        """Deltas summed over the nodes against electsim's by_type. 0
        equal, 1 different, 2 inconclusive (a retry: a hop's ACK was late,
        the scenario is no longer the textbook one)."""
        types = ["election", "coordinator", "ack", "retry", "answer",
                 "heartbeat"]
        tot = {d: dict.fromkeys(types, 0) for d in ("tx", "rx")}
        drops = {}
        for nid in sorted(after, key=int):
            a, b = after[nid], before[nid]
            dl = {d: {t: a[d][t] - b[d][t] for t in types}
                  for d in ("tx", "rx")}
            dd = {k: v - b["drops"][k] for k, v in a["drops"].items()
                  if v != b["drops"][k]}
            for d in ("tx", "rx"):
                for t in types:
                    tot[d][t] += dl[d][t]
            for k, v in dd.items():
                drops[k] = drops.get(k, 0) + v
            print("    id %-5s tx el %2d co %2d ack %2d retry %d | rx el %2d "
                  "co %2d ack %2d | elections +%d%s" % (
                      nid, dl["tx"]["election"], dl["tx"]["coordinator"],
                      dl["tx"]["ack"], dl["tx"]["retry"],
                      dl["rx"]["election"], dl["rx"]["coordinator"],
                      dl["rx"]["ack"], a["elections"] - b["elections"],
                      " drops %s" % dd if dd else ""))
        bt = sim["by_type"]
        print("    kernel: election %d coordinator %d ack %d retry %d "
              "(rx: %d %d %d)" % (
                  tot["tx"]["election"], tot["tx"]["coordinator"],
                  tot["tx"]["ack"], tot["tx"]["retry"],
                  tot["rx"]["election"], tot["rx"]["coordinator"],
                  tot["rx"]["ack"]))
        print("    electsim: election %d coordinator %d ack %d retry %d "
              "(leader %s)" % (bt["election"], bt["coordinator"], bt["ack"],
                               bt["retry"], sim["leader"]))
        if tot["tx"]["retry"]:
            print("    a hop was re-sent (an ACK came later than the "
                  "timeout)")
            return 2
        bad = []
        for t in ("election", "coordinator", "ack"):
            if tot["tx"][t] != bt[t]:
                bad.append("tx.%s %d != electsim %d" % (t, tot["tx"][t],
                                                        bt[t]))
            if tot["rx"][t] != tot["tx"][t]:
                bad.append("rx.%s %d != tx.%s %d" % (t, tot["rx"][t], t,
                                                     tot["tx"][t]))
        if tot["tx"]["answer"] or tot["rx"]["answer"] or tot["rx"]["retry"]:
            bad.append("ANSWER or rx.retry on a ring")
        for k in BAD_DROPS:
            if drops.get(k):
                bad.append("drops.%s +%d" % (k, drops[k]))
        if bt["retry"] or not sim.get("agreed") or not sim.get("quiescent"):
            bad.append("electsim: retry %d agreed %s quiescent %s" % (
                bt["retry"], sim.get("agreed"), sim.get("quiescent")))
        if bad:
            print("    MISMATCH: " + "; ".join(bad))
            return 1
        return 0

    def sim_argv(self, initiator):
        """electsim on the same ring (--ids in ring order), with the
        kernel's timing (no effect on counts without faults)."""
        timing = self.s.timing.split()
        args = []
        for k, v in zip(timing[0::2], timing[1::2]):
            args += ["--" + k, v]
        sup = ["--suppress", "off"] if self.suppress_off() else []
        return [SIM, "--algo", self.algo] + sup + [
            "--nodes", "6", "--ids", self.order_csv(), "--scenario", "elect",
            "--initiator", str(initiator)] + args + ["--json"]

    def case_textbook(self):
        s = self.s
        init = self.succ(2001)
        s.log("--- textbook count: group elect on %d (successor of 2001) "
              "against electsim" % init)
        sim = self.sim_argv(init)
        print("    " + " ".join(sim))
        r = run([os.path.join(REPO, sim[0])] + sim[1:])
        if r.rc != 0:
            sys.stdout.write(r.err)
            s.fail("textbook (%s): electsim failed: %s" % (self.label(),
                                                           " ".join(sim)))
            return
        print(r.out, end="")
        simd = json.loads(r.out)
        rc = 1
        for attempt in (1, 2):
            s.views(G)
            before = self.quiet()
            if before is None:
                s.fail("textbook: counters never settled before the "
                       "election")
                return
            if not s.check("textbook: group elect on %d" % init,
                           s.ctl(init, "group", "elect", "dev", "eth0",
                                 "group", G)):
                return
            after = self.quiet()
            if after is None:
                s.fail("textbook: counters never settled after the election")
                return
            rc = self.compare(before, after, simd)
            if rc == 2 and attempt == 1:
                print("NOTE: retry in attempt 1 (TCG stall?): measuring "
                      "again")
                continue
            break
        what = "textbook (%s, initiator %d): kernel counters" % (
            self.label(), init)
        s.either(rc == 0, what + " equal electsim's",
                 what + " differ from electsim's")
        s.agree(G, 2001, s.bound)

    # ------------------------------------------- concurrent elections ---
    @staticmethod
    def concurrent_ok(before, after, inits):
        """Every id of @inits began a run; no queue overflow; prints the
        messages the round cost."""
        assert before is not None and after is not None, "no stats"

        def delta(f):
            return sum(f(after[n]) - f(before[n]) for n in after)
        el = delta(lambda d: d["tx"]["election"])
        co = delta(lambda d: d["tx"]["coordinator"])
        rt = delta(lambda d: d["tx"]["retry"])
        qf = delta(lambda d: d["drops"]["queue_full"])
        runs = {n: after[n]["elections"] - before[n]["elections"]
                for n in sorted(after, key=int)}
        drops = {}
        for n in after:
            for k, v in after[n]["drops"].items():
                if v != before[n]["drops"][k]:
                    drops[k] = drops.get(k, 0) + v - before[n]["drops"][k]
        print("    messages: election %d coordinator %d retry %d; drops %s; "
              "runs begun %s" % (el, co, rt, drops, runs))
        bad = [n for n in map(str, inits) if runs[n] < 1]
        assert not bad, "no run begun by %s" % bad
        assert qf == 0, "queue_full drops +%d" % qf

    def sim_all(self):
        """Not asserted (how much the elections overlap depends on the
        guest's timing): what the simulator counts when every node elects
        at the same instant."""
        sup = ["--suppress", "off"] if self.suppress_off() else []
        r = run([os.path.join(REPO, SIM), "--algo", self.algo] + sup + [
            "--nodes", "6", "--ids", self.order_csv(), "--scenario",
            "elect", "--initiator", "all", "--json"])
        try:
            d = json.loads(r.out)["by_type"]
        except (ValueError, KeyError) as e:
            print("    electsim --initiator all: exit %d (%s) %s" % (
                r.rc, e, r.err.strip()))
            return
        print("    for comparison, electsim --initiator all: election %d "
              "coordinator %d" % (d["election"], d["coordinator"]))

    def case_concurrent(self):
        s = self.s
        # Within one kernel a whole election runs inside the softirq of the
        # first request (veth hands frames on at once): without a delay the
        # "concurrent" requests would run one election after the other.
        delay = 10 * SCALE
        s.modprobe("sch_netem")
        if not s.check("netem: %d ms one-way delay on every eth0 (all "
                       "requests are in before the first frame arrives)" %
                       delay, s.netem_delay(delay)):
            return
        for ids in (IDS, (100, 3, 42)):
            what = " ".join(map(str, ids))
            s.log("--- concurrent: group elect at once on %s" % what)
            before = self.stats()
            s.check("group elect at the same moment on %s" % what,
                    self.elect(ids))
            s.agree(G, 2001, s.bound, 1)
            after = self.quiet()
            if ids == IDS:
                self.sim_all()
            self.check_py("concurrent (%s): each initiator began a run, no "
                          "overflow" % what, self.concurrent_ok, before,
                          after, ids)
        s.check("netem delay removed", s.netem_delay(0))

    # ------------------------------------------------------ failures ---
    def case_crash(self):
        s = self.s
        pred = self.pred(2001)
        s.log("--- crash: leader 2001's namespace deleted")
        if not self.crash(2001):
            return
        s.agree(G, 777, s.bound, 1)
        # every election after the crash passed 2001's place in the ring
        s.peer_alive(G, pred, 2001, False)

    def case_skip(self):
        s = self.s
        x = VICTIM
        pred = self.pred(x)
        s.log("--- skip: non-coordinator %d crashes (predecessor %d), then "
              "leader 777" % (x, pred))
        s.peer_alive(G, pred, x, True)
        r0 = self.stat(pred, lambda d: d["tx"]["retry"])
        if not (self.crash(x) and self.crash(777)):
            return
        s.agree(G, 100, s.bound, 1)
        s.peer_alive(G, pred, x, False)
        r1 = self.stat(pred, lambda d: d["tx"]["retry"])
        s.check("%d re-sent past %d (tx.retry %s -> %s)" % (pred, x, r0, r1),
                r0 is not None and r1 is not None and r1 > r0)
        s.views(G)

    # ----------------------------------------------- mixing algorithms ---
    @staticmethod
    def mixed_ok(d):
        assert d is not None, "no stats"
        for n in sorted(d, key=int):
            st = d[n]
            print("    id %-5s algo %-9s wrong_algo %d leader_changes %d rx %s"
                  % (n, st.get("algo", "?"), st["drops"]["wrong_algo"],
                     st["leader_changes"],
                     {k: v for k, v in st["rx"].items() if v}))
        bad = [n for n in d if d[n]["drops"]["wrong_algo"] == 0]
        assert not bad, "no wrong_algo drop on %s" % bad
        assert d["2001"]["rx"]["heartbeat"] == 0, \
            "the bully node accepted a ring heartbeat"

    def case_mixed(self):
        s = self.s
        ring = list(s.nodes)
        before = self.stat(100, lambda d: (d["leader_changes"],
                                           d["drops"]["wrong_algo"]))
        s.log("--- mixed: 2001 returns with algo bully in the ring's group "
              "(100: leader_changes, wrong_algo = %s)" % (before,))
        if not s.check("node 2001 recreated", s.node_add(2001)):
            return
        if not self.setup_node(2001, "bully"):
            return
        s.check("group start on 2001 (bully)",
                s.ctl(2001, "group", "start", "dev", "eth0", "group", G))
        # alone in its algorithm, 2001 elects itself and announces it
        s.agree(G, 2001, s.bound, 0, [2001])
        s.agree(G, 100, s.bound, 2, ring)
        mixed = self.stats()
        self.check_py("wrong_algo drops on every node (ring and bully), ring "
                      "leader 100 unchanged", self.mixed_ok, mixed)

    def case_return(self):
        s = self.s
        s.log("--- return: 2001's bully instance replaced by a %s one" %
              self.label())
        s.check("group del on 2001 (bully)",
                s.ctl(2001, "group", "del", "dev", "eth0", "group", G))
        if not self.setup_node(2001, self.algo):
            return
        s.check("group start on 2001",
                s.ctl(2001, "group", "start", "dev", "eth0", "group", G))
        s.agree(G, 2001, s.bound, 1)
        s.views(G)

    # ------------------------ the kernel's refusals of the ring attributes
    def show9_ok(self):
        d = self.s.show(3, 9)
        print(d["pos"], d["suppress"], d["peers"])
        assert d["pos"] == 7 and d["suppress"] is False and [
            {k: p[k] for k in ("id", "lladdr", "alive", "pos")}
            for p in d["peers"]] == [{"id": 5, "lladdr": "02:00:00:00:00:05",
                                      "alive": False, "pos": 4294967295}]

    def case_refusals(self):
        s = self.s
        s.log("--- the kernel refuses what electionctl would (extack)")
        ifx = in_netns(topo.ns(3), lambda: socket.if_nametoindex("eth0"))
        raw = ["ifindex=%d" % ifx, "group=9"]
        s.check_refused("suppress on with algo bully",
                        "suppress applies to the ring algorithm only",
                        self.ctl3("group", "add", "dev", "eth0", "group", 9,
                                  "id", 3, "algo", "bully", "suppress", "on"))
        s.check_refused("suppress off with algo ring-list",
                        "suppress applies to the ring algorithm only",
                        self.ctl3("group", "add", "dev", "eth0", "group", 9,
                                  "id", 3, "algo", "ring-list", "suppress",
                                  "off"))
        s.check_refused("raw: SUPPRESS 2", "msg=[^ ]",
                        self.nl3("group_new", *raw, "node_id=3", "algo=2",
                                 "suppress=2"))
        s.check_refused("raw: POS 0", "msg=[^ ]",
                        self.nl3("group_new", *raw, "node_id=3", "algo=2",
                                 "pos=0"))
        s.check("ring group with pos and suppress accepted",
                self.ctl3("group", "add", "dev", "eth0", "group", 9, "id", 3,
                          "algo", "ring", "pos", 7, "suppress", "off"))
        s.check_refused("raw: PEER_POS 0", "msg=[^ ]",
                        self.nl3("peer_add", *raw, "peer_id=5",
                                 "peer_lladdr=02:00:00:00:00:05",
                                 "peer_pos=0"))
        s.check_refused("raw: GROUP_SET cannot change pos", "msg=[^ ]",
                        self.nl3("group_set", *raw, "pos=8"))
        s.check("peer with pos 4294967295 accepted",
                self.ctl3("peer", "add", "dev", "eth0", "group", 9, "id", 5,
                          "lladdr", "02:00:00:00:00:05", "pos", 4294967295))
        self.check_py("show after the refusals: pos 7, suppress off, peer 5 "
                      "at 4294967295, never heard (not alive)", self.show9_ok)
        s.check("group 9 deleted",
                s.ctl(3, "group", "del", "dev", "eth0", "group", 9))
        s.leak_check()
