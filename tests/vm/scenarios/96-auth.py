#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Frame authentication (issue 13): group keys set with electionctl
key-file (a raw file and a hex file), on a Bully group and a ring group
of the same device, with different keys.
 - keyed groups elect as before; show reports auth on; no auth drops;
 - the key appears nowhere: show, JSON, showconf (a placeholder and its
   comment), stats, events, the kernel log, the trace buffer;
 - a node whose group is deleted and added again (its counters start
   from its clock) is heard at once: no auth_replay;
 - another key on one node: auth_bad both ways, the node is cut off
   from the group's elections; back to the right key: it leads again;
 - key none on one node: auth_missing on the others, auth_unexpected
   on it; key none everywhere: elections go on unauthenticated;
 - without CAP_NET_ADMIN, key changes are refused with the kernel's
   message and change nothing; a wrong-sized key from the raw netlink
   path is refused too, and so is an all-zero key (raw netlink, and
   electionctl --unchecked, which skips its own refusal);
 - injected frames (tests/inject/elec-inject, from a host on the
   segment that is no node): captured frames replayed with the senders'
   own MACs, older than auth-window, are auth_clock drops, COORDINATOR
   claims from a higher id with a newer term and no key or a wrong MAC
   are auth_missing / auth_bad (or, from an id or address that is no
   peer's, refused before the MAC), flipped bits are dropped, a frame
   MACed with the Bully group's key is auth_bad in the ring group (keys
   stay apart) while the ring group's key passes its MAC check: no role
   changes, and the counters equal the numbers injected;
 - the recording played to nodes whose groups start afresh after the
   leader went (issue 33): refused (auth_clock), the dead leader never
   followed, the next best elected."""

import json
import os
import signal
import socket
import subprocess
import sys
import time

REPO = os.environ.get("ELECTION_REPO", ".")
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
sys.path.insert(0, os.path.join(REPO, "tests", "vm"))
from electest import topo  # noqa: E402
from electest.scenario import Scenario, call, in_netns, run, sec  # noqa: E402
from electest import inject as injlib  # noqa: E402
import elec_lib  # noqa: E402  (elec.py's subcommands, in process)

s = Scenario()
inj = injlib.Injector(s)
if not inj.need():
    s.end()
# the injectors' timing: a guest stalled by 10^4 frames keeps its leader
s.timing = injlib.TIMING
IDS = [3, 17, 42]
s.up(*IDS, 66)
s.nodes = list(IDS)     # 66 only injects
CTL = s.ctl_path
# 66 sends with the nodes' own MACs (a true replay): the switch must not
# learn them on 66's port, or it would send the nodes' unicasts there
s.check_cmd("the switch learns no address on 66's port",
            "ip", "netns", "exec", "esw", "bridge", "link", "set", "dev",
            "p66", "learning", "off")
KEYS = s.tmpdir()
write_key = s.key_file


def key_path(name):
    return os.path.join(KEYS, name)


# K1: 16 raw bytes; K2: 32 hex digits and a newline
K1HEX = "5e11049ac3277b8001fe4299106d3ae5"
K2HEX = "c0ffee00112233445566778899aabbcc"
K3HEX = "0f0e0d0c0b0a09080706050403020100"
write_key("k1", bytes.fromhex(K1HEX))
write_key("k2", (K2HEX + "\n").encode())
write_key("k3", (K3HEX + "\n").encode())
K1, K2, K3 = key_path("k1"), key_path("k2"), key_path("k3")


def show(nid, g):
    """Node @nid's show object of group @g, {} if electionctl failed."""
    try:
        return s.show(nid, g)
    except (RuntimeError, ValueError, IndexError) as e:
        print("    %s" % e)
        return {}


def stats(nid, g):
    """Node @nid's stats object of group @g, {} if electionctl failed."""
    try:
        return s.stats(nid, g)
    except (RuntimeError, ValueError, IndexError) as e:
        print("    %s" % e)
        return {}


def stat(nid, g, fn):
    """@fn over node @nid's stats of group @g; None if it cannot."""
    try:
        return fn(stats(nid, g))
    except (KeyError, TypeError):
        return None


def auth_drops(nid, g):
    """auth_* drops of node @nid, group @g: missing, bad, truncated,
    replay, unexpected (None each if unreadable: gt() with it fails)."""
    dr = stats(nid, g).get("drops")
    keys = ("auth_missing", "auth_bad", "auth_truncated", "auth_replay",
            "auth_unexpected")
    if not isinstance(dr, dict):
        return [None] * len(keys)
    return [dr.get(k) for k in keys]


def gt(a, b):
    """@a > @b, false if either reading failed (None)."""
    return a is not None and b is not None and a > b


def ctl_or_fail(nid, desc, *args):
    """`elec_ctl ID ARGS || fail DESC`: a FAIL only if it fails."""
    r = s.ctl(nid, *args)
    if r.rc != 0:
        sys.stdout.write("".join("    %s\n" % line
                                 for line in r.text.splitlines()))
        s.fail(desc)
    return r.rc == 0


# group 1: bully, its key at creation; group 2: ring, its key set after
s.group_setup(1, algo="bully", opts=["key-file", K1])
s.group_setup(2, algo="ring", opts=[])
for nid in IDS:
    s.check("node %d: group set key-file (hex) on the ring group" % nid,
            s.ctl(nid, "group", "set", "dev", "eth0", "group", 2,
                  "key-file", K2))
for g in (1, 2):
    views = {nid: show(nid, g).get("auth") for nid in IDS}
    s.check("every node reports auth on for group %d" % g,
            all(v is True for v in views.values()),
            "" if all(v is True for v in views.values()) else views)

monitor_log = open(key_path("monitor.log"), "w")
mon = subprocess.Popen(["ip", "netns", "exec", "en3", CTL, "-ts",
                        "monitor"], stdout=monitor_log,
                       stderr=subprocess.STDOUT)
s.start_all(1)
s.start_all(2)
s.agree(1, 42, s.bound, 1)
s.agree(2, 42, s.bound, 1)

# the followers hear the leader; nobody drops anything for its key
for nid in IDS:
    for g in (1, 2):
        d = stats(nid, g)
        auth = sum(v for k, v in d.get("drops", {}).items()
                   if k.startswith("auth_"))
        heard = nid == 42 or sum(d.get("rx", {}).values()) > 0
        s.check("node %d group %d: no auth drops, frames heard (the "
                "leader: any)" % (nid, g), d and auth == 0 and heard,
                "" if d and auth == 0 and heard else
                "auth drops %d, heard %s" % (auth, heard))

# ---- the key appears nowhere ----------------------------------------------
TR = "/sys/kernel/tracing"
if not os.path.isdir(TR + "/events"):
    TR = "/sys/kernel/debug/tracing"


def trace_enable(v):
    with open(TR + "/events/election/enable", "w") as f:
        f.write(v)


trace_enable("1")
time.sleep(sec(0.5))
trace_enable("0")
mon.terminate()
mon.wait()
monitor_log.close()
parts = []
for nid in IDS:
    for args in (["show"], ["-j", "show"],
                 ["group", "show", "dev", "eth0", "group", 1],
                 ["-j", "stats"], ["showconf"]):
        r = s.ctl(nid, *args)
        parts.append((r.out + r.err).encode())
with open(key_path("monitor.log"), "rb") as f:
    parts.append(f.read())
parts.append(subprocess.run(["dmesg"], capture_output=True).stdout)
with open(TR + "/trace", "rb") as f:
    parts.append(f.read())
everything = b"".join(parts)
lines = everything.decode("latin-1").splitlines()
n_rx = sum(1 for line in lines if "election_rx" in line)
s.check("outputs gathered (%d lines, %d trace or event lines)" % (
    len(lines), sum(1 for line in lines if "election_" in line)), n_rx > 0)
for k in (K1HEX, K2HEX):
    spaced = " ".join(k[i:i + 2] for i in range(0, len(k), 2))
    found = [line for line in lines
             if k in line.lower() or spaced in line.lower()]
    s.check("key %s: in no output, trace or log" % k, not found,
            "\n".join(found) or "not found")
# the raw bytes of K1
n = sum(1 for line in everything.split(b"\n") if bytes.fromhex(K1HEX) in line)
s.check("K1's raw bytes: in no output", n == 0, str(n))
r = run(["ip", "netns", "exec", "en3", CTL, "showconf"])
conf = key_path("conf")
with open(conf, "w") as f:
    f.write(r.out)
s.check("showconf writes a placeholder and says so",
        r.rc == 0 and
        "key-file /etc/election/CHANGE-ME-eth0-1.key" in r.out and
        "key-file /etc/election/CHANGE-ME-eth0-2.key" in r.out and
        any(line.startswith("#") and "key" in line.lower()
            for line in r.out.splitlines()), r.err)
s.check_refused("the placeholder fails the batch's validation, before any "
                "line runs", "CHANGE-ME-eth0-1.key.*cannot open",
                run(["ip", "netns", "exec", "en3", CTL, "-batch", conf]))

# ---- restart: counters start from the clock -------------------------------


def snap_replay():
    """auth_replay drops at 3 and 42, summed; None if unreadable."""
    v = [stats(nid, 1).get("drops", {}).get("auth_replay") for nid in (3, 42)]
    return None if None in v else sum(v)


def readd_17():
    # as the bash scenario did: electionctl itself, no ELEC_DETECTOR
    def c(*args):
        r = run([CTL, "-n", "en17"] + [str(a) for a in args])
        if r.text:
            sys.stdout.write("".join("    %s\n" % line
                                     for line in r.text.splitlines()))
        return r.rc == 0
    return (c("group", "del", "dev", "eth0", "group", 1) and
            c("group", "add", "dev", "eth0", "group", 1, "id", 17, "algo",
              "bully", "key-file", K1, *s.timing.split()) and
            all(c("peer", "add", "dev", "eth0", "group", 1, "id", p,
                  "lladdr", topo.mac(p)) for p in (3, 42)) and
            c("group", "start", "dev", "eth0", "group", 1))


before = snap_replay()
s.check("node 17 deletes group 1 and adds it again with the same key",
        readd_17())
s.agree(1, 42, s.bound, 1)
s.check("its frames after the restart are fresh: no auth_replay at 3 and "
        "42 (before %s)" % before,
        before is not None and snap_replay() == before)
# 17 asks the better ids (an election): 42 takes its ELECTION
el42 = stat(42, 1, lambda d: d["rx"]["election"])
s.check("node 17: group elect",
        s.ctl(17, "group", "elect", "dev", "eth0", "group", 1))
s.agree(1, 42, s.bound, 0)
s.check("node 42 took 17's ELECTION (%s before)" % el42,
        el42 is not None and
        (stat(42, 1, lambda d: d["rx"]["election"]) or 0) > el42)
s.check("... with no auth_replay at 3 and 42",
        before is not None and snap_replay() == before)

# ---- frames injected from 66, a host on the segment that is no node ------
GROUPS_SPEC = "1:bully:key=%s,2:ring:key=%s" % (K1, K2)
NODES_SPEC = injlib.Injector.nodes_spec(IDS)
CAP = inj.path("capture.pcap")


def inject(*args):
    return inj.run(66, *args, "nodes", NODES_SPEC, "groups", GROUPS_SPEC)


def term_of(nid, g):
    return show(nid, g).get("term")


s.log("--- capture: 42's switch port while 3 calls elections in both groups")
cap_log = open(inj.path("capture.log"), "w")
cap = subprocess.Popen(["ip", "netns", "exec", "esw", injlib.INJ,
                        "capture", "p42", CAP, "timeout", "300"],
                       stdout=cap_log, stderr=subprocess.STDOUT)
s.wait_for(5, lambda: os.path.exists(CAP) and os.path.getsize(CAP) > 0)
time.sleep(sec(0.5))
s.check("group elect on 3 (group 1)",
        s.ctl(3, "group", "elect", "dev", "eth0", "group", 1))
s.check("group elect on 3 (group 2)",
        s.ctl(3, "group", "elect", "dev", "eth0", "group", 2))
s.agree(1, 42, s.bound, 1)
s.agree(2, 42, s.bound, 1)
cap.send_signal(signal.SIGTERM)
cap.wait()
cap_log.close()
with open(inj.path("capture.log")) as f:
    sys.stdout.write("".join("    %s\n" % line
                             for line in f.read().splitlines()))
r = run([injlib.INJ, "-j", "list", CAP])
try:
    n = sum(1 for f in json.loads(r.out)
            if f["decodes"] and f.get("flags", 0) & 2)
except (ValueError, KeyError, TypeError):
    n = 0
s.check("captured authenticated frames (%d)" % n, n > 0)
T1 = term_of(42, 1)
T2 = term_of(42, 2)

# a true replay: the senders' own MACs and MACs, old counters. Every
# captured frame is older than auth-window (2 s) when it is played back:
# refused against the nodes' clocks (auth_clock), which the model
# predicts from its own (the frames near the window's edge would be a
# guess either way, so there are none)
time.sleep(2.5)


def do_replay():
    ok = inject("replay", "eth0", CAP)
    clock = inj.expect_total("auth_clock") if ok else 0
    s.check("replay: frames the checks before the counter pass (%d), all to "
            "be auth_clock" % clock, clock > 0)
    s.check("replay: none predicted accepted",
            ok and inj.expect_total("accepted") == 0)


inj.checked("replay", do_replay)


def ahead():
    """elec-inject's counter for keyed frames forged in 42's name: half a
    second ahead of the clock (inside auth-window). With "now", a frame
    of 42's own sent while the forgery runs could take a higher frame
    number in the same clock tick, and the forged frames after it would
    be auth_replay drops where the model, which does not track what a
    node accepted, predicts auth_bad (the "apart" section's rare flake);
    ahead of every counter 42 sends meanwhile, they reach the MAC check,
    and fail it (nothing is recorded)."""
    return ("counter", time.time_ns() + 500000000)


# COORDINATOR claims from a higher id with newer terms: no key (a random
# MAC, no trailer), from 66's MAC and from 42's
def do_forge():
    mac42 = topo.mac(42)
    for g, algo, m in ((1, "bully", T1), (2, "ring", T2)):
        base = ("forge", "eth0", "coord", "group", g, "algo", algo)
        inject(*base, "id", 5000, "term", m + 1, "count", 20, "term-step", 1,
               "mac", "random")
        inject(*base, "id", 42, "term", m + 1, "count", 20, "term-step", 1,
               "mac", "random", "src-mac", mac42, *ahead())
        inject(*base, "id", 42, "term", m + 5, "count", 20, "mac", "none",
               "src-mac", mac42)
        inject(*base, "id", 42, "term", m + 5, "count", 10, "mac", "zero",
               "src-mac", mac42, *ahead())


inj.checked("forge", do_forge)


# keys stay apart: MACed with the Bully group's key, a ring frame fails
# its MAC; with the ring group's key it passes (then: no such peer)
def do_apart():
    mac42 = topo.mac(42)
    inject("forge", "eth0", "coord", "group", 2, "algo", "ring", "id", 42,
           "term", T2 + 1, "count", 20, "key-file", K1, "mac", "good",
           "src-mac", mac42, *ahead())
    s.check("K1 on the ring group: auth_bad predicted",
            inj.expect_total("auth_bad") > 0)
    inject("forge", "eth0", "coord", "group", 1, "algo", "bully", "id", 42,
           "term", T1 + 1, "count", 20, "key-file", K2, "mac", "good",
           "src-mac", mac42, *ahead())
    inject("forge", "eth0", "coord", "group", 2, "algo", "ring", "id", 5000,
           "term", T2 + 1, "count", 20, "key-file", K2, "mac", "good")
    s.check("K2 on the ring group from id 5000: the MAC passes, "
            "unknown_peer predicted", inj.expect_total("unknown_peer") > 0)


inj.checked("apart", do_apart)
inj.checked("flip", lambda: inject("flip", "eth0", CAP, "count", 500, "seed",
                                   1))

s.agree(1, 42, s.bound, 1)
s.agree(2, 42, s.bound, 1)
for nid in IDS:
    got = (term_of(nid, 1), term_of(nid, 2))
    s.check("node %d: group 1 term %s, group 2 term %s, as after the "
            "capture" % (nid, T1, T2), got == (T1, T2), "" if got == (
                T1, T2) else "terms %s %s" % got)
inj.klog_clean("after the injections")

# ---- a recording played to receivers that start fresh (issue 33, 1) -------
# The leader 42 goes; 3 and 17 are deleted and added again (new
# instances: no counter remembered, learning, term 0) and started while
# 42's recorded frames (older than auth-window) are played to them. They
# refuse every one (auth_clock), never follow 42, and elect 17. (Before,
# a learning node took the recording's term and its counters, above none
# remembered, and followed the dead leader for as long as it lasted.)
s.log("--- fresh receivers, a recording of the dead leader")
for nid in (42, 3, 17):
    ctl_or_fail(nid, "node %d: group del 1" % nid,
                "group", "del", "dev", "eth0", "group", 1)
s.group_setup(1, [3, 17], algo="bully", opts=["key-file", K1])
mons = []
for nid in (3, 17):
    out = open(key_path("fresh-%d.jsonl" % nid), "w")
    mons.append((subprocess.Popen(
        ["ip", "netns", "exec", topo.ns(nid), CTL, "-j", "monitor", "dev",
         "eth0", "group", "1"], stdout=out, stderr=subprocess.STDOUT), out))
time.sleep(sec(0.3))
for nid in (3, 17):
    ctl_or_fail(nid, "node %d: group start 1" % nid,
                "group", "start", "dev", "eth0", "group", 1)
inj.run(66, "replay", "eth0", CAP, show=False)
inj.reports = []
s.agree(1, 17, s.bound, 1, ids=[3, 17])
for p, out in mons:
    p.terminate()
    p.wait()
    out.close()
for nid in (3, 17):
    clock = stat(nid, 1, lambda d: d["drops"]["auth_clock"]) or 0
    s.check("node %d (fresh) refused the recording as auth_clock (%d)" % (
        nid, clock), clock > 0)
    with open(key_path("fresh-%d.jsonl" % nid)) as f:
        ev = [json.loads(line) for line in f if line.startswith("{")]
    to42 = [e for e in ev if e.get("leader") == 42]
    changed = any(e.get("event") == "leader_changed" for e in ev)
    s.check("node %d never named the dead 42 its leader (its events)" % nid,
            changed and not to42,
            "" if changed and not to42 else
            "no leader_changed" if not changed else to42)
if not s.group_setup(1, [42], algo="bully", opts=["key-file", K1]):
    s.fail("node 42: group add 1 again")
ctl_or_fail(42, "node 42: group start 1",
            "group", "start", "dev", "eth0", "group", 1)
s.agree(1, 42, s.bound, 1)

# ---- another key on one node ------------------------------------------------
bad3 = auth_drops(3, 1)[1]
s.check("node 42 takes another key",
        s.ctl(42, "group", "set", "dev", "eth0", "group", 1, "key-file", K3))
# 3 and 17 no longer hear 42: 17 takes over; 42 hears nobody and leads alone
s.agree(1, 17, s.bound, 1, ids=[3, 17])
d = show(42, 1)
s.check("node 42 leads alone",
        (d.get("role"), d.get("leader")) == ("leader", 42),
        "role %s leader %s" % (d.get("role"), d.get("leader")))
bad3b = auth_drops(3, 1)[1]
bad42 = auth_drops(42, 1)[1]
s.check("node 3 counts 42's frames as auth_bad (%s -> %s)" % (bad3, bad3b),
        gt(bad3b, bad3))
s.check("node 42 counts the others' frames as auth_bad (%s)" % bad42,
        gt(bad42, 0))
# the ring group, with its own key, is untouched: 42 leads it
s.agree(2, 42, s.bound, 0)
s.check("node 42 takes the group's key again",
        s.ctl(42, "group", "set", "dev", "eth0", "group", 1, "key-file", K1))
s.agree(1, 42, s.bound, 1)

# ---- key none -----------------------------------------------------------------
miss3 = auth_drops(3, 1)[0]
s.check("node 42: key none",
        s.ctl(42, "group", "set", "dev", "eth0", "group", 1, "key", "none"))
# 42 beacons without a trailer at once; 3 and 17 send to 42 only when its
# beacons (dropped) stop counting, after hb-miss intervals: poll, no fixed
# sleep
deadline = time.monotonic() + s.bound
while True:
    miss3b = auth_drops(3, 1)[0]
    unexp42 = auth_drops(42, 1)[4]
    if gt(miss3b, miss3) and gt(unexp42, 0) or time.monotonic() >= deadline:
        break
    time.sleep(0.2)
s.check("node 3 counts 42's unauthenticated frames as auth_missing "
        "(%s -> %s)" % (miss3, miss3b), gt(miss3b, miss3))
s.check("node 42 counts the others' trailers as auth_unexpected (%s)" %
        unexp42, gt(unexp42, 0))
s.check("node 42 reports auth off", show(42, 1).get("auth") is False)
for nid in (3, 17):
    s.check("node %d: key none" % nid,
            s.ctl(nid, "group", "set", "dev", "eth0", "group", 1, "key",
                  "none"))
s.agree(1, 42, s.bound, 1)

# ---- refusals change nothing ----------------------------------------------------
NOCAP = ["ip", "netns", "exec", "en3", "setpriv", "--inh-caps=-net_admin",
         "--bounding-set=-net_admin", CTL]
r = run(NOCAP + ["group", "set", "dev", "eth0", "group", 2, "key", "none"])
s.check_refused("without CAP_NET_ADMIN: key none is refused with the "
                "kernel's message", "CAP_NET_ADMIN", r)
s.check("... and exit status 2", r.rc == 2)
s.check_refused("without CAP_NET_ADMIN: key-file is refused", "CAP_NET_ADMIN",
                run(NOCAP + ["group", "set", "dev", "eth0", "group", 2,
                             "key-file", K1]))
s.check("the ring group still has its key", show(3, 2).get("auth") is True)


def nl_in(nid, cmd, *attrs):
    """`elec.py nl CMD ATTRS` in node @nid's namespace (the ifindex=eth0
    attribute filled in there), in process."""
    ifx = in_netns(topo.ns(nid), lambda: socket.if_nametoindex("eth0"))
    return call(elec_lib.main, ["nl", cmd, "ifindex=%d" % ifx, *attrs],
                netns=topo.ns(nid))


s.check_refused("a 15-byte key (raw netlink) is refused", "error=34 msg=[^ ]",
                nl_in(3, "group_set", "group=2", "key=" + K2HEX[:30]))
s.check_refused("a 17-byte key (raw netlink) is refused", "error=34 msg=[^ ]",
                nl_in(3, "group_set", "group=2", "key=" + K2HEX + "00"))
s.check_refused("a key and key none together (raw netlink) are refused",
                "key-none together",
                nl_in(3, "group_set", "group=2", "key=" + K2HEX,
                      "key_none=1"))
s.check_refused("an all-zero key (raw netlink) is refused",
                "all-zero key is refused",
                nl_in(3, "group_set", "group=2", "key=" + "0" * 32))
write_key("zero", bytes(16))
s.check_refused("an all-zero key (electionctl --unchecked) is refused by "
                "the kernel", "all-zero key is refused",
                run(["ip", "netns", "exec", "en3", CTL, "--unchecked", "group",
                     "set", "dev", "eth0", "group", 2, "key-file",
                     key_path("zero")]))
s.check("the ring group still has its key", show(3, 2).get("auth") is True)
s.agree(2, 42, s.bound, 1)

for nid in IDS:
    ctl_or_fail(nid, "node %d: group del 1" % nid,
                "group", "del", "dev", "eth0", "group", 1)
s.finish(2)
