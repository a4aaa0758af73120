// SPDX-License-Identifier: GPL-2.0
/*
 * bpf/hf_trace.bpf.c - the programs of "hfctl trace": one per tracepoint of
 * the hyperframe module (trace system "hyperframe", kernel/hf_trace.h). They
 * count the events of one network namespace (and optionally one device)
 * into per-CPU totals and log2 histograms (map "stats": frame sizes, hfq
 * sojourn by band, message latency and length) and per-peer counts (map
 * "peers": frames, bytes, retransmits, the frame size and rate the
 * controller set last, the receiver's latest rate hint).
 *
 * Classic tracepoint programs: each gets the event's record, laid out as
 * the structs of hf_trace.h (the loader checks them against the tracefs
 * format files first). The module has no BTF, so a BTF-typed attach could
 * not name its arguments; the record needs none, and these programs read
 * no kernel structure, so they need no kernel BTF either and one object
 * serves every kernel line.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "hf_log2.bpf.h"
#include "hf_trace.h"

_Static_assert(HF_TRACE_BUCKETS == HF_LOG2_BUCKETS, "histograms as hf_log2.bpf.h makes them");

const volatile __u32 cfg_netns;    /* inode of the namespace */
const volatile __s32 cfg_ifindex;  /* 0: every device */

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hf_trace_stats);
} stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, HF_TRACE_MAX_PEERS);
	__type(key, struct hf_trace_peer_key);
	__type(value, struct hf_trace_peer);
} peers SEC(".maps");

/* The event is ours to count: our namespace, and our device if one was named. */
static __always_inline bool wanted(__u32 netns, __s32 ifindex)
{
	return netns == cfg_netns && (!cfg_ifindex || ifindex == cfg_ifindex);
}

/* The statistics, with the event counted; NULL when there are none. */
static __always_inline struct hf_trace_stats *count(enum hf_trace_event event)
{
	__u32 zero = 0;
	struct hf_trace_stats *s = bpf_map_lookup_elem(&stats, &zero);

	if (s && event < HF_TRACE_EVENTS)
		s->events[event]++;
	return s;
}

/*
 * The peer's counts on this CPU, made on first sight; NULL, counted in
 * @s, once the map is full.
 */
static __always_inline struct hf_trace_peer *peer(struct hf_trace_stats *s, __s32 ifindex,
						  const __u8 *addr)
{
	struct hf_trace_peer_key key = { .ifindex = ifindex };
	struct hf_trace_peer zero = {}, *p;

	key.addr[0] = addr[0];
	key.addr[1] = addr[1];
	key.addr[2] = addr[2];
	key.addr[3] = addr[3];
	key.addr[4] = addr[4];
	key.addr[5] = addr[5];
	p = bpf_map_lookup_elem(&peers, &key);
	if (p)
		return p;
	bpf_map_update_elem(&peers, &key, &zero, BPF_NOEXIST);
	p = bpf_map_lookup_elem(&peers, &key);
	if (!p && s)
		s->peers_untracked++;
	return p;
}

SEC("tracepoint/hyperframe/hf_frame_xmit")
int hf_trace_xmit(struct hf_tp_frame_xmit *rec)
{
	struct hf_trace_stats *s;
	struct hf_trace_peer *p;

	if (!wanted(rec->netns, rec->ifindex))
		return 0;
	s = count(HF_TRACE_FRAME_XMIT);
	if (s) {
		s->xmit_segs += rec->segs;
		s->xmit_bytes += rec->bytes;
		hf_hist_add(s->xmit_bytes_hist, rec->bytes, 1);
	}
	p = peer(s, rec->ifindex, rec->addr);
	if (p) {
		p->tx_frames++;
		p->tx_segs += rec->segs;
		p->tx_bytes += rec->bytes;
	}
	return 0;
}

SEC("tracepoint/hyperframe/hf_frame_recv")
int hf_trace_recv(struct hf_tp_frame_recv *rec)
{
	struct hf_trace_stats *s;
	struct hf_trace_peer *p;

	if (!wanted(rec->netns, rec->ifindex))
		return 0;
	s = count(HF_TRACE_FRAME_RECV);
	if (s) {
		s->recv_segs += rec->segs;
		s->recv_bytes += rec->bytes;
		hf_hist_add(s->recv_bytes_hist, rec->bytes, 1);
	}
	p = peer(s, rec->ifindex, rec->addr);
	if (p) {
		p->rx_frames++;
		p->rx_segs += rec->segs;
		p->rx_bytes += rec->bytes;
	}
	return 0;
}

SEC("tracepoint/hyperframe/hf_retransmit")
int hf_trace_retransmit(struct hf_tp_retransmit *rec)
{
	struct hf_trace_stats *s;
	struct hf_trace_peer *p;

	if (!wanted(rec->netns, rec->ifindex))
		return 0;
	s = count(HF_TRACE_RETRANSMIT);
	p = peer(s, rec->ifindex, rec->addr);
	if (p)
		p->retransmits++;
	return 0;
}

SEC("tracepoint/hyperframe/hf_credit_grant")
int hf_trace_grant(struct hf_tp_credit_grant *rec)
{
	struct hf_trace_stats *s;
	struct hf_trace_peer *p;

	if (!wanted(rec->netns, rec->ifindex))
		return 0;
	s = count(HF_TRACE_CREDIT_GRANT);
	p = peer(s, rec->ifindex, rec->addr);
	if (p)
		p->grants++;
	return 0;
}

SEC("tracepoint/hyperframe/hf_credit_stall")
int hf_trace_stall(struct hf_tp_credit_stall *rec)
{
	struct hf_trace_stats *s;
	struct hf_trace_peer *p;

	if (!wanted(rec->netns, rec->ifindex))
		return 0;
	s = count(HF_TRACE_CREDIT_STALL);
	if (s && rec->zero_window)
		s->stalls_zero_window++;
	p = peer(s, rec->ifindex, rec->addr);
	if (p)
		p->stalls++;
	return 0;
}

SEC("tracepoint/hyperframe/hf_frame_size")
int hf_trace_size(struct hf_tp_frame_size *rec)
{
	struct hf_trace_stats *s;
	struct hf_trace_peer *p;

	if (!wanted(rec->netns, rec->ifindex))
		return 0;
	s = count(HF_TRACE_FRAME_SIZE);
	if (s) {
		__u8 reason = rec->reason;

		/* A reason this build does not know counts in the last slot. */
		if (reason >= HF_TRACE_REASONS)
			reason = HF_TRACE_REASONS - 1;
		s->size_reasons[reason]++;
		if (rec->new_segs != rec->old_segs)
			s->frame_changes++;
		if (rec->new_rate < rec->old_rate)
			s->rate_cuts++;
	}
	p = peer(s, rec->ifindex, rec->addr);
	if (p) {
		p->size_changes++;
		p->size_ns = bpf_ktime_get_ns();
		p->frame_segs = rec->new_segs;
		p->rate = rec->new_rate;
	}
	return 0;
}

SEC("tracepoint/hyperframe/hfq_enqueue")
int hf_trace_enqueue(struct hf_tp_hfq_enqueue *rec)
{
	struct hf_trace_stats *s;
	__u8 band = rec->band;

	if (!wanted(rec->netns, rec->ifindex))
		return 0;
	s = count(HF_TRACE_HFQ_ENQUEUE);
	if (s && band < HF_TRACE_BANDS)
		s->hfq_enqueued[band]++;
	return 0;
}

SEC("tracepoint/hyperframe/hfq_dequeue")
int hf_trace_dequeue(struct hf_tp_hfq_dequeue *rec)
{
	struct hf_trace_stats *s;
	__u8 band = rec->band;

	if (!wanted(rec->netns, rec->ifindex))
		return 0;
	s = count(HF_TRACE_HFQ_DEQUEUE);
	if (s && band < HF_TRACE_BANDS) {
		s->hfq_dequeued[band]++;
		hf_hist_add(s->sojourn_ns_hist[band], rec->sojourn_ns, 1);
	}
	return 0;
}

SEC("tracepoint/hyperframe/hf_msg_deliver")
int hf_trace_deliver(struct hf_tp_msg_deliver *rec)
{
	struct hf_trace_stats *s;
	struct hf_trace_peer *p;

	if (!wanted(rec->netns, rec->ifindex))
		return 0;
	s = count(HF_TRACE_MSG_DELIVER);
	if (s) {
		s->deliver_bytes += rec->len;
		hf_hist_add(s->latency_ns_hist, rec->latency_ns, 1);
		hf_hist_add(s->msg_bytes_hist, rec->len, 1);
	}
	p = peer(s, rec->ifindex, rec->addr);
	if (p) {
		p->msgs++;
		p->msg_bytes += rec->len;
	}
	return 0;
}

SEC("tracepoint/hyperframe/hf_rate_hint")
int hf_trace_rate_hint(struct hf_tp_rate_hint *rec)
{
	struct hf_trace_stats *s;
	struct hf_trace_peer *p;

	if (!wanted(rec->netns, rec->ifindex))
		return 0;
	s = count(HF_TRACE_RATE_HINT);
	p = peer(s, rec->ifindex, rec->addr);
	if (p) {
		p->rate_hints++;
		p->hint_ns = bpf_ktime_get_ns();
		p->rate_hint = rec->new_rate;
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
