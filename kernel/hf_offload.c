// SPDX-License-Identifier: GPL-2.0
/*
 * hf_offload.c - hyperframe trains through the stack as one skb.
 *
 * A train is consecutive DATA segments of one hyperframe built as one
 * skb: the first segment is the head, the others hang on its frag_list,
 * each already a complete segment (header, payload frags) that only lacks
 * its link-layer header and, where the device computes it, its checksum.
 * It is marked SKB_GSO_FRAGLIST with ip_summed CHECKSUM_PARTIAL (design
 * note 1), so the socket, the qdisc and the pacer
 * handle it once and a device that advertises tx-gso-list (veth, the
 * bridge, loopback) carries it whole; for any other device the stack cuts
 * it at the device boundary through the gso_segment callback registered
 * here for the hyperframe EtherType, which copies the link-layer header in
 * front of each segment (skb_segment_list()) and, for a device that cannot
 * checksum, computes each segment's checksum; nothing else is rewritten,
 * so a cut train is byte for byte the segments it was built from.
 *
 * A carrier is the packed trains of one hyperframe as one skb, up to the
 * whole frame: the first train is the head, the others hang on its
 * frag_list (hf_train_add()), so the qdisc and the pacer take a
 * hyperframe once, however many trains the device's gso_max_size cuts it
 * into. It is marked as a train is; gso_features_check() refuses GSO to
 * one at or above the device's gso_max_size, so the stack hands it to
 * hf_gso_segment(), which takes the trains apart again (no copy) at the
 * device boundary and passes each one on whole or cut, as the device
 * takes it. The sender never queues one the device would carry whole
 * (hf_train_skb.c): XDP on the way could copy it into one buffer, where its
 * trains' bounds are lost. One that crossed whole all the same (the
 * device's gso_max_size raised meanwhile) is taken apart by the receiver
 * (hf_input.c).
 *
 * On the way in, the gro_receive and gro_complete callbacks registered
 * with it build the train again from the segments of one hyperframe that
 * a device delivered one by one (core/hf_gro.c decides which): the first
 * is held, the next ones hang on its frag_list, and the train goes up as
 * one skb marked as the sender's were, when its hyperframe ends, when a
 * segment comes that does not follow, or at the end of the NAPI poll.
 *
 * Design notes:
 * 1. Each segment's checksum is the Internet checksum of its header and
 *    payload, from the header (csum_start) into the field at
 *    HF_CSUM_OFFSET: exactly what CHECKSUM_PARTIAL asks of a
 *    NETIF_F_HW_CSUM device, which is the only kind that gets a train
 *    whole (harmonize_features() takes GSO away from a device that cannot
 *    checksum a protocol it does not know). So the sender never reads the
 *    payload to checksum it: a NIC computes it, the stack does for a
 *    device that cannot (one segment: skb_checksum_help(); the segments
 *    of a train: hf_gso_segment()), and a virtual link leaves it unfilled,
 *    which the receiver takes as what it is, a frame that crossed no
 *    wire (hf_csum_local()), as TCP does.
 * 2. The train stays below the device's gso_max_size and gso_max_segs
 *    (hf_train_fits()): a larger one would be cut in software even where
 *    the device could take it, which costs more than two smaller trains.
 * 3. A carrier is taken apart with skb_segment_list(), which gives each
 *    train the head's link-layer header and skb state (the departure
 *    time among it) and leaves the trains' own GSO marks alone. Whether
 *    a train then goes whole is asked of netif_skb_features() for it
 *    alone: the features the stack passed were computed for the carrier.
 * 4. GRO keeps a train within the device's gro_max_size (gro_ipv4_max_size
 *    since 6.3), 64 KiB unless raised: "ip link set dev X gro_max_size N"
 *    (or gro_ipv4_max_size) lets it grow to whole hyperframes. The
 *    segments are chained as they came, never copied or rewritten.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/gro.h>

#include "hf_compat.h"
#include "hf_gro.h"
#include "hf_net.h"
#include "hf_offload.h"
#include "hf_params.h"
#include "hf_train.h"

bool hf_packed_trains __read_mostly = true;

/*
 * Cut a packed train (core/hf_train.h) into the segments it stands for:
 * skb_segment() copies the link-layer and hyperframe headers in front of
 * each gso_size (seg_size) bytes of payload, sharing the pages where the
 * device can gather them and copying them where it cannot; each header
 * is then rewritten to its segment's own and its checksum left to the
 * device or computed here, as for a chained train's segments.
 */
static struct sk_buff *hf_gso_segment_packed(struct sk_buff *skb,
					     netdev_features_t features)
{
	struct sk_buff *segs, *seg;
	struct hf_hdr h, sh;
	u32 payload, nsegs, i = 0;
	u8 *hdr;

	if (hf_train_seg_decode(skb, 0, &h) ||
	    !(h.flags & HF_DF_PACKED) ||
	    hf_train_check(&h, skb->len - HF_DATA_HLEN, &nsegs) ||
	    skb_shinfo(skb)->gso_size != h.data.seg_size)
		return ERR_PTR(-EINVAL);
	payload = skb->len - HF_DATA_HLEN;
	if (!pskb_may_pull(skb, HF_DATA_HLEN))
		return ERR_PTR(-ENOMEM);
	__skb_pull(skb, HF_DATA_HLEN);
	/* One segment per gso_size, never a GSO_PARTIAL super-segment. */
	segs = skb_segment(skb, features & ~NETIF_F_GSO_PARTIAL);
	if (IS_ERR_OR_NULL(segs))
		return segs ?: ERR_PTR(-EINVAL);
	for (seg = segs; seg; seg = seg->next, i++) {
		if (i >= nsegs)
			goto bad;
		hf_train_seg(&h, payload, i, &sh);
		hdr = skb_network_header(seg);
		hf_hdr_encode(&sh, hdr, HF_DATA_HLEN);
		skb_set_transport_header(seg, skb_network_offset(seg));
		if (seg->ip_summed == CHECKSUM_PARTIAL) {
			/* The device sums header and payload: hf_csum_offload(). */
			seg->csum_start = skb_network_header(seg) - seg->head;
			seg->csum_offset = HF_CSUM_OFFSET;
		} else {
			__sum16 csum = csum_fold(csum_partial(hdr, HF_DATA_HLEN,
							      SKB_GSO_CB(seg)->csum));

			memcpy(hdr + HF_CSUM_OFFSET, &csum, sizeof(csum));
			seg->ip_summed = CHECKSUM_NONE;
		}
	}
	if (i != nsegs)
		goto bad;
	if (skb->dev)
		hf_stat_inc(&hf_net(dev_net(skb->dev))->stats,
			    HF_STAT_TX_SW_SEGMENTED);
	return segs;
bad:
	/* skb_segment() cut at gso_size, which was checked: cannot happen. */
	kfree_skb_list(segs);
	return ERR_PTR(-EINVAL);
}

/*
 * A train taken out of a carrier, as the device takes it: whole, when it
 * may; else cut (skb_gso_segment() calls hf_gso_segment() for it alone),
 * or for a lone segment its checksum computed when the device cannot.
 * Consumes @train. Return: the list that replaces it, or an ERR_PTR.
 */
static struct sk_buff *hf_carrier_train_out(struct sk_buff *train)
{
	netdev_features_t features = netif_skb_features(train);
	struct sk_buff *segs;
	int err;

	if (skb_is_gso(train)) {
		if (!netif_needs_gso(train, features))
			return train;
		segs = skb_gso_segment(train, features);
		if (IS_ERR_OR_NULL(segs)) {
			kfree_skb(train);
			return segs ?: ERR_PTR(-EINVAL);
		}
		consume_skb(train);
		return segs;
	}
	if (skb_needs_linearize(train, features) && __skb_linearize(train)) {
		kfree_skb(train);
		return ERR_PTR(-ENOMEM);
	}
	if (train->ip_summed == CHECKSUM_PARTIAL &&
	    !(features & NETIF_F_HW_CSUM)) {
		err = skb_checksum_help(train);
		if (err) {
			kfree_skb(train);
			return ERR_PTR(err);
		}
	}
	return train;
}

/*
 * Take a carrier apart at the device boundary into the trains it holds,
 * each with the head's link-layer header (design note 3), and pass each
 * on as the device takes it (hf_carrier_train_out()).
 */
static struct sk_buff *hf_gso_segment_carrier(struct sk_buff *skb)
{
	unsigned int hlen = skb_mac_header_len(skb);
	u32 head_segs = skb_shinfo(skb)->gso_segs;
	u16 stride = skb_shinfo(skb)->gso_size;
	struct sk_buff *trains, *train, *next, *out = NULL, *tail = NULL;
	unsigned int truesize = skb->truesize;
	u32 segs;

	skb_walk_frags(skb, train) {
		segs = hf_skb_segs(train);
		if (skb_network_offset(train) || skb_headroom(train) < hlen ||
		    segs >= head_segs)
			return ERR_PTR(-EINVAL);
		head_segs -= segs;
		truesize -= train->truesize;
	}
	/* Each train is linear where the device needs it: none does here. */
	trains = skb_segment_list(skb, NETIF_F_SG | NETIF_F_FRAGLIST, hlen);
	if (IS_ERR(trains))
		return trains;
	/*
	 * The head lost its GSO marks to skb_segment_list(), and 6.1's keeps
	 * the others' truesize in it: a train again, of its own size, which
	 * the receiver weighs against its payload.
	 */
	trains->truesize = truesize;
	if (head_segs > 1)
		hf_train_pack(trains, stride, head_segs);
	for (train = trains; train; train = next) {
		struct sk_buff *cut;

		next = train->next;
		train->next = NULL;
		cut = hf_carrier_train_out(train);
		if (IS_ERR(cut)) {
			kfree_skb_list(out);
			kfree_skb_list(next);
			return cut;
		}
		if (tail)
			tail->next = cut;
		else
			out = cut;
		for (tail = cut; tail->next; tail = tail->next)
			;
	}
	/* Where the stack looks for the last (validate_xmit_skb_list()). */
	out->prev = tail;
	if (skb->dev)
		hf_stat_inc(&hf_net(dev_net(skb->dev))->stats,
			    HF_STAT_TX_CARRIERS_SPLIT);
	return out;
}

/**
 * hf_gso_room() - room in front of each segment of a train about to be cut
 * @skb: the train, a chained one
 * @room: the bytes each segment needs in front of its hyperframe header
 *
 * Softirq or process context, from GSO. skb_segment_list() writes the
 * link-layer header in front of each segment unchecked and, inside a
 * tunnel, the outer headers before it, which the stack then pushes. The
 * sender's segments have the room; a train GRO built from another
 * device's skbs and forwarded into a tunnel by a bridge may not (a tap's
 * segments have 78 bytes where VXLAN over IPv6 wants 84). Each segment
 * short of it gets a head of its own. A shared segment is cloned first,
 * as skb_segment_list() does: it is still on the frag_list of a clone of
 * the train, whose links are left alone.
 *
 * Return: 0, or -ENOMEM with the train whole (the caller frees it).
 */
static int hf_gso_room(struct sk_buff *skb, unsigned int room)
{
	struct sk_buff *seg, **link;
	unsigned int truesize;
	int err;

	skb_walk_frags(skb, seg)
		if (skb_headroom(seg) < room)
			goto cow;
	return 0;
cow:
	/* A cloned head shares its frag_list: ours is made our own. */
	err = skb_unclone(skb, GFP_ATOMIC);
	if (err)
		return err;
	for (link = &skb_shinfo(skb)->frag_list; (seg = *link);
	     link = &seg->next) {
		if (skb_shared(seg)) {
			struct sk_buff *own = skb_clone(seg, GFP_ATOMIC);

			if (!own)
				return -ENOMEM;
			own->next = seg->next;
			*link = own;
			consume_skb(seg);
			seg = own;
		}
		if (skb_headroom(seg) >= room)
			continue;
		truesize = seg->truesize;
		err = skb_cow_head(seg, room);
		if (err)
			return err;
		skb->truesize += seg->truesize - truesize;
	}
	return 0;
}

/**
 * hf_gso_segment() - cut a train for a device that cannot carry it whole
 * @skb: the train (chained, packed or a carrier), data at its hyperframe
 *	 header, its link-layer header in front
 * @features: what the device it leaves by can do
 *
 * Softirq or process context: the gso_segment of the EtherType's offload.
 *
 * Return: the list of segments, or an ERR_PTR() (the caller frees @skb).
 */
static struct sk_buff *hf_gso_segment(struct sk_buff *skb,
				      netdev_features_t features)
{
	unsigned int hlen = skb_mac_header_len(skb);
	struct sk_buff *segs, *seg;
	int err;

	if (!(skb_shinfo(skb)->gso_type & SKB_GSO_FRAGLIST))
		return ERR_PTR(-EINVAL);
	if (!skb_has_frag_list(skb))
		return hf_gso_segment_packed(skb, features);
	if (hf_train_is_carrier(skb))
		return hf_gso_segment_carrier(skb);
	/*
	 * Each segment gets the head's link-layer header pushed in front of
	 * its network header, VLAN tags included; one whose network header
	 * is not its hyperframe header (where the sender and GRO put it)
	 * would be cut wrong.
	 */
	skb_walk_frags(skb, seg)
		if (skb_network_offset(seg))
			return ERR_PTR(-EINVAL);
	err = hf_gso_room(skb, hlen + skb_tnl_header_len(skb));
	if (err)
		return ERR_PTR(err);
	segs = skb_segment_list(skb, features, hlen);
	if (IS_ERR(segs))
		return segs;
	/*
	 * The stack leaves the checksum of segments to the device (no
	 * skb_checksum_help() after GSO): one that cannot compute it gets
	 * each computed here.
	 */
	if (!(features & NETIF_F_HW_CSUM)) {
		for (seg = segs; seg; seg = seg->next) {
			if (seg->ip_summed != CHECKSUM_PARTIAL)
				continue;
			err = skb_checksum_help(seg);
			if (err) {
				/*
				 * segs is @skb with a reference of its own
				 * (skb_segment_list()); the caller frees @skb.
				 */
				kfree_skb_list(segs->next);
				segs->next = NULL;
				consume_skb(segs);
				return ERR_PTR(err);
			}
		}
	}
	if (skb->dev)
		hf_stat_inc(&hf_net(dev_net(skb->dev))->stats,
			    HF_STAT_TX_SW_SEGMENTED);
	return segs;
}

/**
 * hf_train_seg_decode() - decode the header of a segment of a train
 * @skb: the skb that holds it, linear or not
 * @off: where the header starts in @skb
 * @h: the decoded header
 *
 * Any context. Only DATA travels in trains: the header is read as one,
 * and the decoder checks its payload against what is left of @skb.
 *
 * Return: HF_WERR_OK; HF_WERR_SHORT when a DATA header does not fit;
 * HF_WERR_TYPE for any other type; or the decoder's verdict.
 */
enum hf_wire_err hf_train_seg_decode(const struct sk_buff *skb, u32 off,
				     struct hf_hdr *h)
{
	u8 buf[HF_DATA_HLEN];
	const u8 *p;

	if (off > skb->len || skb->len - off < HF_DATA_HLEN)
		return HF_WERR_SHORT;
	p = skb_header_pointer(skb, off, HF_DATA_HLEN, buf);
	if (!p)
		return HF_WERR_SHORT;
	if ((p[0] & 0x0f) != HF_TYPE_DATA)
		return HF_WERR_TYPE;
	return hf_hdr_decode(p, skb->len - off, h);
}

/**
 * hf_gro_csum_ok() - whether a segment's checksum is known to be good
 * @skb: a DATA segment in GRO, from its GRO offset to its end
 *
 * Softirq, from gro_receive. Known good, as it must be for @skb to join a
 * train: left to a device by a local sender (hf_csum_local()); verified by
 * the device (CHECKSUM_UNNECESSARY), or here, against the sum of a device
 * that summed the frame (CHECKSUM_COMPLETE: GRO keeps it from its offset
 * on, past a VLAN tag) or, for any other, computed. One found good is
 * marked CHECKSUM_UNNECESSARY, so that it is not computed twice here, and
 * so that a train is marked verified (hf_gro_complete()) only when each of
 * its segments was. Zero padding, which Ethernet adds to short frames,
 * does not change the sum; other padding makes a good segment fail here,
 * and it goes up alone, where the handler verifies it without its padding.
 *
 * Return: true when good (@skb is then CHECKSUM_UNNECESSARY or PARTIAL).
 */
static bool hf_gro_csum_ok(struct sk_buff *skb)
{
	switch (skb->ip_summed) {
	case CHECKSUM_PARTIAL:
	case CHECKSUM_UNNECESSARY:
		return true;
	case CHECKSUM_COMPLETE:
		if (NAPI_GRO_CB(skb)->csum_valid &&
		    !csum_fold(NAPI_GRO_CB(skb)->csum))
			goto good;
		break;
	}
	if (csum_fold(skb_checksum(skb, skb_gro_offset(skb), skb_gro_len(skb), 0)))
		return false;
good:
	skb->ip_summed = CHECKSUM_UNNECESSARY;
	skb->csum_level = 0;
	return true;
}

/**
 * hf_gro_pull() - take a segment's headers off up to its hyperframe header
 * @skb: a DATA segment in GRO, about to be appended to a train
 * @off: its GRO offset, where its hyperframe header starts
 *
 * Softirq, from gro_receive. @skb then starts at its hyperframe header as
 * a train's segments do. The headers in front of it may lie outside its
 * linear area (past the Ethernet header a driver that builds skbs in page
 * frags leaves nothing there, and GRO read a VLAN tag through its frag0
 * fast path): they are pulled in first, after which the fast path no
 * longer describes the skb (as skb_gro_header_slow() knows). The segment's
 * network header is its hyperframe header, where hf_gso_segment() takes it
 * to be when a forwarded train is cut.
 *
 * Return: false when they could not be pulled in (the skb is unchanged
 * and goes up alone).
 */
static bool hf_gro_pull(struct sk_buff *skb, unsigned int off)
{
	if (skb_headlen(skb) < off) {
		if (!pskb_may_pull(skb, off))
			return false;
		NAPI_GRO_CB(skb)->frag0 = NULL;
		NAPI_GRO_CB(skb)->frag0_len = 0;
	}
	__skb_pull(skb, off);
	skb_reset_network_header(skb);
	skb_reset_transport_header(skb);
	return true;
}

/*
 * GRO: @skb arrived; @head holds what this NAPI instance keeps back, the
 * ones with the same link-layer header, device and VLAN marked same_flow
 * (one peer flow). Returns the held train to send up now, if any. @skb
 * is either appended to the train (same_flow), held as the start of one
 * (neither same_flow nor flush), or sent up alone after it (flush).
 * Inside a tunnel (encap_mark: GRO took outer headers apart) nothing is
 * merged: the train's GSO type would overwrite the tunnel's.
 */
static struct sk_buff *hf_gro_receive(struct list_head *head,
				      struct sk_buff *skb)
{
	unsigned int off = skb_gro_offset(skb);
	struct sk_buff *p, *last;
	struct hf_hdr h, lh;

	/*
	 * A train that came whole, chained (frag_list) or packed, is not cut
	 * or added to.
	 */
	if (NAPI_GRO_CB(skb)->flush || NAPI_GRO_CB(skb)->encap_mark ||
	    skb_is_gso(skb) || hf_train_seg_decode(skb, off, &h) ||
	    (h.flags & HF_DF_PACKED))
		goto alone;

	list_for_each_entry(p, head, list) {
		if (!NAPI_GRO_CB(p)->same_flow)
			continue;
		/*
		 * The head keeps its header at its GRO offset (past a VLAN
		 * tag GRO took apart); a segment appended was pulled to it.
		 */
		last = NAPI_GRO_CB(p)->last;
		if (hf_train_seg_decode(last, last == p ? skb_gro_offset(p) : 0, &lh) ||
		    !hf_gro_follows(&lh, &h) ||
		    hf_csum_local(p) != hf_csum_local(skb) ||
		    p->len + skb_gro_len(skb) > hf_dev_gro_max_size(p->dev)) {
			/* The flow goes on otherwise: the train goes up first. */
			NAPI_GRO_CB(skb)->flush |= !hf_gro_holds(&h);
			return p;
		}
		/* One that fails its checksum goes up alone, after the train. */
		if (!hf_gro_csum_ok(skb)) {
			NAPI_GRO_CB(skb)->flush = 1;
			return p;
		}
		/*
		 * A lone segment held is verified once one follows it: if it
		 * fails, it goes up alone, and @skb may start a train.
		 */
		if (last == p && !hf_gro_csum_ok(p)) {
			NAPI_GRO_CB(skb)->flush |= !hf_gro_holds(&h);
			return p;
		}
		/* Pulled only now: one that goes up alone keeps its headers. */
		if (!hf_gro_pull(skb, off)) {
			NAPI_GRO_CB(skb)->flush = 1;
			return p;
		}
		if (last == p)
			skb_shinfo(p)->frag_list = skb;
		else
			last->next = skb;
		NAPI_GRO_CB(p)->last = skb;
		NAPI_GRO_CB(p)->count++;
		p->data_len += skb->len;
		p->len += skb->len;
		/*
		 * As skb_gro_receive_list(): the head takes over what the
		 * segment is charged to its owner (a tap's socket), and
		 * gives it all back as one (hf_skb_unchain(), or its free).
		 */
		skb->destructor = NULL;
		skb->sk = NULL;
		p->truesize += skb->truesize;
		NAPI_GRO_CB(skb)->same_flow = 1;
		return hf_gro_holds(&h) ? NULL : p;
	}
	if (hf_gro_holds(&h))
		return NULL;
alone:
	NAPI_GRO_CB(skb)->flush = 1;
	return NULL;
}

/*
 * GRO: a train of more than one segment goes up. Mark it as the sender
 * marks its trains, so that the packet handler splits it and a device it
 * is forwarded to carries or cuts it (hf_gso_segment()). Its segments are
 * alike: all left to a device (CHECKSUM_PARTIAL), or all verified as they
 * joined it (CHECKSUM_UNNECESSARY: hf_gro_csum_ok()), which a cut copies
 * from the head to each (hf_gro_receive() merges no others).
 */
static int hf_gro_complete(struct sk_buff *skb, int nhoff)
{
	struct skb_shared_info *shinfo = skb_shinfo(skb);
	struct hf_stats *stats = &hf_net(dev_net(skb->dev))->stats;

	shinfo->gso_type = SKB_GSO_FRAGLIST;
	shinfo->gso_segs = NAPI_GRO_CB(skb)->count;
	hf_stat_inc(stats, HF_STAT_RX_GRO_TRAINS);
	hf_stat_add(stats, HF_STAT_RX_GRO_SEGS, shinfo->gso_segs);
	return 0;
}

static struct packet_offload hf_offload __read_mostly = {
	.callbacks = {
		.gso_segment = hf_gso_segment,
		.gro_receive = hf_gro_receive,
		.gro_complete = hf_gro_complete,
	},
};

/**
 * hf_train_fits() - whether a train may grow to @len bytes and @segs segments
 * @dev: the device it leaves by
 * @len: its length with the link-layer header
 * @segs: its segments
 *
 * Any context.
 *
 * Return: true when @dev takes it whole if it can take trains at all.
 */
bool hf_train_fits(const struct net_device *dev, u32 len, u32 segs)
{
	return len < hf_dev_gso_max_size(dev) &&
	       segs <= READ_ONCE(dev->gso_max_segs);
}

/**
 * hf_train_add() - append a segment to a train, or a train to a carrier
 * @train: the head: a chained train's first segment, or a carrier's
 *	   first packed train
 * @tail: the last skb on its frag_list, or NULL for none yet
 * @seg: a lone segment, or for a carrier the next packed train of the
 *	 frame; data at its hyperframe header, owned by @train from now on
 *
 * Any context. The head counts the segments of all it holds, so that the
 * qdisc and the pacer count it as the wire packets it becomes; the caller
 * keeps that count within a u16 (gso_segs).
 */
void hf_train_add(struct sk_buff *train, struct sk_buff *tail,
		  struct sk_buff *seg)
{
	if (tail)
		tail->next = seg;
	else
		skb_shinfo(train)->frag_list = seg;
	train->len += seg->len;
	train->data_len += seg->len;
	train->truesize += seg->truesize;
	skb_shinfo(train)->gso_segs += hf_skb_segs(seg);
}

/**
 * hf_train_start() - make a segment the head of a train
 * @skb: the first segment, hyperframe header at skb->data
 * @seg_len: its length: header and payload (the wire segment size)
 *
 * Any context. Segments are marked alike, so that each is one when the
 * train is cut (skb_segment_list() copies the head's state to all).
 */
void hf_train_start(struct sk_buff *skb, u32 seg_len)
{
	struct skb_shared_info *shinfo = skb_shinfo(skb);

	shinfo->gso_size = seg_len;
	shinfo->gso_segs = 1;
	shinfo->gso_type = SKB_GSO_FRAGLIST;
}

/**
 * hf_train_pack() - mark a packed train as one GSO skb
 * @skb: the train: its first segment's header at skb->data, HF_DF_PACKED
 *	 set, then the payload of @nsegs segments in page frags
 * @seg_size: the message's segment stride, the payload per segment
 * @nsegs: the segments it stands for, at least 2
 *
 * Any context. Marked as a chained train is, so that the same devices
 * carry it whole; the cut (hf_gso_segment_packed()) takes gso_size bytes
 * of payload per segment.
 */
void hf_train_pack(struct sk_buff *skb, u32 seg_size, u32 nsegs)
{
	struct skb_shared_info *shinfo = skb_shinfo(skb);

	shinfo->gso_size = seg_size;
	shinfo->gso_segs = nsegs;
	shinfo->gso_type = SKB_GSO_FRAGLIST;
}

/**
 * hf_train_end() - a train of one segment is a plain segment again
 * @skb: the train
 *
 * Any context.
 */
void hf_train_end(struct sk_buff *skb)
{
	if (skb_shinfo(skb)->gso_segs == 1)
		skb_gso_reset(skb);
}

/**
 * hf_skb_unchain() - take the skbs off a frame's frag_list
 * @skb: a train or a carrier, not shared
 * @segs: set to the wire segments the skbs taken off stand for
 *
 * Any context. @skb keeps its own data and frags, and no owner; its
 * length and truesize lose what the skbs taken off held, its GSO state
 * is the caller's to fix.
 *
 * Return: the skbs, in order, linked by ->next.
 */
struct sk_buff *hf_skb_unchain(struct sk_buff *skb, u32 *segs)
{
	struct sk_buff *list, *p;
	u32 len = 0, truesize = 0;

	/*
	 * What the head holds for its owner, its segments' included (GRO
	 * made it theirs, hf_gro_receive()), goes back before it shrinks.
	 */
	skb_orphan(skb);
	*segs = 0;
	list = skb_shinfo(skb)->frag_list;
	skb_shinfo(skb)->frag_list = NULL;
	for (p = list; p; p = p->next) {
		len += p->len;
		truesize += p->truesize;
		*segs += hf_skb_segs(p);
	}
	skb->len -= len;
	skb->data_len -= len;
	if (skb->truesize > truesize + skb->len)
		skb->truesize -= truesize;
	return list;
}

/**
 * hf_train_split() - take a train a device carried whole apart
 * @skb: the train, not shared; its head becomes the first segment alone
 *
 * Softirq context. The segments are handed back in order, each its own
 * skb with the head's device, protocol and packet type, data at its
 * hyperframe header.
 *
 * Return: the segments after the head, or an ERR_PTR when the head could
 * not be made private (the caller drops the train).
 */
struct sk_buff *hf_train_split(struct sk_buff *skb)
{
	struct sk_buff *list;
	u32 segs;

	if (skb_unclone(skb, GFP_ATOMIC))
		return ERR_PTR(-ENOMEM);
	list = hf_skb_unchain(skb, &segs);
	skb_gso_reset(skb);
	return list;
}

/**
 * hf_train_seg_adopt() - make a segment taken out of a train a frame of
 * its own, as if it had arrived alone
 * @seg: the segment, private, data at its hyperframe header
 * @dev: the device the train arrived on
 * @protocol: its EtherType, network order
 * @pkt_type: its packet type
 *
 * Any context.
 */
void hf_train_seg_adopt(struct sk_buff *seg, struct net_device *dev,
			__be16 protocol, u8 pkt_type)
{
	seg->dev = dev;
	seg->protocol = protocol;
	seg->pkt_type = pkt_type;
	skb_reset_network_header(seg);
}

/**
 * hf_train_next() - the next segment of a split train, made private
 * @list: in: the segments left; out: those after the one returned
 * @dev: the device the train arrived on
 * @protocol: its EtherType, network order
 * @pkt_type: its packet type
 *
 * Softirq context. The head's state is passed by value: it may be gone.
 *
 * Return: the segment, or NULL when the list is empty. A segment that
 * could not be made private is freed and counted, and the next returned.
 */
struct sk_buff *hf_train_next(struct sk_buff **list, struct net_device *dev,
			      __be16 protocol, u8 pkt_type)
{
	struct sk_buff *seg;

	while ((seg = *list)) {
		*list = seg->next;
		/*
		 * A shared segment is still on the frag_list of a clone of
		 * the train (a packet socket's, a bridge's flooded copy):
		 * its ->next is that list's, left alone (cut, the clone
		 * would be shorter than its length says and leak the rest).
		 */
		if (skb_shared(seg)) {
			struct sk_buff *own = skb_clone(seg, GFP_ATOMIC);

			consume_skb(seg);
			seg = own;
			if (!seg) {
				hf_stat_inc(&hf_net(dev_net(dev))->stats,
					    HF_STAT_DROP_MEMORY);
				continue;
			}
		} else {
			seg->next = NULL;
		}
		hf_train_seg_adopt(seg, dev, protocol, pkt_type);
		return seg;
	}
	return NULL;
}

/**
 * hf_offload_register() - cut trains for devices that cannot carry them,
 * and build them again from segments that arrive one by one
 *
 * Process context, module init.
 */
void hf_offload_register(void)
{
	hf_offload.type = hf_ethertype();
	dev_add_offload(&hf_offload);
}

/**
 * hf_offload_unregister() - the reverse; waits for callers to leave
 *
 * Process context, module exit or init failure.
 */
void hf_offload_unregister(void)
{
	/* dev_remove_offload() waits for a grace period itself. */
	dev_remove_offload(&hf_offload);
}
