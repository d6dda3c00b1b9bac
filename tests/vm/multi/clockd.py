#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tests/vm/multi/clockd.py PORT: the host's clock for the guests (run in
the test's network namespace, on the bridge's address): answers each UDP
datagram with its payload followed by the host's CLOCK_REALTIME in ns
(8 bytes, little endian). A guest sends its CLOCK_MONOTONIC before and
reads it after; the exchange with the shortest round trip gives its
offset to the host clock, with an error of at most half that round trip.
Runs until killed."""

import socket
import struct
import sys
import time

s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", int(sys.argv[1])))
while True:
    data, peer = s.recvfrom(256)
    s.sendto(data + struct.pack("<q", time.time_ns()), peer)
