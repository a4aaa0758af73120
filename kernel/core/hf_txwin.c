// SPDX-License-Identifier: GPL-2.0
/*
 * hf_txwin.c - the send scoreboard of one peer flow: sequence numbers for
 * new segments, ACK processing (cumulative and selective), loss detection
 * by the RFC 6675 IsLost rule, the retransmission order, RTO
 * re-eligibility, and the repairs the deliveries pay for.
 *
 * Design notes:
 * 1. IsLost(s) holds for an un-SACKed s with at least DUPTHRESH SACKed
 *    segments above it, i.e. s below the DUPTHRESH-th highest SACKed
 *    segment. So the lost set is "un-SACKed and before @lost_end", with
 *    @lost_end that segment and @above the SACKed count from it up.
 *    SACKs only accumulate (the receiver never reneges), so the boundary
 *    only moves up: new SACKs above it raise @above and the boundary
 *    steps over the surplus a word at a time (population counts), each
 *    SACKed segment passed once. No scan ever looks below it again.
 * 2. Retransmissions are handed out in ascending order from the cursor
 *    @rtx_next; everything below the cursor is SACKed or retransmitted, so
 *    repeated calls never rescan and a retransmitted segment is never
 *    handed out again before an RTO. Retransmit marks exist only below
 *    the cursor, which is what makes the RTO's "clear them all" cheap.
 * 3. An RTO does not touch the SACK state: it clears the retransmit marks
 *    behind the cursor, rewinds the cursor to una and sets @rto_end = nxt;
 *    the eligible set becomes "un-SACKed and before max(@lost_end,
 *    @rto_end)", still served from the cursor in ascending order.
 * 4. With one hole at una, every ACK repeats a block that has grown by a
 *    segment; setting its bits again would cost window/64 loads per ACK.
 *    The blocks of the last ACK are kept (@seen): those ranges are known
 *    SACKed, and only the parts of new blocks outside them touch the
 *    bitmap. The cache only ever saves work; it is never trusted to add
 *    SACK state, so a receiver changing its blocks at will costs time
 *    (bounded by the window per ACK), never correctness.
 * 5. ACK input is hostile until proven otherwise, even after
 *    hf_hdr_decode(): a cumulative ack beyond nxt drops the whole ACK (it
 *    claims data never sent), a block not inside (una, nxt] is skipped,
 *    and both are counted. A cumulative ack behind una is a stale
 *    (reordered) ACK: it is ignored, blocks included, because they were
 *    checked against a cum the scoreboard has already passed.
 * 6. An ACK names at most HF_SACK_MAX ranges: with more, the receiver
 *    sends the lowest ones and the highest (core/hf_rxwin.c, note 4), and
 *    what lies between went unsaid. Nothing there is handed out for
 *    repair, whatever IsLost or an RTO says: it may well have arrived
 *    (where refusals left a hole every other segment, a run repaired
 *    hundreds of segments the receiver held). The lowest holes come first
 *    anyway, and as they fill the blocks move up over the rest.
 * 7. Where repairs stop (hf_txwin_repair_end()). Above the highest SACK a
 *    segment may simply still be on its way, so loss detection repairs
 *    below it only. After an RTO that the acks confirmed (the first ack
 *    after it showed only the resent probe, F-RTO; or the receiver, whose
 *    full buffer refused the flight, has room again), everything the RTO
 *    made eligible is known lost, above the highest SACK too: it is
 *    repaired as fast as the acks pay for it, in slow start (two repairs
 *    per segment delivered). Leaving that tail to later timeouts, a
 *    budget each, made a refused or lost flight of hundreds of segments
 *    creep at one budget per backed-off timeout (issue 40).
 */
#include "hf_txwin.h"
#include "hf_bitmap.h"

/**
 * hf_txwin_init() - set up an empty scoreboard
 * @win: scoreboard to initialise; owned by the caller
 * @sacked: ring storage of hf_bm_words(@nbits) u64 words, zeroed here
 * @rexmit: a second ring of the same size, zeroed here; both must outlive
 *	    @win and be used by no one else
 * @nbits: capacity in segments: a power of two from 64 to 2^30
 * @initial_seq: sequence number of the first segment to send
 *
 * Return: 0, or -EINVAL for a bad size or missing storage.
 */
int hf_txwin_init(struct hf_txwin *win, u64 *sacked, u64 *rexmit, u32 nbits,
		  u32 initial_seq)
{
	size_t bytes;

	if (!sacked || !rexmit || sacked == rexmit ||
	    !hf_bm_valid_size(nbits))
		return -EINVAL;
	bytes = (size_t)hf_bm_words(nbits) * sizeof(*sacked);
	memset(win, 0, sizeof(*win));
	memset(sacked, 0, bytes);
	memset(rexmit, 0, bytes);
	win->sacked = sacked;
	win->rexmit = rexmit;
	win->nbits = nbits;
	win->una = initial_seq;
	win->nxt = initial_seq;
	win->high_sacked = initial_seq;
	win->lost_end = initial_seq;
	win->rtx_next = initial_seq;
	win->rto_end = initial_seq;
	return 0;
}

/**
 * hf_txwin_send() - take the sequence number for a new segment
 * @win: the scoreboard; caller serialises access
 * @seq: set to the sequence number on success
 *
 * Return: 0, or -ENOSPC when the capacity is in flight already.
 */
int hf_txwin_send(struct hf_txwin *win, u32 *seq)
{
	if (win->nxt - win->una >= win->nbits)
		return -ENOSPC;
	*seq = win->nxt++;
	return 0;
}

/* Cumulative ack to @cum, after una and not after nxt. */
static u32 tx_advance(struct hf_txwin *win, u32 cum)
{
	u32 n = cum - win->una;
	u32 marked = win->rtx_next - win->una;

	win->nsacked -= hf_bm_clear_range(win->sacked, win->nbits, win->una,
					  n, &win->scan_words);
	hf_bm_clear_range(win->rexmit, win->nbits, win->una,
			  marked < n ? marked : n, &win->scan_words);
	win->una = cum;
	if (hf_seq_before(win->lost_end, cum)) {
		win->lost_end = cum;
		win->above = win->nsacked;
	}
	if (hf_seq_before(win->rtx_next, cum))
		win->rtx_next = cum;
	if (hf_seq_before(win->rto_end, cum))
		win->rto_end = cum;
	if (hf_seq_before(win->high_sacked, cum))
		win->high_sacked = cum;
	return n;
}

/* SACK [@from, @to), inside (una, nxt]; count what is above the boundary. */
static u32 tx_set(struct hf_txwin *win, u32 from, u32 to)
{
	u32 a = from - win->una;
	u32 b = to - win->una;
	u32 mid = win->lost_end - win->una;
	u32 low, high;

	if (mid < a)
		mid = a;
	if (mid > b)
		mid = b;
	low = hf_bm_set_range(win->sacked, win->nbits, from, mid - a,
			      &win->scan_words);
	high = hf_bm_set_range(win->sacked, win->nbits, win->una + mid,
			       b - mid, &win->scan_words);
	win->above += high;
	if (hf_seq_after(to, win->high_sacked))
		win->high_sacked = to;
	return low + high;
}

/*
 * SACK the block [@start, @end), skipping the parts inside the previous
 * ACK's blocks (note 4). *@k walks those blocks across one ACK's blocks.
 */
static u32 tx_sack_block(struct hf_txwin *win, u32 start, u32 end,
			 unsigned int *k)
{
	const struct hf_sack_block *c = win->seen;
	u32 pos = start;
	u32 newly = 0;
	unsigned int j;

	while (*k < win->nseen && !hf_seq_after(c[*k].end, pos))
		(*k)++;
	/* The blocks left overlap [pos, end) and end ever higher. */
	for (j = *k; j < win->nseen && hf_seq_before(c[j].start, end); j++) {
		if (hf_seq_before(pos, c[j].start))
			newly += tx_set(win, pos, c[j].start);
		pos = c[j].end;
		if (!hf_seq_before(pos, end))
			return newly;
	}
	return newly + tx_set(win, pos, end);
}

/* Move the loss boundary up to the DUPTHRESH-th highest SACK (note 1). */
static u32 tx_update_lost(struct hf_txwin *win)
{
	u32 from = win->lost_end;
	u32 passed = 0;
	u32 span, cnt, k;
	u64 w;

	while (win->above >= HF_TXWIN_DUPTHRESH &&
	       hf_seq_before(win->lost_end, win->high_sacked)) {
		w = hf_bm_load(win->sacked, win->nbits, win->lost_end,
			       win->high_sacked - win->lost_end, &span,
			       &win->scan_words);
		cnt = hf_bm_weight(w);
		if (cnt + HF_TXWIN_DUPTHRESH <= win->above) {
			win->above -= cnt;
			passed += cnt;
			win->lost_end += span;
			continue;
		}
		/* The boundary is in this word: step over k SACKed segments. */
		for (k = win->above - HF_TXWIN_DUPTHRESH; k; k--) {
			w &= w - 1;
			win->above--;
			passed++;
		}
		win->lost_end += hf_bm_ctz(w);
		break;
	}
	return win->lost_end - from - passed;
}

/**
 * hf_txwin_ack() - apply an ACK to the scoreboard
 * @win: the scoreboard; caller serialises access
 * @cum_seq: the ACK's cumulative ack
 * @blocks: its SACK blocks, normally as hf_hdr_decode() returned them;
 *	    blocks in any other shape cannot corrupt @win, they are skipped
 *	    or cost extra work
 * @nblocks: number of @blocks
 * @res: filled with what the ACK changed and what was wrong with it
 *
 * A cumulative ack beyond nxt makes the whole ACK invalid and behind una
 * makes it stale; either way nothing changes. Otherwise una moves to
 * @cum_seq, blocks inside (una, nxt] are SACKed and the loss boundary is
 * updated. When the blocks repeat those of the previous ACK but for what
 * is new (as hf_rxwin_sack() produces them), work is O(@nblocks) plus O(1)
 * amortised per segment; any input costs at most O(capacity / 64) word
 * operations.
 */
void hf_txwin_ack(struct hf_txwin *win, u32 cum_seq,
		  const struct hf_sack_block *blocks, unsigned int nblocks,
		  struct hf_txwin_ack_result *res)
{
	struct hf_sack_block seen[HF_SACK_MAX];
	unsigned int nseen = 0;
	u32 nsacked = win->nsacked;
	unsigned int k = 0;
	unsigned int i;
	u32 s, e;

	memset(res, 0, sizeof(*res));
	if (hf_seq_after(cum_seq, win->nxt)) {
		res->invalid = 1;
		return;
	}
	if (hf_seq_before(cum_seq, win->una)) {
		res->stale = true;
		return;
	}
	if (cum_seq != win->una)
		res->acked = tx_advance(win, cum_seq);

	for (i = 0; i < nblocks; i++) {
		s = blocks[i].start - win->una;
		e = blocks[i].end - win->una;
		if (!s || s >= e || e > win->nxt - win->una) {
			res->invalid++;
			continue;
		}
		res->sacked += tx_sack_block(win, blocks[i].start,
					     blocks[i].end, &k);
		if (nseen < HF_SACK_MAX &&
		    (!nseen || !hf_seq_before(blocks[i].start,
					      seen[nseen - 1].end)))
			seen[nseen++] = blocks[i];
	}
	win->nseen = nseen;
	if (nseen)
		memcpy(win->seen, seen, nseen * sizeof(seen[0]));
	win->nsacked += res->sacked;
	/* What una passed less what was SACKed there, plus the new SACKs. */
	res->delivered = res->acked + win->nsacked - nsacked;
	res->lost = tx_update_lost(win);
}

/**
 * hf_txwin_next_lost() - the next segment to retransmit
 * @win: the scoreboard; caller serialises access
 * @seq: set to the segment's sequence number when one is returned
 *
 * Walks the lost segments (and after hf_txwin_rto() every un-SACKed one),
 * none that the last ACK left unsaid (note 6), in ascending order, and
 * marks each retransmitted as it is returned: call it only when the
 * segment will be sent. A segment is returned once until the next RTO;
 * one SACKed before its turn is skipped.
 *
 * Return: true when @seq was set, false when nothing is to retransmit.
 */
bool hf_txwin_next_lost(struct hf_txwin *win, u32 *seq)
{
	if (!hf_txwin_peek_lost(win, seq))
		return false;
	hf_bm_set(win->rexmit, win->nbits, *seq);
	win->rtx_next = *seq + 1;
	return true;
}

/**
 * hf_txwin_peek_lost() - the segment hf_txwin_next_lost() would return,
 * without taking it
 * @win: the scoreboard; caller serialises access
 * @seq: set to the segment's sequence number when one is returned
 *
 * For a caller that may decide to wait (a reordering window) before it
 * sends the segment: the cursor only skips SACKed segments, and the same
 * segment comes back until hf_txwin_next_lost() takes it.
 *
 * Return: true when @seq was set, false when nothing is to retransmit.
 */
bool hf_txwin_peek_lost(struct hf_txwin *win, u32 *seq)
{
	u32 end = win->lost_end;
	u32 len, d;

	if (hf_seq_after(win->rto_end, end))
		end = win->rto_end;
	/* Not what the last ACK left unsaid (note 6). */
	if (!hf_txwin_blocks_complete(win) &&
	    hf_seq_before(win->seen[HF_SACK_MAX - 2].end, end))
		end = win->seen[HF_SACK_MAX - 2].end;
	if (!hf_seq_before(win->rtx_next, end))
		return false;
	len = end - win->rtx_next;
	d = hf_bm_next_zero(win->sacked, win->nbits, win->rtx_next, len,
			    &win->scan_words);
	if (d == len) {
		win->rtx_next = end;
		return false;
	}
	win->rtx_next += d;
	*seq = win->rtx_next;
	return true;
}

/**
 * hf_txwin_rto() - the retransmission timer expired
 * @win: the scoreboard; caller serialises access
 *
 * Clears every retransmit mark and makes each un-SACKed segment in flight
 * eligible for hf_txwin_next_lost() again, from una up, whether or not
 * IsLost holds for it. SACK state is kept.
 *
 * Return: the number of segments now eligible.
 */
u32 hf_txwin_rto(struct hf_txwin *win)
{
	hf_bm_clear_range(win->rexmit, win->nbits, win->una,
			  win->rtx_next - win->una, &win->scan_words);
	win->rtx_next = win->una;
	win->rto_end = win->nxt;
	return win->nxt - win->una - win->nsacked;
}

/**
 * hf_txwin_rto_undo() - the last RTO was spurious
 * @win: the scoreboard; caller serialises access
 *
 * Acks showed that segments the timer gave up on had arrived (F-RTO,
 * RFC 5682): from now on a segment is eligible again only when the
 * scoreboard finds it lost. What the RTO handed out already stays marked.
 */
void hf_txwin_rto_undo(struct hf_txwin *win)
{
	win->rto_end = win->una;
}

/**
 * hf_txwin_repairs_grant() - what an ACK's deliveries allow to repair
 * @win: the scoreboard; caller serialises access
 * @delivered: hf_txwin_ack_result.delivered of the ACK
 * @recovering: repairs were sent or held back before this ACK
 * @slow_start: a confirmed RTO is being repaired (note 7): each segment
 *		delivered pays for two repairs
 *
 * Proportional rate reduction (RFC 6937) in its simplest form: a repair
 * goes out only for a segment that has left the network, so that
 * recovery sends no faster than the path delivers. Whatever the time test
 * calls lost, a burst of repairs cannot follow: where a burst of trains
 * was reordered, those still on their way arrive and are SACKed before
 * their turn to be repaired comes, and the ones that do arrive unrepaired
 * show how late they are (hf_reorder_late()). Outside a recovery the
 * allowance is the ACK's own deliveries: what a quiet stretch delivered
 * pays for nothing. After a confirmed RTO the flight to repair can be
 * hundreds of segments and the ack clock starts from the few the timer
 * resent: doubling per round trip, as TCP's slow start after a timeout,
 * reaches it in a few round trips. Never more than what is in flight.
 */
void hf_txwin_repairs_grant(struct hf_txwin *win, u32 delivered,
			    bool recovering, bool slow_start)
{
	u32 room = win->nxt - win->una;
	u64 q = delivered;

	if (slow_start)
		q *= 2;
	if (recovering)
		q += win->repairs;
	win->repairs = q < room ? (u32)q : room;
}

/**
 * hf_txwin_repair_end() - how far up repairs may reach now
 * @win: the scoreboard
 * @rto_confirmed: the last RTO stands: the acks after it confirmed the
 *		   loss (note 7)
 *
 * Return: one past the highest SACKed segment; with @rto_confirmed, the
 * RTO's end (nxt when it fired) where that is higher and not yet acked.
 */
u32 hf_txwin_repair_end(const struct hf_txwin *win, bool rto_confirmed)
{
	if (rto_confirmed && hf_seq_after(win->rto_end, win->high_sacked))
		return win->rto_end;
	return win->high_sacked;
}

/**
 * hf_txwin_repairs_take() - spend one repair of the allowance
 * @win: the scoreboard; caller serialises access
 *
 * Return: true when the allowance had one, which is now spent.
 */
bool hf_txwin_repairs_take(struct hf_txwin *win)
{
	if (!win->repairs)
		return false;
	win->repairs--;
	return true;
}

/**
 * hf_txwin_retransmitted() - whether a segment was sent again since the
 * last RTO
 * @win: the scoreboard
 * @seq: sequence number
 *
 * For Karn's rule (no RTT sample from a retransmitted segment) and the
 * RETRANSMIT flag.
 *
 * Return: true when @seq is in flight and marked retransmitted.
 */
bool hf_txwin_retransmitted(const struct hf_txwin *win, u32 seq)
{
	return seq - win->una < win->nxt - win->una &&
	       hf_bm_test(win->rexmit, win->nbits, seq);
}

/**
 * hf_txwin_sacked() - whether a segment in flight has been SACKed
 * @win: the scoreboard
 * @seq: sequence number
 *
 * Return: true when @seq is in flight (at or above una, below nxt) and a
 * SACK block covered it; false otherwise, for acked segments too.
 */
bool hf_txwin_sacked(const struct hf_txwin *win, u32 seq)
{
	return seq - win->una < win->nxt - win->una &&
	       hf_bm_test(win->sacked, win->nbits, seq);
}
