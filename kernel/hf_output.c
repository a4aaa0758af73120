// SPDX-License-Identifier: GPL-2.0
/*
 * hf_output.c - the sending side of a peer flow: which message the next
 * frame is cut from, how large it is (the frame-size controller's glue),
 * the send window, the push that sends new segments, and the flow's
 * epochs (a new incarnation, a restart, an abort).
 *
 * A message is copied from the user once (hf_msg.c) and queued on its
 * peer. Segments are built on demand as skbs whose payload frags point
 * into its pages (hf_train_skb.c), so a retransmission costs one header
 * and no copy. Every sequence number in flight has a slot naming its
 * message and segment; the scoreboard (core/hf_txwin.c) decides what an
 * ack acknowledges (hf_ack.c) and which segments are lost, and exactly
 * those are sent again (hf_recovery.c).
 *
 * Design notes:
 * 1. One lock per peer (BHs off) covers both directions; sendmsg, the
 *    receive path and the timers take it for bounded work only.
 * 2. A push sends at most HF_PUSH_BUDGET segments and what the window
 *    (hf_tx_window()) holds of the frame it is in; acks clock out the
 *    rest, so no call holds the lock for a whole 64 MiB message. A push
 *    that could only send a short part of a frame waits for more ACKs
 *    (hf_tx_train_defer()), as TCP defers a TSO skb.
 * 3. At most HF_STATUS_WINDOW messages are unresolved per peer, or up to
 *    HF_STATUS_WINDOW_MAX (status_window) once the receiver's ACKs of the
 *    epoch carry that many outcomes: every ACK repeats the outcomes of
 *    that many, so no outcome can be missed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errqueue.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <net/checksum.h>

#include "hf_ack.h"
#include "hf_compat.h"
#include "hf_genl.h"
#include "hf_grant.h"
#include "hf_hfq.h"
#include "hf_input.h"
#include "hf_mem.h"
#include "hf_msg.h"
#include "hf_net.h"
#include "hf_offload.h"
#include "hf_output.h"
#include "hf_pace.h"
#include "hf_pacing.h"
#include "hf_reasm.h"
#include "hf_recovery.h"
#include "hf_sock.h"
#include "hf_trace.h"
#include "hf_train_skb.h"

/* Queued messages hf_tx_pick() looks at for one that may start. */
#define HF_PICK_SCAN		64

/**
 * hf_xmit_to() - put a built frame on an interface, to an address
 * @dev: the interface
 * @addr: the destination address
 * @skb: the frame, hyperframe header at skb->data, headroom reserved
 * @priority: skb->priority (TC_PRIO_CONTROL for ACKs)
 *
 * Softirq or process context, interrupts enabled.
 *
 * Return: 0, or a negative errno when the device refused the frame.
 */
int hf_xmit_to(struct net_device *dev, const u8 *addr, struct sk_buff *skb,
	       u32 priority)
{
	int rc;

	skb->dev = dev;
	skb->protocol = hf_ethertype();
	skb->priority = priority;
	skb_reset_network_header(skb);
	if (dev_hard_header(skb, dev, hf_params_default.ethertype, addr, NULL,
			    skb->len) < 0) {
		kfree_skb(skb);
		rc = -EINVAL;
	} else {
		rc = dev_queue_xmit(skb);
		/* Congestion notification still sent the frame. */
		rc = net_xmit_eval(rc) ? -ENOBUFS : 0;
	}
	if (rc)
		hf_stat_inc(&hf_net(dev_net(dev))->stats, HF_STAT_TX_XMIT_ERRORS);
	return rc;
}

/**
 * hf_xmit() - put a built frame on the peer's interface
 * @peer: the peer
 * @skb: the frame, hyperframe header at skb->data, headroom reserved
 * @priority: skb->priority (TC_PRIO_CONTROL for ACKs)
 *
 * Any context; callers hold the peer lock.
 *
 * Return: 0, or a negative errno when the device refused the frame.
 */
int hf_xmit(struct hf_peer *peer, struct sk_buff *skb, u32 priority)
{
	lockdep_assert_held(&peer->lock);
	return hf_xmit_to(peer->dev, peer->addr, skb, priority);
}

/*
 * An empty scoreboard from sequence number 0, in the storage of @peer's
 * sending state; a peer without one (it never sent) has nothing in
 * flight, and its scoreboard stays empty until hf_output_prepare().
 */
static void hf_tx_txwin_init(struct hf_peer *peer)
{
	lockdep_assert_held(&peer->lock);
	if (peer->out.ring)
		hf_txwin_init(&peer->out.txw, peer->out.ring->sacked, peer->out.ring->rexmit,
			      HF_WIN_SEGS, 0);
	else
		memset(&peer->out.txw, 0, sizeof(peer->out.txw));
}

/* The event sign of a controller's congestion reason; 0 for the others. */
static enum hf_event_sign hf_tx_fsize_sign(u8 reason)
{
	switch (reason) {
	case HF_FSIZE_LOSS:
		return HF_EVENT_SIGN_LOSS;
	case HF_FSIZE_DELAY:
		return HF_EVENT_SIGN_DELAY;
	case HF_FSIZE_NOTICE:
		return HF_EVENT_SIGN_NOTICE;
	default:
		return HF_EVENT_SIGN_UNSPEC;
	}
}

/*
 * Count what a call of the frame-size controller changed (@changed), and
 * tell the listeners of a back-off on congestion.
 */
void hf_tx_fsize_note(struct hf_peer *peer, unsigned int changed)
{
	const struct hf_fsize_change *c = &peer->out.frame.fsize.last;
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	enum hf_event_sign sign;

	lockdep_assert_held(&peer->lock);

	if (changed)
		trace_hf_frame_size(peer, c);
	if (changed & HF_FSIZE_CHANGED_FRAME)
		hf_stat_inc(stats, c->new_segs > c->old_segs ?
			    HF_STAT_TX_FRAME_GROWS : HF_STAT_TX_FRAME_SHRINKS);
	if ((changed & HF_FSIZE_CHANGED_RATE) && c->new_rate < c->old_rate)
		hf_stat_inc(stats, HF_STAT_TX_RATE_CUTS);
	sign = hf_tx_fsize_sign(c->reason);
	if (changed && sign)
		hf_genl_event_backoff(peer, sign, c->new_rate, c->new_segs);
}

/*
 * Was segment @seq refused for a full socket buffer (a zero window, or
 * before the end of what the receiver refused)? That is flow control, no
 * congestion sign.
 */
static bool hf_tx_refused(const struct hf_peer *peer, u32 seq)
{
	lockdep_assert_held(&peer->lock);
	return peer->out.grant.zero_window ||
	       (peer->out.grant.refused_mark &&
		hf_seq_before(seq, peer->out.grant.refused_end));
}

/*
 * Segment @seq was found lost by the reordering window and is about to be
 * sent again: a congestion sign, unless the receiver refused it
 * (hf_tx_refused()), which duplicates of its repairs may take back
 * (hf_ack_duplicate()).
 */
void hf_tx_loss_sign(struct hf_peer *peer, u32 seq)
{
	const struct hf_peer_recovery *rec = &peer->out.rec;
	struct hf_fsize_params fp;
	bool undoable;
	u64 quiet_ns;

	lockdep_assert_held(&peer->lock);

	if (hf_tx_refused(peer, seq))
		return;
	/*
	 * A duplicate answering an earlier repair could still arrive within
	 * two round trips and the reordering window of it, and would count
	 * for this reaction's repairs: keep nothing to undo then.
	 */
	quiet_ns = 2000ULL * rec->rto.srtt_us +
		   1000ULL * hf_reorder_window_us(&rec->reo, rec->rto.min_rtt_us,
						  rec->rto.srtt_us);
	undoable = !rec->last_repair_ns ||
		   ktime_get_ns() - rec->last_repair_ns > quiet_ns;
	hf_tx_fsize_note(peer, hf_fsize_on_repair_loss(&peer->out.frame.fsize,
						       hf_fsize_params_read(peer->cfg, &fp),
						       seq, undoable));
}

/*
 * The retransmission timer fired with @seq the oldest segment in flight
 * (@repeat: again before any ACK answered its last timeout): a loss sign
 * whose reaction F-RTO may take back (hf_tx_rto_verdict()), unless the
 * receiver refused the segment (hf_tx_refused()), which leaves nothing to
 * undo but what a repeat's stall kept.
 */
void hf_tx_timeout_sign(struct hf_peer *peer, u32 seq, bool repeat)
{
	struct hf_fsize *fs = &peer->out.frame.fsize;
	struct hf_fsize_params fp;

	lockdep_assert_held(&peer->lock);

	if (hf_tx_refused(peer, seq)) {
		if (!repeat)
			hf_fsize_undo_forget(fs);
		return;
	}
	hf_tx_fsize_note(peer, hf_fsize_on_timeout(fs, hf_fsize_params_read(peer->cfg, &fp),
						   seq, repeat));
}

/*
 * The controller of a new flow: the device's segment stride. The flow's
 * credit starts again too, at the initial window (both sides count from
 * 0 in each epoch).
 */
static void hf_tx_fsize_init(struct hf_peer *peer)
{
	struct hf_credit_params cp;
	struct hf_fsize_params fp;

	lockdep_assert_held(&peer->lock);

	hf_fsize_init(&peer->out.frame.fsize, hf_fsize_params_read(peer->cfg, &fp),
		      hf_seg_size(READ_ONCE(peer->dev->mtu)));
	hf_credit_tx_init(&peer->out.grant.credit, hf_credit_params_sched(peer, &cp));
	peer->out.grant.probe_shift = 0;
	peer->out.pace.rate_hint = 0;
}

/* Whether a message of @msg's socket goes first: started, or queued earlier. */
static bool hf_tx_sock_busy(struct hf_peer *peer, struct hf_tx_msg *msg)
{
	struct hf_tx_msg *other = msg;

	lockdep_assert_held(&peer->lock);

	list_for_each_entry_continue_reverse(other, &peer->out.queue, node)
		if (other->sk == msg->sk)
			return true;
	list_for_each_entry(other, &peer->out.active, node)
		if (other->sk == msg->sk)
			return true;
	return false;
}

/*
 * How many messages may be unresolved at once: status_window, within the
 * outcomes the receiver's ACKs carry (HF_STATUS_WINDOW until one says).
 */
static u32 hf_tx_status_window(const struct hf_peer *peer)
{
	lockdep_assert_held(&peer->lock);
	return min(READ_ONCE(peer->cfg->p.status_window),
		   peer->out.status_span);
}

/*
 * The message not started yet that may start now: the earliest queued
 * whose socket has nothing before it and whose pacing is not ahead (then
 * *@wake is lowered to when it may go), among the first HF_PICK_SCAN
 * queued; NULL when none.
 */
static struct hf_tx_msg *hf_tx_startable(struct hf_peer *peer, u64 now,
					 u64 *wake)
{
	unsigned int scan = HF_PICK_SCAN;
	struct hf_tx_msg *msg;

	lockdep_assert_held(&peer->lock);

	list_for_each_entry(msg, &peer->out.queue, node) {
		if (!scan--)
			break;
		if (hf_tx_sock_busy(peer, msg) ||
		    hf_tx_sock_ahead(peer, msg->sk, now, wake))
			continue;
		return msg;
	}
	return NULL;
}

/*
 * The message the next frame is cut from. Sockets take turns frame by
 * frame, so that one socket's small message does not wait behind another's
 * bulk; a socket's own messages go in order. A message not started yet
 * goes first (hf_tx_startable()), while the status window lets another
 * message start; else the started message whose frame started
 * longest ago. Messages are numbered when they start, so the receiver
 * sees no gap in msg_ids but for loss. A socket whose pacing runs ahead
 * (hf_tx_sock_ahead()) waits: *@wake is then the earliest time one may go
 * (U64_MAX when none waits).
 */
static struct hf_tx_msg *hf_tx_pick(struct hf_peer *peer, u64 now, u64 *wake)
{
	struct hf_tx_msg *msg, *best = NULL;
	u64 held = U64_MAX;

	lockdep_assert_held(&peer->lock);

	*wake = U64_MAX;
	if (list_empty(&peer->out.queue) && list_empty(&peer->out.active))
		return NULL;
	/*
	 * The path's schedule, all sockets together, ran ahead, or the queue
	 * of a device hfq paces takes longer than that to drain (its rate is
	 * the link share, but it also carries what the schedule does not
	 * count): none goes.
	 */
	if (hf_tx_path_rate(peer)) {
		u64 busy = max(peer->out.pace.path_ns,
			       now + hf_hfq_backlog_ns(peer->dev));

		if (busy > now + HF_PACE_AHEAD_NS) {
			*wake = busy - HF_PACE_AHEAD_NS;
			return NULL;
		}
	}
	if (peer->out.next_msg_id - peer->out.msg_done <
	    hf_tx_status_window(peer)) {
		msg = hf_tx_startable(peer, now, wake);
		if (msg)
			return msg;
	} else {
		/*
		 * The window holds the one that could start: counted once; its
		 * pacing's time (in @held) wakes nothing, an ACK does.
		 */
		msg = hf_tx_startable(peer, now, &held);
		if (msg && !msg->status_waited) {
			msg->status_waited = true;
			hf_stat_inc(&hf_net(peer->net)->stats,
				    HF_STAT_TX_STATUS_WAITS);
		}
	}
	list_for_each_entry(msg, &peer->out.active, node) {
		if (hf_tx_sock_ahead(peer, msg->sk, now, wake))
			continue;
		if (!best || (s32)(msg->turn - best->turn) < 0)
			best = msg;
	}
	return best;
}

/*
 * The pred of @msg, started now as @msg->msg_id: how many messages back
 * the one it follows between the same two ports started, when that one is
 * still unresolved (on out.active or out.sent, at most the status window of
 * them); 0 when none is, so that the receiver may deliver @msg as soon as
 * it is complete, past any gap of other ports' messages still on the way.
 */
static u8 hf_tx_msg_pred(const struct hf_peer *peer, const struct hf_tx_msg *msg)
{
	const struct list_head *lists[] = { &peer->out.active, &peer->out.sent };
	const struct hf_tx_msg *other;
	u32 pred = 0;
	unsigned int i;

	lockdep_assert_held(&peer->lock);

	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		list_for_each_entry(other, lists[i], node) {
			u32 d = msg->msg_id - other->msg_id;

			if (other == msg || other->sport != msg->sport ||
			    other->dport != msg->dport)
				continue;
			if (!pred || d < pred)
				pred = d;
		}
	}
	/* Unresolved messages span less than the status window. */
	return min_t(u32, pred, HF_STATUS_WINDOW_MAX);
}

/* @msg is fully sent: keep out.sent in msg_id order for the outcomes. */
static void hf_tx_sent_add(struct hf_peer *peer, struct hf_tx_msg *msg)
{
	struct hf_tx_msg *pos;

	lockdep_assert_held(&peer->lock);

	list_del(&msg->node);
	list_for_each_entry_reverse(pos, &peer->out.sent, node)
		if (hf_seq_before(pos->msg_id, msg->msg_id))
			break;
	list_add(&msg->node, &pos->node);
}

/*
 * The send window of @peer, in segments of @seg_size sent for @sk.
 * max_inflight counts what the receiver's device queue takes (its
 * backlog, a veth ring): a segment each, unless @peer's device carries
 * trains whole (tx-gso-list), when a train is one entry. The window then
 * holds two of the current frames, one being acked while the next goes,
 * but at least max_inflight segments and at most max_inflight full trains
 * (and HF_WIN_SEGS, the scoreboard). Two frames, not max_inflight trains:
 * more only queues at the receiver, and a frame ramping up from a few
 * segments would be sent as many small frames at once.
 */
static u32 hf_tx_window(const struct hf_peer *peer,
			const struct hf_fsize_params *fp, u32 seg_size,
		     const struct sock *sk)
{
	u32 max = min_t(u32, READ_ONCE(peer->cfg->p.max_inflight), HF_WIN_SEGS);
	u64 want;

	lockdep_assert_held(&peer->lock);

	if (!(READ_ONCE(peer->dev->features) & NETIF_F_GSO_FRAGLIST))
		return max;
	want = hf_fsize_segs(&peer->out.frame.fsize, fp);
	/* A frame may carry its message's tail (hf_fsize_frame_segs()). */
	want = 2 * (want + (want >> HF_FSIZE_TAIL_SHIFT));
	want = min_t(u64, want, (u64)max * hf_tx_train_segs(peer, seg_size, sk));
	return clamp_t(u64, want, max, HF_WIN_SEGS);
}

/*
 * Whether a push that would start sending now, @want segments of @msg
 * (the frame's rest, or the next frame), holds back for the window
 * (@window segments, hf_tx_window()) to open further: an ACK opens what one
 * train carried (or HF_ACK_EVERY lone segments, hf_ack.h), and sending
 * each opening at once makes trains, and the carriers of a frame, that
 * short, however large the frame. As TCP defers a TSO skb
 * (tcp_tso_should_defer()), a push waits while the window has room for
 * less than @want and less than half of itself, and only with segments in
 * flight: their ACKs (or, at worst, the retransmission timer) call the
 * next push, and the last of them opens the whole window. A push @going
 * on with a frame it started stops only before a train shorter than a
 * full one that would not end the frame: the window's last room waits
 * for the next push.
 */
static bool hf_tx_train_defer(const struct hf_peer *peer,
			      const struct hf_tx_msg *msg, u32 window, u32 want,
			   bool going)
{
	u32 inflight = hf_txwin_inflight(&peer->out.txw);
	u32 room = window > inflight ? window - inflight : 0;

	lockdep_assert_held(&peer->lock);

	if (!inflight)
		return false;
	if (going)
		return room < min(want, hf_tx_train_segs(peer, msg->seg_size,
						      msg->sk));
	if (room >= window / 2)
		return false;
	return room < want;
}

/**
 * struct hf_tx_push_state - one push under way
 * @train: the segments taken since the last send, to leave as one skb
 * @fp: the frame-size controller's parameters
 * @cap_segs: the most segments the next frame may have: credit and pacing
 * @now: the clock, read again as each frame starts (a push is short)
 * @stalled: the window or the credit closed on data waiting
 * @sent: a segment was taken
 */
struct hf_tx_push_state {
	struct hf_tx_train train;
	struct hf_fsize_params fp;
	u32 cap_segs;
	u64 now;
	bool stalled;
	bool sent;
};

/**
 * hf_tx_push_next() - the message the next segment of a push comes from,
 * and its sequence number
 * @peer: the peer; caller holds its lock
 * @p: the push
 * @budget: segments the push may still send before it stops between frames
 * @seq: set to the sequence number taken
 *
 * The frame under way goes on; otherwise hf_tx_pick() chooses, within the
 * window (hf_tx_window()), the credit (hf_tx_credit_frame()) and the pace,
 * unless the push holds back for the window to open further
 * (hf_tx_train_defer()).
 *
 * Return: the message, or NULL to end the push (@p->stalled set when the
 * window or the credit closed).
 */
static struct hf_tx_msg *hf_tx_push_next(struct hf_peer *peer,
					 struct hf_tx_push_state *p,
					 int budget, u32 *seq)
{
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	struct hf_tx_msg *msg;
	u32 window;
	u64 wake;

	lockdep_assert_held(&peer->lock);
	/*
	 * The budget ends a push between frames, never inside one: the
	 * window (hf_tx_window()) bounds a frame's rest.
	 */
	if (budget <= 0 && !peer->out.frame.left)
		return NULL;
	if (peer->out.frame.left) {
		msg = peer->out.frame.msg;
	} else {
		p->now = ktime_get_ns();
		msg = hf_tx_pick(peer, p->now, &wake);
		if (!msg) {
			if (wake != U64_MAX) {
				hf_stat_inc(stats, HF_STAT_TX_PACE_WAITS);
				hf_tx_pace_arm(peer, wake);
			}
			return NULL;
		}
	}
	/* Within the window, the scoreboard always has room. */
	window = hf_tx_window(peer, &p->fp, msg->seg_size, msg->sk);
	if (peer->out.grant.zero_window || hf_txwin_inflight(&peer->out.txw) >= window) {
		p->stalled = true;
		return NULL;
	}
	if (!peer->out.frame.left) {
		p->cap_segs = hf_tx_credit_frame(peer, msg, msg->next_seg,
						 &p->fp);
		if (!p->cap_segs) {
			p->stalled = true;
			return NULL;
		}
		p->cap_segs = min(p->cap_segs, hf_tx_frame_paced_segs(peer, msg));
	}
	/*
	 * A push that goes on with a frame sends what the window holds of
	 * it in full trains: they leave as one carrier.
	 */
	if (!p->train.segs &&
	    hf_tx_train_defer(peer, msg, window, peer->out.frame.left ?:
			      min(hf_fsize_frame_segs(&peer->out.frame.fsize, &p->fp,
						      msg->nsegs - msg->next_seg),
				  p->cap_segs),
			      p->sent && peer->out.frame.left)) {
		hf_stat_inc(stats, HF_STAT_TX_PUSH_DEFERRALS);
		return NULL;
	}
	if (hf_txwin_send(&peer->out.txw, seq)) {
		p->stalled = true;
		return NULL;
	}
	return msg;
}

/**
 * hf_tx_msg_start() - number a message as its first segment is taken, and
 * move it to the started ones
 * @peer: the peer; caller holds its lock
 * @msg: the message, on out.queue
 */
static void hf_tx_msg_start(struct hf_peer *peer, struct hf_tx_msg *msg)
{
	lockdep_assert_held(&peer->lock);
	msg->msg_id = peer->out.next_msg_id++;
	msg->pred = hf_tx_msg_pred(peer, msg);
	list_move_tail(&msg->node, &peer->out.active);
	peer->out.unstarted--;
}

/**
 * hf_tx_frame_start() - start a hyperframe of @msg at segment @index
 * @peer: the peer; caller holds its lock
 * @p: the push
 * @msg: the message
 * @seq: the frame's first sequence number
 * @index: its first segment
 *
 * Sized by the frame-size controller (after its idle decay), the credit
 * and the pace (@p->cap_segs), and counted once its size is known.
 */
static void hf_tx_frame_start(struct hf_peer *peer, struct hf_tx_push_state *p,
			      struct hf_tx_msg *msg, u32 seq, u32 index)
{
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	u32 off = index * msg->seg_size;
	struct hf_rto_params rp;
	u32 rto_us;

	lockdep_assert_held(&peer->lock);
	rto_us = hf_rto_current_us(&peer->out.rec.rto,
				   hf_rto_params_read(peer->cfg, &rp));
	hf_tx_fsize_note(peer, hf_fsize_prepare(&peer->out.frame.fsize, &p->fp, p->now,
						rto_us));
	peer->out.frame.msg = msg;
	msg->turn = ++peer->out.frame.turns;
	peer->out.frame.seq = seq;
	peer->out.frame.segs = min(hf_fsize_frame_segs(&peer->out.frame.fsize, &p->fp,
						       msg->nsegs - index),
			       p->cap_segs);
	peer->out.frame.left = peer->out.frame.segs;
	hf_fsize_on_send(&peer->out.frame.fsize, &p->fp, seq, peer->out.frame.segs, p->now);
	/* Its size is known now: only a message's last is short. */
	hf_stat_frame(stats, min_t(u64, msg->len - off,
				   (u64)peer->out.frame.segs * msg->seg_size));
	peer->out.stats.frames++;
	hf_dev_stat_inc(peer->dstats, HF_DEV_STAT_TX_FRAMES);
}

/**
 * hf_tx_slot_take() - give sequence number @seq to segment @index of @msg
 * @peer: the peer; caller holds its lock
 * @msg: the message, which the slot holds a reference to
 * @seq: the sequence number
 * @index: the segment
 * @now: its send time, until pacing sets its departure
 */
static void hf_tx_slot_take(struct hf_peer *peer, struct hf_tx_msg *msg,
			    u32 seq, u32 index, u64 now)
{
	struct hf_tx_slot *slot = hf_tx_slot_of(peer, seq);

	lockdep_assert_held(&peer->lock);
	refcount_inc(&msg->refs);
	slot->msg = msg;
	slot->index = index;
	slot->rexmit = false;
	slot->sent_ns = now;
	if (msg->next_seg == msg->nsegs)
		hf_tx_sent_add(peer, msg);
}

/**
 * hf_tx_seg_count() - count a new segment of @bytes handed to the device
 * @peer: the peer; caller holds its lock
 * @bytes: its payload
 */
static void hf_tx_seg_count(struct hf_peer *peer, u32 bytes)
{
	lockdep_assert_held(&peer->lock);
	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_SEGS);
	peer->out.stats.segs++;
	peer->out.stats.bytes += bytes;
	hf_dev_stat_inc(peer->dstats, HF_DEV_STAT_TX_SEGS);
	hf_dev_stat_add(peer->dstats, HF_DEV_STAT_TX_BYTES, bytes);
}

/**
 * hf_tx_push_end() - after a push: count a stall, and time what is in
 * flight or probe a credit stall
 * @peer: the peer; caller holds its lock
 * @p: the push
 */
static void hf_tx_push_end(struct hf_peer *peer, const struct hf_tx_push_state *p)
{
	lockdep_assert_held(&peer->lock);
	/*
	 * Data waits for credit: a stall each time the window closes on it,
	 * not again for pushes that find it still closed.
	 */
	if (p->stalled && (p->sent || !peer->out.grant.stalled)) {
		hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_CREDIT_STALLS);
		trace_hf_credit_stall(peer, hf_txwin_inflight(&peer->out.txw),
				      peer->out.grant.zero_window);
	}
	peer->out.grant.stalled = p->stalled;
	/*
	 * Whatever is in flight, even a segment we failed to build, is timed,
	 * by the RTO: a persist timer set while nothing was in flight gives
	 * way to it.
	 */
	if (hf_txwin_inflight(&peer->out.txw)) {
		if (!timer_pending(&peer->out.rec.timer) || peer->out.grant.persist_armed)
			hf_tx_rto_arm(peer);
	} else if (peer->out.grant.credit.stalled && !peer->out.grant.zero_window &&
		   !timer_pending(&peer->out.rec.timer)) {
		hf_tx_probe_arm(peer);
	}
	hf_tx_sending_update(peer);
}

/**
 * hf_tx_push() - send new segments while the window, the message window
 * and the budget allow
 * @peer: the peer; caller holds its lock
 */
void hf_tx_push(struct hf_peer *peer)
{
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	struct hf_tx_push_state p = {
		.train = { .packed = READ_ONCE(hf_packed_trains) },
		.cap_segs = U32_MAX,
		.now = ktime_get_ns(),
	};
	int budget;

	lockdep_assert_held(&peer->lock);
	hf_fsize_params_read(peer->cfg, &p.fp);
	for (budget = HF_PUSH_BUDGET;; budget--) {
		struct hf_tx_msg *msg;
		u32 seq, index, bytes;
		u8 flags = 0;
		int err;

		msg = hf_tx_push_next(peer, &p, budget, &seq);
		if (!msg)
			break;
		p.sent = true;
		if (!msg->next_seg)
			hf_tx_msg_start(peer, msg);
		index = msg->next_seg++;
		if (!peer->out.frame.left) {
			hf_tx_frame_start(peer, &p, msg, seq, index);
			flags |= HF_DF_FRAME_START;
		}
		if (!--peer->out.frame.left)
			flags |= HF_DF_FRAME_END;
		bytes = min(msg->len - index * msg->seg_size, msg->seg_size);
		hf_tx_credit_take(peer, bytes);
		hf_tx_slot_take(peer, msg, seq, index, p.now);

		err = hf_tx_train_add(peer, &p.train, msg, index, seq, flags);
		/* Unsent but in flight: the timer will send it again. */
		if (err == -ENOMEM) {
			hf_stat_inc(stats, HF_STAT_TX_XMIT_ERRORS);
			continue;
		}
		hf_tx_seg_count(peer, bytes);
		/* The device is full: acks or the timer resume sending. */
		if (err)
			break;
	}
	/* What a frame cut short by the window or budget has so far. */
	hf_tx_train_send(peer, &p.train);
	hf_tx_carrier_send(peer, &p.train);
	hf_tx_push_end(peer, &p);
}

/*
 * A new incarnation of the flow, numbered from 0. Its epoch differs from
 * the last two: the receiver keeps the one before its current epoch to
 * drop that flow's stale segments, which must never be ours again.
 */
static void hf_tx_new_epoch(struct hf_peer *peer)
{
	u32 epoch;

	lockdep_assert_held(&peer->lock);

	do {
		epoch = get_random_u32();
	} while (!epoch || epoch == peer->out.epoch ||
		 epoch == peer->out.prev_epoch);
	if (peer->out.epoch)
		peer->out.prev_epoch = peer->out.epoch;
	peer->out.epoch = epoch;
	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_EPOCHS);
	peer->out.rx_state = 0;
	hf_tx_txwin_init(peer);
	hf_reorder_init(&peer->out.rec.reo);
	peer->out.rec.recovering = false;
	peer->out.grant.zero_window = false;
	peer->out.grant.stalled = false;
	peer->out.grant.refused_mark = false;
	hf_tx_fsize_init(peer);
	peer->out.rec.phase = HF_RTO_IDLE;
	peer->out.next_msg_id = 0;
	peer->out.msg_done = 0;
	/* Every DATA of the epoch asks alike; the receiver fixes it once. */
	peer->out.status_ask =
		hf_status_ext_of(READ_ONCE(peer->cfg->p.status_window));
	peer->out.status_span = HF_STATUS_WINDOW;
	peer->out.frame.left = 0;
	hf_genl_event_epoch(peer);
}

/* Drop the references the sequence numbers in flight hold. */
static void hf_tx_release_inflight(struct hf_peer *peer)
{
	u32 seq;

	lockdep_assert_held(&peer->lock);

	for (seq = hf_txwin_una(&peer->out.txw); seq != hf_txwin_nxt(&peer->out.txw);
	     seq++) {
		struct hf_tx_slot *slot = hf_tx_slot_of(peer, seq);

		if (slot->msg) {
			hf_tx_msg_put(slot->msg);
			slot->msg = NULL;
		}
	}
}

/*
 * The receiver lost its state for our epoch (it answered LOST,
 * hf_tx_lost()): what it had acknowledged is gone with it. Every message
 * started fails with ECONNRESET, its outcome unknown (the receiver may
 * have delivered it); the messages not started go out in a new epoch,
 * numbered from 0 as they start.
 */
void hf_tx_restart(struct hf_peer *peer)
{
	struct hf_tx_msg *msg, *tmp;
	struct hf_rto_params rp;
	u32 failed = 0;

	lockdep_assert_held(&peer->lock);

	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_RESETS);
	hf_tx_release_inflight(peer);
	list_splice_tail_init(&peer->out.active, &peer->out.sent);
	list_for_each_entry_safe(msg, tmp, &peer->out.sent, node) {
		list_del(&msg->node);
		hf_tx_msg_fail(peer, msg, ECONNRESET);
		hf_tx_msg_put(msg);
		failed++;
	}
	/* The reset first, then the epoch that replaces the flow. */
	hf_genl_event_flow_reset(peer, peer->out.epoch, failed);
	hf_tx_new_epoch(peer);
	hf_rto_init(&peer->out.rec.rto, hf_rto_params_read(peer->cfg, &rp));
	del_timer(&peer->out.rec.timer);
}

/**
 * hf_output_prepare() - give a peer its sending state before its first
 * message
 * @peer: the peer, with a reference; no lock held
 *
 * Process context: the state is large (struct hf_peer_ring, about 100 KiB)
 * and charged to the sending task's memory cgroup, so it is allocated
 * here, never for a peer that only sends to us.
 *
 * Return: 0, or -ENOMEM.
 */
int hf_output_prepare(struct hf_peer *peer)
{
	struct hf_peer_ring *tx;

	might_sleep();
	if (READ_ONCE(peer->out.ring))
		return 0;
	tx = kvzalloc(sizeof(*tx), GFP_KERNEL_ACCOUNT);
	if (!tx)
		return -ENOMEM;
	spin_lock_bh(&peer->lock);
	if (!peer->out.ring) {
		/* Nothing was ever in flight: the scoreboard starts here. */
		WRITE_ONCE(peer->out.ring, tx);
		hf_tx_txwin_init(peer);
		tx = NULL;
	}
	spin_unlock_bh(&peer->lock);
	kvfree(tx);
	return 0;
}

/**
 * hf_output_queue() - queue a message to a peer and start sending it
 * @peer: the peer; caller holds its lock
 * @msg: the message; the queue takes over the caller's reference
 */
void hf_output_queue(struct hf_peer *peer, struct hf_tx_msg *msg)
{
	unsigned long reset = msecs_to_jiffies(READ_ONCE(peer->cfg->p.flow_reset_ms));

	lockdep_assert_held(&peer->lock);

	/*
	 * A flow idle for flow_reset_ms may be forgotten by the receiver
	 * (its peer reclaimed after peer_idle_ms): start afresh, but only
	 * with nothing of the old one in flight. Its own silence counts,
	 * not the peer's: frames of the other direction may have kept our
	 * peer alive while the receiver's was reclaimed.
	 */
	if (hf_output_idle(peer) &&
	    (!peer->out.epoch ||
	     time_after64(get_jiffies_64(), peer->out.last_active + reset)))
		hf_tx_new_epoch(peer);

	list_add_tail(&msg->node, &peer->out.queue);
	peer->out.unstarted++;
	peer->out.stats.msgs++;
	peer->last_active = jiffies;
	peer->out.last_active = get_jiffies_64();
	hf_tx_push(peer);
}

/**
 * hf_output_init() - set up the sending side of a new peer
 * @peer: the peer, not yet visible to anyone
 */
void hf_output_init(struct hf_peer *peer)
{
	struct hf_rto_params rp;

	INIT_LIST_HEAD(&peer->out.queue);
	INIT_LIST_HEAD(&peer->out.active);
	INIT_LIST_HEAD(&peer->out.sent);
	hf_tx_txwin_init(peer);
	hf_rto_init(&peer->out.rec.rto, hf_rto_params_read(peer->cfg, &rp));
	hf_reorder_init(&peer->out.rec.reo);
	hf_tx_fsize_init(peer);
	hf_recovery_init(peer);
	hf_pacing_init(peer);
}

/**
 * hf_output_abort() - fail every message queued or in flight to the peer
 * and forget the flow
 * @peer: the peer; caller holds its lock
 * @err: errno reported to each message's socket; 0 to report nothing (the
 *	 flow was idle)
 *
 * The next message starts a new epoch.
 *
 * Return: the messages dropped, failed with @err.
 */
u32 hf_output_abort(struct hf_peer *peer, int err)
{
	struct hf_tx_msg *msg, *tmp;
	struct hf_rto_params rp;
	u32 dropped = 0;

	lockdep_assert_held(&peer->lock);

	hf_tx_release_inflight(peer);
	list_splice_tail_init(&peer->out.active, &peer->out.sent);
	list_splice_tail_init(&peer->out.queue, &peer->out.sent);
	peer->out.unstarted = 0;
	list_for_each_entry_safe(msg, tmp, &peer->out.sent, node) {
		list_del(&msg->node);
		if (err)
			hf_tx_msg_fail(peer, msg, err);
		hf_tx_msg_put(msg);
		dropped++;
	}
	if (peer->out.epoch)
		peer->out.prev_epoch = peer->out.epoch;
	peer->out.epoch = 0;
	peer->out.rx_state = 0;
	hf_tx_txwin_init(peer);
	peer->out.next_msg_id = 0;
	peer->out.msg_done = 0;
	peer->out.status_span = HF_STATUS_WINDOW;
	peer->out.frame.left = 0;
	/* Nothing waits for credit any more; the next epoch starts it anew. */
	hf_credit_stall_end(&peer->out.grant.credit, ktime_get_ns());
	peer->out.grant.persist_armed = false;
	peer->out.rec.phase = HF_RTO_IDLE;
	hf_rto_init(&peer->out.rec.rto, hf_rto_params_read(peer->cfg, &rp));
	hf_tx_answered_note(peer, false, ktime_get_ns());
	del_timer(&peer->out.rec.timer);
	/* Under the lock it takes: if it runs, it finds nothing to send. */
	hrtimer_try_to_cancel(&peer->out.pace.timer);
	hf_tx_sending_update(peer);
	return dropped;
}

/**
 * hf_output_stop() - wait for the sending side's timer to finish
 * @peer: a dead peer; no lock held
 */
void hf_output_stop(struct hf_peer *peer)
{
	del_timer_sync(&peer->out.rec.timer);
	hrtimer_cancel(&peer->out.pace.timer);
}

/**
 * hf_output_idle() - whether nothing is queued or in flight to the peer
 * @peer: the peer; caller holds its lock, or takes the answer as a guess
 *	  (the eviction scan of a full peer table, peer_evict())
 *
 * Return: true when idle.
 */
bool hf_output_idle(const struct hf_peer *peer)
{
	return list_empty(&peer->out.queue) && list_empty(&peer->out.active) &&
	       list_empty(&peer->out.sent) &&
	       !hf_txwin_inflight(&peer->out.txw);
}

/**
 * hf_output_queued_msgs() - messages to the peer whose outcome is not
 * known: queued, started or fully sent
 * @peer: the peer; caller holds its lock
 *
 * Return: their number, all sockets together.
 */
u32 hf_output_queued_msgs(const struct hf_peer *peer)
{
	lockdep_assert_held(&peer->lock);
	return peer->out.next_msg_id - peer->out.msg_done + peer->out.unstarted;
}

/**
 * hf_output_info() - fill the peer part of a struct hf_info
 * @peer: the peer; caller holds its lock
 * @sk: the socket asking, whose pacing cap counts; NULL for the peer alone
 * @info: filled from hfi_epoch on
 */
void hf_output_info(const struct hf_peer *peer, const struct sock *sk,
		    struct hf_info *info)
{
	u32 inflight = hf_txwin_inflight(&peer->out.txw);
	u32 seg_size = hf_seg_size(READ_ONCE(peer->dev->mtu));
	struct hf_fsize_params fp;
	struct hf_rto_params rp;
	u32 limit;

	lockdep_assert_held(&peer->lock);

	hf_fsize_params_read(peer->cfg, &fp);
	limit = hf_tx_window(peer, &fp, seg_size, sk);
	info->hfi_flags |= HF_INFO_PEER;
	info->hfi_epoch = peer->out.epoch;
	info->hfi_seg_size = seg_size;
	info->hfi_frame_segs = hf_fsize_segs(&peer->out.frame.fsize, &fp);
	info->hfi_frame_bytes = info->hfi_frame_segs * seg_size;
	info->hfi_pacing_rate = hf_tx_pacing_rate(peer, sk);
	info->hfi_credit = inflight < limit ? limit - inflight : 0;
	info->hfi_inflight = inflight;
	info->hfi_srtt_us = peer->out.rec.rto.srtt_us;
	info->hfi_rttvar_us = peer->out.rec.rto.rttvar_us;
	info->hfi_min_rtt_us = peer->out.rec.rto.min_rtt_us;
	info->hfi_rto_us = hf_rto_current_us(&peer->out.rec.rto,
					     hf_rto_params_read(peer->cfg, &rp));
	info->hfi_reorder_us = hf_reorder_window_us(&peer->out.rec.reo,
						    peer->out.rec.rto.min_rtt_us,
						    peer->out.rec.rto.srtt_us);
	info->hfi_backoff = peer->out.rec.rto.backoff;
	info->hfi_retries = peer->out.rec.rto.retries;
	info->hfi_tx_queued_msgs = hf_output_queued_msgs(peer);
	info->hfi_tx_segs = peer->out.stats.segs;
	info->hfi_retransmits = peer->out.stats.retransmits;
	info->hfi_spurious = peer->out.stats.spurious;
	info->hfi_rx_segs = peer->in.stats.segs;
	info->hfi_tx_bytes = peer->out.stats.bytes;
	info->hfi_rx_bytes = peer->in.stats.bytes;
	info->hfi_tx_frames = peer->out.stats.frames;
	info->hfi_peer_tx_msgs = peer->out.stats.msgs;
	info->hfi_tx_msgs_delivered = peer->out.stats.msgs_delivered;
	info->hfi_tx_msgs_failed = peer->out.stats.msgs_failed;
	info->hfi_rx_msgs = peer->in.stats.delivered;
	info->hfi_credit_bytes = hf_credit_avail(&peer->out.grant.credit);
	info->hfi_credit_stall_us =
		div_u64(hf_credit_stall_total_ns(&peer->out.grant.credit,
						 ktime_get_ns()), NSEC_PER_USEC);
	info->hfi_rx_credit = peer->in.credit.limit > peer->in.credit.received ?
			      peer->in.credit.limit - peer->in.credit.received : 0;
	info->hfi_rx_unread = peer->in.credit.received - peer->in.credit.consumed;
	info->hfi_rate_hint = peer->out.pace.rate_hint;
	info->hfi_link_share = hf_tx_link_share(peer);
	info->hfi_backoff_answered_us =
		div_u64(peer->out.rec.answered_total_ns +
			(peer->out.rec.answered_ns && peer->out.rec.rto.backoff >= rp.max_backoff ?
			 ktime_get_ns() - peer->out.rec.answered_ns : 0),
			NSEC_PER_USEC);
}
