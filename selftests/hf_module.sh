#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Module lifecycle: the address family slot (default, chosen by parameter,
# refused when taken or out of range), unload refused while a socket is
# open and allowed once it closes, repeated load/unload cycles, and the
# autoload aliases. Leaves the module loaded with its defaults, as found.

source "$(dirname "$(readlink -f "$0")")/lib.sh"

HOLD=$HF_DIR/hf_sockhold
FAMILY_FILE=/sys/module/hyperframe/parameters/family

refcnt_is_zero()
{
	[[ $(cat /sys/module/hyperframe/refcnt) -eq 0 ]]
}

# insmod_errno PARAMS...: load and print the errno text insmod reported.
insmod_error()
{
	hf_module_unload
	insmod "$HF_MODULE" "$@" 2>&1 >/dev/null | sed -n 's/.*: \([^:]*\)$/\1/p'
}

ktap_plan 8

# Messages of earlier tests may still be resolving (a peer that never
# answers is given up after the retry limit); each pins the module.
hf_module_load
busywait 60000 refcnt_is_zero
check_err $? "the module stayed referenced after earlier tests: $(cat /sys/module/hyperframe/refcnt)"
check_eq "$(cat $FAMILY_FILE)" 18 "default family"
"$HOLD" --probe
check_err $? "socket(18, SOCK_RDM) after load"
log_test "module: loads on family 18 and sockets open"

coproc HOLDER { "$HOLD" --count 3; }
read -r -t 10 line <&"${HOLDER[0]}"
check_eq "$line" "ready 3" "holder did not open its sockets"
test "$(cat /sys/module/hyperframe/refcnt)" -ge 3
check_err $? "each open socket must pin the module"
rmmod hyperframe 2>/dev/null
check_fail $? "rmmod succeeded with sockets open"
hf_module_loaded
check_err $? "module gone while sockets were open"
log_test "module: unload refused while sockets are open"

eval "exec ${HOLDER[1]}>&-"
wait "$HOLDER_PID"
check_err $? "holder failed"
busywait 5000 refcnt_is_zero
check_err $? "refcount did not return to 0 after close"
rmmod hyperframe
check_err $? "rmmod failed after the last socket closed"
log_test "module: unloads once the last socket closes"

check_eq "$(insmod_error family=16)" "File exists" "family=16 (netlink) must be refused"
dmesg | tail -n 5 | grep -q 'address family 16 is taken'
check_err $? "no clear message for a taken family"
check_eq "$(insmod_error family=46)" "No buffer space available" "family=46 (AF_MAX)"
check_eq "$(insmod_error family=0)" "No buffer space available" "family=0"
check_eq "$(insmod_error ethertype=1500)" "Invalid parameters" "ethertype=1500 is a length"
hf_module_loaded
check_fail $? "module stayed loaded after a refused load"
log_test "module: refuses taken, out-of-range and invalid parameters"

hf_module_load family=19
check_eq "$(cat $FAMILY_FILE)" 19 "family parameter"
HF_FAMILY=19 "$HOLD" --probe
check_err $? "socket(19) with family=19"
HF_FAMILY=18 "$HOLD" --probe 2>/dev/null
check_fail $? "socket(18) worked with the module on family 19"
hf_module_unload
log_test "module: family parameter moves the slot"

for ((i = 0; i < 20; i++)); do
	hf_module_load || { check_err 1 "load $i failed"; break; }
	"$HOLD" --count 8 </dev/null >/dev/null || { check_err 1 "sockets $i"; break; }
	hf_module_unload || { check_err 1 "unload $i failed"; break; }
done
log_test "module: 20 load/socket/unload cycles"

# What socket(), a generic netlink lookup by name and tc ask modprobe for:
# tc's alias differs by line (sch_hfq before 6.10, net-sch-hfq since).
case $(uname -r) in
6.1.*) qdisc_alias=sch_hfq ;;
*) qdisc_alias=net-sch-hfq ;;
esac
aliases=$(modinfo -F alias "$HF_MODULE")
for a in net-pf-18 net-pf-16-proto-16-family-hyperframe "$qdisc_alias"; do
	grep -qx -- "$a" <<< "$aliases"
	check_err $? "module has no $a alias (has: $(echo $aliases))"
done
log_test "module: net-pf-18, genl family and $qdisc_alias aliases for autoload"

hf_module_load
check_err $? "final load"
HF_FAMILY= "$HOLD" --probe
check_err $? "hf_sockhold reads the family from sysfs"
log_test "module: left loaded with defaults"

exit "$(ktap_exit)"
