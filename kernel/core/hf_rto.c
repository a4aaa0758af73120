// SPDX-License-Identifier: GPL-2.0
/*
 * hf_rto.c - the per-peer retransmission timeout: RFC 6298 smoothing of
 * round-trip samples, exponential backoff on expiry, and the count of
 * expiries that decides when a peer's messages fail.
 *
 * Design notes:
 * 1. Microseconds in u32, arithmetic in u64. A sample may be any u32, up to
 *    71 minutes; every sum and shift that can grow is done in u64, so
 *    nothing wraps. The results fit u32 again: with M the largest sample so far,
 *    srtt (in 1/8 us) stays at most 8M + 7 and rttvar (in 1/4 us) at most
 *    4M + 3, as each update keeps those bounds. Only +, -, shifts and
 *    compares are used: no division, no floating point.
 * 2. Fraction bits. srtt += (R - srtt) / 8 in whole microseconds truncates,
 *    so srtt stops up to 7 us short of a rising round trip: a third of a
 *    20 us datacenter RTT. srtt is kept in 1/8 us and rttvar in 1/4 us
 *    (Jacobson's scaled estimators); srtt then settles exactly on a steady
 *    RTT, and 4 * rttvar in the timeout is taken with its fraction.
 * 3. Defaults, for one Ethernet L2 domain where RTTs are 10 to 100 us:
 *    - min_us 2 ms: RFC 6298's 1 s floor (Linux TCP: 200 ms) covers WAN
 *      paths and delayed acks. Here the floor only has to cover delays that
 *      never show in rttvar: a busy receiver acking from ksoftirqd, ack
 *      coalescing. Millisecond floors are what removes incast collapse
 *      (Vasudevan et al., SIGCOMM 2009); a tail loss costs 2 ms, not 200.
 *    - initial_us 20 ms: before any sample the path is unknown, but it is
 *      one L2 domain, not the Internet RFC 6298's 1 s is for; ten times
 *      the floor absorbs a cold peer, and a lost first segment costs 20 ms.
 *    - max_us 2 s: RFC 6298 (2.5) allows a ceiling. No switch holds a
 *      frame for seconds; past that the peer or the path is gone, and the
 *      retry limit, not ever longer waits, should decide.
 *    - granularity_us 1 ms: G keeps the timeout clear of srtt when rttvar
 *      settles near zero; it is how late a timer may fire (hrtimer softirq
 *      under load, or a 1 ms jiffy). A caller arming a timer_list at HZ=250
 *      sets 4000.
 *    - max_backoff 6 (64 times), retry_limit 8: a peer that stops
 *      answering is declared dead after 9 expiries: 510 ms from the 2 ms
 *      floor (2 + 4 + ... + 128, then 128 twice), 5.1 s from the initial
 *      20 ms; no single wait in either exceeds 1.28 s.
 * 4. Backoff, Karn and an answering peer. An ack of a retransmitted
 *    segment is progress but no sample (Karn's algorithm, RFC 6298
 *    section 5): it cannot say which copy it answers. RFC 6298 keeps the
 *    backed-off timeout until a valid sample; if every ack of a
 *    retransmission cleared the backoff, a path whose RTT jumped above
 *    the timeout would see every segment time out at the old value for
 *    ever. But a backoff kept through answered round trips treats a peer
 *    that answers like a silent one: where recovery resends only what
 *    timeouts allow, or new data waits behind repairs, no valid sample
 *    comes for seconds, and each loss in the meantime costs the full
 *    backed-off timeout (issue 40: flows at 64 times the timeout for tens
 *    of seconds under 2 % loss). So an ack that takes data ends the
 *    backoff as far as its own timing allows (hf_rto_answered()): the
 *    latest copy of what it took left answer_us ago, whichever copy
 *    arrived, so the path answered within answer_us at most. The backoff
 *    falls to the fewest doublings of rto_us that cover answer_us: 0
 *    when the answer came within the timeout, as it does on a path that
 *    merely lost a segment; on a path whose RTT really jumped above the
 *    timeout, enough to wait for the next answer, which Karn's concern
 *    asks. hf_rto_ack_progress(), for acks that take nothing, still
 *    clears only the retry count.
 * 5. The retry count belongs to the peer and sticks: past retry_limit,
 *    every later expiry reports it too until the peer shows progress, so
 *    messages queued to a dead peer fail at their first expiry instead of
 *    each spending the whole budget. A valid sample is progress as well.
 * 6. Every timeout is clamped with the params of the call, so new module
 *    parameters apply at the next call. Should max_us be below min_us,
 *    max_us wins; hf_rto_params_check() refuses such params.
 */
#include "hf_rto.h"

#define RTO_U8_MAX	0xffU
#define RTO_U32_MAX	0xffffffffU

/* Shift beyond which any timeout of 1 us or more exceeds every max_us. */
#define RTO_SHIFT_MAX	32

/**
 * rto_clamp() - bound a timeout by the params
 * @us: timeout, possibly above U32 max
 * @params: bounds
 *
 * Return: @us raised to min_us, then lowered to max_us.
 */
static u32 rto_clamp(u64 us, const struct hf_rto_params *params)
{
	if (us < params->min_us)
		us = params->min_us;
	if (us > params->max_us)
		us = params->max_us;
	return (u32)us;
}

/**
 * hf_rto_params_default() - fill @params with the defaults
 * @params: params to fill
 *
 * The values are the HF_RTO_DEFAULT_* constants; design note 3 says why.
 */
void hf_rto_params_default(struct hf_rto_params *params)
{
	params->min_us = HF_RTO_DEFAULT_MIN_US;
	params->max_us = HF_RTO_DEFAULT_MAX_US;
	params->initial_us = HF_RTO_DEFAULT_INITIAL_US;
	params->granularity_us = HF_RTO_DEFAULT_GRANULARITY_US;
	params->max_backoff = HF_RTO_DEFAULT_MAX_BACKOFF;
	params->retry_limit = HF_RTO_DEFAULT_RETRY_LIMIT;
}

/**
 * hf_rto_params_check() - validate params before they are used
 * @params: params, typically from module parameters
 *
 * The other functions accept any params without overflow; this refuses
 * those that make no sense, so a bad setting is reported rather than
 * clamped in silence.
 *
 * Return: 0, or -EINVAL when min_us is 0 (a timer that fires at once) or
 * min_us <= initial_us <= max_us does not hold.
 */
int hf_rto_params_check(const struct hf_rto_params *params)
{
	if (!params->min_us)
		return -EINVAL;
	if (params->initial_us < params->min_us ||
	    params->initial_us > params->max_us)
		return -EINVAL;
	return 0;
}

/**
 * hf_rto_init() - start a peer with no samples
 * @rto: estimator to initialise
 * @params: bounds
 *
 * The timeout is initial_us (clamped) until the first sample; no backoff,
 * no retries.
 */
void hf_rto_init(struct hf_rto *rto, const struct hf_rto_params *params)
{
	memset(rto, 0, sizeof(*rto));
	rto->rto_us = rto_clamp(params->initial_us, params);
}

/**
 * hf_rto_sample() - take a round-trip sample
 * @rto: estimator
 * @params: bounds and G
 * @rtt_us: round trip of a segment that was never retransmitted (Karn's
 *	    rule is the caller's); any value, 0 and U32 max included
 *
 * RFC 6298 (2.2) for the first sample: srtt = R, rttvar = R / 2. Then
 * (2.3), rttvar first, from the old srtt in whole microseconds:
 * rttvar = 3/4 rttvar + 1/4 |srtt - R|, srtt = 7/8 srtt + 1/8 R, each as
 * x - (x >> k) + term on the scaled value (design note 2). Then
 * rto_us = srtt + max(G, 4 rttvar), clamped to [min_us, max_us].
 *
 * A valid sample ends any backoff and counts as progress (design notes 4
 * and 5): backoff and retries return to 0. min_rtt_us, latest_us and the
 * saturating samples count are updated.
 */
void hf_rto_sample(struct hf_rto *rto, const struct hf_rto_params *params,
		   u32 rtt_us)
{
	u64 srtt8, rttvar4, var4;

	if (!rto->samples) {
		srtt8 = (u64)rtt_us << 3;
		rttvar4 = (u64)rtt_us << 1;
		rto->min_rtt_us = rtt_us;
	} else {
		u32 err = rto->srtt_us > rtt_us ? rto->srtt_us - rtt_us :
						  rtt_us - rto->srtt_us;

		srtt8 = ((u64)rto->srtt_us << 3) | rto->srtt_frac;
		rttvar4 = ((u64)rto->rttvar_us << 2) | rto->rttvar_frac;
		rttvar4 = rttvar4 - (rttvar4 >> 2) + err;
		srtt8 = srtt8 - (srtt8 >> 3) + rtt_us;
		if (rtt_us < rto->min_rtt_us)
			rto->min_rtt_us = rtt_us;
	}

	/* Both fit u32 again by design note 1. */
	rto->srtt_us = (u32)(srtt8 >> 3);
	rto->srtt_frac = (u8)(srtt8 & 7);
	rto->rttvar_us = (u32)(rttvar4 >> 2);
	rto->rttvar_frac = (u8)(rttvar4 & 3);

	var4 = rttvar4 > params->granularity_us ? rttvar4 :
						  params->granularity_us;
	rto->rto_us = rto_clamp((srtt8 >> 3) + var4, params);

	rto->latest_us = rtt_us;
	if (rto->samples != RTO_U32_MAX)
		rto->samples++;
	rto->backoff = 0;
	rto->retries = 0;
}

/**
 * hf_rto_timeout() - account for an expiry of the retransmission timer
 * @rto: estimator
 * @params: max_backoff and retry_limit
 *
 * Doubles the timeout (RFC 6298 5.5): backoff grows by one up to
 * max_backoff, and hf_rto_current_us() caps the result at max_us. Counts
 * the expiry in retries, which saturates at 255 and is cleared only by
 * progress (design note 5).
 *
 * Return: true when retries now exceeds retry_limit: the caller fails what
 * is outstanding instead of retransmitting. With retry_limit 255 never.
 */
bool hf_rto_timeout(struct hf_rto *rto, const struct hf_rto_params *params)
{
	if (rto->backoff < params->max_backoff)
		rto->backoff++;
	if (rto->retries < RTO_U8_MAX)
		rto->retries++;
	return rto->retries > params->retry_limit;
}

/**
 * hf_rto_current_us() - the timeout to arm the timer with
 * @rto: estimator
 * @params: bounds and max_backoff
 *
 * rto_us doubled backoff times, but at most max_backoff times (params may
 * have been lowered since), computed in u64 so no shift overflows.
 *
 * Return: the timeout in microseconds, in [min_us, max_us].
 */
u32 hf_rto_current_us(const struct hf_rto *rto,
		      const struct hf_rto_params *params)
{
	unsigned int shift = rto->backoff;

	if (shift > params->max_backoff)
		shift = params->max_backoff;
	if (shift > RTO_SHIFT_MAX)
		shift = RTO_SHIFT_MAX;
	return rto_clamp((u64)rto->rto_us << shift, params);
}

/**
 * hf_rto_ack_progress() - the peer acknowledged new data
 * @rto: estimator
 *
 * Clears the retry count: the peer is alive, and the next expiry starts a
 * new run towards retry_limit. Leaves the backoff alone: a valid sample
 * ends it, and an ack that takes data lowers it (hf_rto_answered(),
 * design note 4). Call it for every valid ack, whether or not it also
 * gave a sample.
 */
void hf_rto_ack_progress(struct hf_rto *rto)
{
	rto->retries = 0;
}

/**
 * hf_rto_backoff_end() - a segment sent once arrived, but its round trip
 * is no sample
 * @rto: estimator
 *
 * For a segment never retransmitted that the receiver reports (SACKs)
 * late, behind lower holes: unambiguous proof that the path delivers,
 * which ends the backoff as a sample would (Karn), but a round trip too
 * long to feed the estimator. Clears the retries as well.
 */
void hf_rto_backoff_end(struct hf_rto *rto)
{
	rto->backoff = 0;
	rto->retries = 0;
}

/**
 * hf_rto_answered() - an ack took data (acked or newly SACKed a segment)
 * without giving a valid sample
 * @rto: estimator
 * @params: bounds
 * @answer_us: time since the latest copy of the segments the ack took was
 *	       sent: at least the round trip that answered
 *
 * Lowers the backoff to the fewest doublings of rto_us that reach
 * @answer_us (design note 4): none for an answer within the timeout. It
 * never raises it, and clears the retries: the peer answers.
 */
void hf_rto_answered(struct hf_rto *rto, const struct hf_rto_params *params,
		     u32 answer_us)
{
	unsigned int b = 0;

	rto->retries = 0;
	while (b < rto->backoff && b < RTO_SHIFT_MAX &&
	       rto_clamp((u64)rto->rto_us << b, params) < answer_us)
		b++;
	rto->backoff = (u8)b;
}

/**
 * hf_rto_probe_timeout() - account for an expiry of the timer used as a
 * persist timer
 * @rto: estimator
 * @params: retry_limit
 *
 * The receiver closed its window (a socket buffer is full): what is in
 * flight waits for room, not for a repair, and the caller's persist
 * backoff spaces the probes. The expiry counts towards the retry limit, as
 * a silent peer must still be given up, but the timeout is not doubled:
 * the next answer shows the window, not the path.
 *
 * Return: true when retries now exceeds retry_limit.
 */
bool hf_rto_probe_timeout(struct hf_rto *rto,
			  const struct hf_rto_params *params)
{
	if (rto->retries < RTO_U8_MAX)
		rto->retries++;
	return rto->retries > params->retry_limit;
}
