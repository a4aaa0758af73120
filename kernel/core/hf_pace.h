/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_pace.h - pacing arithmetic: how long a frame occupies a link of a
 * given rate, when the next one may leave, and how many segments fit in
 * a given time. Shared by the socket pacer
 * (SO_MAX_PACING_RATE departure times) and hfq's device rate.
 *
 * This file reads no clock and owns no timer: callers pass "now" and keep
 * the "next free" time themselves (monotonic nanoseconds).
 */
#ifndef _HF_PACE_H
#define _HF_PACE_H

#include "hf_core.h"

#define HF_NSEC_PER_SEC		1000000000ULL
/* hf_pace_segs() without a limit. */
#define HF_PACE_SEGS_ANY	0xffffffffU

u64 hf_pace_len_ns(u64 bytes, u64 rate);
u64 hf_pace_start(u64 next, u64 now, u64 slack_ns);
u32 hf_pace_segs(u64 rate, u64 ns, u32 seg_bytes);

#endif /* _HF_PACE_H */
