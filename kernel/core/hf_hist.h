/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_hist.h - log2 histogram buckets: which bucket a value falls in and
 * the upper bound of each bucket. Used for the hyperframe size histogram
 * of a namespace (hf_stats.h), exported as a Prometheus histogram.
 *
 * Bucket 0 holds values up to 2^min_shift, bucket i (0 < i < n - 1)
 * values in (2^(min_shift + i - 1), 2^(min_shift + i)], and the last one
 * every value above that: Prometheus' "le" (less or equal) buckets, the
 * last being "+Inf".
 */
#ifndef _HF_HIST_H
#define _HF_HIST_H

#include "hf_core.h"

/* The hyperframe size histogram: <= 1 KiB, <= 2 KiB, ... <= 4 MiB, more. */
#define HF_FRAME_SIZE_MIN_SHIFT	10
#define HF_FRAME_SIZE_BUCKETS	14

/* The upper bound of the last bucket: no bound ("+Inf"). */
#define HF_HIST_INF		((u64)-1)

u32 hf_hist_log2_bucket(u64 value, u32 min_shift, u32 nbuckets);
u64 hf_hist_log2_bound(u32 bucket, u32 min_shift, u32 nbuckets);

#endif /* _HF_HIST_H */
