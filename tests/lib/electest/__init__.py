# SPDX-License-Identifier: GPL-2.0
"""electest: the test library of election (standard library only).

Scenarios, benchmarks, fault runs, scale and multi-VM tools import it;
it imports none of them. Put tests/lib on sys.path first:

    sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
    from electest import scenario, checks, nl

Modules:
  scenario  a VM scenario's runner: checks and counters, log, durations
            scaled by ELEC_TIMER_SCALE, electionctl in a node, groups,
            agreement, teardown and the leak check (lib.sh's counterpart)
  topo      namespace topology: the switch esw/br0, node en<ID> with eth0
  checks    views of the nodes (electionctl -j show), agreement, sides,
            Invitation groups, quiet counters, stats
  nl        the one generic netlink client of the election family, its
            uapi enums (read from uapi/linux/election.h), attributes
  frames    frames of our EtherType, crafted for tests
  events    event streams: watch records, leader intervals, monitor
            captures
  faults    link down/up and tc drop filters (rtnetlink)
  inject    frames sent with tests/inject/elec-inject: runs, snapshots,
            drop counters against its predictions, settle, monitors
  bench     what the benchmarks share: the systems compared, the report's
            number formatting
"""

import os
import re
import sys

REPO = os.environ.get("ELECTION_REPO") or os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def _scale():
    v = os.environ.get("ELEC_TIMER_SCALE", "1")
    if not re.fullmatch(r"[1-9][0-9]*", v):
        print("electest: ELEC_TIMER_SCALE must be an integer >= 1, not '%s'"
              % v, file=sys.stderr)
        return 1
    return int(v)


SCALE = _scale()
