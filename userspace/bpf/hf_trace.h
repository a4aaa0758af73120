/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bpf/hf_trace.h - what hf_trace.bpf.c and hfctl's loader
 * (hfctl/bpf/trace_bpf.cc) share: the records of the module's tracepoints as
 * the programs read them, and the statistics the programs fill in. Plain C,
 * fixed-size types only, so the BPF side (vmlinux.h) and userspace
 * (<linux/types.h>) see the same bytes.
 *
 * The records mirror TP_STRUCT__entry in kernel/hf_trace.h: the common
 * fields (8 bytes), then the event's fields in order, each at its natural
 * alignment, as the compiler lays out these structs too. The loader checks
 * every field's offset and size against the event's tracefs "format" file
 * before it loads anything, so a module whose records differ is refused
 * with a message instead of being misread.
 */
#ifndef HF_TRACE_H
#define HF_TRACE_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* The fields every trace record starts with (struct trace_entry). */
struct hf_tp_common {
	__u16 type;
	__u8 flags;
	__u8 preempt_count;
	__s32 pid;
};

#define HF_TP_ADDR_LEN 6

struct hf_tp_frame_xmit {
	struct hf_tp_common common;
	__u32 netns;
	__s32 ifindex;
	__u8 addr[HF_TP_ADDR_LEN];
	__u32 epoch;
	__u32 msg_id;
	__u32 seq;
	__u32 segs;
	__u32 bytes;
};

struct hf_tp_frame_recv {
	struct hf_tp_common common;
	__u32 netns;
	__s32 ifindex;
	__u8 addr[HF_TP_ADDR_LEN];
	__u32 segs;
	__u32 bytes;
};

struct hf_tp_retransmit {
	struct hf_tp_common common;
	__u32 netns;
	__s32 ifindex;
	__u8 addr[HF_TP_ADDR_LEN];
	__u32 epoch;
	__u32 seq;
	__u32 msg_id;
	__u32 index;
};

struct hf_tp_credit_grant {
	struct hf_tp_common common;
	__u32 netns;
	__s32 ifindex;
	__u8 addr[HF_TP_ADDR_LEN];
	__u32 epoch;
	__u32 cum_seq;
	__u32 window;
	__u8 flags;
	__u32 ahead;
};

struct hf_tp_credit_stall {
	struct hf_tp_common common;
	__u32 netns;
	__s32 ifindex;
	__u8 addr[HF_TP_ADDR_LEN];
	__u32 epoch;
	__u32 inflight;
	__u8 zero_window;
};

struct hf_tp_frame_size {
	struct hf_tp_common common;
	__u32 netns;
	__s32 ifindex;
	__u8 addr[HF_TP_ADDR_LEN];
	__u32 epoch;
	__u32 old_segs;
	__u32 new_segs;
	__u16 old_rate;
	__u16 new_rate;
	__u8 reason;
};

struct hf_tp_rate_hint {
	struct hf_tp_common common;
	__u32 netns;
	__s32 ifindex;
	__u8 addr[HF_TP_ADDR_LEN];
	__u32 epoch;
	__u64 old_rate;
	__u64 new_rate;
};

struct hf_tp_hfq_enqueue {
	struct hf_tp_common common;
	__u32 netns;
	__s32 ifindex;
	__u32 len;
	__u8 band;
	__u32 qlen;
};

struct hf_tp_hfq_dequeue {
	struct hf_tp_common common;
	__u32 netns;
	__s32 ifindex;
	__u32 len;
	__u8 band;
	__u64 sojourn_ns;
};

struct hf_tp_msg_deliver {
	struct hf_tp_common common;
	__u32 netns;
	__s32 ifindex;
	__u8 addr[HF_TP_ADDR_LEN];
	__u32 epoch;
	__u32 msg_id;
	__u16 sport;
	__u16 dport;
	__u32 len;
	__u64 latency_ns;
};

/*
 * Offsets worked out by hand from kernel/hf_trace.h, checked by both
 * compilers (clang for BPF, the loader's), and at run time against the
 * module's format files.
 */
#ifdef __cplusplus
#define HF_TP_STATIC_ASSERT static_assert
#else
#define HF_TP_STATIC_ASSERT _Static_assert
#endif
#define HF_TP_ASSERT(type, field, offset) \
	HF_TP_STATIC_ASSERT(__builtin_offsetof(struct type, field) == (offset), #type "." #field)
HF_TP_ASSERT(hf_tp_frame_xmit, netns, 8);
HF_TP_ASSERT(hf_tp_frame_xmit, addr, 16);
HF_TP_ASSERT(hf_tp_frame_xmit, epoch, 24);
HF_TP_ASSERT(hf_tp_frame_xmit, bytes, 40);
HF_TP_ASSERT(hf_tp_frame_recv, segs, 24);
HF_TP_ASSERT(hf_tp_retransmit, index, 36);
HF_TP_ASSERT(hf_tp_credit_grant, flags, 36);
HF_TP_ASSERT(hf_tp_credit_grant, ahead, 40);
HF_TP_ASSERT(hf_tp_credit_stall, zero_window, 32);
HF_TP_ASSERT(hf_tp_frame_size, new_rate, 38);
HF_TP_ASSERT(hf_tp_frame_size, reason, 40);
HF_TP_ASSERT(hf_tp_rate_hint, old_rate, 32);
HF_TP_ASSERT(hf_tp_rate_hint, new_rate, 40);
HF_TP_ASSERT(hf_tp_hfq_enqueue, qlen, 24);
HF_TP_ASSERT(hf_tp_hfq_dequeue, sojourn_ns, 24);
HF_TP_ASSERT(hf_tp_msg_deliver, len, 36);
HF_TP_ASSERT(hf_tp_msg_deliver, latency_ns, 40);

/* The events, as indexes of hf_trace_stats.events. */
enum hf_trace_event {
	HF_TRACE_FRAME_XMIT,
	HF_TRACE_FRAME_RECV,
	HF_TRACE_RETRANSMIT,
	HF_TRACE_CREDIT_GRANT,
	HF_TRACE_CREDIT_STALL,
	HF_TRACE_FRAME_SIZE,
	HF_TRACE_HFQ_ENQUEUE,
	HF_TRACE_HFQ_DEQUEUE,
	HF_TRACE_MSG_DELIVER,
	HF_TRACE_RATE_HINT,
	HF_TRACE_EVENTS,
};

/*
 * Log2 histograms, as hfctl probe's: bucket 0 holds 0 and 1, bucket i
 * (i > 0) holds [2^i, 2^(i+1)), the last everything from 2^(BUCKETS-1) up.
 */
#define HF_TRACE_BUCKETS 32
/* hfq's bands: 0 control, 1 data, 2 other. */
#define HF_TRACE_BANDS 3
/* hf_frame_size's reasons, enum hf_fsize_reason (0 none .. 6 undo). */
#define HF_TRACE_REASONS 8

/*
 * The one value of the per-CPU array "stats": what the programs saw in
 * the namespace (and on the device) they were loaded for. Userspace adds
 * the CPUs up.
 */
struct hf_trace_stats {
	__u64 events[HF_TRACE_EVENTS];
	__u64 xmit_segs;           /* hf_frame_xmit: segments */
	__u64 xmit_bytes;          /* and bytes */
	__u64 recv_segs;           /* hf_frame_recv */
	__u64 recv_bytes;
	__u64 deliver_bytes;       /* hf_msg_deliver: message lengths */
	__u64 stalls_zero_window;  /* hf_credit_stall with zero_window */
	__u64 frame_changes;       /* hf_frame_size whose segs differ */
	__u64 rate_cuts;           /* hf_frame_size whose rate fell */
	__u64 size_reasons[HF_TRACE_REASONS]; /* hf_frame_size by reason */
	__u64 hfq_enqueued[HF_TRACE_BANDS];
	__u64 hfq_dequeued[HF_TRACE_BANDS];
	__u64 peers_untracked;     /* peer events past the peer map's size */
	__u64 xmit_bytes_hist[HF_TRACE_BUCKETS];   /* frame size sent */
	__u64 recv_bytes_hist[HF_TRACE_BUCKETS];   /* frame size received */
	__u64 sojourn_ns_hist[HF_TRACE_BANDS][HF_TRACE_BUCKETS];
	__u64 latency_ns_hist[HF_TRACE_BUCKETS];   /* message latency */
	__u64 msg_bytes_hist[HF_TRACE_BUCKETS];    /* message length */
};

/* Peers the map "peers" holds; events of more are counted, not kept. */
#define HF_TRACE_MAX_PEERS 1024

/* A peer: its link and address (the namespace is the filter's). */
struct hf_trace_peer_key {
	__s32 ifindex;
	__u8 addr[HF_TP_ADDR_LEN];
	__u8 pad[2];
};

/*
 * One peer's counts, per CPU in the per-CPU hash "peers". The frame size
 * and rate the controller set last are per CPU too: userspace takes those
 * of the CPU with the latest size_ns.
 */
struct hf_trace_peer {
	__u64 tx_frames;      /* hf_frame_xmit */
	__u64 tx_segs;
	__u64 tx_bytes;
	__u64 rx_frames;      /* hf_frame_recv */
	__u64 rx_segs;
	__u64 rx_bytes;
	__u64 retransmits;    /* hf_retransmit */
	__u64 grants;         /* hf_credit_grant */
	__u64 stalls;         /* hf_credit_stall */
	__u64 msgs;           /* hf_msg_deliver */
	__u64 msg_bytes;
	__u64 size_changes;   /* hf_frame_size */
	__u64 size_ns;        /* when the last of those fired (ktime), 0: never */
	__u32 frame_segs;     /* its new_segs */
	__u32 rate;           /* its new_rate, 1/1024 of the pacing rate */
	__u64 rate_hints;     /* hf_rate_hint */
	__u64 hint_ns;        /* when the last of those fired (ktime), 0: never */
	__u64 rate_hint;      /* its new_rate, bytes per second (0: no hint) */
};

/* Per-CPU values are copied in 8-byte steps: no tail to lose. */
HF_TP_STATIC_ASSERT(sizeof(struct hf_trace_stats) % 8 == 0, "hf_trace_stats size");
HF_TP_STATIC_ASSERT(sizeof(struct hf_trace_peer) % 8 == 0, "hf_trace_peer size");

#endif /* HF_TRACE_H */
