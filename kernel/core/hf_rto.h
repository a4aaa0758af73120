/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_rto.h - the per-peer retransmission timeout estimator (RFC 6298, in
 * microseconds, with datacenter bounds).
 *
 * This file computes timeouts; it owns no timer and reads no clock. The
 * caller measures round trips, arms and stops its own timer, and keeps to
 * RFC 6298 section 5:
 *  - Karn's rule: hf_rto_sample() only with the round trip of a segment
 *    that was never retransmitted (an ack of a retransmitted segment cannot
 *    say which copy it answers);
 *  - arm the timer for hf_rto_current_us() when sending with no timer
 *    running, and restart it for hf_rto_current_us() when an ack brings
 *    new data; stop it when nothing is outstanding;
 *  - on expiry call hf_rto_timeout(): if it returns true, fail what is
 *    outstanding; otherwise retransmit the earliest unacknowledged segment
 *    and rearm for hf_rto_current_us(), which is now doubled;
 *  - on every ack that brings new data call hf_rto_ack_progress(), after
 *    hf_rto_sample() when that ack also gave a valid sample;
 *  - when an ack reports a segment sent once that gives no usable sample
 *    (SACKed late), call hf_rto_backoff_end();
 *  - when an ack takes data (acks or newly SACKs a segment) but gives no
 *    sample (Karn: it answers a retransmission), call hf_rto_answered()
 *    with how long ago the latest copy of what it took was sent: a peer
 *    that answers keeps no more backoff than that answer needs.
 * The caller serialises calls on one struct hf_rto (the peer's lock).
 */
#ifndef _HF_RTO_H
#define _HF_RTO_H

#include "hf_core.h"

/* Defaults of struct hf_rto_params; hf_rto.c says why these values. */
#define HF_RTO_DEFAULT_MIN_US		2000
#define HF_RTO_DEFAULT_MAX_US		2000000
#define HF_RTO_DEFAULT_INITIAL_US	20000
#define HF_RTO_DEFAULT_GRANULARITY_US	1000
#define HF_RTO_DEFAULT_MAX_BACKOFF	6
#define HF_RTO_DEFAULT_RETRY_LIMIT	8

/*
 * Bounds and policy, shared by every peer (module parameters). May change
 * between calls: each call clamps with the values it is given.
 */
struct hf_rto_params {
	u32 min_us;		/* floor of every timeout; at least 1 */
	u32 max_us;		/* ceiling of every timeout, backoff included */
	u32 initial_us;		/* timeout before the first sample */
	u32 granularity_us;	/* G: least margin of the timeout over srtt */
	u8 max_backoff;		/* doublings of the timeout, at most */
	u8 retry_limit;		/* expiries retried in a row; 255: no limit */
};

/*
 * One peer's estimator. Callers read the fields; only the functions below
 * write them. srtt and rttvar carry fraction bits (srtt in 1/8 us, rttvar
 * in 1/4 us, as the gains 1/8 and 1/4 need); the _us fields are the whole
 * microseconds and the _frac fields the remainder.
 */
struct hf_rto {
	u32 srtt_us;		/* smoothed round trip */
	u32 rttvar_us;		/* round-trip variation */
	u32 rto_us;		/* timeout before backoff: srtt + max(G, 4 rttvar) */
	u32 min_rtt_us;		/* least sample seen; 0 before the first */
	u32 latest_us;		/* most recent sample; 0 before the first */
	u32 samples;		/* samples taken, saturating at U32 max */
	u8 backoff;		/* doublings applied to rto_us */
	u8 retries;		/* expiries since the last progress, saturating */
	u8 srtt_frac;		/* srtt fraction, in 1/8 us (0..7) */
	u8 rttvar_frac;		/* rttvar fraction, in 1/4 us (0..3) */
};

void hf_rto_params_default(struct hf_rto_params *params);
int hf_rto_params_check(const struct hf_rto_params *params);

void hf_rto_init(struct hf_rto *rto, const struct hf_rto_params *params);
void hf_rto_sample(struct hf_rto *rto, const struct hf_rto_params *params,
		   u32 rtt_us);
bool hf_rto_timeout(struct hf_rto *rto, const struct hf_rto_params *params);
u32 hf_rto_current_us(const struct hf_rto *rto,
		      const struct hf_rto_params *params);
void hf_rto_ack_progress(struct hf_rto *rto);
void hf_rto_backoff_end(struct hf_rto *rto);
void hf_rto_answered(struct hf_rto *rto, const struct hf_rto_params *params,
		     u32 answer_us);
bool hf_rto_probe_timeout(struct hf_rto *rto,
			  const struct hf_rto_params *params);

#endif /* _HF_RTO_H */
