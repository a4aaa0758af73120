#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# hf_ynl.sh's comparisons: what the kernel's YNL cli.py read from the
# "hyperframe" family through the spec (docs/netlink/hyperframe.yaml)
# against what hfctl -j shows, and the spec against the kernel's own
# description of the family (nlctrl's getfamily and getpolicy, read with
# cli.py and the kernel's nlctrl spec). Each command prints what it
# compared and exits 1, saying what differs, when anything does.
#
# Usage: hf_ynl.py nlctrl YNL-DIR OUT.json
#        hf_ynl.py policy SPEC NLCTRL.json
#        hf_ynl.py config CLI.json HFCTL.json
#        hf_ynl.py peers CLI.json HFCTL.json
#        hf_ynl.py stats CLI.json HFCTL.json
#        hf_ynl.py devs CLI.json HFCTL.json
#        hf_ynl.py events CLI.json MONITOR.ndjson

import json
import os
import sys

import yaml

LIMITS = {"u8": 0xFF, "u16": 0xFFFF, "u32": 0xFFFFFFFF, "u64": 0xFFFFFFFFFFFFFFFF}


def load(path):
    with open(path) as f:
        return json.load(f)


def underscore(name):
    return name.replace("-", "_")


def fail(msg):
    print(f"# {msg}")
    sys.exit(1)


def limit(value, kind):
    """A spec check's bound: a number or u8-max, u32-min..."""
    if isinstance(value, int):
        return value
    t, _, end = value.rpartition("-")
    if t in LIMITS and end in ("min", "max"):
        return 0 if end == "min" else LIMITS[t]
    fail(f"check value {value!r} of a {kind} is not a number")
    return None


def cmd_nlctrl(ynl, out_path):
    """The kernel's description of the family, read with the YNL library
    and the kernel's nlctrl spec: getfamily, then getpolicy of each
    operation on its own (the policy indexes of a dump are its own)."""
    sys.path.insert(0, os.path.join(ynl, "tools/net/ynl"))
    from lib import YnlFamily  # pylint: disable=import-outside-toplevel

    docs = os.path.join(ynl, "Documentation/netlink")
    ctrl = YnlFamily(os.path.join(docs, "specs/nlctrl.yaml"),
                     os.path.join(docs, "genetlink-legacy.yaml"))
    family = ctrl.do("getfamily", {"family-name": "hyperframe"})
    policies = {}
    for item in family.get("ops", []):
        for o in item.values():
            policies[o["id"]] = ctrl.dump("getpolicy", {"family-name": "hyperframe",
                                                        "op": o["id"]})
    with open(out_path, "w") as f:
        json.dump({"family": family, "policies": policies}, f, default=list)
    print(f"# nlctrl: {len(policies)} operations")


def cmd_policy(spec_path, nlctrl_path):
    """The spec's operations, request attributes, types and checks are
    the kernel's: the ops it registers with do and dump, their permission
    flags, and for each request the attributes its policy accepts (a
    policy dump leaves out the refused ones), with their types and
    ranges; and the family's version and multicast groups."""
    with open(spec_path) as f:
        spec = yaml.safe_load(f)
    saved = load(nlctrl_path)
    family = saved["family"]
    sets = {s["name"]: s for s in spec["attribute-sets"]}

    def attr_ids(set_name):
        val, ids = 1, {}
        for a in sets[set_name]["attributes"]:
            val = a.get("value", val)
            ids[a["name"]] = (val, a)
            val += 1
        return ids

    # Operation values, as the spec numbers them (unified model).
    val, ops = 1, {}
    for op in spec["operations"]["list"]:
        val = op.get("value", val)
        ops[val] = op
        val += 1

    errs = []
    if family.get("version") != 1:
        errs.append(f"family version {family.get('version')}, the spec's 1")
    groups = sorted(g["name"] for item in family.get("mcast-groups", [])
                    for g in item.values())
    want = sorted(g["name"] for g in spec.get("mcast-groups", {}).get("list", []))
    if groups != want:
        errs.append(f"multicast groups {groups}, the spec's {want}")

    kops = {}
    for item in family.get("ops", []):
        for o in item.values():
            kops[o["id"]] = set(o.get("flags", []))
    for cmd, op in ops.items():
        modes = {m for m in ("do", "dump") if m in op}
        if not modes:
            if cmd in kops:
                errs.append(f"{op['name']} ({cmd}): the kernel registers it, "
                            "the spec has no do or dump")
            continue
        if cmd not in kops:
            errs.append(f"{op['name']} ({cmd}): not registered by the kernel")
            continue
        flags = kops[cmd]
        have = {m for m, f in (("do", "cmd-cap-do"), ("dump", "cmd-cap-dump")) if f in flags}
        if have != modes:
            errs.append(f"{op['name']}: the kernel has {sorted(have)}, the spec {sorted(modes)}")
        # admin-perm in the spec is GENL_UNS_ADMIN_PERM (the spec's doc).
        admin = "admin-perm" in op.get("flags", [])
        if admin != ("uns-admin-perm" in flags) or "admin-perm" in flags:
            errs.append(f"{op['name']}: kernel flags {sorted(flags)}, "
                        f"spec flags {op.get('flags', [])}")
    for cmd in kops:
        if cmd not in ops:
            errs.append(f"command {cmd}: registered by the kernel, not in the spec")

    checked = 0
    for cmd, op in ops.items():
        msgs = saved["policies"].get(str(cmd), [])
        op_policy, policies = {}, {}
        for m in msgs:
            if "op-policy" in m:
                op_policy = m["op-policy"]
            if "policy" in m:
                p = m["policy"]
                policies.setdefault(p["policy-id"], {})[p["attr-id"]] = p
        for mode in ("do", "dump"):
            if mode not in op:
                continue
            ids = attr_ids(op["attribute-set"])
            names = op[mode].get("request", {}).get("attributes", [])
            want = {ids[n][0]: ids[n][1] for n in names}
            pid = op_policy.get(mode)
            got = policies.get(pid, {}) if pid is not None else {}
            where = f"{op['name']} {mode}"
            if set(got) != set(want):
                errs.append(f"{where}: the kernel accepts attributes {sorted(got)}, "
                            f"the spec's request {sorted(want)}")
                continue
            for aid, a in want.items():
                k = got[aid]
                if k.get("type") != a["type"]:
                    errs.append(f"{where} {a['name']}: kernel type {k.get('type')}, "
                                f"spec {a['type']}")
                    continue
                if a["type"] in LIMITS:
                    c = a.get("checks", {})
                    lo = limit(c.get("min", 0), a["type"])
                    hi = limit(c.get("max", LIMITS[a["type"]]), a["type"])
                    klo, khi = k.get("min-value-u"), k.get("max-value-u")
                    if (klo, khi) != (lo, hi):
                        errs.append(f"{where} {a['name']}: kernel range {klo}..{khi}, "
                                    f"spec checks {lo}..{hi}")
                checked += 1
    for e in errs:
        print(f"# {e}")
    print(f"# {len(kops)} operations and {checked} request attributes compared "
          f"with the kernel's policies")
    sys.exit(1 if errs else 0)


def cmd_config(cli_path, hfctl_path):
    cli = {underscore(k): v for k, v in load(cli_path).items()}
    hfctl = load(hfctl_path)
    if cli != hfctl:
        diff = sorted(set(cli.items()) ^ set(hfctl.items()))
        fail(f"config-get and hfctl -j config show differ: {diff}")
    print(f"# {len(cli)} settings alike")


def peer_key(p):
    return (p["ifindex"], p["address"])


def cmd_peers(cli_path, hfctl_path):
    cli = []
    for msg in load(cli_path):
        p = {underscore(k): v for k, v in msg.items()}
        p["address"] = p.pop("addr")
        cli.append(p)
    hfctl = load(hfctl_path)
    for p in hfctl:
        p.pop("dev")
    cli.sort(key=peer_key)
    hfctl.sort(key=peer_key)
    if not cli:
        fail("the peer-get dump is empty")
    if cli != hfctl:
        for a, b in zip(cli, hfctl):
            if a != b:
                fail(f"peer {peer_key(a)}: {sorted(set(a.items()) ^ set(b.items()))}")
        fail(f"peers: cli.py {[peer_key(p) for p in cli]}, hfctl {[peer_key(p) for p in hfctl]}")
    print(f"# {len(cli)} peers alike, {len(cli[0])} fields each")


def counters(nests):
    return {c["name"]: c["value"] for c in nests}


def cmd_stats(cli_path, hfctl_path):
    cli = load(cli_path)
    hfctl = load(hfctl_path)
    got = counters(cli["counter"])
    hist = hfctl.pop("frame_size")
    hfctl.pop("devices")
    if got != hfctl:
        fail(f"counters differ: {sorted(set(got.items()) ^ set(hfctl.items()))}")
    inf = LIMITS["u64"]
    buckets = [{"le": b["le"], "count": b["count"]} for b in cli["frame-size-bucket"]]
    want = [{"le": inf if b["le"] == "+Inf" else b["le"], "count": b["count"]}
            for b in hist["buckets"]]
    if buckets != want:
        fail(f"frame size buckets: cli.py {buckets}, hfctl {want}")
    if cli["frame-size-sum"] != hist["sum"]:
        fail(f"frame size sum: cli.py {cli['frame-size-sum']}, hfctl {hist['sum']}")
    if got.get("tx_frames", 0) == 0:
        fail("tx_frames is 0: no traffic to compare")
    print(f"# {len(got)} counters and {len(buckets)} buckets alike "
          f"(tx_frames {got['tx_frames']}, frame size sum {hist['sum']})")


def cmd_devs(cli_path, hfctl_path):
    cli = sorted(({"ifindex": d["ifindex"], **counters(d["counter"])} for d in load(cli_path)),
                 key=lambda d: d["ifindex"])
    hfctl = sorted(load(hfctl_path), key=lambda d: d["ifindex"])
    for d in hfctl:
        d.pop("dev")
    if not cli or cli != hfctl:
        fail(f"devices: cli.py {cli}, hfctl {hfctl}")
    print(f"# {len(cli)} devices alike, {len(cli[0]) - 1} counters each")


def event_as_monitor(msg):
    """A cli.py notification in hfctl monitor's NDJSON terms."""
    e = {"event": underscore(msg["type"])}
    for k, v in msg.items():
        if k == "type":
            continue
        k = {"addr": "address", "msgs": "messages"}.get(k, underscore(k))
        e[k] = underscore(v) if isinstance(v, str) and k != "address" else v
    return e


def cmd_events(cli_path, monitor_path):
    """cli.py's events are a run of the monitor's, alike field by field,
    with a peer up and an epoch among them."""
    ntfs = load(cli_path)
    if not isinstance(ntfs, list) or not ntfs:
        fail(f"cli.py received no notification: {ntfs}")
    if any(n.get("name") != "event" for n in ntfs):
        fail(f"a notification not named event: {ntfs}")
    got = [event_as_monitor(n["msg"]) for n in ntfs]
    mon = []
    with open(monitor_path) as f:
        for line in f:
            e = json.loads(line)
            e.pop("dev", None)
            mon.append(e)
    first = [i for i, e in enumerate(mon) if e == got[0]]
    if not any(mon[i:i + len(got)] == got for i in first):
        fail(f"cli.py's {len(got)} events are not a run of the monitor's {len(mon)}: "
             f"first {got[0]}, monitor {mon[:3]}...")
    kinds = {e["event"] for e in got}
    if not {"peer_up", "epoch"} <= kinds:
        fail(f"no peer up and epoch among cli.py's events: {sorted(kinds)}")
    print(f"# {len(got)} events alike in order ({', '.join(sorted(kinds))}), "
          f"of the monitor's {len(mon)}")


def main():
    cmds = {"nlctrl": (cmd_nlctrl, 2), "policy": (cmd_policy, 2), "config": (cmd_config, 2), "peers": (cmd_peers, 2),
            "stats": (cmd_stats, 2), "devs": (cmd_devs, 2), "events": (cmd_events, 2)}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds or len(sys.argv) != 2 + cmds[sys.argv[1]][1]:
        sys.exit(__doc__ if __doc__ else "usage: see the comment at the top")
    cmds[sys.argv[1]][0](*sys.argv[2:])


if __name__ == "__main__":
    main()
