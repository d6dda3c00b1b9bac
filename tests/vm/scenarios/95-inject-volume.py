#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Volume: 10^6 random and mutated frames (argument 1: another count;
argument 2: the seed, default 1) while a group of every algorithm runs
on one link.

Three nodes (3 17 42) hold ten groups: bully, ring, ring-all, ring-list,
min-bully, enh-bully, invitation (groups 1..7), bully with quorum on (8),
a stopped bully group (9) and a bully group with a key (10: frames with
the AUTH flag and a wrong MAC are auth_bad there, signed ones with its
key pass the MAC and stop at the source checks). A fourth host (66, no
node of any group) sends with elec-inject from its own MAC, broadcast, in
three phases (half the frames "mixed": every category of
tests/inject/README, a quarter "mutate": valid frames of every algorithm
and type with 1..4 random mutations, a quarter "random" bytes): valid
headers with bad payloads, payload lengths short, long and beyond the
frame, every type, every algorithm, bad versions and flags, truncated
frames, frames with the AUTH flag and whole, cut or rightly signed
trailers, frames for absent and stopped groups, other algorithms, other
ids, and well-formed frames from the nodes' own ids (dropped as
wrong_lladdr: the MAC is no peer's). After each phase, for every node and
drop reason, the change of the counters (a device-level drop taken once:
every instance reports it) equals elec-inject's prediction, whose model
follows Documentation/protocol.rst; their sum equals the frames received:
drops counted to the frame; no frame lost before the module (softnet
backlog); every group keeps its leader and term, with no election and no
leader change; no Oops, BUG or WARNING (each phase's check compares its
snapshots, so the groups are undisturbed from the first snapshot to the
last). The rate is printed and appended to $RESULTS_DIR/inject-volume.json.
The helpers are electest.inject's."""

import datetime
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.environ.get("ELECTION_REPO", "."),
                                "tests", "lib"))
from electest import inject  # noqa: E402
from electest.scenario import SCALE, Scenario  # noqa: E402


def usage():
    print("usage: %s [COUNT [SEED]]" % sys.argv[0])
    sys.exit(2)


# the debug kernel (KASAN, lockdep: ELEC_TIMER_SCALE > 1) takes about 350
# frames/s instead of 25,000 (10^5 frames: 15 minutes): 3 x 10^4 there
COUNT = sys.argv[1] if len(sys.argv) > 1 else \
    "1000000" if SCALE == 1 else "30000"
SEED = sys.argv[2] if len(sys.argv) > 2 else "1"
if not COUNT.isdigit() or int(COUNT) == 0 or not SEED.isdigit():
    usage()
COUNT, SEED = int(COUNT), int(SEED)

s = Scenario()
s.timing = inject.TIMING
inj = inject.Injector(s)
if not (inj.need() and s.load() and s.topo(3, 17, 42, 66)):
    s.end()
s.nodes = [3, 17, 42]  # 66 only sends
ALGO_OF = {1: "bully", 2: "ring", 3: "ring-all", 4: "ring-list",
           5: "min-bully", 6: "enh-bully", 7: "invitation", 8: "bully",
           9: "bully", 10: "bully"}
ALL_GROUPS = list(range(1, 11))
RUNNING = [1, 2, 3, 4, 5, 6, 7, 8, 10]
TMP = tempfile.mkdtemp()
KEYF = os.path.join(TMP, "group10.key")
with open(os.open(KEYF, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
    f.write(os.urandom(16).hex())
setup, groups_spec, settle = [], [], []
for g in ALL_GROUPS:
    opts = {8: "quorum+on", 10: "key-file+" + KEYF}.get(g, "")
    setup.append("%d:%s:%s" % (g, ALGO_OF[g], opts))
    spec = "%d:%s" % (g, ALGO_OF[g])
    spec += {9: ":stopped", 10: ":key=" + KEYF}.get(g, "")
    groups_spec.append(spec)
    # min-bully: the lowest id leads; the others the highest
    if g != 9:
        settle.append("%d:%d" % (g, 3 if g == 5 else 42))
GROUPS_SPEC = ",".join(groups_spec)
if not (inj.batch_setup(TMP, *setup) and inj.batch_start(*RUNNING) and
        inj.settle(",".join(settle))):
    s.end()
NODES_SPEC = inj.nodes_spec([3, 17, 42])
inj.monitor_start(TMP)


def now():
    return datetime.datetime.now().strftime("%H:%M:%S.%f")[:12]


def phase(mode, n, seed):
    s.log("--- %d frames, mode %s, seed %d" % (n, mode, seed))
    mark = inj.monitor_mark()
    if not inj.snap("before-" + mode):
        return False
    d0 = inject.softnet_dropped()
    print("    sending from %s" % now())
    r = inj.run(66, "fuzz", "eth0", "count", n, "seed", seed, "mode", mode,
                "nodes", NODES_SPEC, "groups", GROUPS_SPEC)
    if r is None:
        return False
    print("    sent at %s" % now())
    d1 = inject.softnet_dropped()
    if not inj.snap("after-" + mode):
        return False
    inj.monitor_since(mark)
    s.check("%s: no frame dropped before the module (softnet backlog: %d)"
            % (mode, d1 - d0), d1 == d0)
    inj.check(mode, "before-" + mode, "after-" + mode)
    with open(os.path.join(os.environ.get("RESULTS_DIR") or "/tmp",
                           "inject-volume.json"), "a") as f:
        f.write(json.dumps({"kernel": os.uname().release,
                            "mode": r["command"] + " " + mode,
                            "frames": r["sent"], "nodes": 3, "groups": 10,
                            "seconds": r["seconds"], "rate": r["rate"]})
                + "\n")
    s.log("%s: %d frames in %s s" % (mode, n, r["seconds"]))
    return True


t0 = time.monotonic()
phase("mixed", COUNT - 2 * (COUNT // 4), SEED)
phase("mutate", COUNT // 4, SEED + 1)
phase("random", COUNT // 4, SEED + 2)
s.log("%d frames in %.1f s, snapshots included" % (COUNT,
                                                   time.monotonic() - t0))

inj.monitor_stop()
inj.klog_clean("after %d frames" % COUNT)


def del_all(nid):
    """Node @nid's groups deleted in order."""
    return all([s.ctl(nid, "group", "del", "dev", "eth0", "group", g).rc == 0
                for g in ALL_GROUPS])


# the nodes in parallel
s.check("every group deleted on %s" % " ".join(map(str, s.nodes)),
        all(s._parallel(del_all, s.nodes)))
s.leak_check()
s.check_cmd("rmmod election", "rmmod", "election")
shutil.rmtree(TMP, ignore_errors=True)
s.end()
