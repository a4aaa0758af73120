#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hfctl against the real module: "module show" in text and JSON agrees with
# sysfs, follows the family parameter, works inside a namespace with -n,
# and when the module is gone says to load it and exits 1.

source "$(dirname "$(readlink -f "$0")")/lib.sh"

HFCTL=${HFCTL:-${HF_BUILD:?set HFCTL or HF_BUILD}/userspace/hfctl/hfctl}

json_field()
{
	python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"
}

ktap_plan 4

hf_module_load
out=$("$HFCTL" module show)
check_err $? "hfctl module show failed"
grep -qx 'family: 18' <<<"$out"
check_err $? "text output lacks 'family: 18': $out"
grep -qx 'ethertype: 0x88b5' <<<"$out"
check_err $? "text output lacks the EtherType: $out"
check_eq "$("$HFCTL" -j module show | json_field family)" 18 "JSON family"
check_eq "$("$HFCTL" -j module show | json_field ethertype)" $((0x88b5)) "JSON ethertype"
log_test "hfctl: module show agrees with sysfs"

hf_module_unload
hf_module_load family=19
check_eq "$("$HFCTL" -j module show | json_field family)" 19 "family after reload"
hf_module_unload
hf_module_load
log_test "hfctl: follows the family parameter"

hf_topo_create 2
check_eq "$("$HFCTL" -n "${HF_NODES[0]}" -j module show | json_field family)" 18 "family seen from a namespace"
"$HFCTL" -n hf-no-such-ns module show 2>/dev/null
check_eq $? 1 "exit status for a missing namespace"
defer_run
log_test "hfctl: -n NETNS"

hf_module_unload
err=$("$HFCTL" module show 2>&1)
check_eq $? 1 "exit status without the module"
grep -q 'load hyperframe.ko first' <<<"$err"
check_err $? "no hint to load the module: $err"
hf_module_load
log_test "hfctl: readable error without the module"

exit "$(ktap_exit)"
