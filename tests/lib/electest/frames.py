# SPDX-License-Identifier: GPL-2.0
"""Frames of our EtherType, crafted and read by the tests: the 24-byte
header (version, type, algorithm, flags, group, payload length, source,
destination, term; network order), Ethernet framing, the auth trailer
(a counter, then SipHash-2-4 of the frame up to it), pcap files.

tests/inject/elec-inject.c models the wire format on its own, on purpose;
this is the tests' Python side of it (elec.py forge/inject/sniff,
tests/inject/test_inject.py)."""

import struct

ETH_P_ELECTION = 0x88B5
BROADCAST = b"\xff" * 6
HDR = struct.Struct("!BBBBHHIIQ")
HDR_LEN = HDR.size              # 24
VERSION = 1
FLAG_AUTH = 2
ETH_ZLEN = 60

TYPES = {"election": 1, "answer": 2, "coordinator": 3, "heartbeat": 4,
         "ack": 5, "retry": 6, "query": 7, "cid": 8, "ayc": 9,
         "ayc_reply": 10, "invite": 11, "accept": 12, "ready": 13,
         "alive": 14}
ALGOS = {"bully": 1, "ring": 2, "ring-all": 3, "ring-list": 4,
         "min-bully": 5, "enh-bully": 6, "invitation": 7}
FIELDS = ("version", "type", "algo", "flags", "group", "plen", "src", "dst",
          "term")


def header(typ, algo, group, src, dst, term, flags=0, plen=0, version=VERSION):
    """The 24 header bytes."""
    return HDR.pack(version, typ, algo, flags, group, plen, src, dst, term)


def unpack(body):
    """{field: value} of the header at the start of @body (a frame's
    payload after the Ethernet header); None if it is too short."""
    if len(body) < HDR_LEN:
        return None
    return dict(zip(FIELDS, HDR.unpack_from(body)))


def ether(dst_mac, src_mac, body, ethertype=ETH_P_ELECTION, pad=True):
    """An Ethernet frame of @body, padded to 60 bytes (without FCS)."""
    frame = dst_mac + src_mac + struct.pack("!H", ethertype) + body
    if pad and len(frame) < ETH_ZLEN:
        frame += b"\0" * (ETH_ZLEN - len(frame))
    return frame


def id_list(spec):
    """[ids] of "3-202,1" (ranges and single ids, in that order)."""
    out = []
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out

# ---------------------------------------------------------------- auth ---


def rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & 0xffffffffffffffff


def siphash24(key, msg):
    """SipHash-2-4 as the paper defines it; returns the 64-bit value."""
    mask = 0xffffffffffffffff
    k0, k1 = struct.unpack("<QQ", key)
    v = [k0 ^ 0x736f6d6570736575, k1 ^ 0x646f72616e646f6d,
         k0 ^ 0x6c7967656e657261, k1 ^ 0x7465646279746573]

    def rnd():
        v[0] = (v[0] + v[1]) & mask
        v[1] = rotl(v[1], 13) ^ v[0]
        v[0] = rotl(v[0], 32)
        v[2] = (v[2] + v[3]) & mask
        v[3] = rotl(v[3], 16) ^ v[2]
        v[0] = (v[0] + v[3]) & mask
        v[3] = rotl(v[3], 21) ^ v[0]
        v[2] = (v[2] + v[1]) & mask
        v[1] = rotl(v[1], 17) ^ v[2]
        v[2] = rotl(v[2], 32)

    n = len(msg)
    full = n - n % 8
    for i in range(0, full, 8):
        m = struct.unpack("<Q", msg[i:i + 8])[0]
        v[3] ^= m
        rnd()
        rnd()
        v[0] ^= m
    b = (n & 0xff) << 56
    for i, c in enumerate(msg[full:]):
        b |= c << (8 * i)
    v[3] ^= b
    rnd()
    rnd()
    v[0] ^= b
    v[2] ^= 0xff
    for _ in range(4):
        rnd()
    return v[0] ^ v[1] ^ v[2] ^ v[3]


def auth_mac(key, signed):
    """The trailer's MAC of @signed (the frame's body up to and with its
    counter): SipHash-2-4, little-endian."""
    return struct.pack("<Q", siphash24(key, signed))


def trailer(body):
    """(counter, mac, end) of an authenticated @body: end is the offset
    after its counter (the MAC covers body[:end]); None if cut short."""
    plen = struct.unpack_from("!H", body, 6)[0]
    end = HDR_LEN + plen + 8
    if len(body) < end + 8:
        return None
    return struct.unpack_from("!Q", body, HDR_LEN + plen)[0], \
        body[end:end + 8], end

# ---------------------------------------------------------------- pcap ---


def read_pcap(path):
    """[(bytes)] of a little-endian microsecond pcap file."""
    frames = []
    with open(path, "rb") as f:
        hdr = f.read(24)
        assert struct.unpack("<I", hdr[:4])[0] == 0xa1b2c3d4, "magic"
        while True:
            rec = f.read(16)
            if not rec:
                break
            _, _, incl, _ = struct.unpack("<IIII", rec)
            frames.append(f.read(incl))
    return frames


def write_pcap(path, frames):
    """Write @frames as a little-endian microsecond Ethernet pcap file."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for fr in frames:
            f.write(struct.pack("<IIII", 0, 0, len(fr), len(fr)) + fr)
