# SPDX-License-Identifier: GPL-2.0
"""Fault injection over rtnetlink (no process per fault, so that a cut
can be stamped just before it): a link down or up (`ip link set`), drop
filters on both directions of a port (`tc filter ... matchall action
drop`, on a clsact qdisc the caller added). The requests go to an
nl.Nl(nl.NETLINK_ROUTE) created in the link's namespace, several in one
sendmsg:

    rt = nl.Nl(nl.NETLINK_ROUTE)
    rt.call_many([link_req(ifindex, False)])
    rt.call_many(drop_filter_reqs(port, True))
"""

import socket
import struct

from electest.nl import NLM_F_CREATE, NLM_F_EXCL, nla

RTM_NEWLINK, RTM_NEWTFILTER, RTM_DELTFILTER = 16, 44, 45
IFF_UP = 1
TC_H_CLSACT_INGRESS, TC_H_CLSACT_EGRESS = 0xFFFFFFF2, 0xFFFFFFF3
ETH_P_ALL = 3
TCA_KIND, TCA_OPTIONS = 1, 2
TCA_MATCHALL_ACTIONS = 2
TCA_ACT_KIND, TCA_ACT_OPTIONS = 1, 2
TCA_GACT_PARMS = 2
TC_ACT_SHOT = 2


def link_req(ifindex, up):
    """RTM_NEWLINK setting or clearing IFF_UP: `ip link set ... up|down`."""
    return (RTM_NEWLINK, 0, struct.pack("=BxHiII", socket.AF_UNSPEC, 0, ifindex,
                                         IFF_UP if up else 0, IFF_UP))


def drop_filter_reqs(ifindex, add):
    """`tc filter add|del dev IF ingress|egress prio 1 matchall action drop`."""
    reqs = []
    for parent in (TC_H_CLSACT_INGRESS, TC_H_CLSACT_EGRESS):
        tcm = struct.pack("=BxxxiIII", socket.AF_UNSPEC, ifindex, 0, parent,
                          (1 << 16) | socket.htons(ETH_P_ALL))
        if add:
            gact = nla(TCA_GACT_PARMS, struct.pack("=IIiii", 0, 0, TC_ACT_SHOT, 0, 0))
            act = nla(1, nla(TCA_ACT_KIND, b"gact\0") + nla(TCA_ACT_OPTIONS, gact))
            opts = nla(TCA_MATCHALL_ACTIONS, act)
            reqs.append((RTM_NEWTFILTER, NLM_F_CREATE | NLM_F_EXCL,
                         tcm + nla(TCA_KIND, b"matchall\0") + nla(TCA_OPTIONS, opts)))
        else:
            reqs.append((RTM_DELTFILTER, 0, tcm))
    return reqs
