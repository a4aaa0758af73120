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

/* Segments one push sends at most, and what a window's resend does. */
#define HF_PUSH_BUDGET		64

void hf_output_init(struct hf_peer *peer);
int hf_output_prepare(struct hf_peer *peer);
void hf_output_queue(struct hf_peer *peer, struct hf_tx_msg *msg);
u32 hf_output_abort(struct hf_peer *peer, int err);
void hf_output_stop(struct hf_peer *peer);
bool hf_output_idle(const struct hf_peer *peer);
u32 hf_output_queued_msgs(const struct hf_peer *peer);
void hf_output_info(const struct hf_peer *peer, const struct sock *sk,
		    struct hf_info *info);

int hf_xmit_to(struct net_device *dev, const u8 *addr, struct sk_buff *skb,
	       u32 priority);
int hf_xmit(struct hf_peer *peer, struct sk_buff *skb, u32 priority);

/* The slot of sequence number @seq: the window is a ring of HF_WIN_SEGS. */
static inline struct hf_tx_slot *hf_tx_slot_of(struct hf_peer *peer, u32 seq)
{
	return &peer->out.ring->slots[seq & (HF_WIN_SEGS - 1)];
}

void hf_tx_fsize_note(struct hf_peer *peer, unsigned int changed);
void hf_tx_loss_sign(struct hf_peer *peer, u32 seq);
void hf_tx_timeout_sign(struct hf_peer *peer, u32 seq, bool repeat);
void hf_tx_restart(struct hf_peer *peer);

void hf_tx_push(struct hf_peer *peer);

#endif /* _HF_OUTPUT_H */
