// SPDX-License-Identifier: GPL-2.0
/*
 * hf_input.c - the receiving side's dispatch: the packet handler of the
 * hyperframe EtherType, which checks each frame, takes trains and
 * carriers apart into segments where it must, admits a flow's epoch,
 * and hands each DATA segment to reassembly (hf_reasm.c) and each ACK
 * to the sender (hf_ack.c).
 *
 * Design notes:
 * 1. Nothing from the wire is trusted: the header is decoded and checked
 *    (core/hf_wire.c), the checksum verified, and every drop counted by
 *    reason. Only a DATA segment can create peer state.
 * 2. A segment that cannot be held (hf_reasm.c, note 3) is dropped
 *    unmarked and unacknowledged: the sender repairs it later.
 * 3. A segment is marked received in the window only once it is held, so
 *    the window never claims data that is not there.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/random.h>
#include <linux/siphash.h>
#include <linux/slab.h>
#include <net/checksum.h>
#include <net/sock.h>

#include "hf_ack.h"
#include "hf_grant.h"
#include "hf_hfq.h"
#include "hf_input.h"
#include "hf_mem.h"
#include "hf_msg.h"
#include "hf_net.h"
#include "hf_offload.h"
#include "hf_output.h"
#include "hf_pacing.h"
#include "hf_port.h"
#include "hf_reasm.h"
#include "hf_recovery.h"
#include "hf_sock.h"
#include "hf_trace.h"
#include "hf_train.h"
#include "hf_train_skb.h"

/* Adoptions of a new epoch through a challenge: at most one per this. */
#define HF_EPOCH_ADOPT_GAP	(HZ / 10)
/*
 * A copy of @skb's bytes from its data pointer on, in a buffer of their
 * size: skb_copy() would keep the headroom and the whole original
 * buffer. Its truesize is at most twice hf_rx_msg_reserve() of its payload,
 * whatever buffer the driver received it in.
 */
static struct sk_buff *hf_rx_skb_tight(const struct sk_buff *skb)
{
	struct sk_buff *n = alloc_skb(skb->len, GFP_ATOMIC);

	if (!n)
		return NULL;
	if (skb_copy_bits(skb, 0, skb_put(n, skb->len), skb->len)) {
		kfree_skb(n);
		return NULL;
	}
	n->dev = skb->dev;
	n->tstamp = skb->tstamp;
	n->protocol = skb->protocol;
	memcpy(n->cb, skb->cb, sizeof(n->cb));
	return n;
}

/*
 * The peer's share of the budget, reassembly not included; never below a
 * few segments, or a sender with nothing in flight could send only
 * persist probes.
 */
/*
 * @segs new segments of @m, @bytes of payload, were taken in (held, or
 * counted for a refused message): count them and their credit.
 */
static void hf_rx_data_count(struct hf_peer *peer, struct hf_rx_msg *m, u8 flags,
			     u32 segs, u32 bytes)
{
	lockdep_assert_held(&peer->lock);
	m->received += segs;
	m->progress_at = jiffies;
	hf_rx_credit_data(peer, bytes);
	m->credited += bytes;
	hf_stat_add(&hf_net(peer->net)->stats, HF_STAT_RX_SEGS, segs);
	peer->in.stats.segs += segs;
	peer->in.stats.bytes += bytes;
	hf_dev_stat_add(peer->dstats, HF_DEV_STAT_RX_SEGS, segs);
	hf_dev_stat_add(peer->dstats, HF_DEV_STAT_RX_BYTES, bytes);
	if (flags & HF_DF_FRAME_START)
		hf_dev_stat_inc(peer->dstats, HF_DEV_STAT_RX_FRAMES);
}

/*
 * After @segs new segments of @m: deliver and resolve what they complete,
 * and ACK now or arm the ACK timer. @more: segments of the same train
 * follow in this softirq, so an ACK waits for its last.
 */
static void hf_rx_data_taken(struct hf_peer *peer, struct hf_rx_msg *m, u8 flags,
			     u32 segs, bool more)
{
	bool now;

	lockdep_assert_held(&peer->lock);

	if (m->received == m->nsegs)
		hf_rx_deliver_ready(peer);
	now = hf_rx_resolve(peer);
	now |= flags & (HF_DF_FRAME_END | HF_DF_ACK_NOW);
	now |= hf_rxwin_pending(&peer->in.rxw) != 0;
	peer->in.ack.owed += segs;
	now |= peer->in.ack.owed >= HF_ACK_EVERY;
	peer->in.ack.echo |= !!(flags & HF_DF_ACK_NOW);
	peer->in.ack.due |= now;
	if (peer->in.ack.due && !more)
		hf_rx_send_ack(peer, 0);
	else
		hf_rx_ack_timer_arm(peer);
}

/* A fresh state id for a flow adopted without a challenge: not 0, not the last. */
static u32 hf_rx_state_new(const struct hf_epoch_rx *e)
{
	u32 state;

	do {
		state = get_random_u32();
	} while (!state || state == e->state);
	return state;
}

/*
 * What core/hf_epoch.c says of DATA header @d (@nsegs segments) from
 * @peer, with the cookies of its epoch when they can matter (*@cookie,
 * for a challenge). No side effect. Peer lock held.
 */
static enum hf_epoch_verdict hf_rx_epoch_verdict(const struct hf_peer *peer,
						 const struct hf_data_hdr *d,
					      u32 nsegs, u32 *cookie)
{
	const struct hf_epoch_rx *e = &peer->in.ep;
	unsigned long bucket = jiffies / HF_COOKIE_BUCKET;
	bool other, strange;
	u32 prev = 0;

	lockdep_assert_held(&peer->lock);
	*cookie = 0;
	/*
	 * A new epoch while a flow exists, or an echo where no flow is, or of
	 * another state before ours was echoed: it may answer a challenge
	 * sent while the table was full (core/hf_epoch.c, design note 4).
	 */
	other = e->epoch && d->epoch != e->epoch && d->epoch != e->prev;
	strange = d->echo && (!e->epoch || (d->epoch == e->epoch &&
					    !e->echoed && d->echo != e->state));
	if (other || strange) {
		*cookie = hf_rx_cookie(peer, d->epoch, bucket);
		prev = hf_rx_cookie(peer, d->epoch, bucket - 1);
	}
	return hf_epoch_rx_check(e, d, nsegs, HF_WIN_SEGS, *cookie, prev);
}

/*
 * Start the incarnation DATA header @d belongs to, with our state id
 * @state: whatever the flow before it held is dropped, and its sender
 * learns of the new one from the next ACK.
 */
static void hf_rx_epoch_start(struct hf_peer *peer, const struct hf_data_hdr *d,
			      u32 state)
{
	lockdep_assert_held(&peer->lock);
	hf_input_reset(peer);
	/*
	 * Fixed for the epoch, its sender counting on every ACK alike: the
	 * outcome words it asked for (one that does not know them asks for
	 * none), within our status_window.
	 */
	peer->in.status_ext =
		min(d->status_ask,
		    hf_status_ext_of(READ_ONCE(peer->cfg->p.status_window)));
	hf_epoch_rx_adopt(&peer->in.ep, d, state);
	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_RX_EPOCHS);
}

/*
 * Whether DATA header @d (@nsegs segments) from @peer belongs to a flow we
 * take (core/hf_epoch.h): the current one, or a new one we adopt now.
 * Otherwise it is dropped, *@why set, and a doubtful new epoch is answered
 * with a challenge, a sender believing in a state we do not hold with a
 * LOST answer. Peer lock held.
 */
static bool hf_rx_epoch_admit(struct hf_peer *peer, const struct hf_data_hdr *d,
			      u32 nsegs, enum hf_stat *why)
{
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	u32 cookie;

	lockdep_assert_held(&peer->lock);

	switch (hf_rx_epoch_verdict(peer, d, nsegs, &cookie)) {
	case HF_EPOCH_ACCEPT:
		hf_epoch_rx_accept(&peer->in.ep, d);
		return true;
	case HF_EPOCH_RESTATE:
		hf_epoch_rx_restate(&peer->in.ep, d);
		return true;
	case HF_EPOCH_ADOPT:
		if (!d->echo) {
			hf_rx_epoch_start(peer, d, hf_rx_state_new(&peer->in.ep));
			return true;
		}
		/* A challenge answered; one such adoption per gap. */
		if (time_before(jiffies, peer->in.adopted_at + HF_EPOCH_ADOPT_GAP))
			break;
		peer->in.adopted_at = jiffies;
		hf_rx_epoch_start(peer, d, d->echo);
		return true;
	case HF_EPOCH_CHALLENGE:
		if (hf_rx_reply_allowed(peer, false)) {
			hf_stat_inc(stats, HF_STAT_RX_CHALLENGES);
			hf_rx_send_reply(peer, d->epoch, cookie, 0, HF_AF_CHALLENGE);
		}
		break;
	case HF_EPOCH_LOST:
		if (hf_rx_reply_allowed(peer, true)) {
			hf_stat_inc(stats, HF_STAT_RX_LOST_REPLIES);
			hf_rx_send_reply(peer, d->epoch, 0, d->seq, HF_AF_LOST);
		}
		*why = HF_STAT_DROP_NO_STATE;
		return false;
	case HF_EPOCH_STALE:
		*why = HF_STAT_DROP_STALE_EPOCH;
		return false;
	case HF_EPOCH_FORGED:
		*why = HF_STAT_DROP_FORGED;
		return false;
	}
	*why = HF_STAT_DROP_UNPROVEN;
	return false;
}

/*
 * Whether DATA header @h says otherwise than message @m about what every
 * segment of a message repeats: its length, stride, ports and pred.
 */
static bool hf_rx_msg_disagrees(const struct hf_rx_msg *m, const struct hf_hdr *h)
{
	const struct hf_data_hdr *d = &h->data;

	return m->len != d->msg_len || m->seg_size != d->seg_size ||
	       m->sport != h->sport || m->dport != h->dport ||
	       m->pred != d->pred;
}

/**
 * enum hf_rx_data_verdict - what a step of hf_rx_data() decided
 * @HF_RXD_GO: the segment goes on to the next step
 * @HF_RXD_REFUSE: dropped for &hf_rx_data_ctx.why, which hf_rx_data_refuse()
 *	counts and may answer
 * @HF_RXD_DROPPED: dropped, and already counted by the step
 */
enum hf_rx_data_verdict {
	HF_RXD_GO,
	HF_RXD_REFUSE,
	HF_RXD_DROPPED,
};

/**
 * struct hf_rx_data_ctx - a DATA segment on its way through hf_rx_data()
 * @skb: the segment; replaced by a tight copy of itself when it came in a
 *	big buffer (hf_rx_data_place())
 * @m: its message, once found or created
 * @slot: where its skb is held; NULL while none is, or for a message that
 *	holds no segments
 * @why: the drop reason, when a step refuses it
 * @fresh: @m was created for this segment and is not in the peer's table
 *	yet: a refusal frees it
 */
struct hf_rx_data_ctx {
	struct sk_buff *skb;
	struct hf_rx_msg *m;
	struct sk_buff **slot;
	enum hf_stat why;
	bool fresh;
};

/**
 * hf_rx_data_admit() - check a DATA segment's flow and message number
 * @peer: its source; caller holds its lock
 * @d: its DATA header
 * @s: the segment; @s->why set when refused
 *
 * Its flow must be taken (hf_rx_epoch_admit()), its message within the
 * status window, and its stride at least the minimum unless the message is
 * one segment. A segment of a message already resolved is a duplicate,
 * answered and counted here.
 *
 * Return: HF_RXD_GO, HF_RXD_REFUSE or HF_RXD_DROPPED.
 */
static enum hf_rx_data_verdict hf_rx_data_admit(struct hf_peer *peer,
						const struct hf_data_hdr *d,
						struct hf_rx_data_ctx *s)
{
	struct hf_stats *stats = &hf_net(peer->net)->stats;

	lockdep_assert_held(&peer->lock);
	if (!hf_rx_epoch_admit(peer, d, 1, &s->why))
		return HF_RXD_REFUSE;
	if (hf_seq_before(d->msg_id, peer->in.msg_done)) {
		/* A message already resolved: a segment of it is a duplicate. */
		if (hf_rxwin_mark(&peer->in.rxw, d->seq) != HF_RX_NEW) {
			hf_stat_inc(stats, HF_STAT_RX_DUPLICATES);
			hf_rx_send_ack(peer, HF_AF_DUP);
		} else {
			hf_peer_drop(peer, HF_STAT_DROP_DISAGREE, 1);
		}
		return HF_RXD_DROPPED;
	}
	if (d->msg_id - peer->in.msg_done >= hf_rx_status_span(peer)) {
		s->why = HF_STAT_DROP_MSG_WINDOW;
		return HF_RXD_REFUSE;
	}
	if (d->seg_size < HF_MIN_SEG_SIZE && d->msg_len > d->seg_size) {
		s->why = HF_STAT_DROP_SEG_SIZE;
		return HF_RXD_REFUSE;
	}
	return HF_RXD_GO;
}

/**
 * hf_rx_data_msg() - find or start the message a DATA segment belongs to
 * @peer: its source; caller holds its lock
 * @h: the segment's header
 * @s: the segment; @s->m set, @s->fresh when it is new, @s->why when refused
 *
 * Return: HF_RXD_GO, or HF_RXD_REFUSE when the message cannot be held now
 * (hf_rx_msg_new()) or the segment says otherwise than its message.
 */
static enum hf_rx_data_verdict hf_rx_data_msg(struct hf_peer *peer,
					      const struct hf_hdr *h,
					      struct hf_rx_data_ctx *s)
{
	lockdep_assert_held(&peer->lock);
	s->m = peer->in.msgs[h->data.msg_id % HF_STATUS_WINDOW_MAX];
	if (!s->m) {
		s->m = hf_rx_msg_new(peer, h, &s->why);
		if (!s->m)
			return HF_RXD_REFUSE;
		s->fresh = true;
	}
	if (hf_rx_msg_disagrees(s->m, h)) {
		s->why = HF_STAT_DROP_DISAGREE;
		return HF_RXD_REFUSE;
	}
	return HF_RXD_GO;
}

/**
 * hf_rx_data_place() - find the slot a DATA segment will be held in
 * @peer: its source; caller holds its lock
 * @d: its DATA header
 * @s: the segment, its message found; @s->skb may be replaced by a tight
 *	copy, @s->slot is set
 *
 * Nothing to do for a message that holds no segments (refused, or for no
 * socket).
 *
 * Return: HF_RXD_GO, or HF_RXD_REFUSE (HF_STAT_DROP_MEMORY) when the copy
 * or the slot's table cannot be allocated.
 */
static enum hf_rx_data_verdict hf_rx_data_place(struct hf_peer *peer,
						const struct hf_data_hdr *d,
						struct hf_rx_data_ctx *s)
{
	lockdep_assert_held(&peer->lock);
	if (!s->m->chunks)
		return HF_RXD_GO;
	s->why = HF_STAT_DROP_MEMORY;
	/*
	 * Measured against the payload, as the reservation is: kept this
	 * way, a message's segments never take twice its reservation.
	 */
	if (s->skb->truesize > 2 * hf_rx_msg_reserve(d->seg_len, 1)) {
		/* A small segment in a big buffer: keep only what it carries. */
		struct sk_buff *tight = hf_rx_skb_tight(s->skb);

		if (!tight)
			return HF_RXD_REFUSE;
		consume_skb(s->skb);
		s->skb = tight;
	}
	s->slot = hf_rx_seg_slot(s->m, d->offset / d->seg_size, true);
	return s->slot ? HF_RXD_GO : HF_RXD_REFUSE;
}

/**
 * hf_rx_data_mark() - mark a DATA segment received in the window
 * @peer: its source; caller holds its lock
 * @d: its DATA header
 * @s: the segment, its slot found; @s->why set when refused
 *
 * It must be within the credit granted and new to the window; a duplicate
 * is answered, and counted here. Only progress keeps the flow alive.
 *
 * Return: HF_RXD_GO, HF_RXD_REFUSE or HF_RXD_DROPPED.
 */
static enum hf_rx_data_verdict hf_rx_data_mark(struct hf_peer *peer,
					       const struct hf_data_hdr *d,
					       struct hf_rx_data_ctx *s)
{
	struct hf_stats *stats = &hf_net(peer->net)->stats;

	lockdep_assert_held(&peer->lock);
	if (hf_rx_credit_broken(peer, d->seq, 1, d->seg_len)) {
		s->why = HF_STAT_DROP_OVER_CREDIT;
		return HF_RXD_REFUSE;
	}
	switch (hf_rxwin_mark(&peer->in.rxw, d->seq)) {
	case HF_RX_NEW:
		/* Only progress keeps the flow alive, never a repeat. */
		peer->last_active = jiffies;
		break;
	case HF_RX_DUPLICATE:
		hf_stat_inc(stats, HF_STAT_RX_DUPLICATES);
		hf_rx_send_ack(peer, HF_AF_DUP);
		if (s->fresh)
			hf_rx_msg_free(peer, s->m);
		return HF_RXD_DROPPED;
	default:
		s->why = HF_STAT_DROP_BEYOND;
		return HF_RXD_REFUSE;
	}
	if (s->slot && *s->slot) {
		/* Same bytes under a new sequence number: not from our sender. */
		hf_peer_drop(peer, HF_STAT_DROP_DISAGREE, 1);
		return HF_RXD_DROPPED;
	}
	return HF_RXD_GO;
}

/**
 * hf_rx_seg_charge() - make a received skb one that a message holds
 * @peer: its source; caller holds its lock
 * @m: the message that holds it
 * @skb: a DATA segment or a packed train, its header still in front
 *
 * Its header goes, its message's socket owns it, and its memory is charged
 * to the namespace, the socket's reassembly and @m. The caller puts it in
 * its slot.
 */
static void hf_rx_seg_charge(struct hf_peer *peer, struct hf_rx_msg *m,
			     struct sk_buff *skb)
{
	lockdep_assert_held(&peer->lock);
	skb_orphan(skb);
	__skb_pull(skb, HF_DATA_HLEN);
	skb->next = NULL;
	skb_set_owner_r(skb, m->sk);
	atomic64_add(skb->truesize, &hf_net(peer->net)->rx_mem);
	atomic_add(skb->truesize, &hf_sk(m->sk)->rx_reasm);
	m->charge += skb->truesize;
}

/**
 * hf_rx_data_hold() - take in a DATA segment that passed every check
 * @peer: its source; caller holds its lock
 * @h: its header
 * @s: the segment; consumes @s->skb
 *
 * A new message enters the peer's table; the segment is counted, then
 * held in its slot, or let go when its message holds none or is refused
 * now.
 */
static void hf_rx_data_hold(struct hf_peer *peer, const struct hf_hdr *h,
			    struct hf_rx_data_ctx *s)
{
	const struct hf_data_hdr *d = &h->data;
	struct hf_rx_msg *m = s->m;

	lockdep_assert_held(&peer->lock);
	if (s->fresh)
		peer->in.msgs[d->msg_id % HF_STATUS_WINDOW_MAX] = m;
	if (hf_seq_after(d->seq, m->last_seq))
		m->last_seq = d->seq;
	hf_rx_data_count(peer, m, h->flags, 1, d->seg_len);

	/*
	 * Held segments taking far more memory than announced: refused as
	 * too big. Checked only for a segment about to be held, never for a
	 * duplicate, which a sender's repairs make legitimately.
	 */
	if (s->slot && m->charge + s->skb->truesize > 2 * m->reserve) {
		hf_rx_msg_refuse(peer, m);
		s->slot = NULL;
	}
	if (s->slot) {
		hf_rx_seg_charge(peer, m, s->skb);
		*s->slot = s->skb;
	} else {
		consume_skb(s->skb);
	}
}

/**
 * hf_rx_data_refuse() - count a DATA segment a step refused
 * @peer: its source; caller holds its lock
 * @s: the segment; a message created for it is freed, @s->skb left to the
 *	caller
 */
static void hf_rx_data_refuse(struct hf_peer *peer, struct hf_rx_data_ctx *s)
{
	enum hf_stat why = s->why;

	lockdep_assert_held(&peer->lock);
	if (s->fresh)
		hf_rx_msg_free(peer, s->m);
	hf_peer_drop(peer, why, 1);
	/*
	 * Tell a sender we could not take from that we are alive; and one
	 * whose segments fall outside our windows what our state is: if we
	 * lost it (adopting its epoch mid-stream), our rx_state tells it.
	 */
	if (why == HF_STAT_DROP_RCVBUF || why == HF_STAT_DROP_MEMORY ||
	    why == HF_STAT_DROP_MEM_LIMIT || why == HF_STAT_DROP_BEYOND ||
	    why == HF_STAT_DROP_MSG_WINDOW || why == HF_STAT_DROP_OVER_CREDIT)
		hf_rx_send_ack(peer, 0);
}

/**
 * hf_rx_data() - take in a DATA segment
 * @peer: its source; caller holds its lock
 * @skb: the segment, consumed
 * @h: its header
 * @more: segments of the same train follow it in this softirq, so an ACK
 *	it calls for waits for the train's last (one ACK per train, as one
 *	per GRO skb in TCP; the ACK timer covers a last segment that never
 *	gets here)
 *
 * Checked, placed and marked in steps, each of which may drop it; held,
 * then delivered and acknowledged as it allows.
 */
static void hf_rx_data(struct hf_peer *peer, struct sk_buff *skb,
		       const struct hf_hdr *h, bool more)
{
	const struct hf_data_hdr *d = &h->data;
	struct hf_rx_data_ctx s = { .skb = skb };
	enum hf_rx_data_verdict v;

	lockdep_assert_held(&peer->lock);

	v = hf_rx_data_admit(peer, d, &s);
	if (v == HF_RXD_GO)
		v = hf_rx_data_msg(peer, h, &s);
	if (v == HF_RXD_GO)
		v = hf_rx_data_place(peer, d, &s);
	if (v == HF_RXD_GO)
		v = hf_rx_data_mark(peer, d, &s);
	if (v == HF_RXD_GO) {
		hf_rx_data_hold(peer, h, &s);
		hf_rx_data_taken(peer, s.m, h->flags, 1, more);
		return;
	}
	if (v == HF_RXD_REFUSE)
		hf_rx_data_refuse(peer, &s);
	kfree_skb(s.skb);
}

/* How a frame reached hf_rx_frame(). */
#define HF_RXF_LONE	BIT(0)	/* alone, not a segment of a train */
#define HF_RXF_MORE	BIT(1)	/* segments of its train follow it */
#define HF_RXF_UNFILLED	BIT(2)	/* copied out of a train that crossed no wire */

/**
 * hf_rx_frame_decode() - make a frame's header linear and decode it
 * @skb: the frame
 * @stats: the namespace's counters, where a malformed frame's reason is
 *	   counted
 * @h: set to its header
 * @why: set to the drop_* counter of a frame to be dropped
 *
 * Return: true when @h holds a well-formed header; false when the frame is
 * to be dropped for @why.
 */
static bool hf_rx_frame_decode(struct sk_buff *skb, struct hf_stats *stats,
			       struct hf_hdr *h, enum hf_stat *why)
{
	enum hf_wire_err werr;

	if (skb->len < HF_COMMON_LEN) {
		*why = HF_STAT_DROP_MALFORMED;
		hf_stat_malformed(stats, HF_WERR_SHORT);
		return false;
	}
	/*
	 * Make the header linear, and only the header: a DATA segment's
	 * payload stays in the frags it arrived in (an ACK is all header).
	 */
	if (!pskb_may_pull(skb, HF_COMMON_LEN) ||
	    !pskb_may_pull(skb, min_t(u32, skb->len,
				      (skb->data[0] & 0x0f) == HF_TYPE_DATA ?
				      HF_DATA_HLEN : HF_HLEN_MAX))) {
		*why = HF_STAT_DROP_MEMORY;
		return false;
	}

	werr = hf_hdr_decode(skb->data, skb->len, h);
	/*
	 * A packed train goes to hf_rx_train() as it arrives: one here came
	 * inside another train, which no sender builds.
	 */
	if (!werr && h->type == HF_TYPE_DATA && (h->flags & HF_DF_PACKED))
		werr = HF_WERR_FLAGS;
	if (werr) {
		*why = HF_STAT_DROP_MALFORMED;
		hf_stat_malformed(stats, werr);
		return false;
	}
	return true;
}

/**
 * hf_rx_frame_verify() - cut a frame to its length and check its checksum
 * @skb: the frame, its header decoded
 * @stats: the namespace's counters, where a frame whose checksum was left
 *	   unfilled is counted
 * @h: its header, which says how long it is
 * @how: HF_RXF_* flags
 * @why: set to the drop_* counter of a frame to be dropped
 *
 * Return: true when the frame is whole and its checksum right, or left
 * unfilled by a sender on this host; false when it is to be dropped for
 * @why.
 */
static bool hf_rx_frame_verify(struct sk_buff *skb, struct hf_stats *stats,
			       const struct hf_hdr *h, unsigned int how,
			       enum hf_stat *why)
{
	u32 flen = h->hlen + (h->type == HF_TYPE_DATA ? h->data.seg_len : 0);

	if (pskb_trim(skb, flen)) {
		*why = HF_STAT_DROP_MEMORY;
		return false;
	}
	/* A frame that crossed no wire may have it unfilled: hf_csum_local(). */
	if ((how & HF_RXF_UNFILLED) || hf_csum_local(skb)) {
		hf_stat_inc(stats, HF_STAT_RX_CSUM_LOCAL);
	} else if (csum_fold(skb_checksum(skb, 0, flen, 0))) {
		*why = HF_STAT_DROP_CSUM;
		return false;
	}
	return true;
}

/**
 * hf_rx_frame_take() - hand a checked frame to its peer's receiver or sender
 * @peer: its source, with a reference the call gives up; its lock not
 *	held, taken here
 * @skb: the frame, consumed
 * @h: its header
 * @how: HF_RXF_* flags
 *
 * A DATA segment goes to hf_rx_data(), an ACK to hf_output_ack(); a frame
 * for a peer being torn down is dropped.
 *
 * Return: NET_RX_SUCCESS, or NET_RX_DROP for a dead peer.
 */
static int hf_rx_frame_take(struct hf_peer *peer, struct sk_buff *skb,
			    const struct hf_hdr *h, unsigned int how)
{
	spin_lock_bh(&peer->lock);
	if (peer->dead) {
		spin_unlock_bh(&peer->lock);
		hf_peer_put(peer);
		kfree_skb(skb);
		return NET_RX_DROP;
	}
	if (h->type == HF_TYPE_DATA) {
		hf_rx_data(peer, skb, h, how & HF_RXF_MORE);
	} else {
		hf_output_ack(peer, h);
		consume_skb(skb);
	}
	spin_unlock_bh(&peer->lock);
	hf_peer_put(peer);
	return NET_RX_SUCCESS;
}

/*
 * Whether a LOST answer to stranger @src may go now (hf_reply_allowed()):
 * the limit is kept per bucket of addresses, chosen with a key no sender
 * knows. Any context, no lock held.
 */
static bool hf_rx_stranger_lost_allowed(struct net_device *dev,
					const u8 *src)
{
	struct hf_net *hn = hf_net(dev_net(dev));
	struct hf_reply_limit *l;
	bool ok;
	u32 b;

	b = hf_addr_hash(&hn->stranger_key, dev->ifindex, src);
	l = &hn->stranger_replies[b % HF_STRANGER_BUCKETS];
	spin_lock_bh(&hn->stranger_lock);
	ok = hf_reply_allowed(l, true);
	spin_unlock_bh(&hn->stranger_lock);
	return ok;
}

/*
 * DATA header @d (@nsegs segments) from @src, whom the full peer table had
 * no room for (hf_peer.c, design note 2): answered without keeping any
 * state, as SYN cookies answer a SYN flood. A segment that can start a
 * flow is challenged with the cookie of its epoch; one that echoes that
 * cookie proved its address, and may take the table beyond max_peers
 * (HF_PEER_CREATE_PROVEN); one that echoes anything else believes in a
 * state we do not hold (we evicted it), and is answered LOST, which makes
 * its sender start anew. A spoofed source never sees an answer, so it
 * cannot get in (where a switch learns the addresses a node claims, it
 * can: port security is what keeps them out). An answer is no longer
 * than the frame it answers; challenges are not limited (a flood would
 * use them up, and lock new peers out again), LOST answers are as a
 * peer's are, per bucket of addresses.
 *
 * Return: the peer admitted, with a reference, or NULL with *@err set.
 */
static struct hf_peer *hf_rx_stranger(struct net_device *dev, const u8 *src,
				      const struct hf_data_hdr *d, u32 nsegs,
				      int *err)
{
	struct hf_stats *stats = &hf_net(dev_net(dev))->stats;
	struct hf_peer *peer;
	u32 cookie;

	if (!d->epoch)
		return NULL;
	if (hf_cookie_valid(dev, src, d->epoch, d->echo)) {
		peer = hf_peer_get(dev_net(dev), dev, src,
				   HF_PEER_CREATE_PROVEN, err);
		if (peer)
			hf_stat_inc(stats, HF_STAT_PEERS_PROVEN_IN);
		return peer;
	}
	if (hf_epoch_can_start(d, nsegs, HF_WIN_SEGS)) {
		cookie = hf_cookie(dev, src, d->epoch, jiffies / HF_COOKIE_BUCKET);
		if (hf_send_reply(dev, src, d->epoch, cookie, 0, HF_AF_CHALLENGE))
			hf_stat_inc(stats, HF_STAT_RX_STRANGER_REPLIES);
	} else if (d->echo && hf_rx_stranger_lost_allowed(dev, src) &&
		   hf_send_reply(dev, src, d->epoch, 0, d->seq, HF_AF_LOST)) {
		hf_stat_inc(stats, HF_STAT_RX_STRANGER_REPLIES);
	}
	return NULL;
}

/*
 * The peer that DATA header @h (@nsegs segments) comes from, created when
 * new, or one that sends an ACK (@h): NULL with *@why set when there is
 * none or no room for it. Softirq context, no lock held.
 */
static struct hf_peer *hf_rx_peer(struct net_device *dev, const u8 *src,
				  const struct hf_hdr *h, u32 nsegs,
				  enum hf_stat *why)
{
	bool data = h->type == HF_TYPE_DATA;
	struct hf_peer *peer;
	int err;

	/* No node sends from a group or the zero address: never answered. */
	if (!is_valid_ether_addr(src)) {
		*why = HF_STAT_DROP_BAD_SOURCE;
		return NULL;
	}
	peer = hf_peer_get(dev_net(dev), dev, src,
			   data ? HF_PEER_CREATE : HF_PEER_FIND, &err);
	if (!peer && data && err == -ENOBUFS)
		peer = hf_rx_stranger(dev, src, &h->data, nsegs, &err);
	if (!peer)
		*why = err == -ENOENT ? HF_STAT_DROP_NO_PEER :
		       err == -ENOBUFS ? HF_STAT_DROP_PEER_LIMIT :
		       HF_STAT_DROP_MEMORY;
	return peer;
}

/**
 * hf_rx_frame() - take in one frame: a lone segment or ACK, or one segment
 * of a train
 * @skb: the frame, consumed
 * @dev: the interface it arrived on
 * @src: its source address
 * @how: HF_RXF_* flags
 *
 * Softirq context, no lock held.
 *
 * Return: NET_RX_SUCCESS or NET_RX_DROP.
 */
static int hf_rx_frame(struct sk_buff *skb, struct net_device *dev,
		       const u8 *src, unsigned int how)
{
	struct net *net = dev_net(dev);
	struct hf_net *hn = hf_net(net);
	struct hf_stats *stats = &hn->stats;
	struct hf_peer *peer;
	enum hf_stat why;
	struct hf_hdr h;

	if (!hf_rx_frame_decode(skb, stats, &h, &why))
		goto drop;
	/* A train's skb was counted once, as it arrived. */
	if ((how & HF_RXF_LONE) && h.type == HF_TYPE_DATA) {
		hf_stat_inc(stats, HF_STAT_RX_DATA_SKBS);
		trace_hf_frame_recv(dev, src, 1, skb->len);
	}
	if (!hf_rx_frame_verify(skb, stats, &h, how, &why))
		goto drop;

	peer = hf_rx_peer(dev, src, &h, 1, &why);
	if (!peer)
		goto drop;
	return hf_rx_frame_take(peer, skb, &h, how);

drop:
	hf_dev_drop(hn, dev, why);
	kfree_skb(skb);
	return NET_RX_DROP;
}

/*
 * Whether packed train @skb, @n segments of @payload bytes from header @h,
 * can be held as it came, one skb for all: its flow and message are the
 * current ones, every segment is new and its slot free, and its memory is
 * what the message reserved. Creates the message when it is new (*fresh).
 * Otherwise hf_rx_data_train() takes it apart, and hf_rx_data() decides each
 * segment as if it had come alone, with every drop reason that has.
 */
static struct hf_rx_msg *hf_rx_train_whole(struct hf_peer *peer,
					   const struct sk_buff *skb,
					const struct hf_hdr *h, u32 n,
					u32 payload, bool *fresh)
{
	const struct hf_data_hdr *d = &h->data;
	enum hf_epoch_verdict v;
	enum hf_stat why;
	struct hf_rx_msg *m;
	u32 index, i, cookie;

	lockdep_assert_held(&peer->lock);

	*fresh = false;
	/* Anything but the current flow or a new one is decided per segment. */
	v = hf_rx_epoch_verdict(peer, d, n, &cookie);
	if ((v != HF_EPOCH_ACCEPT && v != HF_EPOCH_ADOPT) ||
	    !hf_rx_epoch_admit(peer, d, n, &why) ||
	    hf_seq_before(d->msg_id, peer->in.msg_done) ||
	    d->msg_id - peer->in.msg_done >= hf_rx_status_span(peer) ||
	    !hf_rxwin_fresh(&peer->in.rxw, d->seq, n) ||
	    hf_rx_credit_broken(peer, d->seq, n, payload) ||
	    skb->truesize > 2 * hf_rx_msg_reserve(payload, n))
		return NULL;
	m = peer->in.msgs[d->msg_id % HF_STATUS_WINDOW_MAX];
	if (!m) {
		m = hf_rx_msg_new(peer, h, &why);
		if (!m)
			return NULL;
		*fresh = true;
	}
	if (hf_rx_msg_disagrees(m, h))
		goto slow;
	if (!m->chunks)
		return m;
	if (m->charge + skb->truesize > 2 * m->reserve)
		goto slow;
	index = d->offset / d->seg_size;
	for (i = 0; i < n; i++) {
		struct sk_buff **slot = hf_rx_seg_slot(m, index + i, true);

		if (!slot || *slot)
			goto slow;
	}
	return m;
slow:
	if (*fresh)
		hf_rx_msg_free(peer, m);
	*fresh = false;
	return NULL;
}

/*
 * A packed train for @peer, @n segments of @payload bytes; consumes @skb.
 * Held whole when it can be (hf_rx_train_whole()), else each segment is
 * copied out with the header it stands for and taken as if it had come
 * alone. Peer lock held.
 */
static void hf_rx_data_train(struct hf_peer *peer, struct sk_buff *skb,
			     const struct hf_hdr *h, u32 n, u32 payload)
{
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	const struct hf_data_hdr *d = &h->data;
	struct hf_rx_msg *m;
	bool fresh;
	u32 i;

	lockdep_assert_held(&peer->lock);

	m = hf_rx_train_whole(peer, skb, h, n, payload, &fresh);
	if (m) {
		u32 index = d->offset / d->seg_size;

		peer->last_active = jiffies;
		if (fresh)
			peer->in.msgs[d->msg_id % HF_STATUS_WINDOW_MAX] = m;
		for (i = 0; i < n; i++)
			hf_rxwin_mark(&peer->in.rxw, d->seq + i);
		if (hf_seq_after(d->seq + n - 1, m->last_seq))
			m->last_seq = d->seq + n - 1;
		hf_rx_data_count(peer, m, h->flags, n, payload);
		if (m->chunks) {
			hf_rx_seg_charge(peer, m, skb);
			*hf_rx_seg_slot(m, index, false) = skb;
			for (i = 1; i < n; i++)
				*hf_rx_seg_slot(m, index + i, false) = HF_RX_COVERED;
		} else {
			consume_skb(skb);
		}
		hf_rx_data_taken(peer, m, h->flags, n, false);
		return;
	}

	hf_stat_inc(stats, HF_STAT_RX_PACKED_SPLIT);
	for (i = 0; i < n; i++) {
		struct hf_hdr sh;
		struct sk_buff *seg;

		hf_train_seg(h, payload, i, &sh);
		seg = alloc_skb(HF_DATA_HLEN + sh.data.seg_len, GFP_ATOMIC);
		if (!seg) {
			/* Neither held nor marked: the sender repairs it. */
			hf_peer_drop(peer, HF_STAT_DROP_MEMORY, 1);
			continue;
		}
		hf_hdr_encode(&sh, skb_put(seg, HF_DATA_HLEN), HF_DATA_HLEN);
		/* Within @skb: hf_train_check() measured it. */
		if (skb_copy_bits(skb, HF_DATA_HLEN + (sh.data.offset - d->offset),
				  skb_put(seg, sh.data.seg_len), sh.data.seg_len)) {
			kfree_skb(seg);
			continue;
		}
		hf_train_seg_adopt(seg, skb->dev, skb->protocol, skb->pkt_type);
		hf_rx_data(peer, seg, &sh, i + 1 < n);
	}
	consume_skb(skb);
}

/*
 * A packed train (core/hf_train.h): one header for the segments whose
 * payloads follow it, as a sender builds it for a device that carries
 * trains whole. Checked as a whole (its length decides how many segments
 * it holds), then taken in under the peer's lock at once. Return:
 * NET_RX_SUCCESS or NET_RX_DROP.
 */
static int hf_rx_train(struct sk_buff *skb, struct net_device *dev,
		       const u8 *src)
{
	struct net *net = dev_net(dev);
	struct hf_net *hn = hf_net(net);
	struct hf_stats *stats = &hn->stats;
	enum hf_wire_err werr;
	struct hf_peer *peer;
	enum hf_stat why;
	u32 n = 0, payload;
	struct hf_hdr h;

	if (skb->len < HF_DATA_HLEN) {
		why = HF_STAT_DROP_MALFORMED;
		hf_stat_malformed(stats, HF_WERR_SHORT);
		goto drop;
	}
	if (!pskb_may_pull(skb, HF_DATA_HLEN)) {
		why = HF_STAT_DROP_MEMORY;
		goto drop;
	}
	payload = skb->len - HF_DATA_HLEN;
	werr = hf_hdr_decode(skb->data, skb->len, &h);
	if (!werr)
		werr = hf_train_check(&h, payload, &n);
	/*
	 * A sender's train still marked as one holds the segments it was
	 * built with; more are a carrier that something on the way copied
	 * into one buffer (generic XDP), where its trains' bounds are lost:
	 * read as one train, its later trains' headers would be payload.
	 */
	if (!werr && skb_is_gso(skb) && skb_shinfo(skb)->gso_segs != n)
		werr = HF_WERR_LENGTH;
	if (werr) {
		why = HF_STAT_DROP_MALFORMED;
		hf_stat_malformed(stats, werr);
		goto drop;
	}
	hf_stat_inc(stats, HF_STAT_RX_DATA_SKBS);
	hf_stat_inc(stats, HF_STAT_RX_PACKED_TRAINS);
	trace_hf_frame_recv(dev, src, n, skb->len);
	/* One checksum for the whole train, as for any frame. */
	if (hf_csum_local(skb)) {
		hf_stat_inc(stats, HF_STAT_RX_CSUM_LOCAL);
	} else if (csum_fold(skb_checksum(skb, 0, skb->len, 0))) {
		why = HF_STAT_DROP_CSUM;
		goto drop;
	}

	peer = hf_rx_peer(dev, src, &h, n, &why);
	if (!peer)
		goto drop;
	spin_lock_bh(&peer->lock);
	if (peer->dead) {
		spin_unlock_bh(&peer->lock);
		hf_peer_put(peer);
		kfree_skb(skb);
		return NET_RX_DROP;
	}
	hf_rx_data_train(peer, skb, &h, n, payload);
	spin_unlock_bh(&peer->lock);
	hf_peer_put(peer);
	return NET_RX_SUCCESS;

drop:
	hf_dev_drop(hn, dev, why);
	kfree_skb(skb);
	return NET_RX_DROP;
}

/*
 * Whether @skb starts with a packed train's header (hf_rx_train()): this
 * version's DATA with PACKED set. Any other version goes to hf_rx_frame(),
 * whose decoder refuses it for that first, as hf_hdr_decode() orders it.
 */
static bool hf_rx_is_packed(const struct sk_buff *skb)
{
	u8 buf[2];
	const u8 *p = skb_header_pointer(skb, 0, sizeof(buf), buf);

	return p && p[0] == (HF_WIRE_VERSION << 4 | HF_TYPE_DATA) &&
	       (p[1] & HF_DF_PACKED);
}

/*
 * A carrier a device carried whole (hf_offload.c; the sender queues none
 * a device would carry whole, but the device's gso_max_size may have
 * been raised since): its trains, each a packed train or, last, a lone
 * segment, are taken in one by one, in order, as if they had arrived so.
 */
static int hf_rx_carrier(struct sk_buff *skb, struct net_device *dev,
			 const u8 *src)
{
	struct hf_net *hn = hf_net(dev_net(dev));
	struct sk_buff *list, *train;
	__be16 protocol = skb->protocol;
	u8 pkt_type = skb->pkt_type;
	int rc;

	list = hf_train_split(skb);
	if (IS_ERR(list)) {
		hf_dev_drop(hn, dev, HF_STAT_DROP_MEMORY);
		kfree_skb(skb);
		return NET_RX_DROP;
	}
	hf_stat_inc(&hn->stats, HF_STAT_RX_CARRIERS);
	rc = hf_rx_train(skb, dev, src);
	while ((train = hf_train_next(&list, dev, protocol, pkt_type)))
		rc = hf_rx_is_packed(train) ? hf_rx_train(train, dev, src) :
			hf_rx_frame(train, dev, src, HF_RXF_LONE);
	return rc;
}

/*
 * A train whose segments lie back to back in one buffer: something on the
 * way (XDP on a veth, generic XDP) copied it out of its frag_list. Each
 * segment is copied into an skb of its own (pulling each out of the
 * buffer in place would copy the train once per segment); its length
 * comes from its header, checked by hf_rx_frame() as any frame's.
 */
static int hf_rx_linearized(struct sk_buff *skb, struct net_device *dev,
			    const u8 *src)
{
	struct hf_net *hn = hf_net(dev_net(dev));
	struct hf_stats *stats = &hn->stats;
	/* Copied, but still a frame whose checksum was left unfilled. */
	unsigned int how = hf_csum_local(skb) ? HF_RXF_UNFILLED : 0;
	enum hf_stat why = HF_STAT_DROP_MALFORMED;
	int rc = NET_RX_DROP;
	u32 off = 0;

	while (off < skb->len) {
		enum hf_wire_err werr;
		struct sk_buff *seg;
		struct hf_hdr h;
		u32 flen;

		werr = hf_train_seg_decode(skb, off, &h);
		if (werr) {
			/* What is left cannot be cut: one malformed frame. */
			why = HF_STAT_DROP_MALFORMED;
			hf_stat_malformed(stats, werr);
			break;
		}
		flen = h.hlen + h.data.seg_len;
		seg = alloc_skb(flen, GFP_ATOMIC);
		if (!seg) {
			why = HF_STAT_DROP_MEMORY;
			break;
		}
		if (skb_copy_bits(skb, off, skb_put(seg, flen), flen)) {
			why = HF_STAT_DROP_MALFORMED;
			hf_stat_malformed(stats, HF_WERR_SHORT);
			kfree_skb(seg);
			break;
		}
		hf_train_seg_adopt(seg, dev, skb->protocol, skb->pkt_type);
		off += flen;
		rc = hf_rx_frame(seg, dev, src,
				 how | (off < skb->len ? HF_RXF_MORE : 0));
	}
	if (off < skb->len) {
		/* The rest of the train is lost, as one frame: repaired. */
		hf_dev_drop(hn, dev, why);
		kfree_skb(skb);
		return NET_RX_DROP;
	}
	consume_skb(skb);
	return rc;
}

/**
 * hf_input_rcv() - the packet handler of the hyperframe EtherType
 * @skb: a received frame, Ethernet header pulled; a lone segment or ACK,
 *	 or a train of segments a device carried whole (hf_offload.c)
 * @dev: the interface it arrived on
 * @pt: our packet_type
 * @orig_dev: the interface before any upper device
 *
 * Softirq context. A train's segments are taken in one by one, in order,
 * as if they had arrived so; they share the head's source address.
 *
 * Return: NET_RX_SUCCESS or NET_RX_DROP (of a train: of its last segment).
 */
int hf_input_rcv(struct sk_buff *skb, struct net_device *dev,
		 struct packet_type *pt, struct net_device *orig_dev)
{
	struct hf_net *hn = hf_net(dev_net(dev));
	struct hf_stats *stats = &hn->stats;
	struct sk_buff *list, *seg;
	u8 src[ETH_ALEN], pkt_type;
	enum hf_stat why;
	__be16 protocol;
	int rc;

	if (skb->pkt_type != PACKET_HOST) {
		why = HF_STAT_DROP_OTHERHOST;
		goto drop;
	}
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb) {
		hf_dev_drop(hn, dev, HF_STAT_DROP_MEMORY);
		return NET_RX_DROP;
	}
	ether_addr_copy(src, eth_hdr(skb)->h_source);
	if (hf_rx_is_packed(skb))
		return hf_train_is_carrier(skb) ? hf_rx_carrier(skb, dev, src) :
						  hf_rx_train(skb, dev, src);
	if (!skb_is_gso(skb) ||
	    !(skb_shinfo(skb)->gso_type & SKB_GSO_FRAGLIST))
		return hf_rx_frame(skb, dev, src, HF_RXF_LONE);

	/*
	 * A train; without its frag_list, something on the way copied it
	 * into one buffer. Other frag_list skbs (a driver's large receive
	 * buffers) are no GSO skbs and went to hf_rx_frame() above.
	 */
	hf_stat_inc(stats, HF_STAT_RX_DATA_SKBS);
	trace_hf_frame_recv(dev, src, skb_shinfo(skb)->gso_segs ?: 1, skb->len);
	if (!skb_has_frag_list(skb)) {
		hf_stat_inc(stats, HF_STAT_RX_LINEARIZED_TRAINS);
		return hf_rx_linearized(skb, dev, src);
	}
	list = hf_train_split(skb);
	if (IS_ERR(list)) {
		why = HF_STAT_DROP_MEMORY;
		goto drop;
	}
	protocol = skb->protocol;
	pkt_type = skb->pkt_type;
	rc = hf_rx_frame(skb, dev, src, list ? HF_RXF_MORE : 0);
	while ((seg = hf_train_next(&list, dev, protocol, pkt_type)))
		rc = hf_rx_frame(seg, dev, src, list ? HF_RXF_MORE : 0);
	return rc;

drop:
	hf_dev_drop(hn, dev, why);
	kfree_skb(skb);
	return NET_RX_DROP;
}

/**
 * hf_input_init() - set up the receiving side of a new peer
 * @peer: the peer, not yet visible to anyone
 */
void hf_input_init(struct hf_peer *peer)
{
	struct hf_credit_params cp;

	hf_rxwin_init(&peer->in.rxw, peer->in.words, HF_WIN_SEGS, 0);
	hf_credit_rx_init(&peer->in.credit, hf_credit_params_read(peer->cfg, &cp));
	peer->in.adopted_at = jiffies - HF_EPOCH_ADOPT_GAP;
	peer->in.replies.at = jiffies;
	timer_setup(&peer->in.ack.timer, hf_rx_ack_timer, 0);
}

/**
 * hf_input_reset() - drop the incoming flow's reassembly, window and credit
 * @peer: the peer; caller holds its lock
 *
 * Its incarnation (@peer->in.ep) is the caller's to change: a new one
 * adopted, or forgotten with the peer.
 */
void hf_input_reset(struct hf_peer *peer)
{
	unsigned int i;

	lockdep_assert_held(&peer->lock);

	for (i = 0; i < HF_STATUS_WINDOW_MAX; i++) {
		if (peer->in.msgs[i]) {
			hf_rx_msg_free(peer, peer->in.msgs[i]);
			peer->in.msgs[i] = NULL;
		}
	}
	hf_rxwin_init(&peer->in.rxw, peer->in.words, HF_WIN_SEGS, 0);
	hf_rx_credit_reset(peer);
	peer->in.msg_done = 0;
	memset(peer->in.msg_status, 0, sizeof(peer->in.msg_status));
	peer->in.status_ext = 0;
	peer->in.refused.on = false;
	peer->in.ack.owed = 0;
	peer->in.ack.due = false;
	peer->in.ack.echo = false;
	del_timer(&peer->in.ack.timer);
}

/**
 * hf_input_stop() - wait for the receiving side's timer to finish
 * @peer: a dead peer; no lock held
 */
void hf_input_stop(struct hf_peer *peer)
{
	del_timer_sync(&peer->in.ack.timer);
}
