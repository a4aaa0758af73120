/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_trace.h - the module's tracepoints (trace system "hyperframe"): a
 * hyperframe sent and received, a segment sent again, credit granted and
 * stalled on, the frame size or rate changed, hfq's enqueue and dequeue,
 * a message delivered. Their fields are a stable interface: fields may be
 * added at the end, never removed or changed (docs/tracepoints.md).
 * Those with a /proc/net/hyperframe counter fire at the statement that
 * moves it, so their count equals its change (hf_frame_size: filtered by
 * what changed; a rate restored has no counter); hfq's have none.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM hyperframe

#if !defined(_HF_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _HF_TRACE_H

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/tracepoint.h>

#include "hf_peer.h"

/*
 * A peer's namespace (the inode number of /proc/PID/ns/net), link and
 * address, first in every event about a peer: ifindexes repeat across
 * namespaces.
 */
#define HF_TP_PEER_FIELDS			\
	__field(u32, netns)			\
	__field(int, ifindex)			\
	__array(u8, addr, ETH_ALEN)

#define HF_TP_PEER_ASSIGN(peer)					\
	do {							\
		__entry->netns = (peer)->net->ns.inum;		\
		__entry->ifindex = (peer)->dev->ifindex;	\
		memcpy(__entry->addr, (peer)->addr, ETH_ALEN);	\
	} while (0)

/*
 * tx_frame_skbs: one skb of new data segments (a carrier, a train or a
 * lone segment) went to the device queue; repairs are hf_retransmit's.
 */
TRACE_EVENT(hf_frame_xmit,
	TP_PROTO(const struct hf_peer *peer, u32 msg_id, u32 seq, u32 segs,
		 u32 bytes),
	TP_ARGS(peer, msg_id, seq, segs, bytes),
	TP_STRUCT__entry(
		HF_TP_PEER_FIELDS
		__field(u32, epoch)
		__field(u32, msg_id)
		__field(u32, seq)
		__field(u32, segs)
		__field(u32, bytes)
	),
	TP_fast_assign(
		HF_TP_PEER_ASSIGN(peer);
		__entry->epoch = peer->out.epoch;
		__entry->msg_id = msg_id;
		__entry->seq = seq;
		__entry->segs = segs;
		__entry->bytes = bytes;
	),
	TP_printk("netns=%u ifindex=%d addr=%pM epoch=%u msg_id=%u seq=%u segs=%u bytes=%u",
		  __entry->netns, __entry->ifindex, __entry->addr, __entry->epoch,
		  __entry->msg_id, __entry->seq, __entry->segs, __entry->bytes)
);

/*
 * rx_data_skbs: one skb of data segments arrived from @addr (a train as
 * it arrived, or a lone segment), before it is checked further.
 */
TRACE_EVENT(hf_frame_recv,
	TP_PROTO(const struct net_device *dev, const u8 *addr, u32 segs,
		 u32 bytes),
	TP_ARGS(dev, addr, segs, bytes),
	TP_STRUCT__entry(
		HF_TP_PEER_FIELDS
		__field(u32, segs)
		__field(u32, bytes)
	),
	TP_fast_assign(
		__entry->netns = dev_net(dev)->ns.inum;
		__entry->ifindex = dev->ifindex;
		memcpy(__entry->addr, addr, ETH_ALEN);
		__entry->segs = segs;
		__entry->bytes = bytes;
	),
	TP_printk("netns=%u ifindex=%d addr=%pM segs=%u bytes=%u",
		  __entry->netns, __entry->ifindex, __entry->addr, __entry->segs,
		  __entry->bytes)
);

/* tx_retransmits: the segment at @seq sent again, alone in its frame. */
TRACE_EVENT(hf_retransmit,
	TP_PROTO(const struct hf_peer *peer, u32 seq, u32 msg_id, u32 index),
	TP_ARGS(peer, seq, msg_id, index),
	TP_STRUCT__entry(
		HF_TP_PEER_FIELDS
		__field(u32, epoch)
		__field(u32, seq)
		__field(u32, msg_id)
		__field(u32, index)
	),
	TP_fast_assign(
		HF_TP_PEER_ASSIGN(peer);
		__entry->epoch = peer->out.epoch;
		__entry->seq = seq;
		__entry->msg_id = msg_id;
		__entry->index = index;
	),
	TP_printk("netns=%u ifindex=%d addr=%pM epoch=%u seq=%u msg_id=%u index=%u",
		  __entry->netns, __entry->ifindex, __entry->addr, __entry->epoch,
		  __entry->seq, __entry->msg_id, __entry->index)
);

/*
 * tx_acks: an ACK left. @window: segments beyond @cum_seq the receiver
 * takes (its whole window, or 0 when the ACK says CLOSED); @ahead: bytes
 * its credit limit grants beyond what has arrived.
 */
TRACE_EVENT(hf_credit_grant,
	TP_PROTO(const struct hf_peer *peer, u32 cum_seq, u8 flags),
	TP_ARGS(peer, cum_seq, flags),
	TP_STRUCT__entry(
		HF_TP_PEER_FIELDS
		__field(u32, epoch)
		__field(u32, cum_seq)
		__field(u32, window)
		__field(u8, flags)
		__field(u32, ahead)
	),
	TP_fast_assign(
		HF_TP_PEER_ASSIGN(peer);
		__entry->epoch = peer->in.ep.epoch;
		__entry->cum_seq = cum_seq;
		__entry->window = flags & HF_AF_CLOSED ? 0 : HF_WIN_SEGS;
		__entry->flags = flags;
		__entry->ahead = peer->in.credit.limit > peer->in.credit.received ?
			min_t(u64, peer->in.credit.limit -
				   peer->in.credit.received, U32_MAX) : 0;
	),
	TP_printk("netns=%u ifindex=%d addr=%pM epoch=%u cum_seq=%u window=%u flags=%#x ahead=%u",
		  __entry->netns, __entry->ifindex, __entry->addr, __entry->epoch,
		  __entry->cum_seq, __entry->window, __entry->flags,
		  __entry->ahead)
);

/* tx_credit_stalls: data waits, the window (or a zero window) closed on it. */
TRACE_EVENT(hf_credit_stall,
	TP_PROTO(const struct hf_peer *peer, u32 inflight, bool zero_window),
	TP_ARGS(peer, inflight, zero_window),
	TP_STRUCT__entry(
		HF_TP_PEER_FIELDS
		__field(u32, epoch)
		__field(u32, inflight)
		__field(bool, zero_window)
	),
	TP_fast_assign(
		HF_TP_PEER_ASSIGN(peer);
		__entry->epoch = peer->out.epoch;
		__entry->inflight = inflight;
		__entry->zero_window = zero_window;
	),
	TP_printk("netns=%u ifindex=%d addr=%pM epoch=%u inflight=%u zero_window=%d",
		  __entry->netns, __entry->ifindex, __entry->addr, __entry->epoch,
		  __entry->inflight, __entry->zero_window)
);

/*
 * The frame-size controller changed the frame size, the rate, or both
 * (tx_frame_grows + tx_frame_shrinks count the first, tx_rate_cuts the
 * cuts of the second). Rates are in 1/1024 of the pacing rate; reason is
 * enum hf_fsize_reason (1 grow, 2 loss, 3 delay, 4 notice, 5 idle, 6 undo).
 */
TRACE_EVENT(hf_frame_size,
	TP_PROTO(const struct hf_peer *peer, const struct hf_fsize_change *c),
	TP_ARGS(peer, c),
	TP_STRUCT__entry(
		HF_TP_PEER_FIELDS
		__field(u32, epoch)
		__field(u32, old_segs)
		__field(u32, new_segs)
		__field(u16, old_rate)
		__field(u16, new_rate)
		__field(u8, reason)
	),
	TP_fast_assign(
		HF_TP_PEER_ASSIGN(peer);
		__entry->epoch = peer->out.epoch;
		__entry->old_segs = c->old_segs;
		__entry->new_segs = c->new_segs;
		__entry->old_rate = c->old_rate;
		__entry->new_rate = c->new_rate;
		__entry->reason = c->reason;
	),
	TP_printk("netns=%u ifindex=%d addr=%pM epoch=%u old_segs=%u new_segs=%u old_rate=%u new_rate=%u reason=%u",
		  __entry->netns, __entry->ifindex, __entry->addr, __entry->epoch,
		  __entry->old_segs, __entry->new_segs, __entry->old_rate,
		  __entry->new_rate, __entry->reason)
);

/*
 * tx_rate_hints: the receiver's rate hint for the flow changed (bytes
 * per second, 0: none); it caps the flow's pacing rate.
 */
TRACE_EVENT(hf_rate_hint,
	TP_PROTO(const struct hf_peer *peer, u64 old_rate, u64 new_rate),
	TP_ARGS(peer, old_rate, new_rate),
	TP_STRUCT__entry(
		HF_TP_PEER_FIELDS
		__field(u32, epoch)
		__field(u64, old_rate)
		__field(u64, new_rate)
	),
	TP_fast_assign(
		HF_TP_PEER_ASSIGN(peer);
		__entry->epoch = peer->out.epoch;
		__entry->old_rate = old_rate;
		__entry->new_rate = new_rate;
	),
	TP_printk("netns=%u ifindex=%d addr=%pM epoch=%u old_rate=%llu new_rate=%llu",
		  __entry->netns, __entry->ifindex, __entry->addr, __entry->epoch,
		  __entry->old_rate, __entry->new_rate)
);

/* hfq took @skb into @band (0 control, 1 data, 2 other). */
TRACE_EVENT(hfq_enqueue,
	TP_PROTO(const struct net_device *dev, const struct sk_buff *skb,
		 u8 band, u32 qlen),
	TP_ARGS(dev, skb, band, qlen),
	TP_STRUCT__entry(
		__field(u32, netns)
		__field(int, ifindex)
		__field(u32, len)
		__field(u8, band)
		__field(u32, qlen)
	),
	TP_fast_assign(
		__entry->netns = dev_net(dev)->ns.inum;
		__entry->ifindex = dev->ifindex;
		__entry->len = skb->len;
		__entry->band = band;
		__entry->qlen = qlen;
	),
	TP_printk("netns=%u ifindex=%d band=%u len=%u qlen=%u",
		  __entry->netns, __entry->ifindex, __entry->band, __entry->len,
		  __entry->qlen)
);

/* hfq let @skb go after @sojourn_ns in the queue. */
TRACE_EVENT(hfq_dequeue,
	TP_PROTO(const struct net_device *dev, const struct sk_buff *skb,
		 u8 band, u64 sojourn_ns),
	TP_ARGS(dev, skb, band, sojourn_ns),
	TP_STRUCT__entry(
		__field(u32, netns)
		__field(int, ifindex)
		__field(u32, len)
		__field(u8, band)
		__field(u64, sojourn_ns)
	),
	TP_fast_assign(
		__entry->netns = dev_net(dev)->ns.inum;
		__entry->ifindex = dev->ifindex;
		__entry->len = skb->len;
		__entry->band = band;
		__entry->sojourn_ns = sojourn_ns;
	),
	TP_printk("netns=%u ifindex=%d band=%u len=%u sojourn_ns=%llu",
		  __entry->netns, __entry->ifindex, __entry->band, __entry->len,
		  __entry->sojourn_ns)
);

/*
 * rx_msgs: a message of @len bytes went to its socket, @latency_ns after
 * its first segment arrived.
 */
TRACE_EVENT(hf_msg_deliver,
	TP_PROTO(const struct hf_peer *peer, u32 msg_id, u16 sport, u16 dport,
		 u32 len, u64 latency_ns),
	TP_ARGS(peer, msg_id, sport, dport, len, latency_ns),
	TP_STRUCT__entry(
		HF_TP_PEER_FIELDS
		__field(u32, epoch)
		__field(u32, msg_id)
		__field(u16, sport)
		__field(u16, dport)
		__field(u32, len)
		__field(u64, latency_ns)
	),
	TP_fast_assign(
		HF_TP_PEER_ASSIGN(peer);
		__entry->epoch = peer->in.ep.epoch;
		__entry->msg_id = msg_id;
		__entry->sport = sport;
		__entry->dport = dport;
		__entry->len = len;
		__entry->latency_ns = latency_ns;
	),
	TP_printk("netns=%u ifindex=%d addr=%pM epoch=%u msg_id=%u sport=%u dport=%u len=%u latency_ns=%llu",
		  __entry->netns, __entry->ifindex, __entry->addr, __entry->epoch,
		  __entry->msg_id, __entry->sport, __entry->dport,
		  __entry->len, __entry->latency_ns)
);

#endif /* _HF_TRACE_H */

/* This header lives outside include/trace/events. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE hf_trace
#include <trace/define_trace.h>
