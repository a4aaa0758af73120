// SPDX-License-Identifier: GPL-2.0
/*
 * hf_recovery.c - loss recovery: which segments are lost (RACK's time
 * rule with the reordering window, core/hf_reorder.c, over the
 * scoreboard, core/hf_txwin.c), their repair, alone in a frame and paid
 * for by what the acks deliver, and the retransmission timer: RTO, its
 * backoff (core/hf_rto.c), F-RTO's verdict on a timeout, the persist
 * timer of a closed window, and the retry limit.
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

#define HF_RTO_BUDGET		16

/* Segments from una a look for lost repairs walks, per ACK. */
#define HF_REPAIR_SCAN		256

/*
 * Timeouts after which a closed socket's message to a peer that never
 * answered is given up (hf_tx_rto_expired()).
 */
#define HF_ORPHAN_RETRIES	4

/*
 * Arm the retransmission timer. While the receiver's window is closed it
 * is a persist timer for what is in flight: the timeout doubled per probe
 * without room (out.grant.probe_shift), up to HF_PROBE_MAX_US, and the RTO's own
 * backoff is left alone (hf_tx_rto_expired()).
 */
void hf_tx_rto_arm(struct hf_peer *peer)
{
	struct hf_rto_params rp;
	u64 us = hf_rto_current_us(&peer->out.rec.rto, hf_rto_params_read(peer->cfg, &rp));

	lockdep_assert_held(&peer->lock);

	if (peer->out.grant.zero_window)
		us = min_t(u64, us << peer->out.grant.probe_shift, HF_PROBE_MAX_US);
	/* One jiffy more: jiffies + 1 may be due within microseconds. */
	peer->out.rec.reo_armed = false;
	peer->out.grant.persist_armed = false;
	mod_timer(&peer->out.rec.timer, jiffies + usecs_to_jiffies(us) + 1);
}

/* Wake up when a segment held back by the reordering window is due. */
void hf_tx_reorder_arm(struct hf_peer *peer, u64 wait_ns)
{
	lockdep_assert_held(&peer->lock);
	if (peer->out.rec.reo_armed)
		return;
	peer->out.rec.reo_armed = true;
	peer->out.grant.persist_armed = false;
	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_REORDER_WAITS);
	mod_timer(&peer->out.rec.timer, jiffies + nsecs_to_jiffies(wait_ns) + 1);
}

/* Send again the segment at @seq, alone in its frame. */
static void hf_tx_retransmit(struct hf_peer *peer, u32 seq)
{
	struct hf_tx_slot *slot = hf_tx_slot_of(peer, seq);
	struct sk_buff *skb;
	u64 departure;

	lockdep_assert_held(&peer->lock);

	/*
	 * Counted before it is built: a repair that cannot go keeps its
	 * loss reaction (hf_fsize.c design note 9).
	 */
	hf_fsize_on_repair(&peer->out.frame.fsize);
	peer->out.rec.last_repair_ns = ktime_get_ns();
	if (!slot->msg)
		return;
	slot->rexmit = true;
	slot->sent_ns = ktime_get_ns();
	skb = hf_tx_seg_build(peer, slot->msg, slot->index, 1, seq,
			      HF_DF_FRAME_START | HF_DF_FRAME_END | HF_DF_RETRANSMIT,
			seq, 1);
	if (!skb) {
		hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_XMIT_ERRORS);
		return;
	}
	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_RETRANSMITS);
	trace_hf_retransmit(peer, seq, slot->msg->msg_id, slot->index);
	peer->out.stats.retransmits++;
	hf_dev_stat_inc(peer->dstats, HF_DEV_STAT_TX_RETRANSMITS);
	/* A repair counts against the socket's cap as any byte it sends. */
	departure = hf_tx_pace(peer, slot->msg->sk, skb);
	if (departure)
		slot->sent_ns = departure;
	hf_xmit(peer, skb, TC_PRIO_BESTEFFORT);
}

/*
 * Whether the oldest segment in flight belongs to a closed socket, whose
 * message nobody is waiting for any more.
 */
bool hf_tx_orphaned(struct hf_peer *peer)
{
	const struct hf_tx_slot *slot = hf_tx_slot_of(peer, hf_txwin_una(&peer->out.txw));

	lockdep_assert_held(&peer->lock);

	return hf_txwin_inflight(&peer->out.txw) && slot->msg &&
	       sock_flag(slot->msg->sk, SOCK_DEAD);
}

/*
 * A repair can be lost as well. The same time rule finds it: a segment
 * sent again and still missing once a segment sent after the repair has
 * arrived, and a round trip plus the window have passed, is sent once
 * more, instead of waiting for the RTO. Walks the repaired holes from
 * una (HF_REPAIR_SCAN segments at most, HF_PUSH_BUDGET repairs).
 *
 * Return: 0, or the nanoseconds until the first repair found pending is
 * due.
 */
static u64 hf_tx_repair_again(struct hf_peer *peer, u32 rtt_us, u32 win_us,
			      u64 now)
{
	u32 seq = hf_txwin_una(&peer->out.txw), end = peer->out.txw.rtx_next;
	unsigned int scan = HF_REPAIR_SCAN, budget = HF_PUSH_BUDGET;
	u64 first = ~0ULL;

	lockdep_assert_held(&peer->lock);

	for (; scan && budget && hf_seq_before(seq, end); scan--, seq++) {
		struct hf_tx_slot *slot = hf_tx_slot_of(peer, seq);
		u64 wait;

		if (!hf_txwin_retransmitted(&peer->out.txw, seq) ||
		    hf_txwin_sacked(&peer->out.txw, seq))
			continue;
		wait = hf_reorder_wait_ns(&peer->out.rec.reo, slot->sent_ns, now,
					  rtt_us, win_us);
		if (wait) {
			first = min(first, wait);
			continue;
		}
		if (!hf_txwin_repairs_take(&peer->out.txw))
			break;
		hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_REPAIRS_LOST);
		hf_tx_retransmit(peer, seq);
		budget--;
	}
	return first == ~0ULL ? 0 : first;
}

/*
 * Segment @slot is shown arrived for the first time by the ACK taken in at
 * @now: the most recently sent of those that can be a sample
 * (hf_reorder_sample_ok()) is RACK's; @deliv_ns keeps its send time. A
 * repair passed over leaves an original of the same ACK its turn.
 */
void hf_tx_rack_candidate(const struct hf_peer *peer,
			  const struct hf_tx_slot *slot, u64 now,
			      u64 *deliv_ns)
{
	lockdep_assert_held(&peer->lock);
	if (slot->sent_ns >= *deliv_ns &&
	    hf_reorder_sample_ok(slot->sent_ns, now, slot->rexmit,
				 peer->out.rec.rto.min_rtt_us))
		*deliv_ns = slot->sent_ns;
}

/*
 * Segment @slot, sent once, arrived after segments sent after it: the
 * earliest sent of those an ACK shows (@late_sent_ns, 0 for none) was
 * out the longest, and measures the reordering (hf_reorder_late()).
 */
void hf_tx_late_candidate(const struct hf_tx_slot *slot,
			  u64 *late_sent_ns)
{
	if (!*late_sent_ns || slot->sent_ns < *late_sent_ns)
		*late_sent_ns = slot->sent_ns;
}

/*
 * The round trip the time test allows for before the reordering window:
 * RACK.rtt, the round trip of the most recently sent segment delivered
 * (hf_reorder_delivered()), but not below the smoothed one: where packets
 * overtake each other, the latest samples are often those of fast ones.
 * Nor above the retransmission timeout: a sample taken late (a SACK
 * reported late, a repair acked after a backoff) must not hold repairs
 * back longer than the timer would.
 */
u32 hf_tx_rack_rtt_us(const struct hf_peer *peer)
{
	struct hf_rto_params rp;
	u32 rto = hf_rto_current_us(&peer->out.rec.rto, hf_rto_params_read(peer->cfg, &rp));

	lockdep_assert_held(&peer->lock);

	return min(max(peer->out.rec.reo.rtt_us, peer->out.rec.rto.srtt_us), rto);
}

/*
 * Whether the last RTO stands confirmed (core/hf_txwin.c, note 7): the
 * first ack after it showed only its probe arrived (hf_tx_rto_verdict()),
 * or the receiver had room again for the flight it refused. Until the
 * cumulative ack passes what the RTO made eligible, all of that is lost.
 */
bool hf_tx_rto_confirmed(const struct hf_peer *peer)
{
	lockdep_assert_held(&peer->lock);
	return peer->out.rec.phase != HF_RTO_PROBE &&
	       hf_seq_after(peer->out.txw.rto_end, hf_txwin_una(&peer->out.txw));
}

/*
 * Repair what the scoreboard finds lost, in order, once the reordering
 * window says it is not merely late. After an RTO every un-SACKed segment
 * is eligible, but those above the highest SACK may simply still be in
 * flight: only a timeout found real (hf_tx_rto_confirmed()) repairs them,
 * once the timer's probe, delivered, lets the time rule find them lost,
 * as fast as the acks pay: slow start from what the timeout resent
 * (hf_txwin_repairs_grant()). Each repair is paid for by a segment
 * delivered since the recovery began.
 *
 * Lost repairs are looked for after that (hf_tx_repair_again()).
 *
 * Return: 0, or the nanoseconds until the first segment held back is due.
 */
u64 hf_tx_repair(struct hf_peer *peer)
{
	u32 win_us = hf_reorder_window_us(&peer->out.rec.reo, peer->out.rec.rto.min_rtt_us,
					  peer->out.rec.rto.srtt_us);
	u32 rtt_us = hf_tx_rack_rtt_us(peer);
	u32 end = hf_txwin_repair_end(&peer->out.txw, hf_tx_rto_confirmed(peer));
	u64 now = ktime_get_ns();
	u64 held = 0, again;
	unsigned int budget;
	u32 seq;

	lockdep_assert_held(&peer->lock);

	/* Repairs would be refused too: the window's opening resends them. */
	if (peer->out.grant.zero_window)
		return 0;
	for (budget = HF_PUSH_BUDGET;
	     budget && hf_seq_before(peer->out.txw.rtx_next, end) &&
	     hf_txwin_peek_lost(&peer->out.txw, &seq); budget--) {
		struct hf_tx_slot *slot = hf_tx_slot_of(peer, seq);
		u64 wait = hf_reorder_wait_ns(&peer->out.rec.reo, slot->sent_ns, now,
					      rtt_us, win_us);

		/*
		 * After an RTO every un-SACKed segment is eligible again,
		 * repairs still on their way included: one the time rule
		 * does not find lost yet is left to hf_tx_repair_again(), which
		 * sends it once more only if it is.
		 */
		if (wait && slot->rexmit) {
			hf_txwin_next_lost(&peer->out.txw, &seq);
			continue;
		}

		/* Sent in order: a later segment cannot be due sooner. */
		if (wait) {
			held = wait == ~0ULL ? 0 : wait;
			break;
		}
		/* The next ACK that delivers pays for more. */
		if (!hf_txwin_repairs_take(&peer->out.txw))
			break;
		hf_txwin_next_lost(&peer->out.txw, &seq);
		hf_tx_loss_sign(peer, seq);
		if (!peer->out.rec.recovering) {
			peer->out.rec.recovering = true;
			peer->out.rec.recover = hf_txwin_nxt(&peer->out.txw);
		}
		hf_tx_retransmit(peer, seq);
	}
	again = hf_tx_repair_again(peer, rtt_us, win_us, now);
	if (!held || (again && again < held))
		return again;
	return held;
}

/* Whether every message queued or in flight to @peer is a closed socket's. */
static bool hf_tx_all_orphaned(const struct hf_peer *peer)
{
	const struct list_head *lists[] = {
		&peer->out.queue, &peer->out.active, &peer->out.sent,
	};
	const struct hf_tx_msg *msg;
	unsigned int i;

	lockdep_assert_held(&peer->lock);

	for (i = 0; i < ARRAY_SIZE(lists); i++)
		list_for_each_entry(msg, lists[i], node)
			if (!sock_flag(msg->sk, SOCK_DEAD))
				return false;
	return true;
}

/**
 * hf_tx_answered_note() - account the time a flow sits at its maximum backoff
 * while its peer answers
 * @peer: the peer; caller holds its lock
 * @took: an ACK that took data (acked or newly SACKed a segment) has just
 *	  been applied
 * @now: the clock, ns
 *
 * A stretch starts when such an ACK leaves the timeout at its maximum
 * backoff, and ends when the backoff falls below it (or the flow ends):
 * its length goes to out.rec.answered_total_ns (HF_INFO) and the counter
 * tx_backoff_answered_us. A silent peer never starts one.
 */
void hf_tx_answered_note(struct hf_peer *peer, bool took, u64 now)
{
	struct hf_rto_params rp;
	bool at_max;

	lockdep_assert_held(&peer->lock);
	hf_rto_params_read(peer->cfg, &rp);
	at_max = rp.max_backoff && peer->out.rec.rto.backoff >= rp.max_backoff &&
		 hf_txwin_inflight(&peer->out.txw);
	if (peer->out.rec.answered_ns && !at_max) {
		u64 ns = now > peer->out.rec.answered_ns ? now - peer->out.rec.answered_ns : 0;

		peer->out.rec.answered_total_ns += ns;
		hf_stat_add(&hf_net(peer->net)->stats,
			    HF_STAT_TX_BACKOFF_ANSWERED_US,
			    div_u64(ns, NSEC_PER_USEC));
		peer->out.rec.answered_ns = 0;
	}
	if (at_max && took && !peer->out.rec.answered_ns)
		peer->out.rec.answered_ns = now ?: 1;
}

/*
 * Resend up to @budget of what the scoreboard hands out, in order from
 * una. Return: how many were resent.
 */
unsigned int hf_tx_resend(struct hf_peer *peer, unsigned int budget)
{
	unsigned int sent = 0;
	u32 seq;

	lockdep_assert_held(&peer->lock);

	while (sent < budget && hf_txwin_next_lost(&peer->out.txw, &seq)) {
		hf_tx_retransmit(peer, seq);
		sent++;
	}
	return sent;
}

/*
 * The first ACK after a timeout that takes something (F-RTO, RFC 5682),
 * or a later one while the loss it found is being repaired.
 * @early: it acks a segment sent before the timer, sent once and not
 * SACKed before: the flight was not lost, the timer fired early (the
 * machine stalled, an ACK was late). Everything the timer made eligible
 * goes back to the scoreboard's loss detection, the backoff ends, and the
 * frame-size controller takes back the timeout's cut (hf_fsize_undo()).
 * Otherwise only the probe arrived: the RTO stands confirmed
 * (hf_tx_rto_confirmed()), HF_RTO_BUDGET - 1 more are resent at once and the
 * acks pay for the rest (hf_tx_repair()).
 */
void hf_tx_rto_verdict(struct hf_peer *peer, bool early)
{
	struct hf_fsize_params fp;

	lockdep_assert_held(&peer->lock);
	if (!early) {
		/*
		 * With the probe, HF_RTO_BUDGET per timeout, as before; none
		 * more into a zero window.
		 */
		if (!peer->out.grant.zero_window)
			hf_tx_resend(peer, HF_RTO_BUDGET - 1);
		peer->out.rec.phase = HF_RTO_IDLE;
		return;
	}
	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_RTO_SPURIOUS);
	hf_txwin_rto_undo(&peer->out.txw);
	hf_tx_fsize_note(peer, hf_fsize_undo(&peer->out.frame.fsize,
					     hf_fsize_params_read(peer->cfg, &fp)));
	hf_rto_backoff_end(&peer->out.rec.rto);
	peer->out.rec.phase = HF_RTO_IDLE;
}

/**
 * hf_tx_rto_nothing_inflight() - the timer fired with nothing in flight:
 * the persist timer of a zero window or of a credit stall
 * @peer: the peer; caller holds its lock
 *
 * New data is the probe, one push (hf_tx_persist()); a credit stall sends
 * one segment beyond the credit.
 */
static void hf_tx_rto_nothing_inflight(struct hf_peer *peer)
{
	lockdep_assert_held(&peer->lock);
	if (peer->out.grant.zero_window) {
		peer->out.grant.zero_window = false;
		hf_tx_push(peer);
	} else if (peer->out.grant.credit.stalled) {
		/* Credit stalled: one segment goes as a probe. */
		peer->out.grant.probing = true;
		hf_tx_push(peer);
		peer->out.grant.probing = false;
	}
}

/**
 * hf_tx_rto_timeout() - a retransmission timeout: give up at the retry
 * limit, or back off and send the oldest segment alone
 * @peer: the peer; caller holds its lock
 */
static void hf_tx_rto_timeout(struct hf_peer *peer)
{
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	struct hf_rto_params rp;
	bool give_up;

	lockdep_assert_held(&peer->lock);
	hf_stat_inc(stats, HF_STAT_TX_RTO);
	/*
	 * Only closed sockets' messages, to a peer that never answered (an
	 * absent address): nobody waits for them, and their memory is not
	 * held for the whole retry limit. A few timeouts leave a real peer
	 * time to answer what a socket sent just before it closed.
	 */
	if (!peer->out.answered && peer->out.rec.rto.retries >= HF_ORPHAN_RETRIES &&
	    hf_tx_all_orphaned(peer)) {
		hf_stat_add(stats, HF_STAT_TX_MSGS_ORPHANED,
			    hf_output_abort(peer, 0));
		return;
	}
	hf_rto_params_read(peer->cfg, &rp);
	/*
	 * A closed window: the flight waits for room, and the receiver
	 * answers. The timer is a persist timer (hf_tx_rto_arm()); the expiry
	 * counts towards the retry limit, for a receiver that went silent,
	 * but doubles the probe interval, not the RTO.
	 */
	if (peer->out.grant.zero_window) {
		if (peer->out.grant.probe_shift < HF_PROBE_SHIFT_MAX)
			peer->out.grant.probe_shift++;
		give_up = hf_rto_probe_timeout(&peer->out.rec.rto, &rp);
	} else {
		give_up = hf_rto_timeout(&peer->out.rec.rto, &rp);
	}
	if (give_up) {
		u32 epoch = peer->out.epoch;
		u32 failed;

		/* The retry limit: the peer is unreachable. */
		failed = hf_output_abort(peer, EHOSTUNREACH);
		hf_genl_event_retry_limit(peer, epoch, failed);
		return;
	}
	/*
	 * A timeout is a loss sign to the frame-size controller too; the
	 * timer firing again before any ACK answered the last one (its probe
	 * still unanswered) is the same stall.
	 */
	hf_tx_timeout_sign(peer, hf_txwin_una(&peer->out.txw),
			   peer->out.rec.phase == HF_RTO_PROBE);
	/* The oldest segment alone: the next ACK says whether that was all. */
	hf_txwin_rto(&peer->out.txw);
	hf_tx_resend(peer, 1);
	peer->out.rec.phase = HF_RTO_PROBE;
	peer->out.rec.rto_nxt = hf_txwin_nxt(&peer->out.txw);
	hf_tx_rto_arm(peer);
	hf_tx_answered_note(peer, false, ktime_get_ns());
}

/**
 * hf_tx_rto_expired() - the retransmission timer of a peer
 * @t: its timer
 *
 * Timer (softirq) context; takes the peer lock. One timer serves four
 * ends: the reordering window's wait, the RTO, and the persist timers of
 * a zero window and of a credit stall.
 */
static void hf_tx_rto_expired(struct timer_list *t)
{
	struct hf_peer *peer = from_timer(peer, t, out.rec.timer);
	u64 wait;

	spin_lock_bh(&peer->lock);
	if (peer->dead)
		goto out;
	peer->out.grant.persist_armed = false;
	if (!hf_txwin_inflight(&peer->out.txw)) {
		hf_tx_rto_nothing_inflight(peer);
		goto out;
	}
	if (peer->out.rec.reo_armed) {
		/* Segments held back by the reordering window are due. */
		peer->out.rec.reo_armed = false;
		wait = hf_tx_repair(peer);
		if (wait)
			hf_tx_reorder_arm(peer, wait);
		else
			hf_tx_rto_arm(peer);
		goto out;
	}
	hf_tx_rto_timeout(peer);
out:
	if (!peer->dead)
		hf_tx_sending_update(peer);
	spin_unlock_bh(&peer->lock);
}

/**
 * hf_recovery_init() - set up the retransmission timer of a new peer
 * @peer: the peer, not yet visible to anyone
 */
void hf_recovery_init(struct hf_peer *peer)
{
	timer_setup(&peer->out.rec.timer, hf_tx_rto_expired, 0);
}
