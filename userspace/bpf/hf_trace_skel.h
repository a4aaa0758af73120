/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bpf/hf_trace_skel.h - a small C interface to the generated skeleton of
 * hf_trace.bpf.c, for hfctl's C++ loader (as hf_probe_skel.h is for
 * probe's). Functions return 0 or a negative errno.
 */
#ifndef HF_TRACE_SKEL_H
#define HF_TRACE_SKEL_H

#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct hf_trace;

/* The filter the programs apply (their .rodata); see hf_trace.bpf.c. */
struct hf_trace_config {
	__u32 netns;    /* inode of the network namespace */
	__s32 ifindex;  /* 0: every device */
};

/* Opens, configures and loads the programs; NULL with *error set on failure. */
struct hf_trace *hf_trace_skel_load(const struct hf_trace_config *config, int *error);
int hf_trace_skel_attach(struct hf_trace *trace);
void hf_trace_skel_detach(struct hf_trace *trace);
/* The descriptors of the per-CPU array "stats" and the per-CPU hash "peers". */
int hf_trace_skel_stats_fd(const struct hf_trace *trace);
int hf_trace_skel_peers_fd(const struct hf_trace *trace);
/*
 * Into *missed: the events the kernel did not run a program for, because a
 * BPF program was already running on that CPU (bpf_prog_info's
 * recursion_misses, summed; Linux counts these for tracepoints from 6.7).
 */
int hf_trace_skel_missed(const struct hf_trace *trace, __u64 *missed);
/* Detaches and frees everything; NULL is fine. */
void hf_trace_skel_destroy(struct hf_trace *trace);

#ifdef __cplusplus
}
#endif

#endif /* HF_TRACE_SKEL_H */
