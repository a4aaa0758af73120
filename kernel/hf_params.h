/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_params.h - the module's tunables: set as module parameters at load,
 * changed at run time by HF_CMD_CONFIG_SET (hf_genl.c). Readers on the
 * data path take single fields with READ_ONCE() and the RTO settings,
 * which only make sense together, with hf_rto_params_read().
 */
#ifndef _HF_PARAMS_H
#define _HF_PARAMS_H

#include <linux/seqlock.h>
#include <linux/types.h>

#include "core/hf_rto.h"

/**
 * struct hf_params - module-wide settings
 * @ethertype: EtherType of hyperframe frames, host order
 * @max_msg: largest message sendmsg() accepts and a receiver takes
 * @max_peers: peers one namespace may hold
 * @frame_segs: segments per hyperframe
 * @mem_limit: bytes of reassembly one namespace may hold for its peers
 * @peer_idle_ms: an idle peer is reclaimed after this long
 * @flow_reset_ms: a sender starts a new epoch after this much idleness
 * @ack_delay_us: longest an ACK waits for company
 * @max_inflight: segments in flight per peer; stays below the receiver's
 *		  backlog (netdev_max_backlog, 1000) until credits pace it
 * @rto: retransmission timer settings
 */
struct hf_params {
	u16 ethertype;
	u32 max_msg;
	u32 max_peers;
	u32 frame_segs;
	u64 mem_limit;
	u32 peer_idle_ms;
	u32 flow_reset_ms;
	u32 ack_delay_us;
	u32 max_inflight;
	struct hf_rto_params rto;
};

extern struct hf_params hf_params;
/* Writers of hf_params.rto hold it (write_seqlock_bh()). */
extern seqlock_t hf_params_seq;

/**
 * hf_rto_params_read() - a consistent copy of the RTO settings
 * @p: filled with hf_params.rto as one CONFIG_SET left it
 *
 * Any context.
 *
 * Return: @p.
 */
static inline const struct hf_rto_params *
hf_rto_params_read(struct hf_rto_params *p)
{
	unsigned int seq;

	do {
		seq = read_seqbegin(&hf_params_seq);
		*p = hf_params.rto;
	} while (read_seqretry(&hf_params_seq, seq));
	return p;
}

/*
 * Smallest segment stride sent or accepted: bounds the segment tables a
 * peer can make a receiver allocate (64 MiB / 64 B / 512 per page = 2048
 * table pointers).
 */
#define HF_MIN_SEG_SIZE		64

/* Segments in flight per peer flow; a power of two (ring bitmaps). */
#define HF_WIN_SEGS		4096

#endif /* _HF_PARAMS_H */
