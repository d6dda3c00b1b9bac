#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host-side test of dist/election.lua: frames of every algorithm and type,
built here byte by byte after uapi/linux/election.h, written to a pcap and
read back with tshark; each must decode to the fields it was built with,
and the broken ones (as the kernel's decoder would count them malformed)
must carry the dissector's expert error, the valid ones none.

Usage: dissector-test.py [--tshark PATH]; prints "N passed, N failed"."""

import argparse
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LUA = os.path.join(HERE, "..", "..", "dist", "election.lua")
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from electest.frames import ALGOS, TYPES, ether, header  # noqa: E402
PASSED = FAILED = 0


def check(name, ok, detail=""):
    global PASSED, FAILED
    if ok:
        PASSED += 1
        print(f"ok - {name}")
    else:
        FAILED += 1
        print(f"FAIL - {name}" + (f": {detail}" if detail else ""))


def u32s(*ids):
    return b"".join(struct.pack("!I", i) for i in ids)


def frame(typ, algo, payload=b"", group=1, src=2, dst=0, term=7, flags=0,
          version=1, plen=None, pad=True, trailer=b""):
    hdr = header(TYPES.get(typ, typ) if isinstance(typ, str) else typ,
                 ALGOS[algo], group, src, dst, term, flags,
                 len(payload) if plen is None else plen, version)
    return ether(b"\xff" * 6, b"\x02\xe1\x00\x00\x00\x02",
                 hdr + payload + trailer, pad=pad)


# (name, frame, valid, fields expected: {field: value as tshark prints it})
CASES = [
    ("bully election", frame("election", "bully", dst=5), True,
     {"election.type": "1", "election.algo": "1", "election.dst": "5",
      "election.src": "2", "election.term": "7", "election.group": "1"}),
    ("bully answer", frame("answer", "bully", dst=1), True, {}),
    ("bully coordinator", frame("coordinator", "bully", dst=1), True, {}),
    ("bully heartbeat leaving", frame("heartbeat", "bully", flags=1), True,
     {"election.flags.leaving": "1"}),
    ("authenticated heartbeat", frame("heartbeat", "bully", flags=2,
                                      trailer=struct.pack("!Q", 1234) +
                                      bytes(range(8))), True,
     {"election.flags.auth": "1", "election.auth.counter": "1234",
      "election.auth.mac": "0001020304050607"}),
    ("authenticated leaving heartbeat",
     frame("heartbeat", "bully", flags=3,
           trailer=struct.pack("!Q", 5) + bytes(8)), True,
     {"election.flags.leaving": "1", "election.flags.auth": "1"}),
    ("authenticated ring election",
     frame("election", "ring", u32s(3, 42), dst=3, flags=2,
           trailer=struct.pack("!Q", 9) + bytes(8)), True,
     {"election.ring.id": "42", "election.auth.counter": "9"}),
    ("bully alive", frame("alive", "bully", u32s(9) + struct.pack("!Q", 12)),
     True, {"election.alive.leader": "9", "election.alive.term": "12"}),
    ("bully alive naming nobody", frame("alive", "bully", bytes(12)), True,
     {"election.alive.leader": "0"}),
    ("ring election", frame("election", "ring", u32s(3, 42), dst=3), True,
     {"election.hop": "3", "election.ring.id": "42"}),
    ("ring coordinator", frame("coordinator", "ring", u32s(4, 42)), True,
     {"election.ring.id": "42"}),
    ("ring ack", frame("ack", "ring", u32s(3), dst=1), True,
     {"election.hop": "3"}),
    ("ring-all election", frame("election", "ring-all", u32s(1, 5)), True,
     {"election.ring.id": "5"}),
    ("ring-all coordinator", frame("coordinator", "ring-all", u32s(2, 9, 4)),
     True, {"election.ring.leader": "9", "election.ring.origin": "4"}),
    ("ring-list election", frame("election", "ring-list",
                                 u32s(1) + struct.pack("!HH", 3, 0) +
                                 u32s(4, 1, 7)), True,
     {"election.count": "3", "election.id": "4,1,7"}),
    ("min-bully coordinator", frame("coordinator", "min-bully", u32s(1)),
     True, {"election.coordinator": "1"}),
    ("min-bully query", frame("query", "min-bully"), True, {}),
    ("min-bully cid", frame("cid", "min-bully", dst=3), True, {}),
    ("enh-bully election", frame("election", "enh-bully", u32s(8), dst=6),
     True, {"election.suspect": "8"}),
    ("enh-bully coordinator", frame("coordinator", "enh-bully",
                                    u32s(6) + struct.pack("!HH", 2, 0) +
                                    u32s(5, 6)), True,
     {"election.coordinator": "6", "election.count": "2",
      "election.id": "5,6"}),
    ("enh-bully cid", frame("cid", "enh-bully", u32s(6) +
                            struct.pack("!HH", 1, 0) + u32s(6), dst=2), True,
     {"election.coordinator": "6"}),
    ("invitation ayc", frame("ayc", "invitation"), True, {}),
    ("invitation ayc_reply", frame("ayc_reply", "invitation", u32s(8, 3),
                                   dst=8), True,
     {"election.coordinator": "8", "election.inv.version": "3"}),
    ("invitation invite", frame("invite", "invitation",
                                u32s(8) + struct.pack("!HH", 2, 0) +
                                u32s(3, 5)), True,
     {"election.coordinator": "8", "election.id": "3,5"}),
    ("invitation invite, accept window 8 T",
     frame("invite", "invitation", u32s(8) + struct.pack("!HBB", 1, 3, 0) +
           u32s(3)), True,
     {"election.coordinator": "8", "election.inv.accept_shift": "3",
      "election.id": "3"}),
    ("invitation accept", frame("accept", "invitation", dst=8), True, {}),
    ("invitation ready", frame("ready", "invitation",
                               struct.pack("!HH", 2, 0) + u32s(4, 1, 2)),
     True, {"election.count": "2", "election.inv.version": "4",
            "election.id": "1,2"}),
    ("invitation ready, alone", frame("ready", "invitation",
                                      struct.pack("!HHI", 0, 0, 1)), True,
     {"election.count": "0"}),
    ("invitation heartbeat", frame("heartbeat", "invitation"), True, {}),
    # what the kernel counts as malformed
    ("version 2", frame("heartbeat", "bully", version=2), False, {}),
    ("type 6 (retry) on the wire", frame(6, "ring", u32s(1)), False, {}),
    ("type 15", frame(15, "bully"), False, {}),
    ("leaving on an election", frame("election", "bully", flags=1), False, {}),
    ("flag 0x04", frame("heartbeat", "bully", flags=4), False, {}),
    ("auth trailer cut short", frame("heartbeat", "bully", flags=2,
                                     trailer=bytes(10), pad=False), False,
     {}),
    ("group 0", frame("heartbeat", "bully", group=0), False, {}),
    ("source 0", frame("heartbeat", "bully", src=0), False, {}),
    ("payload past the frame", frame("alive", "bully", bytes(4), plen=40),
     False, {}),
    ("bully election with a payload", frame("election", "bully", bytes(4)),
     False, {}),
    ("alive of 8 bytes", frame("alive", "bully", bytes(8)), False, {}),
    ("alive with a leader and term 0", frame("alive", "bully",
                                             u32s(3) + bytes(8)), False, {}),
    ("ring election without a body", frame("election", "ring", u32s(1)),
     False, {}),
    ("ring ack on a bully group", frame("ack", "bully", u32s(1)), False, {}),
    ("ring-list count 0", frame("election", "ring-list",
                                u32s(1) + struct.pack("!HH", 0, 0) + u32s(1)),
     False, {}),
    ("ring-list reserved set", frame("election", "ring-list",
                                     u32s(1) + struct.pack("!HH", 1, 1) +
                                     u32s(1)), False, {}),
    ("enh-bully candidates out of order",
     frame("coordinator", "enh-bully", u32s(6) + struct.pack("!HH", 2, 0) +
           u32s(6, 5)), False, {}),
    ("invite with an accept window shift of 6",
     frame("invite", "invitation", u32s(8) + struct.pack("!HBB", 1, 6, 0) +
           u32s(3)), False, {}),
    ("invite with its reserved byte set",
     frame("invite", "invitation", u32s(8) + struct.pack("!HBB", 1, 0, 1) +
           u32s(3)), False, {}),
    ("invite with a zero coordinator",
     frame("invite", "invitation", u32s(0) + struct.pack("!HH", 1, 0) +
           u32s(3)), False, {}),
    ("truncated header", frame("heartbeat", "bully", pad=False)[:14 + 10],
     False, {}),
]


def write_pcap(path, frames):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(frames):
            f.write(struct.pack("<IIII", 1000 + i, 0, len(fr), len(fr)))
            f.write(fr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tshark", default="tshark")
    a = ap.parse_args()
    fields = sorted({k for _, _, _, fl in CASES for k in fl} |
                    {"election.type"})
    with tempfile.TemporaryDirectory() as d:
        pcap = os.path.join(d, "cases.pcap")
        write_pcap(pcap, [c[1] for c in CASES])
        cmd = [a.tshark, "-n", "-X", "lua_script:" + LUA, "-r", pcap,
               "-T", "fields", "-E", "separator=/t", "-E", "aggregator=,",
               "-e", "frame.number", "-e", "_ws.expert.group",
               "-e", "_ws.expert.severity", "-e", "_ws.malformed",
               "-e", "election.payload_len"] + \
            [x for k in fields for x in ("-e", k)]
        p = subprocess.run(cmd, capture_output=True, text=True)
        check("tshark reads the capture with the dissector",
              p.returncode == 0 and "Lua" not in p.stderr,
              p.stderr[-600:])
        rows = {}
        for line in p.stdout.splitlines():
            cols = line.split("\t")
            rows[int(cols[0])] = cols
        check(f"every frame decoded ({len(CASES)})", len(rows) == len(CASES),
              f"{len(rows)} rows")
        for i, (name, _, valid, want) in enumerate(CASES, 1):
            cols = rows.get(i)
            if not cols:
                check(f"{name}: decoded", False)
                continue
            groups = cols[1].split(",") if cols[1] else []
            malformed = "Malformed" in groups or bool(cols[3]) or \
                any(g.lower().startswith("malformed") for g in groups)
            got = dict(zip(fields, cols[5:]))
            if valid:
                check(f"{name}: no malformed mark", not malformed,
                      f"expert {cols[1]}/{cols[2]}")
                bad = {k: (got.get(k), v) for k, v in want.items()
                       if got.get(k) != v}
                check(f"{name}: fields {sorted(want)}", not bad, str(bad))
            else:
                check(f"{name}: marked malformed", malformed,
                      f"expert {cols[1]!r}")
    print(f"{PASSED} passed, {FAILED} failed")
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
