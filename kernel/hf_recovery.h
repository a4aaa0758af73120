/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_recovery.h - loss detection, repair and the retransmission timer
 * (hf_recovery.c).
 */
#ifndef _HF_RECOVERY_H
#define _HF_RECOVERY_H

#include "hf_peer.h"

void hf_tx_rto_arm(struct hf_peer *peer);
bool hf_tx_orphaned(struct hf_peer *peer);
void hf_tx_rack_candidate(const struct hf_peer *peer,
			  const struct hf_tx_slot *slot, u64 now,
			      u64 *deliv_ns);
void hf_tx_late_candidate(const struct hf_tx_slot *slot,
			  u64 *late_sent_ns);
u32 hf_tx_rack_rtt_us(const struct hf_peer *peer);
bool hf_tx_rto_confirmed(const struct hf_peer *peer);
u64 hf_tx_repair(struct hf_peer *peer);
void hf_tx_answered_note(struct hf_peer *peer, bool took, u64 now);
unsigned int hf_tx_resend(struct hf_peer *peer, unsigned int budget);
void hf_tx_rto_verdict(struct hf_peer *peer, bool early);

void hf_tx_reorder_arm(struct hf_peer *peer, u64 wait_ns);
void hf_recovery_init(struct hf_peer *peer);

#endif /* _HF_RECOVERY_H */
