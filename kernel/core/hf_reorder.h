/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_reorder.h - time-based loss detection for one peer flow: how long a
 * segment the scoreboard finds "lost" (core/hf_txwin.h) may still just be
 * reordered, in the manner of RACK (RFC 8985).
 *
 * The SACK scoreboard calls a segment lost once enough segments sent after
 * it have arrived. On a path that reorders, that happens to segments that
 * are merely late. This file adds time: a segment is repaired only when a
 * segment sent after it was delivered (RACK.xmit_ts) and it has been out
 * for a round trip plus a reordering window. A new flow's window is the
 * smoothed round trip; after 16 recoveries without reordering it narrows
 * to a quarter of the least round trip. It widens again each time the
 * receiver reports a duplicate (the HF_AF_DUP flag: a repair was
 * spurious), up to the smoothed round trip, or at once to cover a segment
 * seen arriving that late, up to how late that was (16 least round trips
 * at most): a path whose receiver works through a backlog delivers
 * overtaken segments later than the smoothed round trip suggests.
 *
 * Like core/hf_rto.h, this file computes; the caller owns the clock (in
 * nanoseconds) and the timer, and serialises calls (the peer lock).
 */
#ifndef _HF_REORDER_H
#define _HF_REORDER_H

#include "hf_core.h"

/*
 * Widest window, in quarters of the least round trip; srtt caps it (RFC
 * 8985). Wider than RFC 8985's 4 least round trips: where some packets
 * take a fast path (a tenth of them undelayed, in the tests), the least
 * round trip is theirs, and reordering spans the slow path's round trip.
 */
#define HF_REORDER_MULT_MAX		64
/* Recoveries without a duplicate after which the window narrows to 1. */
#define HF_REORDER_CLEAN_RESET		16

/**
 * struct hf_reorder - reordering state of one flow
 * @mult: window in quarters of the least round trip, 1..HF_REORDER_MULT_MAX
 * @clean: recoveries completed since the last duplicate or late arrival
 * @late_us: the largest lateness measured (how long a late arrival was
 *	     out beyond the round trip the time test allowed for), halved
 *	     at the end of each recovery, 0 once the window narrows
 * @rtt_us: round trip of the segment of @delivered_ns, from its sending
 *	    to the ACK that first showed it (RACK.rtt); 0 before any
 * @delivered_ns: send time of the most recently sent segment known to
 *		  have arrived (RACK.xmit_ts); 0 before any
 * @widened_ns: when @mult last grew (once per round trip at most)
 */
struct hf_reorder {
	u32 mult;
	u32 clean;
	u32 late_us;
	u32 rtt_us;
	u64 delivered_ns;
	u64 widened_ns;
};

void hf_reorder_init(struct hf_reorder *r);
bool hf_reorder_sample_ok(u64 sent_ns, u64 now_ns, bool repair,
			  u32 min_rtt_us);
void hf_reorder_delivered(struct hf_reorder *r, u64 sent_ns, u64 now_ns);
void hf_reorder_spurious(struct hf_reorder *r, u64 now_ns, u32 srtt_us);
void hf_reorder_late(struct hf_reorder *r, u64 out_us, u32 rtt_us,
		     u32 min_rtt_us);
void hf_reorder_recovered(struct hf_reorder *r);
u32 hf_reorder_window_us(const struct hf_reorder *r, u32 min_rtt_us,
			 u32 srtt_us);
u64 hf_reorder_wait_ns(const struct hf_reorder *r, u64 sent_ns, u64 now_ns,
		       u32 rtt_us, u32 window_us);

#endif /* _HF_REORDER_H */
