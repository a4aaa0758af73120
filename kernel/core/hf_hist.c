// SPDX-License-Identifier: GPL-2.0
/*
 * hf_hist.c - log2 histogram buckets (hf_hist.h). Plain C, no kernel
 * dependency: shared with the userspace unit tests.
 */
#include "hf_hist.h"

/**
 * hf_hist_log2_bound() - the largest value a bucket holds
 * @bucket: the bucket, below @nbuckets
 * @min_shift: log2 of the first bucket's bound
 * @nbuckets: buckets in the histogram, the last one unbounded (at least 1)
 *
 * Return: 2^(@min_shift + @bucket), or HF_HIST_INF for the last bucket
 * (and for a bound 64 bits cannot hold).
 */
u64 hf_hist_log2_bound(u32 bucket, u32 min_shift, u32 nbuckets)
{
	if (bucket + 1 >= nbuckets || min_shift + bucket >= 64)
		return HF_HIST_INF;
	return (u64)1 << (min_shift + bucket);
}

/**
 * hf_hist_log2_bucket() - the bucket a value falls in
 * @value: the value
 * @min_shift: log2 of the first bucket's bound
 * @nbuckets: buckets in the histogram, the last one unbounded (at least 1)
 *
 * Return: the first bucket whose bound is at least @value, below
 * @nbuckets.
 */
u32 hf_hist_log2_bucket(u64 value, u32 min_shift, u32 nbuckets)
{
	u32 i = 0;

	while (i + 1 < nbuckets && value > hf_hist_log2_bound(i, min_shift, nbuckets))
		i++;
	return i;
}
