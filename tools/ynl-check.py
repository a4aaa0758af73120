#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks the family's YNL spec (docs/netlink/hyperframe.yaml), a "make
check" lint step that needs no guest:

1. the spec is valid against the schema of its protocol (genetlink-c),
   from the kernel's YNL tooling (tools/ynl.sh);
2. the uapi enums and defines that ynl-gen-c.py --mode uapi generates from
   it are those of uapi/linux/hyperframe.h: every enum of the header, by
   type name, with the same members in the same order and the same
   values, and none more; the family name, version and multicast group
   defines with the same values. Whitespace, comments and the form of a
   value (HF_X_MAX = __HF_X_MAX - 1 or (__HF_X_MAX - 1)) do not matter.
   The header's other defines are not generated: the address family,
   socket options and structs are not netlink, and the generator of 6.12
   names a spec's constants after the family (HYPERFRAME_*), so
   HF_BUCKET_A_LE_INF and HF_RATE_SCALE_ONE are only documented in the
   spec (its doc says so).

ynl-gen-c.py walks up from the spec to a MAINTAINERS file and loops
forever without one, so it runs on a copy of the spec in a temporary
directory laid out as the kernel's (MAINTAINERS, netlink/SCHEMA.yaml,
netlink/specs/SPEC.yaml), never in the tree, and under a timeout.

--self-test: also proves the comparison fails on a header with a member
missing, a value changed, a member renamed, an enum renamed, and a define
changed.

Usage: ynl-check.py [--spec SPEC] [--header HEADER] [--self-test]
Exits 0 when all holds, 1 otherwise (each difference printed).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import jsonschema
import yaml

TREE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def ynl_dir():
    """The kernel's YNL tooling, fetched by tools/ynl.sh if missing."""
    out = subprocess.run([os.path.join(TREE, "tools/ynl.sh")], check=True,
                         stdout=subprocess.PIPE, text=True)
    return out.stdout.strip()


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def value_of(expr, known):
    """An enum member's or define's value: a literal, NAME, NAME - N."""
    expr = expr.strip()
    while expr.startswith("(") and expr.endswith(")"):
        expr = expr[1:-1].strip()
    m = re.fullmatch(r"(0x[0-9a-fA-F]+|[0-9]+)[uUlL]*", expr)
    if m:
        return int(m.group(1), 0)
    m = re.fullmatch(r"([A-Za-z_]\w*)\s*(?:([-+])\s*([0-9]+))?", expr)
    if m and m.group(1) in known:
        v = known[m.group(1)]
        if m.group(2):
            v = v - int(m.group(3)) if m.group(2) == "-" else v + int(m.group(3))
        return v
    raise ValueError(f"cannot evaluate {expr!r}")


def parse_header(text):
    """{enum name: [(member, value)]} and {define: value text}."""
    text = strip_comments(text)
    enums = {}
    known = {}
    for m in re.finditer(r"\benum\s+(\w+)\s*\{(.*?)\}\s*;", text, flags=re.S):
        members = []
        nxt = 0
        for item in m.group(2).split(","):
            item = item.strip()
            if not item:
                continue
            name, _, expr = item.partition("=")
            name = name.strip()
            val = value_of(expr, known) if expr else nxt
            known[name] = val
            members.append((name, val))
            nxt = val + 1
        enums[m.group(1)] = members
    defines = {}
    # With a value: not the include guard.
    for m in re.finditer(r"^\s*#\s*define\s+(\w+)[ \t]+([^\n]+)$", text, flags=re.M):
        defines[m.group(1)] = m.group(2).strip()
    return enums, defines


def compare(ours, generated, label_ours, label_gen):
    """Differences between two parsed headers, as lines."""
    (enums, defines), (genums, gdefines) = ours, generated
    diffs = []
    for name in sorted(set(enums) | set(genums)):
        if name not in genums:
            diffs.append(f"enum {name}: in {label_ours}, not generated")
            continue
        if name not in enums:
            diffs.append(f"enum {name}: generated, not in {label_ours}")
            continue
        a, b = enums[name], genums[name]
        if a == b:
            continue
        for i in range(max(len(a), len(b))):
            x = a[i] if i < len(a) else None
            y = b[i] if i < len(b) else None
            if x != y:
                diffs.append(f"enum {name}, member {i}: {label_ours} {x}, {label_gen} {y}")
                break
    for name in sorted(gdefines):
        if name not in defines:
            diffs.append(f"#define {name}: generated, not in {label_ours}")
        elif defines[name] != gdefines[name]:
            diffs.append(f"#define {name}: {label_ours} {defines[name]}, "
                         f"{label_gen} {gdefines[name]}")
    return diffs


def generate(ynl, spec_path, spec):
    """ynl-gen-c.py --mode uapi of the spec, in a kernel-like temp dir."""
    schema = f"{spec.get('protocol', 'genetlink')}.yaml"
    with tempfile.TemporaryDirectory(prefix="hf-ynl-") as tmp:
        os.makedirs(os.path.join(tmp, "netlink/specs"))
        open(os.path.join(tmp, "MAINTAINERS"), "w").close()
        shutil.copy(os.path.join(ynl, "Documentation/netlink", schema),
                    os.path.join(tmp, "netlink", schema))
        copy = os.path.join(tmp, "netlink/specs", os.path.basename(spec_path))
        shutil.copy(spec_path, copy)
        out = os.path.join(tmp, "uapi.h")
        subprocess.run([sys.executable, os.path.join(ynl, "tools/net/ynl/ynl-gen-c.py"),
                        "--mode", "uapi", "--header", "--spec", copy, "-o", out],
                       check=True, timeout=300, cwd=tmp)
        with open(out) as f:
            return f.read()


def self_test(header_text, generated):
    """The comparison must catch each of these changes to the header."""
    cases = [
        ("a member missing", "\tHF_PEER_A_LINK_SHARE,", ""),
        ("a value changed", "\tHF_EVENT_A_TYPE,", "\tHF_EVENT_A_TYPE = 2,"),
        ("a member renamed", "\tHF_QDISC_A_MEMORY_LIMIT,", "\tHF_QDISC_A_MEM_LIMIT,"),
        ("an enum renamed", "enum hf_event_sign {", "enum hf_event_signs {"),
        ("a define changed", '#define HF_GENL_MCGRP_EVENTS\t"events"',
         '#define HF_GENL_MCGRP_EVENTS\t"event"'),
    ]
    gen = parse_header(generated)
    failed = 0
    for what, old, new in cases:
        if header_text.count(old) != 1:
            print(f"ynl-check: self-test: {old!r} not once in the header")
            failed += 1
            continue
        diffs = compare(parse_header(header_text.replace(old, new)), gen,
                        "header", "generated")
        print(f"ynl-check: self-test, {what}: "
              f"{'caught: ' + diffs[0] if diffs else 'NOT CAUGHT'}")
        failed += not diffs
    return failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--spec", default=os.path.join(TREE, "docs/netlink/hyperframe.yaml"))
    ap.add_argument("--header", default=os.path.join(TREE, "uapi/linux/hyperframe.h"))
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()

    ynl = ynl_dir()
    with open(args.spec) as f:
        spec = yaml.safe_load(f)
    schema_path = os.path.join(ynl, "Documentation/netlink",
                               f"{spec.get('protocol', 'genetlink')}.yaml")
    with open(schema_path) as f:
        schema = yaml.safe_load(f)
    try:
        jsonschema.validate(spec, schema)
    except jsonschema.ValidationError as e:
        print(f"ynl-check: {args.spec} is not valid against {schema_path}: {e.message} "
              f"(at {'/'.join(str(p) for p in e.absolute_path)})")
        return 1
    print(f"ynl-check: {os.path.relpath(args.spec, TREE)} is valid against "
          f"{os.path.relpath(schema_path, ynl)} of {os.path.basename(ynl)}")

    generated = generate(ynl, args.spec, spec)
    with open(args.header) as f:
        header_text = f.read()
    ours = parse_header(header_text)
    gen = parse_header(generated)
    diffs = compare(ours, gen, "header", "generated")
    for d in diffs:
        print(f"ynl-check: {d}")
    members = sum(len(v) for v in gen[0].values())
    if not diffs:
        print(f"ynl-check: ynl-gen-c.py --mode uapi gives the header's {len(gen[0])} enums "
              f"({members} members) and its {len(gen[1])} family defines")
    failed = len(diffs)
    if args.self_test:
        failed += self_test(header_text, generated)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
