# SPDX-License-Identifier: GPL-2.0
"""What the benchmarks share (tests/bench/failover's driver and analyser,
tests/bench/detector, tests/bench/stability, tests/vm/multi): the systems
they compare, each an election group with its keywords, or keepalived,
and the report's number formatting."""

ELEC_SYSTEMS = {                  # name -> (group, group add keywords)
    "bully": (1, ["algo", "bully"]),
    "ring": (2, ["algo", "ring"]),
    "ring-nosuppress": (3, ["algo", "ring", "suppress", "off"]),
    "ring-all": (4, ["algo", "ring-all"]),
    "ring-list": (5, ["algo", "ring-list"]),
    # not in the default set: make bench-stability compares the two settings
    "bully-noask": (6, ["algo", "bully", "ask-suspect", "off"]),
    "min-bully": (7, ["algo", "min-bully"]),
    "enh-bully": (8, ["algo", "enh-bully"]),
    # quorum on: the minority side, an isolated leader included, has no
    # leader; its timing below (quorum needs hb-miss x ... above 1.5 T)
    "bully-quorum": (9, ["algo", "bully", "quorum", "on"]),
    "invitation": (10, ["algo", "invitation"]),
}
# hb-miss and timeout (in hb-intervals) where a system differs from the
# rest (HB_MISS, 2): quorum needs hb-interval x (hb-miss - 2) > 1.5 x T
SYSTEM_TIMING = {"bully-quorum": (5, 1)}
# make bench-detector's systems: bully with each failure detector setting
# (not in the default set). fixed-K: the fixed detector at hb-miss K;
# adaptive-M: the adaptive one with detector-margin M x hb-interval (the
# token "MARGIN:M" becomes that duration in elec_up()), hb-miss 3.
DETECTOR_SYSTEMS = ["fixed-2", "fixed-3", "fixed-4", "fixed-5",
                    "adaptive-0.5", "adaptive-1", "adaptive-2",
                    "adaptive-4"]
for _k, _name in enumerate(DETECTOR_SYSTEMS):
    if _name.startswith("fixed-"):
        ELEC_SYSTEMS[_name] = (11 + _k, ["algo", "bully", "detector", "fixed"])
        SYSTEM_TIMING[_name] = (int(_name[6:]), 2)
    else:
        ELEC_SYSTEMS[_name] = (11 + _k, ["algo", "bully", "detector",
                                         "adaptive", "detector-margin",
                                         "MARGIN:" + _name[9:]])
LOWEST_WINS = {"min-bully"}       # systems whose best id is the lowest
ALL_SYSTEMS = ["keepalived"] + list(ELEC_SYSTEMS)
DEFAULT_SYSTEMS = [s for s in ALL_SYSTEMS
                   if s != "bully-noask" and s not in DETECTOR_SYSTEMS]
KA_STATES = ("MASTER", "BACKUP", "FAULT", "STOP", "INIT")


def fmt(x, nd=1):
    if x is None:
        return "-"
    if isinstance(x, str):
        return x
    return "%.*f" % (nd, x)


def hb_str(ns):
    if ns is None:
        return "?"
    return "%d ms" % (ns // 1_000_000) if ns % 1_000_000 == 0 else "%d us" % (ns // 1000)


def md_table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(fmt(c) if not isinstance(c, str) else c for c in r) + " |" for r in rows]
    return "\n".join(out) + "\n"
