#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# libhyperframe's hf::Socket against the real module: hf_libsocket (built
# with the userspace, userspace/selftests/) opens one socket in each of two
# namespaces joined by veth and, case by case, checks messages of 0 B to
# 3 MiB arriving byte-exact with the sender's address and answered back to
# it; a message longer than the buffer reported truncated with its length,
# peeked and read, the rest of it gone; MSG_DONTWAIT on an empty socket
# failing with EAGAIN as an error_code and as an exception; and the errno
# of refused binds and sends in both forms.

source "$(dirname "$(readlink -f "$0")")/lib.sh"

PROG=${HF_LIBSOCKET:-${HF_BUILD:?set HF_LIBSOCKET or HF_BUILD}/userspace/selftests/hf_libsocket}
LOGS=$(mktemp -d)
defer rm -rf "$LOGS"

# run_case CASE SUMMARY
run_case()
{
	ip netns exec "${HF_NODES[0]}" timeout 300 "$PROG" "${HF_NODES[0]}" "${HF_NODES[1]}" "$1" \
		>"$LOGS/$1" 2>&1
	check_err $? "hf_libsocket $1: $(grep -m 1 FAIL "$LOGS/$1" || tail -n 1 "$LOGS/$1")"
	sed 's/^\([^#]\)/# \1/' "$LOGS/$1"
	log_test "libsocket: $2"
}

ktap_plan 4

[[ -x $PROG ]] || { echo "# $PROG is missing (build userspace)"; exit "$KSFT_FAIL"; }
hf_topo_create 2
check_err $? "topology"

run_case exchange "messages of 0 B to 3 MiB byte-exact both ways, sender addresses right"
run_case truncate "a message longer than the buffer: truncated, its length told, the rest gone"
run_case dontwait "MSG_DONTWAIT on an empty socket: EAGAIN, error_code and exception"
run_case errors "refused binds and sends: the errno, both forms"

exit "$(ktap_exit)"
