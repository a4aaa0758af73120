// SPDX-License-Identifier: GPL-2.0
/*
 * hf_output.c - the sending side of a peer flow.
 *
 * A message is copied from the user once, into pages the message owns,
 * and queued on its peer. Segments are built on demand as skbs whose
 * payload frags point into those pages, so a retransmission costs one
 * header and no copy. Every sequence number in flight has a slot naming
 * its message and segment; the scoreboard (core/hf_txwin.c) decides what
 * an ack acknowledges and which segments are lost, and exactly those are
 * sent again. A message is finished when the receiver reports its outcome
 * (ACK msg_done/msg_status); a failure reaches its socket as sk_err and
 * an error-queue entry naming it.
 *
 * Design notes:
 * 1. One lock per peer (BHs off) covers both directions; sendmsg, the
 *    receive path and the timers take it for bounded work only.
 * 2. A push sends at most HF_PUSH_BUDGET segments and what the window
 *    (hf_tx_window()) holds of the frame it is in; acks clock out the rest,
 *    so no call holds the lock for a whole 64 MiB message. A push that
 *    could only send a short part of a frame waits for more ACKs
 *    (hf_tx_train_defer()), as TCP defers a TSO skb.
 * 3. At most HF_STATUS_WINDOW messages are unresolved per peer: every ACK
 *    repeats the outcomes of that many, so no outcome can be missed.
 * 4. The message's charge against SO_SNDBUF rides on an empty skb owned
 *    by the socket (skb_set_owner_w); freeing the message frees it, which
 *    uncharges, wakes writers and keeps the socket alive meanwhile.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errqueue.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <net/checksum.h>

#include "hf_compat.h"
#include "hf_genl.h"
#include "hf_hfq.h"
#include "hf_mem.h"
#include "hf_pace.h"
#include "hf_net.h"
#include "hf_offload.h"
#include "hf_output.h"
#include "hf_sock.h"
#include "hf_trace.h"

#define HF_PUSH_BUDGET		64
/* The longest a hyperframe occupies a paced link: hf_tx_frame_paced_segs(). */
#define HF_FRAME_PACED_NS	(2 * NSEC_PER_MSEC)
/*
 * How far ahead a socket's or a path's pacing may run: hf_tx_sock_ahead().
 * It is what stands queued in an EDT qdisc, and in hfq's data band at its
 * device rate, before the next push: a small message of another socket
 * waits behind at most that much. Measured beside 64 KiB bulk at 20
 * Mbit/s: 64-byte round trips p50 4 ms with 2 ms, 13 ms with 10 ms.
 */
#define HF_PACE_AHEAD_NS	(2 * NSEC_PER_MSEC)
/* Headroom of a DATA segment: the device's, and two VLAN tags. */
#define HF_SEG_HEADROOM(dev)	(LL_RESERVED_SPACE(dev) + 2 * VLAN_HLEN)
#define HF_RTO_BUDGET		16
/* Queued messages hf_tx_pick() looks at for one that may start. */
#define HF_PICK_SCAN		64
/* Segments from una a look for lost repairs walks, per ACK. */
#define HF_REPAIR_SCAN		256
/*
 * Timeouts after which a closed socket's message to a peer that never
 * answered is given up (hf_tx_rto_expired()).
 */
#define HF_ORPHAN_RETRIES	4
/* The persist timer's backoff: at most 2^6 RTOs, and never above 1 s. */
#define HF_PROBE_SHIFT_MAX	6
#define HF_PROBE_MAX_US		USEC_PER_SEC

/**
 * hf_tx_msg_charge() - what a message of @len bytes is charged against its
 * socket's SO_SNDBUF: its pages, its struct and the empty skb that
 * carries the charge
 * @len: its length
 *
 * Any context.
 *
 * Return: the charge in bytes.
 */
u64 hf_tx_msg_charge(size_t len)
{
	u64 npages = DIV_ROUND_UP_ULL(len, PAGE_SIZE);

	return SKB_TRUESIZE(0) + npages * PAGE_SIZE +
	       sizeof(struct hf_tx_msg) + npages * sizeof(struct page *);
}

/**
 * hf_tx_msg_alloc() - copy a message from the user and charge its socket
 * @sk: the sending socket; caller holds its lock
 * @from: the data
 * @len: its length, already checked against max_msg
 * @seg_size: the stride to cut it at
 * @mem_pages: pages the caller charged to the module-wide limit for it
 *	       (hf_mem_charge()); the message gives them back when freed
 * @err: set to -ENOMEM or -EFAULT on failure
 *
 * Process context. The caller has waited for send buffer space. Every
 * allocation is charged to the sending task's memory cgroup.
 *
 * Return: the message with one reference, or NULL (the caller keeps its
 * charge of @mem_pages then).
 */
struct hf_tx_msg *hf_tx_msg_alloc(struct sock *sk, struct iov_iter *from,
				  size_t len, u32 seg_size,
				  unsigned long mem_pages, int *err)
{
	u32 npages = DIV_ROUND_UP(len, PAGE_SIZE);
	struct hf_tx_msg *msg;
	size_t off = 0;
	u32 i;

	sock_owned_by_me(sk);
	msg = kvzalloc(struct_size(msg, pages, npages), GFP_KERNEL_ACCOUNT);
	if (!msg)
		goto nomem;
	msg->acct = alloc_skb(0, GFP_KERNEL_ACCOUNT);
	if (!msg->acct)
		goto nomem_msg;

	for (i = 0; i < npages; i++) {
		size_t n = min_t(size_t, len - off, PAGE_SIZE);

		msg->pages[i] = alloc_page(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL |
					   __GFP_NOWARN);
		if (!msg->pages[i])
			goto nomem_pages;
		msg->npages++;
		if (copy_page_from_iter(msg->pages[i], 0, n, from) != n) {
			*err = -EFAULT;
			goto free;
		}
		off += n;
	}

	refcount_set(&msg->refs, 1);
	msg->sk = sk;
	msg->len = len;
	msg->seg_size = seg_size;
	msg->nsegs = len ? DIV_ROUND_UP(len, seg_size) : 1;
	msg->mem_pages = mem_pages;
	msg->acct->truesize = hf_tx_msg_charge(len);
	skb_set_owner_w(msg->acct, sk);
	return msg;

nomem_pages:
nomem_msg:
nomem:
	*err = -ENOMEM;
free:
	if (msg) {
		for (i = 0; i < msg->npages; i++)
			put_page(msg->pages[i]);
		kfree_skb(msg->acct);
		kvfree(msg);
	}
	return NULL;
}

/**
 * hf_tx_msg_put() - drop a reference to a message; the last frees it
 * @msg: the message
 *
 * Any context. Freeing uncharges the socket's send buffer and the
 * module-wide limit.
 */
void hf_tx_msg_put(struct hf_tx_msg *msg)
{
	u32 i;

	if (!refcount_dec_and_test(&msg->refs))
		return;
	for (i = 0; i < msg->npages; i++)
		put_page(msg->pages[i]);
	hf_mem_uncharge(msg->mem_pages);
	consume_skb(msg->acct);
	kvfree(msg);
}

/* @msg's outcome is known: count it for HF_INFO's hfi_tx_msgs_done. */
static void hf_tx_msg_resolved(const struct hf_tx_msg *msg)
{
	atomic_inc(&hf_sk(msg->sk)->tx_msgs_done);
}

/* Tell the sending socket that @msg failed with @err. */
static void hf_tx_msg_fail(struct hf_peer *peer, struct hf_tx_msg *msg, int err)
{
	struct sock *sk = msg->sk;
	struct sock_exterr_skb *serr;
	struct sk_buff *skb;

	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_MSGS_FAILED);
	peer->tx_msgs_failed++;
	hf_tx_msg_resolved(msg);

	skb = alloc_skb(0, GFP_ATOMIC);
	if (skb) {
		serr = SKB_EXT_ERR(skb);
		memset(serr, 0, sizeof(*serr));
		serr->ee.ee_errno = err;
		serr->ee.ee_origin = SO_EE_ORIGIN_LOCAL;
		serr->ee.ee_info = msg->user_seq;
		serr->ee.ee_data = msg->len;
	}
	WRITE_ONCE(sk->sk_err, err);
	if (!skb || sock_queue_err_skb(sk, skb)) {
		kfree_skb(skb);
		sk_error_report(sk);
	}
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
	struct net_device *dev = peer->dev;
	int rc;

	skb->dev = dev;
	skb->protocol = hf_ethertype();
	skb->priority = priority;
	skb_reset_network_header(skb);
	if (dev_hard_header(skb, dev, hf_params_default.ethertype, peer->addr, NULL,
			    skb->len) < 0) {
		kfree_skb(skb);
		rc = -EINVAL;
	} else {
		rc = dev_queue_xmit(skb);
		/* Congestion notification still sent the frame. */
		rc = net_xmit_eval(rc) ? -ENOBUFS : 0;
	}
	if (rc)
		hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_XMIT_ERRORS);
	return rc;
}

/*
 * Build DATA segments @index to @index + @nsegs - 1 of @msg, sequence
 * numbers from @seq, as one skb: a lone segment when @nsegs is 1, else a
 * packed train (core/hf_train.h), its first segment's header and every
 * payload behind it. @flags: FRAME_START of the first, FRAME_END and
 * ACK_NOW of the last. The caller keeps the payload within MAX_SKB_FRAGS
 * pages (hf_tx_train_add()).
 */
static struct sk_buff *hf_tx_seg_build(struct hf_peer *peer, struct hf_tx_msg *msg,
				       u32 index, u32 nsegs, u32 seq, u8 flags,
				 u32 frame_seq, u16 frame_segs)
{
	struct net_device *dev = peer->dev;
	u32 off = index * msg->seg_size;
	u32 left = min_t(u64, msg->len - off, (u64)nsegs * msg->seg_size);
	struct hf_hdr h = {
		.type = HF_TYPE_DATA,
		.flags = flags | (nsegs > 1 ? HF_DF_PACKED : 0),
		.sport = msg->sport,
		.dport = msg->dport,
		.data = {
			.seq = seq,
			.msg_id = msg->msg_id,
			.msg_len = msg->len,
			.offset = off,
			.seg_len = min(left, msg->seg_size),
			.frame_segs = frame_segs,
			.frame_seq = frame_seq,
			.seg_size = msg->seg_size,
			.epoch = peer->tx_epoch,
			.echo = peer->tx_rx_state,
			.pred = msg->pred,
		},
	};
	struct sk_buff *skb;
	u8 *hdr;
	int nfrags = 0;

	/*
	 * Room for VLAN tags too: when the stack cuts a train, each segment
	 * gets the head's link-layer header, tags and all (hf_offload.c).
	 */
	skb = alloc_skb(HF_SEG_HEADROOM(dev) + HF_DATA_HLEN, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, HF_SEG_HEADROOM(dev));
	hdr = skb_put(skb, HF_DATA_HLEN);
	hf_hdr_encode(&h, hdr, HF_DATA_HLEN);
	skb_reset_network_header(skb);
	/*
	 * A lone segment's header is "network" and "transport" both; a
	 * packed train's payload is its "transport" part, so that the qdisc
	 * counts its wire bytes with a link-layer and a hyperframe header
	 * per segment (qdisc_pkt_len_init()).
	 */
	skb_set_transport_header(skb, nsegs > 1 ? HF_DATA_HLEN : 0);
	hf_csum_offload(skb);

	while (left) {
		struct page *page = msg->pages[off >> PAGE_SHIFT];
		u32 poff = off & ~PAGE_MASK;
		u32 n = min_t(u32, left, PAGE_SIZE - poff);

		get_page(page);
		skb_fill_page_desc(skb, nfrags++, page, poff, n);
		skb->len += n;
		skb->data_len += n;
		skb->truesize += n;
		off += n;
		left -= n;
	}
	if (nsegs > 1)
		hf_train_pack(skb, msg->seg_size, nsegs);
	return skb;
}

/* Pages of @msg that bytes [@off, @off + @len) lie in; @len > 0. */
static u32 hf_tx_msg_pages(u32 off, u32 len)
{
	return ((off + len - 1) >> PAGE_SHIFT) - (off >> PAGE_SHIFT) + 1;
}

/* The slot of sequence number @seq: the window is a ring of HF_WIN_SEGS. */
static struct hf_tx_slot *hf_tx_slot_of(struct hf_peer *peer, u32 seq)
{
	return &peer->tx->slots[seq & (HF_WIN_SEGS - 1)];
}

/*
 * An empty scoreboard from sequence number 0, in the storage of @peer's
 * sending state; a peer without one (it never sent) has nothing in
 * flight, and its scoreboard stays empty until hf_output_prepare().
 */
static void hf_tx_txwin_init(struct hf_peer *peer)
{
	if (peer->tx)
		hf_txwin_init(&peer->txw, peer->tx->sacked, peer->tx->rexmit,
			      HF_WIN_SEGS, 0);
	else
		memset(&peer->txw, 0, sizeof(peer->txw));
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
static void hf_tx_fsize_note(struct hf_peer *peer, unsigned int changed)
{
	const struct hf_fsize_change *c = &peer->fsize.last;
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	enum hf_event_sign sign;

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
 * Segment @seq was found lost (reordering window, timeout): a congestion
 * sign, unless a zero window says the receiver refused it for a full
 * socket buffer, which is flow control.
 */
static void hf_tx_loss_sign(struct hf_peer *peer, u32 seq)
{
	struct hf_fsize_params fp;

	if (peer->tx_zero_window ||
	    (peer->tx_refused_mark && hf_seq_before(seq, peer->tx_refused_end)))
		return;
	hf_tx_fsize_note(peer, hf_fsize_on_congestion(&peer->fsize,
						      hf_fsize_params_read(peer->cfg, &fp),
						   HF_FSIZE_LOSS, seq));
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

	hf_fsize_init(&peer->fsize, hf_fsize_params_read(peer->cfg, &fp),
		      hf_seg_size(READ_ONCE(peer->dev->mtu)));
	hf_credit_tx_init(&peer->tx_credit, hf_credit_params_read(peer->cfg, &cp));
	peer->tx_probe_shift = 0;
	peer->tx_rate_hint = 0;
}

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
static u32 hf_tx_credit_frame(struct hf_peer *peer, const struct hf_tx_msg *msg,
			      u32 index, const struct hf_fsize_params *fp)
{
	u64 rest = msg->len - (u64)index * msg->seg_size;
	u64 avail = hf_credit_avail(&peer->tx_credit);
	u64 need = min_t(u64, rest,
			 (u64)hf_fsize_frame_segs(&peer->fsize, fp,
						  msg->nsegs - index) *
			 msg->seg_size);
	bool idle = !hf_txwin_inflight(&peer->txw);
	u64 now = ktime_get_ns();
	u32 segs = U32_MAX;

	if (avail < need) {
		if (idle && avail >= msg->seg_size) {
			segs = div_u64(avail, msg->seg_size);
		} else if (idle && peer->tx_probing) {
			segs = 1;
		} else {
			hf_credit_stall(&peer->tx_credit, need, now);
			return 0;
		}
	}
	hf_credit_stall_end(&peer->tx_credit, now);
	return segs;
}

/*
 * A credit stall with nothing in flight: no ACK is due, and the grant a
 * read sent may have been lost. The persist timer (the RTO timer, its
 * timeout doubled per probe without a grant, up to 2^HF_PROBE_SHIFT_MAX)
 * sends a probe.
 */
static void hf_tx_probe_arm(struct hf_peer *peer)
{
	struct hf_rto_params rp;
	u64 us = hf_rto_current_us(&peer->rto, hf_rto_params_read(peer->cfg, &rp));

	peer->reo_armed = false;
	peer->tx_persist_armed = true;
	mod_timer(&peer->rto_timer,
		  jiffies + usecs_to_jiffies(min_t(u64, us << peer->tx_probe_shift,
						   HF_PROBE_MAX_US)) + 1);
}

/*
 * Arm the retransmission timer. While the receiver's window is closed it
 * is a persist timer for what is in flight: the timeout doubled per probe
 * without room (tx_probe_shift), up to HF_PROBE_MAX_US, and the RTO's own
 * backoff is left alone (hf_tx_rto_expired()).
 */
static void hf_tx_rto_arm(struct hf_peer *peer)
{
	struct hf_rto_params rp;
	u64 us = hf_rto_current_us(&peer->rto, hf_rto_params_read(peer->cfg, &rp));

	if (peer->tx_zero_window)
		us = min_t(u64, us << peer->tx_probe_shift, HF_PROBE_MAX_US);
	/* One jiffy more: jiffies + 1 may be due within microseconds. */
	peer->reo_armed = false;
	peer->tx_persist_armed = false;
	mod_timer(&peer->rto_timer, jiffies + usecs_to_jiffies(us) + 1);
}

/* Wake up when a segment held back by the reordering window is due. */
static void hf_tx_reorder_arm(struct hf_peer *peer, u64 wait_ns)
{
	if (peer->reo_armed)
		return;
	peer->reo_armed = true;
	peer->tx_persist_armed = false;
	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_REORDER_WAITS);
	mod_timer(&peer->rto_timer, jiffies + nsecs_to_jiffies(wait_ns) + 1);
}

/*
 * Count @peer among its device's senders while it has data queued or in
 * flight, and only then: called where that can change (a push, an abort,
 * the timer). Peer lock held.
 */
static void hf_tx_sending_update(struct hf_peer *peer)
{
	bool sending = !hf_output_idle(peer);

	if (sending == peer->tx_sending)
		return;
	peer->tx_sending = sending;
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
static u64 hf_tx_link_share(const struct hf_peer *peer)
{
	u64 link = hf_hfq_rate(peer->dev);
	int senders = atomic_read(&peer->dstats->tx_senders);

	if (!link)
		return 0;
	/* A peer asking counts, sending or not yet. */
	if (!peer->tx_sending)
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

	return hf_fsize_rate(&peer->fsize,
			     hf_tx_rate_min(READ_ONCE(peer->cfg->p.pacing_rate),
					    cap == ~0UL ? 0 : cap));
}

/*
 * The rate of @peer's path, shared by every socket sending to it: the
 * lower of the receiver's rate hint (its share of its link for us) and
 * the device's link share (ours of the link we send by), scaled by the
 * frame-size controller's cut; 0 when neither is known.
 */
static u64 hf_tx_path_rate(const struct hf_peer *peer)
{
	return hf_fsize_rate(&peer->fsize,
			     hf_tx_rate_min(peer->tx_rate_hint,
					    hf_tx_link_share(peer)));
}

/*
 * The rate the socket's pacing applies towards @peer, both schedules
 * together: the lower of hf_tx_sock_rate() and hf_tx_path_rate(). The cut
 * scales both alike, so this is the lowest of the four limits, scaled;
 * 0 when nothing paces.
 */
static u64 hf_tx_pacing_rate(const struct hf_peer *peer, const struct sock *sk)
{
	return hf_tx_rate_min(hf_tx_sock_rate(peer, sk), hf_tx_path_rate(peer));
}

/*
 * The receiver's rate hint, kbit/s on the wire (0: none), as the latest
 * ACK gives it: it follows the senders active there within a round trip.
 */
static void hf_tx_rate_hint(struct hf_peer *peer, u32 kbps)
{
	u64 rate = div_u64((u64)kbps * 1000, 8);

	if (rate == peer->tx_rate_hint)
		return;
	trace_hf_rate_hint(peer, peer->tx_rate_hint, rate);
	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_RATE_HINTS);
	peer->tx_rate_hint = rate;
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
static u64 hf_tx_pace(struct hf_peer *peer, struct sock *sk, struct sk_buff *skb)
{
	u64 rate = hf_tx_sock_rate(peer, sk);
	u64 path = hf_tx_path_rate(peer);
	atomic64_t *next = &hf_sk(sk)->tx_pace_ns;
	u64 now, start, floor, len_ns = 0, path_ns = 0;
	u32 len;
	s64 old;

	/* Never paced: nothing to keep in order with. */
	if (!rate && !path && !peer->tx_depart_ns)
		return 0;
	now = ktime_get_ns();
	len = hf_train_wire_len(skb, peer->dev->hard_header_len);
	floor = peer->tx_depart_ns;
	if (!rate && !path)
		floor = max(floor, now);
	if (path) {
		path_ns = hf_pace_len_ns(len, path);
		floor = max(floor, hf_pace_start(peer->tx_pace_ns, now,
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
		peer->tx_pace_ns = start + path_ns;
	peer->tx_depart_ns = start;
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

/* Whether a message of @msg's socket goes first: started, or queued earlier. */
static bool hf_tx_sock_busy(struct hf_peer *peer, struct hf_tx_msg *msg)
{
	struct hf_tx_msg *other = msg;

	list_for_each_entry_continue_reverse(other, &peer->tx_queue, node)
		if (other->sk == msg->sk)
			return true;
	list_for_each_entry(other, &peer->tx_active, node)
		if (other->sk == msg->sk)
			return true;
	return false;
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
static bool hf_tx_sock_ahead(const struct hf_peer *peer, const struct sock *sk,
			     u64 now, u64 *wake)
{
	u64 next = atomic64_read(&hf_sk(sk)->tx_pace_ns);

	if (next <= now + HF_PACE_AHEAD_NS || !hf_tx_sock_rate(peer, sk))
		return false;
	*wake = min(*wake, next - HF_PACE_AHEAD_NS);
	return true;
}

/*
 * The message the next frame is cut from. Sockets take turns frame by
 * frame, so that one socket's small message does not wait behind another's
 * bulk; a socket's own messages go in order. A message not started yet
 * goes first (the earliest queued whose socket has nothing before it,
 * among the first HF_PICK_SCAN queued), while the status window lets
 * another message start; else the started message whose frame started
 * longest ago. Messages are numbered when they start, so the receiver
 * sees no gap in msg_ids but for loss. A socket whose pacing runs ahead
 * (hf_tx_sock_ahead()) waits: *@wake is then the earliest time one may go
 * (U64_MAX when none waits).
 */
static struct hf_tx_msg *hf_tx_pick(struct hf_peer *peer, u64 now, u64 *wake)
{
	struct hf_tx_msg *msg, *best = NULL;
	unsigned int scan = HF_PICK_SCAN;

	*wake = U64_MAX;
	if (list_empty(&peer->tx_queue) && list_empty(&peer->tx_active))
		return NULL;
	/*
	 * The path's schedule, all sockets together, ran ahead, or the queue
	 * of a device hfq paces takes longer than that to drain (its rate is
	 * the link share, but it also carries what the schedule does not
	 * count): none goes.
	 */
	if (hf_tx_path_rate(peer)) {
		u64 busy = max(peer->tx_pace_ns,
			       now + hf_hfq_backlog_ns(peer->dev));

		if (busy > now + HF_PACE_AHEAD_NS) {
			*wake = busy - HF_PACE_AHEAD_NS;
			return NULL;
		}
	}
	if (peer->next_msg_id - peer->tx_msg_done < HF_STATUS_WINDOW) {
		list_for_each_entry(msg, &peer->tx_queue, node) {
			if (!scan--)
				break;
			if (hf_tx_sock_busy(peer, msg) ||
			    hf_tx_sock_ahead(peer, msg->sk, now, wake))
				continue;
			return msg;
		}
	}
	list_for_each_entry(msg, &peer->tx_active, node) {
		if (hf_tx_sock_ahead(peer, msg->sk, now, wake))
			continue;
		if (!best || (s32)(msg->turn - best->turn) < 0)
			best = msg;
	}
	return best;
}

/*
 * Push again at @wake (ns, CLOCK_MONOTONIC), when a socket whose pacing ran
 * ahead may send, unless the timer is set to fire earlier. Peer lock held.
 */
static void hf_tx_pace_arm(struct hf_peer *peer, u64 wake)
{
	if (hrtimer_is_queued(&peer->pace_timer) &&
	    ktime_to_ns(hrtimer_get_expires(&peer->pace_timer)) <= wake)
		return;
	hrtimer_start(&peer->pace_timer, ns_to_ktime(wake),
		      HRTIMER_MODE_ABS_SOFT);
}

static void hf_tx_push(struct hf_peer *peer);

static enum hrtimer_restart hf_tx_pace_expired(struct hrtimer *t)
{
	struct hf_peer *peer = container_of(t, struct hf_peer, pace_timer);

	spin_lock_bh(&peer->lock);
	if (!peer->dead)
		hf_tx_push(peer);
	spin_unlock_bh(&peer->lock);
	return HRTIMER_NORESTART;
}

/*
 * The pred of @msg, started now as @msg->msg_id: how many messages back
 * the one it follows between the same two ports started, when that one is
 * still unresolved (on tx_active or tx_sent, at most HF_STATUS_WINDOW of
 * them); 0 when none is, so that the receiver may deliver @msg as soon as
 * it is complete, past any gap of other ports' messages still on the way.
 */
static u8 hf_tx_msg_pred(const struct hf_peer *peer, const struct hf_tx_msg *msg)
{
	const struct list_head *lists[] = { &peer->tx_active, &peer->tx_sent };
	const struct hf_tx_msg *other;
	u32 pred = 0;
	unsigned int i;

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
	return min_t(u32, pred, HF_STATUS_WINDOW);
}

/* @msg is fully sent: keep tx_sent in msg_id order for the outcomes. */
static void hf_tx_sent_add(struct hf_peer *peer, struct hf_tx_msg *msg)
{
	struct hf_tx_msg *pos;

	list_del(&msg->node);
	list_for_each_entry_reverse(pos, &peer->tx_sent, node)
		if (hf_seq_before(pos->msg_id, msg->msg_id))
			break;
	list_add(&msg->node, &pos->node);
}

/*
 * Segments of one frame taken since the last send, to leave as one skb
 * (hf_offload.c): the socket, the qdisc and the pacer handle it once.
 * Packed (the packed_trains parameter), it is built when it leaves, one
 * header and the payload of every segment; chained, each segment is built
 * as it is taken and hung on the first's frag_list. Packed trains of one
 * frame then gather in a carrier (hf_train_add()), which goes to the
 * device queue when the frame ends or the push does: one skb, one
 * enqueue and one departure time per hyperframe, however many trains the
 * device's gso_max_size cuts it into.
 */
struct tx_train {
	struct sk_buff *head;
	struct sk_buff *tail;
	struct hf_tx_msg *msg;
	u32 seq;
	u32 index;
	u32 segs;
	u32 len;
	u32 frame_seq;
	u16 frame_segs;
	u8 flags;
	bool packed;
	u32 max_segs;
	struct sk_buff *carrier;
	struct sk_buff *carrier_tail;
	struct hf_tx_msg *carrier_msg;
	u32 carrier_seq;
	u32 carrier_segs;
};

/*
 * Hand @skb, new DATA segments @seq to @seq + @segs - 1 of @msg, to the
 * device queue, paced as a whole. Return: hf_xmit()'s.
 */
static int hf_tx_data_xmit(struct hf_peer *peer, struct hf_tx_msg *msg,
			   struct sk_buff *skb, u32 seq, u32 segs)
{
	u64 departure;

	/* Its segments' bytes with a header each, packed or chained. */
	trace_hf_frame_xmit(peer, msg->msg_id, seq, segs,
			    hf_train_wire_len(skb, 0));
	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_FRAME_SKBS);
	departure = hf_tx_pace(peer, msg->sk, skb);
	while (departure && segs--)
		hf_tx_slot_of(peer, seq + segs)->sent_ns = departure;
	return hf_xmit(peer, skb, msg->sk->sk_priority);
}

/*
 * Send @t's carrier, if any. One the device would carry whole (below its
 * gso_max_size) goes as its trains, one by one: whole, it would cross
 * the link as one skb, and something on the way that copies it into one
 * buffer (XDP at the receiver) would lose its trains' bounds, which no
 * header records. Return: hf_xmit()'s, the first error.
 */
static int hf_tx_carrier_send(struct hf_peer *peer, struct tx_train *t)
{
	struct sk_buff *skb = t->carrier, *train, *next;
	u32 seq = t->carrier_seq, segs;
	int err, first;

	if (!skb)
		return 0;
	t->carrier = NULL;
	t->carrier_tail = NULL;
	if (!skb_has_frag_list(skb) ||
	    !hf_train_fits(peer->dev, skb->len + peer->dev->hard_header_len,
			   t->carrier_segs))
		return hf_tx_data_xmit(peer, t->carrier_msg, skb, seq,
				    t->carrier_segs);
	train = hf_skb_unchain(skb, &segs);
	skb_shinfo(skb)->gso_segs -= segs;
	segs = hf_skb_segs(skb);
	first = hf_tx_data_xmit(peer, t->carrier_msg, skb, seq, segs);
	for (seq += segs; train; train = next, seq += segs) {
		next = train->next;
		train->next = NULL;
		segs = hf_skb_segs(train);
		err = hf_tx_data_xmit(peer, t->carrier_msg, train, seq, segs);
		first = first ?: err;
	}
	return first;
}

/*
 * Add the train just built, @skb of @segs segments from @t->seq, to @t's
 * carrier, sending the carrier first when the train does not follow its
 * last (a train that could not be built leaves a gap) or would take its
 * segments past what gso_segs counts; and after, when the train ends its
 * frame. A lone segment starts no carrier: it goes at once.
 * Return: hf_xmit()'s of what was sent, the first error.
 */
static int hf_tx_carry(struct hf_peer *peer, struct tx_train *t,
		       struct sk_buff *skb, u32 segs, u8 flags)
{
	int err = 0, err2 = 0;

	if (t->carrier &&
	    (t->carrier_msg != t->msg ||
	     t->seq != t->carrier_seq + t->carrier_segs ||
	     t->carrier_segs + segs > U16_MAX))
		err = hf_tx_carrier_send(peer, t);
	if (!t->carrier) {
		if (!skb_is_gso(skb))
			return hf_tx_data_xmit(peer, t->msg, skb, t->seq, segs) ?: err;
		t->carrier = skb;
		t->carrier_msg = t->msg;
		t->carrier_seq = t->seq;
		t->carrier_segs = segs;
	} else {
		hf_train_add(t->carrier, t->carrier_tail, skb);
		t->carrier_tail = skb;
		t->carrier_segs += segs;
	}
	if (flags & HF_DF_FRAME_END)
		err2 = hf_tx_carrier_send(peer, t);
	return err ?: err2;
}

/*
 * Send @t's train, if any: chained, to the device queue; packed, into
 * the frame's carrier (hf_tx_carry()). Return: hf_xmit()'s.
 */
static int hf_tx_train_send(struct hf_peer *peer, struct tx_train *t)
{
	struct sk_buff *skb = t->head;
	u32 segs = t->segs;

	if (!segs)
		return 0;
	t->head = NULL;
	t->tail = NULL;
	t->segs = 0;
	if (t->packed) {
		skb = hf_tx_seg_build(peer, t->msg, t->index, segs, t->seq, t->flags,
				      t->frame_seq, t->frame_segs);
		/* Unsent but in flight: the timer will send them again. */
		if (!skb) {
			hf_stat_inc(&hf_net(peer->net)->stats,
				    HF_STAT_TX_XMIT_ERRORS);
			return 0;
		}
	} else {
		hf_train_end(skb);
	}
	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_DATA_SKBS);
	if (t->packed)
		return hf_tx_carry(peer, t, skb, segs, t->flags);
	return hf_tx_data_xmit(peer, t->msg, skb, t->seq, segs);
}

/*
 * Under a pacing cap a train holds about 1 ms of the rate, and at least
 * two segments of @seg_len (as TCP sizes its GSO skbs to its pacing
 * rate): the pacer releases it as one burst, which at a low rate would
 * hold other flows back for as long as it takes.
 */
static u32 hf_tx_train_paced_max(const struct hf_peer *peer,
				 const struct sock *sk, u32 seg_len)
{
	u64 rate = hf_tx_pacing_rate(peer, sk);

	if (!rate)
		return U32_MAX;
	return max_t(u64, div_u64(rate, MSEC_PER_SEC), 2 * seg_len);
}

/*
 * Under a pacing rate a hyperframe holds at most HF_FRAME_PACED_NS of it
 * (at least a segment): a frame is sent whole before another socket's
 * message to the same peer may start, so this bounds how long a small
 * message waits behind another socket's bulk on a slow link. The
 * frame-size controller's own size is not changed by it.
 */
static u32 hf_tx_frame_paced_segs(const struct hf_peer *peer,
				  const struct hf_tx_msg *msg)
{
	return hf_pace_segs(hf_tx_pacing_rate(peer, msg->sk), HF_FRAME_PACED_NS,
			    msg->seg_size + HF_DATA_HLEN +
			    peer->dev->hard_header_len);
}

/*
 * Segments of @seg_size one train to @peer may carry: what its device
 * takes whole (hf_train_fits(): within gso_max_size, link-layer header
 * included, and gso_max_segs) and what the pacing cap of @sk lets go in
 * one burst.
 */
static u32 hf_tx_train_segs(const struct hf_peer *peer, u32 seg_size,
			    const struct sock *sk)
{
	u32 seg_len = seg_size + HF_DATA_HLEN;
	u32 room = hf_dev_gso_max_size(peer->dev);
	u32 hh = peer->dev->hard_header_len;
	u32 segs;

	segs = room > hh + 1 ? (room - hh - 1) / seg_len : 0;
	segs = min(segs, READ_ONCE(peer->dev->gso_max_segs));
	segs = min_t(u64, segs,
		     div_u64(hf_tx_train_paced_max(peer, sk, seg_len), seg_len));
	return max(segs, 1U);
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

	if (!(READ_ONCE(peer->dev->features) & NETIF_F_GSO_FRAGLIST))
		return max;
	want = hf_fsize_segs(&peer->fsize, fp);
	/* A frame may carry its message's tail (hf_fsize_frame_segs()). */
	want = 2 * (want + (want >> HF_FSIZE_TAIL_SHIFT));
	want = min_t(u64, want, (u64)max * hf_tx_train_segs(peer, seg_size, sk));
	return clamp_t(u64, want, max, HF_WIN_SEGS);
}

/*
 * Whether a push that would start sending now, @want segments of @msg
 * (the frame's rest, or the next frame), holds back for the window
 * (@window segments, hf_tx_window()) to open further: an ACK opens what one
 * train carried (or HF_ACK_EVERY lone segments, hf_input.c), and sending
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
	u32 inflight = hf_txwin_inflight(&peer->txw);
	u32 room = window > inflight ? window - inflight : 0;

	if (!inflight)
		return false;
	if (going)
		return room < min(want, hf_tx_train_segs(peer, msg->seg_size,
						      msg->sk));
	if (room >= window / 2)
		return false;
	return room < want;
}

/*
 * Add segment @index of @msg, sequence number @seq, to @t's train,
 * sending the train first when the segment starts another frame, belongs
 * to another message or does not follow the train's last (one that could
 * not be built leaves a gap), or would make the train too long for the
 * device to take whole or for one burst of the pacer, and after, when
 * the frame ends or the train is full (hf_tx_train_segs()). Return: 0;
 * -ENOMEM when a chained segment could not be built (it stays in flight,
 * for the timer); or -ENOBUFS when the device refused the train.
 */
static int hf_tx_train_add(struct hf_peer *peer, struct tx_train *t,
			   struct hf_tx_msg *msg, u32 index, u32 seq, u8 flags)
{
	u32 hh = peer->dev->hard_header_len;
	u32 off = index * msg->seg_size;
	u32 payload = min(msg->len - off, msg->seg_size);
	u32 len = payload + (t->packed && t->segs ? 0 : HF_DATA_HLEN);
	struct sk_buff *skb = NULL;

	if (t->segs &&
	    ((flags & HF_DF_FRAME_START) || t->msg != msg ||
	     seq != t->seq + t->segs || index != t->index + t->segs ||
	     !hf_train_fits(peer->dev, t->len + len + hh, t->segs + 1) ||
	     t->len + len > hf_tx_train_paced_max(peer, msg->sk,
					       payload + HF_DATA_HLEN) ||
	     (t->packed && hf_tx_msg_pages(t->index * msg->seg_size,
					off + payload - t->index * msg->seg_size) >
			   MAX_SKB_FRAGS)) &&
	    hf_tx_train_send(peer, t))
		return -ENOBUFS;
	if (!t->packed) {
		skb = hf_tx_seg_build(peer, msg, index, 1, seq, flags,
				      peer->frame_seq, peer->frame_segs);
		if (!skb)
			return -ENOMEM;
	}
	if (!t->segs) {
		len = payload + HF_DATA_HLEN;
		if (skb)
			hf_train_start(skb, skb->len);
		t->head = skb;
		t->msg = msg;
		t->seq = seq;
		t->index = index;
		t->len = 0;
		t->flags = 0;
		t->frame_seq = peer->frame_seq;
		t->frame_segs = peer->frame_segs;
		t->max_segs = hf_tx_train_segs(peer, msg->seg_size, msg->sk);
	} else if (skb) {
		hf_train_add(t->head, t->tail, skb);
		t->tail = skb;
	}
	t->segs++;
	t->len += len;
	t->flags = (t->flags & HF_DF_FRAME_START) | flags;
	/*
	 * A full train leaves at once, so that the next one starts where
	 * hf_tx_push() may defer it, not here with whatever the window has left.
	 */
	if ((flags & HF_DF_FRAME_END) || t->segs >= t->max_segs)
		return hf_tx_train_send(peer, t) ? -ENOBUFS : 0;
	return 0;
}

/* Send new segments while the window, message window and budget allow. */
static void hf_tx_push(struct hf_peer *peer)
{
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	int budget = HF_PUSH_BUDGET;
	struct tx_train train = { .packed = READ_ONCE(hf_packed_trains) };
	struct hf_fsize_params fp;
	struct hf_rto_params rp;
	bool stalled = false, sent = false;
	/* The most segments the next frame may have: credit and pacing. */
	u32 cap_segs = U32_MAX;
	/* Read again as each frame starts: a push is short. */
	u64 now = ktime_get_ns(), wake;

	hf_fsize_params_read(peer->cfg, &fp);

	for (;; budget--) {
		struct hf_tx_msg *msg;
		struct hf_tx_slot *slot;
		u32 seq, index, off, window;
		u8 flags = 0;
		int err;

		/*
		 * The budget ends a push between frames, never inside one:
		 * the window (hf_tx_window()) bounds a frame's rest.
		 */
		if (budget <= 0 && !peer->frame_left)
			break;
		if (peer->frame_left) {
			msg = peer->frame_msg;
		} else {
			now = ktime_get_ns();
			msg = hf_tx_pick(peer, now, &wake);
			if (!msg) {
				if (wake != U64_MAX) {
					hf_stat_inc(stats, HF_STAT_TX_PACE_WAITS);
					hf_tx_pace_arm(peer, wake);
				}
				break;
			}
		}
		/* Within the window, the scoreboard always has room. */
		window = hf_tx_window(peer, &fp, msg->seg_size, msg->sk);
		if (peer->tx_zero_window ||
		    hf_txwin_inflight(&peer->txw) >= window) {
			stalled = true;
			break;
		}
		if (!peer->frame_left) {
			cap_segs = hf_tx_credit_frame(peer, msg, msg->next_seg, &fp);
			if (!cap_segs) {
				stalled = true;
				break;
			}
			cap_segs = min(cap_segs, hf_tx_frame_paced_segs(peer, msg));
		}
		/*
		 * A push that goes on with a frame sends what the window
		 * holds of it in full trains: they leave as one carrier.
		 */
		if (!train.segs &&
		    hf_tx_train_defer(peer, msg, window, peer->frame_left ?:
				   min(hf_fsize_frame_segs(&peer->fsize, &fp,
							   msg->nsegs - msg->next_seg),
				       cap_segs),
				   sent && peer->frame_left)) {
			hf_stat_inc(stats, HF_STAT_TX_PUSH_DEFERRALS);
			break;
		}
		if (hf_txwin_send(&peer->txw, &seq)) {
			stalled = true;
			break;
		}

		sent = true;
		if (!msg->next_seg) {
			msg->msg_id = peer->next_msg_id++;
			msg->pred = hf_tx_msg_pred(peer, msg);
			list_move_tail(&msg->node, &peer->tx_active);
			peer->tx_unstarted--;
		}
		index = msg->next_seg++;
		off = index * msg->seg_size;
		if (!peer->frame_left) {
			u32 rto_us = hf_rto_current_us(&peer->rto,
						       hf_rto_params_read(peer->cfg, &rp));

			hf_tx_fsize_note(peer, hf_fsize_prepare(&peer->fsize, &fp,
								now, rto_us));
			peer->frame_msg = msg;
			msg->turn = ++peer->frame_turns;
			peer->frame_seq = seq;
			peer->frame_segs = min(hf_fsize_frame_segs(&peer->fsize, &fp,
								   msg->nsegs - index),
					       cap_segs);
			peer->frame_left = peer->frame_segs;
			hf_fsize_on_send(&peer->fsize, &fp, seq, peer->frame_segs,
					 now);
			flags |= HF_DF_FRAME_START;
			/* Its size is known now: only a message's last is short. */
			hf_stat_frame(stats, min_t(u64, msg->len - off,
						   (u64)peer->frame_segs *
						   msg->seg_size));
			peer->tx_frames++;
			hf_dev_stat_inc(peer->dstats, HF_DEV_STAT_TX_FRAMES);
		}
		if (!--peer->frame_left)
			flags |= HF_DF_FRAME_END;
		/* Fails only for a persist probe: its frame did not fit. */
		if (hf_credit_consume(&peer->tx_credit,
				      min(msg->len - off, msg->seg_size))) {
			hf_credit_probe(&peer->tx_credit,
					min(msg->len - off, msg->seg_size));
			hf_stat_inc(stats, HF_STAT_TX_CREDIT_PROBES);
			if (peer->tx_probe_shift < HF_PROBE_SHIFT_MAX)
				peer->tx_probe_shift++;
		}

		slot = hf_tx_slot_of(peer, seq);
		refcount_inc(&msg->refs);
		slot->msg = msg;
		slot->index = index;
		slot->rexmit = false;
		slot->sent_ns = now;
		if (msg->next_seg == msg->nsegs)
			hf_tx_sent_add(peer, msg);

		err = hf_tx_train_add(peer, &train, msg, index, seq, flags);
		/* Unsent but in flight: the timer will send it again. */
		if (err == -ENOMEM) {
			hf_stat_inc(stats, HF_STAT_TX_XMIT_ERRORS);
			continue;
		}
		hf_stat_inc(stats, HF_STAT_TX_SEGS);
		peer->tx_segs++;
		peer->tx_bytes += min(msg->len - off, msg->seg_size);
		hf_dev_stat_inc(peer->dstats, HF_DEV_STAT_TX_SEGS);
		hf_dev_stat_add(peer->dstats, HF_DEV_STAT_TX_BYTES,
				min(msg->len - off, msg->seg_size));
		/* The device is full: acks or the timer resume sending. */
		if (err)
			break;
	}
	/* What a frame cut short by the window or budget has so far. */
	hf_tx_train_send(peer, &train);
	hf_tx_carrier_send(peer, &train);
	/*
	 * Data waits for credit: a stall each time the window closes on it,
	 * not again for pushes that find it still closed.
	 */
	if (stalled && (sent || !peer->tx_stalled)) {
		hf_stat_inc(stats, HF_STAT_TX_CREDIT_STALLS);
		trace_hf_credit_stall(peer, hf_txwin_inflight(&peer->txw),
				      peer->tx_zero_window);
	}
	peer->tx_stalled = stalled;
	/*
	 * Whatever is in flight, even a segment we failed to build, is timed,
	 * by the RTO: a persist timer set while nothing was in flight gives
	 * way to it.
	 */
	if (hf_txwin_inflight(&peer->txw)) {
		if (!timer_pending(&peer->rto_timer) || peer->tx_persist_armed)
			hf_tx_rto_arm(peer);
	} else if (peer->tx_credit.stalled && !peer->tx_zero_window &&
		   !timer_pending(&peer->rto_timer)) {
		hf_tx_probe_arm(peer);
	}
	hf_tx_sending_update(peer);
}

/* Send again the segment at @seq, alone in its frame. */
static void hf_tx_retransmit(struct hf_peer *peer, u32 seq)
{
	struct hf_tx_slot *slot = hf_tx_slot_of(peer, seq);
	struct sk_buff *skb;
	u64 departure;

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
	peer->tx_retransmits++;
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
static bool hf_tx_orphaned(struct hf_peer *peer)
{
	const struct hf_tx_slot *slot = hf_tx_slot_of(peer, hf_txwin_una(&peer->txw));

	return hf_txwin_inflight(&peer->txw) && slot->msg &&
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
	u32 seq = hf_txwin_una(&peer->txw), end = peer->txw.rtx_next;
	unsigned int scan = HF_REPAIR_SCAN, budget = HF_PUSH_BUDGET;
	u64 first = ~0ULL;

	for (; scan && budget && hf_seq_before(seq, end); scan--, seq++) {
		struct hf_tx_slot *slot = hf_tx_slot_of(peer, seq);
		u64 wait;

		if (!hf_txwin_retransmitted(&peer->txw, seq) ||
		    hf_txwin_sacked(&peer->txw, seq))
			continue;
		wait = hf_reorder_wait_ns(&peer->reo, slot->sent_ns, now,
					  rtt_us, win_us);
		if (wait) {
			first = min(first, wait);
			continue;
		}
		if (!hf_txwin_repairs_take(&peer->txw))
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
static void hf_tx_rack_candidate(const struct hf_peer *peer,
				 const struct hf_tx_slot *slot, u64 now,
			      u64 *deliv_ns)
{
	if (slot->sent_ns >= *deliv_ns &&
	    hf_reorder_sample_ok(slot->sent_ns, now, slot->rexmit,
				 peer->rto.min_rtt_us))
		*deliv_ns = slot->sent_ns;
}

/*
 * Segment @slot, sent once, arrived after segments sent after it: the
 * earliest sent of those an ACK shows (@late_sent_ns, 0 for none) was
 * out the longest, and measures the reordering (hf_reorder_late()).
 */
static void hf_tx_late_candidate(const struct hf_tx_slot *slot,
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
static u32 hf_tx_rack_rtt_us(const struct hf_peer *peer)
{
	struct hf_rto_params rp;
	u32 rto = hf_rto_current_us(&peer->rto, hf_rto_params_read(peer->cfg, &rp));

	return min(max(peer->reo.rtt_us, peer->rto.srtt_us), rto);
}

/*
 * Whether the last RTO stands confirmed (core/hf_txwin.c, note 7): the
 * first ack after it showed only its probe arrived (hf_tx_rto_verdict()),
 * or the receiver had room again for the flight it refused. Until the
 * cumulative ack passes what the RTO made eligible, all of that is lost.
 */
static bool hf_tx_rto_confirmed(const struct hf_peer *peer)
{
	return peer->rto_phase != HF_RTO_PROBE &&
	       hf_seq_after(peer->txw.rto_end, hf_txwin_una(&peer->txw));
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
static u64 hf_tx_repair(struct hf_peer *peer)
{
	u32 win_us = hf_reorder_window_us(&peer->reo, peer->rto.min_rtt_us,
					  peer->rto.srtt_us);
	u32 rtt_us = hf_tx_rack_rtt_us(peer);
	u32 end = hf_txwin_repair_end(&peer->txw, hf_tx_rto_confirmed(peer));
	u64 now = ktime_get_ns();
	u64 held = 0, again;
	unsigned int budget;
	u32 seq;

	/* Repairs would be refused too: the window's opening resends them. */
	if (peer->tx_zero_window)
		return 0;
	for (budget = HF_PUSH_BUDGET;
	     budget && hf_seq_before(peer->txw.rtx_next, end) &&
	     hf_txwin_peek_lost(&peer->txw, &seq); budget--) {
		struct hf_tx_slot *slot = hf_tx_slot_of(peer, seq);
		u64 wait = hf_reorder_wait_ns(&peer->reo, slot->sent_ns, now,
					      rtt_us, win_us);

		/*
		 * After an RTO every un-SACKed segment is eligible again,
		 * repairs still on their way included: one the time rule
		 * does not find lost yet is left to hf_tx_repair_again(), which
		 * sends it once more only if it is.
		 */
		if (wait && slot->rexmit) {
			hf_txwin_next_lost(&peer->txw, &seq);
			continue;
		}

		/* Sent in order: a later segment cannot be due sooner. */
		if (wait) {
			held = wait == ~0ULL ? 0 : wait;
			break;
		}
		/* The next ACK that delivers pays for more. */
		if (!hf_txwin_repairs_take(&peer->txw))
			break;
		hf_txwin_next_lost(&peer->txw, &seq);
		hf_tx_loss_sign(peer, seq);
		if (!peer->recovering) {
			peer->recovering = true;
			peer->recover = hf_txwin_nxt(&peer->txw);
		}
		hf_tx_retransmit(peer, seq);
	}
	again = hf_tx_repair_again(peer, rtt_us, win_us, now);
	if (!held || (again && again < held))
		return again;
	return held;
}

/*
 * A new incarnation of the flow, numbered from 0. Its epoch differs from
 * the last two: the receiver keeps the one before its current epoch to
 * drop that flow's stale segments, which must never be ours again.
 */
static void hf_tx_new_epoch(struct hf_peer *peer)
{
	u32 epoch;

	do {
		epoch = get_random_u32();
	} while (!epoch || epoch == peer->tx_epoch ||
		 epoch == peer->tx_prev_epoch);
	if (peer->tx_epoch)
		peer->tx_prev_epoch = peer->tx_epoch;
	peer->tx_epoch = epoch;
	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_EPOCHS);
	peer->tx_rx_state = 0;
	hf_tx_txwin_init(peer);
	hf_reorder_init(&peer->reo);
	peer->recovering = false;
	peer->tx_zero_window = false;
	peer->tx_stalled = false;
	peer->tx_refused_mark = false;
	hf_tx_fsize_init(peer);
	peer->rto_phase = HF_RTO_IDLE;
	peer->next_msg_id = 0;
	peer->tx_msg_done = 0;
	peer->frame_left = 0;
	hf_genl_event_epoch(peer);
}

/* Drop the references the sequence numbers in flight hold. */
static void hf_tx_release_inflight(struct hf_peer *peer)
{
	u32 seq;

	for (seq = hf_txwin_una(&peer->txw); seq != hf_txwin_nxt(&peer->txw);
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
static void hf_tx_restart(struct hf_peer *peer)
{
	struct hf_tx_msg *msg, *tmp;
	struct hf_rto_params rp;
	u32 failed = 0;

	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_RESETS);
	hf_tx_release_inflight(peer);
	list_splice_tail_init(&peer->tx_active, &peer->tx_sent);
	list_for_each_entry_safe(msg, tmp, &peer->tx_sent, node) {
		list_del(&msg->node);
		hf_tx_msg_fail(peer, msg, ECONNRESET);
		hf_tx_msg_put(msg);
		failed++;
	}
	/* The reset first, then the epoch that replaces the flow. */
	hf_genl_event_flow_reset(peer, peer->tx_epoch, failed);
	hf_tx_new_epoch(peer);
	hf_rto_init(&peer->rto, hf_rto_params_read(peer->cfg, &rp));
	del_timer(&peer->rto_timer);
}

/**
 * hf_output_prepare() - give a peer its sending state before its first
 * message
 * @peer: the peer, with a reference; no lock held
 *
 * Process context: the state is large (struct hf_peer_tx, about 100 KiB)
 * and charged to the sending task's memory cgroup, so it is allocated
 * here, never for a peer that only sends to us.
 *
 * Return: 0, or -ENOMEM.
 */
int hf_output_prepare(struct hf_peer *peer)
{
	struct hf_peer_tx *tx;

	might_sleep();
	if (READ_ONCE(peer->tx))
		return 0;
	tx = kvzalloc(sizeof(*tx), GFP_KERNEL_ACCOUNT);
	if (!tx)
		return -ENOMEM;
	spin_lock_bh(&peer->lock);
	if (!peer->tx) {
		/* Nothing was ever in flight: the scoreboard starts here. */
		WRITE_ONCE(peer->tx, tx);
		hf_tx_txwin_init(peer);
		tx = NULL;
	}
	spin_unlock_bh(&peer->lock);
	kvfree(tx);
	return 0;
}

/* Whether every message queued or in flight to @peer is a closed socket's. */
static bool hf_tx_all_orphaned(const struct hf_peer *peer)
{
	const struct list_head *lists[] = {
		&peer->tx_queue, &peer->tx_active, &peer->tx_sent,
	};
	const struct hf_tx_msg *msg;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lists); i++)
		list_for_each_entry(msg, lists[i], node)
			if (!sock_flag(msg->sk, SOCK_DEAD))
				return false;
	return true;
}

/**
 * hf_output_queue() - queue a message to a peer and start sending it
 * @peer: the peer; caller holds its lock
 * @msg: the message; the queue takes over the caller's reference
 */
void hf_output_queue(struct hf_peer *peer, struct hf_tx_msg *msg)
{
	unsigned long reset = msecs_to_jiffies(READ_ONCE(peer->cfg->p.flow_reset_ms));

	/*
	 * A flow idle for flow_reset_ms may be forgotten by the receiver
	 * (its peer reclaimed after peer_idle_ms): start afresh, but only
	 * with nothing of the old one in flight. Its own silence counts,
	 * not the peer's: frames of the other direction may have kept our
	 * peer alive while the receiver's was reclaimed.
	 */
	if (hf_output_idle(peer) &&
	    (!peer->tx_epoch ||
	     time_after64(get_jiffies_64(), peer->tx_last_active + reset)))
		hf_tx_new_epoch(peer);

	list_add_tail(&msg->node, &peer->tx_queue);
	peer->tx_unstarted++;
	peer->tx_msgs++;
	peer->last_active = jiffies;
	peer->tx_last_active = get_jiffies_64();
	hf_tx_push(peer);
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
 * its length goes to tx_answered_total_ns (HF_INFO) and the counter
 * tx_backoff_answered_us. A silent peer never starts one.
 */
static void hf_tx_answered_note(struct hf_peer *peer, bool took, u64 now)
{
	struct hf_rto_params rp;
	bool at_max;

	lockdep_assert_held(&peer->lock);
	hf_rto_params_read(peer->cfg, &rp);
	at_max = rp.max_backoff && peer->rto.backoff >= rp.max_backoff &&
		 hf_txwin_inflight(&peer->txw);
	if (peer->tx_answered_ns && !at_max) {
		u64 ns = now > peer->tx_answered_ns ? now - peer->tx_answered_ns : 0;

		peer->tx_answered_total_ns += ns;
		hf_stat_add(&hf_net(peer->net)->stats,
			    HF_STAT_TX_BACKOFF_ANSWERED_US,
			    div_u64(ns, NSEC_PER_USEC));
		peer->tx_answered_ns = 0;
	}
	if (at_max && took && !peer->tx_answered_ns)
		peer->tx_answered_ns = now ?: 1;
}

/* Apply the outcomes an ACK reports for messages fully sent. */
static void hf_tx_outcomes(struct hf_peer *peer, const struct hf_ack_hdr *a)
{
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	struct hf_tx_msg *msg, *tmp;

	/* msg_done may not pass a message that is not fully sent. */
	msg = list_first_entry_or_null(&peer->tx_active, struct hf_tx_msg, node);
	if ((msg && hf_seq_after(a->msg_done, msg->msg_id)) ||
	    hf_seq_after(a->msg_done, peer->next_msg_id)) {
		hf_stat_inc(stats, HF_STAT_DROP_ACK_INVALID);
		hf_dev_stat_inc(peer->dstats, HF_DEV_STAT_DROPS);
		return;
	}

	list_for_each_entry_safe(msg, tmp, &peer->tx_sent, node) {
		if (!hf_seq_before(msg->msg_id, a->msg_done))
			break;
		list_del(&msg->node);
		peer->tx_msg_done = msg->msg_id + 1;
		switch (hf_ack_status(a, msg->msg_id)) {
		case HF_STATUS_DELIVERED:
			hf_stat_inc(stats, HF_STAT_TX_MSGS_DELIVERED);
			peer->tx_msgs_delivered++;
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
 * Resend up to @budget of what the scoreboard hands out, in order from
 * una. Return: how many were resent.
 */
static unsigned int hf_tx_resend(struct hf_peer *peer, unsigned int budget)
{
	unsigned int sent = 0;
	u32 seq;

	while (sent < budget && hf_txwin_next_lost(&peer->txw, &seq)) {
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
 * goes back to the scoreboard's loss detection, and the backoff ends.
 * Otherwise only the probe arrived: the RTO stands confirmed
 * (hf_tx_rto_confirmed()), HF_RTO_BUDGET - 1 more are resent at once and the
 * acks pay for the rest (hf_tx_repair()).
 */
static void hf_tx_rto_verdict(struct hf_peer *peer, bool early)
{
	if (!early) {
		/*
		 * With the probe, HF_RTO_BUDGET per timeout, as before; none
		 * more into a zero window.
		 */
		if (!peer->tx_zero_window)
			hf_tx_resend(peer, HF_RTO_BUDGET - 1);
		peer->rto_phase = HF_RTO_IDLE;
		return;
	}
	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_RTO_SPURIOUS);
	hf_txwin_rto_undo(&peer->txw);
	hf_rto_backoff_end(&peer->rto);
	peer->rto_phase = HF_RTO_IDLE;
}

/*
 * Nothing in flight: no timer, unless a zero window holds messages back.
 * Then the timer is the persist timer: at the RTO it sends new data, one
 * push, as a probe, whose ACK opens or closes the window again.
 */
static void hf_tx_persist(struct hf_peer *peer)
{
	if (!peer->tx_zero_window) {
		/* Or a credit stall: a probe after the persist timeout. */
		if (peer->tx_credit.stalled)
			hf_tx_probe_arm(peer);
		else
			del_timer(&peer->rto_timer);
	} else if (!list_empty(&peer->tx_queue) ||
		   !list_empty(&peer->tx_active)) {
		hf_tx_rto_arm(peer);
	} else {
		/*
		 * Nothing waits: the next message is the probe, sent as soon
		 * as it is queued, since no timer would be armed for it.
		 */
		peer->tx_zero_window = false;
		del_timer(&peer->rto_timer);
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
	if (!peer->tx_rx_state ||
	    hf_seq_before(a->cum_seq, hf_txwin_una(&peer->txw)) ||
	    !hf_seq_before(a->cum_seq, hf_txwin_nxt(&peer->txw))) {
		hf_stat_inc(stats, HF_STAT_DROP_ACK_INVALID);
		hf_dev_stat_inc(peer->dstats, HF_DEV_STAT_DROPS);
		return;
	}
	hf_stat_inc(stats, HF_STAT_RX_ACKS);
	peer->answered = true;
	peer->last_active = jiffies;
	peer->tx_last_active = get_jiffies_64();
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
	peer->tx_last_active = get_jiffies_64();
	hf_rto_ack_progress(&peer->rto);
	if (hf_txwin_inflight(&peer->txw)) {
		hf_txwin_rto(&peer->txw);
		peer->rto_phase = HF_RTO_IDLE;
		hf_tx_resend(peer, HF_PUSH_BUDGET);
		hf_tx_rto_arm(peer);
	}
	hf_tx_push(peer);
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
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	const struct hf_ack_hdr *a = &h->ack;
	struct hf_txwin_ack_result res;
	struct hf_rto_params rp;
	u32 old_una = hf_txwin_una(&peer->txw);
	u32 old_high = peer->txw.high_sacked;
	u64 now = ktime_get_ns();
	u64 sample = 0, sent_ns = 0, wait;
	/* The round trip the time test allows for, before this ACK's sample. */
	u32 rack_rtt_us = hf_tx_rack_rtt_us(peer);
	struct hf_credit_params cp;
	struct hf_fsize_params fp;
	u64 late_sent_ns = 0, deliv_ns = 0, answer_ns = 0;
	u32 sample_seq = 0;
	bool complete = hf_txwin_blocks_complete(&peer->txw);
	bool repaired = false, early = false, took;
	unsigned int i;
	u32 seq;

	if (!peer->tx_epoch || a->epoch != peer->tx_epoch) {
		hf_stat_inc(stats, HF_STAT_DROP_EPOCH);
		hf_dev_stat_inc(peer->dstats, HF_DEV_STAT_DROPS);
		return;
	}
	if (h->flags & HF_AF_LOST) {
		hf_tx_lost(peer, a);
		return;
	}
	hf_stat_inc(stats, HF_STAT_RX_ACKS);
	/*
	 * The receiver names its state for our epoch in every ACK, the
	 * first one teaching it to us; an ACK naming another is not its
	 * own (a receiver that lost its state says LOST). It restarts
	 * nothing.
	 */
	if (!a->rx_state ||
	    (peer->tx_rx_state && a->rx_state != peer->tx_rx_state)) {
		hf_stat_inc(stats, HF_STAT_DROP_ACK_INVALID);
		hf_dev_stat_inc(peer->dstats, HF_DEV_STAT_DROPS);
		return;
	}
	/*
	 * A challenge is answered once: the receiver sends one for each
	 * segment of the first window, and each would resend the flight.
	 */
	if (h->flags & HF_AF_CHALLENGE) {
		if (!peer->tx_rx_state) {
			peer->tx_rx_state = a->rx_state;
			peer->answered = true;
			hf_tx_challenged(peer);
		}
		return;
	}
	peer->tx_rx_state = a->rx_state;
	peer->answered = true;
	/*
	 * The flow's own ACK: the receiver still holds its state. Forged
	 * ones (another epoch, above) must not keep a flow alive that the
	 * receiver has forgotten: the next message would go out in it and
	 * be refused as a lost state (ECONNRESET) instead of starting anew.
	 */
	peer->last_active = jiffies;
	peer->tx_last_active = get_jiffies_64();
	/* A repair the receiver already had: the window was too narrow. */
	if (h->flags & HF_AF_DUP) {
		hf_stat_inc(stats, HF_STAT_TX_SPURIOUS);
		peer->tx_spurious++;
		hf_reorder_spurious(&peer->reo, now, peer->rto.srtt_us);
	}

	/*
	 * The cumulative ack's round-trip sample, taken as Linux TCP does:
	 * from the latest segment it acks that was sent once and not SACKed
	 * before (whose ack only waited for a hole below it), and none at
	 * all when it acks a repair (Karn). Read before the scoreboard moves.
	 */
	if (!hf_seq_after(a->cum_seq, hf_txwin_nxt(&peer->txw)))
		for (seq = old_una; hf_seq_before(seq, a->cum_seq); seq++) {
			struct hf_tx_slot *slot = hf_tx_slot_of(peer, seq);
			bool sacked;

			if (!slot->msg)
				continue;
			sacked = hf_txwin_sacked(&peer->txw, seq);
			/* Shown arrived for the first time: RACK's candidate. */
			if (!sacked) {
				hf_tx_rack_candidate(peer, slot, now, &deliv_ns);
				answer_ns = max(answer_ns, slot->sent_ns);
			}
			if (slot->rexmit) {
				repaired = true;
			} else if (!sacked) {
				sent_ns = slot->sent_ns;
				sample_seq = seq;
				if (hf_seq_before(seq, peer->rto_nxt))
					early = true;
				/*
				 * Sent once, and segments sent after it had
				 * arrived first: how late it is says how
				 * much reordering the window must allow.
				 * Not when the last ACK could not name all
				 * it held: it may have come long ago.
				 */
				if (hf_seq_before(seq, old_high) && complete)
					hf_tx_late_candidate(slot, &late_sent_ns);
			}
		}
	/*
	 * The blocks' ends newly SACKed (a new block's start; the end a block
	 * grew to) show late arrivals too, when below the highest SACK and
	 * sent once; the highest SACK itself is RACK's candidate.
	 */
	for (i = 0; i < a->nsack; i++) {
		u32 ends[2] = { a->sack[i].start, a->sack[i].end - 1 };
		unsigned int e;

		for (e = 0; e < 2; e++) {
			const struct hf_tx_slot *slot;

			seq = ends[e];
			if (seq - old_una >= hf_txwin_inflight(&peer->txw) ||
			    hf_txwin_sacked(&peer->txw, seq))
				continue;
			slot = hf_tx_slot_of(peer, seq);
			if (!slot->msg)
				continue;
			answer_ns = max(answer_ns, slot->sent_ns);
			if (hf_seq_after(seq + 1, old_high))
				hf_tx_rack_candidate(peer, slot, now, &deliv_ns);
			if (complete && hf_seq_before(seq, old_high) &&
			    !slot->rexmit)
				hf_tx_late_candidate(slot, &late_sent_ns);
		}
	}
	/* A departure time still ahead: the qdisc sent it early. */
	if (sent_ns && !repaired && now > sent_ns)
		sample = now - sent_ns;

	hf_txwin_ack(&peer->txw, a->cum_seq, a->sack, a->nsack, &res);
	if (res.invalid) {
		hf_stat_add(stats, HF_STAT_DROP_ACK_INVALID, res.invalid);
		hf_dev_stat_add(peer->dstats, HF_DEV_STAT_DROPS, res.invalid);
	}
	/*
	 * An ack behind what was acknowledged already, or for segments never
	 * sent, says nothing about this flow: it proves neither progress nor
	 * outcomes, and must not reset the retry count.
	 */
	if (res.stale || hf_seq_after(a->cum_seq, hf_txwin_nxt(&peer->txw)))
		return;
	/* Candidates offered only once the ACK is known to be sound. */
	if (deliv_ns && !res.invalid)
		hf_reorder_delivered(&peer->reo, deliv_ns, now);
	/* The earliest sent of them was the latest. */
	if (late_sent_ns && now > late_sent_ns)
		hf_reorder_late(&peer->reo,
				div_u64(now - late_sent_ns, NSEC_PER_USEC),
				rack_rtt_us, peer->rto.min_rtt_us);
	hf_txwin_repairs_grant(&peer->txw, res.delivered,
			       peer->recovering || peer->reo_armed,
			       hf_tx_rto_confirmed(peer));
	/* Rounds of the frame-size controller end as the cumulative ack moves. */
	hf_fsize_params_read(peer->cfg, &fp);
	if (res.acked)
		hf_tx_fsize_note(peer, hf_fsize_on_ack(&peer->fsize, &fp, a->cum_seq,
						       now));

	for (seq = old_una; seq != hf_txwin_una(&peer->txw); seq++) {
		struct hf_tx_slot *slot = hf_tx_slot_of(peer, seq);

		if (!slot->msg)
			continue;
		hf_tx_msg_put(slot->msg);
		slot->msg = NULL;
	}
	/*
	 * The highest SACKed segment is the latest sent that arrived. Newly
	 * SACKed and sent once, it proves the path delivers, which ends a
	 * backoff: under loss, una often moves only past repairs, and
	 * without that a backed-off timer would stay for good. It is no
	 * sample of the smoothed round trip: SACKs name the lowest ranges
	 * first, so a segment is often reported late.
	 */
	/* The ACK takes something: it acks or newly SACKs a segment. */
	took = res.acked || peer->txw.high_sacked != old_high;
	if (hf_seq_after(peer->txw.high_sacked, hf_txwin_una(&peer->txw))) {
		const struct hf_tx_slot *slot;

		seq = peer->txw.high_sacked - 1;
		slot = hf_tx_slot_of(peer, seq);
		if (peer->txw.high_sacked != old_high) {
			if (!hf_txwin_retransmitted(&peer->txw, seq))
				hf_rto_backoff_end(&peer->rto);
			if (!slot->rexmit && hf_seq_before(seq, peer->rto_nxt))
				early = true;
		}
	}
	if (peer->rto_phase == HF_RTO_PROBE && took)
		hf_tx_rto_verdict(peer, early);
	/*
	 * F-RTO's second look: an original of the timer's flight that
	 * arrives after a verdict of loss shows the flight was late, not
	 * lost (reordering, a slow receiver). The rest goes back to the
	 * scoreboard's loss detection rather than out again in slow start.
	 */
	else if (early && hf_tx_rto_confirmed(peer))
		hf_tx_rto_verdict(peer, true);
	/*
	 * Whatever it took, the peer answered: the backoff falls to what the
	 * answer's own timing needs, none when it came within the timeout
	 * (core/hf_rto.c, note 4). A repair's ack is no sample (Karn), and
	 * without this a flow whose acks answer repairs only, as in a
	 * recovery, keeps the backoff of its timeouts for good.
	 */
	if (took)
		hf_rto_answered(&peer->rto, hf_rto_params_read(peer->cfg, &rp),
				answer_ns && now > answer_ns ?
				min_t(u64, div_u64(now - answer_ns, NSEC_PER_USEC),
				      U32_MAX) : 0);
	if (peer->recovering &&
	    !hf_seq_before(hf_txwin_una(&peer->txw), peer->recover)) {
		peer->recovering = false;
		hf_reorder_recovered(&peer->reo);
	}
	if (sample) {
		u32 rtt_us = min_t(u64, div_u64(sample, 1000), U32_MAX);

		hf_rto_sample(&peer->rto, hf_rto_params_read(peer->cfg, &rp), rtt_us);
		hf_tx_fsize_note(peer, hf_fsize_on_rtt(&peer->fsize, &fp, sample_seq,
						       rtt_us, peer->rto.min_rtt_us));
	}
	/*
	 * Any valid ACK proves the peer alive: the retry limit counts
	 * timeouts of a silent peer, not of a busy one (a receiver whose
	 * socket buffer is full answers, without taking the segment). For
	 * a closed socket's message only an ACK that takes something counts:
	 * a receiver that refuses it for good (its program stopped reading)
	 * must not keep it, its socket, their namespace and the module alive
	 * for good; the retry limit ends it.
	 */
	if (took || !hf_tx_orphaned(peer))
		hf_rto_ack_progress(&peer->rto);

	hf_tx_outcomes(peer, a);

	/*
	 * Credit: the largest limit granted counts (a late ACK's is stale).
	 * A receiver that refused a message for a full socket buffer says
	 * CLOSED until its program reads; sending meanwhile only makes it
	 * refuse more. Acks in the flow's order are not guaranteed, so a
	 * stale closing ack costs at most a probe.
	 */
	switch (hf_credit_grant_wire(&peer->tx_credit,
				     hf_credit_params_read(peer->cfg, &cp), a->credit,
				     now)) {
	case HF_CREDIT_NEW:
		peer->tx_probe_shift = 0;
		break;
	case HF_CREDIT_INVALID:
		hf_stat_inc(stats, HF_STAT_TX_CREDIT_INVALID);
		break;
	case HF_CREDIT_STALE:
		break;
	}
	/* An open window ends the persist backoff (hf_tx_rto_arm()). */
	if (peer->tx_zero_window && !(h->flags & HF_AF_CLOSED))
		peer->tx_probe_shift = 0;
	peer->tx_zero_window = h->flags & HF_AF_CLOSED;
	hf_tx_rate_hint(peer, a->rate_kbps);
	/*
	 * What is in flight now may be refused: its loss is flow control,
	 * not congestion, for the frame-size controller (hf_tx_loss_sign()).
	 */
	if (peer->tx_zero_window) {
		peer->tx_refused_end = hf_txwin_nxt(&peer->txw);
		peer->tx_refused_mark = true;
	} else if (peer->tx_refused_mark &&
		   !hf_seq_before(hf_txwin_una(&peer->txw), peer->tx_refused_end)) {
		peer->tx_refused_mark = false;
	}

	/* The receiver has room again for what it refused: resend now. */
	if (h->flags & HF_AF_WINDOW && hf_txwin_inflight(&peer->txw)) {
		hf_txwin_rto(&peer->txw);
		peer->rto_phase = HF_RTO_IDLE;
		peer->rto_nxt = hf_txwin_nxt(&peer->txw);
		hf_rto_backoff_end(&peer->rto);
		hf_stat_add(stats, HF_STAT_TX_WINDOW_RESENDS,
			    hf_tx_resend(peer, HF_PUSH_BUDGET));
		hf_tx_rto_arm(peer);
	}

	wait = hf_tx_repair(peer);
	hf_tx_push(peer);

	if (!hf_txwin_inflight(&peer->txw))
		hf_tx_persist(peer);
	else if (wait)
		hf_tx_reorder_arm(peer, wait);
	else if (res.acked)
		hf_tx_rto_arm(peer);
	hf_tx_answered_note(peer, took, now);
}

static void hf_tx_rto_expired(struct timer_list *t)
{
	struct hf_peer *peer = from_timer(peer, t, rto_timer);
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	struct hf_rto_params rp;
	bool give_up;
	u64 wait;

	spin_lock_bh(&peer->lock);
	if (peer->dead)
		goto out;
	peer->tx_persist_armed = false;
	if (!hf_txwin_inflight(&peer->txw)) {
		/*
		 * A zero window with nothing in flight to probe it: new data
		 * is the probe, one push (hf_tx_persist()).
		 */
		if (peer->tx_zero_window) {
			peer->tx_zero_window = false;
			hf_tx_push(peer);
		} else if (peer->tx_credit.stalled) {
			/* Credit stalled: one segment goes as a probe. */
			peer->tx_probing = true;
			hf_tx_push(peer);
			peer->tx_probing = false;
		}
		goto out;
	}

	if (peer->reo_armed) {
		/* Segments held back by the reordering window are due. */
		peer->reo_armed = false;
		wait = hf_tx_repair(peer);
		if (wait)
			hf_tx_reorder_arm(peer, wait);
		else
			hf_tx_rto_arm(peer);
		goto out;
	}

	hf_stat_inc(stats, HF_STAT_TX_RTO);
	/*
	 * Only closed sockets' messages, to a peer that never answered (an
	 * absent address): nobody waits for them, and their memory is not
	 * held for the whole retry limit. A few timeouts leave a real peer
	 * time to answer what a socket sent just before it closed.
	 */
	if (!peer->answered && peer->rto.retries >= HF_ORPHAN_RETRIES &&
	    hf_tx_all_orphaned(peer)) {
		hf_stat_add(stats, HF_STAT_TX_MSGS_ORPHANED,
			    hf_output_abort(peer, 0));
		goto out;
	}
	hf_rto_params_read(peer->cfg, &rp);
	/*
	 * A closed window: the flight waits for room, and the receiver
	 * answers. The timer is a persist timer (hf_tx_rto_arm()); the expiry
	 * counts towards the retry limit, for a receiver that went silent,
	 * but doubles the probe interval, not the RTO.
	 */
	if (peer->tx_zero_window) {
		if (peer->tx_probe_shift < HF_PROBE_SHIFT_MAX)
			peer->tx_probe_shift++;
		give_up = hf_rto_probe_timeout(&peer->rto, &rp);
	} else {
		give_up = hf_rto_timeout(&peer->rto, &rp);
	}
	if (give_up) {
		u32 epoch = peer->tx_epoch;
		u32 failed;

		/* The retry limit: the peer is unreachable. */
		failed = hf_output_abort(peer, EHOSTUNREACH);
		hf_genl_event_retry_limit(peer, epoch, failed);
		goto out;
	}
	/* A timeout is a loss sign to the frame-size controller too. */
	hf_tx_loss_sign(peer, hf_txwin_una(&peer->txw));
	/* The oldest segment alone: the next ACK says whether that was all. */
	hf_txwin_rto(&peer->txw);
	hf_tx_resend(peer, 1);
	peer->rto_phase = HF_RTO_PROBE;
	peer->rto_nxt = hf_txwin_nxt(&peer->txw);
	hf_tx_rto_arm(peer);
	hf_tx_answered_note(peer, false, ktime_get_ns());
out:
	if (!peer->dead)
		hf_tx_sending_update(peer);
	spin_unlock_bh(&peer->lock);
}

/**
 * hf_output_init() - set up the sending side of a new peer
 * @peer: the peer, not yet visible to anyone
 */
void hf_output_init(struct hf_peer *peer)
{
	struct hf_rto_params rp;

	INIT_LIST_HEAD(&peer->tx_queue);
	INIT_LIST_HEAD(&peer->tx_active);
	INIT_LIST_HEAD(&peer->tx_sent);
	hf_tx_txwin_init(peer);
	hf_rto_init(&peer->rto, hf_rto_params_read(peer->cfg, &rp));
	hf_reorder_init(&peer->reo);
	hf_tx_fsize_init(peer);
	timer_setup(&peer->rto_timer, hf_tx_rto_expired, 0);
	hrtimer_init(&peer->pace_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	peer->pace_timer.function = hf_tx_pace_expired;
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

	hf_tx_release_inflight(peer);
	list_splice_tail_init(&peer->tx_active, &peer->tx_sent);
	list_splice_tail_init(&peer->tx_queue, &peer->tx_sent);
	peer->tx_unstarted = 0;
	list_for_each_entry_safe(msg, tmp, &peer->tx_sent, node) {
		list_del(&msg->node);
		if (err)
			hf_tx_msg_fail(peer, msg, err);
		hf_tx_msg_put(msg);
		dropped++;
	}
	if (peer->tx_epoch)
		peer->tx_prev_epoch = peer->tx_epoch;
	peer->tx_epoch = 0;
	peer->tx_rx_state = 0;
	hf_tx_txwin_init(peer);
	peer->next_msg_id = 0;
	peer->tx_msg_done = 0;
	peer->frame_left = 0;
	/* Nothing waits for credit any more; the next epoch starts it anew. */
	hf_credit_stall_end(&peer->tx_credit, ktime_get_ns());
	peer->tx_persist_armed = false;
	peer->rto_phase = HF_RTO_IDLE;
	hf_rto_init(&peer->rto, hf_rto_params_read(peer->cfg, &rp));
	hf_tx_answered_note(peer, false, ktime_get_ns());
	del_timer(&peer->rto_timer);
	/* Under the lock it takes: if it runs, it finds nothing to send. */
	hrtimer_try_to_cancel(&peer->pace_timer);
	hf_tx_sending_update(peer);
	return dropped;
}

/**
 * hf_output_stop() - wait for the sending side's timer to finish
 * @peer: a dead peer; no lock held
 */
void hf_output_stop(struct hf_peer *peer)
{
	del_timer_sync(&peer->rto_timer);
	hrtimer_cancel(&peer->pace_timer);
}

/**
 * hf_output_idle() - whether nothing is queued or in flight to the peer
 * @peer: the peer; caller holds its lock
 *
 * Return: true when idle.
 */
bool hf_output_idle(const struct hf_peer *peer)
{
	return list_empty(&peer->tx_queue) && list_empty(&peer->tx_active) &&
	       list_empty(&peer->tx_sent) &&
	       !hf_txwin_inflight(&peer->txw);
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
	return peer->next_msg_id - peer->tx_msg_done + peer->tx_unstarted;
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
	u32 inflight = hf_txwin_inflight(&peer->txw);
	u32 seg_size = hf_seg_size(READ_ONCE(peer->dev->mtu));
	struct hf_fsize_params fp;
	struct hf_rto_params rp;
	u32 limit;

	hf_fsize_params_read(peer->cfg, &fp);
	limit = hf_tx_window(peer, &fp, seg_size, sk);
	info->hfi_flags |= HF_INFO_PEER;
	info->hfi_epoch = peer->tx_epoch;
	info->hfi_seg_size = seg_size;
	info->hfi_frame_segs = hf_fsize_segs(&peer->fsize, &fp);
	info->hfi_frame_bytes = info->hfi_frame_segs * seg_size;
	info->hfi_pacing_rate = hf_tx_pacing_rate(peer, sk);
	info->hfi_credit = inflight < limit ? limit - inflight : 0;
	info->hfi_inflight = inflight;
	info->hfi_srtt_us = peer->rto.srtt_us;
	info->hfi_rttvar_us = peer->rto.rttvar_us;
	info->hfi_min_rtt_us = peer->rto.min_rtt_us;
	info->hfi_rto_us = hf_rto_current_us(&peer->rto,
					     hf_rto_params_read(peer->cfg, &rp));
	info->hfi_reorder_us = hf_reorder_window_us(&peer->reo,
						    peer->rto.min_rtt_us,
						    peer->rto.srtt_us);
	info->hfi_backoff = peer->rto.backoff;
	info->hfi_retries = peer->rto.retries;
	info->hfi_tx_queued_msgs = hf_output_queued_msgs(peer);
	info->hfi_tx_segs = peer->tx_segs;
	info->hfi_retransmits = peer->tx_retransmits;
	info->hfi_spurious = peer->tx_spurious;
	info->hfi_rx_segs = peer->rx_segs;
	info->hfi_tx_bytes = peer->tx_bytes;
	info->hfi_rx_bytes = peer->rx_bytes;
	info->hfi_tx_frames = peer->tx_frames;
	info->hfi_peer_tx_msgs = peer->tx_msgs;
	info->hfi_tx_msgs_delivered = peer->tx_msgs_delivered;
	info->hfi_tx_msgs_failed = peer->tx_msgs_failed;
	info->hfi_rx_msgs = peer->rx_delivered;
	info->hfi_credit_bytes = hf_credit_avail(&peer->tx_credit);
	info->hfi_credit_stall_us =
		div_u64(hf_credit_stall_total_ns(&peer->tx_credit,
						 ktime_get_ns()), NSEC_PER_USEC);
	info->hfi_rx_credit = peer->rx_credit.limit > peer->rx_credit.received ?
			      peer->rx_credit.limit - peer->rx_credit.received : 0;
	info->hfi_rx_unread = peer->rx_credit.received - peer->rx_credit.consumed;
	info->hfi_rate_hint = peer->tx_rate_hint;
	info->hfi_link_share = hf_tx_link_share(peer);
	info->hfi_backoff_answered_us =
		div_u64(peer->tx_answered_total_ns +
			(peer->tx_answered_ns && peer->rto.backoff >= rp.max_backoff ?
			 ktime_get_ns() - peer->tx_answered_ns : 0),
			NSEC_PER_USEC);
}
