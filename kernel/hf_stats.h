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

#include "core/hf_hist.h"
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
	HF_STAT_TX_CHALLENGES,		/* challenges of a new epoch answered */
	HF_STAT_TX_EPOCHS,		/* flow incarnations started */
	HF_STAT_TX_SPURIOUS,		/* retransmissions the receiver had already */
	HF_STAT_TX_REORDER_WAITS,	/* repairs held back by the reorder window */
	HF_STAT_TX_REPAIRS_LOST,	/* repairs found lost and sent again */
	HF_STAT_TX_WINDOW_RESENDS,	/* sent again: the receiver had room again */
	HF_STAT_TX_DATA_SKBS,		/* skbs of new DATA handed to devices: a train once */
	HF_STAT_TX_SW_SEGMENTED,	/* trains cut in software for a device */
	HF_STAT_TX_FRAME_SKBS,		/* skbs of new DATA handed to the qdisc: a carrier once */
	HF_STAT_TX_CARRIERS_SPLIT,	/* carriers taken apart into trains for a device */
	HF_STAT_TX_FRAME_GROWS,		/* frame size doubled after a clean round */
	HF_STAT_TX_FRAME_SHRINKS,	/* frame size halved: congestion, idle */
	HF_STAT_TX_RATE_CUTS,		/* rate scale cut on a congestion sign */
	HF_STAT_TX_CREDIT_STALLS,	/* window or credit closed on waiting data */
	HF_STAT_TX_PACING_DELAYS,	/* skbs pacing held past their build time */
	HF_STAT_TX_PACE_WAITS,		/* pushes that waited: pacing ran ahead */
	HF_STAT_TX_CREDIT_INVALID,	/* grants beyond max_ahead, refused */
	HF_STAT_TX_CREDIT_PROBES,	/* segments sent beyond the credit: persist probes */
	HF_STAT_TX_RATE_HINTS,		/* receivers' rate hints that changed */
	HF_STAT_TX_PUSH_DEFERRALS,	/* pushes that waited for room for a train */
	HF_STAT_TX_MEM_WAITS,		/* sends held by the module-wide memory limit */
	HF_STAT_TX_MSGS_ORPHANED,	/* closed sockets' messages given up: peer never answered */
	HF_STAT_TX_BACKOFF_ANSWERED_US,	/* us at maximum backoff with the peer answering */
	HF_STAT_RX_SEGS,		/* DATA segments accepted */
	HF_STAT_RX_DATA_SKBS,		/* skbs of DATA that arrived: a train once */
	HF_STAT_RX_LINEARIZED_TRAINS,	/* trains that arrived in one buffer, cut here */
	HF_STAT_RX_PACKED_TRAINS,	/* packed trains that arrived whole */
	HF_STAT_RX_PACKED_SPLIT,	/* of those, taken apart: not all new */
	HF_STAT_RX_CARRIERS,		/* carriers that arrived whole, taken apart here */
	HF_STAT_RX_CSUM_LOCAL,		/* frames that crossed no wire, checksum unfilled */
	HF_STAT_RX_GRO_TRAINS,		/* trains GRO built from segments that came alone */
	HF_STAT_RX_GRO_SEGS,		/* the segments in them */
	HF_STAT_RX_EPOCHS,		/* flow incarnations adopted */
	HF_STAT_RX_CHALLENGES,		/* new epochs challenged (core/hf_epoch.h) */
	HF_STAT_RX_LOST_REPLIES,	/* LOST answers: DATA echoed a state not held */
	HF_STAT_RX_ACKS,		/* ACKs accepted */
	HF_STAT_RX_MSGS,		/* messages delivered to sockets */
	HF_STAT_RX_BYTES,		/* their bytes */
	HF_STAT_RX_DUPLICATES,		/* segments received twice */
	HF_STAT_RX_MSGS_NO_PORT,	/* messages for a port nobody bound */
	HF_STAT_RX_MSGS_OTHER_DEV,	/* of those, its socket bound to another interface */
	HF_STAT_RX_MSGS_FILTERED,	/* of those, refused by the socket's filter or the LSM */
	HF_STAT_RX_MSGS_TOO_BIG,	/* messages above the size limit */
	HF_STAT_RX_MSGS_NO_MEMORY,	/* of those too big: refused for memory */
	HF_STAT_RX_CREDIT_OVER,		/* payload bytes beyond the credit granted */
	HF_STAT_RX_MSGS_EXPIRED,	/* reassembly dropped: no progress, or socket closed */
	HF_STAT_PEERS_EVICTED,		/* peers evicted from a full table */
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
	HF_STAT_DROP_UNPROVEN,		/* DATA of a new epoch not proven yet */
	HF_STAT_DROP_FORGED,		/* DATA no sender sends: echo, epoch 0, start */
	HF_STAT_DROP_NO_STATE,		/* DATA echoing a state not held (LOST) */
	HF_STAT_DROP_OVER_CREDIT,	/* DATA far beyond the credit granted */
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
 * @frame_size: hyperframes sent, by payload size (hf_hist.h log2 buckets,
 *		not cumulative); they sum to HF_STAT_TX_FRAMES
 * @frame_size_sum: payload bytes of those hyperframes
 */
struct hf_stats {
	atomic64_t v[HF_STAT_MAX];
	atomic64_t malformed[HF_WERR_MAX];
	atomic64_t frame_size[HF_FRAME_SIZE_BUCKETS];
	atomic64_t frame_size_sum;
};

static inline void hf_stat_add(struct hf_stats *s, enum hf_stat i, u64 n)
{
	atomic64_add(n, &s->v[i]);
}

static inline void hf_stat_inc(struct hf_stats *s, enum hf_stat i)
{
	atomic64_inc(&s->v[i]);
}

/**
 * hf_stat_frame() - count a hyperframe sent: HF_STAT_TX_FRAMES and the
 * size histogram
 * @s: the namespace's counters
 * @bytes: payload bytes of the hyperframe
 */
static inline void hf_stat_frame(struct hf_stats *s, u64 bytes)
{
	u32 b = hf_hist_log2_bucket(bytes, HF_FRAME_SIZE_MIN_SHIFT,
				    HF_FRAME_SIZE_BUCKETS);

	atomic64_inc(&s->v[HF_STAT_TX_FRAMES]);
	atomic64_inc(&s->frame_size[b]);
	atomic64_add(bytes, &s->frame_size_sum);
}

extern const char *const hf_stat_names[HF_STAT_MAX];

/* The counters of one device (hf_dev.c), a subset of the namespace's. */
enum hf_dev_stat {
	HF_DEV_STAT_TX_FRAMES,		/* hyperframes sent */
	HF_DEV_STAT_TX_SEGS,		/* DATA segments sent, first time */
	HF_DEV_STAT_TX_BYTES,		/* their payload bytes */
	HF_DEV_STAT_TX_RETRANSMITS,	/* DATA segments sent again */
	HF_DEV_STAT_RX_FRAMES,		/* accepted segments starting a frame */
	HF_DEV_STAT_RX_SEGS,		/* DATA segments accepted */
	HF_DEV_STAT_RX_BYTES,		/* their payload bytes */
	HF_DEV_STAT_DROPS,		/* frames counted in a drop_* counter */
	HF_DEV_STAT_MAX
};

/* Devices of a namespace with counters of their own; the rest share one. */
#define HF_DEV_SLOTS	64

/**
 * struct hf_dev_stats - the counters of one device of a namespace
 * @ifindex: the device; 0: the slot is free
 * @gone: the device was unregistered; the slot is freed with its last user
 * @users: peers counting here (hf_net.devs_lock)
 * @tx_senders: of those, the peers with data to send or in flight: the
 *		sending side's link share is the device's hfq rate divided
 *		among them (hf_output.c)
 * @v: one counter per enum hf_dev_stat
 */
struct hf_dev_stats {
	int ifindex;
	bool gone;
	u32 users;
	atomic_t tx_senders;
	atomic64_t v[HF_DEV_STAT_MAX];
};

static inline void hf_dev_stat_add(struct hf_dev_stats *d,
				   enum hf_dev_stat i, u64 n)
{
	atomic64_add(n, &d->v[i]);
}

static inline void hf_dev_stat_inc(struct hf_dev_stats *d,
				   enum hf_dev_stat i)
{
	atomic64_inc(&d->v[i]);
}

extern const char *const hf_dev_stat_names[HF_DEV_STAT_MAX];

#endif /* _HF_STATS_H */
