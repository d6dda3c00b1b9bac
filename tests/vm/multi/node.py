#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tests/vm/multi/node.py ID IDS CTL: one guest of make vmtest-multi (run by
tests/vm/run in that guest; tests/vm/multi/run.py starts the guests and
drives them).

ID is this node's id, IDS all ids (comma separated), CTL the host's
control directory (the host writes CTL/phase; read only here). This node
writes to $RESULTS_DIR: ack-<n> after phase n, report-<n>.json (views and
counters), clock-<n>.json, the watch records watch-<group>.jsonl.

The NIC (virtio-net on the host's bridge) becomes lan0 with 10.99.0.ID/24;
the host's clock answers on 10.99.0.254 (clockd.py). Groups: 1 bully and
2 ring, both on lan0; the peers' MACs are 02:e1:<id> as in lib.sh.

A phase line is "N VERB [@ID,ID..] ARGS..." (with @: for those nodes only):
  N config GROUP ALGO [OPTS...]   group add + every peer, not started
  N start GROUP                   group start
  N watch GROUP                   start recording GROUP (elec.py watch)
  N elect GROUP                   group elect
  N report                        write report-N.json (show + stats of
                                  every group)
  N clock                         measure the offset to the host clock
  N end                           stop the watches, exit 0
"""

import json
import os
import signal
import socket
import struct
import subprocess
import sys
import time

REPO = os.environ.get("ELECTION_REPO", "/")
CTL_BIN = os.path.join(REPO, "userspace", "electionctl")
ELEC_PY = os.path.join(REPO, "tests", "vm", "elec.py")
KO = os.environ.get("ELEC_KO") or os.path.join(REPO, "module", "election.ko")
OUT = os.environ.get("RESULTS_DIR", "/tmp")
CLOCK_PORT = 12399


def mac(i):
    return "02:e1:%02x:%02x:%02x:%02x" % (i >> 24 & 255, i >> 16 & 255, i >> 8 & 255, i & 255)


def sh(*cmd, check=True):
    p = subprocess.run(list(cmd), capture_output=True, text=True)
    if check and p.returncode:
        raise SystemExit("node: %s: exit %d: %s" % (" ".join(cmd), p.returncode,
                                                    p.stderr.strip()))
    return p.stdout


def ctl(*args, check=True):
    return sh(CTL_BIN, *args, check=check)


def write(name, obj):
    tmp = os.path.join(OUT, "." + name)
    with open(tmp, "w") as f:
        json.dump(obj, f)
    os.rename(tmp, os.path.join(OUT, name))


def clock():
    """Offset of the host's CLOCK_REALTIME to our CLOCK_MONOTONIC (the
    clock of the module's event timestamps): host = mono + offset."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(0.5)
    best = None
    for i in range(40):
        t1 = time.monotonic_ns()
        s.sendto(struct.pack("<q", t1), ("10.99.0.254", CLOCK_PORT))
        try:
            data = s.recv(64)
        except socket.timeout:
            continue
        t4 = time.monotonic_ns()
        if len(data) != 16 or struct.unpack("<q", data[:8])[0] != t1:
            continue
        host = struct.unpack("<q", data[8:16])[0]
        rtt = t4 - t1
        if best is None or rtt < best[0]:
            best = (rtt, host - (t1 + t4) // 2)
        time.sleep(0.005)
    if best is None:
        return {"error": "no answer from the host clock"}
    return {"offset_ns": best[1], "error_ns": best[0] // 2, "rtt_ns": best[0],
            "mono_ns": time.monotonic_ns(), "real_ns": time.time_ns()}


def setup_nic(nid):
    sh("modprobe", "virtio_net")
    want = mac(nid)
    for _ in range(100):
        for d in os.listdir("/sys/class/net"):
            try:
                with open("/sys/class/net/%s/address" % d) as f:
                    if f.read().strip() == want:
                        if d != "lan0":
                            sh("ip", "link", "set", d, "name", "lan0")
                        sh("ip", "link", "set", "lan0", "up")
                        sh("ip", "addr", "add", "10.99.0.%d/24" % nid, "dev", "lan0")
                        sh("ip", "link", "set", "lo", "up")
                        return
            except OSError:
                pass
        time.sleep(0.1)
    raise SystemExit("node: no NIC with MAC %s" % want)


def main():
    nid, ids, ctldir = int(sys.argv[1]), [int(x) for x in sys.argv[2].split(",")], sys.argv[3]
    setup_nic(nid)
    sh("insmod", KO)
    # elec.py watch enters a namespace by name: name ours
    os.makedirs("/run/netns", exist_ok=True)
    sh("ip", "netns", "attach", "host", "1", check=False)
    watches = []
    done = 0
    write("ready", {"id": nid, "uname": os.uname().release})
    while True:
        try:
            with open(os.path.join(ctldir, "phase")) as f:
                line = f.read().split()
        except OSError:
            line = []
        if not line or int(line[0]) <= done:
            time.sleep(0.05)
            continue
        n, verb, args = int(line[0]), line[1], line[2:]
        if args and args[0].startswith("@"):
            # a phase for some nodes only
            only = [int(x) for x in args[0][1:].split(",") if x]
            args = args[1:]
            if nid not in only:
                done = n
                continue
        res = {"phase": n, "verb": verb}
        try:
            if verb == "config":
                g, algo = args[0], args[1]
                ctl("group", "add", "dev", "lan0", "group", g, "id", str(nid),
                    "algo", algo, *args[2:])
                for p in ids:
                    if p != nid:
                        ctl("peer", "add", "dev", "lan0", "group", g, "id", str(p),
                            "lladdr", mac(p))
            elif verb in ("start", "stop", "elect"):
                ctl("group", verb, "dev", "lan0", "group", args[0])
            elif verb == "watch":
                w = subprocess.Popen(["python3", ELEC_PY, "watch", "--group", args[0],
                                      "--dev", "lan0", "--interval", "0.05",
                                      "--seconds", "100000",
                                      "--out", os.path.join(OUT, "watch-%s.jsonl" % args[0]),
                                      "host:%d" % nid],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                watches.append(w)
            elif verb == "report":
                rep = {"id": nid, "groups": {}}
                for g in args or ["1", "2"]:
                    v = ctl("-j", "show", "dev", "lan0", "group", g, check=False)
                    st = ctl("-j", "stats", "dev", "lan0", "group", g, check=False)
                    rep["groups"][g] = {"show": json.loads(v)[0] if v.strip() else None,
                                        "stats": json.loads(st)[0] if st.strip() else None}
                write("report-%d.json" % n, rep)
            elif verb == "clock":
                write("clock-%d.json" % n, clock())
            elif verb == "end":
                for w in watches:
                    w.send_signal(signal.SIGTERM)
                for w in watches:
                    w.wait(timeout=30)
                write("ack-%d" % n, res)
                return 0
            else:
                res["error"] = "unknown verb"
        except (SystemExit, Exception) as e:  # noqa: BLE001 (reported to the host)
            res["error"] = str(e)
        write("ack-%d" % n, res)
        done = n


if __name__ == "__main__":
    sys.exit(main())
