/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_offload.h - trains: consecutive segments of a hyperframe as one
 * GSO skb, built by the sender, cut by the stack or split by the receiver.
 */
#ifndef _HF_OFFLOAD_H
#define _HF_OFFLOAD_H

#include <linux/skbuff.h>

#include "core/hf_wire.h"

struct net_device;

bool hf_train_fits(const struct net_device *dev, u32 len, u32 segs);
void hf_train_start(struct sk_buff *skb, u32 seg_len);
void hf_train_add(struct sk_buff *train, struct sk_buff *tail,
		  struct sk_buff *seg);
void hf_train_end(struct sk_buff *skb);
struct sk_buff *hf_train_split(struct sk_buff *skb);
void hf_train_seg_adopt(struct sk_buff *seg, struct net_device *dev,
			__be16 protocol, u8 pkt_type);
enum hf_wire_err hf_train_seg_decode(const struct sk_buff *skb, u32 off,
				     struct hf_hdr *h);
struct sk_buff *hf_train_next(struct sk_buff **list, struct net_device *dev,
			      __be16 protocol, u8 pkt_type);

void hf_offload_register(void);
void hf_offload_unregister(void);

#endif /* _HF_OFFLOAD_H */
