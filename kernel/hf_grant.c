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
	if (hf_rx_credit_busy(&peer->in.credit))
		atomic_dec(&hf_net(peer->net)->rx_credit_active);
	hf_credit_rx_init(&peer->in.credit, hf_credit_params_read(peer->cfg, &cp));
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
	struct hf_credit_params cp;

	lockdep_assert_held(&peer->lock);

	if (!closed)
		hf_credit_rx_grant(&peer->in.credit, hf_credit_params_read(peer->cfg, &cp),
				   hf_rx_credit_share(peer));
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
	if (!hf_credit_consume(&peer->out.grant.credit, bytes))
		return;
	hf_credit_probe(&peer->out.grant.credit, bytes);
	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_CREDIT_PROBES);
	if (peer->out.grant.probe_shift < HF_PROBE_SHIFT_MAX)
		peer->out.grant.probe_shift++;
}
