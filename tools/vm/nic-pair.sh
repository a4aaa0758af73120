#!/bin/bash
# Two guests joined by a virtio-net link: QEMU's socket netdev, one guest
# listening on a loopback port and the other connecting to it, so every
# frame between them crosses a real NIC driver on both sides (virtio-net:
# no tx-gso-list, GRO on receive). Each guest runs
# selftests/hf_nic_peer.sh, one as receiver and one as sender; nothing
# leaves the host's loopback. Prints KTAP with each guest as one program
# (receiver first); the status is 0 only when both passed.
#
# Usage: nic-pair.sh [--kernel LINE] [--out DIR] [--timeout SECONDS]
#   OUT/recv and OUT/send hold each guest's run directory (run.sh --out).
set -euo pipefail

here=$(dirname "$(readlink -f "$0")")
tree=$(cd "$here/../.." && pwd -P)
kernel=${HF_KERNEL:-6.1}
out=
timeout=900

while (($#)); do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "nic-pair.sh: unknown option '$1'" >&2; exit 2 ;;
	esac
done
[[ -n $out ]] || out=$(mktemp -d "$tree/build/vm/nic-XXXX")
mkdir -p "$out"

peer_script=$tree/build/ksft/hyperframe/hf_nic_peer.sh
[[ -x $peer_script ]] || { echo "nic-pair.sh: $peer_script is not built (tools/build-selftests.sh)" >&2; exit 125; }

# Locally administered addresses; a port nothing else listens on.
mac_recv=02:48:46:00:00:01
mac_send=02:48:46:00:00:02
port=
for _ in $(seq 50); do
	p=$((20000 + RANDOM % 20000))
	if ! ss -Hltn "sport = :$p" | grep -q .; then
		port=$p
		break
	fi
done
[[ -n $port ]] || { echo "nic-pair.sh: no free loopback port" >&2; exit 125; }

# One vCPU each: two TCG guests share the host's cores.
"$here/run.sh" --kernel "$kernel" --smp 1 --timeout "$timeout" --out "$out/recv" --quiet \
	--nic "listen,$port,$mac_recv" -- "$peer_script" recv "$mac_send" \
	>"$out/recv.log" 2>&1 &
rpid=$!
# QEMU's connecting side gives up when nobody listens yet.
for _ in $(seq 600); do
	ss -Hltn "sport = :$port" | grep -q . && break
	kill -0 "$rpid" 2>/dev/null || break
	sleep 0.1
done
"$here/run.sh" --kernel "$kernel" --smp 1 --timeout "$timeout" --out "$out/send" --quiet \
	--nic "connect,$port,$mac_send" -- "$peer_script" send "$mac_recv" \
	>"$out/send.log" 2>&1 &
spid=$!

declare -A status=([recv]=0 [send]=0)
wait "$rpid" || status[recv]=$?
wait "$spid" || status[send]=$?
# KTAP as run_kselftest.sh prints it: each guest a program, its cases
# one level down.
echo "TAP version 13"
echo "1..2"
n=0
for role in recv send; do
	n=$((n + 1))
	sed 's/^/# /' "$out/$role.log"
	if ((status[$role] == 0)); then
		echo "ok $n nic-pair: $role"
	else
		echo "not ok $n nic-pair: $role # exit=${status[$role]}"
	fi
done
((status[recv] == 0 && status[send] == 0))
