// SPDX-License-Identifier: GPL-2.0
/*
 * hf_grant.c - receiver credits, both sides: the credit a receiver
 * grants each sender (its share of the socket buffers of the sockets the
 * sender's messages are for), checked on arrival; the credit a sender
 * holds, which a frame must fit in whole; and the persist probe that
 * asks again when a grant may have been lost. The accounting is in
 * core/hf_credit.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errqueue.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <net/checksum.h>

#include "core/hf_rxsched.h"
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

/*
 * Whether a hyperframe of @msg may start at segment @index: its bytes must
 * fit in the credit left, so that credit never cuts a frame in pieces.
 * Sized by the frame size now, which the controller's idle decay
 * (hf_fsize_prepare(), next) can only lower. When the frame does not fit
 * and nothing is in flight, no ACK will come to raise the limit before the
 * program reads: what fits, at least a segment, goes as a shorter frame;
 * and when not even a segment fits, the persist timer's probe may send one
 * (hf_credit_probe()).
 *
 * Return: the most segments the frame may have; 0 to wait for credit.
 */
u32 hf_tx_credit_frame(struct hf_peer *peer, const struct hf_tx_msg *msg,
		       u32 index, const struct hf_fsize_params *fp)
{
	u64 rest = msg->len - (u64)index * msg->seg_size;
	u64 avail = hf_credit_avail(&peer->out.grant.credit);
	u64 need = min_t(u64, rest,
			 (u64)hf_fsize_frame_segs(&peer->out.frame.fsize, fp,
						  msg->nsegs - index) *
			 msg->seg_size);
	bool idle = !hf_txwin_inflight(&peer->out.txw);
	u64 now = ktime_get_ns();
	u32 segs = U32_MAX;

	lockdep_assert_held(&peer->lock);

	if (avail < need) {
		if (idle && avail >= msg->seg_size) {
			segs = div_u64(avail, msg->seg_size);
		} else if (idle && peer->out.grant.probing) {
			segs = 1;
		} else {
			hf_credit_stall(&peer->out.grant.credit, need, now);
			return 0;
		}
	}
	hf_credit_stall_end(&peer->out.grant.credit, now);
	return segs;
}

/*
 * A credit stall with nothing in flight: no ACK is due, and the grant a
 * read sent may have been lost. The persist timer (the RTO timer, its
 * timeout doubled per probe without a grant, up to 2^HF_PROBE_SHIFT_MAX)
 * sends a probe.
 */
void hf_tx_probe_arm(struct hf_peer *peer)
{
	struct hf_rto_params rp;
	u64 us = hf_rto_current_us(&peer->out.rec.rto, hf_rto_params_read(peer->cfg, &rp));

	lockdep_assert_held(&peer->lock);

	peer->out.rec.reo_armed = false;
	peer->out.grant.persist_armed = true;
	mod_timer(&peer->out.rec.timer,
		  jiffies + usecs_to_jiffies(min_t(u64, us << peer->out.grant.probe_shift,
						   HF_PROBE_MAX_US)) + 1);
}

/*
 * Nothing in flight: no timer, unless a zero window holds messages back.
 * Then the timer is the persist timer: at the RTO it sends new data, one
 * push, as a probe, whose ACK opens or closes the window again.
 */
void hf_tx_persist(struct hf_peer *peer)
{
	lockdep_assert_held(&peer->lock);
	if (!peer->out.grant.zero_window) {
		/* Or a credit stall: a probe after the persist timeout. */
		if (peer->out.grant.credit.stalled)
			hf_tx_probe_arm(peer);
		else
			del_timer(&peer->out.rec.timer);
	} else if (!list_empty(&peer->out.queue) ||
		   !list_empty(&peer->out.active)) {
		hf_tx_rto_arm(peer);
	} else {
		/*
		 * Nothing waits: the next message is the probe, sent as soon
		 * as it is queued, since no timer would be armed for it.
		 */
		peer->out.grant.zero_window = false;
		del_timer(&peer->out.rec.timer);
	}
}

/* The least credit share, in segments: a new flow's first frame. */
#define HF_CREDIT_MIN_SEGS	4

/* Segments a sender may go beyond the credit before they are dropped. */
#define HF_CREDIT_SLACK_SEGS	64

/*
 * Credit we grant the sender (core/hf_credit.c): the bytes it may have
 * sent beyond what our programs have read is its share of credit_budget,
 * split evenly among the peers whose bytes are not all read yet (this one
 * counted), and never more than one source may reserve (hf_rx_msg_new()),
 * plus what its messages in reassembly hold. Those were paid for when
 * they were admitted (the whole message is reserved then), and a message
 * larger than the share could never complete if they counted; once
 * delivered, their bytes count until read.
 */
static bool hf_rx_credit_busy(const struct hf_credit_rx *c)
{
	return c->received != c->consumed;
}

/* Peers sending to this namespace: those whose bytes are not all read. */
u32 hf_rx_credit_nactive(const struct hf_peer *peer)
{
	u32 nactive = max(atomic_read(&hf_net(peer->net)->rx_credit_active), 0);

	lockdep_assert_held(&peer->lock);

	/* This one counts, busy or not: it is asking. */
	return hf_rx_credit_busy(&peer->in.credit) ? max(nactive, 1U) : nactive + 1;
}

u64 hf_rx_credit_share_base(const struct hf_peer *peer)
{
	u32 nactive = hf_rx_credit_nactive(peer);
	u64 floor = (u64)HF_CREDIT_MIN_SEGS *
		    hf_seg_size(READ_ONCE(peer->dev->mtu));
	u64 share;

	lockdep_assert_held(&peer->lock);

	share = min_t(u64, hf_credit_share(READ_ONCE(peer->cfg->p.credit_budget),
					   nactive, 0),
		      READ_ONCE(peer->cfg->p.mem_limit) / 4);
	return max(share, floor);
}

static u64 hf_rx_credit_share(const struct hf_peer *peer)
{
	lockdep_assert_held(&peer->lock);
	return hf_rx_credit_share_base(peer) + peer->in.credit_reasm;
}

/*
 * The receiver's schedule (rx_sched; core/hf_rxsched.c has the rules).
 * A namespace that knows its link's rate (the hfq rate of the device the
 * data comes in by, else link_rate) holds a table of the senders with
 * messages on their way to it, HF_RXSCHED_SLOTS of them, under
 * rxsched_lock (inside the peer lock). Each ACK a sender is owed runs
 * the allocator over the table and grants that sender what it gives:
 * its credit limit goes to at most the bytes arrived plus its part of
 * one bandwidth-delay product (and never beyond what the socket buffers
 * allow, hf_rx_credit_share()), and the ACK's rate hint is the rate it
 * gives. A sender with nothing in reassembly holds no slot and may send
 * one bandwidth-delay product (unscheduled) for its next message; a
 * sender the table has no room for gets the least grant and rate
 * (counted in rx_sched_full). Its slot is the peer's until nothing of
 * its messages is left to come, or its flow ends.
 */

/* A round trip's estimate before any sample. */
#define HF_RXSCHED_RTT_NS		(1 * NSEC_PER_MSEC)

/* What a paced frame may add to a round trip: HF_FRAME_PACED_NS. */
#define HF_RXSCHED_FRAME_NS		(2 * NSEC_PER_MSEC)

/*
 * The senders' rates add up to an eighth above the link's: a paced sender
 * that falls behind (a late timer, a loaded guest) never makes the time
 * up, and the budget of granted bytes, not the rates, bounds what can
 * queue in front of the link.
 */
#define HF_RXSCHED_RATE_OVER_SHIFT	3

/* A sender silent for this many estimated round trips loses its grant. */
#define HF_RXSCHED_SILENT_RTTS		8

/* And for at least this long: a guest's sender may be descheduled. */
#define HF_RXSCHED_SILENT_MIN_NS	(20 * NSEC_PER_MSEC)

/**
 * hf_sched_link() - the rate of the link @peer's flows use, under rx_sched
 * @peer: the peer; caller holds its lock
 *
 * Return: bytes per second: the hfq rate of @peer's device, else the
 * namespace's link_rate; 0 when rx_sched is off or the rate is unknown.
 */
u64 hf_sched_link(const struct hf_peer *peer)
{
	lockdep_assert_held(&peer->lock);
	if (!READ_ONCE(peer->cfg->p.rx_sched))
		return 0;
	return hf_hfq_rate(peer->dev) ?: READ_ONCE(peer->cfg->p.link_rate);
}

/*
 * An estimate of the round trip a grant takes: the least a grant of ours
 * took to bring @peer's next byte (timed as the flow goes,
 * hf_rx_credit_data()), else the smoothed round trip of our own flow to
 * @peer, else 1 ms; plus the longest an ACK waits and what a paced frame
 * adds (HF_FRAME_PACED_NS): a grant moves only when an ACK leaves. A
 * grant's time is never less than the round trip (no byte beyond the old
 * limit leaves before the grant arrives), and its least is the round
 * trip whenever the sender waited for it; the least is kept, as a
 * sender with credit to spare times longer.
 */
static u64 hf_sched_rtt_ns(const struct hf_peer *peer)
{
	u64 rtt = peer->in.sched_rtt_ns ?:
		  (u64)peer->out.rec.rto.srtt_us * NSEC_PER_USEC;

	lockdep_assert_held(&peer->lock);
	return (rtt ?: HF_RXSCHED_RTT_NS) + HF_RXSCHED_FRAME_NS +
	       (u64)READ_ONCE(peer->cfg->p.ack_delay_us) * NSEC_PER_USEC;
}

/**
 * hf_sched_bdp() - the bandwidth-delay product of @link towards @peer
 * @peer: the peer; caller holds its lock
 * @link: the link's rate, bytes per second (hf_sched_link()), not 0
 *
 * Return: unsched_bytes when set, else @link times the estimated round
 * trip of a grant; at least HF_CREDIT_MIN_SEGS segments, at most
 * HF_CREDIT_DEFAULT_MAX_AHEAD.
 */
u64 hf_sched_bdp(const struct hf_peer *peer, u64 link)
{
	u64 seg = hf_seg_size(READ_ONCE(peer->dev->mtu));
	u64 bdp = READ_ONCE(peer->cfg->p.unsched_bytes);

	lockdep_assert_held(&peer->lock);
	if (!bdp)
		bdp = mul_u64_u64_div_u64(link, hf_sched_rtt_ns(peer), NSEC_PER_SEC);
	return clamp_t(u64, bdp, HF_CREDIT_MIN_SEGS * seg,
		       HF_CREDIT_DEFAULT_MAX_AHEAD);
}

/**
 * hf_credit_params_sched() - the credit settings of @peer's flows
 * @peer: the peer; caller holds its lock
 * @cp: filled: the namespace's, with the unscheduled window lowered to
 *	one bandwidth-delay product (hf_sched_bdp()) under rx_sched, on
 *	both sides (a receiver without rx_sched expects credit_initial)
 *
 * Return: @cp.
 */
const struct hf_credit_params *
hf_credit_params_sched(const struct hf_peer *peer, struct hf_credit_params *cp)
{
	u64 link = hf_sched_link(peer);

	lockdep_assert_held(&peer->lock);
	hf_credit_params_read(peer->cfg, cp);
	if (link)
		cp->initial_window = min_t(u64, cp->initial_window,
					   hf_sched_bdp(peer, link));
	return cp;
}

/* Bytes of @peer's messages in reassembly that have not arrived. */
static u64 hf_sched_remaining(const struct hf_peer *peer)
{
	u64 left = 0;
	u32 i;

	lockdep_assert_held(&peer->lock);
	for (i = 0; i < HF_STATUS_WINDOW_MAX; i++) {
		const struct hf_rx_msg *m = peer->in.msgs[i];

		if (m && m->len > m->credited)
			left += m->len - m->credited;
	}
	return left;
}

/* Give up @peer's slot in the schedule, if it holds one. */
static void hf_sched_leave(struct hf_peer *peer)
{
	struct hf_net *hn = hf_net(peer->net);

	lockdep_assert_held(&peer->lock);
	peer->in.sched_rate = 0;
	if (!peer->in.sched_slot)
		return;
	spin_lock(&hn->rxsched_lock);
	memset(&hn->rxsched[peer->in.sched_slot - 1], 0,
	       sizeof(hn->rxsched[0]));
	spin_unlock(&hn->rxsched_lock);
	peer->in.sched_slot = 0;
}

/* A free slot of the schedule for @peer, or -1. Schedule lock held. */
static int hf_sched_slot_take(struct hf_net *hn, u64 now)
{
	int i;

	lockdep_assert_held(&hn->rxsched_lock);
	for (i = 0; i < HF_RXSCHED_SLOTS; i++) {
		if (!hn->rxsched[i].used) {
			hn->rxsched[i].used = 1;
			hn->rxsched[i].last_ns = now;
			return i;
		}
	}
	return -1;
}

/*
 * The bytes @peer may have granted beyond what arrived, by the schedule;
 * U64_MAX when it does not schedule (rx_sched off, the link's rate
 * unknown). Sets the rate its ACK's hint gives (peer->in.sched_rate).
 */
static u64 hf_sched_window(struct hf_peer *peer)
{
	struct hf_rxsched_grant out[HF_RXSCHED_SLOTS];
	const struct hf_credit_rx *c = &peer->in.credit;
	struct hf_net *hn = hf_net(peer->net);
	struct hf_rxsched_sender *e;
	struct hf_rxsched_params p;
	u64 link = hf_sched_link(peer);
	u64 remaining, outstanding, now;
	u32 reclaimed = 0;
	int slot;

	lockdep_assert_held(&peer->lock);

	if (!link) {
		hf_sched_leave(peer);
		return U64_MAX;
	}
	p.link_rate = link + (link >> HF_RXSCHED_RATE_OVER_SHIFT);
	p.bdp = hf_sched_bdp(peer, link);
	p.overcommit_shift = HF_RXSCHED_OVERCOMMIT_SHIFT;
	p.silent_ns = max_t(u64, HF_RXSCHED_SILENT_RTTS * hf_sched_rtt_ns(peer),
			    HF_RXSCHED_SILENT_MIN_NS);
	p.min_grant = hf_seg_size(READ_ONCE(peer->dev->mtu));
	remaining = hf_sched_remaining(peer);
	if (!remaining) {
		/* Nothing known to come: one product for the next message. */
		hf_sched_leave(peer);
		peer->in.sched_rate = link;
		return roundup(p.bdp, p.min_grant);
	}
	outstanding = c->limit > c->received ? c->limit - c->received : 0;
	now = ktime_get_ns();

	spin_lock(&hn->rxsched_lock);
	slot = peer->in.sched_slot - 1;
	if (slot < 0) {
		slot = hf_sched_slot_take(hn, now);
		if (slot < 0) {
			spin_unlock(&hn->rxsched_lock);
			hf_stat_inc(&hn->stats, HF_STAT_RX_SCHED_FULL);
			peer->in.sched_rate = link >> HF_RXSCHED_MIN_RATE_SHIFT;
			return p.min_grant;
		}
		peer->in.sched_slot = slot + 1;
	}
	e = &hn->rxsched[slot];
	e->remaining = remaining;
	e->outstanding = outstanding;
	if (peer->in.sched_last_ns > e->last_ns) {
		e->last_ns = peer->in.sched_last_ns;
		e->silent = 0;
	}
	hf_rxsched_alloc(hn->rxsched, HF_RXSCHED_SLOTS, &p, now, out,
			 &reclaimed);
	spin_unlock(&hn->rxsched_lock);

	if (reclaimed)
		hf_stat_add(&hn->stats, HF_STAT_RX_SCHED_RECLAIMS, reclaimed);
	/* Silent itself (an ACK for a read): nothing more, the least rate. */
	peer->in.sched_rate = out[slot].rate ?: link >> HF_RXSCHED_MIN_RATE_SHIFT;
	/* Whole segments: a sender left a crumb of credit could only probe. */
	return roundup(outstanding + out[slot].grant, p.min_grant);
}

/**
 * hf_rx_credit_sched() - the share a grant to @peer may go to
 * @peer: the peer; caller holds its lock
 * @share: its part of the socket buffers (hf_rx_credit_share())
 *
 * Under the schedule, no more than takes its limit to the bytes arrived
 * plus what the schedule gives it (hf_sched_window()), which also sets
 * the rate its ACK's hint gives.
 *
 * Return: the share to pass hf_credit_rx_grant().
 */
u64 hf_rx_credit_sched(struct hf_peer *peer, u64 share)
{
	const struct hf_credit_rx *c = &peer->in.credit;
	u64 window = hf_sched_window(peer);

	lockdep_assert_held(&peer->lock);
	if (window == U64_MAX)
		return share;
	return min(share, c->received - c->consumed + window);
}

/*
 * @bytes of new payload arrived, counted once per sequence number: held in
 * reassembly until their message is delivered or dropped.
 */
void hf_rx_credit_data(struct hf_peer *peer, u32 bytes)
{
	struct hf_credit_rx *c = &peer->in.credit;
	struct hf_net *hn = hf_net(peer->net);
	bool idle = !hf_rx_credit_busy(c);
	u64 over = c->over;

	lockdep_assert_held(&peer->lock);

	peer->in.credit_reasm += bytes;
	hf_credit_rx_on_data(c, bytes);
	if (READ_ONCE(peer->cfg->p.rx_sched)) {
		u64 now = ktime_get_ns();

		peer->in.sched_last_ns = now;
		/* A grant timed: the first byte it allowed arrived. */
		if (peer->in.sched_probe_ns &&
		    c->received > peer->in.sched_probe_limit) {
			u64 rtt = now - peer->in.sched_probe_ns;

			if (!peer->in.sched_rtt_ns || rtt < peer->in.sched_rtt_ns)
				peer->in.sched_rtt_ns = rtt;
			peer->in.sched_probe_ns = 0;
		}
	}
	/* Kept: every byte is bounded by the socket and namespace limits. */
	if (c->over != over)
		hf_stat_add(&hn->stats, HF_STAT_RX_CREDIT_OVER, c->over - over);
	if (idle && hf_rx_credit_busy(c))
		atomic_inc(&hn->rx_credit_active);
}

/* @bytes were read, or dropped after they arrived. */
void hf_rx_credit_release(struct hf_peer *peer, u64 bytes)
{
	struct hf_credit_rx *c = &peer->in.credit;
	bool busy = hf_rx_credit_busy(c);

	lockdep_assert_held(&peer->lock);

	hf_credit_rx_on_consume(c, bytes);
	if (busy && !hf_rx_credit_busy(c))
		atomic_dec(&hf_net(peer->net)->rx_credit_active);
}

/* A new incarnation of the flow, or none: both counts start at 0. */
void hf_rx_credit_reset(struct hf_peer *peer)
{
	struct hf_credit_params cp;

	lockdep_assert_held(&peer->lock);

	peer->in.credit_reasm = 0;
	hf_sched_leave(peer);
	peer->in.sched_probe_ns = 0;
	peer->in.sched_rtt_ns = 0;
	if (hf_rx_credit_busy(&peer->in.credit))
		atomic_dec(&hf_net(peer->net)->rx_credit_active);
	hf_credit_rx_init(&peer->in.credit, hf_credit_params_sched(peer, &cp));
}

/*
 * Whether new segments [@seq, @seq + @n) of @bytes payload take the flow
 * far beyond the credit we granted: past the limit by more than
 * HF_CREDIT_SLACK_SEGS segments (a sender's persist probes go one beyond
 * it at a time). Its sender broke its credit: they are dropped unheld
 * (and answered, the flow being alive), so a sender cannot make us hold
 * more than our grants. Repeats and segments outside the window are
 * judged elsewhere.
 */
bool hf_rx_credit_broken(struct hf_peer *peer, u32 seq, u32 n, u32 bytes)
{
	const struct hf_credit_rx *c = &peer->in.credit;
	u64 slack = (u64)HF_CREDIT_SLACK_SEGS * hf_seg_size(READ_ONCE(peer->dev->mtu));

	lockdep_assert_held(&peer->lock);

	return c->received + bytes > c->limit + slack &&
	       hf_rxwin_fresh(&peer->in.rxw, seq, n);
}

/*
 * The credit limit an ACK carries: raised to the sender's share beyond
 * what was read, unless a socket's full buffer closed the window (the
 * ACK says CLOSED then; the limit never goes back).
 */
u32 hf_rx_credit_limit(struct hf_peer *peer, bool closed)
{
	u64 share = hf_rx_credit_sched(peer, hf_rx_credit_share(peer));
	u64 limit = peer->in.credit.limit;
	struct hf_credit_params cp;

	lockdep_assert_held(&peer->lock);

	if (!closed)
		hf_credit_rx_grant(&peer->in.credit, hf_credit_params_read(peer->cfg, &cp),
				   share);
	if (peer->in.sched_rate && peer->in.credit.limit > limit) {
		hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_RX_SCHED_GRANTS);
		/* Time this grant, unless one is being timed. */
		if (!peer->in.sched_probe_ns) {
			peer->in.sched_probe_limit = limit;
			peer->in.sched_probe_ns = ktime_get_ns();
		}
	}
	peer->in.credit.advertised = peer->in.credit.limit;
	return hf_credit_to_wire(peer->in.credit.limit);
}

/**
 * hf_tx_credit_take() - use the credit for a segment of @bytes taken by a
 * push
 * @peer: the peer; caller holds its lock
 * @bytes: its payload
 *
 * Fails only for a persist probe, whose frame did not fit: it goes beyond
 * the credit, and the persist timer's backoff grows until a grant comes.
 */
void hf_tx_credit_take(struct hf_peer *peer, u32 bytes)
{
	lockdep_assert_held(&peer->lock);
	if (!peer->out.grant.credit.grants)
		hf_stat_add(&hf_net(peer->net)->stats, HF_STAT_TX_UNSCHED_BYTES,
			    bytes);
	if (!hf_credit_consume(&peer->out.grant.credit, bytes))
		return;
	hf_credit_probe(&peer->out.grant.credit, bytes);
	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_CREDIT_PROBES);
	if (peer->out.grant.probe_shift < HF_PROBE_SHIFT_MAX)
		peer->out.grant.probe_shift++;
}
