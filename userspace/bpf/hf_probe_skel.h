/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bpf/hf_probe_skel.h - a small C interface to the generated skeleton of
 * hf_probe.bpf.c, for hfctl's C++ loader: the skeleton itself (C, with its
 * embedded object) is compiled once, in hf_probe_skel.c, and never seen by
 * C++ code. Functions return 0 or a negative errno.
 */
#ifndef HF_PROBE_SKEL_H
#define HF_PROBE_SKEL_H

#include <stdbool.h>
#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct hf_probe;

/* The filter the programs apply (their .rodata); see hf_probe.bpf.c. */
struct hf_probe_config {
	__u32 ifindex;
	__u32 netns;      /* inode of the network namespace */
	__u16 ethertype;  /* host order; 0: any */
	__u8 ipproto;     /* 0: any */
	__u16 port;       /* host order, either direction; 0: any */
	__u16 sport;      /* host order; 0: any */
	__u16 dport;      /* host order; 0: any */
	__u8 addr_len;    /* of src and dst: 4 (IPv4), 16 (IPv6); 0: any */
	bool has_src;
	bool has_dst;
	__u8 src[16];     /* network order */
	__u8 dst[16];
	__u64 interval_ns; /* of the queue's time series */
	__u32 slots;      /* its intervals, at most HF_PROBE_SLOTS */
	bool dequeue;     /* load the qdisc:qdisc_dequeue program too */
	bool enqueue;     /* load the qdisc:qdisc_enqueue program too */
};

/* Opens, configures and loads the programs; NULL with *error set on failure. */
struct hf_probe *hf_probe_skel_load(const struct hf_probe_config *config, int *error);
int hf_probe_skel_attach(struct hf_probe *probe);
/* Starts the time series at now_ns (CLOCK_MONOTONIC), once attached. */
void hf_probe_skel_start(struct hf_probe *probe, __u64 now_ns);
void hf_probe_skel_detach(struct hf_probe *probe);
/* The descriptor of the per-CPU array "stats". */
int hf_probe_skel_stats_fd(const struct hf_probe *probe);
/* Detaches and frees everything; NULL is fine. */
void hf_probe_skel_destroy(struct hf_probe *probe);

#ifdef __cplusplus
}
#endif

#endif /* HF_PROBE_SKEL_H */
