/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_rxwin.h - the receiver's view of one peer flow: which wire segments
 * have arrived, the cumulative ack, and the SACK blocks an ACK carries.
 *
 * The window covers [cum, cum + nbits) with a ring bitmap in caller
 * storage; hf_rxwin.c explains the layout, which ranges an ACK reports
 * and the bounds on work.
 */
#ifndef _HF_RXWIN_H
#define _HF_RXWIN_H

#include "hf_core.h"
#include "hf_wire.h"

/* Highest ranges of received segments a window tracks (hf_rxwin.c note 5). */
#define HF_RXWIN_TAIL		4

/**
 * enum hf_rx_verdict - what hf_rxwin_mark() made of a segment
 * @HF_RX_NEW: first arrival: deliver it
 * @HF_RX_DUPLICATE: below the cumulative ack or already received: drop it
 * @HF_RX_BEYOND: past the end of the window, which a well-behaved sender
 *	never reaches: drop it and count it
 */
enum hf_rx_verdict {
	HF_RX_NEW,
	HF_RX_DUPLICATE,
	HF_RX_BEYOND,
};

/**
 * struct hf_rxwin - receive window of one peer flow
 * @words: ring bitmap of hf_bm_words(@nbits) words, caller storage; bit set
 *	   = segment received, only for sequence numbers in (@cum, @highest)
 * @nbits: window size in segments, a power of two
 * @cum: cumulative ack: every segment before it has arrived, it has not
 * @highest: one past the highest segment received, or @cum if none above
 * @pending: segments received above @cum
 * @known: every received segment in [@cum, @known) lies in @runs
 * @nruns: entries used in @runs
 * @runs: the lowest ranges of received segments above @cum, ascending;
 *	  those hf_rxwin_sack() reports first
 * @ntail: entries used in @tail; 0 exactly when @highest is @cum
 * @tail_exact: @tail[0] starts where its range starts; when false, only
 *		[@tail[0].start, @tail[0].end) is known to have arrived
 * @tail: the highest ranges above @cum, ascending, the last ending at
 *	  @highest; every received segment in [@tail[0].start, @highest)
 *	  lies in one of them. The last is what hf_rxwin_sack() reports when
 *	  more ranges exist than it may report
 * @scan_words: bitmap words loaded so far, for tests and statistics
 *
 * Not synchronised: the owner serialises every call (the peer lock in the
 * module). Fields are read-only outside hf_rxwin.c.
 */
struct hf_rxwin {
	u64 *words;
	u32 nbits;
	u32 cum;
	u32 highest;
	u32 pending;
	u32 known;
	u32 nruns;
	struct hf_sack_block runs[HF_SACK_MAX];
	u32 ntail;
	bool tail_exact;
	struct hf_sack_block tail[HF_RXWIN_TAIL];
	u64 scan_words;
};

int hf_rxwin_init(struct hf_rxwin *win, u64 *words, u32 nbits,
		  u32 initial_seq);
enum hf_rx_verdict hf_rxwin_mark(struct hf_rxwin *win, u32 seq);
bool hf_rxwin_fresh(struct hf_rxwin *win, u32 seq, u32 n);
unsigned int hf_rxwin_sack(struct hf_rxwin *win, struct hf_sack_block *out,
			   unsigned int max);

/**
 * hf_rxwin_cum() - the cumulative ack
 * @win: the window
 *
 * Return: the first sequence number not yet received.
 */
static inline u32 hf_rxwin_cum(const struct hf_rxwin *win)
{
	return win->cum;
}

/**
 * hf_rxwin_highest() - one past the highest segment received
 * @win: the window
 *
 * Return: that sequence number; hf_rxwin_cum() when nothing above it has
 * arrived.
 */
static inline u32 hf_rxwin_highest(const struct hf_rxwin *win)
{
	return win->highest;
}

/**
 * hf_rxwin_pending() - segments received but not yet cumulatively acked
 * @win: the window
 *
 * Return: the count of received segments above hf_rxwin_cum().
 */
static inline u32 hf_rxwin_pending(const struct hf_rxwin *win)
{
	return win->pending;
}

#endif /* _HF_RXWIN_H */
