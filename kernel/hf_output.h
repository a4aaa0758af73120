/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_output.h - the sending side of a peer flow: messages in, segments
 * out, acks applied, losses repaired, outcomes reported.
 */
#ifndef _HF_OUTPUT_H
#define _HF_OUTPUT_H

#include <linux/hyperframe.h>
#include <linux/uio.h>

#include "hf_peer.h"

u64 hf_tx_msg_charge(size_t len);
struct hf_tx_msg *hf_tx_msg_alloc(struct sock *sk, struct iov_iter *from,
				  size_t len, u32 seg_size,
				  unsigned long mem_pages, int *err);
void hf_tx_msg_put(struct hf_tx_msg *msg);

void hf_output_init(struct hf_peer *peer);
int hf_output_prepare(struct hf_peer *peer);
void hf_output_queue(struct hf_peer *peer, struct hf_tx_msg *msg);
void hf_output_ack(struct hf_peer *peer, const struct hf_hdr *h);
u32 hf_output_abort(struct hf_peer *peer, int err);
void hf_output_stop(struct hf_peer *peer);
bool hf_output_idle(const struct hf_peer *peer);
u32 hf_output_queued_msgs(const struct hf_peer *peer);
void hf_output_info(const struct hf_peer *peer, const struct sock *sk,
		    struct hf_info *info);

int hf_xmit(struct hf_peer *peer, struct sk_buff *skb, u32 priority);

#endif /* _HF_OUTPUT_H */
