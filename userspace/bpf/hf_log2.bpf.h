/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bpf/hf_log2.bpf.h - the log2 histograms of hfctl's BPF programs
 * (hf_probe.bpf.c, hf_trace.bpf.c): bucket 0 holds 0 and 1, bucket i
 * (i > 0) holds [2^i, 2^(i+1)), the last everything from 2^(BUCKETS-1) up,
 * as hfctl/bpf/histogram.h reads them. For BPF programs only: include once,
 * after vmlinux.h and bpf_helpers.h.
 */
#ifndef HF_LOG2_BPF_H
#define HF_LOG2_BPF_H

#define HF_LOG2_BUCKETS 32

/*
 * The bucket of v. A global function, so the verifier checks it once and
 * sees an unknown bucket at each call: inlined, its branches would make
 * one path per bucket and per histogram, past the verifier's limit on 6.1.
 */
__noinline int hf_log2_bucket(__u64 v)
{
	int b = 0;

	if (v >> 32) {
		v >>= 32;
		b += 32;
	}
	if (v >> 16) {
		v >>= 16;
		b += 16;
	}
	if (v >> 8) {
		v >>= 8;
		b += 8;
	}
	if (v >> 4) {
		v >>= 4;
		b += 4;
	}
	if (v >> 2) {
		v >>= 2;
		b += 2;
	}
	if (v >> 1)
		b += 1;
	return b < HF_LOG2_BUCKETS ? b : HF_LOG2_BUCKETS - 1;
}

/* Adds n samples of v to hist (HF_LOG2_BUCKETS long). */
static __always_inline void hf_hist_add(__u64 *hist, __u64 v, __u64 n)
{
	/* Already below HF_LOG2_BUCKETS (a power of two); the mask says so. */
	hist[hf_log2_bucket(v) & (HF_LOG2_BUCKETS - 1)] += n;
}

#endif /* HF_LOG2_BPF_H */
