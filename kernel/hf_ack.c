// SPDX-License-Identifier: GPL-2.0
/*
 * hf_ack.c - ACKs: built and timed by the receiver (every HF_ACK_EVERY
 * segments, at a frame's end, or by the delayed-ACK timer), the answers
 * to a flow the receiver does not hold (a challenge or LOST), and their
 * processing by the sender, as a sequence of named steps: validation,
 * round-trip and reordering samples, the scoreboard, the backoff, the
 * outcomes, credit, and what is sent next.
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

/* Apply the outcomes an ACK reports for messages fully sent. */
static void hf_tx_outcomes(struct hf_peer *peer, const struct hf_ack_hdr *a)
{
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	struct hf_tx_msg *msg, *tmp;

	lockdep_assert_held(&peer->lock);

	/*
	 * msg_done may not pass a message that is not fully sent, nor leave
	 * one below it whose outcome the ACK does not carry.
	 */
	msg = list_first_entry_or_null(&peer->out.active, struct hf_tx_msg, node);
	if ((msg && hf_seq_after(a->msg_done, msg->msg_id)) ||
	    hf_seq_after(a->msg_done, peer->out.next_msg_id) ||
	    (hf_seq_after(a->msg_done, peer->out.msg_done) &&
	     a->msg_done - peer->out.msg_done > hf_ack_status_span(a))) {
		hf_peer_drop(peer, HF_STAT_DROP_ACK_INVALID, 1);
		return;
	}

	list_for_each_entry_safe(msg, tmp, &peer->out.sent, node) {
		if (!hf_seq_before(msg->msg_id, a->msg_done))
			break;
		list_del(&msg->node);
		peer->out.msg_done = msg->msg_id + 1;
		switch (hf_ack_status(a, msg->msg_id)) {
		case HF_STATUS_DELIVERED:
			hf_stat_inc(stats, HF_STAT_TX_MSGS_DELIVERED);
			peer->out.stats.msgs_delivered++;
			hf_tx_msg_resolved(msg);
			break;
		case HF_STATUS_NO_PORT:
			hf_tx_msg_fail(peer, msg, ECONNREFUSED);
			break;
		default:
			hf_tx_msg_fail(peer, msg, EMSGSIZE);
			break;
		}
		hf_tx_msg_put(msg);
	}
}

/*
 * A LOST answer: the receiver holds no state for our epoch (it lost it or
 * replaced it) and names, in cum_seq, the segment of ours that told it.
 * Believed only when the receiver had given us a state, which that
 * segment echoed, and the segment is in flight: a forged answer must know
 * the epoch and name a sequence number in flight, and one that names
 * nothing of ours restarts nothing. Every message started fails
 * (ECONNRESET) and the rest go out in a new epoch (hf_tx_restart()).
 */
static void hf_tx_lost(struct hf_peer *peer, const struct hf_ack_hdr *a)
{
	struct hf_stats *stats = &hf_net(peer->net)->stats;

	lockdep_assert_held(&peer->lock);
	if (!peer->out.rx_state ||
	    hf_seq_before(a->cum_seq, hf_txwin_una(&peer->out.txw)) ||
	    !hf_seq_before(a->cum_seq, hf_txwin_nxt(&peer->out.txw))) {
		hf_peer_drop(peer, HF_STAT_DROP_ACK_INVALID, 1);
		return;
	}
	hf_stat_inc(stats, HF_STAT_RX_ACKS);
	peer->out.answered = true;
	peer->last_active = jiffies;
	peer->out.last_active = get_jiffies_64();
	hf_tx_restart(peer);
	hf_tx_push(peer);
}

/*
 * A challenge: the receiver holds another flow from us, so our new epoch
 * must prove itself by echoing the state this ACK gave (taken by the
 * caller). What is in flight, sent before, carried no echo: it goes again
 * (the first segment that arrives echoing the state starts the flow
 * there), and sending goes on. The answer proves the peer alive.
 */
static void hf_tx_challenged(struct hf_peer *peer)
{
	lockdep_assert_held(&peer->lock);
	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_CHALLENGES);
	peer->last_active = jiffies;
	peer->out.last_active = get_jiffies_64();
	hf_rto_ack_progress(&peer->out.rec.rto);
	if (hf_txwin_inflight(&peer->out.txw)) {
		hf_txwin_rto(&peer->out.txw);
		peer->out.rec.phase = HF_RTO_IDLE;
		/* No timeout: nothing for F-RTO to take back. */
		hf_fsize_undo_forget(&peer->out.frame.fsize);
		hf_tx_resend(peer, HF_PUSH_BUDGET);
		hf_tx_rto_arm(peer);
	}
	hf_tx_push(peer);
}

/**
 * struct hf_ack_ctx - one ACK being applied, and what was read of the
 * scoreboard before it moved
 * @h: the decoded, validated ACK
 * @now: when it was taken in, ns
 * @old_una: the cumulative ack before it
 * @old_high: the highest SACKed sequence number before it
 * @rack_rtt_us: the round trip the time test allows for, before this
 *		 ACK's sample (hf_tx_rack_rtt_us())
 * @complete: the last ACK named every block the receiver held
 * @sent_ns: send time of the round-trip sample's segment; 0 for none
 * @sample_seq: that segment
 * @deliv_ns: send time of RACK's candidate; 0 for none
 * @late_sent_ns: send time of the earliest sent late arrival; 0 for none
 * @answer_ns: send time of the latest sent segment the ACK shows arrived
 * @repaired: the cumulative ack covers a repair (Karn: no sample)
 * @early: it shows arrived a segment of the timer's flight sent once
 * @res: what the scoreboard made of it
 * @took: it acks or newly SACKs a segment
 */
struct hf_ack_ctx {
	const struct hf_hdr *h;
	u64 now;
	u32 old_una;
	u32 old_high;
	u32 rack_rtt_us;
	bool complete;
	u64 sent_ns;
	u32 sample_seq;
	u64 deliv_ns;
	u64 late_sent_ns;
	u64 answer_ns;
	bool repaired;
	bool early;
	struct hf_txwin_ack_result res;
	bool took;
};

/**
 * hf_ack_admit() - whether an ACK belongs to the flow and carries news
 * for the scoreboard
 * @peer: the peer; caller holds its lock
 * @h: the ACK
 *
 * Drops one of another epoch, or naming another receiver state; hands a
 * LOST answer to hf_tx_lost() and a challenge to hf_tx_challenged(). An
 * admitted ACK proves the peer and the receiver's state alive.
 *
 * Return: true when the caller goes on to apply it.
 */
static bool hf_ack_admit(struct hf_peer *peer, const struct hf_hdr *h)
{
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	const struct hf_ack_hdr *a = &h->ack;

	lockdep_assert_held(&peer->lock);
	if (!peer->out.epoch || a->epoch != peer->out.epoch) {
		hf_peer_drop(peer, HF_STAT_DROP_EPOCH, 1);
		return false;
	}
	if (h->flags & HF_AF_LOST) {
		hf_tx_lost(peer, a);
		return false;
	}
	hf_stat_inc(stats, HF_STAT_RX_ACKS);
	/*
	 * The receiver names its state for our epoch in every ACK, the
	 * first one teaching it to us; an ACK naming another is not its
	 * own (a receiver that lost its state says LOST). It restarts
	 * nothing.
	 */
	if (!a->rx_state ||
	    (peer->out.rx_state && a->rx_state != peer->out.rx_state)) {
		hf_peer_drop(peer, HF_STAT_DROP_ACK_INVALID, 1);
		return false;
	}
	/*
	 * A challenge is answered once: the receiver sends one for each
	 * segment of the first window, and each would resend the flight.
	 */
	if (h->flags & HF_AF_CHALLENGE) {
		if (!peer->out.rx_state) {
			peer->out.rx_state = a->rx_state;
			peer->out.answered = true;
			hf_tx_challenged(peer);
		}
		return false;
	}
	peer->out.rx_state = a->rx_state;
	peer->out.answered = true;
	/* Every ACK of the epoch carries as many outcomes (hf_rx_epoch_start()). */
	peer->out.status_span = hf_ack_status_span(a);
	/*
	 * The flow's own ACK: the receiver still holds its state. Forged
	 * ones (another epoch, above) must not keep a flow alive that the
	 * receiver has forgotten: the next message would go out in it and
	 * be refused as a lost state (ECONNRESET) instead of starting anew.
	 */
	peer->last_active = jiffies;
	peer->out.last_active = get_jiffies_64();
	return true;
}

/**
 * hf_ack_scan_cum() - what the cumulative ack shows, read before the
 * scoreboard moves
 * @peer: the peer; caller holds its lock
 * @c: the ACK; its sample, RACK and reordering candidates are filled
 *
 * The round-trip sample is taken as Linux TCP does: from the latest
 * segment it acks that was sent once and not SACKed before (whose ack
 * only waited for a hole below it), and none at all when it acks a
 * repair (Karn).
 */
static void hf_ack_scan_cum(struct hf_peer *peer, struct hf_ack_ctx *c)
{
	const struct hf_ack_hdr *a = &c->h->ack;
	u32 seq;

	lockdep_assert_held(&peer->lock);
	if (hf_seq_after(a->cum_seq, hf_txwin_nxt(&peer->out.txw)))
		return;
	for (seq = c->old_una; hf_seq_before(seq, a->cum_seq); seq++) {
		struct hf_tx_slot *slot = hf_tx_slot_of(peer, seq);
		bool sacked;

		if (!slot->msg)
			continue;
		sacked = hf_txwin_sacked(&peer->out.txw, seq);
		/* Shown arrived for the first time: RACK's candidate. */
		if (!sacked) {
			hf_tx_rack_candidate(peer, slot, c->now, &c->deliv_ns);
			c->answer_ns = max(c->answer_ns, slot->sent_ns);
		}
		if (slot->rexmit) {
			c->repaired = true;
		} else if (!sacked) {
			c->sent_ns = slot->sent_ns;
			c->sample_seq = seq;
			if (hf_seq_before(seq, peer->out.rec.rto_nxt))
				c->early = true;
			/*
			 * Sent once, and segments sent after it had arrived
			 * first: how late it is says how much reordering the
			 * window must allow. Not when the last ACK could not
			 * name all it held: it may have come long ago.
			 */
			if (hf_seq_before(seq, c->old_high) && c->complete)
				hf_tx_late_candidate(slot, &c->late_sent_ns);
		}
	}
}

/**
 * hf_ack_scan_sack() - what the SACK blocks' ends show, read before the
 * scoreboard moves
 * @peer: the peer; caller holds its lock
 * @c: the ACK; its RACK and reordering candidates are filled
 *
 * The blocks' ends newly SACKed (a new block's start; the end a block
 * grew to) show late arrivals too, when below the highest SACK and sent
 * once; the highest SACK itself is RACK's candidate.
 */
static void hf_ack_scan_sack(struct hf_peer *peer, struct hf_ack_ctx *c)
{
	const struct hf_ack_hdr *a = &c->h->ack;
	unsigned int i, e;

	lockdep_assert_held(&peer->lock);
	for (i = 0; i < a->nsack; i++) {
		u32 ends[2] = { a->sack[i].start, a->sack[i].end - 1 };

		for (e = 0; e < 2; e++) {
			const struct hf_tx_slot *slot;
			u32 seq = ends[e];

			if (seq - c->old_una >= hf_txwin_inflight(&peer->out.txw) ||
			    hf_txwin_sacked(&peer->out.txw, seq))
				continue;
			slot = hf_tx_slot_of(peer, seq);
			if (!slot->msg)
				continue;
			c->answer_ns = max(c->answer_ns, slot->sent_ns);
			if (hf_seq_after(seq + 1, c->old_high))
				hf_tx_rack_candidate(peer, slot, c->now,
						     &c->deliv_ns);
			if (c->complete && hf_seq_before(seq, c->old_high) &&
			    !slot->rexmit)
				hf_tx_late_candidate(slot, &c->late_sent_ns);
		}
	}
}

/**
 * hf_ack_reorder() - feed the reordering window what a sound ACK showed,
 * and let the repairs it paid for go
 * @peer: the peer; caller holds its lock
 * @c: the ACK, applied to the scoreboard
 */
static void hf_ack_reorder(struct hf_peer *peer, const struct hf_ack_ctx *c)
{
	lockdep_assert_held(&peer->lock);
	/* Candidates offered only once the ACK is known to be sound. */
	if (c->deliv_ns && !c->res.invalid)
		hf_reorder_delivered(&peer->out.rec.reo, c->deliv_ns, c->now);
	/* The earliest sent of them was the latest. */
	if (c->late_sent_ns && c->now > c->late_sent_ns)
		hf_reorder_late(&peer->out.rec.reo,
				div_u64(c->now - c->late_sent_ns, NSEC_PER_USEC),
				c->rack_rtt_us, peer->out.rec.rto.min_rtt_us);
	hf_txwin_repairs_grant(&peer->out.txw, c->res.delivered,
			       peer->out.rec.recovering || peer->out.rec.reo_armed,
			       hf_tx_rto_confirmed(peer));
}

/**
 * hf_ack_release() - drop the references of the segments the cumulative
 * ack passed
 * @peer: the peer; caller holds its lock
 * @old_una: the cumulative ack before this ACK
 */
static void hf_ack_release(struct hf_peer *peer, u32 old_una)
{
	u32 seq;

	lockdep_assert_held(&peer->lock);
	for (seq = old_una; seq != hf_txwin_una(&peer->out.txw); seq++) {
		struct hf_tx_slot *slot = hf_tx_slot_of(peer, seq);

		if (!slot->msg)
			continue;
		hf_tx_msg_put(slot->msg);
		slot->msg = NULL;
	}
}

/**
 * hf_ack_timeout() - what an ACK that takes something says to the
 * retransmission timer: the backoff ends or falls, and F-RTO judges the
 * last timeout
 * @peer: the peer; caller holds its lock
 * @c: the ACK, applied to the scoreboard
 */
static void hf_ack_timeout(struct hf_peer *peer, struct hf_ack_ctx *c)
{
	struct hf_rto_params rp;

	lockdep_assert_held(&peer->lock);
	/*
	 * The highest SACKed segment is the latest sent that arrived. Newly
	 * SACKed and sent once, it proves the path delivers, which ends a
	 * backoff: under loss, una often moves only past repairs, and
	 * without that a backed-off timer would stay for good. It is no
	 * sample of the smoothed round trip: SACKs name the lowest ranges
	 * first, so a segment is often reported late.
	 */
	if (hf_seq_after(peer->out.txw.high_sacked, hf_txwin_una(&peer->out.txw))) {
		u32 seq = peer->out.txw.high_sacked - 1;
		const struct hf_tx_slot *slot = hf_tx_slot_of(peer, seq);

		if (peer->out.txw.high_sacked != c->old_high) {
			if (!hf_txwin_retransmitted(&peer->out.txw, seq))
				hf_rto_backoff_end(&peer->out.rec.rto);
			if (!slot->rexmit && hf_seq_before(seq, peer->out.rec.rto_nxt))
				c->early = true;
		}
	}
	if (peer->out.rec.phase == HF_RTO_PROBE && c->took)
		hf_tx_rto_verdict(peer, c->early);
	/*
	 * F-RTO's second look: an original of the timer's flight that
	 * arrives after a verdict of loss shows the flight was late, not
	 * lost (reordering, a slow receiver). The rest goes back to the
	 * scoreboard's loss detection rather than out again in slow start.
	 */
	else if (c->early && hf_tx_rto_confirmed(peer))
		hf_tx_rto_verdict(peer, true);
	/*
	 * Whatever it took, the peer answered: the backoff falls to what the
	 * answer's own timing needs, none when it came within the timeout
	 * (core/hf_rto.c, note 4). A repair's ack is no sample (Karn), and
	 * without this a flow whose acks answer repairs only, as in a
	 * recovery, keeps the backoff of its timeouts for good.
	 */
	if (c->took)
		hf_rto_answered(&peer->out.rec.rto, hf_rto_params_read(peer->cfg, &rp),
				c->answer_ns && c->now > c->answer_ns ?
				min_t(u64, div_u64(c->now - c->answer_ns,
						   NSEC_PER_USEC),
				      U32_MAX) : 0);
}

/**
 * hf_ack_rtt() - take the ACK's round-trip sample, if it has one, for the
 * timer and the frame-size controller
 * @peer: the peer; caller holds its lock
 * @c: the ACK
 * @fp: the frame-size controller's parameters
 */
static void hf_ack_rtt(struct hf_peer *peer, const struct hf_ack_ctx *c,
		       const struct hf_fsize_params *fp)
{
	struct hf_rto_params rp;
	u64 sample = 0;
	u32 rtt_us;

	lockdep_assert_held(&peer->lock);
	/* A departure time still ahead: the qdisc sent it early. */
	if (c->sent_ns && !c->repaired && c->now > c->sent_ns)
		sample = c->now - c->sent_ns;
	if (!sample)
		return;
	rtt_us = min_t(u64, div_u64(sample, 1000), U32_MAX);
	hf_rto_sample(&peer->out.rec.rto, hf_rto_params_read(peer->cfg, &rp), rtt_us);
	hf_tx_fsize_note(peer, hf_fsize_on_rtt(&peer->out.frame.fsize, fp, c->sample_seq,
					       rtt_us, peer->out.rec.rto.min_rtt_us));
}

/**
 * hf_ack_window() - apply what the ACK says of the receiver's room: its
 * credit, a closed or reopened window, its rate hint
 * @peer: the peer; caller holds its lock
 * @c: the ACK
 */
static void hf_ack_window(struct hf_peer *peer, const struct hf_ack_ctx *c)
{
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	const struct hf_ack_hdr *a = &c->h->ack;
	struct hf_credit_params cp;

	lockdep_assert_held(&peer->lock);
	/*
	 * Credit: the largest limit granted counts (a late ACK's is stale).
	 * A receiver that refused a message for a full socket buffer says
	 * CLOSED until its program reads; sending meanwhile only makes it
	 * refuse more. Acks in the flow's order are not guaranteed, so a
	 * stale closing ack costs at most a probe.
	 */
	switch (hf_credit_grant_wire(&peer->out.grant.credit,
				     hf_credit_params_read(peer->cfg, &cp),
				     a->credit, c->now)) {
	case HF_CREDIT_NEW:
		peer->out.grant.probe_shift = 0;
		break;
	case HF_CREDIT_INVALID:
		hf_stat_inc(stats, HF_STAT_TX_CREDIT_INVALID);
		break;
	case HF_CREDIT_STALE:
		break;
	}
	/* An open window ends the persist backoff (hf_tx_rto_arm()). */
	if (peer->out.grant.zero_window && !(c->h->flags & HF_AF_CLOSED))
		peer->out.grant.probe_shift = 0;
	peer->out.grant.zero_window = c->h->flags & HF_AF_CLOSED;
	hf_tx_rate_hint(peer, a->rate_kbps);
	/*
	 * What is in flight now may be refused: its loss is flow control,
	 * not congestion, for the frame-size controller (hf_tx_loss_sign()).
	 */
	if (peer->out.grant.zero_window) {
		peer->out.grant.refused_end = hf_txwin_nxt(&peer->out.txw);
		peer->out.grant.refused_mark = true;
	} else if (peer->out.grant.refused_mark &&
		   !hf_seq_before(hf_txwin_una(&peer->out.txw),
				  peer->out.grant.refused_end)) {
		peer->out.grant.refused_mark = false;
	}

	/* The receiver has room again for what it refused: resend now. */
	if (c->h->flags & HF_AF_WINDOW && hf_txwin_inflight(&peer->out.txw)) {
		hf_txwin_rto(&peer->out.txw);
		peer->out.rec.phase = HF_RTO_IDLE;
		peer->out.rec.rto_nxt = hf_txwin_nxt(&peer->out.txw);
		/* No timeout: nothing for F-RTO to take back. */
		hf_fsize_undo_forget(&peer->out.frame.fsize);
		hf_rto_backoff_end(&peer->out.rec.rto);
		hf_stat_add(stats, HF_STAT_TX_WINDOW_RESENDS,
			    hf_tx_resend(peer, HF_PUSH_BUDGET));
		hf_tx_rto_arm(peer);
	}
}

/**
 * hf_ack_send_next() - after an ACK: repair what is found lost, send new
 * data, and set the timer for what is left in flight
 * @peer: the peer; caller holds its lock
 * @c: the ACK
 */
static void hf_ack_send_next(struct hf_peer *peer, const struct hf_ack_ctx *c)
{
	u64 wait;

	lockdep_assert_held(&peer->lock);
	wait = hf_tx_repair(peer);
	hf_tx_push(peer);

	if (!hf_txwin_inflight(&peer->out.txw))
		hf_tx_persist(peer);
	else if (wait)
		hf_tx_reorder_arm(peer, wait);
	else if (c->res.acked)
		hf_tx_rto_arm(peer);
	hf_tx_answered_note(peer, c->took, c->now);
}

/*
 * The ACK answers a segment that arrived twice, at @now: a repair the
 * receiver already had (the reorder window was too narrow), or the
 * original of one that overtook it. Once every repair of a loss reaction
 * was answered so, nothing was lost and the reaction is taken back
 * (hf_fsize_on_duplicate()).
 */
static void hf_ack_duplicate(struct hf_peer *peer, u64 now)
{
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	struct hf_fsize_params fp;
	unsigned int what;

	lockdep_assert_held(&peer->lock);
	hf_stat_inc(stats, HF_STAT_TX_SPURIOUS);
	peer->out.stats.spurious++;
	hf_reorder_spurious(&peer->out.rec.reo, now, peer->out.rec.rto.srtt_us);
	what = hf_fsize_on_duplicate(&peer->out.frame.fsize,
				     hf_fsize_params_read(peer->cfg, &fp));
	if (what)
		hf_stat_inc(stats, HF_STAT_TX_REPAIR_UNDOS);
	hf_tx_fsize_note(peer, what);
}

/**
 * hf_output_ack() - apply an ACK from the peer
 * @peer: the peer; caller holds its lock
 * @h: the decoded, validated ACK
 *
 * Frees what is acknowledged, takes an RTT sample (Karn: never from a
 * segment sent twice), reports message outcomes, retransmits exactly the
 * segments the scoreboard finds lost, and sends more.
 */
void hf_output_ack(struct hf_peer *peer, const struct hf_hdr *h)
{
	const struct hf_ack_hdr *a = &h->ack;
	struct hf_ack_ctx c = {
		.h = h,
		.now = ktime_get_ns(),
		.old_una = hf_txwin_una(&peer->out.txw),
		.old_high = peer->out.txw.high_sacked,
		.rack_rtt_us = hf_tx_rack_rtt_us(peer),
		.complete = hf_txwin_blocks_complete(&peer->out.txw),
	};
	struct hf_fsize_params fp;

	lockdep_assert_held(&peer->lock);
	if (!hf_ack_admit(peer, h))
		return;
	if (h->flags & HF_AF_DUP)
		hf_ack_duplicate(peer, c.now);
	hf_ack_scan_cum(peer, &c);
	hf_ack_scan_sack(peer, &c);

	hf_txwin_ack(&peer->out.txw, a->cum_seq, a->sack, a->nsack, &c.res);
	if (c.res.invalid)
		hf_peer_drop(peer, HF_STAT_DROP_ACK_INVALID, c.res.invalid);
	/*
	 * An ack behind what was acknowledged already, or for segments never
	 * sent, says nothing about this flow: it proves neither progress nor
	 * outcomes, and must not reset the retry count.
	 */
	if (c.res.stale || hf_seq_after(a->cum_seq, hf_txwin_nxt(&peer->out.txw)))
		return;
	hf_ack_reorder(peer, &c);
	/* Rounds of the frame-size controller end as the cumulative ack moves. */
	hf_fsize_params_read(peer->cfg, &fp);
	if (c.res.acked)
		hf_tx_fsize_note(peer, hf_fsize_on_ack(&peer->out.frame.fsize, &fp,
						       a->cum_seq, c.now));
	hf_ack_release(peer, c.old_una);
	/* The ACK takes something: it acks or newly SACKs a segment. */
	c.took = c.res.acked || peer->out.txw.high_sacked != c.old_high;
	hf_ack_timeout(peer, &c);
	if (peer->out.rec.recovering &&
	    !hf_seq_before(hf_txwin_una(&peer->out.txw), peer->out.rec.recover)) {
		peer->out.rec.recovering = false;
		hf_reorder_recovered(&peer->out.rec.reo);
	}
	hf_ack_rtt(peer, &c, &fp);
	/*
	 * Any valid ACK proves the peer alive: the retry limit counts
	 * timeouts of a silent peer, not of a busy one (a receiver whose
	 * socket buffer is full answers, without taking the segment). For
	 * a closed socket's message only an ACK that takes something counts:
	 * a receiver that refuses it for good (its program stopped reading)
	 * must not keep it, its socket, their namespace and the module alive
	 * for good; the retry limit ends it.
	 */
	if (c.took || !hf_tx_orphaned(peer))
		hf_rto_ack_progress(&peer->out.rec.rto);

	hf_tx_outcomes(peer, a);
	hf_ack_window(peer, &c);
	hf_ack_send_next(peer, &c);
}

/*
 * Answers to one peer per window: challenges, which a genuine new epoch
 * of that peer needs and forgeries in its name compete for, and LOST.
 */
#define HF_EPOCH_CHALLENGES	64

#define HF_EPOCH_LOSTS		8

#define HF_EPOCH_REPLY_WINDOW	(HZ / 10)

/*
 * The ACK timer, unless it is already set or the peer is dead (its timers
 * stopped for good). Peer lock held.
 */
void hf_rx_ack_timer_arm(struct hf_peer *peer)
{
	lockdep_assert_held(&peer->lock);
	if (!peer->dead && !timer_pending(&peer->in.ack.timer))
		mod_timer(&peer->in.ack.timer,
			  jiffies + usecs_to_jiffies(READ_ONCE(peer->cfg->p.ack_delay_us)) + 1);
}

void hf_rx_send_ack(struct hf_peer *peer, u8 flags)
{
	struct net_device *dev = peer->dev;
	struct hf_hdr h = { .type = HF_TYPE_ACK };
	struct sk_buff *skb;
	__sum16 csum;
	bool closed;
	int hlen;
	u8 *hdr;

	lockdep_assert_held(&peer->lock);

	skb = alloc_skb(LL_RESERVED_SPACE(dev) + HF_HLEN_MAX, GFP_ATOMIC);
	if (!skb) {
		/*
		 * What was owed stays owed (one ACK may stand for a train),
		 * and the timer tries again: any ACK says it all.
		 */
		hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_XMIT_ERRORS);
		peer->in.ack.due = true;
		hf_rx_ack_timer_arm(peer);
		return;
	}
	/*
	 * Only for an ACK that leaves: the credit it grants is recorded as
	 * advertised, and the SACK runs are extended for it.
	 */
	closed = hf_rx_window_closed(peer);
	h.flags = flags | (closed ? HF_AF_CLOSED : 0) |
		  (peer->in.ack.echo ? HF_AF_ECHO : 0);
	h.ack.cum_seq = hf_rxwin_cum(&peer->in.rxw);
	h.ack.credit = hf_rx_credit_limit(peer, closed);
	h.ack.rate_kbps = hf_rx_rate_hint(peer);
	h.ack.msg_done = peer->in.msg_done;
	h.ack.msg_status = peer->in.msg_status[0];
	h.ack.nstatus_ext = peer->in.status_ext;
	memcpy(h.ack.status_ext, &peer->in.msg_status[1],
	       sizeof(h.ack.status_ext));
	h.ack.epoch = peer->in.ep.epoch;
	h.ack.rx_state = peer->in.ep.state;
	h.ack.nsack = hf_rxwin_sack(&peer->in.rxw, h.ack.sack, HF_SACK_MAX);
	peer->in.ack.owed = 0;
	peer->in.ack.due = false;
	peer->in.ack.echo = false;
	del_timer(&peer->in.ack.timer);

	skb_reserve(skb, LL_RESERVED_SPACE(dev));
	hlen = hf_hdr_len(&h);
	hdr = skb_put(skb, hlen);
	hf_hdr_encode(&h, hdr, hlen);
	csum = csum_fold(csum_partial(hdr, hlen, 0));
	memcpy(hdr + HF_CSUM_OFFSET, &csum, sizeof(csum));
	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_ACKS);
	trace_hf_credit_grant(peer, h.ack.cum_seq, h.flags);
	hf_xmit(peer, skb, TC_PRIO_CONTROL);
}

void hf_rx_ack_timer(struct timer_list *t)
{
	struct hf_peer *peer = from_timer(peer, t, in.ack.timer);

	spin_lock_bh(&peer->lock);
	if (!peer->dead && (peer->in.ack.owed || peer->in.ack.due))
		hf_rx_send_ack(peer, 0);
	spin_unlock_bh(&peer->lock);
}

/**
 * hf_cookie() - the challenge cookie of a flow incarnation in a time bucket
 * @dev: the interface its sender is behind
 * @addr: its sender's address
 * @epoch: the incarnation
 * @bucket: the time bucket (jiffies / HF_COOKIE_BUCKET)
 *
 * A keyed hash no blind sender can compute, so only a sender that
 * received our challenge ACK can echo it. It needs no peer: a table with
 * no room for one answers with it (hf_rx_stranger()). Any context.
 *
 * Return: the cookie, never 0, which means "no echo".
 */
u32 hf_cookie(const struct net_device *dev, const u8 *addr, u32 epoch,
	      unsigned long bucket)
{
	struct {
		u32 epoch;
		u32 bucket;
		int ifindex;
		u8 addr[ETH_ALEN];
		u16 zero;
	} in = {
		.epoch = epoch,
		.bucket = (u32)bucket,
		.ifindex = dev->ifindex,
	};
	u32 cookie;

	ether_addr_copy(in.addr, addr);
	cookie = (u32)siphash(&in, sizeof(in), &hf_net(dev_net(dev))->cookie_key);
	return cookie ?: 1;
}

/**
 * hf_cookie_valid() - whether @echo is a cookie we gave for @epoch lately
 * @dev: the interface the echo came on
 * @addr: its sender's address
 * @epoch: the incarnation it is for
 * @echo: the echo its DATA carried, 0 for none
 *
 * A cookie holds for its bucket of HF_COOKIE_BUCKET and the next. Any
 * context.
 *
 * Return: true when @echo is one.
 */
bool hf_cookie_valid(const struct net_device *dev, const u8 *addr, u32 epoch,
		     u32 echo)
{
	unsigned long bucket = jiffies / HF_COOKIE_BUCKET;

	return echo && (echo == hf_cookie(dev, addr, epoch, bucket) ||
			echo == hf_cookie(dev, addr, epoch, bucket - 1));
}

/*
 * The challenge cookie of @epoch from @peer in time bucket @bucket
 * (hf_cookie()). Peer lock held.
 */
u32 hf_rx_cookie(const struct hf_peer *peer, u32 epoch,
		 unsigned long bucket)
{
	lockdep_assert_held(&peer->lock);
	return hf_cookie(peer->dev, peer->addr, epoch, bucket);
}

/**
 * hf_reply_allowed() - whether a challenge or LOST answer may go now
 * @l: the answers sent lately to its address (or bucket of addresses)
 * @lost: a LOST answer; else a challenge
 *
 * At most HF_EPOCH_CHALLENGES and HF_EPOCH_LOSTS per HF_EPOCH_REPLY_WINDOW,
 * so that forged DATA cannot make us send more than a trickle to the
 * address it names, nor use up the challenges with LOSTs. The caller
 * serialises @l.
 *
 * Return: true when it may go, counted as sent.
 */
bool hf_reply_allowed(struct hf_reply_limit *l, bool lost)
{
	u8 *n = lost ? &l->losts : &l->challenges;

	/* A window long past (or never begun) is over too, wrapped or not. */
	if (!time_in_range(jiffies, l->at, l->at + HF_EPOCH_REPLY_WINDOW)) {
		l->at = jiffies;
		l->challenges = 0;
		l->losts = 0;
	}
	if (*n >= (lost ? HF_EPOCH_LOSTS : HF_EPOCH_CHALLENGES))
		return false;
	(*n)++;
	return true;
}

/* hf_reply_allowed() for an answer to @peer, whose lock is held. */
bool hf_rx_reply_allowed(struct hf_peer *peer, bool lost)
{
	lockdep_assert_held(&peer->lock);
	return hf_reply_allowed(&peer->in.replies, lost);
}

/**
 * hf_send_reply() - an ACK about an epoch that is not (yet) ours
 * @dev: the interface to answer on
 * @addr: the address to answer
 * @epoch: the epoch the DATA answered carried
 * @state: with HF_AF_CHALLENGE, the cookie to echo; else 0
 * @cum: with HF_AF_LOST, the segment that named a state we do not hold
 * @flags: HF_AF_CHALLENGE or HF_AF_LOST
 *
 * It carries nothing of a current flow: no credit, no outcomes, no SACK;
 * the same length as the DATA header it answers, so no sender makes us
 * send more than it sent. Softirq or process context.
 *
 * Return: true when it went to the device.
 */
bool hf_send_reply(struct net_device *dev, const u8 *addr, u32 epoch,
		   u32 state, u32 cum, u8 flags)
{
	struct hf_hdr h = { .type = HF_TYPE_ACK, .flags = flags };
	struct hf_stats *stats = &hf_net(dev_net(dev))->stats;
	struct sk_buff *skb;
	__sum16 csum;
	u8 *hdr;

	BUILD_BUG_ON(HF_ACK_HLEN > HF_DATA_HLEN);
	skb = alloc_skb(LL_RESERVED_SPACE(dev) + HF_ACK_HLEN, GFP_ATOMIC);
	if (!skb) {
		hf_stat_inc(stats, HF_STAT_TX_XMIT_ERRORS);
		return false;
	}
	h.ack.epoch = epoch;
	h.ack.rx_state = state;
	h.ack.cum_seq = cum;
	skb_reserve(skb, LL_RESERVED_SPACE(dev));
	hdr = skb_put(skb, HF_ACK_HLEN);
	hf_hdr_encode(&h, hdr, HF_ACK_HLEN);
	csum = csum_fold(csum_partial(hdr, HF_ACK_HLEN, 0));
	memcpy(hdr + HF_CSUM_OFFSET, &csum, sizeof(csum));
	hf_stat_inc(stats, HF_STAT_TX_ACKS);
	return !hf_xmit_to(dev, addr, skb, TC_PRIO_CONTROL);
}

/*
 * hf_send_reply() to @peer, whose lock is held: a challenge (@flags
 * HF_AF_CHALLENGE, @state the cookie to echo) or a LOST answer (@cum the
 * segment that named a state we do not hold).
 */
void hf_rx_send_reply(struct hf_peer *peer, u32 epoch, u32 state, u32 cum,
		      u8 flags)
{
	lockdep_assert_held(&peer->lock);
	hf_send_reply(peer->dev, peer->addr, epoch, state, cum, flags);
}
