// SPDX-License-Identifier: GPL-2.0
/*
 * hf_rxsched.c - the receiver's schedule of its downlink (hf_rxsched.h).
 *
 * Design notes:
 * 1. Bytes bound the queue, rates smooth it. The receiver's link holds
 *    one bandwidth-delay product (bdp) in flight; every byte granted
 *    beyond that waits in a queue in front of the link (the switch's
 *    port). So the bytes granted and not yet arrived, over all scheduled
 *    senders, are held to a budget of bdp plus an overcommitment of
 *    bdp >> overcommit_shift: enough that a granted sender that is a
 *    little slow, or a round trip longer than the caller's estimate,
 *    does not leave the link idle; little enough that the queue it can
 *    build stays within that overcommitment. The rates given to the
 *    senders (their pacing) add up to the link's, so that the granted
 *    bytes arrive spread out rather than in bursts, and the queue stays
 *    near empty while the window is not what limits them. The kernel
 *    overcommits by one whole bdp (HF_RXSCHED_OVERCOMMIT_SHIFT 0): its
 *    estimate of the round trip is the least seen, and in a loaded
 *    guest a grant's round trip varies by a factor of two; with 1/8 a
 *    6.1 guest's three senders got 69 % of their receiver's link.
 * 2. Who gets the budget: in order of remaining bytes, shortest first
 *    (SRPT), each sender whose remaining bytes fit in what is left of
 *    the budget is given them whole; the first that does not fit and
 *    all after it (the long ones) share what is left alike. So a sender
 *    alone gets the whole budget (the whole link), N senders with much
 *    to send share it alike, and a short message is granted whole
 *    before the long ones take the rest. The grants handed out now are
 *    what the budget has free (budget less every scheduled sender's
 *    outstanding bytes), again shortest first, each up to its target:
 *    a grant never goes back (limits only grow), so a sender above its
 *    target keeps its bytes and the others wait until they arrive.
 * 3. Rates follow the targets: a sender is paced at the link's rate
 *    times its part of the targets. One whose remaining bytes all fit in
 *    its target (a short message, a long one's tail) is paced at the
 *    whole link: its bytes are few and already within the budget, and
 *    SRPT wants it done first. At least 1/64 of the link, so a sender
 *    ranked last still moves.
 * 4. Liveness: a scheduled sender may always have min_grant (a segment
 *    or two) outstanding, beyond the budget if need be: its data brings
 *    ACKs, and they carry its next grants. The overshoot is at most
 *    min_grant per scheduled sender.
 * 5. Silence: a sender from which nothing arrived for silent_ns, with
 *    bytes still to come, is marked silent: its outstanding bytes leave
 *    the budget (reclaimed) and it is not scheduled until something
 *    arrives from it again, which the caller records by clearing the
 *    mark. The bytes it was granted stay granted (grants are absolute
 *    limits); should it come back, it may send them, once.
 * 6. Bounded: at most HF_RXSCHED_SLOTS senders, sorted by insertion, so
 *    a call costs a few hundred comparisons; u64 arithmetic throughout,
 *    products through hf_mul_div64().
 */
#include "hf_rxsched.h"

/**
 * hf_rxsched_budget() - bytes all scheduled senders may have outstanding
 * @p: the receiver's link
 *
 * Return: @p->bdp plus its overcommitment (design note 1).
 */
u64 hf_rxsched_budget(const struct hf_rxsched_params *p)
{
	u32 shift = p->overcommit_shift < 63 ? p->overcommit_shift : 63;

	return p->bdp + (p->bdp >> shift);
}

/* Whether @a ranks before @b: fewer remaining bytes, then lower slot. */
static bool hf_rxsched_before(const struct hf_rxsched_sender *s, u32 a, u32 b)
{
	if (s[a].remaining != s[b].remaining)
		return s[a].remaining < s[b].remaining;
	return a < b;
}

/**
 * hf_rxsched_alloc() - the grants and rates of the scheduled senders
 * @s: the receiver's table, @n slots; silent senders are marked here
 * @n: slots in @s (at most HF_RXSCHED_SLOTS are looked at)
 * @p: the receiver's link
 * @now_ns: the caller's clock, as @s's last_ns
 * @out: @n results, one per slot; all 0 for a slot not scheduled
 * @reclaimed: incremented for each sender newly found silent
 *
 * The caller serialises calls on @s. Design notes 2 to 5 give the rules.
 *
 * Return: the number of senders scheduled.
 */
u32 hf_rxsched_alloc(struct hf_rxsched_sender *s, u32 n,
		     const struct hf_rxsched_params *p, u64 now_ns,
		     struct hf_rxsched_grant *out, u32 *reclaimed)
{
	u8 order[HF_RXSCHED_SLOTS];
	u64 budget = hf_rxsched_budget(p);
	u64 used = 0, left, avail, sum = 0;
	u32 i, j, k = 0;

	if (n > HF_RXSCHED_SLOTS)
		n = HF_RXSCHED_SLOTS;
	memset(out, 0, n * sizeof(*out));
	for (i = 0; i < n; i++) {
		if (!s[i].used || !s[i].remaining)
			continue;
		if (!s[i].silent && now_ns > s[i].last_ns &&
		    now_ns - s[i].last_ns > p->silent_ns) {
			s[i].silent = 1;
			(*reclaimed)++;
		}
		if (s[i].silent)
			continue;
		for (j = k; j > 0 && hf_rxsched_before(s, i, order[j - 1]); j--)
			order[j] = order[j - 1];
		order[j] = i;
		k++;
		used += s[i].outstanding;
	}
	if (!k)
		return 0;

	/* Targets: short ones whole, shortest first (design note 2). */
	left = budget;
	for (j = 0; j < k && s[order[j]].remaining <= left; j++) {
		out[order[j]].target = s[order[j]].remaining;
		left -= s[order[j]].remaining;
		sum += s[order[j]].remaining;
	}
	/* The long ones alike, the remainder's bytes to the shortest. */
	for (i = j; i < k; i++) {
		out[order[i]].target = left / (k - j) +
				       (i - j < left % (k - j) ? 1 : 0);
		sum += out[order[i]].target;
	}

	/* What the budget has free, shortest first; the floor for all. */
	avail = budget > used ? budget - used : 0;
	for (j = 0; j < k; j++) {
		const struct hf_rxsched_sender *e = &s[order[j]];
		struct hf_rxsched_grant *g = &out[order[j]];
		u64 want = g->target > e->outstanding ?
			   g->target - e->outstanding : 0;

		g->grant = want < avail ? want : avail;
		avail -= g->grant;
		if (e->outstanding + g->grant < p->min_grant)
			g->grant = p->min_grant - e->outstanding;

		/* Rates follow the targets (design note 3). */
		if (e->remaining <= g->target || !sum)
			g->rate = p->link_rate;
		else
			g->rate = hf_mul_div64(p->link_rate, g->target, sum);
		if (g->rate < p->link_rate >> HF_RXSCHED_MIN_RATE_SHIFT)
			g->rate = p->link_rate >> HF_RXSCHED_MIN_RATE_SHIFT;
	}
	return k;
}
