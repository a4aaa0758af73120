/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_input.h - the receiving side: the packet handler for the EtherType,
 * reassembly, in-order delivery and the ACKs that report it.
 */
#ifndef _HF_INPUT_H
#define _HF_INPUT_H

#include <linux/netdevice.h>

#include "hf_peer.h"

int hf_input_rcv(struct sk_buff *skb, struct net_device *dev,
		 struct packet_type *pt, struct net_device *orig_dev);
void hf_input_init(struct hf_peer *peer);
void hf_input_reset(struct hf_peer *peer);
void hf_input_stop(struct hf_peer *peer);
void hf_input_window_open(struct net *net);
void hf_input_read(struct net *net, const struct hf_skb_cb *cb, u32 len);
void hf_input_expire(struct hf_peer *peer);
void hf_input_sock_closed(struct net *net, const struct sock *sk);

#endif /* _HF_INPUT_H */
