// SPDX-License-Identifier: GPL-2.0
/*
 * hf_reorder.c - the reordering window and the time test of RACK-style
 * loss detection; hf_reorder.h says how the sender uses them.
 */
#include "hf_reorder.h"

/**
 * hf_reorder_init() - a new flow: its path may reorder
 * @r: state to initialise
 *
 * The window starts at its widest (the smoothed round trip, in practice)
 * and narrows after HF_REORDER_CLEAN_RESET recoveries that show no
 * reordering. Starting narrow costs more: with a window of frames in
 * flight, the first reordering event has every overtaken segment repaired
 * before the first duplicate or late arrival can widen the window, while
 * starting wide only holds the first few repairs of a lossy path back by
 * a round trip.
 */
void hf_reorder_init(struct hf_reorder *r)
{
	memset(r, 0, sizeof(*r));
	r->mult = HF_REORDER_MULT_MAX;
}

/**
 * hf_reorder_sample_ok() - whether a segment first shown arrived at
 * @now_ns can give the time test its round trip
 * @sent_ns: when it was (last) sent
 * @now_ns: the clock, as the ACK that shows it is taken in
 * @repair: it was sent more than once
 * @min_rtt_us: least round trip seen; 0 before the first sample
 *
 * A repair acked sooner than the least round trip was acked for its
 * original (RFC 8985, 6.2), and before the least round trip is known
 * that cannot be told. A departure time still ahead (EDT) is no sample.
 *
 * Return: true when the segment's round trip may be taken as a sample.
 */
bool hf_reorder_sample_ok(u64 sent_ns, u64 now_ns, bool repair,
			  u32 min_rtt_us)
{
	if (now_ns < sent_ns)
		return false;
	return !repair ||
	       (min_rtt_us && now_ns - sent_ns >= (u64)min_rtt_us * 1000);
}

/**
 * hf_reorder_delivered() - the most recently sent of the segments an ACK
 * first shows arrived (cumulatively or selectively acknowledged), and
 * that hf_reorder_sample_ok() accepts
 * @r: the flow's state
 * @sent_ns: when that segment was (last) sent
 * @now_ns: the clock, as the ACK is taken in
 *
 * It gives the time test its round trip (RACK.rtt), SACKed segments too:
 * where a receiver works through a backlog, the segments queued behind it
 * take that long, longer than the smoothed round trip of the cumulative
 * acks says. The caller offers each segment once, at the ACK that first
 * shows it; an older one than the last changes nothing.
 */
void hf_reorder_delivered(struct hf_reorder *r, u64 sent_ns, u64 now_ns)
{
	u64 rtt_us;

	if (sent_ns <= r->delivered_ns || now_ns < sent_ns)
		return;
	rtt_us = (now_ns - sent_ns) / 1000;
	r->delivered_ns = sent_ns;
	r->rtt_us = rtt_us > ~0U ? ~0U : (u32)rtt_us;
}

/**
 * hf_reorder_spurious() - the receiver got a segment twice: a repair was
 * premature, so widen the window (at most once per round trip)
 * @r: the flow's state
 * @now_ns: the clock
 * @srtt_us: smoothed round trip; 0 before the first sample
 */
void hf_reorder_spurious(struct hf_reorder *r, u64 now_ns, u32 srtt_us)
{
	r->clean = 0;
	if (r->widened_ns && now_ns - r->widened_ns < (u64)srtt_us * 1000)
		return;
	if (r->mult < HF_REORDER_MULT_MAX)
		r->mult++;
	r->widened_ns = now_ns;
}

/**
 * hf_reorder_late() - a segment that segments sent after it had overtaken
 * arrived, never repaired: widen the window at once to what would have
 * waited for it
 * @r: the flow's state
 * @out_us: how long it was out, from its sending to the ack
 * @rtt_us: the round trip the time test allows for before the window
 *	    (RACK.rtt)
 * @min_rtt_us: least round trip seen; 0 before the first sample
 *
 * A duplicate (hf_reorder_spurious()) comes a round trip after the repair
 * and widens by one quarter of the least round trip per round trip; a
 * burst of whole trains reordered by more than that is repaired whole
 * meanwhile. A late original measures the reordering itself: by how much
 * @out_us exceeds @rtt_us. The window becomes the whole quarters that
 * cover that, and one more; a segment out no longer than @rtt_us changes
 * nothing. The largest lateness is kept too: hf_reorder_window_us() lets
 * the window reach it where it exceeds the smoothed round trip (but not
 * HF_REORDER_MULT_MAX quarters of the least round trip).
 */
void hf_reorder_late(struct hf_reorder *r, u64 out_us, u32 rtt_us,
		     u32 min_rtt_us)
{
	u64 late, need;

	if (out_us <= rtt_us || !min_rtt_us)
		return;
	r->clean = 0;
	late = out_us - rtt_us;
	if (late > ~0U)
		late = ~0U;
	if (late > r->late_us)
		r->late_us = (u32)late;
	need = (late * 4 + min_rtt_us - 1) / min_rtt_us + 1;
	if (need > HF_REORDER_MULT_MAX)
		need = HF_REORDER_MULT_MAX;
	if (need > r->mult)
		r->mult = (u32)need;
}

/**
 * hf_reorder_recovered() - a loss recovery ended; after
 * HF_REORDER_CLEAN_RESET of them without a duplicate or a late arrival
 * the window narrows; each one halves the lateness kept
 * (hf_reorder_late())
 * @r: the flow's state
 */
void hf_reorder_recovered(struct hf_reorder *r)
{
	/* The lateness kept fades; late arrivals measured since renew it. */
	r->late_us /= 2;
	if (++r->clean >= HF_REORDER_CLEAN_RESET) {
		r->clean = 0;
		r->mult = 1;
		r->late_us = 0;
	}
}

/**
 * hf_reorder_window_us() - the reordering window now
 * @r: the flow's state
 * @min_rtt_us: least round trip seen; 0 before the first sample
 * @srtt_us: smoothed round trip; 0 before the first sample
 *
 * Return: min(@mult * @min_rtt_us / 4, max(@srtt_us, @late_us)); 0
 * without samples.
 */
u32 hf_reorder_window_us(const struct hf_reorder *r, u32 min_rtt_us,
			 u32 srtt_us)
{
	u64 w = (u64)r->mult * min_rtt_us / 4;
	u32 cap = srtt_us > r->late_us ? srtt_us : r->late_us;

	return w < cap ? (u32)w : cap;
}

/**
 * hf_reorder_wait_ns() - how long a segment the scoreboard calls lost
 * must still be given before it is repaired
 * @r: the flow's state
 * @sent_ns: when the segment was (last) sent
 * @now_ns: the clock
 * @rtt_us: the latest round trip (RACK.rtt)
 * @window_us: hf_reorder_window_us()
 *
 * Return: 0 when it is lost now: a segment sent no earlier was delivered
 * and @rtt_us + @window_us have passed since @sent_ns. Otherwise the
 * nanoseconds left; U64_MAX-like (all ones) when nothing sent after it
 * has arrived yet, so only an ACK or the RTO can decide.
 */
u64 hf_reorder_wait_ns(const struct hf_reorder *r, u64 sent_ns, u64 now_ns,
		       u32 rtt_us, u32 window_us)
{
	u64 due = sent_ns + ((u64)rtt_us + window_us) * 1000;

	if (r->delivered_ns < sent_ns)
		return ~0ULL;
	return now_ns >= due ? 0 : due - now_ns;
}
