/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_fsize.h - the dynamic frame size controller of one peer flow: how
 * many wire segments the sender puts in one hyperframe, and by how much it
 * scales its pacing rate down after congestion.
 *
 * The frame starts at initial_segs, doubles at the end of each clean round
 * up to max_bytes worth of segments, and on a congestion sign the rate is
 * cut first; a sign of a later episode while the rate is still cut halves
 * the frame, never below min_segs. Clean rounds restore the rate first,
 * then grow the frame again. hf_fsize.c explains the choices.
 *
 * Calls the transport makes, all under the peer lock, with its own clock
 * (monotonic nanoseconds) and sequence numbers (u32, wrapping):
 *  - hf_fsize_prepare() before cutting each frame of new data at
 *    hf_fsize_segs() (the idle decay), hf_fsize_on_send() once it left;
 *  - hf_fsize_on_ack() for every ACK that moves the cumulative ack on:
 *    rounds end here (a round ends when the cumulative ack reaches the
 *    sequence number that was next to send when the round began);
 *  - hf_fsize_on_rtt() with each round-trip sample (delay signal);
 *  - hf_fsize_on_congestion() for a segment found lost by the reorder
 *    window and for a congestion notice from the receiver;
 *  - hf_fsize_on_timeout() for a retransmission timeout, hf_fsize_undo()
 *    when F-RTO finds that timeout spurious, and hf_fsize_undo_forget()
 *    when the timer's state was reset by anything else;
 *  - hf_fsize_on_repair_loss() instead of hf_fsize_on_congestion() for a
 *    segment the reorder window found lost and that is sent again,
 *    hf_fsize_on_repair() for each repair sent, hf_fsize_on_duplicate()
 *    for each ACK that answers a segment arriving twice: when every
 *    repair since the reaction arrived twice, it is taken back;
 *  - hf_fsize_rate() to scale its pacing rate (hf_pace.h) by the cut.
 * The functions that change state return a mask of HF_FSIZE_CHANGED_*;
 * non-zero means the last-change record says (old, new, reason).
 */
#ifndef _HF_FSIZE_H
#define _HF_FSIZE_H

#include "hf_core.h"

/* Rate multiplier unit: the rate is scaled by rate_scale / HF_FSIZE_ONE. */
#define HF_FSIZE_ONE			1024U

/* Defaults of struct hf_fsize_params; hf_fsize.c says why these values. */
#define HF_FSIZE_DEFAULT_MIN_SEGS	1
#define HF_FSIZE_DEFAULT_INITIAL_SEGS	4
#define HF_FSIZE_DEFAULT_MAX_BYTES	(1U << 20)
#define HF_FSIZE_DEFAULT_RATE_CUT	717	/* 0.7, in 1/1024 */
#define HF_FSIZE_DEFAULT_RATE_STEP	256	/* +1/4 per clean round */
#define HF_FSIZE_DEFAULT_RATE_FLOOR	64	/* 1/16 */
#define HF_FSIZE_DEFAULT_DELAY_PCT	100
#define HF_FSIZE_DEFAULT_DELAY_MIN_US	500
#define HF_FSIZE_DEFAULT_IDLE_RTOS	4

/* The largest frame, in segments: the transport counts them in a u16. */
#define HF_FSIZE_MAX_SEGS		65535U
/*
 * A message's tail of at most 1/2^this of a frame goes with the frame
 * before it (hf_fsize_frame_segs()).
 */
#define HF_FSIZE_TAIL_SHIFT		5

/**
 * enum hf_fsize_reason - why the frame size or the rate changed
 * @HF_FSIZE_NONE: nothing changed yet
 * @HF_FSIZE_GROW: a clean round (rate restored or frame doubled)
 * @HF_FSIZE_LOSS: a segment was found lost (reorder window, RTO)
 * @HF_FSIZE_DELAY: a round trip above min_rtt by the delay threshold
 * @HF_FSIZE_NOTICE: the receiver sent a congestion notice
 * @HF_FSIZE_IDLE: the flow was idle for longer than idle_rtos RTOs
 * @HF_FSIZE_UNDO: a loss reaction taken back: F-RTO found a timeout
 *		   spurious, or every repair of a loss arrived twice
 * @HF_FSIZE_NR_REASONS: the number of reasons
 */
enum hf_fsize_reason {
	HF_FSIZE_NONE,
	HF_FSIZE_GROW,
	HF_FSIZE_LOSS,
	HF_FSIZE_DELAY,
	HF_FSIZE_NOTICE,
	HF_FSIZE_IDLE,
	HF_FSIZE_UNDO,
	HF_FSIZE_NR_REASONS,
};

/* What a call changed (a mask). */
#define HF_FSIZE_CHANGED_FRAME		0x1U
#define HF_FSIZE_CHANGED_RATE		0x2U

/**
 * struct hf_fsize_params - bounds and policy, shared by every peer
 * @min_segs: the smallest frame, in segments; at least 1
 * @initial_segs: the frame a new flow starts with, and the one idle decay
 *		  falls back to; in [min_segs, max]
 * @max_bytes: the largest frame in bytes; the segments of one peer are
 *	       max_bytes / seg_size (at least min_segs, at most
 *	       HF_FSIZE_MAX_SEGS)
 * @rate_cut: multiplier applied to the rate scale on a cut, in
 *	      1/HF_FSIZE_ONE; 1..HF_FSIZE_ONE - 1
 * @rate_step: added to the rate scale per clean round, in 1/HF_FSIZE_ONE
 * @rate_floor: the rate scale is never cut below this; 1..HF_FSIZE_ONE
 * @delay_pct: a round trip above min_rtt by max(delay_pct % of min_rtt,
 *	       delay_min_us) is a congestion sign; 0: delay is no sign
 * @delay_min_us: the least inflation that counts, whatever min_rtt
 * @idle_rtos: idle for longer than this many RTOs decays the frame
 *	       towards initial_segs; 0: never
 *
 * May change between calls: each call clamps with the values it is given.
 */
struct hf_fsize_params {
	u32 min_segs;
	u32 initial_segs;
	u32 max_bytes;
	u16 rate_cut;
	u16 rate_step;
	u16 rate_floor;
	u16 delay_pct;
	u32 delay_min_us;
	u32 idle_rtos;
};

/**
 * struct hf_fsize_change - the last change, for tracepoints and events
 * @reason: enum hf_fsize_reason
 * @what: HF_FSIZE_CHANGED_* of that change
 * @old_segs: frame size before it
 * @new_segs: frame size after it
 * @old_rate: rate scale before it
 * @new_rate: rate scale after it
 */
struct hf_fsize_change {
	u8 reason;
	u8 what;
	u16 old_rate;
	u16 new_rate;
	u32 old_segs;
	u32 new_segs;
};

/**
 * struct hf_fsize - one peer flow's controller. Callers read the fields;
 * only the functions below write them.
 * @segs: the frame size now, in segments; in [min_segs, max_segs]
 * @max_segs: the frame size limit for this peer's seg_size
 * @seg_size: payload bytes per segment, given at init
 * @rate_scale: the rate multiplier now, in 1/HF_FSIZE_ONE; HF_FSIZE_ONE
 *		when not cut
 * @nxt: next sequence number to send, as hf_fsize_on_send() last said
 * @una: cumulative ack, as hf_fsize_on_ack() last said
 * @round_end: the round ends when the cumulative ack reaches this
 * @recover: signs about segments before this belong to the episode
 *	     already reacted to
 * @last_active_ns: time of the last send or ack; 0 before any
 * @rounds: rounds completed, saturating
 * @flags: HF_FSIZE_F_* (below)
 * @undo_rate: the rate scale before a loss reaction that may be undone
 * @undo_segs: the frame size before it
 * @undo_recover: recover before it
 * @undo_flags: the HF_FSIZE_F_DIRTY and HF_FSIZE_F_RECOVER flags before it
 * @undo_rounds: rounds when it was made
 * @undo_repairs: for a repair's reaction (HF_FSIZE_F_UNDO_REPAIR), the
 *		  repairs sent since it that no duplicate answered yet
 * @last: the last change
 * @changes: changes counted by reason
 * @signs: congestion signs counted by reason (acted on or not)
 * @signs_ignored: signs about segments sent before the last reaction
 *		   (the episode already reacted to), or with nothing sent yet
 */
struct hf_fsize {
	u32 segs;
	u32 max_segs;
	u32 seg_size;
	u32 flags;
	u16 rate_scale;
	u16 undo_rate;
	u32 nxt;
	u32 una;
	u32 round_end;
	u32 recover;
	u32 rounds;
	u32 undo_segs;
	u32 undo_recover;
	u32 undo_flags;
	u32 undo_rounds;
	u32 undo_repairs;
	u64 last_active_ns;
	struct hf_fsize_change last;
	u64 changes[HF_FSIZE_NR_REASONS];
	u64 signs[HF_FSIZE_NR_REASONS];
	u64 signs_ignored;
};

/* flags */
#define HF_FSIZE_F_STARTED	0x1U	/* something was sent: nxt, una valid */
#define HF_FSIZE_F_ROUND	0x2U	/* a round is running (round_end valid) */
#define HF_FSIZE_F_DIRTY	0x4U	/* this round saw a congestion sign */
#define HF_FSIZE_F_FULL		0x8U	/* this round sent a full frame */
#define HF_FSIZE_F_RECOVER	0x10U	/* recover is valid */
/* undo_* hold the state before the last change, a loss reaction */
#define HF_FSIZE_F_UNDO		0x20U
/* ... a repair's, judged by duplicates (hf_fsize_on_duplicate()) */
#define HF_FSIZE_F_UNDO_REPAIR	0x40U

void hf_fsize_params_default(struct hf_fsize_params *params);
int hf_fsize_params_check(const struct hf_fsize_params *params);

void hf_fsize_init(struct hf_fsize *fs, const struct hf_fsize_params *params,
		   u32 seg_size);
u32 hf_fsize_segs(const struct hf_fsize *fs,
		  const struct hf_fsize_params *params);
u64 hf_fsize_rate(const struct hf_fsize *fs, u64 rate);
u32 hf_fsize_frame_segs(const struct hf_fsize *fs,
			const struct hf_fsize_params *params, u64 rest);

unsigned int hf_fsize_prepare(struct hf_fsize *fs,
			      const struct hf_fsize_params *params,
			      u64 now_ns, u32 rto_us);
void hf_fsize_on_send(struct hf_fsize *fs,
		      const struct hf_fsize_params *params,
		      u32 seq, u32 segs, u64 now_ns);
unsigned int hf_fsize_on_ack(struct hf_fsize *fs,
			     const struct hf_fsize_params *params,
			     u32 cum_ack, u64 now_ns);
unsigned int hf_fsize_on_congestion(struct hf_fsize *fs,
				    const struct hf_fsize_params *params,
				    enum hf_fsize_reason reason, u32 seq);
unsigned int hf_fsize_on_timeout(struct hf_fsize *fs,
				 const struct hf_fsize_params *params, u32 seq,
				 bool repeat);
unsigned int hf_fsize_undo(struct hf_fsize *fs,
			   const struct hf_fsize_params *params);
void hf_fsize_undo_forget(struct hf_fsize *fs);
unsigned int hf_fsize_on_repair_loss(struct hf_fsize *fs,
				     const struct hf_fsize_params *params,
				     u32 seq, bool undoable);
void hf_fsize_on_repair(struct hf_fsize *fs);
unsigned int hf_fsize_on_duplicate(struct hf_fsize *fs,
				   const struct hf_fsize_params *params);
bool hf_fsize_rtt_inflated(const struct hf_fsize_params *params,
			   u32 rtt_us, u32 min_rtt_us);
unsigned int hf_fsize_on_rtt(struct hf_fsize *fs,
			     const struct hf_fsize_params *params,
			     u32 seq, u32 rtt_us, u32 min_rtt_us);

#endif /* _HF_FSIZE_H */
