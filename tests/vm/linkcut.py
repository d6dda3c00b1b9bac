#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Set a link down or up, stamped on the clock of the kernel's events.

  linkcut.py IFNAME down|up

Clears or sets IFF_UP on IFNAME (in the caller's network namespace: run it
under `ip netns exec`) with one SIOCSIFFLAGS ioctl, and prints one JSON
line {"before_ns": N, "after_ns": N}: CLOCK_MONOTONIC just before and just
after that ioctl. The module stamps its events (ts_ns) with ktime_get_ns(),
the same clock, so the demo measures a failover from the cut itself:
before_ns is at or before the moment the link went down, and after_ns -
before_ns bounds how early it may be. (A stamp taken by another process
before `ip link set` runs is earlier by that process's start-up, tens to
hundreds of ms in a TCG guest; the leader's own "stopped" event comes from
the carrier change that the kernel's linkwatch work reports later still,
after the survivors may have agreed.)
"""

import fcntl
import json
import socket
import struct
import sys
import time

SIOCGIFFLAGS = 0x8913
SIOCSIFFLAGS = 0x8914
IFF_UP = 0x1


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("down", "up"):
        print(__doc__, file=sys.stderr)
        return 2
    name = sys.argv[1].encode()
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    req = struct.pack("16sH22x", name, 0)
    try:
        flags = struct.unpack("16sH22x", fcntl.ioctl(s, SIOCGIFFLAGS, req))[1]
    except OSError as e:
        print("linkcut: %s: %s" % (sys.argv[1], e), file=sys.stderr)
        return 1
    flags = (flags | IFF_UP) if sys.argv[2] == "up" else (flags & ~IFF_UP)
    req = struct.pack("16sH22x", name, flags)
    before = time.monotonic_ns()
    try:
        fcntl.ioctl(s, SIOCSIFFLAGS, req)
    except OSError as e:
        print("linkcut: %s %s: %s" % (sys.argv[1], sys.argv[2], e), file=sys.stderr)
        return 1
    after = time.monotonic_ns()
    print(json.dumps({"before_ns": before, "after_ns": after}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
