#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of elec-inject that need neither root nor a kernel module.

- elec-inject selftest (SipHash-2-4 against the reference vectors, the
  generators against the tool's own wire-format model);
- its command line: every bad argument exits 1 with an "elec-inject: ..."
  message and prints nothing on stdout;
- the frames it writes to pcap:FILE: deterministic for a seed, counts and
  predictions consistent (every frame one outcome at every node), and the
  forged trailers' MACs equal a second SipHash-2-4 written here in Python;
- the differential check: for every frame of several fuzz runs, the
  tool's model (elec-inject list -j: "decodes") and the core's codec
  (codec-check, module/core/codec.c as module/rx.c calls it) agree.

Ends with "N passed, M failed"; exits 1 when anything failed.
"""

import argparse
import json
import os
import struct
import time
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "lib"))
from electest.frames import (  # noqa: E402
    FLAG_AUTH, auth_mac, read_pcap, siphash24, trailer, unpack, write_pcap)

PASSED = 0
FAILED = 0
BIN = None
CODEC = None
TMP = None

GROUPS = ["groups", "1:bully,2:ring,3:ring-all,4:ring-list,5:min-bully,"
          "6:enh-bully,7:invitation,9:bully:stopped"]
NODES = ["nodes", "3@02:e1:00:00:00:03,17@02:e1:00:00:00:11,"
         "42@02:e1:00:00:00:2a"]


def check(name, ok, detail=""):
    global PASSED, FAILED
    if ok:
        PASSED += 1
        print("ok - " + name)
    else:
        FAILED += 1
        print("FAIL - " + name + (": " + detail if detail else ""))


def run(args, **kw):
    return subprocess.run([BIN] + args, capture_output=True, text=True,
                          timeout=300, **kw)


def tmp(name):
    return os.path.join(TMP, name)


# --------------------------------------------------------------- tests ---

def test_selftest():
    p = run(["selftest"])
    check("selftest exits 0", p.returncode == 0, p.stdout + p.stderr)
    check("selftest: 0 failed", " 0 failed" in p.stdout, p.stdout[-300:])
    check("Python SipHash-2-4: the paper's example",
          siphash24(bytes(range(16)), bytes(range(15))) == 0xa129ca6149be45e5)


def test_bad_args():
    x = "pcap:" + tmp("x.pcap")
    good_key = tmp("key.hex")
    bad_key = tmp("key.bad")
    with open(good_key, "w") as f:
        f.write("000102030405060708090a0b0c0d0e0f\n")
    with open(bad_key, "w") as f:
        f.write("not a key\n")
    notpcap = tmp("not.pcap")
    with open(notpcap, "w") as f:
        f.write("hello, this is not a capture file\n")
    cases = [
        [],
        ["bogus"],
        ["-x", "selftest"],
        ["selftest", "extra"],
        ["fuzz"],
        ["fuzz", x],
        ["fuzz", x, "count", "0"],
        ["fuzz", x, "count", "-1"],
        ["fuzz", x, "count", "1x"],
        ["fuzz", x, "count", "99999999999999999999999"],
        ["fuzz", x, "count", "1", "seed"],
        ["fuzz", x, "count", "1", "count", "2"],
        ["fuzz", x, "count", "1", "algo", "foo"],
        ["fuzz", x, "count", "1", "algo", "9"],
        ["fuzz", x, "count", "1", "mode", "weird"],
        ["fuzz", x, "count", "1", "group", "0"],
        ["fuzz", x, "count", "1", "group", "70000"],
        ["fuzz", x, "count", "1", "group", "1:bully"],
        ["fuzz", x, "count", "1", "group", "1", "group", "1"],
        ["fuzz", x, "count", "1", "groups", "1"],
        ["fuzz", x, "count", "1", "groups", "1:foo"],
        ["fuzz", x, "count", "1", "groups", "1:bully:paused"],
        ["fuzz", x, "count", "1", "groups", "1:bully,1:ring"],
        ["fuzz", x, "count", "1", "groups", "1:bully", "group", "1"],
        ["fuzz", x, "count", "1", "groups", "1:8"],
        ["fuzz", x, "count", "1", "groups", ","],
        ["fuzz", x, "count", "1", "groups", "1:bully", "nodes", "1,1"],
        ["fuzz", x, "count", "1", "groups", "1:bully", "nodes", "0"],
        ["fuzz", x, "count", "1", "groups", "1:bully", "nodes", "1@zz"],
        ["fuzz", x, "count", "1", "nodes", "1,2"],
        ["fuzz", x, "count", "1", "groups", "1:bully"],
        ["fuzz", x, "count", "1", "groups", "1:bully", "nodes", "1",
         "absent-group", "1"],
        ["fuzz", x, "count", "1", "src-mac", "1:2:3"],
        ["fuzz", x, "count", "1", "src-mac", "keep"],
        ["fuzz", x, "count", "1", "dst-mac", "ff:ff:ff:ff:ff:fg"],
        ["fuzz", x, "count", "1", "batch", "0"],
        ["fuzz", x, "count", "1", "batch", "1000"],
        ["fuzz", x, "count", "1", "pace", "maybe"],
        ["fuzz", x, "count", "1", "rate", "x"],
        ["fuzz", x, "count", "1", "ethertype", "0x10"],
        ["fuzz", x, "count", "1", "frobnicate"],
        ["fuzz", "nosuchdev0", "count", "1"],
        ["fuzz", "pcap:", "count", "1"],
        ["forge", x, "group", "1", "id", "2"],
        ["forge", x, "group", "1", "term", "2"],
        ["forge", x, "group", "1", "id", "2", "term", "3", "mac", "good"],
        ["forge", x, "group", "1", "id", "2", "term", "3", "mac", "maybe"],
        ["forge", x, "group", "1", "id", "2", "term", "3", "key-file",
         tmp("nokey")],
        ["forge", x, "group", "1", "id", "2", "term", "3", "key-file",
         bad_key],
        ["forge", x, "group", "1", "id", "2", "term", "3", "key-file",
         good_key, "mac", "none"],
        ["forge", x, "group", "1", "id", "2", "term", "3", "type", "nosuch"],
        ["forge", x, "group", "1", "id", "2", "term", "3", "payload", "0g"],
        ["forge", x, "group", "1", "id", "2", "term", "3", "payload", "abc"],
        ["forge", x, "group", "1", "id", "2", "term", "3", "trailer-cut",
         "3"],
        ["forge", x, "group", "1", "id", "2", "term", "3", "mac", "zero",
         "trailer-cut", "17"],
        ["forge", x, "group", "1", "id", "2", "term", "3", "id", "4"],
        ["forge", x, "group", "1", "id", "4294967296", "term", "3"],
        ["forge", x, "group", "1", "id", "2", "term", "18446744073709551616"],
        ["forge", x, "group", "1", "id", "2", "term", "3", "src-mac", "keep"],
        ["replay", x],
        ["replay", x, tmp("nonexistent.pcap")],
        ["replay", x, notpcap],
        ["flip", x, notpcap, "bits", "0"],
        ["capture"],
        ["capture", "lo"],
        ["capture", "lo", tmp("c.pcap")],
        ["capture", "nosuchdev0", tmp("c.pcap"), "count", "1"],
        ["capture", "lo", tmp("c.pcap"), "dir", "sideways", "count", "1"],
        ["list"],
        ["list", tmp("nonexistent.pcap")],
        ["list", notpcap],
    ]
    for args in cases:
        p = run(args)
        name = "refused: elec-inject " + " ".join(args).replace(TMP, "T")
        ok = p.returncode == 1 and p.stdout == "" and \
            ("elec-inject" in p.stderr or "usage" in p.stderr)
        check(name, ok, "exit %d, stdout %r, stderr %r" % (
            p.returncode, p.stdout[:200], p.stderr[:200]))


def fuzz_report(path, extra):
    p = run(["-j", "-q", "fuzz", "pcap:" + path] + extra)
    if p.returncode != 0:
        raise RuntimeError("fuzz failed: " + p.stderr)
    return json.loads(p.stdout)


def test_fuzz_counts():
    n = 20000
    a = tmp("a.pcap")
    rep = fuzz_report(a, ["count", str(n), "seed", "5"] + GROUPS + NODES)
    check("fuzz: sent = count", rep["sent"] == n, str(rep["sent"]))
    check("fuzz: categories add up to count",
          sum(rep["categories"].values()) == n)
    check("fuzz mixed: every category of a stopped group's setup is used",
          len(rep["categories"]) == 23, str(sorted(rep["categories"])))
    ok = True
    for nid, counts in rep["expect"]["nodes"].items():
        if sum(counts.values()) != n:
            ok = False
    check("fuzz: every node has one predicted outcome per frame", ok)
    exp = rep["expect"]["total"]
    check("fuzz: no frame is predicted accepted (sent from no peer's MAC)",
          exp["accepted"] == 0 and exp["not_received"] == 0, str(exp))
    for r in ("malformed", "wrong_group", "stopped", "wrong_algo",
              "wrong_dst", "unknown_peer", "wrong_lladdr"):
        check("fuzz: reason %s predicted" % r, exp[r] > 0, str(exp))
    frames = read_pcap(a)
    check("fuzz: the pcap holds count frames", len(frames) == n)
    check("fuzz: frames fit the MTU (<= 1514 bytes)",
          max(len(f) for f in frames) <= 1514)
    # the same seed, the same frames; another seed, others
    b = tmp("b.pcap")
    fuzz_report(b, ["count", str(n), "seed", "5"] + GROUPS + NODES)
    check("fuzz: the same seed gives the same frames", read_pcap(b) == frames)
    fuzz_report(b, ["count", str(n), "seed", "6"] + GROUPS + NODES)
    check("fuzz: another seed gives other frames", read_pcap(b) != frames)
    # list predicts frame by frame what fuzz summed
    p = run(["-j", "list", a] + GROUPS + NODES)
    per = json.loads(p.stdout)
    tot = {}
    for fr in per:
        for nid, r in fr["expect"].items():
            tot[r] = tot.get(r, 0) + 1
    check("list: the per-frame predictions add up to fuzz's",
          all(tot.get(k, 0) == v for k, v in exp.items()),
          "%s vs %s" % (tot, exp))
    # the source MAC is the generator's own (pcap: 02:00:00:00:00:01),
    # the destination broadcast
    check("fuzz: from its own MAC, to broadcast",
          all(f[6:12] == bytes.fromhex("020000000001") and
              f[0:6] == b"\xff" * 6 for f in frames))


def test_fuzz_keyed():
    key = bytes(range(100, 116))
    keyf = tmp("fuzzkey.hex")
    with open(keyf, "w") as f:
        f.write(key.hex())
    a = tmp("keyed.pcap")
    n = 20000
    rep = fuzz_report(a, ["count", str(n), "seed", "8", "groups",
                          "1:bully,2:ring,10:bully:key=" + keyf] + NODES)
    cats = rep["categories"]
    check("fuzz with a keyed group: auth-signed frames too",
          cats.get("auth-signed", 0) > 0 and len(cats) == 23, str(cats))
    exp = rep["expect"]["total"]
    # every frame comes from the generator's MAC, no node's: the cheap
    # checks (ids, addresses) refuse the keyed group's frames before their
    # counter and MAC are looked at (issue 33: the MAC comes last)
    check("fuzz with a keyed group: auth_truncated predicted, no auth_bad "
          "or auth_clock (refused before the counter and the MAC), nothing "
          "accepted", exp["auth_bad"] == 0 and exp["auth_clock"] == 0 and
          exp["auth_truncated"] > 0 and exp["accepted"] == 0, str(exp))
    signed = rep["expect"]["categories"]["auth-signed"]
    check("auth-signed frames pass the MAC (no auth_bad), then stop at the "
          "ids and the MAC", "auth_bad" not in signed and
          signed.get("wrong_lladdr", 0) > 0, str(signed))
    # the signed frames' MACs, checked here
    frames = read_pcap(a)
    good = bad = 0
    for fr in frames:
        body = fr[14:]
        h = unpack(body)
        t = h and h["flags"] & FLAG_AUTH and h["group"] == 10 and trailer(body)
        if not t:
            continue
        if t[1] == auth_mac(key, body[:t[2]]):
            good += 1
        else:
            bad += 1
    check("keyed group: %d frames with a right MAC (Python SipHash), %d with "
          "a wrong one" % (good, bad), good > 0 and bad > 0)


def test_drops_py():
    """drops.py check on made-up snapshots."""
    here = os.path.dirname(os.path.abspath(__file__))

    def inst(g, drops, elections=0, term=1, late20=0):
        buckets = [0] * 22
        buckets[20] = late20
        return ({"group": g, "role": "follower", "leader": 9, "term": term},
                {"group": g, "drops": dict(drops), "elections": elections,
                 "leader_changes": 0, "elections_limited": 0,
                 "timer_late": {"buckets": buckets}})

    def snap(path, per_node):
        out = {}
        for nid, insts in per_node.items():
            out[nid] = {"show": [i[0] for i in insts],
                        "stats": [i[1] for i in insts]}
        with open(path, "w") as f:
            json.dump(out, f)

    zero = {"malformed": 0, "wrong_group": 0, "wrong_lladdr": 0,
            "stale_term": 0}
    snap(tmp("b.json"), {"1": [inst(1, zero), inst(2, zero)]})
    with open(tmp("r.json"), "w") as f:
        json.dump({"sent": 5, "expect": {
            "total": {"malformed": 3, "wrong_lladdr": 2, "accepted": 0},
            "nodes": {"1": {"malformed": 3, "wrong_lladdr": 2,
                            "accepted": 0}}}}, f)

    def run_check(after):
        snap(tmp("a.json"), {"1": after})
        p = subprocess.run([sys.executable, os.path.join(here, "drops.py"),
                            "check", tmp("b.json"), tmp("a.json"),
                            tmp("r.json")], capture_output=True, text=True)
        return p.returncode, p.stdout

    d = dict(zero, malformed=3)
    rc, out = run_check([inst(1, dict(d, wrong_lladdr=2)), inst(2, d)])
    check("drops.py: a device-level drop counted once, reported by both "
          "instances: passes", rc == 0 and "FAIL" not in out, out)
    rc, out = run_check([inst(1, dict(d, wrong_lladdr=1)), inst(2, d)])
    check("drops.py: one drop missing: fails", rc == 1 and "differ" in out,
          out)
    rc, out = run_check([inst(1, dict(d, wrong_lladdr=2)),
                         inst(2, dict(d, malformed=2))])
    check("drops.py: instances disagreeing on a device-level drop: fails",
          rc == 1 and "differently" in out, out)
    rc, out = run_check([inst(1, dict(d, wrong_lladdr=2), elections=1),
                         inst(2, d)])
    check("drops.py: an election meanwhile: fails",
          rc == 1 and "elections +1" in out, out)
    rc, out = run_check([inst(1, dict(d, wrong_lladdr=2, stale_term=1),
                              elections=1, late20=3), inst(2, d)])
    check("drops.py: an election and a stale_term while the guest stalled: "
          "a NOTE, passes", rc == 0 and "NOTE" in out, out)


def differential(mode, seed, n):
    path = tmp("d-%s-%d.pcap" % (mode, seed))
    fuzz_report(path, ["count", str(n), "seed", str(seed), "mode", mode] +
                GROUPS + NODES)
    model = json.loads(run(["-j", "list", path]).stdout)
    p = subprocess.run([CODEC, path], capture_output=True, text=True,
                       timeout=300)
    core = [ln.split(None, 1)[1] for ln in p.stdout.splitlines()]
    bad = [i for i, (m, c) in enumerate(zip(model, core))
           if m["verdict"] != c.split(":")[0]]
    oks = sum(1 for c in core if c == "ok")
    cut = sum(1 for c in core if c == "auth_truncated")
    check("differential %s seed %d: the model and the core's codec agree on "
          "%d frames (%d decode, %d auth_truncated)" % (mode, seed, n, oks,
                                                         cut),
          p.returncode == 0 and len(core) == n == len(model) and not bad,
          "mismatches at %s" % bad[:10])
    for i in bad[:3]:
        print("    frame %d: model %s, core %s" % (
            i, model[i]["verdict"], core[i]))


def test_forge():
    key = bytes(range(16))
    keyf = tmp("key.bin")
    with open(keyf, "wb") as f:
        f.write(key)
    path = tmp("forge.pcap")
    p = run(["-j", "forge", "pcap:" + path, "coord", "group", "7", "id",
             "2001", "term", "99", "algo", "ring", "count", "3",
             "term-step", "2", "key-file", keyf, "counter", "10"])
    check("forge with a key file", p.returncode == 0, p.stderr)
    frames = read_pcap(path)
    ok = len(frames) == 3
    for i, fr in enumerate(frames):
        body = fr[14:]
        h = unpack(body)
        counter, mac, ctr_end = trailer(body)
        ok = ok and [h[k] for k in ("version", "type", "algo", "flags",
                                    "group", "src", "term")] + [counter] == \
            [1, 3, 2, 2, 7, 2001, 99 + 2 * i, 10 + i] and \
            mac == auth_mac(key, body[:ctr_end]) and \
            h["plen"] == 8 and body[24:32] == struct.pack("!II", 1, 2001)
    check("forge: header, counter and SipHash-2-4 MAC (checked in Python)",
          ok)
    # hex key file, mac zero, trailer cut
    hexf = tmp("key.hex")
    with open(hexf, "w") as f:
        f.write(key.hex() + "\n")
    p = run(["forge", "pcap:" + path, "group", "1", "id", "5", "term", "1",
             "key-file", hexf])
    fr2 = read_pcap(path)[0]
    check("forge: a key file of 32 hex digits is the same key",
          p.returncode == 0 and fr2[14 + 24 + 8:14 + 24 + 16] == auth_mac(
              key, fr2[14:14 + 32]))
    run(["forge", "pcap:" + path, "group", "1", "id", "5", "term", "1",
         "mac", "zero", "trailer-cut", "4", "count", "2", "counter", "1"])
    fr = read_pcap(path)
    check("forge: mac zero, trailer cut by 4 (12 trailer bytes, not padded)",
          len(fr) == 2 and fr[0][14 + 3] == 2 and
          fr[0][14 + 24:14 + 24 + 12] == bytes(7) + b"\x01" + bytes(4) and
          len(fr[0]) == 14 + 24 + 12)
    # the counter by default: each frame's the wall clock when it is made,
    # rising; with counter C, +1 per frame
    t0 = time.time_ns()
    run(["forge", "pcap:" + path, "group", "1", "id", "5", "term", "1",
         "mac", "zero", "count", "2000"])
    t1 = time.time_ns()
    fr = read_pcap(path)
    cs = [struct.unpack("!Q", f[14 + 24:14 + 32])[0] for f in fr]
    mask = (1 << 20) - 1
    check("forge: the counter defaults to a node's (counter now): the wall "
          "clock when each frame is made, its low 20 bits the frame "
          "number 1, 2, ..., rising",
          len(cs) == 2000 and (t0 & ~mask) <= cs[0] and
          (cs[-1] & ~mask) <= t1 + mask + 1 and
          all(b > a for a, b in zip(cs, cs[1:])) and
          [c & mask for c in cs] == list(range(1, 2001)),
          "%d %d %d %d" % (t0, cs[0], cs[-1], t1))
    run(["forge", "pcap:" + path, "group", "1", "id", "5", "term", "1",
         "mac", "zero", "count", "3", "counter", "7"])
    cs = [struct.unpack("!Q", f[14 + 24:14 + 32])[0]
          for f in read_pcap(path)]
    check("forge: counter C, +1 per frame", cs == [7, 8, 9], str(cs))
    # every algorithm's every type, payload auto: the core decodes them
    types = {1: [1, 2, 3, 4, 14], 2: [1, 3, 4, 5], 3: [1, 3, 4, 5],
             4: [1, 3, 4, 5], 5: [1, 2, 3, 4, 7, 8, 14],
             6: [1, 2, 3, 4, 7, 8, 14], 7: [4, 9, 10, 11, 12, 13]}
    allf = []
    for algo, ts in types.items():
        for t in ts:
            p = run(["forge", "pcap:" + path, "type", str(t), "algo",
                     str(algo), "group", "1", "id", "42", "term", "5"])
            allf += read_pcap(path)
    write_pcap(path, allf)
    p = subprocess.run([CODEC, path], capture_output=True, text=True)
    verdicts = [ln.split(None, 1)[1] for ln in p.stdout.splitlines()]
    check("forge payload auto: the core decodes all %d (algo, type) frames"
          % len(allf), len(verdicts) == len(allf) and
          all(v == "ok" for v in verdicts), str(verdicts))
    # predictions of a forged claim
    p = run(["-j", "forge", "pcap:" + path, "coord", "group", "1", "id", "42",
             "term", "1000", "groups", "1:bully"] + NODES)
    rep = json.loads(p.stdout)
    check("forge: a claim from 42 at another MAC predicted wrong_lladdr at 3 "
          "and 17, unknown_peer at 42",
          rep["expect"]["nodes"]["3"]["wrong_lladdr"] == 1 and
          rep["expect"]["nodes"]["17"]["wrong_lladdr"] == 1 and
          rep["expect"]["nodes"]["42"]["unknown_peer"] == 1, p.stdout)


def test_replay_flip():
    src = tmp("src.pcap")
    fuzz_report(src, ["count", "500", "seed", "9", "mode", "mutate"])
    orig = read_pcap(src)
    out = tmp("replay.pcap")
    p = run(["-j", "replay", "pcap:" + out, src, "src-mac", "keep"])
    check("replay keep: the frames unchanged",
          p.returncode == 0 and read_pcap(out) == orig, p.stderr)
    p = run(["-j", "replay", "pcap:" + out, src])
    check("replay: by default the frames unchanged",
          p.returncode == 0 and read_pcap(out) == orig, p.stderr)
    p = run(["replay", "pcap:" + out, src, "count", "1200", "src-mac",
             "02:aa:bb:cc:dd:ee", "dst-mac", "02:e1:00:00:00:03"])
    rep = read_pcap(out)
    check("replay count 1200: the capture cycled, MACs set, bodies unchanged",
          len(rep) == 1200 and all(
              r[14:] == orig[i % 500][14:] and
              r[:12] == bytes.fromhex("02e100000003" "02aabbccddee")
              for i, r in enumerate(rep)))
    p = run(["flip", "pcap:" + out, src, "seed", "4", "bits", "1",
             "src-mac", "own"])
    fl = read_pcap(out)

    def bitdiff(a, b):
        return sum(bin(x ^ y).count("1") for x, y in zip(a, b))
    check("flip bits 1: one bit of each body flipped (none of an empty "
          "one), the source MAC own",
          len(fl) == 500 and all(
              len(f) == len(o) and
              bitdiff(f[14:], o[14:]) == (1 if len(o) > 14 else 0) and
              f[6:12] == bytes.fromhex("020000000001") and f[:6] == o[:6]
              for f, o in zip(fl, orig)))


def main():
    global BIN, CODEC, TMP
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--codec-check", required=True)
    ap.add_argument("--frames", type=int, default=200000,
                    help="frames per differential run")
    a = ap.parse_args()
    BIN = os.path.abspath(a.bin)
    CODEC = os.path.abspath(a.codec_check)
    with tempfile.TemporaryDirectory(prefix="elec-inject-test-") as d:
        TMP = d
        test_selftest()
        test_bad_args()
        test_fuzz_counts()
        test_fuzz_keyed()
        test_forge()
        test_replay_flip()
        test_drops_py()
        for mode, seed in (("mixed", 1), ("mixed", 2), ("mutate", 3),
                           ("random", 4)):
            differential(mode, seed, a.frames)
    print("%d passed, %d failed" % (PASSED, FAILED))
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
