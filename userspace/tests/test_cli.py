#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of electionctl that need no kernel module.

- The command line parser: every malformed argument exits 1 with an
  "Error: ..." message naming the bad token and sends nothing (checked with
  --dry-run, which prints the request it would send instead of sending it:
  on refusal stdout stays empty).
- Valid command lines: the request (command, dump flag, attributes) and the
  unit conversions (100us -> 100000 ns, 60s -> 60000000000 ns, ...).
- Help, version and exit statuses.
- The helper programs: json-test (JSON writer escaping), nl-test (the
  netlink session against the kernel's own "nlctrl" family: replies, acks,
  dumps, extack messages), monitor-test (event lines and lost-event gaps),
  print-test (show/stats JSON keys and text output), sync-test
  (syncconf against running groups modelled as the kernel reports them).
- valgrind (when installed) over the dry-run, error and netlink paths.

Ends with "N passed, M failed"; exits 1 when anything failed.
"""

import argparse
import json
import re
import os
import shutil
import signal
import subprocess
import tempfile
import time
import sys

PASSED = 0
FAILED = 0
ARGS = None


def check(name, ok, detail=""):
    global PASSED, FAILED
    if ok:
        PASSED += 1
        print(f"ok - {name}")
    else:
        FAILED += 1
        print(f"FAIL - {name}" + (f": {detail}" if detail else ""))


def run(argv, env=None, dry=True, prog=None, valgrind=False):
    """Run electionctl (or prog) and return (rc, stdout, stderr)."""
    cmd = [prog or ARGS.bin]
    if dry:
        cmd.append("--dry-run")
    cmd += argv
    if valgrind:
        cmd = ["valgrind", "-q", "--error-exitcode=99", "--leak-check=full",
               "--errors-for-leak-kinds=definite,indirect",
               "--show-leak-kinds=definite,indirect"] + cmd
    full_env = dict(os.environ)
    full_env.pop("ELECTIONCTL_DRY_RUN", None)
    full_env["LC_ALL"] = "C"
    if env:
        full_env.update(env)
    p = subprocess.run(cmd, capture_output=True, env=full_env, timeout=120)
    return p.returncode, p.stdout.decode(errors="replace"), \
        p.stderr.decode(errors="replace")


def refused(name, argv, token, env=None, dry=True):
    """argv must exit 1, print one Error: line naming token, send nothing."""
    rc, out, err = run(argv, env=env, dry=dry)
    ok = (rc == 1 and out == "" and err.startswith("Error: ")
          and token in err and err.count("\n") == 1)
    check(f"refused: {name}", ok,
          f"rc={rc} stdout={out!r} stderr={err!r} want token {token!r}")


def request(name, argv, cmd, attrs, dump=False, env=None, dry=True):
    """argv must exit 0 and print exactly this request."""
    rc, out, err = run(argv, env=env, dry=dry)
    try:
        got = json.loads(out)
    except ValueError:
        got = None
    want = {"family": "election", "version": 1, "cmd": cmd, "dump": dump,
            "attrs": attrs}
    if got is not None:
        got.pop("unchecked", None)
    ok = rc == 0 and err == "" and got == want and out.count("\n") == 1
    check(f"request: {name}", ok,
          f"rc={rc} stdout={out!r} stderr={err!r} want {want}")


LO = 0


def base_add(extra=()):
    return ["group", "add", "dev", "lo", "group", "7", "id", "5",
            "algo", "bully"] + list(extra)


# invitation's message types, 0 when the kernel sent none
INV0 = {"ayc": 0, "ayc_reply": 0, "invite": 0, "accept": 0, "ready": 0,
        "alive": 0}


def test_parser():
    bad_durs = ["10", "10ns", "99us", "61s", "1.5ms", "-5ms", "", "0us",
                "0s", "60001ms", "60000001us", "+5ms", " 5ms", "5 ms", "5ms ",
                "5MS", "5m", "5sec", "0x10ms", "1e3us", "ms",
                "18446744073709551616us", "99999999999999999999s",
                "18446744073709551615s", "５ms"]
    for kw in ["hb-interval", "timeout", "coord-timeout"]:
        for d in bad_durs:
            refused(f"group add {kw} {d!r}", base_add([kw, d]),
                    f'"{d}"')
        refused(f"group set {kw} '61s'",
                ["group", "set", "dev", "lo", "group", "7", kw, "61s"],
                '"61s"')

    for v in ["0", "4294967296", "-1", "", "abc", " 1", "1 ", "0x10", "1e3",
              "99999999999999999999999"]:
        refused(f"group add id {v!r}",
                ["group", "add", "dev", "lo", "group", "7", "id", v,
                 "algo", "bully"], f'"{v}"')
        refused(f"peer del id {v!r}",
                ["peer", "del", "dev", "lo", "group", "7", "id", v], f'"{v}"')
    for v in ["0", "65536", "", "x", "-1", "1.0", "4294967297"]:
        refused(f"group {v!r}",
                ["group", "del", "dev", "lo", "group", v], f'"{v}"')
        refused(f"show group {v!r}", ["show", "group", v], f'"{v}"')
    for v in ["0", "1001", "", "-3", "3x"]:
        refused(f"hb-miss {v!r}", base_add(["hb-miss", v]), f'"{v}"')

    # ring positions: 1..4294967295 on group add and peer add
    ring_add = ["group", "add", "dev", "lo", "group", "7", "id", "5",
                "algo", "ring"]
    peer_add = ["peer", "add", "dev", "lo", "group", "7", "id", "2",
                "lladdr", "02:00:00:00:00:02"]
    for v in ["0", "-1", "4294967296", "abc", "", " 1", "1 ", "0x10", "1e3",
              "+1", "1.5", "99999999999999999999999"]:
        refused(f"group add pos {v!r}", ring_add + ["pos", v], f'"{v}"')
        refused(f"peer add pos {v!r}", peer_add + ["pos", v], f'"{v}"')
    rc, out, err = run(ring_add + ["pos", "0"])
    check("bad pos: the message gives the range",
          rc == 1 and "expected an integer from 1 to 4294967295" in err, err)
    refused("group add pos without a value", ring_add + ["pos"], '"pos"')
    refused("peer add pos without a value", peer_add + ["pos"], '"pos"')
    refused("duplicate pos", ring_add + ["pos", "1", "pos", "2"], '"pos"')
    refused("pos not valid for group set",
            ["group", "set", "dev", "lo", "group", "7", "pos", "1"], '"pos"')
    refused("pos not valid for peer del",
            ["peer", "del", "dev", "lo", "group", "7", "id", "2", "pos",
             "1"], '"pos"')
    # suppress: on|off, group add only, algo ring only
    for v in ["yes", "no", "1", "0", "ON", "Off", "true", "", "on "]:
        refused(f"suppress {v!r}", ring_add + ["suppress", v], f'"{v}"')
    rc, out, err = run(ring_add + ["suppress", "1"])
    check("bad suppress: the message names on and off",
          rc == 1 and "expected on or off" in err, err)
    refused("suppress without a value", ring_add + ["suppress"],
            '"suppress"')
    refused("duplicate suppress",
            ring_add + ["suppress", "on", "suppress", "off"], '"suppress"')
    for algo in ["bully", "ring-all", "ring-list", "min-bully", "enh-bully"]:
        for v in ["on", "off"]:
            argv = ["group", "add", "dev", "lo", "group", "7", "id", "5",
                    "algo", algo, "suppress", v]
            refused(f"suppress {v} with algo {algo}", argv,
                    "suppress applies to the ring algorithm only")
            rc, out, err = run(argv)
            check(f"suppress {v} with algo {algo}: the message names it",
                  rc == 1 and f'(not "{algo}")' in err, err)
    refused("suppress not valid for group set",
            ["group", "set", "dev", "lo", "group", "7", "suppress", "on"],
            '"suppress"')
    refused("suppress not valid for peer add", peer_add + ["suppress", "on"],
            '"suppress"')

    # ask-suspect, preempt: on|off; preempt-delay: 0 or DUR; group add and
    # group set; the Bully algorithms only: group add on a ring is refused
    # here with the kernel's (the core's) words, group set by the kernel
    gset = ["group", "set", "dev", "lo", "group", "7"]
    for kw in ["ask-suspect", "preempt", "quorum"]:
        for v in ["yes", "no", "1", "0", "ON", "Off", "true", "", "on "]:
            refused(f"group add {kw} {v!r}", base_add([kw, v]), f'"{v}"')
            refused(f"group set {kw} {v!r}", gset + [kw, v], f'"{v}"')
        rc, out, err = run(base_add([kw, "1"]))
        check(f"bad {kw}: the message names on and off",
              rc == 1 and "expected on or off" in err, err)
        refused(f"{kw} without a value", base_add([kw]), f'"{kw}"')
        refused(f"duplicate {kw}", base_add([kw, "on", kw, "off"]),
                f'"{kw}"')
        refused(f"{kw} not valid for peer add", peer_add + [kw, "on"],
                f'"{kw}"')
    for d in ["00", "0us", "0s", "99us", "61s", "10", "10ns", "-5ms", "",
              "1.5ms", "5 ms", "+0", "-0", "0x0", "60001ms"]:
        refused(f"group add preempt-delay {d!r}",
                base_add(["preempt-delay", d]), f'"{d}"')
        refused(f"group set preempt-delay {d!r}",
                gset + ["preempt-delay", d], f'"{d}"')
    rc, out, err = run(base_add(["preempt-delay", "61s"]))
    check("bad preempt-delay: the message gives 0 or the range",
          rc == 1 and "0 or a duration from 100us to 60s" in err, err)
    rc, out, err = run(base_add(["preempt-delay", "5"]))
    check("bad preempt-delay without a unit: the message asks for one",
          rc == 1 and "missing unit" in err, err)
    refused("preempt-delay without a value", base_add(["preempt-delay"]),
            '"preempt-delay"')
    refused("preempt-delay not valid for group del",
            ["group", "del", "dev", "lo", "group", "7", "preempt-delay",
             "0"], '"preempt-delay"')
    refused("group set with nothing to change", gset,
            "ask-suspect, preempt, preempt-delay, quorum, search-interval, "
            "detector, detector-margin, detector-max")
    msg_ask = "ask-suspect applies to the Bully algorithms only"
    msg_pre = "preempt applies to the Bully algorithms only"
    msg_delay = "preempt-delay applies to the Bully algorithms only"
    for algo in ["ring", "ring-all", "ring-list"]:
        radd = ["group", "add", "dev", "lo", "group", "7", "id", "5",
                "algo", algo]
        for kw, vals, msg in [("ask-suspect", ["on", "off"], msg_ask),
                              ("preempt", ["on", "off"], msg_pre),
                              ("preempt-delay", ["0", "1s"], msg_delay)]:
            for v in vals:
                refused(f"{kw} {v} with algo {algo}", radd + [kw, v], msg)
                rc, out, err = run(radd + [kw, v])
                check(f"{kw} {v} with algo {algo}: the message names the "
                      "Bully algorithms and the algo given",
                      rc == 1 and "bully, min-bully or enh-bully only" in err
                      and f'(not "{algo}")' in err, err)
        # the first offending option in the kernel's order
        refused(f"algo {algo}: preempt-delay and ask-suspect: ask-suspect "
                "named", radd + ["preempt-delay", "0", "ask-suspect", "on"],
                msg_ask)
        refused(f"algo {algo}: timing and preempt: preempt named",
                radd + ["timeout", "5ms", "preempt", "on"], msg_pre)
        for v in ["on", "off"]:
            refused(f"quorum {v} with algo {algo}", radd + ["quorum", v],
                    "quorum applies to the Bully algorithms only: algo "
                    f'bully, min-bully or enh-bully only (not "{algo}")')

    # search-interval: 0 or DUR, group add (algo invitation) and group set;
    # the other algorithms refuse it, invitation refuses the Bully options
    iadd = ["group", "add", "dev", "lo", "group", "7", "id", "5", "algo",
            "invitation"]
    for d in ["00", "0us", "99us", "61s", "10", "-5ms", "", "1.5ms"]:
        refused(f"group add search-interval {d!r}",
                iadd + ["search-interval", d], f'"{d}"')
        refused(f"group set search-interval {d!r}",
                gset + ["search-interval", d], f'"{d}"')
    rc, out, err = run(iadd + ["search-interval", "61s"])
    check("bad search-interval: the message gives 0 or the range",
          rc == 1 and "0 or a duration from 100us to 60s" in err, err)
    refused("search-interval not valid for peer add",
            peer_add + ["search-interval", "1s"], '"search-interval"')
    for algo in ["bully", "ring", "min-bully", "enh-bully", "ring-list"]:
        argv = ["group", "add", "dev", "lo", "group", "7", "id", "5",
                "algo", algo, "search-interval", "0"]
        refused(f"search-interval with algo {algo}", argv,
                "search-interval applies to the invitation algorithm only")
        rc, out, err = run(argv)
        check(f"search-interval with algo {algo}: the message names it",
              rc == 1 and f'(not "{algo}")' in err, err)
    for kw, v in [("ask-suspect", "on"), ("preempt", "off"),
                  ("preempt-delay", "0"), ("quorum", "on")]:
        refused(f"{kw} {v} with algo invitation", iadd + [kw, v],
                "applies to the Bully algorithms only")

    for mac in ["aa:bb:cc:dd:ee", "aa:bb:cc:dd:ee:ff:00", "aa-bb-cc-dd-ee-ff",
                "gg:bb:cc:dd:ee:ff", "a:b:c:d:e:f", "", "aabb.ccdd.eeff",
                "aa:bb:cc:dd:ee:f", "aa:bb:cc:dd:ee:fff", "aa:bb:cc:dd:ee:ff ",
                "01:00:5e:00:00:01", "ff:ff:ff:ff:ff:ff", "00:00:00:00:00:00",
                "ab:bb:cc:dd:ee:ff"]:  # 0xab has the multicast bit set
        refused(f"lladdr {mac!r}",
                ["peer", "add", "dev", "lo", "group", "1", "id", "2",
                 "lladdr", mac], f'"{mac}"')

    # keywords
    refused("unknown keyword", base_add(["foo", "1"]), '"foo"')
    refused("keyword not valid for the command",
            ["group", "del", "dev", "lo", "group", "7", "id", "3"], '"id"')
    refused("algo not valid for group set",
            ["group", "set", "dev", "lo", "group", "7", "algo", "bully"],
            '"algo"')
    refused("lladdr not valid for group add",
            base_add(["lladdr", "02:00:00:00:00:01"]), '"lladdr"')
    refused("show with id", ["show", "id", "3"], '"id"')
    refused("stats with timeout", ["stats", "timeout", "1ms"], '"timeout"')
    refused("duplicate dev",
            ["group", "add", "dev", "lo", "dev", "lo", "group", "7", "id",
             "5", "algo", "bully"], '"dev"')
    refused("duplicate timeout", base_add(["timeout", "1ms", "timeout",
                                           "2ms"]), '"timeout"')
    refused("duplicate group in show", ["show", "group", "1", "group", "1"],
            '"group"')
    refused("keyword without value", base_add(["timeout"]), '"timeout"')
    refused("keyword without value (dev)", ["show", "dev"], '"dev"')
    refused("keyword is case sensitive", base_add(["TIMEOUT", "1ms"]),
            '"TIMEOUT"')
    refused("ambiguous keyword abbreviation", base_add(["hb", "1ms"]),
            '"hb"')
    rc, out, err = run(base_add(["hb", "1ms"]))
    check("ambiguous keyword: the candidates are named",
          rc == 1 and "hb-interval, hb-miss" in err, err)
    refused("abbreviation of a keyword another command has",
            ["group", "set", "dev", "lo", "group", "7", "al", "bully"],
            '"al"')
    for missing, argv in [
            ("dev", ["group", "add", "group", "7", "id", "5", "algo",
                     "bully"]),
            ("group", ["group", "add", "dev", "lo", "id", "5", "algo",
                       "bully"]),
            ("id", ["group", "add", "dev", "lo", "group", "7", "algo",
                    "bully"]),
            ("algo", ["group", "add", "dev", "lo", "group", "7", "id", "5"]),
            ("dev", ["group", "set", "group", "7", "timeout", "1ms"]),
            ("group", ["group", "del", "dev", "lo"]),
            ("dev", ["group", "start", "group", "1"]),
            ("group", ["group", "stop", "dev", "lo"]),
            ("dev", ["group", "elect", "group", "1"]),
            ("lladdr", ["peer", "add", "dev", "lo", "group", "1", "id", "2"]),
            ("id", ["peer", "add", "dev", "lo", "group", "1", "lladdr",
                    "02:00:00:00:00:01"]),
            ("id", ["peer", "del", "dev", "lo", "group", "1"]),
            ("dev", ["peer", "del", "group", "1", "id", "2"])]:
        refused(f"missing {missing}: {' '.join(argv[:2])}", argv,
                f'"{missing}"')
    refused("group set without timing",
            ["group", "set", "dev", "lo", "group", "7"], '"group set"')
    for algo in ["raft", "BULLY", "", "bully2", "Ring", "ring_all",
                 "ringall", "ring-"]:
        refused(f"unknown algo {algo!r}",
                ["group", "add", "dev", "lo", "group", "7", "id", "5",
                 "algo", algo], f'"{algo}"')

    # devices
    refused("unknown device", ["group", "del", "dev", "nosuchdev0", "group",
                               "1"], '"nosuchdev0"')
    refused("empty device", ["show", "dev", ""], '""')
    refused("device name too long",
            ["show", "dev", "abcdefghijklmnop"], '"abcdefghijklmnop"')

    # commands and options
    refused("unknown command", ["frob"], '"frob"')
    refused("ambiguous command abbreviation", ["s"], '"s"')
    refused("ambiguous command abbreviation (m)", ["m"], '"m"')
    refused("ambiguous group subcommand", ["group", "st", "dev", "lo",
                                           "group", "1"], '"st"')
    refused("values are not abbreviated", base_add(["quorum", "of"]),
            '"of"')
    refused("unknown group subcommand", ["group", "frob"], '"frob"')
    refused("unknown peer subcommand", ["peer", "set"], '"set"')
    refused("unknown option prefix", ["-q", "show"], '"-q"')
    refused("-n without a name", ["-n"], '"-n"')
    refused("-n with a name that is no namespace", ["-n", "nosuchns0", "show"],
            '"nosuchns0"')
    # no subcommand means show (as ip link, wg)
    request("group without subcommand: group show", ["group"], "group_get",
            {}, dump=True)
    request("peer without subcommand: peer show", ["peer"], "group_get",
            {}, dump=True)
    request("-j group: group show", ["-j", "group"], "group_get", {},
            dump=True)
    refused("option after the command", ["show", "-j"], '"-j"')
    refused("unknown option", ["-x", "show"], '"-x"')
    refused("unknown long option", ["--frob", "show"], '"--frob"')
    refused("monitor with a keyword without value", ["monitor", "dev"],
            '"dev"')
    refused("module with an argument", ["module", "x"], '"x"')
    refused("help with an unknown object", ["help", "x"], '"x"')
    refused("help with two arguments", ["help", "group", "x"], '"x"')
    refused("refused with ELECTIONCTL_DRY_RUN=1 too",
            base_add(["timeout", "10"]), '"10"',
            env={"ELECTIONCTL_DRY_RUN": "1"}, dry=False)
    refused("refused before any netlink use (no --dry-run)",
            base_add(["timeout", "99us"]), '"99us"', dry=False)

    request("no command: show (as wg)", [], "group_get", {}, dump=True)
    rc, out, err = run([], dry=False)
    check("no command without the module: show's error, exit 2",
          rc == 2 and out == "" and "election" in err, f"rc={rc} {err!r}")


def test_requests():
    add = base_add()
    base = {"ifindex": LO, "group": 7, "node_id": 5, "algo": 1}
    request("group add minimal", add, "group_new", base)
    for text, ns in [("100us", 100000), ("60s", 60000000000),
                     ("1ms", 1000000), ("60000ms", 60000000000),
                     ("60000000us", 60000000000), ("100000us", 100000000),
                     ("0100us", 100000), ("1s", 1000000000),
                     ("999us", 999000)]:
        request(f"duration {text} = {ns} ns",
                add + ["hb-interval", text, "timeout", text,
                       "coord-timeout", text], "group_new",
                dict(base, hb_interval_ns=ns, timeout_ns=ns,
                     coord_timeout_ns=ns))
    request("group add all options, any order",
            ["group", "add", "coord-timeout", "40ms", "algo", "bully",
             "hb-miss", "1000", "id", "4294967295", "timeout", "10ms",
             "group", "65535", "hb-interval", "20ms", "dev", "lo"],
            "group_new",
            {"coord_timeout_ns": 40000000, "algo": 1, "hb_miss": 1000,
             "node_id": 4294967295, "timeout_ns": 10000000, "group": 65535,
             "hb_interval_ns": 20000000, "ifindex": LO})
    request("hb-miss 1", add + ["hb-miss", "1"], "group_new",
            dict(base, hb_miss=1))
    for name, num in [("bully", 1), ("ring", 2), ("ring-all", 3),
                      ("ring-list", 4), ("min-bully", 5), ("enh-bully", 6)]:
        request(f"algo {name} = {num}",
                ["group", "add", "dev", "lo", "group", "7", "id", "5",
                 "algo", name], "group_new", dict(base, algo=num))
    for pos in ["1", "4294967295", "3", "007"]:
        request(f"group add pos {pos}",
                ["group", "add", "dev", "lo", "group", "7", "id", "5",
                 "algo", "ring-all", "pos", pos], "group_new",
                dict(base, algo=3, pos=int(pos)))
        request(f"peer add pos {pos}",
                ["peer", "add", "dev", "lo", "group", "1", "id", "9",
                 "lladdr", "02:00:00:00:00:09", "pos", pos], "peer_add",
                {"ifindex": LO, "group": 1, "peer_id": 9,
                 "peer_lladdr": "02:00:00:00:00:09", "peer_pos": int(pos)})
    request("group add pos with bully (harmless)", add + ["pos", "9"],
            "group_new", dict(base, pos=9))
    for v, num in [("on", 1), ("off", 0)]:
        request(f"group add algo ring suppress {v}",
                ["group", "add", "dev", "lo", "group", "7", "id", "5",
                 "algo", "ring", "suppress", v], "group_new",
                dict(base, algo=2, suppress=num))
    request("group add ring: every option, any order",
            ["group", "add", "suppress", "off", "timeout", "100ms", "pos",
             "6", "algo", "ring", "hb-miss", "5", "dev", "lo", "id", "42",
             "coord-timeout", "400ms", "group", "3", "hb-interval", "100ms"],
            "group_new",
            {"suppress": 0, "timeout_ns": 100000000, "pos": 6, "algo": 2,
             "hb_miss": 5, "ifindex": LO, "node_id": 42,
             "coord_timeout_ns": 400000000, "group": 3,
             "hb_interval_ns": 100000000})
    for v, num in [("on", 1), ("off", 0)]:
        request(f"group add ask-suspect {v}", add + ["ask-suspect", v],
                "group_new", dict(base, ask_suspect=num))
        request(f"group add preempt {v}", add + ["preempt", v],
                "group_new", dict(base, preempt=num))
        request(f"group set ask-suspect {v}",
                ["group", "set", "dev", "lo", "group", "1", "ask-suspect",
                 v], "group_set",
                {"ifindex": LO, "group": 1, "ask_suspect": num})
        request(f"group set preempt {v}",
                ["group", "set", "dev", "lo", "group", "1", "preempt", v],
                "group_set", {"ifindex": LO, "group": 1, "preempt": num})
        request(f"group add quorum {v}", add + ["quorum", v],
                "group_new", dict(base, quorum=num))
        request(f"group set quorum {v}",
                ["group", "set", "dev", "lo", "group", "1", "quorum", v],
                "group_set", {"ifindex": LO, "group": 1, "quorum": num})
        for name, anum in [("min-bully", 5), ("enh-bully", 6)]:
            request(f"group add {name} quorum {v}",
                    ["group", "add", "dev", "lo", "group", "7", "id", "5",
                     "algo", name, "quorum", v], "group_new",
                    dict(base, algo=anum, quorum=num))
    for d, ns in [("0", 0), ("100us", 100000), ("250ms", 250000000),
                  ("60s", 60000000000)]:
        request(f"group add preempt-delay {d}", add + ["preempt-delay", d],
                "group_new", dict(base, preempt_delay_ns=ns))
        request(f"group set preempt-delay {d}",
                ["group", "set", "dev", "lo", "group", "1",
                 "preempt-delay", d], "group_set",
                {"ifindex": LO, "group": 1, "preempt_delay_ns": ns})
    for d, ns in [("0", 0), ("100us", 100000), ("250ms", 250000000),
                  ("60s", 60000000000)]:
        request(f"group add invitation search-interval {d}",
                ["group", "add", "dev", "lo", "group", "7", "id", "5",
                 "algo", "invitation", "search-interval", d], "group_new",
                dict(base, algo=7, search_interval_ns=ns))
        request(f"group set search-interval {d}",
                ["group", "set", "dev", "lo", "group", "1",
                 "search-interval", d], "group_set",
                {"ifindex": LO, "group": 1, "search_interval_ns": ns})
    request("group add invitation", ["group", "add", "dev", "lo", "group",
                                     "7", "id", "5", "algo", "invitation"],
            "group_new", dict(base, algo=7))
    request("group add bully: the three options with timing, any order",
            add + ["preempt-delay", "2s", "hb-miss", "3", "preempt", "on",
                   "ask-suspect", "off"], "group_new",
            dict(base, preempt_delay_ns=2000000000, hb_miss=3, preempt=1,
                 ask_suspect=0))
    for name, num in [("min-bully", 5), ("enh-bully", 6)]:
        vadd = ["group", "add", "dev", "lo", "group", "7", "id", "5",
                "algo", name]
        request(f"group add {name}: the three options with timing",
                vadd + ["ask-suspect", "off", "preempt", "on",
                        "preempt-delay", "250ms", "timeout", "5ms"],
                "group_new",
                dict(base, algo=num, ask_suspect=0, preempt=1,
                     preempt_delay_ns=250000000, timeout_ns=5000000))
        request(f"group add {name}: preempt off, preempt-delay 0",
                vadd + ["preempt", "off", "preempt-delay", "0"],
                "group_new",
                dict(base, algo=num, preempt=0, preempt_delay_ns=0))
        request(f"group add {name}: ask-suspect on, pos",
                vadd + ["ask-suspect", "on", "pos", "3"], "group_new",
                dict(base, algo=num, ask_suspect=1, pos=3))
    request("--unchecked: ring with ask-suspect goes to the kernel",
            ["--unchecked", "group", "add", "dev", "lo", "group", "7", "id",
             "5", "algo", "ring", "ask-suspect", "on"], "group_new",
            dict(base, algo=2, ask_suspect=1))
    request("--unchecked: ring with quorum goes to the kernel",
            ["--unchecked", "group", "add", "dev", "lo", "group", "7", "id",
             "5", "algo", "ring", "quorum", "on"], "group_new",
            dict(base, algo=2, quorum=1))
    request("--unchecked: ring-list with preempt-delay goes to the kernel",
            ["--unchecked", "group", "add", "dev", "lo", "group", "7", "id",
             "5", "algo", "ring-list", "preempt-delay", "0"], "group_new",
            dict(base, algo=4, preempt_delay_ns=0))
    request("peer add: pos before lladdr",
            ["peer", "add", "pos", "2", "dev", "lo", "lladdr",
             "02:00:00:00:00:09", "group", "1", "id", "9"], "peer_add",
            {"peer_pos": 2, "ifindex": LO, "peer_lladdr": "02:00:00:00:00:09",
             "group": 1, "peer_id": 9})
    request("group set one option",
            ["group", "set", "dev", "lo", "group", "1", "hb-miss", "7"],
            "group_set", {"ifindex": LO, "group": 1, "hb_miss": 7})
    for sub, cmd in [("del", "group_del"), ("start", "group_start"),
                     ("stop", "group_stop"), ("elect", "group_elect")]:
        request(f"group {sub}", ["group", sub, "dev", "lo", "group", "1"],
                cmd, {"ifindex": LO, "group": 1})
    request("peer add (MAC lowercased)",
            ["peer", "add", "dev", "lo", "group", "1", "id", "1",
             "lladdr", "02:AB:cd:EF:00:09"], "peer_add",
            {"ifindex": LO, "group": 1, "peer_id": 1,
             "peer_lladdr": "02:ab:cd:ef:00:09"})
    request("peer add aa:bb:cc:dd:ee:ff (unicast)",
            ["peer", "add", "dev", "lo", "group", "1", "id", "3",
             "lladdr", "aa:bb:cc:dd:ee:ff"], "peer_add",
            {"ifindex": LO, "group": 1, "peer_id": 3,
             "peer_lladdr": "aa:bb:cc:dd:ee:ff"})
    request("peer del", ["peer", "del", "dev", "lo", "group", "1", "id",
                         "42"], "peer_del",
            {"ifindex": LO, "group": 1, "peer_id": 42})
    request("show: dump", ["show"], "group_get", {}, dump=True)
    request("show dev: dump filtered", ["show", "dev", "lo"], "group_get",
            {"ifindex": LO}, dump=True)
    request("show group: dump filtered", ["show", "group", "3"],
            "group_get", {"group": 3}, dump=True)
    request("show dev group: doit", ["show", "group", "3", "dev", "lo"],
            "group_get", {"group": 3, "ifindex": LO})
    request("-j show dev group", ["-j", "show", "dev", "lo", "group", "3"],
            "group_get", {"ifindex": LO, "group": 3})
    request("stats: dump", ["stats"], "stats_get", {}, dump=True)
    request("stats dev group: doit", ["-j", "stats", "dev", "lo", "group",
                                      "9"], "stats_get",
            {"ifindex": LO, "group": 9})
    request("module", ["-j", "module"], "module_get", {})
    request("ELECTIONCTL_DRY_RUN=1", add, "group_new", base,
            env={"ELECTIONCTL_DRY_RUN": "1"}, dry=False)
    rc, out, err = run(["-j", "monitor"])
    check("monitor dry-run names the multicast group",
          rc == 0 and json.loads(out).get("mcgrp") == "events", out + err)

    # --unchecked lets tests make the kernel refuse values; syntax still holds
    request("--unchecked: out-of-range values pass",
            ["--unchecked", "group", "add", "dev", "lo", "group", "0", "id",
             "0", "timeout", "50us", "hb-miss", "0"], "group_new",
            {"ifindex": LO, "group": 0, "node_id": 0, "timeout_ns": 50000,
             "hb_miss": 0})
    request("--unchecked: multicast lladdr passes",
            ["--unchecked", "peer", "add", "dev", "lo", "group", "1", "id",
             "2", "lladdr", "ff:ff:ff:ff:ff:ff"], "peer_add",
            {"ifindex": LO, "group": 1, "peer_id": 2,
             "peer_lladdr": "ff:ff:ff:ff:ff:ff"})
    request("--unchecked: suppress with bully goes to the kernel",
            ["--unchecked", "group", "add", "dev", "lo", "group", "1", "id",
             "1", "algo", "bully", "suppress", "on"], "group_new",
            {"ifindex": LO, "group": 1, "node_id": 1, "algo": 1,
             "suppress": 1})
    request("--unchecked: pos 0 goes to the kernel",
            ["--unchecked", "peer", "add", "dev", "lo", "group", "1", "id",
             "2", "lladdr", "02:00:00:00:00:02", "pos", "0"], "peer_add",
            {"ifindex": LO, "group": 1, "peer_id": 2,
             "peer_lladdr": "02:00:00:00:00:02", "peer_pos": 0})
    refused("--unchecked: pos beyond u32 still refused",
            ["--unchecked", "peer", "add", "dev", "lo", "group", "1", "id",
             "2", "lladdr", "02:00:00:00:00:02", "pos", "4294967296"],
            '"4294967296"')
    refused("--unchecked: suppress syntax still enforced",
            ["--unchecked", "group", "add", "dev", "lo", "group", "1", "id",
             "1", "algo", "ring", "suppress", "1"], '"1"')
    request("--unchecked: group set without options",
            ["--unchecked", "group", "set", "dev", "lo", "group", "1"],
            "group_set", {"ifindex": LO, "group": 1})
    refused("--unchecked: bad syntax still refused",
            ["--unchecked", "group", "add", "dev", "lo", "group", "1", "id",
             "1", "algo", "bully", "timeout", "10"], '"10"')
    refused("--unchecked: group beyond u16 still refused",
            ["--unchecked", "show", "group", "65536"], '"65536"')
    refused("--unchecked: unknown device still refused",
            ["--unchecked", "show", "dev", "nosuchdev0"], '"nosuchdev0"')


def test_help():
    for opt in [["help"], ["-h"], ["--help"]]:
        rc, out, err = run(opt, dry=False)
        check(f"{opt[0]}: usage on stdout, exit 0",
              rc == 0 and err == "" and "Usage:" in out
              and "Exit status" in out and "monitor [ dev IF ] [ group G ]" in out,
              f"rc={rc}")
    for opt in ["-V", "--version"]:
        rc, out, err = run([opt], dry=False)
        check(f"{opt}: version", rc == 0 and out.startswith("electionctl "),
              out)
    for sub in ["group", "peer"]:
        rc, out, err = run([sub, "help"], dry=False)
        check(f"{sub} help", rc == 0 and f"electionctl {sub} add" in out,
              out + err)
        check(f"{sub} help: pos", "[ pos P ]" in out, out)
    rc, out, err = run(["group", "help"], dry=False)
    check("group help: suppress", "[ suppress { on | off } ]" in out, out)
    rc, out, err = run(["help"], dry=False)
    check("help: every algorithm, pos and suppress",
          "ALGO    := { bully | ring | ring-all | ring-list | min-bully | "
          "enh-bully |\n            invitation }\n" in out
          and "P       := 1..4294967295" in out
          and "suppress (algo ring only)" in out, out)
    check("help: the Bully options apply to the three Bully algorithms",
          "(the Bully algorithms: bully, min-bully, enh-bully)\n" in out
          and "bully only" not in out, out)
    check("help: min-bully and enh-bully described",
          "min-bully: the lowest id wins" in out
          and "enh-bully: the highest id wins" in out
          and "min-bully: lower) that joins takes over" in out, out)
    # every variable a monitor exec hook gets (monitor.c's elec_setenvf
    # calls)
    src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "..", "ctl", "monitor.c")).read()
    names = re.findall(r'elec_setenvf\("(ELECTION_[A-Z_]+)"', src)
    flat = " ".join(out.split())
    check("help: every variable of a monitor exec hook is named",
          len(names) >= 10 and all(n in flat for n in names),
          [n for n in names if n not in flat])
    for line in out.splitlines():
        if len(line) > 80:
            check(f"help: line within 80 columns: {line!r}", False)


def test_conventions():
    """iproute2's conventions: prefixes, aliases, help per object, -p, -n."""
    lo = {"ifindex": LO, "group": 7}
    request("abbreviated command, subcommand and keywords",
            ["gr", "a", "d", "lo", "gr", "7", "i", "5", "al", "bully",
             "hb-i", "1ms", "hb-m", "4", "t", "2ms", "q", "on"],
            "group_new", dict(lo, node_id=5, algo=1,
                              hb_interval_ns=1000000, hb_miss=4,
                              timeout_ns=2000000, quorum=1))
    for sub in ["del", "delete", "de", "d"]:
        request(f"group {sub}", ["group", sub, "dev", "lo", "group", "7"],
                "group_del", lo)
        request(f"peer {sub}", ["peer", sub, "dev", "lo", "group", "7",
                                "id", "3"],
                "peer_del", dict(lo, peer_id=3))
    request("group show: a dump", ["group", "show"], "group_get", {},
            dump=True)
    request("group show dev lo group 7: a doit",
            ["group", "sh", "dev", "lo", "group", "7"], "group_get", lo)
    request("peer show id 3: the id filters here, it is not sent",
            ["peer", "show", "group", "7", "id", "3"], "group_get",
            {"group": 7}, dump=True)
    refused("peer show with lladdr", ["peer", "show", "lladdr",
                                      "02:00:00:00:00:01"], '"lladdr"')
    request("-json, -js: prefixes of -json", ["-js", "show"], "group_get", {},
            dump=True)
    rc, out, err = run(["-p", "show"])
    check("-p: the request as indented JSON",
          rc == 0 and out.startswith('{\n    "family": "election",\n') and
          '\n    "attrs": {}\n}\n' in out and json.loads(out)["cmd"] ==
          "group_get", out + err)
    rc, out, err = run(["-p", "group", "show", "dev", "lo"])
    check("-p: nested objects indented by 4 more",
          rc == 0 and '\n    "attrs": {\n        "ifindex": %d\n    }\n}\n'
          % LO in out, out + err)
    objects = {"group": "electionctl group add", "peer": "electionctl peer add",
               "showconf": "electionctl showconf [",
               "show": "electionctl show [",
               "stats": "electionctl [ -s -s | -d ] stats [",
               "monitor": "electionctl [ -t | -ts ] monitor",
               "module": "electionctl module"}
    for obj, first in objects.items():
        pre = {"show": "show", "stats": "stat", "monitor": "mon",
               "module": "mod", "showconf": "showc"}.get(obj, obj[:2])
        for argv in ([obj, "help"], ["help", obj], ["help", pre]):
            rc, out, err = run(argv, dry=False)
            check(f"{' '.join(argv)}: the object's syntax on stdout",
                  rc == 0 and err == "" and out.startswith(first) and
                  "Exit status" not in out, f"rc={rc} {out!r} {err!r}")
    rc, out, err = run(["-V"], dry=False)
    lines = out.splitlines()
    ver = open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "..", "..", "VERSION")).read().strip()
    check("-V: the tool's version (VERSION) and the module's",
          rc == 0 and len(lines) == 2 and
          lines[0].startswith(f"electionctl {ver} ") and
          (lines[1].startswith("election.ko ") ), out)
    for argv, rc_want in [(["show", "dev", "nosuchdev0"], 1),
                          (["group", "frob"], 1), (["-x"], 1)]:
        rc, out, err = run(argv)
        check(f"exit 1 for a usage error: {' '.join(argv)}", rc == rc_want,
              f"rc={rc}")

    # -n NETNS: "dev" names a device of that namespace
    if os.geteuid() != 0 or not shutil.which("ip"):
        print("skip - -n tests need root and ip(8)")
        return
    ns = f"electl{os.getpid()}"
    if subprocess.run(["ip", "netns", "add", ns]).returncode != 0:
        print("skip - cannot create a network namespace: -n tests skipped")
        return
    try:
        made = subprocess.run(["ip", "-n", ns, "link", "add", "eltst0",
                               "type", "veth", "peer", "name", "eltst1"],
                              capture_output=True).returncode == 0
        if not made:
            print("skip - no veth here: -n device tests skipped")
        else:
            idx = int(subprocess.run(
                ["ip", "-n", ns, "-o", "link", "show", "eltst1"],
                capture_output=True, text=True).stdout.split(":")[0])
            request("-n NETNS: dev resolved in that namespace",
                    ["-n", ns, "show", "dev", "eltst1"], "group_get",
                    {"ifindex": idx}, dump=True)
            request("-netns NETNS (long form)",
                    ["-netns", ns, "show", "dev", "eltst1"], "group_get",
                    {"ifindex": idx}, dump=True)
            request("-n /var/run/netns/NETNS (a path)",
                    ["-n", f"/var/run/netns/{ns}", "show", "dev", "eltst1"],
                    "group_get", {"ifindex": idx}, dump=True)
            refused("without -n the device is not there",
                    ["show", "dev", "eltst1"], '"eltst1"')
        refused("-n with a file that is no namespace",
                ["-n", "/etc/hostname", "show"], '"/etc/hostname"')
    finally:
        subprocess.run(["ip", "netns", "del", ns])


def test_batch():
    """-batch FILE and showconf."""
    rc, out, err = run(["showconf"], dry=False, prog=ARGS.print_test)
    check("showconf: admin standby (configuration) as standby on, tracked "
          "standby (runtime state) never, whatever its value",
          rc == 0 and out.count(" standby on") == 1 and
          "quorum on standby on\n" in out and "standby-tracked" not in out,
          out)
    check("showconf: group add with the non-default settings, peer add, "
          "group start when started",
          rc == 0 and
          "# dev eth\\1 group 8\n"
          "group add dev eth\\1 group 8 id 4000000000 algo bully "
          "hb-interval 1s ask-suspect off "
          "preempt off preempt-delay 250ms quorum on standby on\n"
          "# dev eth\\1 group 9\n"
          "group add dev eth\\1 group 9 id 4000000000 algo ring pos 2 "
          "suppress off hb-interval 100ms hb-miss 5 timeout 100ms\n"
          "peer add dev eth\\1 group 9 id 1 lladdr 02:00:00:ab:cd:01 "
          "pos 4294967295\n"
          "peer add dev eth\\1 group 9 id 9 lladdr 02:00:00:ab:cd:09 "
          "pos 1\n" in out and
          "group add dev eth\\1 group 7 id 4000000000 algo bully "
          "timeout 100us coord-timeout 60s\n"
          in out and
          "group add dev eth\\1 group 11 id 4000000000 algo invitation"
          "\n" in out and
          out.endswith("group start dev eth\\1 group 12\n") and
          out.count("group start") == 1, out)
    request("showconf: a dump", ["showconf"], "group_get", {}, dump=True)
    request("algo: a dump", ["algo"], "algo_get", {}, dump=True)
    request("algo ring: by name", ["algo", "ring"], "algo_get", {"algo": 2})
    request("algo 7: by number", ["algo", "7"], "algo_get", {"algo": 7})
    refused("algo with an unknown name", ["algo", "nope"], '"nope"')
    refused("algo with an unknown number", ["algo", "200"], "200")
    refused("algo with two arguments", ["algo", "ring", "bully"], '"bully"')
    rc, out, err = run(["help", "keywords", "group-set"], dry=False)
    check("help keywords group-set: the options group set takes, the keys",
          rc == 0 and out == "dev group hb-interval hb-miss timeout "
          "coord-timeout ask-suspect preempt preempt-delay quorum "
          "search-interval detector detector-margin detector-max "
          "timeout-auto auth-window standby standby-tracked key-file key "
          "key-next-file key-next\n",
          out + err)
    rc, out, err = run(["help", "keywords", "group-add"], dry=False)
    check("help keywords group-add: the keys last (no key none, no "
          "key-next none)",
          rc == 0 and out.endswith(" auth-window standby standby-tracked "
                                   "key-file key-next-file\n"),
          out + err)
    refused("help keywords without a list", ["help", "keywords"],
            "group-add")
    refused("showconf with id", ["showconf", "id", "3"], '"id"')

    tmp = tempfile.mkdtemp()
    try:
        path = os.path.join(tmp, "setup.batch")
        with open(path, "w") as f:
            f.write("# a setup\n"
                    "\n"
                    "group add dev lo group 7 id 5 algo bully  # trailing\n"
                    "  peer add dev \"lo\" group 7 id 6 lladdr "
                    "02:00:00:00:00:06\n"
                    "group frob dev lo group 7\n"
                    "group start dev lo group 7\n")
        rc, out, err = run(["-batch", path])
        reqs = [json.loads(l) for l in out.splitlines()]
        check("-batch: an invalid line (5) found before any line runs: "
              "nothing sent, exit 1",
              rc == 1 and reqs == [] and
              err == f'Error: {path}:5: unknown subcommand "frob" for '
                     '"group" (add, set, del, delete, start, stop, elect, '
                     'show)\n', f"rc={rc} {out!r} {err!r}")
        rc, out, err = run(["-check", path])
        check("-check: the same error, nothing sent, exit 1",
              rc == 1 and out == "" and
              err.startswith(f"Error: {path}:5: unknown subcommand"),
              f"rc={rc} {out!r} {err!r}")
        good = os.path.join(tmp, "good.batch")
        with open(good, "w") as f:
            f.write("# a setup\n"
                    "\n"
                    "group add dev lo group 7 id 5 algo bully  # trailing\n"
                    "  peer add dev \"lo\" group 7 id 6 lladdr "
                    "02:00:00:00:00:06\n"
                    "group start dev lo group 7\n")
        rc, out, err = run(["-batch", good])
        reqs = [json.loads(l) for l in out.splitlines()]
        check("-batch: comments, blank lines and quotes; every line runs",
              rc == 0 and [r["cmd"] for r in reqs] ==
              ["group_new", "peer_add", "group_start"] and
              reqs[1]["attrs"]["peer_id"] == 6 and err == "",
              f"rc={rc} {out!r} {err!r}")
        for argv in (["-check", good], ["-ch", good], ["--check", good]):
            rc, out, err = run(argv, dry=False)
            check(f"{argv[0]} of a valid file: exit 0, nothing printed "
                  "or sent (no module needed)",
                  rc == 0 and out == "" and err == "",
                  f"rc={rc} {out!r} {err!r}")
        many = os.path.join(tmp, "many.batch")
        gk = os.path.join(tmp, "never.key")
        with open(many, "w") as f:
            f.write(f"genkey {gk}\n"
                    "group set dev lo group 7 hb-interval 5\n"
                    "group set dev lo group 7 key-file /nonexistent/k\n"
                    "show dev lo group 7 leader\n")
        rc, out, err = run(["-check", many], dry=False)
        check("-check: every invalid line reported (2, 3), genkey writes "
              "nothing, show prints nothing; exit 1",
              rc == 1 and out == "" and err.count("Error: ") == 2 and
              f"{many}:2: " in err and f"{many}:3: " in err and
              not os.path.exists(gk), f"rc={rc} {out!r} {err!r}")
        gk2 = os.path.join(tmp, "made.key")
        with open(many, "w") as f:
            f.write(f"genkey {gk2}\n"
                    f"group set dev lo group 7 key-file {gk2}\n")
        rc, out, err = run(["-check", many], dry=False)
        check("-check: a key file an earlier genkey line creates counts "
              "as created (nothing written)",
              rc == 0 and err == "" and not os.path.exists(gk2),
              f"rc={rc} {out!r} {err!r}")
        rc, out, err = run(["-batch", many], dry=False,
                           env={"ELECTIONCTL_DRY_RUN": "1"})
        check("-batch: then genkey writes it and key-file reads it",
              rc == 0 and os.path.exists(gk2) and '"key"' in out,
              f"rc={rc} {out!r} {err!r}")
        rc, out, err = run(["-check", many], dry=False)
        check("-check: genkey to a file that exists is invalid",
              rc == 1 and "File exists" in err and f"{many}:1: " in err,
              f"rc={rc} {out!r} {err!r}")
        with open(many, "w") as f:
            f.write("is-leader dev lo group 7\n")
        rc, out, err = run(["-check", many], dry=False)
        check("-check: is-leader refused in a batch (its answer is its "
              "status)", rc == 1 and "is-leader" in err,
              f"rc={rc} {out!r} {err!r}")
        fifo = os.path.join(tmp, "key.fifo")
        os.mkfifo(fifo)
        with open(many, "w") as f:
            f.write(f"group set dev lo group 7 key-file {fifo}\n")
        rc, out, err = run(["-check", many], dry=False)
        check("-check: a FIFO key file is not read while validating "
              "(no writer: a read would block)", rc == 0 and err == "",
              f"rc={rc} {out!r} {err!r}")
        for argv, token in [(["-check", good, "-force"], '"-force"'),
                            (["-start", "-check", good], '"-check"'),
                            (["-check", good, "-batch", good], "once"),
                            (["-check"], "argument")]:
            rc, out, err = run(argv, dry=False)
            check(f"refused: {' '.join(argv)}",
                  rc == 1 and out == "" and token in err,
                  f"rc={rc} {out!r} {err!r}")
        rc, out, err = run(["-force", "-batch", path])
        check("-force -batch: every line runs; exit 1",
              rc == 1 and [json.loads(l)["cmd"] for l in out.splitlines()]
              == ["group_new", "peer_add", "group_start"] and
              err.count("Error: ") == 1, f"rc={rc} {out!r} {err!r}")
        p = subprocess.run([ARGS.bin, "--dry-run", "-b", "-"],
                           input="group start dev lo group 7\n"
                                 "monitor\n", capture_output=True,
                           text=True)
        check("-b -: stdin; monitor refused in a batch, before line 1 ran",
              p.returncode == 1 and p.stdout == ""
              and p.stderr == 'Error: <stdin>:2: "monitor" cannot run in a '
                              'batch\n', f"{p.returncode} {p.stdout!r} "
                                         f"{p.stderr!r}")
        p = subprocess.run([ARGS.bin, "--dry-run", "-b", "-"],
                           input="group start dev lo group 7\n"
                                 "group stop dev lo group 7\n",
                           capture_output=True, text=True)
        check("-b -: stdin read once, validated, then run",
              p.returncode == 0 and
              [json.loads(l)["cmd"] for l in p.stdout.splitlines()] ==
              ["group_start", "group_stop"], f"{p.returncode} "
                                             f"{p.stdout!r} {p.stderr!r}")
        for text, why in [('group start dev "lo group 7\n',
                           "unterminated quote"),
                          ("group start dev lo\0 group 7\n",
                           "NUL byte in the line"),
                          ("x " * 200 + "\n", "too many words")]:
            p = subprocess.run([ARGS.bin, "--dry-run", "-batch", "-"],
                               input=text.encode(), capture_output=True)
            check(f"-batch: {why}",
                  p.returncode == 1 and p.stdout == b"" and
                  p.stderr.decode().startswith(f"Error: <stdin>:1: {why}"),
                  f"{p.returncode} {p.stderr!r}")
    finally:
        shutil.rmtree(tmp)
    refused("-batch: a missing file", ["-batch", "/nonexistent/x"],
            '"/nonexistent/x"')
    refused("-batch with a command", ["-batch", "-", "show"], '"show"')
    refused("-force without -batch", ["-force", "show"], '"-force"')
    refused("-start without -batch", ["-start", "show"], '"-start"')
    refused("-undo with -start", ["-undo", "-start", "-batch", "-"],
            '"-undo"')
    conf = ("group add dev lo gr 7 id 5 al bully  # abbreviated\n"
            "peer add dev lo group 7 id 6 lladdr 02:00:00:00:00:06\n"
            "group add group 8 dev lo id 5 algo ring\n")
    p = subprocess.run([ARGS.bin, "--dry-run", "-start", "-batch", "-"],
                       input=conf, capture_output=True, text=True)
    got = [(r["cmd"], r["attrs"].get("group")) for r in
           map(json.loads, p.stdout.splitlines())]
    check("-start -batch: the lines, then group start for each group added",
          p.returncode == 0 and got ==
          [("group_new", 7), ("peer_add", 7), ("group_new", 8),
           ("group_start", 7), ("group_start", 8)], f"{got} {p.stderr!r}")
    p = subprocess.run([ARGS.bin, "--dry-run", "-s", "-batch", "-"],
                       input=conf, capture_output=True, text=True)
    check("-s -batch is -start -batch",
          p.returncode == 0 and
          [(r["cmd"], r["attrs"].get("group")) for r in
           map(json.loads, p.stdout.splitlines())] == got, p.stderr)
    for argv in (["-s", "-s", "stats"], ["-d", "stats"], ["-details", "stats"],
                 ["--details", "stats", "dev", "lo", "group", "1"],
                 ["-s", "-j", "-s", "stats"]):
        rc, out, err = run(argv)
        check(f"{' '.join(argv)}: stats with every counter (-s without "
              f"-batch: as ip -s -s), the same request",
              rc == 0 and err == "" and
              json.loads(out)["cmd"] == "stats_get", f"rc={rc} {out!r} "
              f"{err!r}")
    p = subprocess.run([ARGS.bin, "--dry-run", "-undo", "-batch", "-"],
                       input=conf, capture_output=True, text=True)
    got = [(r["cmd"], r["attrs"].get("group")) for r in
           map(json.loads, p.stdout.splitlines())]
    check("-undo -batch: no line runs; group del for each group added, the "
          "last first",
          p.returncode == 0 and got == [("group_del", 8), ("group_del", 7)],
          f"{got} {p.stderr!r}")
    refused("-batch without a file", ["-batch"], '"-batch"')
    conf_start = conf + "group start dev lo group 8\n"
    p = subprocess.run([ARGS.bin, "--dry-run", "-start", "-batch", "-"],
                       input=conf_start, capture_output=True, text=True)
    got = [(r["cmd"], r["attrs"].get("group")) for r in
           map(json.loads, p.stdout.splitlines())]
    check("-start -batch of a file with group start lines: starts only "
          "the groups those lines start",
          p.returncode == 0 and got ==
          [("group_new", 7), ("peer_add", 7), ("group_new", 8),
           ("group_start", 8)], f"{got} {p.stderr!r}")
    test_syncconf()


def test_syncconf():
    """syncconf FILE: validated first, the file's model; without a module
    (--dry-run) the running configuration is empty, so every group is
    added."""
    tmp = tempfile.mkdtemp()

    def conf(name, text):
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def split(out):
        reqs = [json.loads(x) for x in out.splitlines() if x.startswith("{")]
        lines = [x for x in out.splitlines() if not x.startswith("{")]
        return reqs, lines

    try:
        good = conf("good.batch",
                    "# showconf's lines\n"
                    "group add dev lo group 7 id 5 algo bully "
                    "hb-interval 50ms timeout auto\n"
                    "peer add dev lo group 7 id 6 lladdr 02:00:00:00:00:06\n"
                    "group add dev lo gr 8 id 5 al ring pos 3\n"
                    "group set dev lo group 8 hb-miss 4\n"
                    "group start dev lo group 8\n")
        rc, out, err = run(["syncconf", good])
        reqs, lines = split(out)
        check("syncconf: reads the running configuration (a dump), then "
              "adds each group, its peers, starts the ones the file starts",
              rc == 0 and err == "" and
              [(r["cmd"], r["attrs"].get("group")) for r in reqs] ==
              [("group_get", None), ("group_new", 7), ("peer_add", 7),
               ("group_new", 8), ("group_start", 8)] and
              reqs[0]["dump"] and lines ==
              ["group add dev lo group 7 id 5 algo bully hb-interval 50ms "
               "timeout-auto on",
               "peer add dev lo group 7 id 6 lladdr 02:00:00:00:00:06",
               "group add dev lo group 8 id 5 algo ring pos 3 hb-miss 4",
               "group start dev lo group 8"],
              f"rc={rc} {out!r} {err!r}")
        check("syncconf: group set folded into the group's add",
              len(reqs) > 3 and reqs[3]["attrs"].get("hb_miss") == 4 and
              reqs[3]["attrs"].get("pos") == 3, f"{reqs}")
        rc, out, err = run(["syncconf", good, "dry-run"])
        reqs, lines = split(out)
        check("syncconf FILE dry-run: prints the commands, sends none",
              rc == 0 and [r["cmd"] for r in reqs] == ["group_get"] and
              len(lines) == 4, f"rc={rc} {out!r} {err!r}")
        nostart = conf("nostart.batch",
                       "group add dev lo group 7 id 5 algo bully\n"
                       "group add dev lo group 8 id 5 algo bully\n")
        rc, out, err = run(["syncconf", nostart])
        reqs, lines = split(out)
        check("syncconf of a file without group start lines: every group "
              "started (as -start)",
              rc == 0 and [(r["cmd"], r["attrs"].get("group"))
                           for r in reqs[1:]] ==
              [("group_new", 7), ("group_start", 7), ("group_new", 8),
               ("group_start", 8)], f"rc={rc} {out!r} {err!r}")
        for name, text, token in (
                ("an invalid line: nothing read, nothing sent",
                 "group add dev lo group 7 id 5 algo bully\n"
                 "group add dev lo group 8 id 5 algo bully hb-miss 0\n",
                 ":2: invalid hb-miss \"0\""),
                ("a line that is not showconf's",
                 "group add dev lo group 7 id 5 algo bully\n"
                 "group elect dev lo group 7\n",
                 ':2: syncconf takes the lines showconf writes'),
                ("a peer of a group the file does not add",
                 "group add dev lo group 7 id 5 algo bully\n"
                 "peer add dev lo group 9 id 6 lladdr 02:00:00:00:00:06\n",
                 ":2: peer add for dev lo group 9, which no group add line "
                 "above adds"),
                ("a group added twice",
                 "group add dev lo group 7 id 5 algo bully\n"
                 "group add dev lo group 7 id 6 algo ring\n",
                 ":2: dev lo group 7 is added twice"),
                ("a key on a group set line",
                 "group add dev lo group 7 id 5 algo bully\n"
                 "group set dev lo group 7 key none\n",
                 ":2: syncconf: give the key on the group add line"),
                ("a placeholder key file",
                 "group add dev lo group 7 id 5 algo bully key-file "
                 "/etc/election/CHANGE-ME-lo-7.key\n",
                 ':1: invalid key-file "/etc/election/CHANGE-ME-lo-7.key"')):
            path = conf("bad.batch", text)
            refused(f"syncconf: {name}", ["syncconf", path],
                    f"{path}{token}")
        refused("syncconf without a file", ["syncconf"], '"syncconf"')
        refused("syncconf FILE and an unknown word",
                ["syncconf", good, "now"], '"now"')
        refused("syncconf of a missing file", ["syncconf", "/nonexistent/x"],
                '"/nonexistent/x"')
        inner = conf("inner.batch", f"syncconf {good}\n")
        refused("syncconf in a batch", ["-batch", inner], "syncconf")
    finally:
        shutil.rmtree(tmp)
    test_syncconf_model()


def test_syncconf_model():
    """syncconf against running groups modelled as the kernel keeps and
    reports them (sync-test): an option whose 0 means a value worked out
    from the others (coord-timeout, search-interval, detector-margin,
    detector-max) and that the running group has pinned at the value its
    old options give is reported alike, so it is compared with the value
    the file's options give; one syncconf then leaves the group as a fresh
    -batch of the file would (showconf equal) and a second sends
    nothing."""
    tmp = tempfile.mkdtemp()

    def conf(name, text):
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def sync(have, want):
        rc, out, err = run([have, want], dry=False, prog=ARGS.sync_test)
        return rc, out.splitlines(), err

    def showconf(path):
        return run(["showconf", path], dry=False, prog=ARGS.sync_test)

    peer = "peer add dev lo group 7 id 6 lladdr 02:00:00:00:00:06\n"
    cases = (
        ("timeout changed, coord-timeout pinned at 4 x the old timeout: "
         "coord-timeout 4 x the new one (it cannot be set back to 0)",
         "group add dev lo group 7 id 5 algo bully timeout 100ms "
         "coord-timeout 400ms\n",
         "group add dev lo group 7 id 5 algo bully timeout 50ms\n",
         ["group set dev lo group 7 timeout 50ms coord-timeout 200ms "
          "timeout-auto off"]),
        ("hb-interval changed, search-interval pinned at the old "
         "hb-interval x hb-miss: search-interval 0 (worked out again)",
         "group add dev lo group 7 id 5 algo invitation hb-interval 20ms "
         "search-interval 60ms detector-margin 20ms detector-max 600ms\n",
         "group add dev lo group 7 id 5 algo invitation hb-interval 10ms\n",
         ["group set dev lo group 7 hb-interval 10ms search-interval 0 "
          "detector-margin 0 detector-max 0"]),
        ("hb-interval changed, detector-margin and detector-max pinned at "
         "the old values: both 0",
         "group add dev lo group 7 id 5 algo bully detector adaptive "
         "detector-margin 20ms detector-max 600ms\n",
         "group add dev lo group 7 id 5 algo bully hb-interval 10ms "
         "detector adaptive\n",
         ["group set dev lo group 7 hb-interval 10ms detector-margin 0 "
          "detector-max 0"]),
        ("hb-miss changed, detector-max worked out: detector-max 0",
         "group add dev lo group 7 id 5 algo bully hb-miss 4\n",
         "group add dev lo group 7 id 5 algo bully\n",
         ["group set dev lo group 7 hb-miss 3 detector-max 0"]),
        ("coord-timeout pinned at the value the file's timeout gives: "
         "nothing",
         "group add dev lo group 7 id 5 algo bully timeout 100ms "
         "coord-timeout 400ms\n",
         "group add dev lo group 7 id 5 algo bully timeout 100ms\n",
         []),
        ("standby-tracked on in the running group (track's), the file "
         "without: nothing (syncconf leaves runtime state)",
         "group add dev lo group 7 id 5 algo bully standby-tracked on\n",
         "group add dev lo group 7 id 5 algo bully\n",
         []),
        ("admin standby in the file: standby on alone, standby-tracked "
         "left as it is",
         "group add dev lo group 7 id 5 algo bully standby-tracked on\n",
         "group add dev lo group 7 id 5 algo bully standby on\n",
         ["group set dev lo group 7 standby on"]),
        ("admin standby in the group, not in the file: standby off",
         "group add dev lo group 7 id 5 algo ring standby on\n",
         "group add dev lo group 7 id 5 algo ring\n",
         ["group set dev lo group 7 standby off"]),
        ("coord-timeout the file pins, the group works out: nothing",
         "group add dev lo group 7 id 5 algo bully timeout 100ms\n",
         "group add dev lo group 7 id 5 algo bully timeout 100ms "
         "coord-timeout 400ms\n",
         []),
    )
    try:
        for i, (name, have, want, lines) in enumerate(cases):
            have_p = conf(f"have{i}.batch", have + peer)
            want_p = conf(f"want{i}.batch", want + peer)
            rc, got, err = sync(have_p, want_p)
            check(f"syncconf model: {name}",
                  rc == 0 and err == "" and got == lines,
                  f"rc={rc} {got!r} {err!r}, want {lines!r}")
            after = conf(f"after{i}.batch",
                         have + peer + "".join(x + "\n" for x in got))
            rc, got, err = sync(after, want_p)
            check(f"syncconf model, again: nothing to send ({name})",
                  rc == 0 and err == "" and got == [],
                  f"rc={rc} {got!r} {err!r}")
            a, b = showconf(after), showconf(want_p)
            check(f"syncconf model: showconf after one syncconf is the "
                  f"one of a fresh -batch of the file ({name})",
                  a[0] == 0 and a == b, f"{a!r} != {b!r}")
        # a group the file adds: its standby-tracked is not sent either
        have_p = conf("have-add.batch",
                      "group add dev lo group 7 id 5 algo bully\n" + peer)
        want_p = conf("want-add.batch",
                      "group add dev lo group 7 id 5 algo bully "
                      "standby-tracked on\n" + peer +
                      "group add dev lo group 8 id 5 algo bully "
                      "standby-tracked on standby on\n")
        rc, got, err = sync(have_p, want_p)
        lines = ["group add dev lo group 8 id 5 algo bully standby on",
                 "group start dev lo group 8"]
        check("syncconf model: standby-tracked in the file is never sent "
              "(a group it adds gets standby on alone; a running one "
              "nothing)", rc == 0 and err == "" and got == lines,
              f"rc={rc} {got!r} {err!r}, want {lines!r}")
    finally:
        shutil.rmtree(tmp)


def test_keys():
    """key-file PATH and key none: the key file's formats, that the key is
    never printed (requests, errors, batch errors), the mode warning and
    showconf's placeholder."""
    lo = {"ifindex": LO, "group": 7}
    secret = bytes(range(0x41, 0x51))            # "ABCDEFGHIJKLMNOP"
    secret_hex = secret.hex()
    hidden = "hidden, 16 bytes"
    set_ = ["group", "set", "dev", "lo", "group", "7"]
    tmp = tempfile.mkdtemp()

    def keyfile(name, data, mode=0o600):
        path = os.path.join(tmp, name)
        with open(path, "wb") as f:
            f.write(data)
        os.chmod(path, mode)
        return path

    secret2 = bytes(range(0x61, 0x71))           # "abcdefghijklmnop"

    def leaks(text):
        low = text.lower()
        return (secret.decode() in text or secret_hex in low or
                "4142434445" in low or secret2.decode() in text or
                secret2.hex() in low or "6162636465" in low)

    try:
        raw = keyfile("raw.key", secret)
        good = {
            "16 raw bytes": raw,
            "32 hex digits and a newline": keyfile(
                "hex.key", secret_hex.encode() + b"\n"),
            "32 hex digits, no newline": keyfile("hexnonl.key",
                                                 secret_hex.encode()),
            "32 upper-case hex digits, CRLF and blanks": keyfile(
                "hexup.key", secret_hex.upper().encode() + b"  \r\n\n"),
            "16 raw bytes that are blanks and newlines": keyfile(
                "blanks.key", b"\n" * 8 + b" " * 8),
        }
        for what, path in good.items():
            for argv, cmd, want in [
                    (base_add(["key-file", path]), "group_new",
                     dict(lo, node_id=5, algo=1, key=hidden)),
                    (set_ + ["key-file", path], "group_set",
                     dict(lo, key=hidden))]:
                rc, out, err = run(argv)
                request(f"{argv[1]} key-file: {what}", argv, cmd, want)
                check(f"{argv[1]} key-file: {what}: the key is not printed",
                      not leaks(out + err), out + err)
        request("group set key none: only a key change",
                set_ + ["key", "none"], "group_set", dict(lo, key_none=True))
        request("group set key-f (abbreviated key-file)",
                set_ + ["key-f", raw], "group_set", dict(lo, key=hidden))
        request("group set with timing and a key",
                set_ + ["hb-interval", "1ms", "key-file", raw],
                "group_set", dict(lo, hb_interval_ns=1000000, key=hidden))
        refused("group set k: key-file or key", set_ + ["k", "none"],
                '"k"')

        bad = {
            "15 bytes": keyfile("b15.key", secret[:15]),
            "17 bytes (raw key and a newline)": keyfile("b17.key",
                                                        secret + b"\n"),
            "empty": keyfile("empty.key", b""),
            "31 hex digits": keyfile("h31.key", secret_hex[:31].encode()
                                     + b"\n"),
            "33 hex digits": keyfile("h33.key", secret_hex.encode()
                                     + b"a\n"),
            "32 characters, not hex": keyfile(
                "nothex.key", b"g" + secret_hex[1:].encode() + b"\n"),
            "hex then a word": keyfile("junk.key", secret_hex.encode()
                                       + b" x\n"),
            "two lines of hex": keyfile("two.key", (secret_hex + "\n")
                                        .encode() * 2),
            "a large file": keyfile("big.key", secret * 1000),
        }
        for what, data in [("16 zero bytes", bytes(16)),
                           ("32 zero hex digits", b"0" * 32 + b"\n")]:
            path = keyfile("zero%d.key" % len(data), data)
            for argv in [base_add(["key-file", path]),
                         set_ + ["key-file", path]]:
                refused(f"{argv[1]} key-file: {what}", argv,
                        f'key-file "{path}": an all-zero key is refused')
        for what, path in bad.items():
            for argv in [base_add(["key-file", path]),
                         set_ + ["key-file", path]]:
                refused(f"{argv[1]} key-file: {what}", argv,
                        f'key-file "{path}": expected exactly 16 raw bytes,'
                        f' or 32 hex digits')
                rc, out, err = run(argv)
                check(f"{argv[1]} key-file: {what}: the content is not "
                      f"printed", not leaks(err), err)
        refused("key-file: a missing file",
                set_ + ["key-file", os.path.join(tmp, "nonexistent")],
                "nonexistent\": cannot open: No such file or directory")
        refused("key-file: a directory", set_ + ["key-file", tmp],
                f'"{tmp}": is a directory')
        refused("key-file: an empty name", set_ + ["key-file", ""],
                '"": empty file name')
        if os.geteuid() != 0:
            unreadable = keyfile("noread.key", secret, 0o000)
            refused("key-file: an unreadable file",
                    set_ + ["key-file", unreadable],
                    "cannot open: Permission denied")
        refused("key-file and key none together",
                set_ + ["key-file", raw, "key", "none"],
                "key-file and key none exclude each other")
        refused("key none on group add", base_add(["key", "none"]),
                "key none applies to group set only")
        for v in ["None", "off", "", raw]:
            refused(f"key {v!r}: only none", set_ + ["key", v], f'"{v}"')
        refused("key-file on group del",
                ["group", "del", "dev", "lo", "group", "7", "key-file", raw],
                '"key-file"')
        refused("key-file twice",
                set_ + ["key-file", raw, "key-file", raw],
                'duplicate keyword "key-file"')
        refused("group set without a change names the keys' keywords",
                set_, "detector-max, timeout-auto, auth-window, standby, "
                "standby-tracked, key-file, key, key-next-file, key-next\n")
        request("--unchecked: a 15-byte key and key none are sent",
                ["--unchecked"] + set_ + ["key-file", bad["15 bytes"],
                                          "key", "none"],
                "group_set", dict(lo, key="hidden, 15 bytes", key_none=True))

        # the second key: key-next-file PATH, key-next none
        raw2 = keyfile("next.key", secret2)
        hex2 = keyfile("next-hex.key", secret2.hex().encode() + b"\n")
        for what, path in [("16 raw bytes", raw2),
                           ("32 hex digits and a newline", hex2)]:
            for argv, cmd, want in [
                    (set_ + ["key-next-file", path], "group_set",
                     dict(lo, key_next=hidden)),
                    (base_add(["key-file", raw, "key-next-file", path]),
                     "group_new",
                     dict(lo, node_id=5, algo=1, key=hidden,
                          key_next=hidden))]:
                rc, out, err = run(argv)
                request(f"{argv[1]} key-next-file: {what}", argv, cmd, want)
                check(f"{argv[1]} key-next-file: {what}: no key printed",
                      not leaks(out + err), out + err)
        request("group set key-next none: only the second key dropped",
                set_ + ["key-next", "none"], "group_set",
                dict(lo, key_next_none=True))
        request("group set key-file and key-next none (promote, then drop "
                "the old key)", set_ + ["key-file", raw2, "key-next", "none"],
                "group_set", dict(lo, key=hidden, key_next_none=True))
        request("group set key-file and key-next-file (both keys anew)",
                set_ + ["key-next-file", raw2, "key-file", raw],
                "group_set", dict(lo, key=hidden, key_next=hidden))
        request("group set key none and key-next none (key none drops "
                "both anyway)", set_ + ["key", "none", "key-next", "none"],
                "group_set", dict(lo, key_none=True, key_next_none=True))
        request("group set key-next-f (abbreviated key-next-file)",
                set_ + ["key-next-f", raw2], "group_set",
                dict(lo, key_next=hidden))
        request("group set key- stays key-file (the older keyword)",
                set_ + ["key-", raw], "group_set", dict(lo, key=hidden))
        refused("group set key-n: key-next-file or key-next",
                set_ + ["key-n", "none"], '"key-n"')
        refused("key-next-file and key-next none together",
                set_ + ["key-next-file", raw2, "key-next", "none"],
                "key-next-file and key-next none exclude each other")
        refused("key-next-file with key none",
                set_ + ["key", "none", "key-next-file", raw2],
                "key none removes both keys: not with key-next-file")
        refused("key-next none on group add",
                base_add(["key-file", raw, "key-next", "none"]),
                "key-next none applies to group set only")
        refused("key-next-file with the key key-file gives (raw and hex)",
                set_ + ["key-file", raw, "key-next-file",
                        keyfile("same-hex.key", secret_hex.encode())],
                "key-next-file holds the key key-file gives")
        refused("key-next-file on group add without key-file",
                base_add(["key-next-file", raw2]),
                "a second key needs a key")
        for v in ["None", "off", "", raw2]:
            refused(f"key-next {v!r}: only none", set_ + ["key-next", v],
                    f'"{v}"')
        refused("key-next-file twice",
                set_ + ["key-next-file", raw2, "key-next-file", raw2],
                'duplicate keyword "key-next-file"')
        refused("key-next-file on peer add",
                ["peer", "add", "dev", "lo", "group", "7", "id", "3",
                 "lladdr", "02:00:00:00:00:03", "key-next-file", raw2],
                '"key-next-file"')
        for what, data in [("16 zero bytes", bytes(16)),
                           ("32 zero hex digits", b"0" * 32 + b"\n")]:
            path = keyfile("nzero%d.key" % len(data), data)
            for argv in [base_add(["key-file", raw, "key-next-file", path]),
                         set_ + ["key-next-file", path]]:
                refused(f"{argv[1]} key-next-file: {what}", argv,
                        f'key-next-file "{path}": an all-zero key is '
                        f'refused')
        for what in ["17 bytes (raw key and a newline)", "31 hex digits",
                     "a large file"]:
            path = bad[what]
            argv = set_ + ["key-next-file", path]
            refused(f"group set key-next-file: {what}", argv,
                    f'key-next-file "{path}": expected exactly 16 raw '
                    f'bytes, or 32 hex digits')
            rc, out, err = run(argv)
            check(f"group set key-next-file: {what}: the content is not "
                  f"printed", not leaks(err), err)
        refused("key-next-file: a missing file",
                set_ + ["key-next-file", os.path.join(tmp, "nonexistent")],
                "nonexistent\": cannot open: No such file or directory")
        request("--unchecked: a 15-byte second key and key-next none are "
                "sent", ["--unchecked"] + set_ + ["key-next-file",
                                                  bad["15 bytes"],
                                                  "key-next", "none"],
                "group_set", dict(lo, key_next="hidden, 15 bytes",
                                  key_next_none=True))
        request("--unchecked: group add key-next-file without key-file is "
                "sent (the kernel refuses it)",
                ["--unchecked"] + base_add(["key-next-file", raw2]),
                "group_new", dict(lo, node_id=5, algo=1, key_next=hidden))
        loose = keyfile("loose-next.key", secret2, 0o644)
        rc, out, err = run(set_ + ["key-next-file", loose])
        check("key-next-file mode 0644: the key-file warning, the request "
              "sent",
              rc == 0 and json.loads(out)["attrs"].get("key_next") == hidden
              and err == f'Warning: key file "{loose}" is readable or '
                         f'writable by group or others (mode 0644): '
                         f'chmod 600 it\n'
              and not leaks(out + err), f"rc={rc} {out!r} {err!r}")
        batch = keyfile("next.batch",
                        f"group set dev lo group 7 key-next-file "
                        f"{bad['33 hex digits']}\n".encode())
        rc, out, err = run(["-batch", batch])
        check("-batch: a bad key-next-file: FILE:LINE and the file's name "
              "only",
              rc == 1 and out == "" and
              err.startswith(f"Error: {batch}:1: invalid key-next-file ") and
              err.count("\n") == 1 and not leaks(err), f"rc={rc} {err!r}")

        for mode in [0o644, 0o640, 0o604, 0o620]:
            loose = keyfile(f"loose{mode:o}.key", secret, mode)
            rc, out, err = run(set_ + ["key-file", loose])
            check(f"key-file mode {mode:04o}: a warning, the request sent",
                  rc == 0 and json.loads(out)["attrs"].get("key") == hidden
                  and err == f'Warning: key file "{loose}" is readable or '
                             f'writable by group or others (mode '
                             f'{mode:04o}): chmod 600 it\n'
                  and not leaks(out + err), f"rc={rc} {out!r} {err!r}")
        for mode in [0o600, 0o400]:
            path = keyfile(f"tight{mode:o}.key", secret, mode)
            rc, out, err = run(set_ + ["key-file", path])
            check(f"key-file mode {mode:04o}: no warning",
                  rc == 0 and err == "", err)

        # -batch: errors name FILE:LINE, never a line's words or the key
        batch = keyfile("setup.batch",
                        f"group set dev lo group 7 key-file "
                        f"{bad['33 hex digits']}\n".encode())
        rc, out, err = run(["-batch", batch])
        check("-batch: a bad key file: FILE:LINE and the file's name only",
              rc == 1 and out == "" and
              err.startswith(f"Error: {batch}:1: invalid key-file ") and
              err.count("\n") == 1 and not leaks(err), f"rc={rc} {err!r}")

        # showconf of a keyed group: the placeholder fails until edited
        rc, conf, err = run(["showconf"], dry=False, prog=ARGS.print_test)
        placeholder = "/etc/election/CHANGE-ME-eth\\1-12.key"
        comment = ("# auth on: the kernel never returns keys; replace the "
                   "placeholder\n# after key-file with the path of this "
                   "group's key file (the same\n# key as on the group's "
                   "other nodes)\n"
                   "# auth-next on: a key rotation was under way; its "
                   "second key is not recreated\n")
        check("showconf: auth on, auth-next on: the comments (the second "
              "key's a line, no placeholder), then key-file and a "
              "placeholder on the group add line",
              rc == 0 and
              "# dev eth\\1 group 12\n" + comment +
              "group add dev eth\\1 group 12 id 4000000000 algo bully "
              "detector adaptive detector-margin 1ms detector-max 30ms "
              f"timeout-auto on key-file {placeholder}\n" in conf and
              sum("key-file" in x for x in conf.splitlines()
                  if not x.startswith("#")) == 1 and
              conf.count(comment) == 1 and conf.count("auth-next") == 1 and
              "key-next" not in conf and
              not os.path.exists(placeholder), conf)
        check("showconf: auth off: no key-file",
              "group add dev eth\\1 group 8 id 4000000000 algo bully "
              "hb-interval 1s ask-suspect off "
              "preempt off preempt-delay 250ms quorum on standby on\n" in conf, conf)
        section = conf[conf.index("# dev eth\\1 group 12\n"):]
        section = section.replace("dev eth\\1 group", "dev lo group")
        path = keyfile("conf.batch", section.encode())
        rc, out, err = run(["-batch", path])
        line = section.splitlines().index(
            next(x for x in section.splitlines()
                 if x.startswith("group add"))) + 1
        check("-batch of showconf's output: stops at the placeholder with "
              "the file's error",
              rc == 1 and out == "" and
              err == f'Error: {path}:{line}: invalid key-file '
                     f'"{placeholder}": cannot open: No such file or '
                     f'directory\n', f"rc={rc} {out!r} {err!r}")
        path = keyfile("edited.batch",
                       section.replace(placeholder, raw).encode())
        rc, out, err = run(["-batch", path])
        reqs = [json.loads(x) for x in out.splitlines()]
        check("-batch of showconf's output, the key file filled in: runs, "
              "the key hidden",
              rc == 0 and err == "" and
              [r["cmd"] for r in reqs] ==
              ["group_new", "peer_add", "peer_add", "peer_add",
               "group_start"] and
              reqs[0]["attrs"].get("key") == hidden and not leaks(out),
              f"rc={rc} {out!r} {err!r}")
        path = keyfile("placeholder.batch", section.encode())
        rc, out, err = run(["-check", path], dry=False)
        check("-check of showconf's output: the placeholder is refused "
              "with FILE:LINE (a restore applies nothing)",
              rc == 1 and out == "" and
              err.startswith(f'Error: {path}:{line}: invalid key-file '
                             f'"{placeholder}"'), f"rc={rc} {out!r} {err!r}")

        # showconf keydir DIR: key-file DIR/IF-G.key, a restore runs once
        # the key is copied there
        keydir = os.path.join(tmp, "keys")
        rc, conf, err = run(["showconf", "keydir", keydir], dry=False,
                            prog=ARGS.print_test)
        kpath = f"{keydir}/eth\\1-12.key"
        check("showconf keydir DIR: key-file DIR/IF-G.key, its comment",
              rc == 0 and
              f"timeout-auto on key-file {kpath}\n" in conf and
              "# auth on: the kernel never returns keys; a copy of this "
              "group's key\n" in conf and "CHANGE-ME" not in conf,
              f"rc={rc} {conf!r} {err!r}")
        section = conf[conf.index("# dev eth\\1 group 12\n"):]
        section = section.replace("dev eth\\1 group", "dev lo group")
        path = keyfile("keydir.batch", section.encode())
        rc, out, err = run(["-check", path], dry=False)
        check("showconf keydir: -check refuses the file while the key is "
              "not in DIR", rc == 1 and kpath in err, f"rc={rc} {err!r}")
        os.mkdir(keydir)
        keyfile("keys/eth\\1-12.key", secret_hex.encode() + b"\n")
        rc, out, err = run(["-batch", path])
        reqs = [json.loads(x) for x in out.splitlines()]
        check("showconf keydir: with the key copied to DIR/IF-G.key the "
              "file runs, the key hidden",
              rc == 0 and err == "" and
              [r["cmd"] for r in reqs] ==
              ["group_new"] + ["peer_add"] * section.count("\npeer add ") +
              ["group_start"] and section.count("\npeer add ") >= 2 and
              reqs[0]["attrs"].get("key") == hidden and not leaks(out),
              f"rc={rc} {out!r} {err!r}")
    finally:
        shutil.rmtree(tmp)
    request("showconf keydir DIR dev lo: the dump, filtered by dev",
            ["showconf", "keydir", "/etc/election/keys", "dev", "lo"],
            "group_get", {"ifindex": LO}, dump=True)
    refused("showconf keydir: a relative path",
            ["showconf", "keydir", "keys"], '"keys"')
    refused("showconf keydir twice",
            ["showconf", "keydir", "/a", "keydir", "/b"], '"keydir"')
    refused("showconf keydir without a value", ["showconf", "keydir"],
            '"keydir"')
    p = subprocess.run([ARGS.bin, "--dry-run", "-batch", "-"],
                       input="showconf keydir /etc/election/a dev lo\n"
                             "showconf keydir /etc/election/b\n",
                       capture_output=True, text=True)
    got = [(r["cmd"], r["dump"], r["attrs"]) for r in
           map(json.loads, p.stdout.splitlines())]
    check("-batch with two showconf keydir lines: each line its own "
          "keydir (no duplicate keyword)",
          p.returncode == 0 and p.stderr == "" and
          got == [("group_get", True, {"ifindex": LO}),
                  ("group_get", True, {})], f"{got} {p.stderr!r}")

    rc, out, err = run(["group", "help"], dry=False)
    check("group help: key-file (and key-next-file) on add, key-file or "
          "key none and key-next-file or key-next none on set",
          "                      [ key-file PATH [ key-next-file PATH ] ]\n"
          "electionctl group set" in out and
          "[ key-file PATH | key none ]\n" in out and
          "[ key-next-file PATH | key-next none ]\n" in out, out)
    rc, out, err = run(["peer", "help"], dry=False)
    check("peer help: peer reset",
          "electionctl peer reset dev IF group G id ID\n" in out, out)
    rc, out, err = run(["help"], dry=False)
    check("help: the key file's format", "32 hex digits" in out and
          "mode 0600" in out, out)


def test_peer_reset():
    """peer reset dev IF group G id ID: forget a peer's replay counters."""
    lo = {"ifindex": LO, "group": 7}
    reset = ["peer", "reset", "dev", "lo", "group", "7"]
    request("peer reset", reset + ["id", "3"], "peer_reset",
            dict(lo, peer_id=3))
    for sub in ["r", "res"]:
        request(f"peer {sub} (abbreviated reset)",
                ["peer", sub, "dev", "lo", "group", "7", "id", "3"],
                "peer_reset", dict(lo, peer_id=3))
    request("peer reset: the largest id", reset + ["id", "4294967295"],
            "peer_reset", dict(lo, peer_id=4294967295))
    refused("peer reset without id", reset,
            'missing required keyword "id" for "peer reset"')
    refused("peer reset without dev",
            ["peer", "reset", "group", "7", "id", "3"],
            'missing required keyword "dev" for "peer reset"')
    for v in ["0", "4294967296", "x"]:
        refused(f"peer reset id {v!r}", reset + ["id", v], f'"{v}"')
    for kw, v in [("lladdr", "02:00:00:00:00:03"), ("pos", "2"),
                  ("key-file", "/dev/null")]:
        refused(f"peer reset with {kw}", reset + ["id", "3", kw, v],
                f'"{kw}"')
    refused("unknown peer subcommand: reset is listed",
            ["peer", "frob"], "add, del, delete, reset, show")
    request("--unchecked: peer reset id 0 is sent (the kernel refuses it)",
            ["--unchecked"] + reset + ["id", "0"], "peer_reset",
            dict(lo, peer_id=0))
    rc, out, err = run(["help"], dry=False)
    check("help: peer reset described", "peer reset forgets the peer's "
          "replay counters" in out, out)


def test_detector():
    """detector fixed|adaptive, detector-margin, detector-max: words,
    ranges, group add and set; "d" and "de" stay dev."""
    lo = {"ifindex": LO, "group": 7}
    add = ["group", "add", "dev", "lo", "group", "7", "id", "5", "algo"]
    gset = ["group", "set", "dev", "lo", "group", "7"]
    for algo, num in [("bully", 1), ("ring", 2), ("invitation", 7)]:
        request(f"group add detector adaptive, algo {algo}",
                add + [algo, "detector", "adaptive", "detector-margin",
                       "2ms", "detector-max", "50ms"],
                "group_new", dict(lo, node_id=5, algo=num, detector=1,
                                  detector_margin_ns=2000000,
                                  detector_max_ns=50000000))
    request("group set detector fixed", gset + ["detector", "fixed"],
            "group_set", dict(lo, detector=0))
    request("group set detector-margin 0 (the default)",
            gset + ["detector-margin", "0"], "group_set",
            dict(lo, detector_margin_ns=0))
    for v in ["adapt", "Adaptive", "fixed ", "", "1", "0"]:
        refused(f"detector {v!r}: not a word", gset + ["detector", v],
                "expected fixed or adaptive")
    for kw in ["detector-margin", "detector-max"]:
        for d in ["99us", "61s", "5", "-1ms"]:
            refused(f"{kw} {d!r}", gset + [kw, d], f'"{d}"')
    refused("detector not valid for peer add",
            ["peer", "add", "dev", "lo", "group", "7", "id", "3", "lladdr",
             "02:00:00:00:00:03", "detector", "fixed"], '"detector"')
    # a fixed precedence: the keywords users learned first keep their
    # prefixes (dev), the detector keywords give way
    for pre in ["d", "de"]:
        request(f"{pre!r} is still dev beside detector",
                ["group", "set", pre, "lo", "group", "7", "detector",
                 "adaptive"], "group_set", dict(lo, detector=1))
    refused("det: ambiguous among the detector keywords",
            gset + ["det", "fixed"], "detector, detector-margin, detector-max")
    request("detector-max: whole",
            gset + ["detector-max", "40ms"], "group_set",
            dict(lo, detector_max_ns=40000000))
    request("detector-mar: detector-margin",
            gset + ["detector-mar", "3ms"], "group_set",
            dict(lo, detector_margin_ns=3000000))
    # timeout auto: what timeout-auto on says; a duration alone is sent
    # alone (the kernel turns auto off for it)
    request("timeout auto", gset + ["timeout", "auto"], "group_set",
            dict(lo, timeout_auto=1))
    request("timeout-auto on", gset + ["timeout-auto", "on"], "group_set",
            dict(lo, timeout_auto=1))
    request("timeout 5ms: the duration alone", gset + ["timeout", "5ms"],
            "group_set", dict(lo, timeout_ns=5000000))
    request("group add timeout auto",
            add + ["bully", "timeout", "auto", "hb-interval", "1ms"],
            "group_new", dict(lo, node_id=5, algo=1, timeout_auto=1,
                              hb_interval_ns=1000000))
    refused("timeout auto and timeout-auto: one of them",
            gset + ["timeout", "auto", "timeout-auto", "off"],
            'duplicate keyword "timeout-auto"')
    refused("timeout auto, then timeout 5ms: timeout twice",
            gset + ["timeout", "auto", "timeout", "5ms"],
            'duplicate keyword "timeout"')
    refused("timeout 5ms, then timeout auto: timeout twice",
            gset + ["timeout", "5ms", "timeout", "auto"],
            'duplicate keyword "timeout"')
    request("timeout-auto on with an initial timeout",
            gset + ["timeout-auto", "on", "timeout", "5ms"], "group_set",
            dict(lo, timeout_auto=1, timeout_ns=5000000))
    for v in ["Auto", "aut", "automatic", "auto "]:
        refused(f"timeout {v!r}: neither a duration nor auto",
                gset + ["timeout", v], f'"{v}"')
    rc, out, err = run(["help", "keywords", "words"])
    check("help keywords words: detector and its words",
          rc == 0 and out.strip() == "detector fixed adaptive", out + err)


def test_one_value():
    """show dev IF group G leader|role|term asks for one instance and
    prints that value alone; is-leader asks the same and answers with its
    exit status: 0 leads, 1 does not, 2 on any error (a usage error
    included, since 1 means "no")."""
    for field in ["leader", "role", "term"]:
        request(f"show dev lo group 7 {field}",
                ["show", "dev", "lo", "group", "7", field], "group_get",
                {"ifindex": LO, "group": 7})
        refused(f"show group 7 {field}: needs dev and group",
                ["show", "group", "7", field], '"dev" and "group"')
        refused(f"show dev lo {field}: needs dev and group",
                ["show", "dev", "lo", field], '"dev" and "group"')
    request("is-leader dev lo group 7",
            ["is-leader", "dev", "lo", "group", "7"], "group_get",
            {"ifindex": LO, "group": 7})
    request("i abbreviates is-leader",
            ["i", "dev", "lo", "group", "7"], "group_get",
            {"ifindex": LO, "group": 7})
    for argv, token in [(["is-leader", "dev", "lo"], '"dev" and "group"'),
                        (["is-leader", "group", "7"], '"dev" and "group"'),
                        (["is-leader", "dev", "lo", "group", "0"], "0"),
                        (["is-leader", "dev", "lo", "group", "7", "x"],
                         '"x"')]:
        rc, out, err = run(argv)
        check(f"is-leader {' '.join(argv[1:])}: exit 2 (1 means no)",
              rc == 2 and out == "" and token in err and
              err.startswith("Error: "), f"rc={rc} {out!r} {err!r}")
    # after an even count of words the last one is a value, not a field
    refused("show dev leader: a device named leader, not the field",
            ["show", "dev", "leader"], '"leader"')
    # a word that is no field stays an error of show, as before
    refused("show dev lo group 7 leaderx", ["show", "dev", "lo", "group",
                                            "7", "leaderx"], '"leaderx"')
    # without the module: the error, exit 2
    rc, out, err = run(["is-leader", "dev", "lo", "group", "7"], dry=False)
    check("is-leader without the module: exit 2", rc == 2 and out == "",
          f"rc={rc} {out!r} {err!r}")


def test_genkey():
    """genkey [FILE]: 32 hex digits and a newline that key-file takes, a
    new key each time; FILE created with mode 0600, never overwritten;
    "g" still means group, "ge" genkey."""
    tmp = tempfile.mkdtemp()
    try:
        keys = []
        for i in range(2):
            rc, out, err = run(["genkey"], dry=False)
            keys.append(out)
            check(f"genkey: 32 hex digits and a newline ({i})",
                  rc == 0 and re.fullmatch(r"[0-9a-f]{32}\n", out) is not None
                  and out.strip("0\n") != "", f"rc={rc} {out!r} {err!r}")
        check("genkey: a new key each time", keys[0] != keys[1], keys)
        path = os.path.join(tmp, "g7.key")
        rc, out, err = run(["ge", path], dry=False)
        st = os.stat(path) if os.path.exists(path) else None
        check("ge FILE: created with mode 0600, nothing printed",
              rc == 0 and st is not None and (st.st_mode & 0o777) == 0o600
              and out == "" and err == "", f"rc={rc} {out!r} {err!r}")
        with open(path) as f:
            first = f.read()
        request("the file genkey wrote is a key-file key",
                ["group", "set", "dev", "lo", "group", "7", "key-file", path],
                "group_set", {"ifindex": LO, "group": 7,
                              "key": "hidden, 16 bytes"})
        rc, out, err = run(["genkey", path], dry=False)
        with open(path) as f:
            check("genkey FILE: an existing file is not overwritten",
                  rc == 2 and "File exists" in err and f.read() == first,
                  f"rc={rc} {err!r}")
        rc, out, err = run(["genkey", path + "2", "x"], dry=False)
        check("genkey FILE x: refused, nothing created",
              rc == 1 and '"x"' in err and not os.path.exists(path + "2"),
              f"rc={rc} {err!r}")
        loose = os.path.join(tmp, "loose.key")
        with open(loose, "w") as f:
            os.chmod(loose, 0o644)
            p = subprocess.run([ARGS.bin, "genkey"], stdout=f,
                               capture_output=False, stderr=subprocess.PIPE)
        check("genkey > a file others may read: a warning",
              p.returncode == 0 and b"umask 077" in p.stderr, p.stderr)
    finally:
        shutil.rmtree(tmp)
    request("g stays group (genkey shares the prefix)",
            ["g", "show"], "group_get", {}, dump=True)
    batch = tempfile.NamedTemporaryFile("w", suffix=".batch", delete=False)
    batch.write("g add dev lo group 7 id 1 algo bully\n")
    batch.close()
    rc, out, err = run(["-undo", "-batch", batch.name])
    os.unlink(batch.name)
    check("-undo: a batch's \"g add\" line is a group add it undoes",
          rc == 0 and '"cmd": "group_del"' in out, f"{out!r} {err!r}")
    rc, out, err = run(["help"], dry=False)
    check("help: genkey and the prefix rule",
          "electionctl genkey [ FILE ]" in out and '"g" is "group"' in out,
          out)


def family_present():
    return os.path.exists("/sys/module/election")


def test_no_module():
    if family_present():
        print("skip - election.ko is loaded here: no-module tests skipped")
        return
    for argv in [["show"], ["-j", "stats"], ["module"], ["monitor"],
                 ["group", "start", "dev", "lo", "group", "1"]]:
        rc, out, err = run(argv, dry=False)
        check(f"without the module: {' '.join(argv)} fails clearly",
              rc == 2 and out == "" and
              err == 'Error: generic netlink family "election" not found '
                     '(is election.ko loaded?)\n', f"rc={rc} {err!r}")


def test_json_writer():
    p = subprocess.run([ARGS.json_test], capture_output=True, text=True)
    lines = p.stdout.splitlines()
    oks = [l for l in lines if l.startswith("ok ")]
    bad = [l for l in lines if l.startswith("not ok ")]
    for l in bad:
        check(f"json-test: {l}", False)
    check(f"json-test: {len(oks)} writer cases", p.returncode == 0 and
          not bad and len(oks) >= 20, p.stdout[-300:])


def test_netlink():
    rc, out, err = run(["doit"], dry=False, prog=ARGS.nl_test)
    check("nl-test doit: one reply then the ack",
          rc == 0 and out == "family nlctrl 16\nreplies 1\n" and err == "",
          f"rc={rc} {out!r} {err!r}")
    rc, out, err = run(["dump"], dry=False, prog=ARGS.nl_test)
    lines = out.splitlines()
    check("nl-test dump: every family, then a doit on the same socket",
          rc == 0 and "family nlctrl 16" in lines and len(lines) >= 4
          and lines[-2] == "family nlctrl 16" and lines[-1] == "replies 1"
          and f"replies {len(lines) - 3}" in lines and err == "",
          f"rc={rc} {out!r} {err!r}")
    for mode in ["extack", "extack-uncapped"]:
        rc, out, err = run([mode], dry=False, prog=ARGS.nl_test)
        check(f"nl-test {mode}: the kernel's message is printed",
              rc == 2 and out == "" and err.startswith("Error: ")
              and err.count("\n") == 1
              and "policy" in err.lower(), f"rc={rc} {err!r}")
    rc, out, err = run(["missing"], dry=False, prog=ARGS.nl_test)
    if rc == 77:
        print("skip - no \"netdev\" genl family: missing-attribute test "
              "skipped")
    else:
        check("nl-test missing: a missing attribute is named",
              rc == 2 and out == "" and err ==
              "Error: Invalid argument (missing attribute ifindex)\n",
              f"rc={rc} {err!r}")
    rc, out, err = run(["enoent"], dry=False, prog=ARGS.nl_test)
    check("nl-test enoent: strerror when the kernel gives no message",
          rc == 2 and out == "" and
          err == "Error: No such file or directory\n", f"rc={rc} {err!r}")


def test_monitor_printer():
    rc, out, err = run(["json"], dry=False, prog=ARGS.monitor_test)
    try:
        got = [json.loads(l) for l in out.splitlines()]
    except ValueError:
        got = []

    def ev(name, seq, leader, peer=None):
        return {"ts_ns": 1234567890123, "seq": seq, "event": name,
                "ifname": 'veth"0', "ifindex": 1, "group": 7, "id": 5,
                "peer": peer, "leader": leader, "term": 3, "role": None}

    def gap(n):
        return {"event": "gap", "lost": n}

    want = [ev("leader_changed", 5, 5), ev("election_started", 6, None),
            gap(2), ev("peer_down", 9, None, 3), ev("peer_up", 10, None, 3),
            gap(3), ev("stopped", 14, None), gap(-1),
            ev("leader_changed", 20, 7),
            ev("election_started", 1, None), gap(1),
            ev("leader_changed", 3, 5), ev("leader_changed", 2, 5),
            ev("leader_changed", 3, 5), ev("peer_up", 4, 5, 9), gap(1),
            ev("peer_down", 6, 5, 9), gap(1), ev("event_99", 8, 5)]
    check("monitor -j: events, seq gaps, ENOBUFS gaps",
          rc == 0 and got == want, f"rc={rc}\n{out}")
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            check(f"monitor -j line {i + 1}", False, f"got {g} want {w}")
            break
    rc, out, err = run(["filter", "json"], dry=False, prog=ARGS.monitor_test)
    try:
        got = [json.loads(l) for l in out.splitlines()]
    except ValueError:
        got = []
    check("monitor filter: group 7 only, its events up to the snapshot's "
          "seq not repeated; roles; gaps counted across groups",
          rc == 0 and [(g.get("event"), g.get("seq"), g.get("role"),
                        g.get("lost")) for g in got] ==
          [("leader_changed", 7, "leader", None), ("gap", None, None, 1),
           ("stopped", 10, "stopped", None)], out + err)
    rc, out, err = run(["filter", "text"], dry=False, prog=ARGS.monitor_test)
    check("monitor filter text: role at the end of the line",
          rc == 0 and out.splitlines()[0] ==
          '[1234.567890123] seq 7 leader_changed dev veth"0 group 7 id 5 '
          'leader 5 term 3 role leader', out)
    tmp = tempfile.mkdtemp()
    try:
        log = os.path.join(tmp, "hook.log")
        rc, out, err = run(["hooks", log], dry=False,
                           prog=ARGS.monitor_test)
        runs = open(log).read().splitlines() if os.path.exists(log) else []
        check("monitor exec: one run per role change, in order, with the "
              "event in the environment; a new leader without a new role "
              "runs nothing",
              rc == 0 and runs ==
              ['leader_changed veth"0 7 5 none 3 follower none 1',
               'election_started veth"0 7 5 none 3 candidate follower 3',
               'leader_changed veth"0 7 5 5 3 leader candidate 4',
               'stopped veth"0 7 5 none 3 stopped leader 6'],
              f"rc={rc} {runs} {err!r}")
        out = "".join(l + "\n" for l in out.splitlines()
                      if not l.startswith("["))
        check("monitor exec: a waiting change of the same instance is "
              "replaced (keeping the role the hook last saw), a change back "
              "cancels it",
              "ran, dropped 0\n"
              "replaced: queued 1 role 3 prev 0 seq 8 dropped 1\n"
              "cancelled: queued 0 dropped 3\n" in out, out)
        check("monitor exec: 70 instances for 64 places: the oldest waiting "
              "change dropped (the latest runs), counted and reported",
              "queued 64 dropped 6 last-seq 79 first-seq 16\n"
              "exec_dropped: 6 role changes not run (superseded, or the "
              "hook's queue was full)\n" in out, out)
        m = re.search(r"^timeout: (\S+) after (\d+) ms$", out, re.M)
        check("monitor exec: a hook past hook-timeout (200 ms) is killed",
              m is not None and m.group(1) == "killed" and
              150 <= int(m.group(2)) < 3000, out + err)
    finally:
        shutil.rmtree(tmp)
    tmp = tempfile.mkdtemp()
    try:
        log = os.path.join(tmp, "hook.log")
        rc, out, err = run(["term", log], dry=False, prog=ARGS.monitor_test)
        runs = open(log).read().splitlines() if os.path.exists(log) else []
        check("monitor SIGTERM: the events queued on the socket are read "
              "and printed, their hooks run to the end, exit 0",
              rc == 0 and [l.split()[3] for l in out.splitlines()
                           if l.startswith("[")] == ["leader_changed",
                                                     "stopped"] and
              out.endswith("loop 0 jobs 0 child 0\n") and runs ==
              ["start leader_changed leader none", "end leader_changed",
               "start stopped stopped leader", "end stopped"],
              f"rc={rc} {out!r} {err!r} {runs}")
        open(log, "w").close()
        rc, out, err = run(["term-again", log], dry=False,
                           prog=ARGS.monitor_test)
        runs = open(log).read().splitlines()
        check("monitor SIGTERM twice: the running hook killed, the monitor "
              "dies of the signal",
              rc == -signal.SIGTERM and "loop" not in out and
              runs == ["start leader_changed leader none"] and
              err == 'Warning: signal 15 again: hook "/bin/sh" killed '
                     '(seq 1)\n', f"rc={rc} {out!r} {err!r} {runs}")
    finally:
        shutil.rmtree(tmp)
    rc, out, err = run(["insts"], dry=False, prog=ARGS.monitor_test)
    check("monitor: a full table of instances forgets those last seen "
          "stopped, not the leader; it does not grow",
          rc == 0 and [l for l in out.splitlines()
                       if not l.startswith("[")] ==
          ["full: 16 of 16", "after: 2 of 16, group 1 role 3, group 115 role 3"],
          out + err)
    rc, out, err = run(["clockoff"], dry=False, prog=ARGS.monitor_test)
    m = re.fullmatch(r"offset (\d+), one read (\d+)\n", out)
    check("monitor -t: the offset between the clocks from the closest of "
          "three reads: one preempted between its reads is no clock step",
          rc == 0 and m is not None and
          abs(int(m.group(1)) - 10**12) <= 2000 and
          abs(int(m.group(2)) - 10**12) > 1000000, out + err)
    rc, out, err = run(["hookwait"], dry=False, prog=ARGS.monitor_test)
    check("monitor: the wait for a hook ends at its next signal; after "
          "SIGKILL there is none (its pidfd tells when it ends; without "
          "one, every 20 ms), no busy loop",
          rc == 0 and out ==
          "5 s left: pidfd 5001, none 20\n"
          "overdue: pidfd 0, none 0\n"
          "SIGTERM sent, 5 s left: pidfd 5001, none 20\n"
          "SIGKILL sent: pidfd -1, none 20\n"
          "none: pidfd -1, none -1\n", out + err)
    request_mon = run(["-j", "monitor", "dev", "lo", "group", "7", "exec",
                       "/bin/echo", "dev", "x"])
    check("monitor dev lo group 7 exec CMD ARG...: filters, and everything "
          "after exec is the command",
          request_mon[0] == 0 and json.loads(request_mon[1]) ==
          {"family": "election", "mcgrp": "events", "cmd": "monitor",
           "ifindex": LO, "group": 7, "exec": ["/bin/echo", "dev", "x"]},
          str(request_mon))
    request_mon = run(["-j", "monitor", "leader_changed", "group", "7",
                       "peer_down", "exit-on-reload", "exec", "stopped"])
    check("monitor leader_changed peer_down exit-on-reload: event words "
          "and the option word among the keywords, before exec",
          request_mon[0] == 0 and json.loads(request_mon[1]) ==
          {"family": "election", "mcgrp": "events", "cmd": "monitor",
           "group": 7, "events": ["leader_changed", "peer_down"],
           "exit_on_reload": True, "exec": ["stopped"]}, str(request_mon))
    request_mon = run(["-j", "monitor", "e", "x"])
    check("monitor e CMD: \"e\" is still exec",
          request_mon[0] == 0 and json.loads(request_mon[1]).get("exec") ==
          ["x"], str(request_mon))
    refused("monitor with an unknown event word", ["monitor", "bogus"],
            "election_started, leader_changed, peer_up, peer_down or "
            "stopped")
    refused("monitor exec without a command", ["monitor", "exec"], '"exec"')
    refused("monitor with an unknown keyword", ["monitor", "id", "3"],
            '"id"')
    rc, out, err = run(["types", "json"], dry=False, prog=ARGS.monitor_test)
    try:
        got = [json.loads(l) for l in out.splitlines()]
    except ValueError:
        got = []
    check("monitor leader_changed stopped: only those printed; the others "
          "still count for the gaps",
          rc == 0 and [(g.get("event"), g.get("seq"), g.get("lost"))
                       for g in got] ==
          [("leader_changed", 1, None), ("gap", None, 1),
           ("leader_changed", 5, None), ("stopped", 7, None)], out + err)
    rc, out, err = run(["ts"], dry=False, prog=ARGS.monitor_test,
                       env=dict(os.environ, TZ="UTC"))
    times = re.findall(r"^\[([-0-9T:.]+)\] \[", out, re.M)
    check("monitor -ts: one time per kernel timestamp while the clocks' "
          "offset jitters, a clock step forward followed, never back for "
          "later timestamps after a step back",
          rc == 0 and times ==
          ["2027-01-15T08:00:00.000101", "2027-01-15T08:00:00.000101",
           "2027-01-15T08:00:00.001101", "2027-01-15T08:00:05.002100",
           "2027-01-15T08:00:05.002100", "2027-01-15T08:00:05.002100"],
          out + err)
    tmp = tempfile.mkdtemp()
    try:
        log = os.path.join(tmp, "hook.log")
        rc, out, err = run(["reload", "json", log], dry=False,
                           prog=ARGS.monitor_test)
        runs = open(log).read().splitlines() if os.path.exists(log) else []
        got = []
        for l in out.splitlines():
            try:
                got.append(json.loads(l))
            except ValueError:
                got.append(l)
        short = [(g.get("event"), g.get("seq"), g.get("lost"),
                  g.get("family")) if isinstance(g, dict) else g
                 for g in got]
        check("monitor: the module unloaded and loaded again: family_gone, "
              "the old family's events dropped, family_back, the new "
              "family's group joined and its events from seq 1 without a "
              "gap line; exit-on-reload exits once the hooks ran",
              rc == 0 and short ==
              [("leader_changed", 1, None, None), ("peer_up", 2, None, None),
               ("family_gone", None, None, "election"),
               ("family_back", None, None, "election"),
               "rejoin: family 43 group 9",
               ("leader_changed", 1, None, None), ("gap", None, 1, None),
               ("peer_up", 3, None, None),
               ("family_gone", None, None, "election"),
               "exiting 1 jobs 1 family 43"], out + err)
        check("monitor exec across a reload: each instance the hook saw in "
              "a role runs as family_gone (role stopped, leader none), "
              "then with the new module's role",
              runs == ["leader_changed 7 5 3 leader none 1",
                       "peer_up 8 9 3 follower none 2",
                       "family_gone 7 none 3 stopped leader 2",
                       "family_gone 8 none 3 stopped follower 2",
                       "leader_changed 7 5 3 leader stopped 1",
                       "family_gone 7 none 3 stopped leader 3"],
              f"{runs} {err!r}")
        rc, out, err = run(["reload", "text", log], dry=False,
                           prog=ARGS.monitor_test)
        check("monitor: family_gone and family_back text lines",
              'family_gone: generic netlink family "election" unregistered '
              '(election.ko unloaded): every instance stopped\n'
              'family_back: generic netlink family "election" registered '
              'again (election.ko loaded)\n' in out, out)
    finally:
        shutil.rmtree(tmp)
    rc, out, err = run(["json"], dry=False, prog=ARGS.monitor_test)
    check("monitor: malformed event skipped with a warning",
          err == "Warning: malformed event skipped\n", repr(err))
    check("monitor -j: gap line shape",
          '{"event": "gap", "lost": 2}' in out.splitlines(), out)
    rc, out, err = run(["text"], dry=False, prog=ARGS.monitor_test)
    lines = out.splitlines()
    check("monitor text lines",
          rc == 0 and len(lines) == len(want) and lines[0] ==
          '[1234.567890123] seq 5 leader_changed dev veth"0 group 7 id 5 '
          'leader 5 term 3' and lines[2] == "gap: 2 events lost" and
          lines[3].endswith("peer_down dev veth\"0 group 7 id 5 peer 3 "
                            "leader none term 3") and
          lines[7] == "gap: events lost (count unknown)" and
          lines[10] == "gap: 1 events lost", out)


def test_printers():
    rc, out, err = run(["json"], dry=False, prog=ARGS.print_test)
    lines = out.splitlines()
    try:
        show, stats = json.loads(lines[0]), json.loads(lines[1])
        peer_show, peer_show2 = json.loads(lines[2]), json.loads(lines[3])
    except (ValueError, IndexError):
        check("print-test output is JSON", False, out + err)
        return
    # each peer: when it was last heard, and from which address
    heard = show.pop()
    hp = heard.get("peers", [])
    check("-j show: a peer heard 12.345678 ms ago from its lladdr",
          hp[:1] == [{"id": 1, "lladdr": "02:00:00:ab:cd:01", "alive": True,
                      "pos": None, "heard_ms_ago": 12,
                      "heard_ns_ago": 12345678,
                      "seen_lladdr": "02:00:00:ab:cd:01",
                      "lladdr_mismatch": False,
                      "detect_window_ns": 2500000, "rtt_ns": 150000}],
          lines[0])
    check("-j show: a peer never heard, its frames from another address: "
          "lladdr_mismatch",
          hp[1:2] == [{"id": 2, "lladdr": "02:00:00:ab:cd:01",
                       "alive": False, "pos": None, "heard_ms_ago": None,
                       "heard_ns_ago": None,
                       "seen_lladdr": "52:54:00:12:34:56",
                       "lladdr_mismatch": True,
                       "detect_window_ns": 60000000, "rtt_ns": None}],
          lines[0])
    check("-j show: a peer heard 17.456789012 s ago: the ns as they came",
          hp[2:] == [{"id": 3, "lladdr": "02:00:00:ab:cd:01", "alive": True,
                      "pos": None, "heard_ms_ago": 17456,
                      "heard_ns_ago": 17456789012, "seen_lladdr": None,
                      "lladdr_mismatch": False,
                      "detect_window_ns": 60000000, "rtt_ns": None}],
          lines[0])
    new_keys = {"heard_ms_ago": None, "heard_ns_ago": None,
                "seen_lladdr": None, "lladdr_mismatch": False,
                "detect_window_ns": None, "rtt_ns": None}
    check("-j show: the new peer keys are null (false) without the "
          "attributes",
          all(all(p.get(k, 0) == v for k, v in new_keys.items())
              for x in show for p in x["peers"]), lines[0])
    check("-j show: admin_up after participant",
          list(heard.keys())[7:10] == ["term", "participant", "admin_up"],
          lines[0])
    check("-j show: auth true (a key is set) after quorum and the "
          "detector's options; no key in it",
          heard.get("auth") is True and
          list(heard.keys())[18:29] == ["quorum", "detector",
                                        "detector_margin_ns",
                                        "detector_max_ns", "timeout_auto",
                                        "auth_window_ns", "standby",
                                        "standby_tracked", "auth",
                                        "auth_next", "mtu"] and
          not any("key" in k for k in heard), lines[0])
    check("-j show: detector as its word, its margin and ceiling in ns",
          (heard.get("detector"), heard.get("detector_margin_ns"),
           heard.get("detector_max_ns"), heard.get("timeout_auto")) ==
          ("adaptive", 1000000, 30000000, True), lines[0])
    det_keys = ["detector", "detector_margin_ns", "detector_max_ns",
                "timeout_auto", "auth_window_ns"]
    check("-j show: the detector's keys null without the attributes",
          all(x.get(k, 0) is None for x in show for k in det_keys),
          lines[0])
    check("-j show: auth false from the attribute, absent without",
          [x.get("auth", "absent") for x in show] ==
          ["absent"] * 2 + [False] + ["absent"] * 8, lines[0])
    check("-j show: auth_next true after auth (a second key), false from "
          "the attribute, absent without (an older module)",
          heard.get("auth_next") is True and
          [x.get("auth_next", "absent") for x in show] ==
          ["absent"] * 2 + [False] + ["absent"] * 8, lines[0])
    check("-j show: admin_up true from the attribute, null without",
          heard.get("admin_up") is True and
          all(x.get("admin_up", 0) is None for x in show), lines[0])
    check("-j show: standby and standby_tracked, booleans from the "
          "attributes (admin and tracked standby apart), null without",
          (heard.get("standby"), heard.get("standby_tracked")) ==
          (False, True) and
          [(x.get("standby", 0), x.get("standby_tracked", 0))
           for x in show] ==
          [(None, None)] * 2 + [(True, True)] + [(None, None)] * 8,
          lines[0])
    for x in show:
        x.pop("admin_up", None)
        x.pop("standby", None)
        x.pop("standby_tracked", None)
        for k in det_keys:
            x.pop(k, None)
        x["peers"] = [dict((k, v) for k, v in p.items() if k not in new_keys)
                      for p in x["peers"]]
    inst = {"ifname": "eth\\1", "ifindex": 3}
    check("-j peer show: one object per peer, the instance's keys first",
          [(p["group"], p["node"], p["id"]) for p in peer_show] ==
          [(7, 4000000000, 1), (7, 4000000000, 9), (7, 4000000000, 11),
           (12, 4000000000, 1), (12, 4000000000, 2),
           (12, 4000000000, 3)] and
          list(peer_show[0].keys()) ==
          ["ifname", "ifindex", "group", "node", "id", "lladdr", "alive",
           "pos", "heard_ms_ago", "heard_ns_ago", "seen_lladdr",
           "lladdr_mismatch", "detect_window_ns", "rtt_ns"] and
          peer_show[4] == dict(inst, group=12, node=4000000000, **hp[1]),
          lines[2])
    check("-j peer show id 2: only that peer",
          peer_show2 == [dict(inst, group=12, node=4000000000, **hp[1])],
          lines[3])
    # a reply without POS attributes (an older kernel) prints pos null
    peers = [{"id": 1, "lladdr": "02:00:00:ab:cd:01", "alive": True,
              "pos": None},
             {"id": 9, "lladdr": "02:00:00:ab:cd:09", "alive": False,
              "pos": None},
             {"id": 11, "lladdr": "02:00:00:ab:cd:0b", "alive": True,
              "pos": None}]
    common = {"ifname": "eth\\1", "ifindex": 3, "group": 7, "id": 4000000000,
              "algo": "bully"}
    # ... and, without the Bully options, null for each
    want0 = dict(common, role="candidate", leader=None, term=12,
                 participant=True, hb_interval_ns=20000000, hb_miss=3,
                 timeout_ns=100000, coord_timeout_ns=60000000000,
                 pos=None, ask_suspect=None, preempt=None,
                 preempt_delay_ns=None, quorum=None, mtu=None, lladdr=None,
                 peers=peers)
    want_opts = dict(common, group=8, role="leader", leader=4000000000,
                     term=1, participant=False, hb_interval_ns=1000000000,
                     hb_miss=3, timeout_ns=10000000,
                     coord_timeout_ns=40000000, pos=4000000000,
                     ask_suspect=False, preempt=False,
                     preempt_delay_ns=250000000, quorum=True, auth=False,
                     auth_next=False, mtu=None, lladdr=None, peers=[])
    want1 = dict(want0, role="follower", leader=4000000001,
                 participant=False)
    ring_peers = [{"id": 1, "lladdr": "02:00:00:ab:cd:01", "alive": True,
                   "pos": 4294967295},
                  {"id": 9, "lladdr": "02:00:00:ab:cd:09", "alive": True,
                   "pos": 1}]
    want_ring = dict(common, group=9, algo="ring", role="leader",
                     leader=4000000000, term=3, participant=False,
                     hb_interval_ns=100000000, hb_miss=5,
                     timeout_ns=100000000, coord_timeout_ns=400000000,
                     pos=2, suppress=False, ask_suspect=True,
                     preempt=True, preempt_delay_ns=0, quorum=False,
                     mtu=1500,
                     lladdr="02:e1:00:00:00:2a", peers=ring_peers)
    want_ring_on = dict(want_ring, suppress=True)
    want_list = dict(want_ring, algo="ring-list")
    del want_list["suppress"]
    check("-j show: keys and values (leader null when 0)",
          rc == 0 and show[:2] == [want0, want1], lines[0])
    check("-j show: ask_suspect false, preempt false, preempt_delay_ns, "
          "quorum true",
          show[2:3] == [want_opts], lines[0])
    check("-j show: ring: pos, suppress false/true, peers' pos, "
          "the Bully options' defaults",
          show[3:5] == [want_ring, want_ring_on], lines[0])
    check("-j show: ring-list: pos, no suppress key",
          show[5:6] == [want_list], lines[0])
    var_peers = [{"id": 1, "lladdr": "02:00:00:ab:cd:01", "alive": True,
                  "pos": 1},
                 {"id": 2, "lladdr": "02:00:00:ab:cd:02", "alive": False,
                  "pos": 2}]
    want_min = dict(common, group=10, algo="min-bully", role="follower",
                    leader=1, term=4, participant=False,
                    hb_interval_ns=20000000, hb_miss=3, timeout_ns=10000000,
                    coord_timeout_ns=40000000, pos=4000000000,
                    ask_suspect=False, preempt=True,
                    preempt_delay_ns=5000000, quorum=False, mtu=9000,
                    lladdr="02:e1:00:00:00:05", peers=var_peers)
    want_enh = dict(want_min, algo="enh-bully", leader=4000000000)
    want_new = dict(want_min, algo="algo_8", leader=None)
    check("-j show: min-bully and enh-bully: algo names, the options, "
          "no suppress key",
          show[6:8] == [want_min, want_enh] and
          all("suppress" not in x for x in show[6:8]), lines[0])
    check("-j show: an unknown algorithm prints as algo_N",
          show[8:9] == [want_new], lines[0])
    inv_peers = [{"id": 3, "lladdr": None, "alive": True, "pos": 3,
                  "member": True},
                 {"id": 9, "lladdr": None, "alive": True, "pos": 9,
                  "member": True},
                 {"id": 12, "lladdr": None, "alive": True, "pos": 12,
                  "member": False}]
    want_inv = dict(common, group=11, algo="invitation", role="follower",
                    leader=9, term=5, participant=False,
                    hb_interval_ns=20000000, hb_miss=3, timeout_ns=10000000,
                    coord_timeout_ns=40000000, pos=4000000000,
                    ask_suspect=True, preempt=True, preempt_delay_ns=0,
                    quorum=False, inv_seq=5, inv_coordinator=9,
                    members=[3, 9, 4000000000],
                    search_interval_ns=60000000, mtu=None, lladdr=None,
                    peers=inv_peers)
    want_inv0 = dict(want_inv, role="candidate", leader=None, term=0,
                     participant=True, inv_seq=0, inv_coordinator=None,
                     members=[],
                     peers=[dict(x, member=False) for x in inv_peers])
    check("-j show: invitation: inv_seq, inv_coordinator, members (the "
          "local id among them), search_interval_ns; each peer's member",
          show[9:] == [want_inv, want_inv0], lines[0])
    check("-j show: invitation key order",
          len(show) == 11 and list(show[9].keys()) ==
          ["ifname", "ifindex", "group", "id", "algo", "role", "leader",
           "term", "participant", "hb_interval_ns", "hb_miss", "timeout_ns",
           "coord_timeout_ns", "pos", "ask_suspect", "preempt",
           "preempt_delay_ns", "quorum", "inv_seq", "inv_coordinator",
           "members",
           "search_interval_ns", "mtu", "lladdr", "peers"] and
          list(show[9]["peers"][0].keys()) ==
          ["id", "lladdr", "alive", "pos", "member"], lines[0])
    check("-j show: peer key order",
          list(heard["peers"][0].keys()) ==
          ["id", "lladdr", "alive", "pos", "heard_ms_ago", "heard_ns_ago",
           "seen_lladdr", "lladdr_mismatch", "detect_window_ns", "rtt_ns"],
          lines[0])
    check("-j show: key order (pos, suppress, options before peers)",
          list(show[3].keys()) ==
          ["ifname", "ifindex", "group", "id", "algo", "role", "leader",
           "term", "participant", "hb_interval_ns", "hb_miss", "timeout_ns",
           "coord_timeout_ns", "pos", "suppress", "ask_suspect", "preempt",
           "preempt_delay_ns", "quorum", "mtu", "lladdr", "peers"] and
          list(show[3]["peers"][0].keys()) == ["id", "lladdr", "alive", "pos"],
          lines[0])
    check("-j show: dump filter drops other devices and groups",
          len(show) == 11, lines[0])
    want_stats = [dict(common,
                       tx={"election": 2, "answer": 0, "coordinator": 0,
                           "heartbeat": 18446744073709551615, "ack": 7,
                           "retry": 3, "query": 0, "cid": 0, **INV0,
                           "msg_15": 5},
                       rx={"election": 0, "answer": 0, "coordinator": 0,
                           "heartbeat": 0, "ack": 0, "retry": 0,
                           "query": 0, "cid": 0, **INV0},
                       drops={"malformed": 0, "wrong_group": 0,
                              "wrong_algo": 0, "unknown_peer": 0,
                              "stale_term": 4, "wrong_dst": 0, "stopped": 1,
                              "queue_full": 8, "term_too_far": 0,
                              "wrong_lladdr": 0, "auth_missing": 0,
                              "auth_bad": 6, "auth_truncated": 0,
                              "auth_replay": 2, "auth_unexpected": 0,
                              "auth_clock": 0},
                       elections=6, leader_changes=2, tx_errors=1,
                       tx_drops={"mtu": 1, "no_buffer": 0, "dev_xmit": 0},
                       elections_limited=3, quorum_lost=2,
                       detect_deferred=4, suspicions=9, false_suspicions=3,
                       timer_late=None)]
    late = [0] * 22
    late[0], late[3], late[21] = 5, 7, 1
    want_stats.append(dict(want_stats[0],
                           timer_late={"buckets": late,
                                       "max_ns": 2000000000, "count": 13}))
    check("-j stats: every type and reason, 0 when absent, newer types kept;"
          " timer_late null when absent, else 22 buckets, max_ns, count",
          stats[:2] == want_stats, lines[1])
    zero_drops = dict((k, 0) for k in want_stats[0]["drops"])
    want_var = dict(common, group=10, algo="min-bully",
                    tx={"election": 1, "answer": 0, "coordinator": 2,
                        "heartbeat": 40, "ack": 0, "retry": 0, "query": 3,
                        "cid": 4, **INV0},
                    rx={"election": 0, "answer": 1, "coordinator": 0,
                        "heartbeat": 0, "ack": 0, "retry": 0, "query": 5,
                        "cid": 6, **dict(INV0, alive=9), "msg_15": 7},
                    drops=dict(zero_drops, malformed=2),
                    elections=1, leader_changes=1, tx_errors=0,
                    tx_drops={"mtu": 0, "no_buffer": 0, "dev_xmit": 0},
                    elections_limited=0, quorum_lost=0, detect_deferred=0,
                    suspicions=0, false_suspicions=0, timer_late=None)
    check("-j stats: min-bully, enh-bully: query and cid in tx and rx, "
          "alive, type 15 msg_15, absent nests, quorum_lost and detect_deferred all 0",
          stats[2:4] == [want_var, dict(want_var, algo="enh-bully")],
          lines[1])
    every_msg = dict((k, 0) for k in want_var["tx"])
    want_keyless = dict(common, group=21, tx=dict(every_msg, election=3,
                                                  heartbeat=5),
                        rx=every_msg,
                        drops=dict(zero_drops, wrong_lladdr=1,
                                   auth_unexpected=2),
                        elections=0, leader_changes=0, tx_errors=0,
                        tx_drops={"mtu": 0, "no_buffer": 0, "dev_xmit": 0},
                        elections_limited=0, quorum_lost=0,
                        detect_deferred=0, suspicions=0, false_suspicions=0,
                        timer_late=None)
    check("-j stats: every key, 0 or not, whatever the algorithm, key and "
          "quorum (the text lists fewer)",
          stats[4:] == [want_keyless,
                        dict(want_keyless, group=22, algo="ring"),
                        dict(want_keyless, group=27, algo="invitation")],
          lines[1])
    check("-j stats: tx and rx key order: query, cid, then invitation's "
          "types after retry, unknown types last",
          len(stats) == 7 and
          list(stats[2]["tx"].keys()) ==
          ["election", "answer", "coordinator", "heartbeat", "ack", "retry",
           "query", "cid", "ayc", "ayc_reply", "invite", "accept",
           "ready", "alive"] and
          list(stats[2]["rx"].keys())[-3:] == ["ready", "alive", "msg_15"],
          lines[1])
    check("-j stats: timer_late key order",
          len(stats) == 7 and isinstance(stats[1]["timer_late"], dict) and
          list(stats[1]["timer_late"].keys()) ==
          ["buckets", "max_ns", "count"], lines[1])
    check("-j stats: ack and retry (tx, rx), queue_full (drops)",
          len(stats) == 7 and stats[0]["tx"].get("ack") == 7
          and stats[0]["tx"].get("retry") == 3
          and stats[0]["rx"].get("ack") == 0
          and stats[0]["rx"].get("retry") == 0
          and stats[0]["drops"].get("queue_full") == 8, lines[1])
    check("-j stats: key order", list(stats[0].keys()) ==
          ["ifname", "ifindex", "group", "id", "algo", "tx", "rx", "drops",
           "elections", "leader_changes", "tx_errors", "tx_drops",
           "elections_limited", "quorum_lost", "detect_deferred",
           "suspicions", "false_suspicions", "timer_late"], lines[1])

    rc, out, err = run(["text"], dry=False, prog=ARGS.print_test)
    want = ("dev eth\\1 group 7 id 4000000000 algo bully leader none "
            "term 12 role candidate participant yes\n"
            "\thb-interval 20ms hb-miss 3 timeout 100us coord-timeout 60s\n"
            "\tpeer 1 lladdr 02:00:00:ab:cd:01 alive yes\n"
            "\tpeer 9 lladdr 02:00:00:ab:cd:09 alive no\n"
            "\tpeer 11 lladdr 02:00:00:ab:cd:0b alive yes\n")
    check("show text output", rc == 0 and out.startswith(want), out)
    check("show text output: the Bully options (off, delay)",
          "algo bully leader 4000000000 term 1 role leader participant no\n"
          "\thb-interval 1s hb-miss 3 timeout 10ms coord-timeout 40ms "
          "pos 4000000000 standby on standby-tracked on auth off\n"
          "\task-suspect off preempt off preempt-delay 250ms quorum on\n"
          in out, out)
    check("show text output: a ring reports the options' defaults",
          "pos 2 suppress off\n\task-suspect on preempt on preempt-delay 0 "
          "quorum off\n\tlladdr" in out, out)
    check("show text output: no options line without the attributes",
          "coord-timeout 60s\n\tpeer 1" in out, out)
    ring = ("dev eth\\1 group 9 id 4000000000 algo ring leader "
            "4000000000 term 3 role leader participant no\n"
            "\thb-interval 100ms hb-miss 5 timeout 100ms coord-timeout 400ms "
            "pos 2 suppress off\n"
            "\task-suspect on preempt on preempt-delay 0 quorum off\n"
            "\tlladdr 02:e1:00:00:00:2a mtu 1500\n"
            "\tpeer 1 lladdr 02:00:00:ab:cd:01 alive yes pos 4294967295\n"
            "\tpeer 9 lladdr 02:00:00:ab:cd:09 alive yes pos 1\n")
    check("show text output: ring (pos, suppress, peers' pos)", ring in out,
          out)
    check("show text output: suppress on; ring-list without suppress",
          "coord-timeout 400ms pos 2 suppress on\n" in out and
          "algo ring-list leader 4000000000 term 3 role leader" in out and
          "coord-timeout 400ms pos 2\n"
          "\task-suspect on preempt on preempt-delay 0 quorum off\n"
          "\tlladdr 02:e1:00:00:00:2a mtu 1500\n"
          "\tpeer 1" in out, out)
    check("show text output: heard, and a source address that differs",
          "algo bully leader 4000000000 term 2 role leader participant no\n"
          "\tdetector adaptive detector-margin 1ms detector-max 30ms "
          "timeout-auto on standby off standby-tracked on auth on "
          "auth-next on\n"
          "\tpeer 1 lladdr 02:00:00:ab:cd:01 alive yes heard 12.3 ms ago "
          "window 2.500ms rtt 0.150ms\n"
          "\tpeer 2 lladdr 02:00:00:ab:cd:01 alive no never heard "
          "window 60.000ms seen-lladdr "
          "52:54:00:12:34:56 (differs from lladdr)\n"
          "\tpeer 3 lladdr 02:00:00:ab:cd:01 alive yes heard 17.4 s ago "
          "window 60.000ms\n" in out, out)
    check("peer show text output: one line per peer, dev and group first",
          out.endswith("dev eth\\1 group 7 peer 1 lladdr 02:00:00:ab:cd:01 "
                       "alive yes\n"
                       "dev eth\\1 group 7 peer 9 lladdr 02:00:00:ab:cd:09 "
                       "alive no\n"
                       "dev eth\\1 group 7 peer 11 lladdr 02:00:00:ab:cd:0b "
                       "alive yes\n"
                       "dev eth\\1 group 12 peer 1 lladdr 02:00:00:ab:cd:01 "
                       "alive yes heard 12.3 ms ago window 2.500ms "
                       "rtt 0.150ms\n"
                       "dev eth\\1 group 12 peer 2 lladdr "
                       "02:00:00:ab:cd:01 alive no never heard "
                       "window 60.000ms seen-lladdr "
                       "52:54:00:12:34:56 (differs from lladdr)\n"
                       "dev eth\\1 group 12 peer 3 lladdr "
                       "02:00:00:ab:cd:01 alive yes heard 17.4 s ago "
                       "window 60.000ms\n"
                       "dev eth\\1 group 12 peer 2 lladdr "
                       "02:00:00:ab:cd:01 alive no never heard "
                       "window 60.000ms seen-lladdr "
                       "52:54:00:12:34:56 (differs from lladdr)\n"),
          out[-800:])
    check("show text output: no word twice in a row",
          not re.search(r"\b(\S+) \1\b", out.replace("\t", " ")),
          re.search(r"\b(\S+) \1\b", out.replace("\t", " ")))
    check("stats text output: bully, AUTH and QUORUM absent (an older "
          "module): its types, alive, the auth_ reasons of a keyed group "
          "(no auth_unexpected at 0), and what is not 0",
          "\ttx: election 2 answer 0 coordinator 0 "
          "heartbeat 18446744073709551615 ack 7 retry 3 alive 0 msg_15 5\n"
          "\trx: election 0 answer 0 coordinator 0 heartbeat 0 "
          "alive 0\n\tdrops: malformed 0 wrong_group 0 "
          "wrong_algo 0 unknown_peer 0 stale_term 4 wrong_dst 0 stopped 1 "
          "queue_full 8 term_too_far 0 wrong_lladdr 0 auth_missing 0 "
          "auth_bad 6 auth_truncated 0 auth_replay 2 auth_clock 0\n"
          "\ttx_drops: mtu 1 no_buffer 0 dev_xmit 0\n"
          "\telections 6 leader_changes 2 elections_limited 3 "
          "quorum_lost 2 detect_deferred 4 suspicions 9 false_suspicions 3 "
          "tx_errors 1\n" in out, out)
    var_stats = ("dev eth\\1 group 10 id 4000000000\n"
                 "\ttx: election 1 answer 0 coordinator 2 heartbeat 40 "
                 "query 3 cid 4 alive 0\n"
                 "\trx: election 0 answer 1 coordinator 0 heartbeat 0 "
                 "query 5 cid 6 alive 9 msg_15 7\n"
                 "\tdrops: malformed 2 wrong_group 0 ")
    check("stats text output: query and cid counters (min-bully, "
          "enh-bully), alive, msg_15 after them",
          out.count(var_stats) == 2, out)
    check("show text output: min-bully, enh-bully, algo_8",
          "group 10 id 4000000000 algo min-bully leader 1 term 4 "
          "role follower participant no\n"
          "\thb-interval 20ms hb-miss 3 timeout 10ms coord-timeout 40ms "
          "pos 4000000000\n"
          "\task-suspect off preempt on preempt-delay 5ms quorum off\n"
          "\tlladdr 02:e1:00:00:00:05 mtu 9000\n"
          "\tpeer 1 lladdr 02:00:00:ab:cd:01 alive yes pos 1\n"
          "\tpeer 2 lladdr 02:00:00:ab:cd:02 alive no pos 2\n" in out and
          "algo enh-bully leader 4000000000 term 4 role follower" in out and
          "algo algo_8 leader none term 4 role follower" in out, out)
    check("show text output: invitation: the group number, the search "
          "period, the members; each peer's member",
          "algo invitation leader 9 term 5 role follower participant no\n"
          "\thb-interval 20ms hb-miss 3 timeout 10ms coord-timeout 40ms "
          "pos 4000000000\n"
          "\task-suspect on preempt on preempt-delay 0 quorum off\n"
          "\tinv-seq 5 inv-coordinator 9 search-interval 60ms "
          "members 3,9,4000000000\n"
          "\tpeer 3 lladdr 02:00:00:ab:cd:?? alive yes pos 3 member yes\n"
          .replace("02:00:00:ab:cd:??", "?") in out and
          "\tinv-seq 0 inv-coordinator 0 search-interval 60ms "
          "members none\n" in out and
          "pos 12 member no\n" in out, out)
    general = ("\tdrops: malformed 0 wrong_group 0 wrong_algo 0 "
               "unknown_peer 0 stale_term 0 wrong_dst 0 stopped 0 ")
    keyless = {
        21: ("bully", "\ttx: election 3 answer 0 coordinator 0 heartbeat 5\n"
                      "\trx: election 0 answer 0 coordinator 0 "
                      "heartbeat 0\n" + general),
        22: ("ring", "\ttx: election 3 coordinator 0 heartbeat 5 ack 0 "
                     "retry 0\n"
                     "\trx: election 0 coordinator 0 heartbeat 0 ack 0 "
                     "retry 0\n" + general + "queue_full 0 "),
        27: ("invitation", "\ttx: election 3 heartbeat 5 ayc 0 ayc_reply 0 "
                           "invite 0 accept 0 ready 0\n"
                           "\trx: heartbeat 0 ayc 0 ayc_reply 0 invite 0 "
                           "accept 0 ready 0\n" + general),
    }
    for g, (algo, want) in keyless.items():
        check(f"stats text output: {algo}, no key, quorum off: its message "
              f"types (ring: retry; bully: no alive), the drop reasons of "
              f"every group (ring: queue_full; auth_truncated, counted per "
              f"device), auth_unexpected (a group without a key), then "
              f"what is not 0 (invitation's election)",
              f"dev eth\\1 group {g} id 4000000000\n{want}term_too_far 0 "
              f"wrong_lladdr 1 auth_truncated 0 auth_unexpected 2\n"
              f"\ttx_drops: mtu 0 no_buffer 0 dev_xmit 0\n"
              f"\telections 0 leader_changes 0 elections_limited 0 "
              f"detect_deferred 0 suspicions 0 false_suspicions 0 "
              f"tx_errors 0\n" in out, out)
    rc, all_out, err = run(["text-all"], dry=False, prog=ARGS.print_test)
    full = ("\ttx: election 3 answer 0 coordinator 0 heartbeat 5 ack 0 "
            "retry 0 query 0 cid 0 ayc 0 ayc_reply 0 invite 0 accept 0 "
            "ready 0 alive 0\n"
            "\trx: election 0 answer 0 coordinator 0 heartbeat 0 ack 0 "
            "retry 0 query 0 cid 0 ayc 0 ayc_reply 0 invite 0 accept 0 "
            "ready 0 alive 0\n" + general + "queue_full 0 term_too_far 0 "
            "wrong_lladdr 1 auth_missing 0 auth_bad 0 auth_truncated 0 "
            "auth_replay 0 auth_unexpected 2 auth_clock 0\n")
    check("stats text output with -d (as -s -s): every type, reason and "
          "counter (quorum_lost with quorum off)",
          rc == 0 and all(f"dev eth\\1 group {g} id 4000000000\n{full}"
                          "\ttx_drops: mtu 0 no_buffer 0 dev_xmit 0\n"
                          "\telections 0 leader_changes 0 "
                          "elections_limited 0 quorum_lost 0 "
                          "detect_deferred 0 suspicions 0 "
                          "false_suspicions 0 tx_errors 0\n"
                          in all_out for g in keyless), all_out)
    check("stats text output: timer_late line, non-empty buckets only",
          "\ttimer_late count 13 max 2000000000ns <1us 5 <8us 7 "
          ">=1048576us 1\n" in out and out.count("timer_late") == 1, out)


def test_track():
    """electionctl track: its words (refused ones exit 1 and send
    nothing; --dry-run prints what it would track), the decision
    (track-test steps: elec_track_step()) and the loop against a kernel
    modelled in memory (track-test loop): the first check at once, fall
    and rise, a check killed at the next interval, a missing group
    reported once and retried, the kernel's value set again when it
    differs, SIGTERM: exit 0, no child and no descriptor left."""
    t = ["track", "dev", "lo", "group", "1"]
    dflt = {"family": "election", "cmd": "track", "ifindex": LO,
            "group": 1, "interfaces": [], "interval_ns": 1000000000,
            "fall": 1, "rise": 1, "exec": None}

    def dry(name, argv, want):
        rc, out, err = run(argv)
        try:
            got = json.loads(out)
        except ValueError:
            got = None
        check(f"track --dry-run: {name}",
              rc == 0 and err == "" and got == want and
              out.count("\n") == 1, f"rc={rc} {out!r} {err!r} want {want}")

    dry("the defaults: interval 1s, fall 1, rise 1, no interface, no exec",
        t, dflt)
    dry("every keyword, abbreviated (interf, interv, f, r, e), interface "
        "twice over two devices, exec's words whole",
        ["tr", "d", "lo", "g", "1", "interf", "lo", "interv", "250ms",
         "f", "3", "r", "2", "e", "/bin/sh", "-c", "exit 0", "dev", "x"],
        dict(dflt, interfaces=["lo"], interval_ns=250000000, fall=3,
             rise=2, exec=["/bin/sh", "-c", "exit 0", "dev", "x"]))
    dry("the bounds: interval 10ms and 60s, fall and rise 1000",
        t + ["interval", "10ms", "fall", "1000", "rise", "1000"],
        dict(dflt, interval_ns=10000000, fall=1000, rise=1000))
    dry("interval 60s", t + ["interval", "60s"],
        dict(dflt, interval_ns=60000000000))
    # devices that do not exist (yet): a warning, then tracked (the dev
    # resolved every interval, the interface down until it exists)
    rc, out, err = run(["track", "dev", "nosuchdev0", "group", "1",
                        "interface", "nosuchdev1", "interface", "lo"])
    try:
        got = json.loads(out)
    except ValueError:
        got = None
    check("track --dry-run: a dev and an interface that do not exist yet "
          "are taken, each with a warning",
          rc == 0 and got == dict(dflt, ifindex=0,
                                  interfaces=["nosuchdev1", "lo"]) and
          'Warning: dev "nosuchdev0": no such device (yet)' in err and
          'Warning: interface "nosuchdev1": no such device (yet)' in err,
          f"rc={rc} {out!r} {err!r}")
    for argv, token in (
            (["track", "group", "1"], 'missing required keyword "dev"'),
            (["track", "dev", "lo"], 'missing required keyword "group"'),
            (["track"], 'missing required keyword "dev"'),
            (t + ["frob", "1"], 'unknown keyword "frob" for "track"'),
            (t + ["in", "lo"], 'ambiguous keyword "in" for "track": '
             "interface, interval"),
            (t + ["i", "lo"], 'ambiguous keyword "i"'),
            (t + ["interval", "1s", "interval", "2s"],
             'duplicate keyword "interval"'),
            (t + ["fall", "2", "fall", "2"], 'duplicate keyword "fall"'),
            (t + ["dev", "lo"], 'duplicate keyword "dev"'),
            (t + ["group", "2"], 'duplicate keyword "group"'),
            (t + ["interface", "lo", "interface", "lo"],
             'interface "lo" given twice'),
            (t + ["interface", ""], 'invalid interface "": empty device name'),
            (t + ["interface", "x" * 16], "device name too long"),
            (t + ["interval", "5ms"], 'invalid interval "5ms": out of '
             "range: an interval is 10ms..60s"),
            (t + ["interval", "9999us"], 'invalid interval "9999us"'),
            (t + ["interval", "61s"], 'invalid interval "61s"'),
            (t + ["interval", "1"], "missing unit"),
            (t + ["interval", "1.5s"], 'invalid interval "1.5s"'),
            (t + ["fall", "0"], 'invalid fall "0": expected an integer '
             "from 1 to 1000"),
            (t + ["fall", "1001"], 'invalid fall "1001"'),
            (t + ["rise", "0"], 'invalid rise "0"'),
            (t + ["rise", "x"], 'invalid rise "x"'),
            (t + ["rise", "-1"], 'invalid rise "-1"'),
            (t + ["fall"], 'keyword "fall" needs a value'),
            (t + ["exec"], '"exec" needs a command'),
            (t + ["exec", ""], '"exec" needs a command'),
            (["track", "dev", "lo", "group", "0"], 'invalid group "0"'),
            (["track", "dev", "lo", "group", "65536"],
             'invalid group "65536"'),
    ):
        refused(f"track {' '.join(argv[1:])}", argv, token)
    tmp = tempfile.mkdtemp()
    try:
        path = os.path.join(tmp, "t.batch")
        with open(path, "w") as f:
            f.write("track dev lo group 1\n")
        rc, out, err = run(["-batch", path])
        check("track cannot run in a batch",
              rc == 1 and out == "" and
              '"track" cannot run in a batch' in err, f"rc={rc} {err!r}")
    finally:
        shutil.rmtree(tmp)
    rc, out, err = run(["help", "track"], dry=False)
    check("help track: its syntax",
          rc == 0 and out.startswith("electionctl track dev IF group G "
                                     "[ interface IF2 ]... [ interval DUR ]")
          and "[ fall N ] [ rise N ] [ exec CMD [ ARG... ] ]" in out,
          out + err)
    rc, out, err = run(["help"], dry=False)
    check("help: track's keywords, its defaults, SIGTERM leaves the state",
          rc == 0 and "interval 1s (10ms..60s), fall 1, rise 1" in out and
          "standby-tracked off" in out and "track | module" in out,
          out + err)

    # the decision: "OBS STANDBY FAILS OKS CHANGED" per observation
    def steps(fall, rise, init, obs):
        rc, out, err = run(["steps", str(fall), str(rise), init, obs],
                           dry=False, prog=ARGS.track_test)
        return [tuple(int(x) if x.isdigit() else x for x in l.split())
                for l in out.splitlines()] if rc == 0 else None

    check("track decision: fall 1, rise 1: one failure sets, one success "
          "clears",
          steps(1, 1, "0", "fo") == [("f", 1, 1, 0, 1), ("o", 0, 0, 1, 1)])
    check("track decision: fall 3: two failures and a success do not set "
          "(the count restarts); three in a row do",
          steps(3, 1, "0", "ffofff") ==
          [("f", 0, 1, 0, 0), ("f", 0, 2, 0, 0), ("o", 0, 0, 1, 0),
           ("f", 0, 1, 0, 0), ("f", 0, 2, 0, 0), ("f", 1, 3, 0, 1)])
    check("track decision: rise 2: a failure between successes restarts "
          "the count",
          steps(1, 2, "1", "ofoo") ==
          [("o", 1, 0, 1, 0), ("f", 1, 1, 0, 0), ("o", 1, 0, 1, 0),
           ("o", 0, 0, 2, 1)])
    check("track decision: an interface down sets at once, whatever fall, "
          "and forgets the successes; rise successes clear it",
          steps(5, 2, "0", "odoo") ==
          [("o", 0, 0, 1, 0), ("d", 1, 0, 0, 1), ("o", 1, 0, 1, 0),
           ("o", 0, 0, 2, 1)])
    check("track decision: from the kernel's on, rise successes clear it; "
          "failures while on change nothing",
          steps(2, 3, "1", "fffooo") ==
          [("f", 1, 1, 0, 0), ("f", 1, 2, 0, 0), ("f", 1, 2, 0, 0),
           ("o", 1, 0, 1, 0), ("o", 1, 0, 2, 0), ("o", 0, 0, 3, 1)])
    check("track decision: the counts stop at fall and rise (no overflow)",
          steps(2, 2, "0", "o" * 5 + "f" * 5)[-1] == ("f", 1, 2, 0, 0) and
          steps(2, 2, "0", "o" * 5)[-1] == ("o", 0, 0, 2, 0))

    # the loop: track-test loop [-j] INTERVAL_MS FALL RISE TICKS KERNEL
    # MISSING [if NAME]... [exec CMD...]
    def loop(args, timeout=30):
        p = subprocess.run([ARGS.track_test, "loop"] + args,
                           capture_output=True, timeout=timeout,
                           env=dict(os.environ, LC_ALL="C"))
        return (p.returncode, p.stdout.decode(errors="replace"),
                p.stderr.decode(errors="replace"))

    end = "loop 0\nchildren none\nfds same\n"
    tmp = tempfile.mkdtemp()
    try:
        cnt = os.path.join(tmp, "n")
        script = (f"n=$(($(cat {cnt} 2>/dev/null || echo 0) + 1)); "
                  f"echo $n > {cnt}; case $n in 2|3|4) exit 1;; esac")
        rc, out, err = loop(["300", "2", "2", "7", "0", "0", "if", "lo",
                             "exec", "sh", "-c", script])
        check("track loop: the first check at once, two failures in a row "
              "set (fall 2), two successes clear (rise 2); the kernel set "
              "at each change; SIGTERM: 0, no child, no descriptor left",
              rc == 0 and err == "" and out ==
              "dev eth0 group 7 standby-tracked off: start, as the kernel "
              "has it\n"
              "dev eth0 group 7 standby-tracked on: check failed 2 in a row "
              "(exit 1)\nkernel: set on\n"
              "dev eth0 group 7 standby-tracked off: healthy 2 in a row\n"
              "kernel: set off\n" + end, f"rc={rc} {out!r} {err!r}")
        env_out = os.path.join(tmp, "env")
        rc, out, err = loop(["300", "1", "1", "2", "0", "0", "exec", "sh",
                             "-c", "echo $ELECTION_DEV $ELECTION_GROUP "
                             "$ELECTION_STANDBY_TRACKED >> " + env_out +
                             "; exit 3"])
        with open(env_out) as f:
            got_env = f.read()
        check("track loop: the check's environment (ELECTION_DEV, "
              "ELECTION_GROUP, ELECTION_STANDBY_TRACKED); its exit status",
              rc == 0 and got_env.startswith("eth0 7 off\n") and
              "check failed 1 in a row (exit 3)" in out,
              f"{got_env!r} {out!r} {err!r}")
    finally:
        shutil.rmtree(tmp)
    rc, out, err = loop(["300", "3", "1", "3", "0", "0", "exec", "sh", "-c",
                         "exit 1"])
    check("track loop: two failures with fall 3: no change",
          rc == 0 and out == "dev eth0 group 7 standby-tracked off: start, "
          "as the kernel has it\n" + end, f"{out!r} {err!r}")
    t0 = time.monotonic()
    rc, out, err = loop(["100", "1", "1", "3", "0", "0", "exec", "sleep",
                         "10"])
    took = time.monotonic() - t0
    check("track loop: a check still running at the next interval is "
          "killed and fails (fall 1: on); SIGTERM kills the running one, "
          "reaped, promptly",
          rc == 0 and out ==
          "dev eth0 group 7 standby-tracked off: start, as the kernel has "
          "it\ndev eth0 group 7 standby-tracked on: check failed 1 in a row "
          "(timeout)\nkernel: set on\n" + end and
          'Warning: check "sleep" still running after 100 ms: killed\n'
          in err and took < 5, f"{took:.1f}s {out!r} {err!r}")
    rc, out, err = loop(["300", "1", "2", "3", "1", "0", "exec", "true"])
    check("track loop: the decision starts at the kernel's on; rise 2 "
          "successes clear it",
          rc == 0 and err == "" and out ==
          "dev eth0 group 7 standby-tracked on: start, as the kernel has "
          "it\ndev eth0 group 7 standby-tracked off: healthy 2 in a row\n"
          "kernel: set off\n" + end, f"{out!r} {err!r}")
    rc, out, err = loop(["100", "1", "1", "3", "1", "3"])
    check("track loop: the group missing for three reads: reported once, "
          "retried; then the kernel's on (someone's) against the decision "
          "off: set again, said on stderr",
          rc == 0 and out ==
          "dev eth0 group 7 standby-tracked off: start, the group not "
          "readable (taken as off)\nkernel: set off\n" + end and
          err == "Error: no such group (dev eth0 group 7: retrying every "
          "interval)\nNote: dev eth0 group 7 answers again\n"
          "Warning: dev eth0 group 7: standby-tracked on in the kernel, the "
          "tracker's is off: set again\n", f"{out!r} {err!r}")
    rc, out, err = loop(["-j", "100", "1", "1", "2", "0", "0", "if", "lo",
                         "if", "nosuchdev0"])
    lines = out.splitlines()
    try:
        js = [json.loads(l) for l in lines[:2]]
    except ValueError:
        js = []
    check("track loop -j: an interface that is not there is down: on at "
          "once (JSON Lines: dev, group, standby_tracked, reason, kernel, "
          "interface)",
          rc == 0 and js == [
              {"dev": "eth0", "group": 7, "standby_tracked": False,
               "reason": "start", "kernel": True},
              {"dev": "eth0", "group": 7, "standby_tracked": True,
               "reason": "interface_down", "interface": "nosuchdev0"}] and
          lines[2:] == ["kernel: set on"] + end.splitlines(),
          f"{out!r} {err!r}")
    rc, out, err = loop(["-j", "300", "2", "1", "3", "0", "0", "exec", "sh",
                         "-c", "kill -9 $$"])
    check("track loop -j: a check killed by a signal fails (fails, result)",
          rc == 0 and json.loads(out.splitlines()[1]) ==
          {"dev": "eth0", "group": 7, "standby_tracked": True,
           "reason": "check_failed", "fails": 2, "result": "signal 9"},
          f"{out!r} {err!r}")
    rc, out, err = loop(["-j", "100", "1", "1", "3", "1", "0", "if", "lo"])
    check("track loop -j: without exec an interval with the interfaces up "
          "is a success (recovered, successes)",
          rc == 0 and json.loads(out.splitlines()[1]) ==
          {"dev": "eth0", "group": 7, "standby_tracked": False,
           "reason": "recovered", "successes": 1}, f"{out!r} {err!r}")


def test_valgrind():
    if not shutil.which("valgrind"):
        print("skip - valgrind not installed: memory checks skipped")
        return
    cases = [
        (None, base_add(["hb-interval", "100us", "timeout", "60s"]), True),
        (None, ["peer", "add", "dev", "lo", "group", "1", "id", "2",
                "lladdr", "02:00:00:00:00:01"], True),
        (None, ["-j", "show"], True),
        (None, ["stats", "dev", "lo", "group", "1"], True),
        (None, ["-j", "monitor"], True),
        (None, ["module"], True),
        (None, base_add(["timeout", "10"]), True),
        (None, ["group", "add", "dev", "lo", "group", "1", "id", "1",
                "algo", "ring", "pos", "3", "suppress", "off"], True),
        (None, base_add(["suppress", "on"]), True),
        (None, ["group", "add", "dev", "lo", "group", "1", "id", "1",
                "algo", "ring-all", "preempt", "on"], True),
        (None, ["group", "add", "dev", "lo", "group", "1", "id", "1",
                "algo", "enh-bully", "ask-suspect", "off", "preempt-delay",
                "1s"], True),
        (None, ["group", "add", "dev", "nosuchdev0"], True),
        (None, ["frob"], True),
        (None, ["--help"], False),
        (None, [], True),
        (ARGS.nl_test, ["doit"], False),
        (ARGS.nl_test, ["dump"], False),
        (ARGS.nl_test, ["extack"], False),
        (ARGS.nl_test, ["extack-uncapped"], False),
        (ARGS.nl_test, ["enoent"], False),
        (ARGS.nl_test, ["missing"], False),
        (ARGS.monitor_test, ["json"], False),
        (ARGS.print_test, ["json"], False),
        (ARGS.print_test, ["text"], False),
        (None, ["track", "dev", "lo", "group", "1", "interface", "lo",
                "exec", "true"], True),
        (None, ["track", "dev", "lo", "group", "1", "fall", "0"], True),
        (ARGS.track_test, ["steps", "2", "2", "0", "ffdoo"], False),
        # (no exec: valgrind does not know pidfd_open and says so)
        (ARGS.track_test, ["loop", "100", "1", "1", "3", "0", "1", "if",
                           "lo", "if", "nosuchdev0"], False),
    ]
    keydir = tempfile.mkdtemp()
    keyfile = os.path.join(keydir, "k")
    with open(keyfile, "w") as f:
        f.write("00112233445566778899aabbccddeeff\n")
    os.chmod(keyfile, 0o600)
    keyfile2 = os.path.join(keydir, "k2")
    with open(keyfile2, "w") as f:
        f.write("ffeeddccbbaa99887766554433221100\n")
    os.chmod(keyfile2, 0o600)
    cases += [
        (None, base_add(["key-file", keyfile]), True),
        (None, ["group", "set", "dev", "lo", "group", "1", "key-file",
                keydir], True),
        (None, ["group", "set", "dev", "lo", "group", "1", "key", "none"],
         True),
        (None, base_add(["key-file", keyfile, "key-next-file", keyfile2]),
         True),
        (None, ["group", "set", "dev", "lo", "group", "1", "key-next",
                "none"], True),
        (None, ["peer", "reset", "dev", "lo", "group", "1", "id", "2"],
         True),
    ]
    sync = os.path.join(keydir, "sync.batch")
    with open(sync, "w") as f:
        f.write(f"group add dev lo group 7 id 5 algo bully key-file {keyfile}\n"
                "peer add dev lo group 7 id 6 lladdr 02:00:00:00:00:06\n"
                "group set dev lo group 7 hb-miss 4\n"
                "group add dev lo group 8 id 5 algo ring\n"
                "group start dev lo group 8\n")
    sync_bad = os.path.join(keydir, "bad.batch")
    with open(sync_bad, "w") as f:
        f.write("group add dev lo group 7 id 5 algo bully\n"
                "peer add dev lo group 9 id 6 lladdr 02:00:00:00:00:06\n")
    # the running groups sync-test models: group 7 to change (options,
    # peers, the key), group 9 to delete
    sync_have = os.path.join(keydir, "have.batch")
    with open(sync_have, "w") as f:
        f.write("group add dev lo group 7 id 5 algo bully timeout 100ms "
                "coord-timeout 400ms\n"
                "peer add dev lo group 7 id 9 lladdr 02:00:00:00:00:09\n"
                "group add dev lo group 9 id 5 algo ring\n")
    cases += [
        (None, ["syncconf", sync], True),
        (None, ["syncconf", sync, "dry-run"], True),
        (None, ["syncconf", sync_bad], True),
        (ARGS.sync_test, [sync_have, sync], False),
        (ARGS.sync_test, ["showconf", sync_have], False),
        (ARGS.print_test, ["showconf", "keydir", "/etc/election/keys"],
         False),
    ]
    if not family_present():
        cases.append((None, ["show"], False))
        cases.append((None, ["monitor"], False))
    for prog, argv, dry in cases:
        plain = run(argv, dry=dry, prog=prog)
        vg = run(argv, dry=dry, prog=prog, valgrind=True)
        if "debuginfo reader" in vg[2]:
            # e.g. clang 14's DWARF 5 with Debian 12's valgrind 3.19
            print("skip - valgrind cannot read this binary's debug info "
                  "(try -gdwarf-4): memory checks skipped")
            break
        name = os.path.basename(prog or ARGS.bin)
        check(f"valgrind {name} {'--dry-run ' if dry else ''}"
              f"{' '.join(repr(a) if a == '' else a for a in argv)}",
              vg[0] == plain[0] and vg[0] != 99 and vg[1] == plain[1]
              and vg[2] == plain[2],
              f"rc={vg[0]} (plain {plain[0]})\n{vg[2]}")
    shutil.rmtree(keydir)


def main():
    global ARGS, LO
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--json-test", required=True)
    ap.add_argument("--nl-test", required=True)
    ap.add_argument("--monitor-test", required=True)
    ap.add_argument("--print-test", required=True)
    ap.add_argument("--sync-test", required=True)
    ap.add_argument("--track-test", required=True)
    ARGS = ap.parse_args()
    LO = socket_if_nametoindex("lo")

    test_parser()
    test_requests()
    test_help()
    test_conventions()
    test_batch()
    test_keys()
    test_peer_reset()
    test_genkey()
    test_one_value()
    test_detector()
    test_no_module()
    test_json_writer()
    test_netlink()
    test_monitor_printer()
    test_printers()
    test_track()
    test_valgrind()
    print(f"{PASSED} passed, {FAILED} failed")
    sys.exit(1 if FAILED else 0)


def socket_if_nametoindex(name):
    import socket
    return socket.if_nametoindex(name)


if __name__ == "__main__":
    main()
