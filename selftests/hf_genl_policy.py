#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# The "hyperframe" generic netlink family validates every request by
# policy, so nothing a caller sends is ignored: raw requests (no hfctl in
# between) carrying an attribute that the command does not take, or one
# of an unknown type, are refused with EINVAL and an extended-ack message,
# while the same requests without it succeed. Prints one line per request;
# exits 1 on the first that behaves otherwise.
#
# Command and attribute numbers are the family's ABI (uapi/linux/
# hyperframe.h): they are written here as a user would have them.

import errno
import os
import socket
import struct
import sys

NETLINK_GENERIC = 16
SOL_NETLINK = 270
NETLINK_EXT_ACK = 11
NETLINK_CAP_ACK = 10
NLM_F_REQUEST, NLM_F_ACK, NLM_F_DUMP = 0x1, 0x4, 0x300
NLMSG_ERROR, NLMSG_DONE = 2, 3
NLMSGERR_ATTR_MSG = 1
GENL_ID_CTRL, CTRL_CMD_GETFAMILY = 0x10, 3
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 1, 2

HF_CMD_CONFIG_GET, HF_CMD_CONFIG_SET, HF_CMD_STATS_GET = 1, 2, 3
HF_CMD_PEER_GET, HF_CMD_SOCKET_GET, HF_CMD_DEV_GET = 4, 5, 9
HF_CONFIG_A_PEER_IDLE_MS = 7
HF_CONFIG_A_BEYOND = 200  # no such attribute


def attr(kind, payload):
    """One netlink attribute, padded to 4 bytes."""
    head = struct.pack("=HH", 4 + len(payload), kind)
    return head + payload + b"\0" * (-len(payload) % 4)


def attrs(data):
    """Yield (type, payload) of the attributes in data."""
    while len(data) >= 4:
        length, kind = struct.unpack_from("=HH", data)
        if length < 4:
            return
        yield kind & 0x3FFF, data[4:length]
        data = data[(length + 3) & ~3:]


class Genl:
    def __init__(self):
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
        self.sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.sock.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        self.sock.bind((0, 0))
        self.seq = 0

    def request(self, family, cmd, body=b"", flags=0):
        """Send one request; return (errno, extack message, replies)."""
        self.seq += 1
        payload = struct.pack("=BBH", cmd, 1, 0) + body
        head = struct.pack("=IHHII", 16 + len(payload), family,
                           NLM_F_REQUEST | NLM_F_ACK | flags, self.seq, 0)
        self.sock.send(head + payload)
        replies = []
        while True:
            data = self.sock.recv(1 << 20)
            while len(data) >= 16:
                length, kind, _, seq, _ = struct.unpack_from("=IHHII", data)
                msg, data = data[16:length], data[(length + 3) & ~3:]
                if seq != self.seq:
                    continue
                if kind == NLMSG_DONE:
                    return 0, "", replies
                if kind != NLMSG_ERROR:
                    replies.append(msg)
                    continue
                err = -struct.unpack_from("=i", msg)[0]
                text = ""
                for k, v in attrs(msg[20:]):
                    if k == NLMSGERR_ATTR_MSG:
                        text = v.rstrip(b"\0").decode()
                return err, text, replies

    def family(self, name):
        err, text, replies = self.request(
            GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
            attr(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0"))
        if err:
            sys.exit("cannot resolve %s: %s %s" % (name, os.strerror(err), text))
        for k, v in attrs(replies[0][4:]):
            if k == CTRL_ATTR_FAMILY_ID:
                return struct.unpack("=H", v)[0]
        sys.exit("no id for %s" % name)


def expect(genl, fam, what, cmd, body, flags, want_err, want_text):
    err, text, _ = genl.request(fam, cmd, body, flags)
    ok = err == want_err and want_text in text
    print("%-44s %s%s %s" % (what, errno.errorcode.get(err, err) if err else "ok",
                             " (%s)" % text if text else "", "" if ok else "UNEXPECTED"))
    if not ok:
        sys.exit("%s: wanted %s with %r" % (what, errno.errorcode.get(want_err, want_err),
                                            want_text))


def main():
    genl = Genl()
    fam = genl.family("hyperframe")
    one = attr(1, struct.pack("=I", 0))
    far = attr(HF_CONFIG_A_BEYOND, struct.pack("=I", 0))
    gets = [("config get", HF_CMD_CONFIG_GET, 0), ("stats get", HF_CMD_STATS_GET, 0),
            ("peer dump", HF_CMD_PEER_GET, NLM_F_DUMP),
            ("socket dump", HF_CMD_SOCKET_GET, NLM_F_DUMP),
            ("dev dump", HF_CMD_DEV_GET, NLM_F_DUMP)]
    for what, cmd, flags in gets:
        expect(genl, fam, what, cmd, b"", flags, 0, "")
        expect(genl, fam, what + " with attribute 1", cmd, one, flags,
               errno.EINVAL, "this request takes no attribute")
        expect(genl, fam, what + " with attribute 200", cmd, far, flags,
               errno.EINVAL, "Unknown attribute type")
    # A set naming an attribute the family does not have changes nothing,
    # even beside a valid one.
    idle = attr(HF_CONFIG_A_PEER_IDLE_MS, struct.pack("=I", 4321))
    expect(genl, fam, "config set with attribute 200", HF_CMD_CONFIG_SET,
           idle + far, 0, errno.EINVAL, "Unknown attribute type")
    expect(genl, fam, "config set with a truncated attribute", HF_CMD_CONFIG_SET,
           attr(HF_CONFIG_A_PEER_IDLE_MS, b"\1\0"), 0, errno.EINVAL,
           "invalid attribute length")


if __name__ == "__main__":
    main()
