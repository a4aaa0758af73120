/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_peer.h - a peer: the other end of one link (an interface and a
 * remote Ethernet address), with both directions of reliable flow to it.
 */
#ifndef _HF_PEER_H
#define _HF_PEER_H

#include <linux/etherdevice.h>
#include <linux/hrtimer.h>
#include <linux/if_ether.h>
#include <linux/netdevice.h>
#include <linux/rculist.h>
#include <linux/siphash.h>
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
#include "hf_net.h"
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
 * struct hf_peer_ring - the sending side's large state, allocated at the
 * first send to the peer, in process context (hf_output_prepare()): a
 * peer that only ever sends to us (or a stranger's forged frame) never
 * has it
 * @slots: per sequence number in flight, indexed by seq % HF_WIN_SEGS
 * @sacked: bitmap storage of the scoreboard (hf_peer_out.txw)
 * @rexmit: the scoreboard's second bitmap
 */
struct hf_peer_ring {
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
 * struct hf_peer_frame - the hyperframe being sent, and its size
 * (hf_output.c)
 * @left: segments left in it
 * @msg: the message it is cut from, while @left
 * @seq: sequence number of its first segment
 * @segs: its length in segments
 * @turns: frames started; orders the sockets' turns
 * @fsize: the frame-size controller: frame segments and rate scale
 */
struct hf_peer_frame {
	u32 left;
	struct hf_tx_msg *msg;
	u32 seq;
	u32 segs;
	u32 turns;
	struct hf_fsize fsize;
};

/**
 * struct hf_peer_recovery - loss detection and the retransmission timer
 * (hf_recovery.c)
 * @rto: retransmission timeout estimator
 * @timer: fires when the oldest segment in flight is overdue, when a
 *	   segment held back by the reordering window is due, or as a
 *	   persist timer (struct hf_peer_grant)
 * @reo: the reordering window (time-based loss detection)
 * @reo_armed: @timer is set for the reordering window, not the RTO
 * @recovering: a loss recovery is under way until una reaches @recover
 * @recover: nxt when the recovery began
 * @phase: where the sender is after a timeout (enum hf_rto_phase)
 * @rto_nxt: nxt when the timer last expired
 * @answered_ns: when an ACK that took data found the timeout at its
 *		 maximum backoff; 0 while it is not (hf_tx_answered_note())
 * @answered_total_ns: time spent so, stretches ended
 * @last_repair_ns: when a segment was last sent again; 0 before any
 */
struct hf_peer_recovery {
	struct hf_rto rto;
	struct timer_list timer;
	struct hf_reorder reo;
	bool reo_armed;
	bool recovering;
	u32 recover;
	u8 phase;
	u32 rto_nxt;
	u64 answered_ns;
	u64 answered_total_ns;
	u64 last_repair_ns;
};

/**
 * struct hf_peer_pace - the path's pacing schedule (hf_pacing.c)
 * @timer: pushes again when a socket whose pacing ran ahead
 *	   (hf_tx_sock_ahead()) may send; softirq context
 * @path_ns: when the path is free again under its rate
 *	     (hf_tx_path_rate(): rate hint, link share), for all sockets
 *	     sending to the peer
 * @depart_ns: the latest departure time stamped towards the peer
 * @rate_hint: the receiver's rate hint, bytes per second; 0: none. Caps
 *	       the pacing rate (hf_tx_pacing_rate())
 * @sending: counted in the device's tx_senders: data queued or in flight
 */
struct hf_peer_pace {
	struct hrtimer timer;
	u64 path_ns;
	u64 depart_ns;
	u64 rate_hint;
	bool sending;
};

/**
 * struct hf_peer_grant - the credit and window the receiver gives the
 * sender (hf_grant.c)
 * @credit: byte credit the receiver granted (core/hf_credit.h); a
 *	    hyperframe starts only when its bytes fit
 * @zero_window: the receiver's last ACK was CLOSED (a socket's buffer is
 *		 full): nothing is sent but the timer's probe until an ACK
 *		 without it
 * @stalled: the last push stopped with data waiting for window or credit
 *	     (HF_STAT_TX_CREDIT_STALLS counts each closing)
 * @probing: the persist timer fired on a credit stall with nothing in
 *	     flight: the push may send one segment beyond the credit
 * @persist_armed: the recovery timer is set as that persist timer; data
 *		   sent meanwhile sets it as the RTO instead
 * @probe_shift: doublings of the persist timeout, one per probe without
 *		 a grant
 * @refused_mark: @refused_end is valid
 * @refused_end: next-to-send when a zero window last closed: losses below
 *		 it are refusals, no congestion sign
 */
struct hf_peer_grant {
	struct hf_credit_tx credit;
	bool zero_window;
	bool stalled;
	bool probing;
	bool persist_armed;
	u8 probe_shift;
	bool refused_mark;
	u32 refused_end;
};

/**
 * struct hf_peer_out_stats - what was sent to the peer (HF_INFO, dumps)
 * @segs: segments sent, first transmissions
 * @retransmits: segments sent again
 * @spurious: retransmissions the receiver already had
 * @bytes: payload bytes of the segments in @segs
 * @frames: hyperframes sent
 * @msgs: messages queued to the peer
 * @msgs_delivered: of those, confirmed by the receiver
 * @msgs_failed: of those, reported failed to their socket
 */
struct hf_peer_out_stats {
	u64 segs;
	u64 retransmits;
	u64 spurious;
	u64 bytes;
	u64 frames;
	u64 msgs;
	u64 msgs_delivered;
	u64 msgs_failed;
};

/**
 * struct hf_peer_out - the sending side of a peer: our flow to it
 * @epoch: current incarnation of the flow, random; 0 when none
 * @prev_epoch: the one before; a new epoch differs from both, so the
 *		receiver can tell a stale segment of the last one
 * @rx_state: the receiver's state id its first ACK of the epoch gave
 *	      (echoed in every DATA header); 0 before it. An ACK naming
 *	      another is not the receiver's (core/hf_epoch.h)
 * @last_active: jiffies64 of the flow's last sign of life (a message
 *		 queued, an ACK of @epoch); past flow_reset_ms the receiver
 *		 may have forgotten it. Frames of the other direction do not
 *		 count: the receiver's idle clock may have run out while
 *		 they came.
 * @answered: the peer answered us once at least (an ACK of our epoch, a
 *	      challenge, a LOST): its address is real and reachable. With
 *	      hf_peer_in.ep.echoed, what keeps a peer from eviction
 *	      (hf_peer.c)
 * @txw: the scoreboard of sequence numbers (its storage in @ring)
 * @ring: slots and scoreboard storage, from the first send on; NULL
 *	  before
 * @queue: messages not started yet, in the order they were queued
 * @active: messages started (numbered) with segments left, in msg_id
 *	    order; at most one per socket
 * @sent: messages fully sent, outcome not yet known, in msg_id order
 * @unstarted: entries in @queue
 * @next_msg_id: id of the next message started
 * @msg_done: every message before this id has its outcome
 * @status_ask: the status_ext words our DATA of the epoch asks the
 *		receiver's ACKs to carry (status_window when the epoch began)
 * @status_span: the outcomes below its msg_done the receiver's ACKs of
 *		 the epoch carry (HF_STATUS_WINDOW before the first); with
 *		 status_window, how many messages may be unresolved at once
 * @frame: the hyperframe being sent, and the frame-size controller
 * @rec: loss recovery and the retransmission timer
 * @pace: the path's pacing schedule
 * @grant: credit and window
 * @stats: what was sent
 */
struct hf_peer_out {
	u32 epoch;
	u32 prev_epoch;
	u32 rx_state;
	u64 last_active;
	bool answered;
	struct hf_txwin txw;
	struct hf_peer_ring *ring;
	struct list_head queue;
	struct list_head active;
	struct list_head sent;
	u32 unstarted;
	u32 next_msg_id;
	u32 msg_done;
	u8 status_ask;
	u32 status_span;
	struct hf_peer_frame frame;
	struct hf_peer_recovery rec;
	struct hf_peer_pace pace;
	struct hf_peer_grant grant;
	struct hf_peer_out_stats stats;
};

/**
 * struct hf_peer_refusal - the last refusal of a message for a full
 * socket buffer (hf_reasm.c)
 * @on: segments were refused; the read that leaves half the buffer free
 *	sends a WINDOW ack
 * @port: the port of the socket that refused last; while it is full,
 *	  ACKs are CLOSED and raise no credit
 * @at: when (jiffies) it last refused; ACKs stay CLOSED until that socket
 *	is down to half its buffer too, for HF_REFUSED_HOLD at most
 * @need: the reservation of the message it refused: the window stays
 *	  closed while the socket has no room for it
 */
struct hf_peer_refusal {
	bool on;
	u16 port;
	unsigned long at;
	u64 need;
};

/**
 * struct hf_peer_ack - the ACK owed to the peer (hf_ack.c)
 * @owed: segments received since the last ACK
 * @due: an ACK held back until the last segment of a train, or one that
 *	 could not be allocated (the ACK timer tries again)
 * @echo: the ACK owed answers an HF_DF_ACK_NOW
 * @timer: sends an ACK that waited ack_delay_us
 */
struct hf_peer_ack {
	u32 owed;
	bool due;
	bool echo;
	struct timer_list timer;
};

/**
 * struct hf_peer_in_stats - what was received from the peer (HF_INFO)
 * @segs: segments accepted
 * @bytes: payload bytes of the segments in @segs
 * @delivered: messages delivered to sockets
 */
struct hf_peer_in_stats {
	u64 segs;
	u64 bytes;
	u64 delivered;
};

/**
 * struct hf_peer_in - the receiving side of a peer: its flow to us
 * @ep: the flow's incarnation, the one before it and our state id for it
 *	(core/hf_epoch.h)
 * @adopted_at: jiffies of the last epoch adopted through a challenge:
 *		adoptions are at most one per HF_EPOCH_ADOPT_GAP
 * @replies: the challenge and LOST answers sent to it lately
 * @rxw: the window of received sequence numbers
 * @words: bitmap storage for @rxw
 * @msgs: messages being reassembled, by msg_id % HF_STATUS_WINDOW_MAX
 * @msg_done: every message before this id is resolved
 * @msg_status: outcomes of the last HF_STATUS_WINDOW_MAX messages, 2 bits
 *		each, the latest in the low bits of word 0
 * @status_ext: the status_ext words every ACK of the epoch carries, fixed
 *		when it is adopted: what its DATA asks, within our
 *		status_window; messages up to HF_STATUS_WINDOW x (1 +
 *		@status_ext) past @msg_done are taken
 * @reserved: bytes the messages being reassembled reserve; at most a
 *	      quarter of mem_limit, so a few sources cannot take it all
 * @refused: the last refusal for a full socket buffer
 * @credit: byte credit we grant the sender: its bytes received, and
 *	    consumed as programs read them (or they are dropped)
 * @credit_reasm: bytes of @credit.received still in reassembly: granted
 *		  beyond the share (hf_grant.c says why)
 * @sched_slot: our slot in the namespace's schedule of senders (rx_sched,
 *		hf_grant.c) plus one; 0: none
 * @sched_rate: the rate the schedule gave this sender, bytes per second;
 *		0: not scheduled
 * @sched_last_ns: when new data last arrived (rx_sched only)
 * @sched_probe_limit: the credit limit before the grant being timed
 * @sched_probe_ns: when that grant left; 0: none being timed
 * @sched_rtt_ns: the least time a grant took to bring a byte beyond the
 *		  limit before it (a grant's round trip); 0: no sample yet
 * @ack: the ACK owed
 * @stats: what was received
 */
struct hf_peer_in {
	struct hf_epoch_rx ep;
	unsigned long adopted_at;
	struct hf_reply_limit replies;
	struct hf_rxwin rxw;
	u64 words[HF_WIN_SEGS / 64];
	struct hf_rx_msg *msgs[HF_STATUS_WINDOW_MAX];
	u32 msg_done;
	u64 msg_status[1 + HF_STATUS_EXT_MAX];
	u8 status_ext;
	u64 reserved;
	struct hf_peer_refusal refused;
	struct hf_credit_rx credit;
	u64 credit_reasm;
	u8 sched_slot;
	u64 sched_rate;
	u64 sched_last_ns;
	u64 sched_probe_limit;
	u64 sched_probe_ns;
	u64 sched_rtt_ns;
	struct hf_peer_ack ack;
	struct hf_peer_in_stats stats;
};

/**
 * struct hf_peer - state towards one remote interface: who it is, and
 * the two flows, ours to it (@out) and its to us (@in)
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
 * @out: the sending side
 * @in: the receiving side
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
	struct hf_peer_out out;
	struct hf_peer_in in;
};

/**
 * hf_peer_drop() - count frames of @peer dropped for @why: the namespace's
 * drop_* counter and the device's drops together
 * @peer: the peer
 * @why: the namespace counter that names the reason (HF_STAT_DROP_*)
 * @n: frames dropped
 *
 * Any context.
 */
static inline void hf_peer_drop(struct hf_peer *peer, enum hf_stat why, u64 n)
{
	hf_stat_add(&hf_net(peer->net)->stats, why, n);
	hf_dev_stat_add(peer->dstats, HF_DEV_STAT_DROPS, n);
}

/**
 * hf_addr_hash() - a keyed hash of an interface and a remote address
 * @key: the namespace's random key for what the hash chooses
 * @ifindex: the interface
 * @addr: the remote Ethernet address
 *
 * No sender can choose addresses that collide without the key.
 *
 * Return: the hash.
 */
static inline u32 hf_addr_hash(const siphash_key_t *key, int ifindex,
			       const u8 *addr)
{
	return (u32)siphash_3u32((u32)ifindex, get_unaligned_be32(addr),
				 get_unaligned_be16(addr + 4), key);
}

struct hf_peer *hf_peer_find_rcu(struct hf_net *hn, int ifindex,
				 const u8 *addr);
/**
 * enum hf_peer_get_how - what hf_peer_get() does for an address not in the table
 * @HF_PEER_FIND: nothing: only an existing peer is returned
 * @HF_PEER_CREATE: create it; a full table makes room only by evicting a
 *	peer that never proved its address and had its round trip to, or
 *	one with nothing in flight (hf_peer.c, design note 2)
 * @HF_PEER_CREATE_PROVEN: create it for a sender that proved its address
 *	(it echoed a cookie only our answer carried): where no peer may be
 *	evicted, it may take the table an eighth beyond max_peers
 */
enum hf_peer_get_how {
	HF_PEER_FIND,
	HF_PEER_CREATE,
	HF_PEER_CREATE_PROVEN,
};

struct hf_peer *hf_peer_get(struct net *net, struct net_device *dev,
			    const u8 *addr, enum hf_peer_get_how how, int *err);
void hf_peer_put(struct hf_peer *peer);
void hf_peer_flush_dev(struct net *net, struct net_device *dev);
void hf_peer_flush_net(struct net *net);
void hf_peer_gc(struct net *net);
void hf_peer_evicted_work(struct work_struct *work);

#endif /* _HF_PEER_H */
