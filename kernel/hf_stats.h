/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_stats.h - the per-namespace counters: what was sent, received,
 * retransmitted and dropped (by reason). 64-bit, never reset. Shown in
 * /proc/net/hyperframe (hf_proc.c); the generic netlink family exposes
 * the same table.
 */
#ifndef _HF_STATS_H
#define _HF_STATS_H

#include <linux/atomic.h>

#include "core/hf_wire.h"

enum hf_stat {
	HF_STAT_TX_MSGS,		/* messages accepted by sendmsg */
	HF_STAT_TX_BYTES,		/* their bytes */
	HF_STAT_TX_SEGS,		/* DATA segments sent, first time */
	HF_STAT_TX_FRAMES,		/* hyperframes sent */
	HF_STAT_TX_ACKS,		/* ACKs sent */
	HF_STAT_TX_RETRANSMITS,		/* DATA segments sent again */
	HF_STAT_TX_RTO,			/* retransmission timer expiries */
	HF_STAT_TX_RTO_SPURIOUS,	/* of those, found early by the acks (F-RTO) */
	HF_STAT_TX_XMIT_ERRORS,		/* the device refused a frame */
	HF_STAT_TX_MSGS_FAILED,		/* messages reported failed */
	HF_STAT_TX_MSGS_DELIVERED,	/* messages the receiver confirmed */
	HF_STAT_TX_RESETS,		/* flows restarted: receiver lost its state */
	HF_STAT_TX_EPOCHS,		/* flow incarnations started */
	HF_STAT_TX_SPURIOUS,		/* retransmissions the receiver had already */
	HF_STAT_TX_REORDER_WAITS,	/* repairs held back by the reorder window */
	HF_STAT_TX_REPAIRS_LOST,	/* repairs found lost and sent again */
	HF_STAT_TX_WINDOW_RESENDS,	/* sent again: the receiver had room again */
	HF_STAT_RX_SEGS,		/* DATA segments accepted */
	HF_STAT_RX_EPOCHS,		/* flow incarnations adopted */
	HF_STAT_RX_ACKS,		/* ACKs accepted */
	HF_STAT_RX_MSGS,		/* messages delivered to sockets */
	HF_STAT_RX_BYTES,		/* their bytes */
	HF_STAT_RX_DUPLICATES,		/* segments received twice */
	HF_STAT_RX_MSGS_NO_PORT,	/* messages for a port nobody bound */
	HF_STAT_RX_MSGS_TOO_BIG,	/* messages above the size limit */
	HF_STAT_RX_MSGS_NO_MEMORY,	/* of those too big: refused for memory */
	/* drops, by reason */
	HF_STAT_DROP_MALFORMED,		/* failed hf_hdr_decode(); by reason below */
	HF_STAT_DROP_CSUM,		/* checksum did not verify */
	HF_STAT_DROP_BEYOND,		/* sequence outside the receive window */
	HF_STAT_DROP_MSG_WINDOW,	/* message id outside the message window */
	HF_STAT_DROP_DISAGREE,		/* segment contradicts its message */
	HF_STAT_DROP_SEG_SIZE,		/* stride below HF_MIN_SEG_SIZE */
	HF_STAT_DROP_NO_PEER,		/* ACK from an unknown peer */
	HF_STAT_DROP_PEER_LIMIT,	/* no room for another peer */
	HF_STAT_DROP_EPOCH,		/* ACK for another flow incarnation */
	HF_STAT_DROP_STALE_EPOCH,	/* DATA of the incarnation before this one */
	HF_STAT_DROP_ACK_INVALID,	/* ACK for segments never sent */
	HF_STAT_DROP_RCVBUF,		/* receiving socket's buffer full */
	HF_STAT_DROP_MEMORY,		/* no memory, or above the message's reservation */
	HF_STAT_DROP_MEM_LIMIT,		/* new message: namespace reservations full */
	HF_STAT_DROP_OTHERHOST,		/* frame not addressed to us */
	/* the control plane */
	HF_STAT_EVENTS_DROPPED,		/* events lost: no memory to build them */
	HF_STAT_MAX
};

/**
 * struct hf_stats - the counters of one namespace
 * @v: one counter per enum hf_stat
 * @malformed: failed decodes, by enum hf_wire_err
 */
struct hf_stats {
	atomic64_t v[HF_STAT_MAX];
	atomic64_t malformed[HF_WERR_MAX];
};

static inline void hf_stat_add(struct hf_stats *s, enum hf_stat i, u64 n)
{
	atomic64_add(n, &s->v[i]);
}

static inline void hf_stat_inc(struct hf_stats *s, enum hf_stat i)
{
	atomic64_inc(&s->v[i]);
}

extern const char *const hf_stat_names[HF_STAT_MAX];

#endif /* _HF_STATS_H */
