/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_ack.h - ACKs built and timed by the receiver, the answers to a
 * flow it does not hold, and ACKs applied by the sender (hf_ack.c).
 */
#ifndef _HF_ACK_H
#define _HF_ACK_H

#include <linux/timer.h>

#include "hf_peer.h"

/* A receiver ACKs at least every this many DATA segments. */
#define HF_ACK_EVERY	16
/* A challenge cookie holds for this bucket of time and the next. */
#define HF_COOKIE_BUCKET	(2 * HZ)

void hf_output_ack(struct hf_peer *peer, const struct hf_hdr *h);

void hf_rx_ack_timer_arm(struct hf_peer *peer);
void hf_rx_send_ack(struct hf_peer *peer, u8 flags);
void hf_rx_ack_timer(struct timer_list *t);
u32 hf_cookie(const struct net_device *dev, const u8 *addr, u32 epoch,
	      unsigned long bucket);
bool hf_cookie_valid(const struct net_device *dev, const u8 *addr, u32 epoch,
		     u32 echo);
u32 hf_rx_cookie(const struct hf_peer *peer, u32 epoch,
		 unsigned long bucket);
bool hf_reply_allowed(struct hf_reply_limit *l, bool lost);
bool hf_rx_reply_allowed(struct hf_peer *peer, bool lost);
bool hf_send_reply(struct net_device *dev, const u8 *addr, u32 epoch,
		   u32 state, u32 cum, u8 flags);
void hf_rx_send_reply(struct hf_peer *peer, u32 epoch, u32 state, u32 cum,
		      u8 flags);

#endif /* _HF_ACK_H */
