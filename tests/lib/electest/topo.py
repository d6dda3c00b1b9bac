# SPDX-License-Identifier: GPL-2.0
"""Namespace topology of the VM scenarios (tests/vm/lib.sh's, the same
names): a switch namespace "esw" with bridge br0; node ID in namespace
"en<ID>" with one veth eth0 (MAC 02:e1:<ID as 4 bytes>) whose peer p<ID>
is a port of br0. Every function runs ip(8) and raises
subprocess.CalledProcessError (its output attached) when a step fails."""

import os
import subprocess

SWITCH = "esw"


def ns(nid):
    """The namespace of node @nid."""
    return "en%d" % nid


def mac(nid):
    """The MAC address the scenarios give node @nid: 02:e1:<id>."""
    return "02:e1:%02x:%02x:%02x:%02x" % (nid >> 24 & 255, nid >> 16 & 255,
                                          nid >> 8 & 255, nid & 255)


def ip(*args):
    """Run ip ARGS; its output, or CalledProcessError with the output."""
    p = subprocess.run(["ip"] + [str(a) for a in args],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    if p.returncode != 0:
        raise subprocess.CalledProcessError(p.returncode, p.args, p.stdout)
    return p.stdout


def exists(name):
    return os.path.exists("/run/netns/" + name)


def switch():
    """The switch namespace with bridge br0, made once."""
    if exists(SWITCH):
        return
    ip("netns", "add", SWITCH)
    ip("-n", SWITCH, "link", "set", "lo", "up")
    ip("-n", SWITCH, "link", "add", "br0", "type", "bridge", "stp_state", 0,
       "forward_delay", 0)
    ip("-n", SWITCH, "link", "set", "br0", "up")


def node_add(nid):
    """Node @nid: its namespace, eth0 and the switch port p<ID> on br0."""
    switch()
    n = ns(nid)
    ip("netns", "add", n)
    ip("link", "add", "eth0", "netns", n, "address", mac(nid), "type",
       "veth", "peer", "name", "p%d" % nid, "netns", SWITCH)
    ip("-n", SWITCH, "link", "set", "p%d" % nid, "master", "br0", "up")
    ip("-n", n, "link", "set", "lo", "up")
    ip("-n", n, "link", "set", "eth0", "up")


def node_del(nid):
    """A crash: the namespace goes, with its device and the instance."""
    ip("netns", "del", ns(nid))


def namespaces():
    """Every named network namespace."""
    try:
        return [line.split()[0] for line in ip("netns", "list").splitlines()
                if line.strip()]
    except subprocess.CalledProcessError:
        return []


def delete_all():
    """Delete every named namespace (a scenario's cleanup)."""
    for n in namespaces():
        subprocess.run(["ip", "netns", "del", n], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)


def vip_holders(nodes, vip):
    """The ids of @nodes whose eth0 has address @vip (no prefix) now."""
    out = []
    for nid in nodes:
        p = subprocess.run(["ip", "-n", ns(nid), "-o", "addr", "show", "dev",
                            "eth0"], capture_output=True, text=True)
        if " %s/" % vip in p.stdout:
            out.append(nid)
    return out
