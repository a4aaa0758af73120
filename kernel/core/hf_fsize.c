// SPDX-License-Identifier: GPL-2.0
/*
 * hf_fsize.c - the dynamic frame size controller (hf_fsize.h).
 *
 * Design notes:
 * 1. Rounds. A round begins with the next-to-send sequence number as its
 *    end mark and ends when the cumulative ack reaches that mark: every
 *    segment that was in flight when it began has been acked, one round
 *    trip of data (the round counting of BBR and Linux Cubic's HyStart).
 *    The first round begins at the first send, a round ends only in
 *    hf_fsize_on_ack() with an ack that moves the cumulative ack on, and
 *    the next begins there with the then next-to-send mark. A round is
 *    clean when no congestion sign arrived during it.
 * 2. Growth: each clean round takes one step up, the reverse order of
 *    the steps down: first the rate scale back towards 1 (+rate_step),
 *    then, with the rate whole, the frame doubles up to max_segs (the
 *    last step lands on max_segs exactly). Only a round that sent at least
 *    one full frame doubles it (hf_fsize_on_send() with segs at least the
 *    frame size): a flow of small messages never proves that the path
 *    takes large frames, so it keeps the frame it has (the argument of
 *    RFC 7661 for a cwnd that is not used). The rate comes back on any
 *    clean round: frames that pacing or small messages cut short still
 *    show the path taking the rate, and a flow whose frames pacing keeps
 *    short (the transport's time cap) would otherwise stay cut for good.
 * 3. Congestion signs: a segment found lost (reorder window or RTO), a
 *    round trip above min_rtt by max(delay_pct % of min_rtt, delay_min_us)
 *    and a congestion notice from the receiver. The first sign of an
 *    episode cuts the rate scale by rate_cut (0.7, Cubic's beta, RFC
 *    9438): a frame already in the queues drains at once, a rate cut
 *    acts at the next departure. A sign of a later episode while the rate
 *    is still cut halves the frame, down to min_segs; with the frame at
 *    min_segs, the rate is cut again, down to rate_floor. Halving the
 *    frame after the rate makes the frame the second line: it costs
 *    per-frame overhead for good, while the rate comes back within two
 *    clean rounds.
 * 4. Episodes (hysteresis). A reaction sets recover to the next-to-send
 *    sequence number; a sign about a segment before recover was caused
 *    by data sent before the reaction, which it could not have helped, and
 *    is counted but not acted on (NewReno's recover, RFC 6582; one
 *    reduction per window as in RFC 5681). A burst that loses ten
 *    segments cuts the rate once, not ten times down to the floor. The
 *    caller passes each sign's segment: the lost one, the one whose round
 *    trip was measured, or for a notice the latest segment the receiver
 *    had when it sent it. A round with any sign, acted on or not, is not
 *    clean, so growth resumes only after a round trip without one.
 * 5. Idle decay. When nothing is in flight and nothing was sent or acked
 *    for longer than idle_rtos RTOs, hf_fsize_prepare() before the next
 *    frame halves it once for that and once more for each further whole
 *    RTO, but not below min(initial_segs, frame): the path's queues may
 *    hold others' traffic now, and a full frame at once would land on
 *    them unmeasured. This is RFC 2861's decay of an unused cwnd (halve
 *    per RTO idle, not below the restart window; Linux's
 *    tcp_cwnd_restart()), with a grace of idle_rtos (default 4) RTOs:
 *    RFC 7661 argues that pausing for a moment (an application's turn)
 *    should not cost the window, and at the 2 ms RTO floor one RTO is
 *    shorter than many think times. The rate scale is kept: it is the
 *    latest evidence about the path.
 * 6. Defaults: min_segs 1 (a frame cannot be smaller; under heavy
 *    congestion the transport degrades to paced segments), initial_segs 4
 *    (a few MTUs: below TCP's initial window of 10 segments, RFC 6928,
 *    since a frame leaves as one burst), max_bytes 1 MiB (720 segments at
 *    MTU 1500, 117 at MTU 9000), rate_step 1/4 (back from one cut in two
 *    clean rounds, from the floor in four), rate_floor 1/16, delay_pct
 *    100 with delay_min_us 500 (a round trip twice the least and half a
 *    millisecond above it: guest scheduling and softirq deferral move
 *    single samples by a few hundred microseconds without any queue).
 * 7. Arithmetic: frame sizes in u32 segments, bounded by
 *    HF_FSIZE_MAX_SEGS; rate scale in u16; times in u64. 64-bit
 *    divisions go through hf_mul_div64(). Params may change between calls: the bounds
 *    are computed from the params of each call and the frame size is
 *    clamped into them.
 * 8. Undo of a spurious timeout. A retransmission timeout is a loss
 *    sign (hf_fsize_on_timeout()), but a machine that stalled or an ACK
 *    held back past the RTO fires the timer with nothing lost. When F-RTO
 *    (RFC 5682) then sees an original of the timer's flight acked,
 *    hf_fsize_undo() puts back the frame, the rate and the episode as they
 *    were before the timeout's reaction: the response to a spurious
 *    timeout of RFC 4015 and of Linux TCP (tcp_try_undo_loss()), which
 *    restore the window (F-RTO's own undo, on an original newly acked
 *    that was never sent again, as Linux's FLAG_ORIG_SACK_ACKED). Only
 *    while nothing newer came: any other congestion sign since (acted on
 *    or not, even one at the floors that changes nothing) and any other
 *    change (a clean round's step, idle decay) is newer evidence about the
 *    path and cancels the undo. The timer firing again before any ACK
 *    answered it (a stall longer than the RTO) is the same timeout, and
 *    keeps the first one's undo, as F-RTO's one verdict covers them all;
 *    a timeout after an answer is a new one, judged on its own. A round
 *    that ended between the timeout and the verdict (the verdict's ACK
 *    usually ends it) stays without its step; the undo does not make the
 *    next round dirty.
 * 9. Undo of a spurious repair. A segment the reorder window finds lost
 *    is sent again and its reaction cuts the rate
 *    (hf_fsize_on_repair_loss()), but a segment only late, held in a slow
 *    guest or reordered by the path, arrives after all. The receiver
 *    answers every segment that arrives twice at once (the DUP flag), so
 *    each repair of a segment that was not lost brings exactly one
 *    duplicate, whichever copy arrives second; of a segment that was
 *    lost, none. When every repair sent since the reaction was answered
 *    so (hf_fsize_on_repair(), hf_fsize_on_duplicate()), nothing of the
 *    episode was lost and the reaction is taken back as a spurious
 *    timeout's is: TCP's D-SACK undo (RFC 3708, Linux's undo_retrans in
 *    tcp_try_undo_dsack()), counted as TCP counts it. The DUP flag does
 *    not name the segment, so a duplicate answering a repair sent before
 *    the reaction would count for one sent after it and could take back
 *    the cut of a real loss; TCP tells them apart by the D-SACK's
 *    sequence numbers (RFC 2883). The caller therefore keeps a reaction
 *    only when no earlier repair's duplicate can still arrive
 *    (@undoable: none was sent within two round trips and the reordering
 *    window). An ACK the network copied counts twice, as a copied D-SACK
 *    does for TCP: at worst a cut taken back early, never a message
 *    lost. Losses of the same episode keep it (their repairs are counted
 *    too), and so do its round trips above the delay threshold: a
 *    segment held back long enough to be repaired is measured late as
 *    well, and that is the delay the duplicates explain. Any other sign,
 *    change or timeout since cancels it, as in note 8, but for a timeout
 *    repeated before any answer, which keeps it (its resends count as
 *    repairs). A repair itself lost and sent once more counts twice and
 *    can bring one duplicate at most, so the reaction stands; so does one
 *    whose repair could not be built (it is counted before).
 */
#include "hf_fsize.h"

#define FSIZE_SHIFT_MAX		32
#define FSIZE_U32_MAX		0xffffffffU
#define FSIZE_F_UNDO_ANY	(HF_FSIZE_F_UNDO | HF_FSIZE_F_UNDO_REPAIR)

/**
 * hf_fsize_params_default() - fill @params with the defaults
 * @params: params to fill
 *
 * The values are the HF_FSIZE_DEFAULT_* constants; design note 6 says why.
 */
void hf_fsize_params_default(struct hf_fsize_params *params)
{
	params->min_segs = HF_FSIZE_DEFAULT_MIN_SEGS;
	params->initial_segs = HF_FSIZE_DEFAULT_INITIAL_SEGS;
	params->max_bytes = HF_FSIZE_DEFAULT_MAX_BYTES;
	params->rate_cut = HF_FSIZE_DEFAULT_RATE_CUT;
	params->rate_step = HF_FSIZE_DEFAULT_RATE_STEP;
	params->rate_floor = HF_FSIZE_DEFAULT_RATE_FLOOR;
	params->delay_pct = HF_FSIZE_DEFAULT_DELAY_PCT;
	params->delay_min_us = HF_FSIZE_DEFAULT_DELAY_MIN_US;
	params->idle_rtos = HF_FSIZE_DEFAULT_IDLE_RTOS;
}

/**
 * hf_fsize_params_check() - validate params before they are used
 * @params: params, typically from module parameters
 *
 * The other functions accept any params without overflow; this refuses
 * those that make no sense, so a bad setting is reported, not clamped.
 *
 * Return: 0, or -EINVAL when min_segs is 0, min_segs <= initial_segs <=
 * HF_FSIZE_MAX_SEGS does not hold, rate_cut is not in 1..HF_FSIZE_ONE - 1,
 * rate_step is 0 (a cut rate would never come back), or rate_floor is
 * not in 1..HF_FSIZE_ONE.
 */
int hf_fsize_params_check(const struct hf_fsize_params *params)
{
	if (!params->min_segs || params->initial_segs < params->min_segs ||
	    params->initial_segs > HF_FSIZE_MAX_SEGS)
		return -EINVAL;
	if (!params->rate_cut || params->rate_cut >= HF_FSIZE_ONE)
		return -EINVAL;
	if (!params->rate_step)
		return -EINVAL;
	if (!params->rate_floor || params->rate_floor > HF_FSIZE_ONE)
		return -EINVAL;
	return 0;
}

/* The smallest frame under @params: min_segs in 1..HF_FSIZE_MAX_SEGS. */
static u32 fsize_min(const struct hf_fsize_params *params)
{
	u32 min = params->min_segs;

	if (!min)
		min = 1;
	return min < HF_FSIZE_MAX_SEGS ? min : HF_FSIZE_MAX_SEGS;
}

/* The largest frame of @fs under @params: max_bytes / seg_size, bounded. */
static u32 fsize_max(const struct hf_fsize *fs,
		     const struct hf_fsize_params *params)
{
	u32 max = params->max_bytes / (fs->seg_size ? fs->seg_size : 1);
	u32 min = fsize_min(params);

	if (max > HF_FSIZE_MAX_SEGS)
		max = HF_FSIZE_MAX_SEGS;
	return max > min ? max : min;
}

/* @segs clamped into the bounds of @params for @fs. */
static u32 fsize_clamp(const struct hf_fsize *fs,
		       const struct hf_fsize_params *params, u64 segs)
{
	u32 min = fsize_min(params);
	u32 max = fsize_max(fs, params);

	if (segs < min)
		return min;
	if (segs > max)
		return max;
	return (u32)segs;
}

/* The rate floor of @params in 1..HF_FSIZE_ONE. */
static u16 fsize_rate_floor(const struct hf_fsize_params *params)
{
	if (!params->rate_floor)
		return 1;
	if (params->rate_floor > HF_FSIZE_ONE)
		return HF_FSIZE_ONE;
	return params->rate_floor;
}

/**
 * fsize_set() - apply a change and record it
 * @fs: controller
 * @segs: the new frame size
 * @rate: the new rate scale
 * @reason: why
 *
 * Return: HF_FSIZE_CHANGED_* of what differs from before; nothing is
 * recorded when nothing differs.
 */
static unsigned int fsize_set(struct hf_fsize *fs, u32 segs, u16 rate,
			      enum hf_fsize_reason reason)
{
	unsigned int what = 0;

	if (segs != fs->segs)
		what |= HF_FSIZE_CHANGED_FRAME;
	if (rate != fs->rate_scale)
		what |= HF_FSIZE_CHANGED_RATE;
	if (!what)
		return 0;
	fs->last.reason = (u8)reason;
	fs->last.what = (u8)what;
	fs->last.old_segs = fs->segs;
	fs->last.new_segs = segs;
	fs->last.old_rate = fs->rate_scale;
	fs->last.new_rate = rate;
	fs->changes[reason]++;
	fs->segs = segs;
	fs->rate_scale = rate;
	/* A newer change: an earlier one is no longer to be undone. */
	fs->flags &= ~FSIZE_F_UNDO_ANY;
	return what;
}

/*
 * Params may have changed since the last call: clamp the frame into their
 * bounds, unrecorded (a setting changed it, not the path).
 */
static void fsize_sync(struct hf_fsize *fs,
		       const struct hf_fsize_params *params)
{
	fs->max_segs = fsize_max(fs, params);
	fs->segs = fsize_clamp(fs, params, fs->segs);
}

/**
 * hf_fsize_init() - start a flow at the initial frame size
 * @fs: controller to initialise
 * @params: bounds
 * @seg_size: payload bytes per wire segment of this peer (MTU - header);
 *	      0 is taken as 1
 *
 * Call again for a new epoch: rounds, episodes and counters start over.
 */
void hf_fsize_init(struct hf_fsize *fs, const struct hf_fsize_params *params,
		   u32 seg_size)
{
	memset(fs, 0, sizeof(*fs));
	fs->seg_size = seg_size ? seg_size : 1;
	fs->max_segs = fsize_max(fs, params);
	fs->segs = fsize_clamp(fs, params, params->initial_segs);
	fs->rate_scale = HF_FSIZE_ONE;
}

/**
 * hf_fsize_segs() - the frame size to cut the next frame at
 * @fs: controller
 * @params: bounds, which may have changed since the last call
 *
 * Return: segments per frame, in [min_segs, max_segs] of @params.
 */
u32 hf_fsize_segs(const struct hf_fsize *fs,
		  const struct hf_fsize_params *params)
{
	return fsize_clamp(fs, params, fs->segs);
}

/**
 * hf_fsize_frame_segs() - segments of the next frame of a message
 * @fs: controller
 * @params: bounds, as for hf_fsize_segs()
 * @rest: segments the message has left, at least 1
 *
 * The frame size, or the message's rest when that is shorter; and when
 * what would be left after a frame is a short tail, at most
 * 1/2^HF_FSIZE_TAIL_SHIFT of the frame, the tail too (never past
 * HF_FSIZE_MAX_SEGS). The largest frame holds max_bytes of payload at
 * most, so a message of whole MiBs would otherwise end in a frame of one
 * segment (718 segments of 1,460 bytes are 296 bytes short of 1 MiB),
 * which costs a pass through the qdisc and an ACK of its own.
 *
 * Return: segments, at least 1.
 */
u32 hf_fsize_frame_segs(const struct hf_fsize *fs,
			const struct hf_fsize_params *params, u64 rest)
{
	u32 segs = hf_fsize_segs(fs, params);

	if (rest <= segs)
		return rest ? (u32)rest : 1;
	if (rest - segs <= segs >> HF_FSIZE_TAIL_SHIFT &&
	    rest <= HF_FSIZE_MAX_SEGS)
		return (u32)rest;
	return segs;
}

/**
 * hf_fsize_rate() - scale a pacing rate by the congestion cut
 * @fs: controller
 * @rate: the rate the pacer would use otherwise, bytes per second (the
 *	  minimum of the socket cap, the receiver's hint and the link
 *	  share); 0 means unpaced
 *
 * Return: @rate * rate_scale / HF_FSIZE_ONE, rounded down but at least 1
 * for a non-zero @rate; 0 for 0. An unpaced sender cannot be slowed by a
 * scale: it should pace at its link share once the scale is below one.
 */
u64 hf_fsize_rate(const struct hf_fsize *fs, u64 rate)
{
	u64 scaled;

	if (!rate || fs->rate_scale >= HF_FSIZE_ONE)
		return rate;
	scaled = hf_mul_div64(rate, fs->rate_scale, HF_FSIZE_ONE);
	return scaled ? scaled : 1;
}

/**
 * fsize_idle() - decay the frame after an idle period (design note 5)
 * @fs: controller, nothing in flight
 * @params: idle_rtos, initial_segs, bounds
 * @now_ns: the time now
 * @rto_us: the peer's current retransmission timeout (hf_rto_current_us())
 *
 * Return: HF_FSIZE_CHANGED_* of the decay.
 */
static unsigned int fsize_idle(struct hf_fsize *fs,
			       const struct hf_fsize_params *params,
			       u64 now_ns, u32 rto_us)
{
	u32 segs = hf_fsize_segs(fs, params);
	u32 floor = fsize_clamp(fs, params, params->initial_segs);
	u64 idle_us, rtos, halvings;

	if (!params->idle_rtos || now_ns <= fs->last_active_ns)
		return 0;
	if (!rto_us)
		rto_us = 1;
	idle_us = hf_mul_div64(now_ns - fs->last_active_ns, 1, 1000);
	if (idle_us <= (u64)params->idle_rtos * rto_us)
		return 0;
	/* A new round begins with this send; the old one never ended. */
	fs->flags &= ~(HF_FSIZE_F_ROUND | HF_FSIZE_F_DIRTY | HF_FSIZE_F_FULL);
	rtos = hf_mul_div64(idle_us, 1, rto_us);
	halvings = rtos - params->idle_rtos + 1;
	if (halvings > FSIZE_SHIFT_MAX)
		halvings = FSIZE_SHIFT_MAX;
	if (floor > segs)
		floor = segs;
	segs = (u32)((u64)segs >> halvings);
	if (segs < floor)
		segs = floor;
	return fsize_set(fs, segs, fs->rate_scale, HF_FSIZE_IDLE);
}

/**
 * hf_fsize_prepare() - a frame of new data is about to be cut
 * @fs: controller
 * @params: bounds and idle policy
 * @now_ns: the time now
 * @rto_us: the peer's retransmission timeout now (hf_rto_current_us())
 *
 * With nothing in flight after an idle period, decays the frame (design
 * note 5) and has the next send begin a new round. Call it before
 * hf_fsize_segs() for each frame of new data; it does nothing otherwise.
 *
 * Return: HF_FSIZE_CHANGED_FRAME when the frame decayed, else 0.
 */
unsigned int hf_fsize_prepare(struct hf_fsize *fs,
			      const struct hf_fsize_params *params,
			      u64 now_ns, u32 rto_us)
{
	fsize_sync(fs, params);
	if (!(fs->flags & HF_FSIZE_F_STARTED) || fs->una != fs->nxt)
		return 0;
	return fsize_idle(fs, params, now_ns, rto_us);
}

/**
 * hf_fsize_on_send() - a frame of new data left
 * @fs: controller
 * @params: bounds
 * @seq: sequence number of its first segment (normally the previous
 *	 call's @seq + @segs)
 * @segs: its segments; a frame of at least hf_fsize_segs() is full
 * @now_ns: the time now
 *
 * Not for retransmissions. Starts a round when none runs, and marks the
 * round as one that sent a full frame (design note 2) when it was.
 */
void hf_fsize_on_send(struct hf_fsize *fs,
		      const struct hf_fsize_params *params,
		      u32 seq, u32 segs, u64 now_ns)
{
	u32 end = seq + segs;

	fsize_sync(fs, params);
	if (!(fs->flags & HF_FSIZE_F_STARTED)) {
		fs->flags |= HF_FSIZE_F_STARTED;
		fs->una = seq;
		fs->nxt = seq;
	}
	if (!(fs->flags & HF_FSIZE_F_ROUND)) {
		fs->flags |= HF_FSIZE_F_ROUND;
		fs->round_end = fs->nxt;
	}
	if (segs >= fs->segs)
		fs->flags |= HF_FSIZE_F_FULL;
	if (hf_seq_after(end, fs->nxt))
		fs->nxt = end;
	fs->last_active_ns = now_ns;
}

/* A clean round: one step up (design note 2). */
static unsigned int fsize_grow(struct hf_fsize *fs,
			       const struct hf_fsize_params *params)
{
	u32 segs = hf_fsize_segs(fs, params);
	u32 rate = fs->rate_scale;

	if (rate < HF_FSIZE_ONE) {
		rate += params->rate_step ? params->rate_step : 1;
		if (rate > HF_FSIZE_ONE)
			rate = HF_FSIZE_ONE;
	} else {
		segs = fsize_clamp(fs, params, (u64)segs * 2);
	}
	return fsize_set(fs, segs, (u16)rate, HF_FSIZE_GROW);
}

/**
 * hf_fsize_on_ack() - an ACK moved the cumulative ack on
 * @fs: controller
 * @params: bounds and growth policy
 * @cum_ack: the new cumulative ack (next sequence number expected)
 * @now_ns: the time now
 *
 * Ends the round when @cum_ack reaches its end mark (design note 1); a
 * clean round steps the rate back up, or with the rate whole doubles the
 * frame when it sent a full one (design note 2), and the next
 * round begins with the next-to-send mark. An ack that does not move on
 * from the last one, or that acks beyond what was sent, changes nothing.
 *
 * Return: HF_FSIZE_CHANGED_* of the growth.
 */
unsigned int hf_fsize_on_ack(struct hf_fsize *fs,
			     const struct hf_fsize_params *params,
			     u32 cum_ack, u64 now_ns)
{
	unsigned int what = 0;

	fsize_sync(fs, params);
	if (!(fs->flags & HF_FSIZE_F_STARTED) ||
	    !hf_seq_after(cum_ack, fs->una) || hf_seq_after(cum_ack, fs->nxt))
		return 0;
	fs->una = cum_ack;
	fs->last_active_ns = now_ns;
	if (!(fs->flags & HF_FSIZE_F_ROUND) ||
	    hf_seq_before(cum_ack, fs->round_end))
		return 0;

	if (fs->rounds != FSIZE_U32_MAX)
		fs->rounds++;
	if (!(fs->flags & HF_FSIZE_F_DIRTY) &&
	    ((fs->flags & HF_FSIZE_F_FULL) || fs->rate_scale < HF_FSIZE_ONE))
		what = fsize_grow(fs, params);
	fs->flags &= ~(HF_FSIZE_F_DIRTY | HF_FSIZE_F_FULL);
	fs->round_end = fs->nxt;
	return what;
}

/* Whether a sign about @seq belongs to the episode last reacted to. */
static bool fsize_in_episode(const struct hf_fsize *fs, u32 seq)
{
	return (fs->flags & HF_FSIZE_F_STARTED) &&
	       (fs->flags & HF_FSIZE_F_RECOVER) &&
	       hf_seq_before(seq, fs->recover);
}

/* hf_fsize_on_congestion() without its effect on an undo kept. */
static unsigned int fsize_congestion(struct hf_fsize *fs,
				     const struct hf_fsize_params *params,
				     enum hf_fsize_reason reason, u32 seq)
{
	u16 floor = fsize_rate_floor(params);
	u64 rate = fs->rate_scale;
	u32 segs;

	fsize_sync(fs, params);
	segs = fs->segs;
	if (reason != HF_FSIZE_LOSS && reason != HF_FSIZE_DELAY &&
	    reason != HF_FSIZE_NOTICE)
		return 0;
	fs->signs[reason]++;
	if (!(fs->flags & HF_FSIZE_F_STARTED) || fsize_in_episode(fs, seq)) {
		fs->flags |= HF_FSIZE_F_DIRTY;
		fs->signs_ignored++;
		return 0;
	}
	fs->flags |= HF_FSIZE_F_DIRTY | HF_FSIZE_F_RECOVER;
	fs->recover = fs->nxt;

	if (rate >= HF_FSIZE_ONE || segs <= fsize_min(params))
		rate = hf_mul_div64(rate, params->rate_cut, HF_FSIZE_ONE);
	else
		segs = fsize_clamp(fs, params, segs / 2);
	if (rate < floor)
		rate = floor;
	if (rate > fs->rate_scale)	/* a floor above a lower scale */
		rate = fs->rate_scale;
	return fsize_set(fs, segs, (u16)rate, reason);
}

/**
 * hf_fsize_on_congestion() - a congestion sign
 * @fs: controller
 * @params: bounds and rate policy
 * @reason: HF_FSIZE_LOSS, HF_FSIZE_DELAY or HF_FSIZE_NOTICE; any other
 *	    value changes nothing
 * @seq: the segment the sign is about (design note 4)
 *
 * Marks the round as not clean. A sign about a segment sent before the
 * last reaction is counted in signs_ignored; otherwise this is a new
 * episode (design note 3): a rate not cut is cut; a cut rate leaves the
 * frame to be halved; a frame at its minimum leaves the rate to be cut
 * further, down to rate_floor. Either way an undo kept is cancelled
 * (design note 8), but for a repair's by a delay sign of its episode
 * (design note 9).
 *
 * Return: HF_FSIZE_CHANGED_RATE or HF_FSIZE_CHANGED_FRAME for the step
 * taken; 0 when ignored or when both are at their floor.
 */
unsigned int hf_fsize_on_congestion(struct hf_fsize *fs,
				    const struct hf_fsize_params *params,
				    enum hf_fsize_reason reason, u32 seq)
{
	/* Late segments of a repair's episode show late: design note 9. */
	bool keep = (fs->flags & HF_FSIZE_F_UNDO_REPAIR) &&
		    reason == HF_FSIZE_DELAY && fsize_in_episode(fs, seq);

	if ((reason == HF_FSIZE_LOSS || reason == HF_FSIZE_DELAY ||
	     reason == HF_FSIZE_NOTICE) && !keep)
		fs->flags &= ~FSIZE_F_UNDO_ANY;
	return fsize_congestion(fs, params, reason, seq);
}

/* The state a loss reaction may have to put back (hf_fsize_undo()). */
struct fsize_before {
	u32 segs;
	u32 recover;
	u32 flags;
	u16 rate;
};

static void fsize_before_take(const struct hf_fsize *fs,
			      struct fsize_before *b)
{
	b->segs = fs->segs;
	b->recover = fs->recover;
	b->flags = fs->flags & (HF_FSIZE_F_DIRTY | HF_FSIZE_F_RECOVER);
	b->rate = fs->rate_scale;
}

/* A loss reaction was made: keep @b, what it changed, for an undo. */
static void fsize_undo_keep(struct hf_fsize *fs,
			    const struct hf_fsize_params *params,
			    const struct fsize_before *b, u32 kind)
{
	/* The frame before the params' clamp: a setting made that. */
	fs->undo_segs = fsize_clamp(fs, params, b->segs);
	fs->undo_rate = b->rate;
	fs->undo_recover = b->recover;
	fs->undo_flags = b->flags;
	fs->undo_rounds = fs->rounds;
	fs->undo_repairs = 0;
	fs->flags |= HF_FSIZE_F_UNDO | kind;
}

/**
 * hf_fsize_on_timeout() - a retransmission timeout, a loss sign that F-RTO
 * may later find spurious
 * @fs: controller
 * @params: bounds and rate policy
 * @seq: the segment the timer sends again (the oldest unacknowledged)
 * @repeat: the timer fired again before any ACK answered its last
 *	    timeout (the same stall)
 *
 * As hf_fsize_on_congestion() with HF_FSIZE_LOSS; when that changes
 * something, the state before it is kept for hf_fsize_undo() (design
 * note 8). A repeat without a reaction of its own keeps what the first
 * timeout of its stall kept: F-RTO's one verdict, on the first ACK after
 * the last of them, is about them all. Any other timeout without a
 * reaction leaves nothing to undo.
 *
 * Return: as hf_fsize_on_congestion().
 */
unsigned int hf_fsize_on_timeout(struct hf_fsize *fs,
				 const struct hf_fsize_params *params, u32 seq,
				 bool repeat)
{
	struct fsize_before b;
	unsigned int what;

	fsize_before_take(fs, &b);
	what = fsize_congestion(fs, params, HF_FSIZE_LOSS, seq);
	if (what)
		fsize_undo_keep(fs, params, &b, 0);
	else if (!repeat)
		fs->flags &= ~FSIZE_F_UNDO_ANY;
	return what;
}

/* Put back what the kept loss reaction changed (design notes 8 and 9). */
static unsigned int fsize_undo(struct hf_fsize *fs,
			       const struct hf_fsize_params *params)
{
	u32 put = HF_FSIZE_F_RECOVER, keep;
	unsigned int what;

	/* A round ended since: the reaction's round is over, not this one. */
	if (fs->rounds == fs->undo_rounds)
		put |= HF_FSIZE_F_DIRTY;
	keep = fs->flags & ~(put | FSIZE_F_UNDO_ANY);
	fsize_sync(fs, params);
	what = fsize_set(fs, fsize_clamp(fs, params, fs->undo_segs),
			 fs->undo_rate, HF_FSIZE_UNDO);
	fs->recover = fs->undo_recover;
	fs->flags = keep | (fs->undo_flags & put);
	return what;
}

/**
 * hf_fsize_undo() - the last timeout was spurious: take its reaction back
 * @fs: controller
 * @params: bounds, which may have changed since the timeout
 *
 * Puts back the frame size, the rate scale and the episode (recover, and
 * whether the round had a sign, if that round still runs) as they were
 * before the reaction of hf_fsize_on_timeout(), when nothing newer came
 * since; otherwise changes nothing (design note 8). A repair's reaction
 * kept is not a timeout's: F-RTO's verdict does not judge it.
 *
 * Return: HF_FSIZE_CHANGED_* of what it put back in the frame and the
 * rate, with HF_FSIZE_UNDO as the change's reason; 0 when there was
 * nothing to undo, or when only the episode was put back (a frame the
 * params clamp to where it is).
 */
unsigned int hf_fsize_undo(struct hf_fsize *fs,
			   const struct hf_fsize_params *params)
{
	if ((fs->flags & FSIZE_F_UNDO_ANY) != HF_FSIZE_F_UNDO)
		return 0;
	return fsize_undo(fs, params);
}

/**
 * hf_fsize_undo_forget() - nothing to undo any more
 * @fs: controller
 *
 * For a caller that reset its timer's state by other means than a
 * timeout (a window reopened, a challenge): F-RTO's next verdict is not
 * about the timeout an undo was kept for, and what is sent again then is
 * no repair of a loss.
 */
void hf_fsize_undo_forget(struct hf_fsize *fs)
{
	fs->flags &= ~FSIZE_F_UNDO_ANY;
}

/**
 * hf_fsize_on_repair_loss() - a segment the reorder window found lost, to
 * be sent again: a loss sign that duplicates may later show was none
 * @fs: controller
 * @params: bounds and rate policy
 * @seq: the segment found lost
 * @undoable: no duplicate answering an earlier repair can still arrive
 *	      (design note 9); false reacts without keeping anything
 *
 * As hf_fsize_on_congestion() with HF_FSIZE_LOSS; when that reacts and
 * @undoable, the state before it is kept for hf_fsize_on_duplicate()
 * (design note 9). A
 * sign of the episode already reacted to keeps a repair's reaction kept:
 * its repair is one more to be answered by a duplicate. Any other sign
 * without a reaction (both at their floors) leaves nothing to undo.
 *
 * Return: as hf_fsize_on_congestion().
 */
unsigned int hf_fsize_on_repair_loss(struct hf_fsize *fs,
				     const struct hf_fsize_params *params,
				     u32 seq, bool undoable)
{
	bool same = (fs->flags & HF_FSIZE_F_UNDO_REPAIR) &&
		    fsize_in_episode(fs, seq);
	struct fsize_before b;
	unsigned int what;

	fsize_before_take(fs, &b);
	what = fsize_congestion(fs, params, HF_FSIZE_LOSS, seq);
	if (what && undoable)
		fsize_undo_keep(fs, params, &b, HF_FSIZE_F_UNDO_REPAIR);
	else if (!what && !same)
		fs->flags &= ~FSIZE_F_UNDO_ANY;
	return what;
}

/**
 * hf_fsize_on_repair() - a segment was sent again
 * @fs: controller
 *
 * While a repair's reaction is kept, one more repair must be answered by a
 * duplicate before it is taken back (design note 9); otherwise nothing.
 */
void hf_fsize_on_repair(struct hf_fsize *fs)
{
	if ((fs->flags & HF_FSIZE_F_UNDO_REPAIR) &&
	    fs->undo_repairs != FSIZE_U32_MAX)
		fs->undo_repairs++;
}

/**
 * hf_fsize_on_duplicate() - the receiver answered a segment that arrived
 * twice
 * @fs: controller
 * @params: bounds, which may have changed since the reaction
 *
 * While a repair's reaction is kept, counts one of its repairs answered;
 * the last one takes the reaction back as hf_fsize_undo() does (design
 * note 9). A duplicate with no repair outstanding changes nothing.
 *
 * Return: as hf_fsize_undo(); 0 until the last repair is answered.
 */
unsigned int hf_fsize_on_duplicate(struct hf_fsize *fs,
				   const struct hf_fsize_params *params)
{
	if (!(fs->flags & HF_FSIZE_F_UNDO_REPAIR) || !fs->undo_repairs)
		return 0;
	if (--fs->undo_repairs)
		return 0;
	return fsize_undo(fs, params);
}

/**
 * hf_fsize_rtt_inflated() - is a round trip a delay sign
 * @params: delay_pct and delay_min_us
 * @rtt_us: the sample
 * @min_rtt_us: the least round trip of the flow (struct hf_rto min_rtt_us);
 *		0 (no sample yet) makes no sign
 *
 * Return: true when @rtt_us exceeds @min_rtt_us by more than
 * max(delay_pct % of @min_rtt_us, delay_min_us), computed in u64; false
 * when delay_pct is 0.
 */
bool hf_fsize_rtt_inflated(const struct hf_fsize_params *params,
			   u32 rtt_us, u32 min_rtt_us)
{
	u64 thresh;

	if (!params->delay_pct || !min_rtt_us)
		return false;
	thresh = hf_mul_div64(min_rtt_us, params->delay_pct, 100);
	if (thresh < params->delay_min_us)
		thresh = params->delay_min_us;
	return rtt_us > (u64)min_rtt_us + thresh;
}

/**
 * hf_fsize_on_rtt() - a round-trip sample
 * @fs: controller
 * @params: delay threshold, bounds and rate policy
 * @seq: the segment the sample measured
 * @rtt_us: the sample
 * @min_rtt_us: the least round trip of the flow
 *
 * Return: as hf_fsize_on_congestion() with HF_FSIZE_DELAY when the sample
 * is inflated (hf_fsize_rtt_inflated()), else 0.
 */
unsigned int hf_fsize_on_rtt(struct hf_fsize *fs,
			     const struct hf_fsize_params *params,
			     u32 seq, u32 rtt_us, u32 min_rtt_us)
{
	if (!hf_fsize_rtt_inflated(params, rtt_us, min_rtt_us))
		return 0;
	return hf_fsize_on_congestion(fs, params, HF_FSIZE_DELAY, seq);
}
