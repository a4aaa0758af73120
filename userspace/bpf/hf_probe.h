/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bpf/hf_probe.h - what hf_probe.bpf.c and hfctl's loader
 * (hfctl/bpf/probe_bpf.cc) share: the layout of the per-CPU statistics the
 * programs fill in. Plain C, fixed-size types only, so the BPF side
 * (vmlinux.h) and userspace (<linux/types.h>) see the same bytes.
 */
#ifndef HF_PROBE_H
#define HF_PROBE_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/*
 * Log2 histograms: bucket 0 holds 0 and 1, bucket i (i > 0) holds
 * [2^i, 2^(i+1)), the last bucket everything from 2^(HF_PROBE_BUCKETS-1) up.
 */
#define HF_PROBE_BUCKETS 32

enum hf_probe_dir_index {
	HF_PROBE_TX = 0,
	HF_PROBE_RX = 1,
	HF_PROBE_DIRS = 2,
};

/* One direction of the device: every skb seen and the wire packets it makes. */
struct hf_probe_dir {
	__u64 skbs;        /* skbs seen */
	__u64 bytes;       /* their lengths, link-layer header included */
	__u64 gso_skbs;    /* skbs carrying more than one wire packet */
	__u64 packets;     /* wire packets: gso_segs of a GSO skb, else 1 */
	__u64 wire_bytes;  /* the wire packets' lengths (headers per packet) */
	__u64 max_skb;     /* the largest skb */
	__u64 skb_hist[HF_PROBE_BUCKETS];    /* skb length */
	__u64 packet_hist[HF_PROBE_BUCKETS]; /* wire packet length */
};

/* Intervals of the queue's time series, at most (duration / interval). */
#define HF_PROBE_SLOTS 256

enum hf_probe_queue_index {
	HF_PROBE_DEQUEUE = 0, /* qdisc:qdisc_dequeue, after a packet left */
	HF_PROBE_ENQUEUE = 1, /* qdisc:qdisc_enqueue, after a packet joined */
	HF_PROBE_QUEUES = 2,
};

/* The device's qdiscs at one of their tracepoints. */
struct hf_probe_queue {
	__u64 samples;       /* dequeues that returned a packet, or enqueues */
	__u64 max_backlog;   /* bytes queued right after it */
	__u64 max_qlen;      /* packets queued right after it */
	__u64 backlog_hist[HF_PROBE_BUCKETS];
	__u64 qlen_hist[HF_PROBE_BUCKETS];
};

/*
 * One interval of the time series: the deepest the queue was seen at any
 * enqueue or dequeue (one that found the queue empty or throttled too).
 */
struct hf_probe_slot {
	__u64 samples;
	__u64 max_backlog;
	__u64 max_qlen;
};

/* The one value of the per-CPU array "stats"; userspace adds the CPUs up. */
struct hf_probe_stats {
	struct hf_probe_dir dir[HF_PROBE_DIRS];
	struct hf_probe_queue queue[HF_PROBE_QUEUES];
	struct hf_probe_slot series[HF_PROBE_SLOTS];
};

#endif /* HF_PROBE_H */
