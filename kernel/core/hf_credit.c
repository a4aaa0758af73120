// SPDX-License-Identifier: GPL-2.0
/*
 * hf_credit.c - receiver-granted credits (hf_credit.h).
 *
 * Design notes:
 * 1. An absolute limit, not increments. The receiver grants "you may send
 *    up to byte L" rather than "n more bytes": the largest L seen is the
 *    whole state, so lost credit frames are repaired by any later one,
 *    duplicates and reordering change nothing, and the limit can ride on
 *    every ACK as well as on credit frames of its own. The receiver never
 *    takes a grant back (L never decreases): when its budget shrinks (more
 *    active senders), later grants simply do not move until the
 *    application has read past the old limit.
 * 2. The grant is L = consumed + min(share, max_ahead), where share is
 *    what the receiver can hold for the peer now: its part of the
 *    receive budget (hf_credit_share()), plus whatever the caller holds
 *    on other terms (the kernel adds messages in reassembly, reserved
 *    when admitted). The bytes held beyond those never exceed the share,
 *    and they come back as the application reads (consumed grows). The
 *    receiver also counts bytes that arrive beyond L (@over), so a
 *    sender that breaks its credit, or probes, is visible.
 * 3. The wire carries L's low 32 bits. The sender restores L as the
 *    64-bit value nearest its own bytes sent: exact for any L within
 *    2^31 of it. A valid new grant is at most max_ahead (below 2^31) above
 *    the bytes sent, and a stale one is below the current limit; both are
 *    restored exactly unless a grant was delayed past 2 GiB of the flow's
 *    data, which an epoch (each starts both counts at 0) prevents in
 *    practice. A value restored beyond max_ahead is refused as invalid,
 *    whether garbage or forged: it cannot open the sender beyond what any
 *    receiver grants.
 * 4. Defaults: initial_window 64 KiB, one bandwidth-delay product at
 *    10 Gbit/s and a 50 us round trip, so messages up to 64 KiB (RPCs)
 *    never wait for a grant; N cold senders put at most N x 64 KiB on a
 *    receiver at once, 45 segments each at MTU 1500, which with 5 of them
 *    already fills a 256-packet veth ring: hence small. max_ahead 1 GiB:
 *    above any share, since a namespace's mem_limit is at most
 *    INT_MAX / 2, and below the 2^31 of note 3.
 * 5. Fair shares: budget / N for each of N active senders, the remainder's
 *    bytes one each to the first budget % N (by the caller's index), so
 *    the shares add up to the budget exactly. The rate hint divides the
 *    receiver's drain rate (when its application is the bottleneck) or
 *    its link rate the same way (incast: 1/N each).
 * 6. u64 byte counts never wrap in practice (2^64 bytes); every
 *    comparison is still written as a difference of counts known to be
 *    ordered (limit >= sent), and divisions go through hf_mul_div64().
 */
#include "hf_credit.h"

/**
 * hf_credit_params_default() - fill @params with the defaults
 * @params: params to fill
 *
 * The values are the HF_CREDIT_DEFAULT_* constants; design note 4 says why.
 */
void hf_credit_params_default(struct hf_credit_params *params)
{
	params->initial_window = HF_CREDIT_DEFAULT_INITIAL;
	params->max_ahead = HF_CREDIT_DEFAULT_MAX_AHEAD;
}

/**
 * hf_credit_params_check() - validate params before they are used
 * @params: params, typically from module parameters
 *
 * Return: 0, or -EINVAL when max_ahead is 0 or not below
 * HF_CREDIT_WIRE_SPAN (the wire value would be ambiguous), or
 * initial_window is above max_ahead.
 */
int hf_credit_params_check(const struct hf_credit_params *params)
{
	if (!params->max_ahead || params->max_ahead >= HF_CREDIT_WIRE_SPAN)
		return -EINVAL;
	if (params->initial_window > params->max_ahead)
		return -EINVAL;
	return 0;
}

/**
 * hf_credit_to_wire() - the credit limit as it travels
 * @limit: absolute limit
 *
 * Return: its low 32 bits.
 */
u32 hf_credit_to_wire(u64 limit)
{
	return (u32)limit;
}

/**
 * hf_credit_from_wire() - restore a limit from its wire value
 * @ref: a 64-bit count near the limit: the sender's bytes sent
 * @wire: the limit's low 32 bits
 *
 * Return: the 64-bit value with low bits @wire nearest @ref (within
 * -2^31..2^31 - 1 of it); 0 when that would be below 0.
 */
u64 hf_credit_from_wire(u64 ref, u32 wire)
{
	s32 delta = (s32)(wire - (u32)ref);

	if (delta < 0) {
		u64 back = (u64)(-(s64)delta);

		return back > ref ? 0 : ref - back;
	}
	return ref + (u64)delta;
}

/**
 * hf_credit_share() - one active sender's part of a receive budget
 * @budget: bytes the receiver can hold for all its active senders
 * @nactive: active senders; 0 is taken as 1
 * @index: this sender's place among them, 0..@nactive - 1; an index
 *	   beyond gets the plain quotient
 *
 * Return: @budget / @nactive, plus one byte for the first
 * @budget % @nactive indexes: the shares of indexes 0..@nactive - 1 add
 * up to @budget exactly, and differ by at most one byte.
 */
u64 hf_credit_share(u64 budget, u32 nactive, u32 index)
{
	u64 each, rest;

	if (!nactive)
		nactive = 1;
	each = hf_mul_div64(budget, 1, nactive);
	rest = budget - each * nactive;
	return each + (index < rest ? 1 : 0);
}

/**
 * hf_credit_rate_hint() - the rate to tell each active sender
 * @drain_rate: bytes per second the receiving application reads, when it
 *		is the bottleneck (its buffer is backlogged); 0: unknown or
 *		not the bottleneck
 * @link_rate: bytes per second of the receiver's link; 0: unknown
 * @nactive: active senders; 0 is taken as 1
 *
 * Return: the lower known rate divided by @nactive, rounded down but at
 * least 1; 0 (no hint) when neither rate is known.
 */
u64 hf_credit_rate_hint(u64 drain_rate, u64 link_rate, u32 nactive)
{
	u64 rate = drain_rate;
	u64 hint;

	if (!rate || (link_rate && link_rate < rate))
		rate = link_rate;
	if (!rate)
		return 0;
	if (!nactive)
		nactive = 1;
	hint = hf_mul_div64(rate, 1, nactive);
	return hint ? hint : 1;
}

/**
 * hf_credit_rx_init() - start the receiver's side of a flow (an epoch)
 * @rx: state to initialise
 * @params: initial_window
 *
 * The limit starts at the initial window, which the sender assumes too;
 * it counts as advertised.
 */
void hf_credit_rx_init(struct hf_credit_rx *rx,
		       const struct hf_credit_params *params)
{
	memset(rx, 0, sizeof(*rx));
	rx->limit = params->initial_window;
	rx->advertised = rx->limit;
}

/**
 * hf_credit_rx_on_data() - new payload bytes arrived
 * @rx: receiver state
 * @bytes: payload of a segment received for the first time
 *
 * Return: true when the bytes lie within the limit; false when some lie
 * beyond it (counted in @over; the caller decides whether to keep them).
 */
bool hf_credit_rx_on_data(struct hf_credit_rx *rx, u32 bytes)
{
	u64 end = rx->received + bytes;

	rx->received = end;
	if (end <= rx->limit)
		return true;
	rx->over += end - rx->limit < bytes ? end - rx->limit : bytes;
	return false;
}

/**
 * hf_credit_rx_on_consume() - bytes were released
 * @rx: receiver state
 * @bytes: bytes read by the application or dropped after arrival
 *
 * Consumed never passes received: an excess is ignored.
 */
void hf_credit_rx_on_consume(struct hf_credit_rx *rx, u64 bytes)
{
	u64 room = rx->received - rx->consumed;

	rx->consumed += bytes < room ? bytes : room;
}

/**
 * hf_credit_rx_grant() - recompute the limit from the peer's share
 * @rx: receiver state
 * @params: max_ahead
 * @share: bytes the receiver can hold for this peer now
 *	   (hf_credit_share() of its budget)
 *
 * Raises the limit to consumed + min(@share, max_ahead) when that is
 * above it; never lowers it (design note 1).
 *
 * Return: the limit.
 */
u64 hf_credit_rx_grant(struct hf_credit_rx *rx,
		       const struct hf_credit_params *params, u64 share)
{
	u64 ahead = share < params->max_ahead ? share : params->max_ahead;
	u64 limit = rx->consumed + ahead;

	if (limit > rx->limit)
		rx->limit = limit;
	return rx->limit;
}

/**
 * hf_credit_rx_advertise() - whether a credit frame should go now
 * @rx: receiver state
 * @min_step: the least raise worth a frame of its own (e.g. a quarter of
 *	      the share, or a frame's bytes)
 * @wire: set to the wire value of the limit when the answer is true
 *
 * A frame is due when the limit is above the one last advertised by at
 * least @min_step, or by anything once the sender has used all it was
 * told (it is stalled, or about to be). ACKs may carry the limit anyway:
 * the sender keeps the largest.
 *
 * Return: true when a credit frame should be sent now with @wire; the
 * limit then counts as advertised.
 */
bool hf_credit_rx_advertise(struct hf_credit_rx *rx, u64 min_step,
			    u32 *wire)
{
	if (rx->limit <= rx->advertised)
		return false;
	if (rx->limit - rx->advertised < min_step &&
	    rx->received < rx->advertised)
		return false;
	rx->advertised = rx->limit;
	*wire = hf_credit_to_wire(rx->limit);
	return true;
}

/**
 * hf_credit_tx_init() - start the sender's side of a flow (an epoch)
 * @tx: state to initialise
 * @params: initial_window
 */
void hf_credit_tx_init(struct hf_credit_tx *tx,
		       const struct hf_credit_params *params)
{
	memset(tx, 0, sizeof(*tx));
	tx->limit = params->initial_window;
}

/**
 * hf_credit_avail() - credit left
 * @tx: sender state
 *
 * Return: limit - sent (the limit is never below sent).
 */
u64 hf_credit_avail(const struct hf_credit_tx *tx)
{
	return tx->limit - tx->sent;
}

/**
 * hf_credit_may_send() - may @bytes of new data leave
 * @tx: sender state
 * @bytes: payload of the segments (or frame) about to be sent
 *
 * Return: true when @bytes fit in the credit left.
 */
bool hf_credit_may_send(const struct hf_credit_tx *tx, u64 bytes)
{
	return bytes <= hf_credit_avail(tx);
}

/**
 * hf_credit_consume() - new data left
 * @tx: sender state
 * @bytes: its payload
 *
 * Return: 0, or -ENOSPC when @bytes exceed the credit left (nothing is
 * consumed then: the caller had to ask hf_credit_may_send() first).
 */
int hf_credit_consume(struct hf_credit_tx *tx, u64 bytes)
{
	if (!hf_credit_may_send(tx, bytes))
		return -ENOSPC;
	tx->sent += bytes;
	return 0;
}

/**
 * hf_credit_probe() - new data leaves beyond the credit, as a probe
 * @tx: sender state
 * @bytes: its payload (one segment)
 *
 * A grant rides on an ACK, and a lost ACK is not sent again by itself:
 * a sender that waits for credit with nothing in flight would wait for
 * good. After a persist timeout it sends one segment anyway; the ACK it
 * draws carries the limit (as TCP's zero-window probe). The limit rises
 * with the bytes sent, so that limit - sent stays the credit left (none);
 * the receiver counts the probe's bytes over its limit.
 */
void hf_credit_probe(struct hf_credit_tx *tx, u64 bytes)
{
	tx->sent += bytes;
	if (tx->limit < tx->sent)
		tx->limit = tx->sent;
	tx->probes++;
}

/**
 * hf_credit_stall() - the sender has data but not the credit for it
 * @tx: sender state
 * @bytes: credit it waits for (the next segment or frame)
 * @now_ns: the time now
 *
 * Begins a stall unless one runs (then only the need is updated). The
 * stall ends at the grant that makes @bytes fit, or hf_credit_stall_end().
 */
void hf_credit_stall(struct hf_credit_tx *tx, u32 bytes, u64 now_ns)
{
	tx->stall_need = bytes;
	if (tx->stalled)
		return;
	tx->stalled = 1;
	tx->stall_start_ns = now_ns;
	tx->stalls++;
}

/**
 * hf_credit_stall_end() - the sender stops waiting
 * @tx: sender state
 * @now_ns: the time now
 *
 * For a stall that ends without a grant (the data was failed, the flow
 * reset). Adds the stall's time to stall_ns; nothing when not stalled.
 */
void hf_credit_stall_end(struct hf_credit_tx *tx, u64 now_ns)
{
	if (!tx->stalled)
		return;
	if (now_ns > tx->stall_start_ns)
		tx->stall_ns += now_ns - tx->stall_start_ns;
	tx->stalled = 0;
	tx->stall_need = 0;
}

/**
 * hf_credit_stall_total_ns() - time spent waiting for credit
 * @tx: sender state
 * @now_ns: the time now
 *
 * Return: stall_ns plus the running stall's time so far.
 */
u64 hf_credit_stall_total_ns(const struct hf_credit_tx *tx, u64 now_ns)
{
	u64 total = tx->stall_ns;

	if (tx->stalled && now_ns > tx->stall_start_ns)
		total += now_ns - tx->stall_start_ns;
	return total;
}

/**
 * hf_credit_grant() - a grant arrived (absolute limit)
 * @tx: sender state
 * @params: max_ahead
 * @limit: the granted limit
 * @now_ns: the time now, to end a stall
 *
 * A limit at or below the current one is stale (lost ordering, duplicate)
 * and changes nothing; one more than max_ahead above the bytes sent is
 * invalid and changes nothing. Otherwise it becomes the limit, and a
 * stall whose need now fits ends.
 *
 * Return: the verdict, also counted in grants, stale or invalid.
 */
enum hf_credit_verdict hf_credit_grant(struct hf_credit_tx *tx,
				       const struct hf_credit_params *params,
				       u64 limit, u64 now_ns)
{
	if (limit <= tx->limit) {
		tx->stale++;
		return HF_CREDIT_STALE;
	}
	if (limit - tx->sent > params->max_ahead) {
		tx->invalid++;
		return HF_CREDIT_INVALID;
	}
	tx->limit = limit;
	tx->grants++;
	if (tx->stalled && hf_credit_may_send(tx, tx->stall_need))
		hf_credit_stall_end(tx, now_ns);
	return HF_CREDIT_NEW;
}

/**
 * hf_credit_grant_wire() - a grant arrived as its 32-bit wire value
 * @tx: sender state
 * @params: max_ahead
 * @wire: the limit's low 32 bits
 * @now_ns: the time now
 *
 * Restores the limit next to the bytes sent (hf_credit_from_wire()), then
 * as hf_credit_grant().
 *
 * Return: the verdict.
 */
enum hf_credit_verdict hf_credit_grant_wire(struct hf_credit_tx *tx,
					    const struct hf_credit_params *params,
					    u32 wire, u64 now_ns)
{
	return hf_credit_grant(tx, params, hf_credit_from_wire(tx->sent, wire),
			       now_ns);
}
