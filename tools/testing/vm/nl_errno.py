#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""The errnos of the rdma_mcm generic netlink family's requests, as the
kernel answers them, against those Documentation/netlink.rst names.

Each case sends one malformed (or refused) request over a raw
AF_NETLINK socket, without librdmamcm, and reads the errno of the ack
(and its extended ack message). Each prints one line:

    ok|not ok NAME: errno NAME_OF_ERRNO (expected ...) [extack "..."]

and the script exits 1 when any case answered another errno than the one
documented, or when a documented request errno is not exercised by a
case (the doc's "Request errors" table is parsed: every row names a
case). Run as root; the unprivileged case forks a child that drops to
uid 65534.

  nl_errno.py [--doc PATH]     default /usr/libexec/rdma_mcm/netlink.rst
  nl_errno.py --watch-family   join the controller's "notify" group and
                               rdma_mcm's "events", print "subscribed",
                               wait for the family's removal: print
                               "delfamily rdma_mcm" and what a request for
                               the family gets then; exit 0
"""

import argparse
import errno
import os
import re
import socket
import struct
import sys

NETLINK_GENERIC = 16
GENL_ID_CTRL = 0x10
CTRL_CMD_DELFAMILY = 2
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2
CTRL_ATTR_MCAST_GROUPS = 7
CTRL_ATTR_MCAST_GRP_NAME = 1
CTRL_ATTR_MCAST_GRP_ID = 2
NLM_F_REQUEST = 0x1
NLM_F_ACK = 0x4
NLM_F_DUMP = 0x300
NLMSG_ERROR = 2
NLMSG_DONE = 3
NLM_F_ACK_TLVS = 0x200
NLMSGERR_ATTR_MSG = 1
SOL_NETLINK = 270
NETLINK_ADD_MEMBERSHIP = 1
NETLINK_EXT_ACK = 11

# include/uapi/rdma/rdma_mcm_netlink.h
CMD_MEMBER_GET, CMD_CTX_GET, CMD_STATS_GET = 1, 2, 3
A_CTX_ID, A_HANDLE = 2, 3


def nla(kind, payload):
    hdr = struct.pack("HH", 4 + len(payload), kind)
    pad = b"\0" * (-len(payload) % 4)
    return hdr + payload + pad


def u32(kind, value):
    return nla(kind, struct.pack("I", value))


class Genl:
    def __init__(self):
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                                  NETLINK_GENERIC)
        self.sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.sock.bind((0, 0))
        self.seq = 0

    def send(self, family, cmd, attrs=b"", flags=NLM_F_REQUEST | NLM_F_ACK,
             reserved=0):
        self.seq += 1
        body = struct.pack("BBH", cmd, 1, reserved) + attrs
        msg = struct.pack("IHHII", 16 + len(body), family, flags, self.seq,
                          0) + body
        self.sock.send(msg)
        return self.seq

    def answer(self, seq):
        """(errno, extack text, [payloads]) of the request @seq"""
        payloads = []
        while True:
            data = self.sock.recv(1 << 16)
            off = 0
            while off + 16 <= len(data):
                length, kind, flags, s, _ = struct.unpack_from("IHHII", data,
                                                               off)
                msg = data[off + 16:off + length]
                off += (length + 3) & ~3
                if s != seq:
                    continue
                if kind == NLMSG_DONE:
                    return 0, "", payloads
                if kind != NLMSG_ERROR:
                    payloads.append(msg)
                    continue
                err = -struct.unpack_from("i", msg)[0]
                text = ""
                if flags & NLM_F_ACK_TLVS:
                    inner = struct.unpack_from("I", msg, 4)[0]
                    tlvs = msg[4 + (inner if err else 16):]
                    for kind2, val in attrs_of(tlvs):
                        if kind2 == NLMSGERR_ATTR_MSG:
                            text = val.rstrip(b"\0").decode(errors="replace")
                return err, text, payloads


def attrs_of(data):
    off = 0
    while off + 4 <= len(data):
        length, kind = struct.unpack_from("HH", data, off)
        if length < 4:
            return
        yield kind & 0x3fff, data[off + 4:off + length]
        off += (length + 3) & ~3


def resolve(nl, name="rdma_mcm", group_name="events"):
    """the id of family @name and of its multicast group @group_name"""
    seq = nl.send(GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                  nla(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0"))
    err, text, payloads = nl.answer(seq)
    if err or not payloads:
        sys.exit(f"cannot resolve the {name} family: {os.strerror(err)}")
    family = group = None
    for kind, val in attrs_of(payloads[0][4:]):
        if kind == CTRL_ATTR_FAMILY_ID:
            family = struct.unpack("H", val[:2])[0]
        elif kind == CTRL_ATTR_MCAST_GROUPS:
            for _, grp in attrs_of(val):
                fields = dict(attrs_of(grp))
                if fields.get(CTRL_ATTR_MCAST_GRP_NAME, b"") == \
                        group_name.encode() + b"\0":
                    group = struct.unpack(
                        "I", fields[CTRL_ATTR_MCAST_GRP_ID][:4])[0]
    return family, group


def watch_family():
    """wait for the controller to say that rdma_mcm went away"""
    nl = Genl()
    _, notify = resolve(nl, "nlctrl", "notify")
    _, events = resolve(nl)
    nl.sock.setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, notify)
    nl.sock.setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, events)
    print("subscribed", flush=True)
    while True:
        data = nl.sock.recv(1 << 16)
        off = 0
        while off + 20 <= len(data):
            length, kind = struct.unpack_from("IH", data, off)
            cmd = data[off + 16]
            body = data[off + 20:off + length]
            off += (length + 3) & ~3
            if kind != GENL_ID_CTRL or cmd != CTRL_CMD_DELFAMILY:
                continue
            name = dict(attrs_of(body)).get(CTRL_ATTR_FAMILY_NAME, b"")
            if name.rstrip(b"\0") != b"rdma_mcm":
                continue
            print("delfamily rdma_mcm", flush=True)
            seq = nl.send(GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                          nla(CTRL_ATTR_FAMILY_NAME, b"rdma_mcm\0"))
            err, _, _ = nl.answer(seq)
            print(f"then GETFAMILY rdma_mcm: {errno.errorcode.get(err, err)}")
            return 0


def join_events_as(uid, group):
    """the errno of joining the events group as @uid (0: it joined)"""
    pid = os.fork()
    if pid == 0:
        try:
            os.setgid(uid)
            os.setuid(uid)
            s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                              NETLINK_GENERIC)
            s.setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, group)
            os._exit(0)
        except OSError as e:
            os._exit(e.errno)
    return os.waitpid(pid, 0)[1] >> 8


# name: (what is sent, errno documented)
def cases(nl, family, group):
    dump = NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP
    req = NLM_F_REQUEST | NLM_F_ACK
    return {
        "member-get-ctx-id-0":
            (lambda: nl.send(family, CMD_MEMBER_GET, u32(A_CTX_ID, 0), dump),
             errno.ERANGE),
        "ctx-get-ctx-id-0":
            (lambda: nl.send(family, CMD_CTX_GET, u32(A_CTX_ID, 0), dump),
             errno.ERANGE),
        "ctx-id-short":
            (lambda: nl.send(family, CMD_MEMBER_GET,
                             nla(A_CTX_ID, b"\1\0"), dump), errno.EINVAL),
        "member-get-other-attribute":
            (lambda: nl.send(family, CMD_MEMBER_GET, u32(A_HANDLE, 1), dump),
             errno.EINVAL),
        "member-get-unknown-attribute":
            (lambda: nl.send(family, CMD_MEMBER_GET, u32(200, 1), dump),
             errno.EINVAL),
        "stats-get-attribute":
            (lambda: nl.send(family, CMD_STATS_GET, u32(A_CTX_ID, 1), req),
             errno.EINVAL),
        "reserved-header":
            (lambda: nl.send(family, CMD_STATS_GET, b"", req, reserved=1),
             errno.EINVAL),
        "unknown-command":
            (lambda: nl.send(family, 99, b"", req), errno.EOPNOTSUPP),
        "member-get-without-dump":
            (lambda: nl.send(family, CMD_MEMBER_GET, b"", req),
             errno.EOPNOTSUPP),
        "events-unprivileged":
            (lambda: ("errno", join_events_as(65534, group)), errno.EPERM),
    }


def documented(path):
    """the case names and errnos of netlink.rst's "Request errors" table"""
    text = open(path).read()
    m = re.search(r"^Request errors\n-+\n(.*?)(?=^\S[^\n]*\n-+\n|\Z)", text,
                  re.M | re.S)
    if not m:
        sys.exit(f"{path}: no \"Request errors\" section")
    rows = re.findall(r"^``([a-z0-9-]+)``\s+``(E[A-Z0-9]+)``", m.group(1),
                      re.M)
    if not rows:
        sys.exit(f"{path}: no rows in \"Request errors\"")
    return dict(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--doc", default="/usr/libexec/rdma_mcm/netlink.rst")
    ap.add_argument("--watch-family", action="store_true")
    args = ap.parse_args()
    if args.watch_family:
        return watch_family()
    doc = documented(args.doc)
    nl = Genl()
    family, group = resolve(nl)
    bad = 0
    all_cases = cases(nl, family, group)
    for name, want in sorted(doc.items()):
        if name not in all_cases:
            print(f"not ok {name}: documented, but no case sends it")
            bad += 1
            continue
        send, expect = all_cases[name]
        # by number: EOPNOTSUPP is ENOTSUP on Linux, errorcode names one
        if getattr(errno, want, None) != expect:
            print(f"not ok {name}: the doc says {want}, the case expects "
                  f"{errno.errorcode.get(expect)}")
            bad += 1
        out = send()
        if isinstance(out, tuple):	# an errno, not a request's sequence
            err, text = out[1], ""
        else:
            err, text, _ = nl.answer(out)
        got = want if err == getattr(errno, want, None) else \
            errno.errorcode.get(err, str(err)) if err else "0"
        verdict = "ok" if got == want else "not ok"
        bad += verdict != "ok"
        extra = f' extack "{text}"' if text else ""
        print(f"{verdict} {name}: errno {got} (documented {want}){extra}")
    for name in sorted(set(all_cases) - set(doc)):
        print(f"not ok {name}: a case the doc's table does not list")
        bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
