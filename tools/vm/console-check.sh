#!/bin/bash
# Scans a guest console log for kernel reports that must fail a run and
# prints each offending line. Exits 1 when it found one, 0 when clean.
set -u
log=${1:?usage: console-check.sh CONSOLE.LOG}

pattern='(Oops|BUG:|WARNING:|Kernel panic|general protection fault|'
pattern+='rcu: INFO:|RCU Stall|rcu_sched detected stall|'
pattern+='INFO: task .* blocked for more than|'
pattern+='possible recursive locking|possible circular locking|'
pattern+='inconsistent lock state|suspicious RCU usage|'
pattern+='INFO: trying to register non-static key|'
pattern+='KASAN:|UBSAN:|KFENCE:|ODEBUG:|kmemleak: [0-9]+ new suspected|'
pattern+='unreferenced object|refcount_t:|list_(add|del) corruption|'
pattern+='unregister_netdevice: waiting for)'

if grep -aE "$pattern" "$log"; then
	exit 1
fi
exit 0
