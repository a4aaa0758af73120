/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_pacing.h - departure times, the socket's and the path's pacing
 * rates, rate hints and the pace timer (hf_pacing.c).
 */
#ifndef _HF_PACING_H
#define _HF_PACING_H

#include <linux/hrtimer.h>

#include "hf_msg.h"
#include "hf_peer.h"

/*
 * How far ahead a socket's or a path's pacing may run: hf_tx_sock_ahead().
 * It is what stands queued in an EDT qdisc, and in hfq's data band at its
 * device rate, before the next push: a small message of another socket
 * waits behind at most that much. Measured beside 64 KiB bulk at 20
 * Mbit/s: 64-byte round trips p50 4 ms with 2 ms, 13 ms with 10 ms.
 */
#define HF_PACE_AHEAD_NS	(2 * NSEC_PER_MSEC)

void hf_tx_sending_update(struct hf_peer *peer);
u64 hf_tx_link_share(const struct hf_peer *peer);
u64 hf_tx_path_rate(const struct hf_peer *peer);
u64 hf_tx_pacing_rate(const struct hf_peer *peer, const struct sock *sk);
void hf_tx_rate_hint(struct hf_peer *peer, u32 kbps);
u64 hf_tx_pace(struct hf_peer *peer, struct sock *sk, struct sk_buff *skb);
bool hf_tx_sock_ahead(const struct hf_peer *peer, const struct sock *sk,
		      u64 now, u64 *wake);
void hf_tx_pace_arm(struct hf_peer *peer, u64 wake);
u32 hf_tx_frame_paced_segs(const struct hf_peer *peer,
			   const struct hf_tx_msg *msg);
void hf_pacing_init(struct hf_peer *peer);

u32 hf_rx_rate_hint(const struct hf_peer *peer);

#endif /* _HF_PACING_H */
