/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_credit.h - receiver-granted credits of one peer flow, both sides.
 *
 * Credit counts payload bytes of new DATA segments: each segment's bytes
 * once, at its first transmission; repairs are free. Both sides count
 * from 0 at the start of an epoch. The receiver grants a *credit limit*:
 * the absolute byte offset up to which the sender may send. Limits only
 * grow, so a credit frame that is lost, duplicated or reordered is
 * harmless: the sender keeps the largest valid limit it has seen. Before
 * any grant the limit is the initial (unscheduled) window, which both
 * sides take from their params, so a short message leaves at once.
 *
 * On the wire the limit travels as its low 32 bits; the sender restores
 * the 64-bit value next to its own count of bytes sent
 * (hf_credit_from_wire()). That is exact as long as the true limit lies
 * within 2^31 bytes of the bytes sent, which max_ahead (below 2^31)
 * guarantees for every valid grant.
 *
 * Like the rest of core/, this file computes; callers own clocks (in
 * nanoseconds), timers and locks (the peer lock serialises calls on one
 * struct).
 */
#ifndef _HF_CREDIT_H
#define _HF_CREDIT_H

#include "hf_core.h"

/* Defaults of struct hf_credit_params; hf_credit.c says why. */
#define HF_CREDIT_DEFAULT_INITIAL	(64U << 10)
#define HF_CREDIT_DEFAULT_MAX_AHEAD	(1U << 30)
/* max_ahead must stay below this for the 32-bit wire value to be exact. */
#define HF_CREDIT_WIRE_SPAN		(1U << 31)

/**
 * struct hf_credit_params - shared by every peer (module parameters)
 * @initial_window: bytes a sender may send before any grant (the
 *		    unscheduled window); the same on both sides
 * @max_ahead: the largest grant above the bytes already sent (sender) or
 *	       consumed (receiver); a grant beyond it is invalid. Below
 *	       HF_CREDIT_WIRE_SPAN, at least initial_window
 */
struct hf_credit_params {
	u32 initial_window;
	u32 max_ahead;
};

/**
 * struct hf_credit_rx - the receiver's side of one peer flow
 * @limit: the credit limit granted, absolute; never decreases
 * @advertised: the limit last put on the wire
 * @received: new payload bytes received
 * @consumed: bytes released: read by the application, or dropped after
 *	      being counted in @received (message refused, flow torn down)
 * @over: bytes received beyond @limit (a sender that broke its credit)
 */
struct hf_credit_rx {
	u64 limit;
	u64 advertised;
	u64 received;
	u64 consumed;
	u64 over;
};

/**
 * struct hf_credit_tx - the sender's side of one peer flow
 * @sent: bytes sent, the credit consumed
 * @limit: the largest valid limit received (initial_window before any)
 * @stalled: 1 while the sender waits for credit
 * @stall_need: bytes the sender waits for (limit - sent must reach it)
 * @stall_start_ns: when the current stall began
 * @stall_ns: time spent in stalls that ended
 * @stalls: stalls begun
 * @grants: grants that raised the limit
 * @stale: grants at or below the limit (late, duplicated, reordered)
 * @invalid: grants beyond max_ahead above @sent, refused
 * @probes: segments sent beyond the credit as persist probes
 */
struct hf_credit_tx {
	u64 sent;
	u64 limit;
	u8 stalled;
	u32 stall_need;
	u64 stall_start_ns;
	u64 stall_ns;
	u64 stalls;
	u64 grants;
	u64 stale;
	u64 invalid;
	u64 probes;
};

/**
 * enum hf_credit_verdict - what a received grant did
 * @HF_CREDIT_NEW: it raised the limit
 * @HF_CREDIT_STALE: at or below the limit: ignored
 * @HF_CREDIT_INVALID: beyond max_ahead above the bytes sent: refused
 */
enum hf_credit_verdict {
	HF_CREDIT_NEW,
	HF_CREDIT_STALE,
	HF_CREDIT_INVALID,
};

void hf_credit_params_default(struct hf_credit_params *params);
int hf_credit_params_check(const struct hf_credit_params *params);

u32 hf_credit_to_wire(u64 limit);
u64 hf_credit_from_wire(u64 ref, u32 wire);
u64 hf_credit_share(u64 budget, u32 nactive, u32 index);
u64 hf_credit_rate_hint(u64 drain_rate, u64 link_rate, u32 nactive);

void hf_credit_rx_init(struct hf_credit_rx *rx,
		       const struct hf_credit_params *params);
bool hf_credit_rx_on_data(struct hf_credit_rx *rx, u32 bytes);
void hf_credit_rx_on_consume(struct hf_credit_rx *rx, u64 bytes);
u64 hf_credit_rx_grant(struct hf_credit_rx *rx,
		       const struct hf_credit_params *params, u64 share);
bool hf_credit_rx_advertise(struct hf_credit_rx *rx, u64 min_step,
			    u32 *wire);

void hf_credit_tx_init(struct hf_credit_tx *tx,
		       const struct hf_credit_params *params);
u64 hf_credit_avail(const struct hf_credit_tx *tx);
bool hf_credit_may_send(const struct hf_credit_tx *tx, u64 bytes);
int hf_credit_consume(struct hf_credit_tx *tx, u64 bytes);
void hf_credit_probe(struct hf_credit_tx *tx, u64 bytes);
void hf_credit_stall(struct hf_credit_tx *tx, u32 bytes, u64 now_ns);
void hf_credit_stall_end(struct hf_credit_tx *tx, u64 now_ns);
u64 hf_credit_stall_total_ns(const struct hf_credit_tx *tx, u64 now_ns);
enum hf_credit_verdict hf_credit_grant(struct hf_credit_tx *tx,
				       const struct hf_credit_params *params,
				       u64 limit, u64 now_ns);
enum hf_credit_verdict hf_credit_grant_wire(struct hf_credit_tx *tx,
					    const struct hf_credit_params *params,
					    u32 wire, u64 now_ns);

#endif /* _HF_CREDIT_H */
