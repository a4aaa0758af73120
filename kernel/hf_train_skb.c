// SPDX-License-Identifier: GPL-2.0
/*
 * hf_train_skb.c - segments as skbs on their way out: a DATA segment built
 * over its message's pages, and the train that carries a frame's
 * segments as one skb (packed: one header and every payload; chained:
 * each segment on the first's frag_list), gathered per frame into a
 * carrier, so that the socket, the qdisc and the pacer handle a
 * hyperframe once. The GSO callbacks that cut a train for a device are
 * in hf_offload.c; the train layout itself in core/hf_train.c.
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

/* Headroom of a DATA segment: the device's, and two VLAN tags. */
#define HF_SEG_HEADROOM(dev)	(LL_RESERVED_SPACE(dev) + 2 * VLAN_HLEN)

/*
 * Build DATA segments @index to @index + @nsegs - 1 of @msg, sequence
 * numbers from @seq, as one skb: a lone segment when @nsegs is 1, else a
 * packed train (core/hf_train.h), its first segment's header and every
 * payload behind it. @flags: FRAME_START of the first, FRAME_END and
 * ACK_NOW of the last. The caller keeps the payload within MAX_SKB_FRAGS
 * pages (hf_tx_train_add()).
 */
struct sk_buff *hf_tx_seg_build(struct hf_peer *peer, struct hf_tx_msg *msg,
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
			.epoch = peer->out.epoch,
			.echo = peer->out.rx_state,
			.pred = msg->pred,
			.status_ask = peer->out.status_ask,
		},
	};
	struct sk_buff *skb;
	u8 *hdr;
	int nfrags = 0;

	lockdep_assert_held(&peer->lock);

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

	off += msg->page_off;
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

/*
 * Hand @skb, new DATA segments @seq to @seq + @segs - 1 of @msg, to the
 * device queue, paced as a whole. Return: hf_xmit()'s.
 */
static int hf_tx_data_xmit(struct hf_peer *peer, struct hf_tx_msg *msg,
			   struct sk_buff *skb, u32 seq, u32 segs)
{
	u64 departure;

	lockdep_assert_held(&peer->lock);

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
int hf_tx_carrier_send(struct hf_peer *peer, struct hf_tx_train *t)
{
	struct sk_buff *skb = t->carrier, *train, *next;
	u32 seq = t->carrier_seq, segs;
	int err, first;

	lockdep_assert_held(&peer->lock);

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
static int hf_tx_carry(struct hf_peer *peer, struct hf_tx_train *t,
		       struct sk_buff *skb, u32 segs, u8 flags)
{
	int err = 0, err2 = 0;

	lockdep_assert_held(&peer->lock);

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
int hf_tx_train_send(struct hf_peer *peer, struct hf_tx_train *t)
{
	struct sk_buff *skb = t->head;
	u32 segs = t->segs;

	lockdep_assert_held(&peer->lock);

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

	lockdep_assert_held(&peer->lock);

	if (!rate)
		return U32_MAX;
	return max_t(u64, div_u64(rate, MSEC_PER_SEC), 2 * seg_len);
}

/*
 * Segments of @seg_size one train to @peer may carry: what its device
 * takes whole (hf_train_fits(): within gso_max_size, link-layer header
 * included, and gso_max_segs) and what the pacing cap of @sk lets go in
 * one burst.
 */
u32 hf_tx_train_segs(const struct hf_peer *peer, u32 seg_size,
		     const struct sock *sk)
{
	u32 seg_len = seg_size + HF_DATA_HLEN;
	u32 room = hf_dev_gso_max_size(peer->dev);
	u32 hh = peer->dev->hard_header_len;
	u32 segs;

	lockdep_assert_held(&peer->lock);

	segs = room > hh + 1 ? (room - hh - 1) / seg_len : 0;
	segs = min(segs, READ_ONCE(peer->dev->gso_max_segs));
	segs = min_t(u64, segs,
		     div_u64(hf_tx_train_paced_max(peer, sk, seg_len), seg_len));
	return max(segs, 1U);
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
int hf_tx_train_add(struct hf_peer *peer, struct hf_tx_train *t,
		    struct hf_tx_msg *msg, u32 index, u32 seq, u8 flags)
{
	u32 hh = peer->dev->hard_header_len;
	u32 off = index * msg->seg_size;
	u32 payload = min(msg->len - off, msg->seg_size);
	u32 len = payload + (t->packed && t->segs ? 0 : HF_DATA_HLEN);
	struct sk_buff *skb = NULL;

	lockdep_assert_held(&peer->lock);

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
				      peer->out.frame.seq, peer->out.frame.segs);
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
		t->frame_seq = peer->out.frame.seq;
		t->frame_segs = peer->out.frame.segs;
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
