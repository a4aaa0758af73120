/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_rxsched.h - the receiver's schedule of its downlink: which of the
 * senders with messages in flight to it may send how much, and how fast.
 *
 * A receiver that knows the rate of its link hands out grants (bytes
 * beyond what each sender has already delivered) so that the senders
 * together keep the link busy without queueing behind it: the bytes
 * granted and not yet arrived add up to about one bandwidth-delay product
 * of the link, plus a small overcommitment, and the rates the senders are
 * paced at add up to the link's. Shortest remaining first (SRPT) decides
 * who is granted next; senders with equal demand share alike; a single
 * sender gets the whole link. A sender that has gone silent loses its
 * place, and the bytes granted to it stop counting, so the others get the
 * link.
 *
 * Like the rest of core/, this computes only: the caller owns clocks (in
 * nanoseconds), the table's storage and its lock.
 */
#ifndef _HF_RXSCHED_H
#define _HF_RXSCHED_H

#include "hf_core.h"

/* Senders one receiver (a namespace) schedules; more are not scheduled. */
#define HF_RXSCHED_SLOTS		32

/* Overcommitment of the budget: one bandwidth-delay product (1/2^0). */
#define HF_RXSCHED_OVERCOMMIT_SHIFT	0

/* The least rate a scheduled sender is given: 1/2^6 of the link. */
#define HF_RXSCHED_MIN_RATE_SHIFT	6

/**
 * struct hf_rxsched_params - the receiver's link, as the caller knows it
 * @link_rate: bytes per second the scheduled senders' rates add up to:
 *	       the receiver's downlink, or a little more when the caller
 *	       overcommits its rate as well (the kernel does, by 1/8); not 0
 * @bdp: bytes of the link's bandwidth-delay product: what one sender must
 *	 have granted ahead of its arrivals to keep the link busy
 * @overcommit_shift: the budget is @bdp + @bdp >> @overcommit_shift
 * @silent_ns: a sender from which nothing arrived for this long, with
 *	       bytes still to come, is silent: its grant is reclaimed
 * @min_grant: bytes every scheduled sender may have granted ahead at the
 *	       least (a segment or two), whatever its rank: its data keeps
 *	       its ACKs, and with them its next grants, coming
 */
struct hf_rxsched_params {
	u64 link_rate;
	u64 bdp;
	u32 overcommit_shift;
	u64 silent_ns;
	u32 min_grant;
};

/**
 * struct hf_rxsched_sender - one slot of the receiver's table
 * @used: the slot holds a sender
 * @silent: the sender was found silent (its grant reclaimed); cleared by
 *	    the caller when something arrives from it again
 * @remaining: bytes of its messages the receiver knows of that have not
 *	       arrived (0: nothing known, it is not scheduled)
 * @outstanding: bytes granted to it beyond what arrived
 * @last_ns: when something last arrived from it (or it took the slot)
 */
struct hf_rxsched_sender {
	u8 used;
	u8 silent;
	u64 remaining;
	u64 outstanding;
	u64 last_ns;
};

/**
 * struct hf_rxsched_grant - what the allocator gives one sender
 * @target: bytes it should have granted ahead of its arrivals: its part
 *	    of the budget
 * @grant: bytes to grant it now, beyond @outstanding: what the budget
 *	   left free allows, shortest remaining first, and at least what
 *	   brings it to min_grant
 * @rate: bytes per second it is to be paced at; 0 when not scheduled
 */
struct hf_rxsched_grant {
	u64 target;
	u64 grant;
	u64 rate;
};

u64 hf_rxsched_budget(const struct hf_rxsched_params *p);
u32 hf_rxsched_alloc(struct hf_rxsched_sender *s, u32 n,
		     const struct hf_rxsched_params *p, u64 now_ns,
		     struct hf_rxsched_grant *out, u32 *reclaimed);

#endif /* _HF_RXSCHED_H */
