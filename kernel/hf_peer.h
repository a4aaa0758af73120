/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_peer.h - a peer: the other end of one link (an interface and a
 * remote Ethernet address), with both directions of reliable flow to it.
 */
#ifndef _HF_PEER_H
#define _HF_PEER_H

#include <linux/hrtimer.h>
#include <linux/if_ether.h>
#include <linux/netdevice.h>
#include <linux/rculist.h>
#include <linux/timer.h>

#include "core/hf_credit.h"
#include "core/hf_epoch.h"
#include "core/hf_fsize.h"
#include "core/hf_reorder.h"
#include "core/hf_rto.h"
#include "core/hf_rxwin.h"
#include "core/hf_txwin.h"

struct hf_config;
struct hf_net;
#include "core/hf_wire.h"
#include "hf_msg.h"
#include "hf_params.h"
#include "hf_stats.h"

/**
 * struct hf_tx_slot - what the sender knows of one sequence number in flight
 * @msg: the message the segment belongs to (holds a reference)
 * @index: segment index in @msg
 * @rexmit: sent more than once (no RTT sample from it: Karn)
 * @sent_ns: when it was last sent
 */
struct hf_tx_slot {
	struct hf_tx_msg *msg;
	u32 index;
	bool rexmit;
	u64 sent_ns;
};

/**
 * struct hf_peer_tx - the sending side's large state, allocated at the
 * first send to the peer, in process context (hf_output_prepare()): a
 * peer that only ever sends to us (or a stranger's forged frame) never
 * has it
 * @slots: per sequence number in flight, indexed by seq % HF_WIN_SEGS
 * @sacked: bitmap storage of the scoreboard (hf_peer.txw)
 * @rexmit: the scoreboard's second bitmap
 */
struct hf_peer_tx {
	struct hf_tx_slot slots[HF_WIN_SEGS];
	u64 sacked[HF_WIN_SEGS / 64];
	u64 rexmit[HF_WIN_SEGS / 64];
};

/*
 * After a timeout (F-RTO, RFC 5682): the timer resends the oldest segment
 * alone (PROBE); the first ACK that takes something decides. Segments sent
 * before the timer and sent once arriving prove it fired early (a stalled
 * machine, a late ACK): nothing else is resent. Only the probe arriving
 * means the rest is lost: 15 more are resent, the rest at the next timeout.
 */
enum hf_rto_phase {
	HF_RTO_IDLE,
	HF_RTO_PROBE,
};

/**
 * struct hf_peer - state towards one remote interface
 * @node: in the namespace's peer table (RCU)
 * @gc_node: on a list of peers being torn down
 * @rcu: frees the peer after a grace period
 * @refs: the table's reference plus one per user in progress
 * @net: the namespace; a peer never outlives it
 * @cfg: the namespace's tunables (struct hf_config), read with READ_ONCE
 * @dev: the interface, held
 * @dstats: its counters, while in the table (hf_dev.c)
 * @addr: the remote Ethernet address
 * @lock: serialises everything below; taken with BHs off
 * @created: jiffies when it entered the table (eviction spares it for a
 *	     round trip: hf_peer.c)
 * @last_active: jiffies of the last sign of life either way: a message
 *		 queued, a new segment of our rx epoch, an ACK of our tx epoch, a
 *		 read that reopened our receive window; idle reclaim reads it
 * @dead: unlinked from the table; no new work may start
 *
 * Sender side:
 * @tx_epoch: current incarnation of the outgoing flow, random; 0 when none
 * @tx_prev_epoch: the one before; a new epoch differs from both, so the
 *		   receiver can tell a stale segment of the last one
 * @tx_rx_state: the receiver's state id its first ACK of the epoch gave
 *		 (echoed in every DATA header); 0 before it. An ACK naming
 *		 another is not the receiver's (core/hf_epoch.h)
 * @tx_last_active: jiffies64 of the outgoing flow's last sign of life (a
 *		    message queued, an ACK of @tx_epoch); past flow_reset_ms
 *		    the receiver may have forgotten it. Frames of the other
 *		    direction do not count: the receiver's idle clock may
 *		    have run out while they came.
 * @txw: the scoreboard of sequence numbers (its storage in @tx)
 * @tx: slots and scoreboard storage, from the first send on; NULL before
 * @answered: the peer answered us once at least (an ACK of our epoch,
 *	      a challenge, a LOST): its address is real and reachable. With
 *	      @rx_ep.echoed, what keeps a peer from eviction (hf_peer.c)
 * @tx_queue: messages not started yet, in the order they were queued
 * @tx_active: messages started (numbered) with segments left, in msg_id
 *	       order; at most one per socket
 * @tx_sent: messages fully sent, outcome not yet known, in msg_id order
 * @tx_unstarted: entries in @tx_queue
 * @next_msg_id: id of the next message started
 * @tx_msg_done: every message before this id has its outcome
 * @frame_left: segments left in the hyperframe being sent
 * @frame_msg: the message it is cut from, while @frame_left
 * @frame_seq: sequence number of its first segment
 * @frame_segs: its length in segments
 * @frame_turns: frames started; orders the sockets' turns
 * @rto: retransmission timeout estimator
 * @rto_timer: fires when the oldest segment in flight is overdue, or when
 *	       a segment held back by the reordering window is due
 * @pace_timer: pushes again when a socket whose pacing ran ahead
 *		(hf_tx_sock_ahead()) may send; softirq context
 * @tx_pace_ns: when the path is free again under its rate (hf_tx_path_rate():
 *		rate hint, link share), for all sockets sending to the peer
 * @tx_depart_ns: the latest departure time stamped towards the peer
 * @reo: the reordering window (time-based loss detection)
 * @reo_armed: @rto_timer is set for the reordering window, not the RTO
 * @recovering: a loss recovery is under way until una reaches @recover
 * @fsize: the frame-size controller: frame segments and rate scale
 * @tx_stalled: the last push stopped with data waiting for window or
 *	        credit (HF_STAT_TX_CREDIT_STALLS counts each closing)
 * @tx_sending: counted in @dstats->tx_senders: data queued or in flight
 * @tx_refused_mark: @tx_refused_end is valid
 * @tx_refused_end: next-to-send when a zero window last closed: losses
 *		    below it are refusals, no congestion sign
 * @tx_zero_window: the receiver's last ACK was CLOSED (a socket's buffer
 *		    is full): nothing is sent but the timer's probe until
 *		    an ACK without it
 * @tx_credit: byte credit the receiver granted us (core/hf_credit.h); a
 *	       hyperframe starts only when its bytes fit
 * @tx_probing: the persist timer fired on a credit stall with nothing in
 *		flight: the push may send one segment beyond the credit
 * @tx_probe_shift: doublings of the persist timeout, one per probe
 *		    without a grant
 * @tx_persist_armed: @rto_timer is set as that persist timer; data sent
 *		      meanwhile sets it as the RTO instead
 * @tx_rate_hint: the receiver's rate hint, bytes per second; 0: none.
 *		  Caps the pacing rate (hf_tx_pacing_rate())
 * @recover: nxt when the recovery began
 * @rto_phase: where the sender is after a timeout (enum hf_rto_phase)
 * @rto_nxt: nxt when the timer last expired
 * @tx_segs: segments sent, first transmissions (for HF_INFO)
 * @tx_retransmits: segments sent again
 * @tx_spurious: retransmissions the receiver already had
 * @tx_bytes: payload bytes of the segments in @tx_segs
 * @tx_frames: hyperframes sent
 * @tx_msgs: messages queued to the peer
 * @tx_msgs_delivered: of those, confirmed by the receiver
 * @tx_msgs_failed: of those, reported failed to their socket
 * @tx_answered_ns: when an ACK that took data found the timeout at its
 *		    maximum backoff; 0 while it is not (hf_tx_answered_note())
 * @tx_answered_total_ns: time spent so, stretches ended
 *
 * Receiver side:
 * @rx_ep: the incoming flow's incarnation, the one before it and our
 *	   state id for it (core/hf_epoch.h)
 * @rx_adopted_at: jiffies of the last epoch adopted through a challenge:
 *		   adoptions are at most one per HF_EPOCH_ADOPT_GAP
 * @rx_reply_at: jiffies when the current window of challenge and LOST
 *		 answers began
 * @rx_challenges: challenges sent in it; at most HF_EPOCH_CHALLENGES
 * @rx_losts: LOST answers sent in it; at most HF_EPOCH_LOSTS
 * @rxw: the window of received sequence numbers
 * @rx_words: bitmap storage for @rxw
 * @rx_msgs: messages being reassembled, by msg_id % HF_STATUS_WINDOW
 * @rx_msg_done: every message before this id is resolved
 * @rx_msg_status: outcomes of the last HF_STATUS_WINDOW messages
 * @rx_refused: segments were refused for a full socket buffer; the read
 *	       that leaves half the buffer free sends a WINDOW ack
 * @rx_refused_port: the port of the socket that refused last; while it
 *		    is full, ACKs are CLOSED and raise no credit
 * @rx_refused_need: the reservation of the message it refused: the window
 *		     stays closed while the socket has no room for it
 * @rx_refused_at: when (jiffies) it last refused; ACKs stay CLOSED until
 *		   that socket is down to half its buffer too, for
 *		   HF_REFUSED_HOLD at most (hf_reasm.c)
 * @rx_credit: byte credit we grant the sender: its bytes received, and
 *	       consumed as programs read them (or they are dropped)
 * @rx_credit_reasm: bytes of @rx_credit.received still in reassembly:
 *		     granted beyond the share (hf_grant.c says why)
 * @ack_owed: segments received since the last ACK
 * @ack_due: an ACK held back until the last segment of a train, or one
 *	     that could not be allocated (the ACK timer tries again)
 * @ack_echo: the ACK owed answers an HF_DF_ACK_NOW
 * @ack_timer: sends an ACK that waited ack_delay_us
 * @rx_segs: segments accepted (for HF_INFO)
 * @rx_bytes: payload bytes of the segments in @rx_segs
 * @rx_delivered: messages delivered to sockets
 * @rx_reserved: bytes the messages being reassembled reserve; at most a
 *		 quarter of mem_limit, so a few sources cannot take it all
 */
struct hf_peer {
	struct hlist_node node;
	struct list_head gc_node;
	struct rcu_head rcu;
	refcount_t refs;
	struct net *net;
	const struct hf_config *cfg;
	struct net_device *dev;
	struct hf_dev_stats *dstats;
	u8 addr[ETH_ALEN];
	spinlock_t lock;
	unsigned long created;
	unsigned long last_active;
	bool dead;

	u32 tx_epoch;
	u32 tx_prev_epoch;
	u32 tx_rx_state;
	u64 tx_last_active;
	struct hf_txwin txw;
	struct hf_peer_tx *tx;
	bool answered;
	struct list_head tx_queue;
	struct list_head tx_active;
	struct list_head tx_sent;
	u32 tx_unstarted;
	u32 next_msg_id;
	u32 tx_msg_done;
	u32 frame_left;
	struct hf_tx_msg *frame_msg;
	u32 frame_seq;
	u32 frame_segs;
	u32 frame_turns;
	struct hf_rto rto;
	struct timer_list rto_timer;
	struct hrtimer pace_timer;
	u64 tx_pace_ns;
	u64 tx_depart_ns;
	struct hf_reorder reo;
	bool reo_armed;
	bool recovering;
	bool tx_zero_window;
	bool tx_stalled;
	bool tx_sending;
	struct hf_credit_tx tx_credit;
	bool tx_probing;
	bool tx_persist_armed;
	u8 tx_probe_shift;
	u64 tx_rate_hint;
	bool tx_refused_mark;
	u32 tx_refused_end;
	struct hf_fsize fsize;
	u32 recover;
	u8 rto_phase;
	u32 rto_nxt;
	u64 tx_segs;
	u64 tx_retransmits;
	u64 tx_spurious;
	u64 tx_bytes;
	u64 tx_frames;
	u64 tx_msgs;
	u64 tx_msgs_delivered;
	u64 tx_msgs_failed;
	u64 tx_answered_ns;
	u64 tx_answered_total_ns;

	struct hf_epoch_rx rx_ep;
	unsigned long rx_adopted_at;
	unsigned long rx_reply_at;
	u8 rx_challenges;
	u8 rx_losts;
	struct hf_rxwin rxw;
	u64 rx_words[HF_WIN_SEGS / 64];
	struct hf_rx_msg *rx_msgs[HF_STATUS_WINDOW];
	u32 rx_msg_done;
	u64 rx_msg_status;
	bool rx_refused;
	u16 rx_refused_port;
	unsigned long rx_refused_at;
	u64 rx_refused_need;
	struct hf_credit_rx rx_credit;
	u64 rx_credit_reasm;
	u32 ack_owed;
	bool ack_due;
	bool ack_echo;
	struct timer_list ack_timer;
	u64 rx_segs;
	u64 rx_bytes;
	u64 rx_delivered;
	u64 rx_reserved;
};

struct hf_peer *hf_peer_find_rcu(struct hf_net *hn, int ifindex,
				 const u8 *addr);
struct hf_peer *hf_peer_get(struct net *net, struct net_device *dev,
			    const u8 *addr, bool create, int *err);
void hf_peer_put(struct hf_peer *peer);
void hf_peer_flush_dev(struct net *net, struct net_device *dev);
void hf_peer_flush_net(struct net *net);
void hf_peer_gc(struct net *net);
void hf_peer_evicted_work(struct work_struct *work);

#endif /* _HF_PEER_H */
