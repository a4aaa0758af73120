#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-ktap.sh - the selftests' reporting, without a guest: a case that
# misses only a timing bound (selftests/lib.sh check_time) fails on a
# machine that did not say it is slow and is an expected failure (XFAIL)
# on one that did (KSFT_MACHINE_SLOW=yes), while a functional failure
# fails either way; tools/ktap-count.awk counts XFAILs apart from passes
# and failures. Run by "make check" (tools/check.sh).
set -uo pipefail

tree=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd -P)
bad=0

# run_cases SLOW: a program of three cases through lib.sh, its KTAP and
# exit status as run_kselftest.sh would show them.
run_cases()
{
	local out rc

	out=$(KSFT_MACHINE_SLOW=$1 bash -c '
		source "$1/selftests/lib.sh"
		ktap_plan 3
		check_err 0 "fine"
		check_time 0 "fast enough"
		log_test "all met"
		check_time 1 "12 of 20 MB/s"
		log_test "a rate missed"
		check_time 1 "p99 9 ms, bound 5"
		check_err 1 "a message lost"
		log_test "a rate missed and a message lost"
		exit "$(ktap_exit)"' _ "$tree" 2>/dev/null)
	rc=$?
	sed 's/^/# /' <<<"$out"
	if ((rc == 0)); then
		echo "ok 1 selftests: hyperframe: t.sh"
	else
		echo "not ok 1 selftests: hyperframe: t.sh # exit=$rc"
	fi
}

# expect WHAT GOT WANT
expect()
{
	if [[ $2 != "$3" ]]; then
		echo "test-ktap: $1: got '$2', want '$3'" >&2
		bad=1
	fi
}

for slow in no yes; do
	log=$(run_cases "$slow")
	counts=$( (echo "TAP version 13"; echo "1..1"; echo "$log") |
		awk -f "$tree/tools/ktap-count.awk" 2>/dev/null)
	expect "case 1, slow=$slow" "$(grep -c '^# ok 1 all met$' <<<"$log")" 1
	# The first failure recorded names the case; a bound missed on a slow
	# machine is none.
	why="p99 9 ms, bound 5"
	[[ $slow == no ]] || why="a message lost"
	expect "case 3, slow=$slow" \
		"$(grep -c "^# not ok 3 a rate missed and a message lost # $why\$" <<<"$log")" 1
	if [[ $slow == yes ]]; then
		expect "case 2, slow" "$(grep -c '^# ok 2 a rate missed # XFAIL 12 of 20 MB/s$' <<<"$log")" 1
		# 1 pass, case 3 and its program's failure counted once, 1 XFAIL.
		expect "counts, slow" "$counts" "1 1 1"
	else
		expect "case 2" "$(grep -c '^# not ok 2 a rate missed # 12 of 20 MB/s$' <<<"$log")" 1
		expect "counts" "$counts" "1 2 0"
	fi
done
# A program whose only miss is a timing bound passes on a slow machine,
# its case an XFAIL; the count never takes it for a pass.
log=$( (echo "TAP version 13"; echo "1..1"; echo "# 1..1";
	echo "# ok 1 rate # XFAIL 12 of 20"; echo "ok 1 selftests: t") |
	awk -f "$tree/tools/ktap-count.awk" 2>&1 >/dev/null)
expect "XFAIL listed" "$log" "XFAIL: ok 1 rate # XFAIL 12 of 20"
((bad == 0)) && echo "test-ktap: check_time, XFAIL and their count as specified"
exit "$bad"
