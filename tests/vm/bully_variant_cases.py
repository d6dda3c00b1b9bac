# SPDX-License-Identifier: GPL-2.0
"""The cases of the Bully variant scenarios (75 min-bully, 76 enh-bully;
Documentation/protocol.rst, "The Bully variants"), in order, on one
topology of five nodes, ids 3 17 42 100 2001 (no id 1: the minimum is 3).
A scenario calls main(ALGO) (min-bully or enh-bully), which runs the cases
named on its command line (default: all of them, in this order). The best
id is 3 for min-bully (the lowest wins), 2001 for enh-bully (the highest);
"next" is the best once it is gone (17, 100).

  first      all start at once: all agree on the best. min-bully: the
             minimum claims at once (COORDINATOR, no QUERY), every other
             node broadcast QUERY; enh-bully: every node sent QUERY to
             the candidates above it (the best: to the 2 others), a
             COORDINATOR named the best; no malformed, unknown-peer,
             wrong-algo, wrong-dst or queue-full drop
  join       a follower stops and starts again: it sends QUERY
             (min-bully: one broadcast; enh-bully: one to each
             candidate) and is answered with CID (min-bully: by the
             leader only; enh-bully: by every candidate, each knowing
             the leader), exactly; it follows the leader; nobody begins
             a run, nobody else changes leader
  suspect-on 17 falsely suspects the leader (the leader's hb-interval
             raised to 1 s while 17 keeps its 0.5 s window; the others'
             windows widened), ask-suspect on: each suspicion is one
             probe (ELECTION to the leader) and its re-announcement (and
             enh-bully's ANSWER); no leader change anywhere, no new term
  suspect-off the same with ask-suspect off on 17: min-bully: 17 (the
             second minimum) claims at once, the minimum re-claims
             (step 6, preemption); enh-bully: 17 asks the candidates,
             names 100, and 2001 takes over again. Per suspicion every
             node changes leader twice, the term grows by 2, the best
             begins one run; one leader at the end
  concurrent `group elect` on every node at the same moment (GROUP_ELECT
             over one generic netlink socket per namespace, sent back to
             back; a 10 ms netem delay on every link so that the runs
             overlap): one leader, the best; every node began a run
  crash      the best's namespace is deleted; every survivor detects it
             at about the same time (same window) and begins a run: they
             agree on the next best, which marks the best down
  return     the best comes back (fresh instance, term 0): min-bully:
             a lower id than the coordinator; enh-bully: a higher one:
             it takes over, at a term above the group's
  textbook   the leader crashes and one node detects it (every other
             node's hb-miss 1000): the per-type tx counters summed over
             the survivors, from the crash to quiescence, equal electsim
             --scenario crash-leader --initiator P's by_type (min-bully
             P = 17, the second minimum: the paper's best case;
             enh-bully P = 3, an ordinary node: probe, stage 1, one
             COORDINATOR), and the survivors agree on electsim's leader;
             then the windows are restored (a second attempt, after the
             best returned, if the first differs: a TCG stall past T)

After the cases: group del on every node and the leak check, rmmod, end.
Was tests/vm/bully-variant-cases.sh (its vb_check modes are judge_*()
here, the counters compared in process)."""

import io
import json
import os
import sys
import time
import traceback

from electest import REPO, checks
from electest.scenario import SCALE, Result, Scenario, call, dur, run, sec

# raw generic netlink (GROUP_ELECT on every node at once): elec_lib's until
# electest.nl has it
import elec_lib

G = 1
IDS = (3, 17, 42, 100, 2001)
TYPES = "election,answer,coordinator,query,cid,ack,retry"
ALL_TYPES = ["election", "answer", "coordinator", "heartbeat", "query",
             "cid", "ack", "retry"]
BAD_DROPS = ("malformed", "unknown_peer", "wrong_algo", "wrong_dst",
             "queue_full")
CASES = ("first", "join", "suspect-on", "suspect-off", "concurrent",
         "crash", "return", "textbook")

# per algorithm: the best, the next best, the joiner, the false suspect,
# the textbook's initiator; the joiner's QUERY and the CID answering it,
# the best's QUERY in the first election
ALGOS = {
    "min-bully": dict(best=3, next=17, joiner=42, suspect=17, init=17,
                      join_query=1, join_cid=1, best_query=0),
    # candidates: the ceil(5/2) = 3 highest, 42 100 2001
    "enh-bully": dict(best=2001, next=100, joiner=17, suspect=17, init=3,
                      join_query=3, join_cid=3, best_query=2),
}


# ------------------------------------------------------------ judging ---
# Each judge_* takes stats objects keyed by node id (a string, as
# electest.checks.all_stats gives them) and returns (lines, bad): the
# per-node lines to show and the mismatches (none: the check passes).

def _line(n, s, b=None):
    def dl(d, t):
        return s[d].get(t, 0) - (b[d].get(t, 0) if b else 0)
    tx = " ".join("%s %d" % (t[:5], dl("tx", t)) for t in ALL_TYPES
                  if t != "heartbeat")
    rx = " ".join("%s %d" % (t[:5], dl("rx", t)) for t in ALL_TYPES
                  if t != "heartbeat")
    el = s["elections"] - (b["elections"] if b else 0)
    lc = s["leader_changes"] - (b["leader_changes"] if b else 0)
    dr = {k: v - (b["drops"].get(k, 0) if b else 0)
          for k, v in s["drops"].items()}
    dr = {k: v for k, v in dr.items() if v}
    return ("    id %-5s tx %s | rx %s | elections %s%d leader_changes %s%d%s"
            % (n, tx, rx, "+" if b else "", el, "+" if b else "", lc,
               " drops %s" % dr if dr else ""))


def _lines(a, b=None):
    return [_line(n, a[n], b[n] if b else None) for n in sorted(a, key=int)]


def _delta(a, b, n, what, key=None):
    if key is None:
        return a[n][what] - b[n][what]
    return a[n][what].get(key, 0) - b[n][what].get(key, 0)


def _tx_totals(a, b):
    return {t: sum(_delta(a, b, n, "tx", t) for n in a) for t in ALL_TYPES
            if t != "heartbeat"}


def _bad_drops(a, b, bad, ids=None):
    for n in ids or a:
        for k in BAD_DROPS:
            if _delta(a, b, n, "drops", k):
                bad.append("%s: drops.%s +%d" % (n, k,
                                                 _delta(a, b, n, "drops", k)))


def judge_first(d, best, bq, algo):
    """The first election's counters @d: COORDINATOR sent (min-bully: by
    the minimum @best), @best sent @bq QUERY, every other node QUERY, no
    bad drop."""
    lines, bad = _lines(d), []
    # min-bully: the minimum claims itself; enh-bully: any electioneer
    # names the best
    if "min" in algo and d[best]["tx"]["coordinator"] < 1:
        bad.append("the best (%s) sent no COORDINATOR" % best)
    if not sum(d[n]["tx"]["coordinator"] for n in d):
        bad.append("no COORDINATOR was sent")
    if d[best]["tx"].get("query", 0) != bq:
        bad.append("the best (%s) sent %d QUERY, expected %d" % (
            best, d[best]["tx"].get("query", 0), bq))
    for n in d:
        if n != best and d[n]["tx"].get("query", 0) < 1:
            bad.append("%s sent no QUERY when it joined" % n)
        for k in BAD_DROPS:
            if d[n]["drops"].get(k):
                bad.append("%s: drops.%s %d" % (n, k, d[n]["drops"][k]))
    return lines, bad


def judge_join(b, a, j, lead, nq, nc):
    """Joiner @j sent @nq QUERY, @nc CID answered it (the leader @lead
    one of them), nobody ran or (but @j) changed leader."""
    lines, bad = _lines(a, b), []
    q = _delta(a, b, j, "tx", "query")
    cid = sum(_delta(a, b, n, "tx", "cid") for n in a)
    if q != nq:
        bad.append("the joiner %s sent %d QUERY, expected %d" % (j, q, nq))
    if cid != nc:
        bad.append("%d CID sent in all, expected %d" % (cid, nc))
    if lead in a and _delta(a, b, lead, "tx", "cid") < 1:
        bad.append("the leader %s sent no CID" % lead)
    for n in a:
        for t in ("election", "answer", "coordinator"):
            if _delta(a, b, n, "tx", t):
                bad.append("%s sent %s +%d" % (n, t, _delta(a, b, n, "tx", t)))
        if _delta(a, b, n, "elections"):
            bad.append("%s began a run" % n)
        if n != j and _delta(a, b, n, "leader_changes"):
            bad.append("%s changed leader" % n)
    return lines, bad


def judge_suspect(b, a, s, lead, ask, algo, t0, t1):
    """False suspicions of @lead by @s with ask-suspect @ask: probes
    answered (on), or runs undone with two leader changes each (off);
    the leader's term @t0 before, @t1 after."""
    lines, bad = _lines(a, b), []
    k = _delta(a, b, s, "elections")
    lines.append("    %d false suspicions by %s (ask-suspect %s); leader's term "
                 "%s -> %s" % (k, s, ask, t0, t1))
    if t0 is None or t1 is None:
        return lines, ["the leader's term unread"]
    if k < 1:
        bad.append("%s never suspected the leader" % s)
    for n in a:
        if n not in (s, lead) and _delta(a, b, n, "elections"):
            bad.append("%s began a run" % n)
    if ask == "on":
        for n in a:
            if _delta(a, b, n, "leader_changes"):
                bad.append("%s changed leader %+d" % (
                    n, _delta(a, b, n, "leader_changes")))
        if t1 != t0:
            bad.append("the term moved %d -> %d" % (t0, t1))
        if _delta(a, b, s, "tx", "election") != k:
            bad.append("%s sent %d ELECTION for %d probes" % (
                s, _delta(a, b, s, "tx", "election"), k))
        if _delta(a, b, s, "tx", "coordinator"):
            bad.append("%s claimed" % s)
        if _delta(a, b, lead, "elections"):
            bad.append("the leader began a run")
        if _delta(a, b, lead, "tx", "coordinator") != k:
            bad.append("the leader re-announced itself %d times for %d "
                       "probes" % (_delta(a, b, lead, "tx", "coordinator"), k))
        if algo == "enh-bully" and _delta(a, b, lead, "tx", "answer") != k:
            bad.append("the leader answered %d of %d probes" % (
                _delta(a, b, lead, "tx", "answer"), k))
    else:
        if _delta(a, b, lead, "elections") != k:
            bad.append("the leader began %d runs for %d suspicions" % (
                _delta(a, b, lead, "elections"), k))
        for n in a:
            if _delta(a, b, n, "leader_changes") != 2 * k:
                bad.append("%s changed leader %d times, expected %d" % (
                    n, _delta(a, b, n, "leader_changes"), 2 * k))
        if t1 != t0 + 2 * k:
            bad.append("term %d -> %d, expected +%d" % (t0, t1, 2 * k))
        want = 0 if algo == "min-bully" else 2 * k
        if _delta(a, b, s, "tx", "election") != want:
            bad.append("%s sent %d ELECTION" % (
                s, _delta(a, b, s, "tx", "election")))
    return lines, bad


def judge_concurrent(b, a):
    """Every node began a run, no bad drop."""
    lines, bad = _lines(a, b), []
    lines.append("    messages: %s" % _tx_totals(a, b))
    for n in a:
        if _delta(a, b, n, "elections") < 1:
            bad.append("%s began no run" % n)
        _bad_drops(a, b, bad, [n])
    return lines, bad


def judge_textbook(b, a, sim, lead):
    """The survivors' tx deltas equal electsim's by_type (@sim), electsim's
    leader is @lead, no bad drop."""
    lines, bad = _lines(a, b), []
    tot = _tx_totals(a, b)
    bt = sim["by_type"]
    lines.append("    kernel:   %s" % " ".join("%s %d" % (t, tot[t])
                                               for t in tot))
    lines.append("    electsim: %s (leader %s, agreed %s, quiescent %s)" % (
        " ".join("%s %d" % (t, bt.get(t, 0)) for t in tot), sim["leader"],
        sim.get("agreed"), sim.get("quiescent")))
    for t in tot:
        if tot[t] != bt.get(t, 0):
            bad.append("tx.%s %d != electsim %d" % (t, tot[t], bt.get(t, 0)))
    if sim["leader"] != lead:
        bad.append("electsim's leader %s, the kernel's %d" % (sim["leader"],
                                                              lead))
    if not sim.get("agreed") or not sim.get("quiescent"):
        bad.append("electsim: agreed %s quiescent %s" % (
            sim.get("agreed"), sim.get("quiescent")))
    _bad_drops(a, b, bad)
    return lines, bad


def judge(fn, *args):
    """(lines, bad) of @fn(*args); counters missing (None: unreadable) or
    not as expected make a mismatch, not an exception."""
    if any(x is None for x in args[:2]):
        return [], ["counters unreadable"]
    try:
        return fn(*args)
    except (KeyError, TypeError, ValueError) as e:
        return [traceback.format_exc().rstrip()], ["%s: %r" % (
            type(e).__name__, e)]


# -------------------------------------------------------------- cases ---

class Cases:
    """The cases on Scenario @s with algorithm @algo (ALGOS' keys)."""

    def __init__(self, s, algo):
        self.s = s
        self.algo = algo
        s.algo = algo
        for k, v in ALGOS[algo].items():
            setattr(self, k, v)

    # ----------------------------------------------------- helpers ---
    def mismatch(self, desc, lines, bad):
        """A check of judged counters (vb_check under check)."""
        if bad:
            lines = lines + ["    MISMATCH: " + "; ".join(bad)]
        return self.s.check(desc, not bad, "\n".join(lines))

    def nodes(self, ids=None):
        return self.s.nodes_of(ids)

    def quiet(self):
        """(rc, stats) once the counters of TYPES stopped changing for
        1.5 s (rc 1: still changing after ELEC_BOUND s; stats None:
        unreadable)."""
        out = io.StringIO()
        try:
            rc = checks.quiet(self.nodes(), G, sec(1.5), self.s.bound,
                              types=TYPES, out=out, err=sys.stdout)
        except RuntimeError as e:
            print("quiet: %s" % e)
            return 1, None
        return rc, json.loads(out.getvalue())

    def stats(self, ids=None):
        """Every node's stats keyed by id (a string), or None."""
        try:
            return checks.all_stats(self.nodes(ids), G, "eth0")
        except RuntimeError as e:
            print("stats: %s" % e)
            return None

    def term(self, nid):
        """Node @nid's term, or None."""
        try:
            return self.s.show(nid, G)["term"]
        except (RuntimeError, ValueError, KeyError, IndexError) as e:
            print("term of %d: %s" % (nid, e))
            return None

    def others(self, *skip):
        return [i for i in self.s.nodes if i not in skip]

    def peer_alive(self, nid, peer, want):
        try:
            return self.s.peer_alive(G, nid, peer, want)
        except (RuntimeError, ValueError, KeyError, IndexError) as e:
            return self.s.fail("node %d sees peer %d alive=%s (%s)" % (
                nid, peer, "true" if want else "false", e))

    def group(self, nid, *args):
        """electionctl group ARGS... dev eth0 group G on node @nid."""
        return self.s.ctl(nid, "group", *args[:1], "dev", "eth0", "group", G,
                          *args[1:])

    def set(self, ids, *opts):
        """group set OPTS on each of @ids, in parallel; one Result."""
        rs = [r if isinstance(r, Result) else Result(1, "", "no result")
              for r in self.s._parallel(
                  lambda i: self.group(i, "set", *opts), ids)]
        return Result(0 if all(r.rc == 0 for r in rs) else 1,
                      "".join(r.out for r in rs), "".join(r.err for r in rs))

    def quiet_det(self, miss):
        # the nodes meant never to detect get the fixed detector with the
        # long window (an adaptive one would watch the leader's arrivals,
        # not hb-miss), and the scenario's detector again afterwards
        return "fixed" if miss >= 50 else (self.s.detector or "fixed")

    def suspect_cfg(self, sus, ask, ids, miss):
        """ask-suspect @ask on @sus, hb-miss @miss on @ids."""
        r = self.set([sus], "ask-suspect", ask)
        if r.rc:
            return r
        return self.set(ids, "hb-miss", miss, "detector", self.quiet_det(miss))

    def crash(self, nid):
        """Node @nid's namespace deleted; a Result."""
        # node_crash shows ip's output when it refuses
        return Result(0 if self.s.node_crash(nid) else 1, "", "")

    def elect(self):
        """GROUP_ELECT on every node at the same moment (elec.py elect)."""
        return call(elec_lib.main, ["elect", "--group", G] + [
            "%s:%d" % n for n in self.nodes()])

    # ------------------------------------------------------- cases ---
    def case_first(self):
        s, best = self.s, self.best
        s.log("--- first election (%s): all start at once, the best is %d"
              % (self.algo, best))
        if not s.group_setup(G):
            return False
        try:
            got = s.show(IDS[0], G)["algo"]
        except (RuntimeError, ValueError, KeyError, IndexError) as e:
            got = str(e)
        s.check("-j show reports algo %s" % self.algo, got == self.algo,
                "" if got == self.algo else got)
        s.start_all(G)
        s.agree(G, best, s.bound, 1)
        _, first = self.quiet()
        return self.mismatch(
            "first election: COORDINATOR sent (min-bully: by the minimum), "
            "%d sent %d QUERY, every other node QUERY, no bad drop" % (
                best, self.best_query),
            *judge(judge_first, first, str(best), self.best_query, self.algo))

    def case_join(self):
        s, j = self.s, self.joiner
        s.log("--- join: follower %d stops and starts again (QUERY, CID)" % j)
        rc, before = self.quiet()
        if rc:
            return s.fail("join: counters never settled")
        s.check("group stop on %d" % j, self.group(j, "stop"))
        s.check("group start on %d" % j, self.group(j, "start"))
        s.agree(G, self.best, s.bound, 0)
        _, after = self.quiet()
        return self.mismatch(
            "join: %d sent %d QUERY, %d CID answered, no run, no other leader "
            "change" % (j, self.join_query, self.join_cid),
            *judge(judge_join, before, after, str(j), str(self.best),
                   self.join_query, self.join_cid))

    def case_suspect(self, ask):
        """The suspect's window is 0.5 s, the leader's heartbeats come
        every 1 s for a while, every other window is 5 s."""
        s, sus, lead = self.s, self.suspect, self.best
        wide = self.others(sus)
        s.log("--- false suspicion: %d misses the leader's heartbeats, "
              "ask-suspect %s" % (sus, ask))
        if not s.check("%d: ask-suspect %s; the others: hb-miss 50" % (
                sus, ask), self.suspect_cfg(sus, ask, wide, 50)):
            return False
        time.sleep(sec(0.3))    # every window re-armed with its new length
        rc, before = self.quiet()
        if rc:
            return s.fail("suspect: counters never settled")
        t0 = self.term(lead)
        s.check("leader %d: hb-interval %s" % (lead, dur("1s")),
                self.set([lead], "hb-interval", dur("1s")))
        time.sleep(sec(1.6))
        s.check("leader %d: hb-interval %s again" % (lead, dur("100ms")),
                self.set([lead], "hb-interval", dur("100ms")))
        rc, after = self.quiet()
        if rc:
            s.fail("suspect: counters never settled after")
        s.agree(G, lead, s.bound, 0)
        t1 = self.term(lead)
        verdict = judge(judge_suspect, before, after, str(sus), str(lead),
                        ask, self.algo, t0, t1)
        if ask == "on":
            self.mismatch("ask-suspect on: probes answered by "
                          "re-announcements, no leader change, term %s kept"
                          % t0, *verdict)
        else:
            self.mismatch("ask-suspect off: %d's runs undone by %d's, two "
                          "leader changes per suspicion everywhere" % (
                              sus, lead), *verdict)
        return s.check("%d: ask-suspect on; the others: hb-miss 5 again" %
                       sus, self.suspect_cfg(sus, "on", wide, 5))

    def case_suspect_on(self):
        return self.case_suspect("on")

    def case_suspect_off(self):
        return self.case_suspect("off")

    def case_concurrent(self):
        # without a delay the whole run of the first request would be over
        # (veth hands frames on at once) before the next request came in
        s, ms = self.s, 10 * SCALE
        s.log("--- concurrent: group elect at once on every node")
        s.modprobe("sch_netem")
        if not s.check("netem: %d ms one-way delay on every eth0" % ms,
                       s.netem_delay(ms)):
            return False
        before = self.stats()
        s.check("group elect at the same moment on %s" % " ".join(
            map(str, s.nodes)), self.elect())
        s.agree(G, self.best, s.bound, 1)
        _, after = self.quiet()
        self.mismatch("concurrent: every node began a run, one leader (%d), "
                      "no bad drop" % self.best,
                      *judge(judge_concurrent, before, after))
        return s.check("netem delay removed", s.netem_delay(0))

    def case_crash(self):
        s, best, nxt = self.s, self.best, self.next
        s.log("--- crash: the best (%d) is deleted; the survivors detect it "
              "at once" % best)
        before = self.stats()
        if not s.check("namespace of %d deleted" % best, self.crash(best)):
            return False
        s.agree(G, nxt, s.bound, 1)
        self.peer_alive(nxt, best, False)
        _, after = self.quiet()
        # the same last heartbeat, the same window: each detects within
        # microseconds of the others, well inside the probe's T
        return self.mismatch("crash: every survivor detected it (began a "
                             "run), one leader (%d)" % nxt,
                             *judge(judge_concurrent, before, after))

    def case_return(self):
        s, best, nxt = self.s, self.best, self.next
        t0 = self.term(nxt)
        s.log("--- return: %d comes back (fresh instance) and takes over "
              "from %d (term %s)" % (best, nxt, t0))
        if not s.check("node %d recreated" % best, s.node_add(best)):
            return False
        if not s.group_setup(G, [best]):
            return False
        s.check("group start on %d" % best, self.group(best, "start"))
        s.agree(G, best, s.bound, 1)
        t1 = self.term(best)
        s.check("%d leads at a term above %s (%s)" % (best, t0, t1),
                t0 is not None and t1 is not None and t1 > t0)
        self.peer_alive(nxt, best, True)
        d = self.stats([best])
        if d:
            d = d[str(best)]
            print("    returned node: tx %s rx %s drops %s" % (
                {k: v for k, v in d["tx"].items() if v and k != "heartbeat"},
                {k: v for k, v in d["rx"].items() if v and k != "heartbeat"},
                {k: v for k, v in d["drops"].items() if v}))
        return True

    def case_textbook(self):
        s, p, best, nxt = self.s, self.init, self.best, self.next
        quiet = self.others(p)
        s.log("--- textbook: %d crashes, only %d detects it; counts against "
              "electsim" % (best, p))
        w = s.timing.split()
        sim = ["userspace/sim/electsim", "--algo", self.algo, "--nodes", "5",
               "--ids", ",".join(map(str, IDS)), "--scenario",
               "crash-leader", "--initiator", str(p)]
        sim += [x for k, v in zip(w[::2], w[1::2]) for x in ("--" + k, v)]
        sim.append("--json")
        print("    " + " ".join(sim))
        r = run([os.path.join(REPO, sim[0])] + sim[1:])
        try:
            simd = json.loads(r.out) if r.rc == 0 else None
        except ValueError:
            simd = None
        if simd is None:
            sys.stdout.write(r.text + "\n" if r.text else "")
            return s.fail("textbook (%s): electsim failed: %s" % (
                self.algo, " ".join(sim)))
        sys.stdout.write(r.out + r.err)
        ok = False
        for attempt in (1, 2):
            if not s.check("hb-miss 1000 on %s (they never detect)" % " ".join(
                    map(str, quiet)), self.set(quiet, "hb-miss", 1000,
                                               "detector", "fixed")):
                return False
            time.sleep(sec(0.3))
            rc, before = self.quiet()
            if rc:
                return s.fail("textbook: counters never settled before")
            if not s.check("namespace of %d deleted" % best, self.crash(best)):
                return False
            s.agree(G, nxt, s.bound, 0)
            rc, after = self.quiet()
            if rc:
                return s.fail("textbook: counters never settled after")
            lines, bad = judge(judge_textbook, before, after, simd, nxt)
            if bad:
                lines.append("    MISMATCH: " + "; ".join(bad))
            print("\n".join(lines))
            ok = not bad
            s.check("hb-miss 5 on the survivors again",
                    self.set(self.others(best), "hb-miss", 5, "detector",
                             s.detector or "fixed"))
            if ok or attempt == 2:
                break
            print("NOTE: attempt 1 differs from electsim (a TCG stall past "
                  "T?): measuring again")
            self.case_return()
        if ok:
            return s.pass_("textbook (%s, detector %d): the kernel's tx "
                           "counters equal electsim's" % (self.algo, p))
        return s.fail("textbook (%s, detector %d): the kernel's tx counters "
                      "differ from electsim's" % (self.algo, p))

    # --------------------------------------------------------- run ---
    def run(self, cases):
        s = self.s
        s.up(*IDS)
        for c in cases:
            f0 = s.failed
            fn = getattr(self, "case_" + c.replace("-", "_"), None)
            if fn is None:
                s.fail("no case %s (the cases: %s)" % (c, " ".join(CASES)))
                continue
            fn()
            if c == "first" and s.failed != f0:
                s.fail("first election (%s) failed: the other cases are "
                       "skipped" % self.algo)
                break
        s.views(G)
        s.finish(G)


def main(algo, cases=None):
    """Scenario with algorithm @algo: load, topology, then @cases (default
    sys.argv[1:], else all of CASES) in order, teardown; exits."""
    s = Scenario()
    if algo not in ALGOS:
        s.fail("bully_variant_cases: algo must be min-bully or enh-bully, "
               "not %r" % algo)
        s.end()
    Cases(s, algo).run(list(cases or sys.argv[1:] or CASES))
