#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Captures real hyperframe traffic between two namespaces and checks that
# tshark, with the project's Lua dissector, decodes what was sent: every
# DATA segment of every message (lengths, offsets, stride), checksums
# correct, ACKs that end at the last sequence number, and nothing
# malformed. (The dissector's synthetic test of every frame type and every
# malformation runs on the host, in make check: tshark is slow to start in
# an emulated guest, so this test calls it once.)
#
# veth carries a train of segments whole and a capture would see it as
# one frame, so the sender's device has tx-gso-list off: the stack cuts
# each train in software (the module's gso_segment) and the capture shows
# the wire segments a NIC would send. veth fills no checksum either (the
# sender leaves it to the device, and the receiver takes the frame
# unverified, as one that crossed no wire), so the sender's device has
# tx-checksumming off too: every checksum is computed in software, and
# the receiver and the dissector verify it. The third case checks that
# path: trains were built and cut, the receiver verified every segment and
# every byte. The fourth checks the flow's state fields on the wire
# (docs/wire-format.md, "Flows and epochs"): one epoch both ways, one
# receiver state in every ACK, no CHALLENGE or LOST, and DATA that echoes
# nothing until its sender learned that state and the state from then on.
# The fifth, that outcome words go only to a sender that asks for them
# ("Message outcomes"): the receiver is at status_window 128, the sender
# at 32 asks for none, as an older sender does, and no ACK carries any.

source "$(dirname "$(readlink -f "$0")")/lib.sh"

XFER=$HF_DIR/hf_xfer
HFCTL=${HFCTL:-${HF_BUILD:?set HFCTL or HF_BUILD}/userspace/hfctl/hfctl}
LUA=${HF_LUA:-${HF_TREE:?set HF_LUA or HF_TREE}/tools/wireshark/hyperframe.lua}
LOGS=$(mktemp -d)
SIZES=1,5000,100000

ktap_plan 5

hf_topo_create 2 1500
"$HFCTL" -n "${HF_NODES[1]}" config set status_window 128
check_err $? "node 1's status_window"
ip netns exec "${HF_NODES[0]}" ethtool -K eth0 tx-gso-list off tx off >/dev/null
check_err $? "ethtool -K eth0 tx-gso-list off tx off"
# dumpcap captures (tshark's dissectors take long to load in an emulated
# guest); tshark reads the file afterwards.
ip netns exec "${HF_NODES[1]}" dumpcap -q -i eth0 -f 'ether proto 0x88b5' \
	-w "$LOGS/cap.pcapng" 2>"$LOGS/dumpcap.err" &
cap=$!
busywait 90000 grep -q 'Capturing on' "$LOGS/dumpcap.err"
check_err $? "dumpcap did not start: $(cat "$LOGS/dumpcap.err")"

ip netns exec "${HF_NODES[1]}" "$XFER" recv 7000 "$SIZES" >"$LOGS/recv" 2>&1 &
rpid=$!
busywait 10000 grep -q ready "$LOGS/recv"
ip netns exec "${HF_NODES[0]}" timeout 60 "$XFER" send eth0 "$(hf_node_mac 1)" \
	7000 "$SIZES" >"$LOGS/send" 2>&1
check_err $? "transfer failed: $(cat "$LOGS/send")"
wait "$rpid"
recv_rc=$?
check_err $recv_rc "receiver failed: $(cat "$LOGS/recv")"
sleep 1
kill -INT "$cap"
wait "$cap"

# One pass of tshark over the capture: type, retransmit flag, message
# fields, seq, cum_seq, msg_done, checksum status, malformed reason, then
# flags, epoch, echo (DATA) and rx_state (ACK), status_ask (DATA) and
# nstatus_ext (ACK).
HOME=$LOGS tshark -X lua_script:"$LUA" -r "$LOGS/cap.pcapng" -Y hyperframe \
	-T fields -E separator=/t -E occurrence=f \
	-e hyperframe.type -e hyperframe.flags.retransmit -e hyperframe.msg_id \
	-e hyperframe.msg_len -e hyperframe.offset -e hyperframe.seg_len \
	-e hyperframe.seg_size -e hyperframe.seq -e hyperframe.cum_seq \
	-e hyperframe.msg_done -e hyperframe.csum.status -e hyperframe.malformed \
	-e hyperframe.flags -e hyperframe.epoch -e hyperframe.echo \
	-e hyperframe.rx_state -e hyperframe.status_ask -e hyperframe.nstatus_ext \
	>"$LOGS/decoded" 2>"$LOGS/tshark.err"
check_err $? "tshark failed: $(head -n 5 "$LOGS/tshark.err")"
echo "# decoded $(wc -l <"$LOGS/decoded") frames"

# Messages: 1 byte (1 segment), 5000 (4 of 1456), 100000 (69).
got=$(awk -F'\t' '$1 == 1 && ($2 == "0" || $2 == "False") {print $3 "\t" $4 "\t" $5 "\t" $6 "\t" $7}' \
	"$LOGS/decoded" | sort -n -k1,1 -k3,3 | uniq)
want=$(python3 - <<'PY'
for mid, size in enumerate((1, 5000, 100000)):
    off = 0
    while True:
        n = min(1456, size - off)
        print(f"{mid}\t{size}\t{off}\t{n}\t1456")
        off += 1456
        if off >= size:
            break
PY
)
check_eq "$got" "$want" "DATA segments decoded"
log_test "capture: every DATA segment decodes with its message fields"

bad=$(awk -F'\t' '$11 != "correct" || $12 != ""' "$LOGS/decoded" | wc -l)
check_eq "$bad" 0 "frames with a bad checksum or malformed"
last=$(awk -F'\t' '$1 == 1 {print $8}' "$LOGS/decoded" | sort -n | tail -n 1)
cum=$(awk -F'\t' '$1 == 2 {print $9}' "$LOGS/decoded" | sort -n | tail -n 1)
check_eq "$cum" $((last + 1)) "last ACK's cumulative sequence"
done=$(awk -F'\t' '$1 == 2 {print $10}' "$LOGS/decoded" | sort -n | tail -n 1)
check_eq "$done" 3 "last ACK's msg_done"
log_test "capture: checksums correct, ACKs cover every segment and message"

# 74 segments in trains of up to frame_segs; the 1-byte message and the
# last of each frame may travel alone. Every train was cut in software.
segs=$(hf_stat 0 tx_segs)
skbs=$(hf_stat 0 tx_data_skbs)
cut=$(hf_stat 0 tx_sw_segmented)
echo "# sender: $segs segments in $skbs skbs, $cut trains cut in software"
check_eq "$segs" 74 "DATA segments sent"
((skbs < segs && cut > 0 && cut <= skbs))
check_err $? "trains: $skbs skbs for $segs segments, $cut cut in software"
check_eq "$(hf_stat 1 rx_data_skbs)" "$(hf_stat 1 rx_segs)" \
	"skbs the receiver got (each one wire segment)"
check_eq "$(hf_stat 1 rx_csum_local)" 0 "segments the receiver took unverified"
check_eq "$(hf_stat 1 drop_csum)" 0 "segments failing their checksum"
check_eq "$recv_rc" 0 "receiver's byte-by-byte verification"
log_test "capture: trains cut in software for a device without tx-gso-list, byte-exact"

# The state fields. The sender learns the receiver's state from its first
# ACK and echoes it in every DATA header built after (repairs too), so
# first transmissions switch from no echo to the state once, in sequence
# order. 100000 bytes are more than the initial credit (64 KiB): the
# last segments wait for an ACK and carry the echo.
bad=$(python3 - "$LOGS/decoded" <<'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
data = [r for r in rows if r[0] == "1"]
acks = [r for r in rows if r[0] == "2"]
rtx = lambda r: r[1] in ("1", "True")
epochs = {r[13] for r in rows}
states = {r[15] for r in acks}
state = next(iter(states)) if len(states) == 1 else None
first = [r for r in data if not rtx(r)]
bare = [int(r[7]) for r in first if r[14] == "0x00000000"]
echoed = [int(r[7]) for r in first if r[14] == state]
print("# epoch %s; rx_state %s; %d DATA (%d repairs): %d without echo (seq %s),"
      " %d echoing the state (seq %s); %d ACKs" % (
          ",".join(sorted(epochs)), ",".join(sorted(states)), len(data),
          len(data) - len(first), len(bare),
          "%d-%d" % (min(bare), max(bare)) if bare else "-", len(echoed),
          "%d-%d" % (min(echoed), max(echoed)) if echoed else "-", len(acks)),
      file=sys.stderr)
if len(epochs) != 1 or "0x00000000" in epochs:
    print("not one epoch of the flow:", sorted(epochs))
if state is None or state == "0x00000000":
    print("not one receiver state in the ACKs:", sorted(states))
if any(int(r[12], 16) & 0x30 for r in acks):
    print("a CHALLENGE or LOST answer in a flow that started on a clean receiver")
if any(r[14] not in ("0x00000000", state) for r in data):
    print("DATA echoing something else than 0 or the receiver's state")
if not bare or not echoed:
    print("no DATA without echo, or none with it: %d, %d" % (len(bare), len(echoed)))
elif max(bare) >= min(echoed):
    print("echo not switched once, in sequence order")
PY
)
check_eq "$bad" "" "state fields"
log_test "capture: one epoch, one receiver state, the echo from the first ACK on"

asks=$(awk -F'\t' '$1 == 1 {print $17}' "$LOGS/decoded" | sort -u | paste -sd,)
words=$(awk -F'\t' '$1 == 2 {print $18}' "$LOGS/decoded" | sort -u | paste -sd,)
echo "# DATA status_ask: $asks; ACK nstatus_ext: $words"
check_eq "$asks" 0 "status_ask of node 0's DATA (status_window 32)"
check_eq "$words" 0 "outcome words in node 1's ACKs (status_window 128) to a sender that asked none"
log_test "capture: no outcome words to a sender that asks for none"

defer_run
rm -rf "$LOGS"
exit "$(ktap_exit)"
