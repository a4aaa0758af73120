/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_train_skb.h - DATA segments and the trains and carriers that take a
 * frame's segments to the device as one skb (hf_train_skb.c).
 */
#ifndef _HF_TRAIN_SKB_H
#define _HF_TRAIN_SKB_H

#include <linux/skbuff.h>

#include "hf_msg.h"
#include "hf_peer.h"

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
struct hf_tx_train {
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

struct sk_buff *hf_tx_seg_build(struct hf_peer *peer, struct hf_tx_msg *msg,
				u32 index, u32 nsegs, u32 seq, u8 flags,
				 u32 frame_seq, u16 frame_segs);
int hf_tx_carrier_send(struct hf_peer *peer, struct hf_tx_train *t);
int hf_tx_train_send(struct hf_peer *peer, struct hf_tx_train *t);
u32 hf_tx_train_segs(const struct hf_peer *peer, u32 seg_size,
		     const struct sock *sk);
int hf_tx_train_add(struct hf_peer *peer, struct hf_tx_train *t,
		    struct hf_tx_msg *msg, u32 index, u32 seq, u8 flags);

#endif /* _HF_TRAIN_SKB_H */
