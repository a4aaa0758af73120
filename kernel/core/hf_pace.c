// SPDX-License-Identifier: GPL-2.0
/*
 * hf_pace.c - pacing arithmetic (hf_pace.h).
 *
 * A paced sender keeps "next": the time its link is free again. A frame
 * leaves at hf_pace_start(next, now, slack) and moves next on by
 * hf_pace_len_ns(its bytes, rate). A link idle for a while does not bank
 * the idle time as a burst; but when the timer that releases frames fires
 * late, up to slack of lateness is made up for, so a coarse timer does not
 * lower the rate.
 */
#include "hf_pace.h"

/**
 * hf_pace_len_ns() - time @bytes take at @rate
 * @bytes: frame length, as the rate counts it
 * @rate: bytes per second; 0 means unpaced
 *
 * Return: nanoseconds, rounded down; 0 when unpaced.
 */
u64 hf_pace_len_ns(u64 bytes, u64 rate)
{
	if (!rate)
		return 0;
	return hf_mul_div64(bytes, HF_NSEC_PER_SEC, rate);
}

/**
 * hf_pace_start() - when the next frame may leave
 * @next: when the link is free again (0: never used)
 * @now: the time now
 * @slack_ns: how far behind @now the schedule may lag and still be kept
 *
 * Return: @next when that is at most @slack_ns behind @now, else
 * @now - @slack_ns. The frame may leave once the result is not after now.
 */
u64 hf_pace_start(u64 next, u64 now, u64 slack_ns)
{
	u64 floor = now > slack_ns ? now - slack_ns : 0;

	return next > floor ? next : floor;
}

/**
 * hf_pace_segs() - segments that occupy a link of @rate for at most @ns
 * @rate: bytes per second; 0 means unpaced
 * @ns: the time
 * @seg_bytes: one segment's length as the rate counts it, at least 1
 *
 * Return: the segments, at least 1 (a frame holds at least one);
 * HF_PACE_SEGS_ANY when unpaced or beyond 32 bits.
 */
u32 hf_pace_segs(u64 rate, u64 ns, u32 seg_bytes)
{
	u64 segs;

	if (!rate)
		return HF_PACE_SEGS_ANY;
	segs = hf_mul_div64(rate, ns,
			    HF_NSEC_PER_SEC * (seg_bytes ? seg_bytes : 1));
	if (segs > HF_PACE_SEGS_ANY)
		return HF_PACE_SEGS_ANY;
	return segs ? (u32)segs : 1;
}
