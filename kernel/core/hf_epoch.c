// SPDX-License-Identifier: GPL-2.0
/*
 * hf_epoch.c - the receiver's decision on a DATA segment's incarnation
 * (hf_epoch.h says what each verdict means and why).
 *
 * Design notes:
 * 1. A flow starts at sequence number 0 and message 0, and its sender
 *    learns our state from our first ACK: until then it can have sent at
 *    most a window of segments (HF_WIN_SEGS) and HF_STATUS_WINDOW
 *    messages, all without an echo. Only such a segment can start a flow;
 *    anything else of an unknown epoch comes from a sender that believes
 *    we hold a state for it (echo set) or from nobody.
 * 2. The first window may still be arriving, reordered, after its sender
 *    learned our state: a segment without echo is taken below the lowest
 *    sequence number that came with the echo, never at or above it (a
 *    sender sends in order, so what it sent later carries the echo, and
 *    a repair carries the echo it has then).
 * 3. A segment that echoes a state we do not hold is answered LOST, not
 *    dropped silently: its sender believes in a flow we forgot (reclaimed
 *    or replaced) and would otherwise retry until its retry limit.
 * 4. A full peer table challenges a new sender keeping no state; a later
 *    segment of its first window may find room and start the flow with a
 *    state of ours, while the sender took the cookie, the first answer it
 *    heard (it keeps the first state it learns). Until the flow's state
 *    is echoed, an echo of that cookie makes the cookie our state.
 */
#include "hf_epoch.h"

/**
 * hf_epoch_can_start() - whether a segment may be among a new flow's first
 * @d: its decoded DATA header
 * @nsegs: segments it stands for (a packed train's), at least 1
 * @win_segs: the most segments a sender has in flight
 *
 * Return: true when it carries no echo and lies within the first window
 * and the first HF_STATUS_WINDOW messages of an incarnation.
 */
bool hf_epoch_can_start(const struct hf_data_hdr *d, u32 nsegs, u32 win_segs)
{
	return !d->echo && d->seq < win_segs && nsegs <= win_segs - d->seq &&
	       d->msg_id < HF_STATUS_WINDOW;
}

/**
 * hf_epoch_rx_check() - what to do with a DATA segment of a peer
 * @e: the peer's incoming incarnation
 * @d: the segment's decoded DATA header
 * @nsegs: segments it stands for (a packed train's), at least 1
 * @win_segs: the most segments a sender has in flight
 * @cookie: the challenge cookie of @d->epoch now; 0 when the caller
 *	    computed none (no challenge can be answered: the caller computes
 *	    them for another epoch while a flow exists, and for an echo that
 *	    is not the state of the flow or of none)
 * @cookie_prev: the one a challenge sent a little earlier carried, or 0
 *
 * Return: the verdict (enum hf_epoch_verdict). For HF_EPOCH_ADOPT the
 * state to adopt with is @d->echo when it is set (a challenge answered),
 * else the caller's choice.
 */
enum hf_epoch_verdict hf_epoch_rx_check(const struct hf_epoch_rx *e,
					const struct hf_data_hdr *d, u32 nsegs,
					u32 win_segs, u32 cookie,
					u32 cookie_prev)
{
	/* No sender uses epoch 0: it means "none" on both sides. */
	if (!d->epoch)
		return HF_EPOCH_FORGED;
	if (e->epoch && d->epoch == e->epoch) {
		if (d->echo == e->state)
			return HF_EPOCH_ACCEPT;
		/* Design note 4. */
		if (d->echo && !e->echoed &&
		    (d->echo == cookie || d->echo == cookie_prev))
			return HF_EPOCH_RESTATE;
		if (d->echo)
			return HF_EPOCH_LOST;
		/* Design note 2. */
		if (!e->echoed || hf_seq_before(d->seq, e->echo_from))
			return HF_EPOCH_ACCEPT;
		return HF_EPOCH_FORGED;
	}
	if (e->prev && d->epoch == e->prev)
		return HF_EPOCH_STALE;
	/* A challenge answered: one we sent while a flow existed, or none. */
	if (d->echo && (d->echo == cookie || d->echo == cookie_prev))
		return HF_EPOCH_ADOPT;
	if (d->echo)
		return HF_EPOCH_LOST;
	if (!hf_epoch_can_start(d, nsegs, win_segs))
		return HF_EPOCH_FORGED;
	return e->epoch ? HF_EPOCH_CHALLENGE : HF_EPOCH_ADOPT;
}

/**
 * hf_epoch_rx_adopt() - start the incarnation a segment belongs to
 * @e: the peer's incoming incarnation; the current one becomes @e->prev
 * @d: the segment hf_epoch_rx_check() said HF_EPOCH_ADOPT of
 * @state: our state id for it: @d->echo when set, else a fresh random one
 *	   (never 0)
 */
void hf_epoch_rx_adopt(struct hf_epoch_rx *e, const struct hf_data_hdr *d,
		       u32 state)
{
	if (e->epoch)
		e->prev = e->epoch;
	e->epoch = d->epoch;
	e->state = state;
	e->echoed = false;
	e->echo_from = 0;
	hf_epoch_rx_accept(e, d);
}

/**
 * hf_epoch_rx_restate() - take a challenge's cookie as the flow's state
 * @e: the peer's incoming incarnation, its state never echoed
 * @d: the segment hf_epoch_rx_check() said HF_EPOCH_RESTATE of
 */
void hf_epoch_rx_restate(struct hf_epoch_rx *e, const struct hf_data_hdr *d)
{
	e->state = d->echo;
	hf_epoch_rx_accept(e, d);
}

/**
 * hf_epoch_rx_accept() - note what an accepted segment says of the echo
 * @e: the peer's incoming incarnation
 * @d: a segment of @e->epoch, accepted
 */
void hf_epoch_rx_accept(struct hf_epoch_rx *e, const struct hf_data_hdr *d)
{
	if (!d->echo || d->echo != e->state)
		return;
	if (!e->echoed || hf_seq_before(d->seq, e->echo_from))
		e->echo_from = d->seq;
	e->echoed = true;
}

/**
 * hf_epoch_rx_forget() - no incoming flow any more (its state was dropped)
 * @e: the peer's incoming incarnation; @e->prev is kept, and the flow
 *     forgotten does not become it: its sender, echoing a state we no
 *     longer hold, is to be answered LOST, not ignored as stale
 */
void hf_epoch_rx_forget(struct hf_epoch_rx *e)
{
	e->epoch = 0;
	e->state = 0;
	e->echoed = false;
	e->echo_from = 0;
}
