/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_grant.h - credit: what a sender may send and a receiver grants,
 * and the persist probe (hf_grant.c).
 */
#ifndef _HF_GRANT_H
#define _HF_GRANT_H

#include "hf_msg.h"
#include "hf_peer.h"

/* The persist timer's backoff: at most 2^6 RTOs, and never above 1 s. */
#define HF_PROBE_SHIFT_MAX	6
#define HF_PROBE_MAX_US		USEC_PER_SEC

u32 hf_tx_credit_frame(struct hf_peer *peer, const struct hf_tx_msg *msg,
		       u32 index, const struct hf_fsize_params *fp);
void hf_tx_probe_arm(struct hf_peer *peer);
void hf_tx_persist(struct hf_peer *peer);
void hf_tx_credit_take(struct hf_peer *peer, u32 bytes);

u32 hf_rx_credit_nactive(const struct hf_peer *peer);
u64 hf_rx_credit_share_base(const struct hf_peer *peer);
void hf_rx_credit_data(struct hf_peer *peer, u32 bytes);
void hf_rx_credit_release(struct hf_peer *peer, u64 bytes);
void hf_rx_credit_reset(struct hf_peer *peer);
bool hf_rx_credit_broken(struct hf_peer *peer, u32 seq, u32 n, u32 bytes);
u32 hf_rx_credit_limit(struct hf_peer *peer, bool closed);
u64 hf_rx_credit_sched(struct hf_peer *peer, u64 share);

u64 hf_sched_link(const struct hf_peer *peer);
u64 hf_sched_bdp(const struct hf_peer *peer, u64 link);
const struct hf_credit_params *
hf_credit_params_sched(const struct hf_peer *peer, struct hf_credit_params *cp);

#endif /* _HF_GRANT_H */
