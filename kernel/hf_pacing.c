// SPDX-License-Identifier: GPL-2.0
/*
 * hf_pacing.c - when a segment may leave: the departure time each skb is
 * stamped with (EDT), from two schedules, the socket's (its cap,
 * SO_MAX_PACING_RATE or the module's pacing_rate) and the path's (the
 * receiver's rate hint and our share of the link hfq paces); how far
 * ahead either may run; the rate hints a receiver gives its senders; and
 * the pace timer that resumes a push held back. The arithmetic is in
 * core/hf_pace.c.
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

/* The longest a hyperframe occupies a paced link: hf_tx_frame_paced_segs(). */
#define HF_FRAME_PACED_NS	(2 * NSEC_PER_MSEC)

/*
 * Count @peer among its device's senders while it has data queued or in
 * flight, and only then: called where that can change (a push, an abort,
 * the timer). Peer lock held.
 */
void hf_tx_sending_update(struct hf_peer *peer)
{
	bool sending = !hf_output_idle(peer);

	lockdep_assert_held(&peer->lock);

	if (sending == peer->out.pace.sending)
		return;
	peer->out.pace.sending = sending;
	if (sending)
		atomic_inc(&peer->dstats->tx_senders);
	else
		atomic_dec(&peer->dstats->tx_senders);
}

/*
 * The sending side's share of its link: the rate hfq paces @peer's device
 * to (the link share configured for the device, "hfctl qdisc set dev X
 * rate R"), split evenly among the device's peers with data to send; 0
 * when the device has no such rate.
 */
u64 hf_tx_link_share(const struct hf_peer *peer)
{
	u64 link = hf_hfq_rate(peer->dev);
	int senders = atomic_read(&peer->dstats->tx_senders);

	lockdep_assert_held(&peer->lock);

	if (!link)
		return 0;
	/* A peer asking counts, sending or not yet. */
	if (!peer->out.pace.sending)
		senders++;
	return div_u64(link, max(senders, 1));
}

/* The lower of two rates, bytes per second; 0 means no limit. */
static u64 hf_tx_rate_min(u64 a, u64 b)
{
	return a && b ? min(a, b) : a ?: b;
}

/*
 * The rate of @sk's own schedule, shared by all its peers: the lower of
 * the module's pacing_rate and the SO_MAX_PACING_RATE of @sk (when
 * given), scaled by @peer's frame-size controller's cut (after congestion
 * it cuts the rate first); 0 when neither caps it. What a peer says (its
 * rate hint) paces only the path to it (hf_tx_path_rate()), never the
 * socket's traffic to others.
 */
static u64 hf_tx_sock_rate(const struct hf_peer *peer, const struct sock *sk)
{
	unsigned long cap = sk ? READ_ONCE(sk->sk_max_pacing_rate) : 0;

	lockdep_assert_held(&peer->lock);

	return hf_fsize_rate(&peer->out.frame.fsize,
			     hf_tx_rate_min(READ_ONCE(peer->cfg->p.pacing_rate),
					    cap == ~0UL ? 0 : cap));
}

/*
 * The rate of @peer's path, shared by every socket sending to it: the
 * lower of the receiver's rate hint (its share of its link for us) and
 * the device's link share (ours of the link we send by), scaled by the
 * frame-size controller's cut; 0 when neither is known.
 */
u64 hf_tx_path_rate(const struct hf_peer *peer)
{
	lockdep_assert_held(&peer->lock);
	return hf_fsize_rate(&peer->out.frame.fsize,
			     hf_tx_rate_min(peer->out.pace.rate_hint,
					    hf_tx_link_share(peer)));
}

/*
 * The rate the socket's pacing applies towards @peer, both schedules
 * together: the lower of hf_tx_sock_rate() and hf_tx_path_rate(). The cut
 * scales both alike, so this is the lowest of the four limits, scaled;
 * 0 when nothing paces.
 */
u64 hf_tx_pacing_rate(const struct hf_peer *peer, const struct sock *sk)
{
	lockdep_assert_held(&peer->lock);
	return hf_tx_rate_min(hf_tx_sock_rate(peer, sk), hf_tx_path_rate(peer));
}

/*
 * The receiver's rate hint, kbit/s on the wire (0: none), as the latest
 * ACK gives it: it follows the senders active there within a round trip.
 */
void hf_tx_rate_hint(struct hf_peer *peer, u32 kbps)
{
	u64 rate = div_u64((u64)kbps * 1000, 8);

	lockdep_assert_held(&peer->lock);

	if (rate == peer->out.pace.rate_hint)
		return;
	trace_hf_rate_hint(peer, peer->out.pace.rate_hint, rate);
	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_RATE_HINTS);
	peer->out.pace.rate_hint = rate;
}

/*
 * Stamp @skb (new or a repair) with its departure time. Two schedules
 * pace it, and it leaves when both allow: the socket's, at its cap
 * (hf_tx_sock_rate(): SO_MAX_PACING_RATE or the module's pacing_rate), shared
 * by all its peers, and the path's, at the receiver's rate hint and the
 * link share (hf_tx_path_rate()), shared by all sockets sending to @peer.
 * Rates are bytes per second of wire frames, Ethernet header included.
 * Departures towards @peer never go back, whichever socket sends: a peer
 * flow's segments leave an EDT qdisc (hfq, fq) in the order they were
 * numbered. A cap, as TCP's pacing: time a schedule did not use (a full
 * window, nothing to send) is not made up for later, beyond half of this
 * skb's time, which, as TCP does for OS jitter, lets a sender that was a
 * little late (the scheduler, a late ACK) keep its schedule. Peer lock
 * held.
 *
 * Return: the departure time, when pacing stamps @skb and the device's
 * qdisc honours it; 0 otherwise. Its segments count as sent then (as
 * TCP's skb_mstamp_ns): a round trip measures the path, not our pacing.
 */
u64 hf_tx_pace(struct hf_peer *peer, struct sock *sk, struct sk_buff *skb)
{
	u64 rate = hf_tx_sock_rate(peer, sk);
	u64 path = hf_tx_path_rate(peer);
	atomic64_t *next = &hf_sk(sk)->tx_pace_ns;
	u64 now, start, floor, len_ns = 0, path_ns = 0;
	u32 len;
	s64 old;

	lockdep_assert_held(&peer->lock);

	/* Never paced: nothing to keep in order with. */
	if (!rate && !path && !peer->out.pace.depart_ns)
		return 0;
	now = ktime_get_ns();
	len = hf_train_wire_len(skb, peer->dev->hard_header_len);
	floor = peer->out.pace.depart_ns;
	if (!rate && !path)
		floor = max(floor, now);
	if (path) {
		path_ns = hf_pace_len_ns(len, path);
		floor = max(floor, hf_pace_start(peer->out.pace.path_ns, now,
						 path_ns / 2));
	}
	start = floor;
	if (rate) {
		len_ns = hf_pace_len_ns(len, rate);
		old = atomic64_read(next);
		do {
			start = max(hf_pace_start(old, now, len_ns / 2), floor);
		} while (!atomic64_try_cmpxchg(next, &old, start + len_ns));
	}
	if (path)
		peer->out.pace.path_ns = start + path_ns;
	peer->out.pace.depart_ns = start;
	if (start > now)
		hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_PACING_DELAYS);
	/*
	 * Every packet is stamped, even one due now: unstamped, sch_fq may
	 * send it ahead of the flow's stamped packets, and the receiver would
	 * take the reordering for loss.
	 */
	hf_skb_set_departure(skb, ns_to_ktime(start));
	/* Within the slack it may lie a little behind now: it leaves now. */
	return hf_qdisc_honours_edt(peer->dev) ? max(start, now) : 0;
}

/*
 * Whether @sk's pacing schedule runs more than HF_PACE_AHEAD_NS ahead of
 * @now: what it sent already waits that long in an EDT qdisc (hfq, fq),
 * where a peer flow's segments leave in order. As TCP keeps the bytes a
 * flow has below the socket short (TSQ), a frame of @sk then waits until
 * its schedule comes that close (@wake, the earliest such time of those
 * that wait), and another socket's small message to the same peer does
 * not queue behind all it could send. The path's schedule, shared by all
 * of @peer's sockets, is held to the same (hf_tx_pick()).
 */
bool hf_tx_sock_ahead(const struct hf_peer *peer, const struct sock *sk,
		      u64 now, u64 *wake)
{
	u64 next = atomic64_read(&hf_sk(sk)->tx_pace_ns);

	lockdep_assert_held(&peer->lock);

	if (next <= now + HF_PACE_AHEAD_NS || !hf_tx_sock_rate(peer, sk))
		return false;
	*wake = min(*wake, next - HF_PACE_AHEAD_NS);
	return true;
}

/*
 * Push again at @wake (ns, CLOCK_MONOTONIC), when a socket whose pacing ran
 * ahead may send, unless the timer is set to fire earlier. Peer lock held.
 */
void hf_tx_pace_arm(struct hf_peer *peer, u64 wake)
{
	lockdep_assert_held(&peer->lock);
	if (hrtimer_is_queued(&peer->out.pace.timer) &&
	    ktime_to_ns(hrtimer_get_expires(&peer->out.pace.timer)) <= wake)
		return;
	hrtimer_start(&peer->out.pace.timer, ns_to_ktime(wake),
		      HRTIMER_MODE_ABS_SOFT);
}

static enum hrtimer_restart hf_tx_pace_expired(struct hrtimer *t)
{
	struct hf_peer *peer = container_of(t, struct hf_peer, out.pace.timer);

	spin_lock_bh(&peer->lock);
	if (!peer->dead)
		hf_tx_push(peer);
	spin_unlock_bh(&peer->lock);
	return HRTIMER_NORESTART;
}

/*
 * Under a pacing rate a hyperframe holds at most HF_FRAME_PACED_NS of it
 * (at least a segment): a frame is sent whole before another socket's
 * message to the same peer may start, so this bounds how long a small
 * message waits behind another socket's bulk on a slow link. The
 * frame-size controller's own size is not changed by it.
 */
u32 hf_tx_frame_paced_segs(const struct hf_peer *peer,
			   const struct hf_tx_msg *msg)
{
	lockdep_assert_held(&peer->lock);
	return hf_pace_segs(hf_tx_pacing_rate(peer, msg->sk), HF_FRAME_PACED_NS,
			    msg->seg_size + HF_DATA_HLEN +
			    peer->dev->hard_header_len);
}

/**
 * hf_pacing_init() - set up the pace timer of a new peer
 * @peer: the peer, not yet visible to anyone
 */
void hf_pacing_init(struct hf_peer *peer)
{
	hrtimer_init(&peer->out.pace.timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	peer->out.pace.timer.function = hf_tx_pace_expired;
}

/*
 * The rate hint an ACK carries, in kbit/s: the rate of the link the data
 * comes in by, split evenly among the peers sending to us (incast: 1/N
 * each). The link's rate is the one hfq paces the device to, taken as
 * the link's both ways; without hfq or a rate, 0: no hint. Under the
 * receiver's schedule (rx_sched), the rate it gave @peer with the credit
 * limit of the same ACK (hf_rx_credit_sched()).
 */
u32 hf_rx_rate_hint(const struct hf_peer *peer)
{
	u64 link = hf_hfq_rate(peer->dev);
	u64 hint;

	lockdep_assert_held(&peer->lock);

	if (peer->in.sched_rate)
		return min_t(u64, DIV_ROUND_UP_ULL(peer->in.sched_rate * 8, 1000),
			     U32_MAX);
	if (!link)
		return 0;
	hint = hf_credit_rate_hint(0, link, hf_rx_credit_nactive(peer));
	return min_t(u64, DIV_ROUND_UP_ULL(hint * 8, 1000), U32_MAX);
}
