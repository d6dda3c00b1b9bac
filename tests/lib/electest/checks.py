# SPDX-License-Identifier: GPL-2.0
"""What the nodes agree on, read with `electionctl -j show` and `-j stats`
in each node's namespace (every node at once: a TCG guest spends ~0.1 s
per process). A node is (netns, id). The polling checks print what they
found and return 0 or 1."""

import json
import os
import subprocess
import sys
import time

from electest import REPO, SCALE

CTL = os.environ.get("ELECTIONCTL", os.path.join(REPO, "userspace", "electionctl"))
QUIET_TYPES = "election,answer,coordinator,ack,retry,query,cid"


def ctl_many(nodes, args, timeout=20 * SCALE):
    """Run `electionctl ARGS` in each node's namespace, all at once (a TCG
    guest spends ~0.1 s per spawn: one after the other, a poll of five
    nodes would take half a second). Returns [(rc or None, stdout,
    stderr)] in the order of @nodes; rc None: timed out."""
    procs = [subprocess.Popen([CTL, "-n", ns] + args,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for ns, _ in nodes]
    out = []
    end = time.monotonic() + timeout
    for p in procs:
        try:
            o, e = p.communicate(timeout=max(end - time.monotonic(), 0.1))
            out.append((p.returncode, o, e))
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            out.append((None, "", ""))
    return out


def one_instance(res):
    """One node's object from ctl_many's result, or an error string."""
    rc, o, e = res
    if rc is None:
        return "electionctl timed out"
    if rc != 0:
        return "electionctl exit %d: %s" % (rc, e.strip())
    try:
        arr = json.loads(o)
    except ValueError as err:
        return "bad JSON (%s): %r" % (err, o[:200])
    if not isinstance(arr, list) or len(arr) != 1:
        return "expected one instance, got %r" % (o[:200],)
    return arr[0]


def show(netns, group, dev="eth0"):
    """One node's view (dict) or an error string."""
    return one_instance(ctl_many([(netns, 0)], ["-j", "show", "dev", dev,
                                                "group", str(group)])[0])


def views_of(nodes, group, dev="eth0"):
    """[((netns, id), view or error string)] of every node, polled at once."""
    res = ctl_many(nodes, ["-j", "show", "dev", dev, "group", str(group)])
    return [(n, one_instance(r)) for n, r in zip(nodes, res)]


def parse_nodes(nodes):
    out = []
    for n in nodes:
        ns, _, nid = n.rpartition(":")
        out.append((ns, int(nid)))
    return out


def verdict(views, expect, same_term=True):
    """None if every view agrees on expect, else a reason."""
    terms = set()
    for (ns, nid), v in views:
        if isinstance(v, str):
            return "%s: %s" % (ns, v)
        if v.get("id") != nid:
            return "%s: id %r, expected %d" % (ns, v.get("id"), nid)
        want_role = "leader" if nid == expect else "follower"
        if v.get("leader") != expect or v.get("role") != want_role:
            return "%s (id %d): role %s leader %s term %s" % (
                ns, nid, v.get("role"), v.get("leader"), v.get("term"))
        terms.add(v.get("term"))
    if same_term and len(terms) != 1:
        return "terms differ: %s" % sorted(terms)
    return None


def fmt_views(views):
    lines = []
    for (ns, nid), v in views:
        if isinstance(v, str):
            lines.append("    %-8s id %-6d %s" % (ns, nid, v))
        else:
            dead = [p["id"] for p in v.get("peers", []) if not p.get("alive")]
            lines.append("    %-8s id %-6d role %-9s leader %-6s term %-4s participant %s down %s" % (
                ns, nid, v.get("role"), v.get("leader"), v.get("term"),
                v.get("participant"), dead))
            if "inv_seq" in v:
                lines[-1] += " group (%s, %s) members %s" % (
                    v["inv_seq"], v.get("inv_coordinator"), v.get("members"))
    return "\n".join(lines)


def agree(nodes, group, expect, timeout=30, stable=0, interval=0.1,
          dev="eth0", out=None):
    """Poll @nodes ([(netns, id)]) until all agree on leader @expect
    (the leader's own role leader, the others' follower); with @stable,
    check that it holds that long.
    Prints what it found to @out (default stdout); returns 0 or 1."""
    out = out or sys.stdout
    t0 = time.monotonic()
    views = []
    why = "never polled"
    while True:
        views = views_of(nodes, group, dev)
        why = verdict(views, expect)
        if why is None or time.monotonic() - t0 > timeout:
            break
        time.sleep(interval)
    took = time.monotonic() - t0
    if why is not None:
        print("no agreement on %d within %.1fs: %s" % (expect, timeout, why), file=out)
        print(fmt_views(views), file=out)
        return 1
    term = views[0][1]["term"]
    print("all %d nodes agree on leader %d (term %s) after %.2fs" %
          (len(nodes), expect, term, took), file=out)
    if stable > 0:
        t1 = time.monotonic()
        polls = 0
        while time.monotonic() - t1 < stable:
            time.sleep(interval)
            views = views_of(nodes, group, dev)
            polls += 1
            why = verdict(views, expect, same_term=False)
            if why is not None:
                print("agreement on %d did not hold: %s" % (expect, why), file=out)
                print(fmt_views(views), file=out)
                return 1
        term2 = max(v["term"] for _, v in views)
        note = "" if term2 == term else " (a re-election moved the term %s -> %s)" % (term, term2)
        print("agreement held for %.1fs over %d polls%s" % (stable, polls, note), file=out)
    return 0


def group_verdict(sides, views):
    """None if every side is one group (see `groups`), else a reason."""
    numbers = []
    for side, vs in zip(sides, views):
        want = sorted(nid for _, nid in side)
        top = want[-1]
        gnum = None
        for (ns, nid), v in vs:
            if isinstance(v, str):
                return "%s: %s" % (ns, v)
            g = (v.get("inv_seq"), v.get("inv_coordinator"))
            role = "leader" if nid == top else "follower"
            if g[1] != top or v.get("leader") != top or v.get("role") != role:
                return "%s: group %r role %s leader %r, expected " \
                       "coordinator %d" % (ns, g, v.get("role"),
                                           v.get("leader"), top)
            if gnum is None:
                gnum = g
            elif g != gnum:
                return "%s: group %r, its side's %r" % (ns, g, gnum)
            if v.get("members") != want:
                return "%s: members %r, expected %r" % (ns, v.get("members"),
                                                      want)
        numbers.append(gnum)
    if len(set(numbers)) != len(numbers):
        return "group numbers not distinct: %r" % (numbers,)
    return None


def groups(sides, group, timeout=30, stable=0, interval=0.1, dev="eth0",
           out=None, err=None):
    """Invitation: poll until every side ([[(netns, id)]]) is one group
    (`elec.py groups`). Returns 0 or 1."""
    out = out or sys.stdout
    err = err or sys.stderr
    t0 = time.monotonic()
    while True:
        views = [views_of(side, group, dev) for side in sides]
        why = group_verdict(sides, views)
        if why is None or time.monotonic() - t0 > timeout:
            break
        time.sleep(interval)
    took = time.monotonic() - t0
    if why is not None:
        print("no groups within %.1fs: %s" % (timeout, why), file=err)
        for vs in views:
            print(fmt_views(vs), file=err)
        return 1
    numbers = [[vs[0][1]["inv_seq"], vs[0][1]["inv_coordinator"]]
               for vs in views]
    t1 = time.monotonic()
    while time.monotonic() - t1 < stable:
        time.sleep(interval)
        views = [views_of(side, group, dev) for side in sides]
        why = group_verdict(sides, views)
        now = [[vs[0][1]["inv_seq"], vs[0][1]["inv_coordinator"]]
               for vs in views] if why is None else None
        if why is not None or now != numbers:
            print("groups did not hold: %s" % (why or "numbers %r -> %r" %
                                               (numbers, now)),
                  file=err)
            return 1
    print(json.dumps({"groups": numbers, "took": round(took, 2)}), file=out)
    return 0




def stats(netns, group, dev="eth0"):
    """One node's stats (dict); raises RuntimeError when unreadable."""
    cmd = [CTL, "-n", netns, "-j", "stats",
           "dev", dev, "group", str(group)]
    p = subprocess.run(cmd, capture_output=True, text=True,
                       timeout=20 * SCALE)
    if p.returncode != 0:
        raise RuntimeError("%s: electionctl exit %d: %s" % (
            netns, p.returncode, p.stderr.strip()))
    arr = json.loads(p.stdout)
    if not isinstance(arr, list) or len(arr) != 1:
        raise RuntimeError("%s: expected one instance, got %r" % (
            netns, p.stdout[:200]))
    return arr[0]


def all_stats(nodes, group, dev):
    res = ctl_many(nodes, ["-j", "stats", "dev", dev, "group", str(group)])
    out = {}
    for (ns, nid), r in zip(nodes, res):
        v = one_instance(r)
        if isinstance(v, str):
            raise RuntimeError("%s: %s" % (ns, v))
        out[str(nid)] = v
    return out




def quiet(nodes, group, stable=1.5, timeout=30, interval=0.2,
          types=QUIET_TYPES, dev="eth0", out=None, err=None):
    """Poll the nodes' stats until the tx and rx counters of @types (a
    comma-separated list) stay unchanged for @stable s (`elec.py
    quiet`); prints the last poll. Returns 0, or 1 after @timeout s."""
    out = out or sys.stdout
    err = err or sys.stderr
    what = types
    types = types.split(",")

    def key(snap):
        return tuple((nid, d, t, snap[nid][d].get(t, 0))
                     for nid in sorted(snap) for d in ("tx", "rx")
                     for t in types)

    t0 = time.monotonic()
    snap = all_stats(nodes, group, dev)
    last, since = key(snap), time.monotonic()
    while time.monotonic() - since < stable:
        if time.monotonic() - t0 > timeout:
            print("counters (%s) still changing after %.1fs" % (
                what, timeout), file=err)
            print(json.dumps(snap, sort_keys=True), file=out)
            return 1
        time.sleep(interval)
        snap = all_stats(nodes, group, dev)
        k = key(snap)
        if k != last:
            last, since = k, time.monotonic()
    print("quiet: %s unchanged for %.1fs (waited %.1fs)" % (
        what, stable, time.monotonic() - t0), file=err)
    print(json.dumps(snap, sort_keys=True), file=out)
    return 0


def parse_sides(specs):
    """[(leader or 0, nodes)] of SIDE arguments "L=NETNS:ID,NETNS:ID"."""
    out = []
    for spec in specs:
        lead, _, nodes = spec.partition("=")
        out.append((int(lead), parse_nodes(nodes.split(","))))
    return out


def leaderless_verdict(views):
    for (ns, nid), v in views:
        if isinstance(v, str):
            return "%s: %s" % (ns, v)
        if v.get("leader") is not None or v.get("role") != "follower":
            return "%s (id %d): role %s leader %s" % (
                ns, nid, v.get("role"), v.get("leader"))
    return None


def sides_verdict(sides, views, same_term=True):
    for (lead, _), vs in zip(sides, views):
        why = verdict(vs, lead, same_term) if lead else leaderless_verdict(vs)
        if why:
            return why
    return None


def sides(sides, group, timeout=30, stable=0, interval=0.1, dev="eth0",
          out=None):
    """Quorum: poll until every side ([(leader or 0, [(netns, id)])]) is
    as it says; with @stable, check that it holds.
    Returns 0 or 1."""
    out = out or sys.stdout
    flat = [n for _, nodes in sides for n in nodes]

    def poll():
        views = views_of(flat, group, dev)
        out, i = [], 0
        for _, nodes in sides:
            out.append(views[i:i + len(nodes)])
            i += len(nodes)
        return out

    what = "; ".join("%s: %s" % (" ".join(str(n) for _, n in nodes),
                                 "leader %d" % lead if lead else "no leader")
                     for lead, nodes in sides)
    t0 = time.monotonic()
    while True:
        views = poll()
        why = sides_verdict(sides, views)
        if why is None or time.monotonic() - t0 > timeout:
            break
        time.sleep(interval)
    took = time.monotonic() - t0
    if why is not None:
        print("not as expected (%s) within %.1fs: %s" % (what, timeout, why), file=out)
        for vs in views:
            print(fmt_views(vs), file=out)
        return 1
    print("%s after %.2fs" % (what, took), file=out)
    t1 = time.monotonic()
    polls = 0
    while time.monotonic() - t1 < stable:
        time.sleep(interval)
        views = poll()
        polls += 1
        why = sides_verdict(sides, views, same_term=False)
        if why is not None:
            print("did not hold: %s" % why, file=out)
            for vs in views:
                print(fmt_views(vs), file=out)
            return 1
    if stable > 0:
        print("held for %.1fs over %d polls" % (stable, polls), file=out)
    return 0
