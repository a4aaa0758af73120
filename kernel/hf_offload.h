/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_offload.h - trains: consecutive segments of a hyperframe as one
 * GSO skb, chained or packed, and carriers: the trains of a hyperframe as
 * one skb; built by the sender, cut by the stack or split by the
 * receiver.
 */
#ifndef _HF_OFFLOAD_H
#define _HF_OFFLOAD_H

#include <linux/skbuff.h>

#include "core/hf_wire.h"

struct net_device;

extern bool hf_packed_trains;

bool hf_train_fits(const struct net_device *dev, u32 len, u32 segs);
void hf_train_start(struct sk_buff *skb, u32 seg_len);
void hf_train_add(struct sk_buff *train, struct sk_buff *tail,
		  struct sk_buff *seg);
void hf_train_end(struct sk_buff *skb);
void hf_train_pack(struct sk_buff *skb, u32 seg_size, u32 nsegs);
struct sk_buff *hf_skb_unchain(struct sk_buff *skb, u32 *segs);
struct sk_buff *hf_train_split(struct sk_buff *skb);
void hf_train_seg_adopt(struct sk_buff *seg, struct net_device *dev,
			__be16 protocol, u8 pkt_type);
enum hf_wire_err hf_train_seg_decode(const struct sk_buff *skb, u32 off,
				     struct hf_hdr *h);
struct sk_buff *hf_train_next(struct sk_buff **list, struct net_device *dev,
			      __be16 protocol, u8 pkt_type);

/**
 * hf_skb_segs() - wire packets an skb stands for
 * @skb: any skb to be sent: a lone segment, a train or a carrier of
 *	 this host's, or another protocol's (TCP's GSO skb, say)
 *
 * Any context. A GSO skb counts its segments, as tc's packet count does.
 *
 * Return: the number of wire packets.
 */
static inline u32 hf_skb_segs(const struct sk_buff *skb)
{
	return skb_is_gso(skb) ? skb_shinfo(skb)->gso_segs : 1;
}

/**
 * hf_train_is_carrier() - whether an skb is a carrier: the trains of one
 * hyperframe as one skb (hf_train_add())
 * @skb: a frame, hyperframe header at skb->data
 *
 * Any context. A carrier's head is a packed train, and the others hang on
 * its frag_list; a chained train's head is a lone segment's header, and
 * a driver's frag_list skb is no GSO skb.
 *
 * Return: true for a carrier.
 */
static inline bool hf_train_is_carrier(const struct sk_buff *skb)
{
	u8 buf[2];
	const u8 *p;

	if (!skb_is_gso(skb) || !skb_has_frag_list(skb))
		return false;
	p = skb_header_pointer(skb, 0, sizeof(buf), buf);
	return p && (p[0] & 0x0f) == HF_TYPE_DATA && (p[1] & HF_DF_PACKED);
}

/**
 * hf_train_wire_len() - bytes a sent frame takes on the wire
 * @skb: a frame built by this host, without its link-layer header: a
 *	 lone segment, a train (chained or packed) or a carrier
 * @hh: the device's link-layer header length
 *
 * Any context. Every segment pays a link-layer header, and a hyperframe
 * header too: the head and each skb on its frag_list (a chained train's
 * segments, a carrier's trains) hold one; a packed train's other
 * segments have theirs implied.
 *
 * Return: the bytes it takes on the wire.
 */
static inline u32 hf_train_wire_len(const struct sk_buff *skb, u32 hh)
{
	u32 segs = hf_skb_segs(skb);
	const struct sk_buff *p;
	u32 held = 1;

	skb_walk_frags(skb, p)
		held++;
	return skb->len + segs * hh +
	       (segs > held ? (segs - held) * HF_DATA_HLEN : 0);
}

/**
 * hf_csum_offload() - leave a frame's checksum to the device
 * @skb: a DATA segment, hyperframe header linear at skb->data, its
 *	 checksum field 0
 *
 * Any context. The checksum is the Internet checksum of the header and
 * payload, the form NETIF_F_HW_CSUM devices compute from csum_start and
 * store at csum_offset; for any other device the stack computes it in
 * software (skb_checksum_help(), or hf_gso_segment() for a train's
 * segments). A virtual link (veth, the bridge) never fills it: the frame
 * arrives CHECKSUM_PARTIAL, and hf_csum_local() says so.
 */
static inline void hf_csum_offload(struct sk_buff *skb)
{
	skb->ip_summed = CHECKSUM_PARTIAL;
	skb->csum_start = skb_headroom(skb);
	skb->csum_offset = HF_CSUM_OFFSET;
}

/**
 * hf_csum_local() - whether a frame that arrived still has its checksum
 * left to a device: it crossed no wire
 * @skb: the frame
 *
 * Any context. A Linux host fills the checksum in before any physical
 * device, so a CHECKSUM_PARTIAL frame comes from this kernel's sockets
 * over a virtual link, or from a co-resident guest or local process that
 * handed it over the same way (virtio-net, tun/tap or AF_PACKET with a
 * vnet header asking for it): nothing on the way could corrupt it but
 * memory, and its field is 0, so it is taken as TCP takes such an skb
 * (skb_csum_unnecessary()). A checksum is no authentication: whoever can
 * hand over such a frame could as well have computed a valid one.
 *
 * Return: true when its checksum need not be verified.
 */
static inline bool hf_csum_local(const struct sk_buff *skb)
{
	return skb->ip_summed == CHECKSUM_PARTIAL;
}

void hf_offload_register(void);
void hf_offload_unregister(void);

#endif /* _HF_OFFLOAD_H */
