/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_txwin.h - the sender's scoreboard for one peer flow: the segments
 * [una, nxt) in flight, which of them the peer has SACKed, which are lost
 * (RFC 6675 IsLost) and which have been retransmitted.
 *
 * Two ring bitmaps in caller storage hold the per-segment state;
 * hf_txwin.c explains the boundaries that keep the work per segment O(1).
 */
#ifndef _HF_TXWIN_H
#define _HF_TXWIN_H

#include "hf_core.h"
#include "hf_wire.h"

/* SACKed segments above an un-SACKed one that make it lost (RFC 6675). */
#define HF_TXWIN_DUPTHRESH	3U

/**
 * struct hf_txwin_ack_result - what one ACK did to the scoreboard
 * @acked: segments newly covered by the cumulative ack
 * @sacked: segments newly SACKed
 * @delivered: segments newly known to have arrived: acked without having
 *	       been SACKed before, or newly SACKed
 * @lost: segments that newly met the IsLost rule
 * @invalid: hostile parts ignored: 1 for a cumulative ack beyond nxt
 *	     (the whole ACK is then dropped), else the number of blocks
 *	     not inside (una, nxt]
 * @stale: the cumulative ack was behind una: the ACK was ignored
 */
struct hf_txwin_ack_result {
	u32 acked;
	u32 sacked;
	u32 delivered;
	u32 lost;
	u32 invalid;
	bool stale;
};

/**
 * struct hf_txwin - send scoreboard of one peer flow
 * @sacked: ring of hf_bm_words(@nbits) words, caller storage: bit set =
 *	    segment SACKed; only for sequence numbers in [@una, @nxt)
 * @rexmit: ring like @sacked: bit set = retransmitted since the last RTO;
 *	    only for sequence numbers in [@una, @rtx_next)
 * @nbits: capacity in segments, a power of two
 * @una: oldest segment not cumulatively acked
 * @nxt: sequence number the next new segment gets
 * @nsacked: SACKed segments in [@una, @nxt)
 * @high_sacked: one past the highest SACKed segment, at least @una
 * @lost_end: loss boundary: an un-SACKed segment before it is lost
 * @above: SACKed segments in [@lost_end, @nxt), at most
 *	   HF_TXWIN_DUPTHRESH once an ACK has been applied
 * @rtx_next: loss-scan cursor: every segment in [@una, @rtx_next) is SACKed
 *	      or retransmitted
 * @rto_end: after an RTO, every un-SACKed segment before it is eligible
 *	     for retransmission, lost or not
 * @repairs: repairs the deliveries of the recovery under way have paid
 *	     for, at most what is in flight (hf_txwin_repairs_grant())
 * @nseen: entries used in @seen
 * @seen: blocks of the last ACK applied: known SACKed ranges, ascending
 * @scan_words: bitmap words loaded so far, for tests and statistics
 *
 * Not synchronised: the owner serialises every call (the peer lock in the
 * module). Fields are read-only outside hf_txwin.c.
 */
struct hf_txwin {
	u64 *sacked;
	u64 *rexmit;
	u32 nbits;
	u32 una;
	u32 nxt;
	u32 nsacked;
	u32 high_sacked;
	u32 lost_end;
	u32 above;
	u32 rtx_next;
	u32 rto_end;
	u32 repairs;
	u32 nseen;
	struct hf_sack_block seen[HF_SACK_MAX];
	u64 scan_words;
};

int hf_txwin_init(struct hf_txwin *win, u64 *sacked, u64 *rexmit, u32 nbits,
		  u32 initial_seq);
int hf_txwin_send(struct hf_txwin *win, u32 *seq);
void hf_txwin_ack(struct hf_txwin *win, u32 cum_seq,
		  const struct hf_sack_block *blocks, unsigned int nblocks,
		  struct hf_txwin_ack_result *res);
bool hf_txwin_next_lost(struct hf_txwin *win, u32 *seq);
bool hf_txwin_peek_lost(struct hf_txwin *win, u32 *seq);
u32 hf_txwin_rto(struct hf_txwin *win);
void hf_txwin_rto_undo(struct hf_txwin *win);
void hf_txwin_repairs_grant(struct hf_txwin *win, u32 delivered,
			    bool recovering, bool slow_start);
u32 hf_txwin_repair_end(const struct hf_txwin *win, bool rto_confirmed);
bool hf_txwin_repairs_take(struct hf_txwin *win);
bool hf_txwin_retransmitted(const struct hf_txwin *win, u32 seq);
bool hf_txwin_sacked(const struct hf_txwin *win, u32 seq);

/**
 * hf_txwin_inflight() - segments sent and not cumulatively acked
 * @win: the scoreboard
 *
 * Return: nxt - una, SACKed segments included; hf_txwin_send() fails once
 * it reaches the capacity.
 */
static inline u32 hf_txwin_inflight(const struct hf_txwin *win)
{
	return win->nxt - win->una;
}

/**
 * hf_txwin_blocks_complete() - whether the last ACK applied named every
 * range the receiver held
 * @win: the scoreboard
 *
 * An ACK carries at most HF_SACK_MAX blocks; with that many, ranges
 * between the last low block and the top one went unsaid
 * (core/hf_rxwin.c, note 4), and "not SACKed" there is no "not arrived".
 *
 * Return: true when it carried fewer than HF_SACK_MAX blocks.
 */
static inline bool hf_txwin_blocks_complete(const struct hf_txwin *win)
{
	return win->nseen < HF_SACK_MAX;
}

/**
 * hf_txwin_una() - oldest segment not cumulatively acked
 * @win: the scoreboard
 *
 * Return: its sequence number; equal to hf_txwin_nxt() when none is.
 */
static inline u32 hf_txwin_una(const struct hf_txwin *win)
{
	return win->una;
}

/**
 * hf_txwin_nxt() - sequence number the next new segment gets
 * @win: the scoreboard
 *
 * Return: that sequence number.
 */
static inline u32 hf_txwin_nxt(const struct hf_txwin *win)
{
	return win->nxt;
}

/**
 * hf_txwin_nsacked() - segments in flight the peer has SACKed
 * @win: the scoreboard
 *
 * Return: the count, at most hf_txwin_inflight().
 */
static inline u32 hf_txwin_nsacked(const struct hf_txwin *win)
{
	return win->nsacked;
}

#endif /* _HF_TXWIN_H */
