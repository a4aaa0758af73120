#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ledger.sh - shared by hf_lifecycle.sh and hf_faults.sh, sourced after
# lib.sh: reading the tallies hf_account prints, checking its ledgers, and
# waiting and reading counters without starting processes (in a TCG guest,
# a debug kernel's above all, every exec costs up to seconds, and these
# tests poll).

# wait_until MS CMD...: retry CMD until it succeeds or MS ms have passed.
wait_until()
{
	local end=$((${EPOCHREALTIME/./} / 1000 + $1))

	shift
	until "$@"; do
		((${EPOCHREALTIME/./} / 1000 > end)) && return 1
		sleep 0.02
	done
}

# line_of FILE PREFIX: the first line of FILE that starts with PREFIX.
line_of()
{
	local l

	[[ -r $1 ]] || return
	while IFS= read -r l; do
		[[ $l == "$2"* ]] && { echo "$l"; return; }
	done <"$1"
}

# has_line FILE PREFIX: FILE has such a line ("ready" from a receiver).
has_line()
{
	[[ -n $(line_of "$1" "$2") ]]
}

# comment TEXT: TEXT as KTAP comment lines.
comment()
{
	local l

	while IFS= read -r l; do
		echo "# $l"
	done <<<"$1"
}

# field LINE KEY: the value of KEY=VALUE in an "account:" line.
field()
{
	local re=" $2=([^ ]*)"

	[[ " $1" =~ $re ]] && echo "${BASH_REMATCH[1]}"
}

# count LIST NAME: how many NAME in a tally like "ENOMEM:3,ENETDOWN:1".
count()
{
	local re="(^|,)$2:([0-9]+)"

	if [[ $1 =~ $re ]]; then
		echo "${BASH_REMATCH[2]}"
	else
		echo 0
	fi
}

# pid_stat PID NAME: NSV is counter NAME of /proc/net/hyperframe in the
# namespace PID lives in (0 when the process or the counter is gone).
pid_stat()
{
	local k v

	NSV=0
	[[ -r /proc/$1/net/hyperframe ]] || return
	while read -r k v; do
		[[ $k == "$2" ]] && NSV=$v
	done <"/proc/$1/net/hyperframe"
}

# gone PID: the child PID has exited (a zombie until waited for).
gone()
{
	local pid comm state

	read -r pid comm state _ 2>/dev/null <"/proc/$1/stat" || return 0
	[[ $state == Z ]]
}

# bounded_wait PID SECONDS: wait for the child PID, killing it (and
# failing the case) when it outlives SECONDS; returns its status.
bounded_wait()
{
	if ! wait_until $(($2 * 1000)) gone "$1"; then
		kill -9 "$1"
		check_err 1 "process $1 still running after $2 s"
	fi
	wait "$1"
}

# ledger_check SENDLOG RECVLOG UNNAMED [lenient]: the sender's ledger
# (hf_account send --log: "N ok|failed ERR|refused ERR") against the
# numbers the receiver got. Every number received was accepted; every one
# accepted and not reported failed was received, but for at most UNNAMED
# failures no error-queue entry named ("lenient", for a receiver that was
# killed, drops this rule). Sets DELIVERED, FAILED and ANYWAY (reported
# failed, yet arrived) and prints the tally.
ledger_check()
{
	local out rc

	out=$(awk -v unnamed="$3" -v lenient="${4:-}" '
		FNR == NR { st[$1] = $2; next }
		{ rcv[$1]++ }
		END {
			for (n in rcv) {
				if (st[n] != "ok" && st[n] != "failed") {
					printf "message %s arrived but sendmsg did not accept it\n", n
					bad++
				}
				if (st[n] == "failed")
					anyway++
			}
			for (n in st) {
				if (st[n] == "ok") { acc++; if (n in rcv) got++; else missing++ }
				if (st[n] == "failed") { acc++; failed++ }
				if (st[n] == "refused") refused++
			}
			if (!lenient && missing > unnamed + 0) {
				printf "%d accepted messages neither arrived nor were reported failed\n", missing - unnamed
				bad++
			}
			printf "%d %d %d %d %d %d\n", acc, got, failed, anyway, refused,
				lenient ? 0 : missing
			exit bad ? 1 : 0
		}' "$1" "$2")
	rc=$?
	local acc refused missing
	read -r acc DELIVERED FAILED ANYWAY refused missing <<<"${out##*$'\n'}"
	echo "# ledger: accepted $acc, delivered $DELIVERED, reported failed $FAILED" \
		"(of which arrived $ANYWAY), refused $refused, unaccounted $missing"
	if ((rc)); then
		check_err $rc "${out%%$'\n'*}"
	fi
}
