#!/bin/bash
# Scans a guest console log for kernel reports that must fail a run and
# prints each offending line. Exits 1 when it found one, 0 when clean.
#
# --stale-int3 asks instead whether the first report is the emulator
# fault run.sh boots again for, and exits 0 if it is: an int3 trap
# ("Oops: int3: 0000 [#1]" on 6.12, "int3: 0000 [#1]" on 6.1) whose Code:
# line shows that the byte before the trapping RIP is no longer 0xcc.
# The kernel patches code (static keys, static calls) by writing int3
# over an instruction's first byte and restoring it after;
# a CPU that traps on an int3 its memory does not hold ran a stale
# translation of that code, which TCG has been seen to do under load.
set -u
stale_int3=0
if [[ ${1:-} == --stale-int3 ]]; then
	stale_int3=1
	shift
fi
log=${1:?usage: console-check.sh [--stale-int3] CONSOLE.LOG}

# A die() header: "Oops: int3: 0000 [#1]" from 6.12, "int3: 0000 [#1]" on 6.1.
pattern='(Oops|BUG:|WARNING:|Kernel panic|general protection fault|'
pattern+='[a-z0-9 ]+: [0-9a-f]{4} \[#[0-9]+\]|'
pattern+='rcu: INFO:|RCU Stall|rcu_sched detected stall|'
pattern+='INFO: task .* blocked for more than|'
pattern+='possible recursive locking|possible circular locking|'
pattern+='inconsistent lock state|suspicious RCU usage|'
pattern+='INFO: trying to register non-static key|'
pattern+='KASAN:|UBSAN:|KFENCE:|ODEBUG:|kmemleak: [0-9]+ new suspected|'
pattern+='unreferenced object|refcount_t:|list_(add|del) corruption|'
pattern+='unregister_netdevice: waiting for)'

if ((stale_int3)); then
	first=$(grep -aE -m 1 "$pattern" "$log")
	[[ $first =~ int3:\ [0-9a-f]{4}\ \[# ]] || exit 1
	# The first Code: line after the report; "<xx>" marks the byte at
	# RIP, and an int3 trap leaves RIP one past the int3.
	code=$(sed -n '/int3: [0-9a-f]\{4\} \[#/,$ { /Code: /{ p; q } }' "$log")
	[[ $code =~ \ ([0-9a-f]{2})\ \<[0-9a-f]{2}\> ]] || exit 1
	[[ ${BASH_REMATCH[1]} != cc ]]
	exit
fi

if grep -aE "$pattern" "$log"; then
	exit 1
fi
exit 0
