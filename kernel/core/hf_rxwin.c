// SPDX-License-Identifier: GPL-2.0
/*
 * hf_rxwin.c - the receive window of one peer flow: duplicate and
 * out-of-window detection, the cumulative ack, and the SACK blocks the
 * next ACK carries.
 *
 * Design notes:
 * 1. One bit per segment in a ring of nbits (caller storage) covering
 *    [cum, cum + nbits). The bit at cum is always clear (cum is missing by
 *    definition) and so is every bit outside (cum, highest): a ring slot
 *    is clean when a sequence number nbits later comes to reuse it.
 * 2. Receiving cum takes the run of received segments behind it in one
 *    pass that clears bits a word at a time, so the cumulative ack moves
 *    at O(1) amortised per segment whatever the arrival order.
 * 3. SACK blocks come from a run list updated on every arrival, not from
 *    a scan per ACK: a single loss in a 64k window would otherwise cost
 *    ~1000 word loads on every ACK that follows it. The list holds the
 *    lowest HF_SACK_MAX ranges above cum and is complete up to @known
 *    (known > end of the last run, so an arrival that touches a run is
 *    always below it). An arrival below @known edits the list in
 *    O(HF_SACK_MAX); one above it costs nothing. hf_rxwin_sack() finds
 *    further ranges by scanning up from @known only, and @known moves
 *    back only when a new range pushes the last one out of a full list,
 *    so each word is scanned O(1) times unless ranges keep being split.
 * 4. The lowest ranges, and the highest. The sender recovers from una
 *    upwards and the decoder wants blocks in ascending order, so the
 *    blocks are the lowest ranges above cum. Those alone are not enough
 *    when more ranges exist than an ACK carries: while una is stuck (a
 *    lost retransmission) every ACK repeats the same blocks, the sender
 *    learns nothing above them and only its RTO moves it on. So the last
 *    block is then the highest range, the one ending at highest, in place
 *    of the max-th lowest: every ACK reports the front of the flow, where
 *    arrivals land in order (RFC 2018 reports its most recent range first
 *    for the same reason), the sender's IsLost rule (DUPTHRESH SACKed
 *    segments above a hole) fires for holes above the low blocks too, and
 *    the blocks stay ascending. In the simulation in hf_txwin_test.cc at
 *    10% loss the share of repairs sent by the RTO fell from 98% to 11%,
 *    nearly all of those lost retransmissions, which only an RTO repairs.
 *    What lies between the last low block and the top block goes unsaid:
 *    it was reported while it was the top, or will be once cum nears it.
 *    A sender that resends on an RTO must not take "not SACKed" there for
 *    "not received", or it resends what has arrived.
 * 5. The highest range is tracked as arrivals come, like @highest: a
 *    short second list (@tail, HF_RXWIN_TAIL entries) holds the highest
 *    ranges and is complete from its first entry up to highest, so filling
 *    the hole below the top range finds the start of the range under it
 *    in the list in O(HF_RXWIN_TAIL). An arrival below the list costs one
 *    compare; a new range above a full list pushes the lowest entry out.
 *    Only when a lone entry grows down into the range below it, which the
 *    list never held, is its start unknown (@tail_exact false). Then
 *    hf_rxwin_sack() looks for it, scanning the bitmap down from the
 *    entry at most HF_RXWIN_TAIL_SCAN words per call, and meanwhile
 *    reports the part verified so far: a sub-range of the top range, so
 *    still received, ending at highest and a valid block, that grows to
 *    the whole range over the next ACKs. The top block so costs an ACK
 *    at most HF_RXWIN_TAIL_SCAN word loads whatever the pattern, and a few
 *    list entries keep the scan off the common ones (a hole at the front
 *    filled by the next segment, striping over two links, reordering by a
 *    few segments), where the range below the top is always in the list.
 * 6. A window cannot tell an old duplicate from a sequence number far in
 *    the future. The half of the sequence space behind cum is
 *    "duplicate"; the rest outside the window is "beyond", which a sender
 *    that honours the advertised window never produces.
 */
#include "hf_rxwin.h"
#include "hf_bitmap.h"

/* Bitmap words one hf_rxwin_sack() call may scan for the top range (note 5). */
#define HF_RXWIN_TAIL_SCAN	HF_SACK_MAX

/**
 * hf_rxwin_init() - set up an empty receive window
 * @win: window to initialise; owned by the caller
 * @words: ring storage of hf_bm_words(@nbits) u64 words, zeroed here; must
 *	   outlive @win and is used by no one else
 * @nbits: window size in segments: a power of two from 64 to 2^30
 * @initial_seq: sequence number of the first segment the peer will send
 *
 * Return: 0, or -EINVAL for a bad size or missing storage.
 */
int hf_rxwin_init(struct hf_rxwin *win, u64 *words, u32 nbits,
		  u32 initial_seq)
{
	if (!words || !hf_bm_valid_size(nbits))
		return -EINVAL;
	memset(win, 0, sizeof(*win));
	memset(words, 0, (size_t)hf_bm_words(nbits) * sizeof(*words));
	win->words = words;
	win->nbits = nbits;
	win->cum = initial_seq;
	win->highest = initial_seq;
	win->known = initial_seq;
	return 0;
}

/* Offset of @seq above the cumulative ack: orders positions in the window. */
static inline u32 rx_off(const struct hf_rxwin *win, u32 seq)
{
	return seq - win->cum;
}

static void rx_remove_run(struct hf_rxwin *win, unsigned int i)
{
	win->nruns--;
	memmove(&win->runs[i], &win->runs[i + 1],
		(win->nruns - i) * sizeof(win->runs[0]));
}

static void rx_insert_run(struct hf_rxwin *win, unsigned int i, u32 seq)
{
	memmove(&win->runs[i + 1], &win->runs[i],
		(win->nruns - i) * sizeof(win->runs[0]));
	win->runs[i].start = seq;
	win->runs[i].end = seq + 1;
	win->nruns++;
}

/* Run @i ends at @known: the bits beyond are unexplored; grow it over them. */
static void rx_extend_run(struct hf_rxwin *win, unsigned int i)
{
	struct hf_sack_block *r = &win->runs[i];

	r->end += hf_bm_next_zero(win->words, win->nbits, r->end,
				  win->highest - r->end, &win->scan_words);
	win->known = r->end + 1;
}

/* Record the arrival of @seq, above cum, in the run list (note 3). */
static void rx_note_run(struct hf_rxwin *win, u32 seq)
{
	struct hf_sack_block *r = win->runs;
	u32 x = rx_off(win, seq);
	unsigned int j = 0;

	if (x >= rx_off(win, win->known))
		return;
	/* First run ending at or after @seq; @seq is inside none of them. */
	while (j < win->nruns && rx_off(win, r[j].end) < x)
		j++;

	if (j < win->nruns && r[j].end == seq) {
		r[j].end = seq + 1;
		if (j + 1 < win->nruns && r[j + 1].start == seq + 1) {
			r[j].end = r[j + 1].end;
			rx_remove_run(win, j + 1);
		}
	} else if (j < win->nruns && r[j].start == seq + 1) {
		r[j].start = seq;
	} else {
		if (win->nruns == HF_SACK_MAX) {
			if (j == HF_SACK_MAX) {
				/* Above every listed run: forget from here. */
				win->known = seq;
				return;
			}
			/* Push the highest run out. */
			win->nruns--;
			win->known = r[win->nruns].start;
		}
		rx_insert_run(win, j, seq);
	}
	if (r[j].end == win->known)
		rx_extend_run(win, j);
}

/**
 * rx_tail_remove() - drop entry @i of the tail list
 * @win: the window
 * @i: index of the entry, below @win->ntail
 */
static void rx_tail_remove(struct hf_rxwin *win, unsigned int i)
{
	win->ntail--;
	memmove(&win->tail[i], &win->tail[i + 1],
		(win->ntail - i) * sizeof(win->tail[0]));
}

/**
 * rx_tail_insert() - enter @seq as a range of its own in the tail list
 * @win: the window
 * @i: index the new entry takes, at most @win->ntail and, when the list is
 *     full, at least 1
 * @seq: a received segment whose neighbours are missing
 *
 * A full list drops its lowest entry first (note 5). The list stays
 * complete from its new first entry, whose start is exact: a missing
 * segment separates it from the entry dropped.
 */
static void rx_tail_insert(struct hf_rxwin *win, unsigned int i, u32 seq)
{
	if (win->ntail == HF_RXWIN_TAIL) {
		rx_tail_remove(win, 0);
		win->tail_exact = true;
		i--;
	}
	memmove(&win->tail[i + 1], &win->tail[i],
		(win->ntail - i) * sizeof(win->tail[0]));
	win->tail[i].start = seq;
	win->tail[i].end = seq + 1;
	win->ntail++;
}

/**
 * rx_note_tail() - record the arrival of @seq, above cum, in the tail list
 * @win: the window; @seq is set in the bitmap, @win->highest not yet moved
 * @seq: the segment
 *
 * Keeps the list complete from its first entry up to highest (note 5), in
 * O(HF_RXWIN_TAIL).
 */
static void rx_note_tail(struct hf_rxwin *win, u32 seq)
{
	struct hf_sack_block *t = win->tail;
	u32 x = rx_off(win, seq);
	unsigned int j;

	if (!win->ntail) {
		/* Nothing above cum before: both neighbours are missing. */
		rx_tail_insert(win, 0, seq);
		win->tail_exact = true;
		return;
	}
	j = win->ntail - 1;
	if (x >= rx_off(win, t[j].end)) {
		/* At or past highest: the top grows or a new range starts. */
		if (t[j].end == seq)
			t[j].end = seq + 1;
		else
			rx_tail_insert(win, win->ntail, seq);
		return;
	}
	if (x < rx_off(win, t[0].start)) {
		/* Below the list: only growing its first entry down matters. */
		if (t[0].start == seq + 1) {
			t[0].start = seq;
			win->tail_exact = !hf_bm_test(win->words, win->nbits,
						      seq - 1);
		}
		return;
	}
	/* First entry ending at or after @seq; @seq is inside none of them. */
	for (j = 0; rx_off(win, t[j].end) < x; j++)
		;
	if (t[j].end == seq) {
		/* Not the last entry: that one ends at highest, above @seq. */
		t[j].end = seq + 1;
		if (t[j + 1].start == seq + 1) {
			t[j].end = t[j + 1].end;
			rx_tail_remove(win, j + 1);
		}
	} else if (t[j].start == seq + 1) {
		t[j].start = seq;
	} else {
		/* Between entries j - 1 and j, so j >= 1. */
		rx_tail_insert(win, j, seq);
	}
}

/**
 * rx_tail_trim() - drop the tail entries the cumulative ack has passed
 * @win: the window; @win->cum has just moved
 *
 * cum stops at a missing segment, so each entry is wholly behind it or
 * wholly above it; the first entry left has a missing segment below it.
 */
static void rx_tail_trim(struct hf_rxwin *win)
{
	if (win->cum == win->highest) {
		win->ntail = 0;
		return;
	}
	while (win->ntail && hf_seq_before(win->tail[0].start, win->cum)) {
		rx_tail_remove(win, 0);
		win->tail_exact = true;
	}
}

/**
 * rx_tail_top() - the highest range, as far as it is known
 * @win: the window, with at least one segment received above cum
 *
 * When the list holds only the top range and its start is unknown, scans
 * the bitmap down from it, at most HF_RXWIN_TAIL_SCAN words, and keeps
 * what it finds for the next call (note 5). The bit at cum is clear, so
 * the scan never passes it.
 *
 * Return: the range ending at highest, or the part of it verified so far.
 */
static struct hf_sack_block rx_tail_top(struct hf_rxwin *win)
{
	struct hf_sack_block *t = &win->tail[0];
	unsigned int budget = HF_RXWIN_TAIL_SCAN;
	u64 missing;
	u32 i, off;

	while (win->ntail == 1 && !win->tail_exact && budget--) {
		/*
		 * Shift the bits at and below t->start - 1 in its word up, that
		 * one to bit 63, and count the set ones down from there.
		 */
		i = (t->start - 1) & (win->nbits - 1);
		off = HF_BM_WORD_BITS - 1 - i % HF_BM_WORD_BITS;
		win->scan_words++;
		missing = ~(win->words[i / HF_BM_WORD_BITS] << off) &
			  (~(u64)0 << off);
		if (missing) {
			t->start -= (u32)__builtin_clzll(missing);
			win->tail_exact = true;
		} else {
			t->start -= HF_BM_WORD_BITS - off;
		}
		if (!hf_seq_after(t->start, win->cum)) {
			/* Only with a corrupt bitmap: never report cum. */
			t->start = win->cum + 1;
			win->tail_exact = true;
		}
	}
	return win->tail[win->ntail - 1];
}

/* The segment at cum arrived: move cum past every contiguous arrival. */
static void rx_advance(struct hf_rxwin *win)
{
	u32 len = 0;

	if (win->highest == win->cum)
		win->highest++;
	win->cum++;

	if (win->nruns && win->runs[0].start == win->cum) {
		len = win->runs[0].end - win->cum;
		hf_bm_clear_range(win->words, win->nbits, win->cum, len,
				  &win->scan_words);
		win->cum = win->runs[0].end;
		rx_remove_run(win, 0);
	} else if (!hf_seq_before(win->cum, win->known)) {
		/* Past the run list: look at the bitmap itself. */
		len = hf_bm_take_run(win->words, win->nbits, win->cum,
				     win->highest - win->cum, &win->scan_words);
		win->cum += len;
		win->known = win->cum;
	}
	/* Otherwise the list covers cum and has no run there: it is clear. */
	win->pending -= len;
	rx_tail_trim(win);
}

/**
 * hf_rxwin_mark() - record the arrival of a segment
 * @win: the peer flow's window; caller serialises access
 * @seq: sequence number from a decoded DATA header
 *
 * Return: HF_RX_NEW when the segment is new and must be delivered (the
 * cumulative ack then covers it, or hf_rxwin_sack() reports it);
 * HF_RX_DUPLICATE when it was received before or lies behind the
 * cumulative ack; HF_RX_BEYOND when it is past the window: the caller
 * drops and counts it. Only HF_RX_NEW changes @win.
 */
enum hf_rx_verdict hf_rxwin_mark(struct hf_rxwin *win, u32 seq)
{
	u32 d = rx_off(win, seq);

	if (d >= win->nbits)
		return hf_seq_before(seq, win->cum) ? HF_RX_DUPLICATE :
						      HF_RX_BEYOND;
	if (!d) {
		rx_advance(win);
		return HF_RX_NEW;
	}
	if (hf_bm_test(win->words, win->nbits, seq))
		return HF_RX_DUPLICATE;

	hf_bm_set(win->words, win->nbits, seq);
	win->pending++;
	rx_note_tail(win, seq);
	if (d >= rx_off(win, win->highest))
		win->highest = seq + 1;
	rx_note_run(win, seq);
	return HF_RX_NEW;
}

/**
 * hf_rxwin_fresh() - whether a run of segments would all be new
 * @win: the peer flow's window; caller serialises access
 * @seq: the first sequence number of the run
 * @n: its length, at least 1
 *
 * Reads @win only: hf_rxwin_mark() of each of the @n segments, in order,
 * would return HF_RX_NEW exactly when this returns true. Costs at most
 * @n / 64 + 2 word loads.
 *
 * Return: true when every segment of [@seq, @seq + @n) lies in the window
 * and none has arrived.
 */
bool hf_rxwin_fresh(struct hf_rxwin *win, u32 seq, u32 n)
{
	u32 d = rx_off(win, seq);
	u32 below;

	if (!n || d >= win->nbits || n > win->nbits - d)
		return false;
	/* Bits are set only in (cum, highest): nothing above highest came. */
	if (!hf_seq_before(seq, win->highest))
		return true;
	below = win->highest - seq < n ? win->highest - seq : n;
	return hf_bm_next_set(win->words, win->nbits, seq, below,
			      &win->scan_words) == below;
}

/**
 * hf_rxwin_sack() - SACK blocks for the next ACK
 * @win: the window; caller serialises access (the run lists are extended
 *	 here, so this is not a read-only call)
 * @out: where the blocks go, room for @max of them
 * @max: most blocks wanted; more than HF_SACK_MAX counts as HF_SACK_MAX
 *
 * The blocks are the lowest ranges of segments received above the
 * cumulative ack, except that when there are more than @max ranges the
 * last block is the highest range, the one ending at hf_rxwin_highest(),
 * in place of the @max-th lowest (design note 4). They are ascending,
 * each non-empty, separated by at least one missing segment: an ACK
 * carrying hf_rxwin_cum() and these blocks passes hf_hdr_decode(). Costs
 * O(HF_SACK_MAX) word loads, plus the upward scan of note 3.
 *
 * Return: the number of blocks written, at most @max.
 */
unsigned int hf_rxwin_sack(struct hf_rxwin *win, struct hf_sack_block *out,
			   unsigned int max)
{
	struct hf_sack_block *r;
	unsigned int n;
	u32 len, s;

	if (max > HF_SACK_MAX)
		max = HF_SACK_MAX;
	while (win->nruns < max && hf_seq_before(win->known, win->highest)) {
		len = win->highest - win->known;
		s = hf_bm_next_set(win->words, win->nbits, win->known, len,
				   &win->scan_words);
		if (s == len) {
			/* Cannot happen (highest - 1 is set); stay safe if it does. */
			win->known = win->highest;
			break;
		}
		r = &win->runs[win->nruns++];
		r->start = win->known + s;
		r->end = r->start +
			 hf_bm_next_zero(win->words, win->nbits, r->start,
					 win->highest - r->start,
					 &win->scan_words);
		win->known = r->end + 1;
	}
	n = win->nruns < max ? win->nruns : max;
	if (n)
		memcpy(out, win->runs, n * sizeof(*out));
	/* More ranges than fit: the highest takes the last place (note 4). */
	if (n && n == max && win->ntail &&
	    (win->nruns > max || hf_seq_before(win->known, win->highest)))
		out[n - 1] = rx_tail_top(win);
	return n;
}
