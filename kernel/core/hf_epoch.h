/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_epoch.h - which incarnation of a peer flow a receiver takes DATA of:
 * the current one, a new one that may start, or one that must prove
 * itself first (a challenge), as TCP answers a doubtful RST (RFC 5961).
 *
 * A sender starts each incarnation (epoch) with a random, unguessable
 * 32-bit number and sequence numbers from 0. The receiver answers its
 * first ACK with a random state id (rx_state), which the sender echoes in
 * every DATA header from then on. A blind attacker knows neither, so it
 * can neither reset a live flow nor inject into one:
 * - DATA of the current epoch must echo the state, or carry no echo yet
 *   (the sender's first window, sent before any ACK);
 * - a new epoch is adopted at once only when the receiver holds no flow
 *   from that peer, and only from a segment that can start one;
 * - while a flow exists, a new epoch is answered with a challenge ACK
 *   carrying a cookie, and adopted once a segment echoes it; so is one
 *   whose sender a full peer table had no room for (no flow, no state:
 *   the cookie is all the proof);
 * - DATA that echoes a state the receiver does not hold (it lost it)
 *   is answered with a LOST ACK, which makes its sender start anew.
 * The caller computes the cookies (keyed, time-bucketed) and rate-limits
 * adoptions and answers; this file only decides.
 */
#ifndef _HF_EPOCH_H
#define _HF_EPOCH_H

#include "hf_core.h"
#include "hf_wire.h"

/**
 * struct hf_epoch_rx - the receiver's view of the incoming flow's incarnation
 * @epoch: the current incarnation; 0 while none
 * @prev: the one before it: its segments are stale
 * @state: our state id for @epoch, which its sender echoes
 * @echo_from: the lowest sequence number seen echoing @state (valid when
 *	       @echoed): a segment without echo below it was sent before
 *	       the sender knew @state, one at or above it is forged
 * @echoed: the sender has echoed @state at least once
 */
struct hf_epoch_rx {
	u32 epoch;
	u32 prev;
	u32 state;
	u32 echo_from;
	bool echoed;
};

/* What to do with a DATA segment, as hf_epoch_rx_check() decides. */
enum hf_epoch_verdict {
	HF_EPOCH_ACCEPT,	/* the current flow's */
	HF_EPOCH_RESTATE,	/* its sender took a challenge's cookie */
	HF_EPOCH_ADOPT,		/* starts a new flow: hf_epoch_rx_adopt() */
	HF_EPOCH_CHALLENGE,	/* a new flow while one exists: challenge it */
	HF_EPOCH_LOST,		/* echoes a state not held: answer LOST */
	HF_EPOCH_STALE,		/* the flow before the current one */
	HF_EPOCH_FORGED,	/* no sender's state machine sends it */
};

bool hf_epoch_can_start(const struct hf_data_hdr *d, u32 nsegs, u32 win_segs);
enum hf_epoch_verdict hf_epoch_rx_check(const struct hf_epoch_rx *e,
					const struct hf_data_hdr *d, u32 nsegs,
					u32 win_segs, u32 cookie,
					u32 cookie_prev);
void hf_epoch_rx_adopt(struct hf_epoch_rx *e, const struct hf_data_hdr *d,
		       u32 state);
void hf_epoch_rx_accept(struct hf_epoch_rx *e, const struct hf_data_hdr *d);
void hf_epoch_rx_restate(struct hf_epoch_rx *e, const struct hf_data_hdr *d);
void hf_epoch_rx_forget(struct hf_epoch_rx *e);

#endif /* _HF_EPOCH_H */
