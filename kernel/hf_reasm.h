/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_reasm.h - reassembly, delivery and reads of received messages
 * (hf_reasm.c).
 */
#ifndef _HF_REASM_H
#define _HF_REASM_H

#include "hf_msg.h"
#include "hf_peer.h"

/*
 * The slot of a segment held in another slot's skb: a packed train that
 * arrived whole is kept as one skb in its first segment's slot.
 */
#define HF_RX_COVERED	((struct sk_buff *)1UL)

/**
 * hf_rx_status_span() - how far past msg_done @peer's messages are taken
 * @peer: the source; caller holds its lock
 *
 * Return: the outcomes every ACK of the epoch reports (hf_rx_epoch_start()).
 */
static inline u32 hf_rx_status_span(const struct hf_peer *peer)
{
	lockdep_assert_held(&peer->lock);
	return hf_status_span(peer->in.status_ext);
}

struct sk_buff **hf_rx_seg_slot(struct hf_rx_msg *m, u32 index, bool alloc);
void hf_rx_msg_free(struct hf_peer *peer, struct hf_rx_msg *m);
void hf_rx_msg_refuse(struct hf_peer *peer, struct hf_rx_msg *m);
u64 hf_rx_msg_reserve(u32 len, u32 nsegs);
struct hf_rx_msg *hf_rx_msg_new(struct hf_peer *peer,
				const struct hf_hdr *h,
				    enum hf_stat *why);
void hf_rx_deliver_ready(struct hf_peer *peer);
bool hf_rx_resolve(struct hf_peer *peer);
bool hf_rx_window_closed(struct hf_peer *peer);

#endif /* _HF_REASM_H */
