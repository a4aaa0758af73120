// SPDX-License-Identifier: GPL-2.0
/*
 * hf_hfq.c - hfq, the qdisc of hyperframe: a strict-priority band that
 * lets control frames overtake bulk data, per-flow queues for hyperframe
 * data that honour each frame's departure time (EDT), a guaranteed share
 * for all other traffic, and an optional rate the whole device is paced to.
 *
 * Design notes:
 * 1. Three bands. Control: what this host's kernel sends at
 *    TC_PRIO_CONTROL (the transport's ACKs among them), in one FIFO,
 *    served first within its share (note 6). Data: hyperframe frames, one
 *    queue per flow (the destination address: a peer flow, whose segments
 *    must not overtake each other), served round robin by quantum.
 *    Other: everything else (IP, ARP), one FIFO. Data and other share
 *    what control leaves by deficit round robin, other getting
 *    other_share percent while both wait, all of it while data waits for
 *    its departure times: neither starves the other.
 * 2. A data flow's packets leave in order, not before the head's
 *    departure time (skb->tstamp when it is a monotonic delivery time, as
 *    sch_fq reads it). A flow whose head is early leaves the round and
 *    waits in a tree ordered by that time; the watchdog wakes the qdisc at
 *    the earliest. A departure further than horizon_ms ahead is a sender
 *    bug and is dropped, counted.
 * 3. With a rate, every packet reserves len / rate of the device's time
 *    and the next waits for it: the device becomes a link of that speed
 *    with its queue here, where control can overtake. Lateness of the
 *    timer is made up for, up to HFQ_RATE_SLACK_NS, so the rate holds
 *    under a coarse timer.
 * 4. Flows exist only while they have packets, so there are never more
 *    flows than packets (limit bounds both). A flow that cannot be
 *    allocated joins a fallback queue embedded in the qdisc, counted.
 * 5. Settings come from tc's TCA_OPTIONS (TCA_HFQ_*, sent by the
 *    q_hfq.so plugin: "tc qdisc replace dev X root hfq rate 10gbit") or
 *    from the module's generic netlink family (hfctl qdisc set), checked
 *    by the same ranges; both change them under RTNL and the qdisc tree
 *    lock, and a dump gives them back in TCA_OPTIONS as sch_fq does. A
 *    request with a value out of range changes nothing.
 * 6. Nothing a frame says about itself earns it priority: a frame of the
 *    hyperframe EtherType that is not DATA may come from a packet socket
 *    or be forwarded or bridged from anywhere. Control takes a frame only
 *    at TC_PRIO_CONTROL, built on this host (skb_iif 0: not received,
 *    forwarded or bridged) by the kernel or by a socket of the device's
 *    own namespace (setting that priority needs CAP_NET_ADMIN or
 *    CAP_NET_RAW over it, what changing this qdisc needs). A hyperframe
 *    frame that is not DATA and fails this is queued as data, in a flow
 *    of its own (control_foreign). Frames this host's transport did not
 *    build never share a flow with those it did (the flow key's
 *    HFQ_KEY_FOREIGN), nor count in hf_hfq_backlog_ns(), so they can
 *    neither hold a peer flow back nor stop the transport's sender.
 *    Even so, control is bounded: while another band has packets it may
 *    send HFQ_CONTROL_SHARE percent of the bytes (a credit earned by what
 *    the others send, at most HFQ_CONTROL_BURST ahead), so a local
 *    program flooding at TC_PRIO_CONTROL cannot starve the link.
 * 7. At the packet limit or the byte limit (memory_limit, skb truesize,
 *    as fq_codel's), the longest queue (packets: control, other, or the
 *    longest data flow) loses its oldest packet for the newcomer, unless
 *    the newcomer's own queue is the longest: a flood fills the qdisc
 *    only at its own expense. The data flow hash is keyed per qdisc
 *    (siphash), so no one can pile flows into one bucket.
 */
#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/rbtree.h>
#include <linux/rtnetlink.h>
#include <linux/siphash.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>
#include <net/sock.h>

#include "hf_compat.h"
#include "hf_hfq.h"
#include "hf_offload.h"
#include "hf_pace.h"
#include "hf_params.h"
#include "hf_trace.h"
#include "hf_wire.h"

/* 1024 buckets: chains of 10 at the default limit's 10000 flows. */
#define HFQ_HASH_BITS		10
#define HFQ_TIMER_SLACK_NS	(10 * NSEC_PER_USEC)
#define HFQ_RATE_SLACK_NS	NSEC_PER_MSEC
/* Bytes per round of the data/other round robin, split by other_share. */
#define HFQ_SHARE_ROUND		(64 * 1024)
/*
 * Control's share of the bytes sent while another band has packets, and
 * the credit it may bank (note 6). The transport's ACKs are 54 to 182
 * bytes on the wire, one per one or two segments of up to 9 KB the other
 * way: a few percent of a link. A quarter leaves them room for bursts of
 * SACK-laden ACKs and a node's other control traffic (STP, LACP, MLD)
 * while three quarters stay for the rest; 16 KiB of credit lets some 100
 * ACKs overtake at once.
 */
#define HFQ_CONTROL_SHARE	25
#define HFQ_CONTROL_BURST	(16 * 1024)
/* At most this many packets make room for one newcomer at a limit. */
#define HFQ_EVICT_MAX		64
/* Flow key bit of frames not built by this host's transport (note 6). */
#define HFQ_KEY_FOREIGN		BIT_ULL(48)

enum hfq_band {
	HFQ_BAND_CONTROL,
	HFQ_BAND_DATA,
	HFQ_BAND_OTHER,
	HFQ_BANDS,
};

/* Data and other alternate; control is outside the round robin. */
enum { HFQ_RR_DATA, HFQ_RR_OTHER };

struct hfq_skb_cb {
	u64 time_to_send;
	u64 enqueue_ns;
};

/**
 * struct hfq_flow - the queue of one hyperframe data flow
 * @hash: in hfq_sched.flows by @key
 * @active: in hfq_sched.active while it may send now
 * @node: in hfq_sched.throttled while it waits for @time_next
 * @queue: its packets, in order
 * @key: destination address and sender's port
 * @time_next: departure time of the head while throttled
 * @deficit: bytes it may still send this round
 */
struct hfq_flow {
	struct hlist_node hash;
	struct list_head active;
	struct rb_node node;
	struct sk_buff_head queue;
	u64 key;
	u64 time_next;
	int deficit;
};

/**
 * struct hfq_sched - one hfq instance, all under the qdisc tree lock
 * @cfg: its settings
 * @control: the control band
 * @other: the band of other traffic
 * @data_qlen: packets of the data band
 * @data_backlog: bytes of the data band the transport built, for
 *		  hf_hfq_backlog_ns() (read without the lock)
 * @memory: truesize of everything queued, against @cfg.memory_limit
 * @flows_count: data flows allocated
 * @active: data flows that may send now
 * @throttled: data flows waiting for their head's departure time
 * @flows: hash table of the data flows, 1 << HFQ_HASH_BITS buckets
 * @hash_key: this instance's key of the flow hash
 * @fat: the longest data flow seen, or NULL (note 7; a hint)
 * @fallback: the data flow of packets whose own could not be allocated
 * @rr_deficit: the data/other round robin's deficits
 * @rr_turn: HFQ_RR_DATA or HFQ_RR_OTHER
 * @ctl_credit: bytes control may still send ahead of the others (note 6)
 * @time_next_tx: the device's next free time, with a rate
 * @xstats: its counters
 * @watchdog: wakes the qdisc at the next departure or free time
 */
struct hfq_sched {
	struct hfq_config cfg;
	struct sk_buff_head control;
	struct sk_buff_head other;
	u32 data_qlen;
	u32 data_backlog;
	u32 memory;
	u32 flows_count;
	struct list_head active;
	struct rb_root throttled;
	struct hlist_head *flows;
	siphash_key_t hash_key;
	struct hfq_flow *fat;
	struct hfq_flow fallback;
	int rr_deficit[2];
	int rr_turn;
	int ctl_credit;
	u64 time_next_tx;
	struct tc_hfq_xstats xstats;
	struct qdisc_watchdog watchdog;
};

static const struct hfq_config hfq_default_config = {
	.rate		= 0,
	.limit		= 10000,
	.flow_limit	= 1000,
	.control_limit	= 1000,
	.quantum	= 2 * ETH_FRAME_LEN,
	.other_share	= 10,
	.horizon_ms	= 10 * MSEC_PER_SEC,
	/* fq_codel's default; the 10000 packets of limit are 20 to 640 MB. */
	.memory_limit	= 32U << 20,
};

struct netlink_range_validation hfq_range_limit = {
	.min = 1, .max = HFQ_LIMIT_MAX,
};

struct netlink_range_validation hfq_range_quantum = {
	.min = HFQ_QUANTUM_MIN, .max = HFQ_QUANTUM_MAX,
};

struct netlink_range_validation hfq_range_share = {
	.min = HFQ_SHARE_MIN, .max = HFQ_SHARE_MAX,
};

struct netlink_range_validation hfq_range_horizon = {
	.min = 1, .max = 3600 * MSEC_PER_SEC,
};

struct netlink_range_validation hfq_range_memory = {
	.min = HFQ_MEMORY_MIN, .max = HFQ_MEMORY_MAX,
};

static struct netlink_range_validation hfq_range_rate = {
	.min = HFQ_RATE_MIN, .max = HFQ_RATE_MAX,
};

/* A rate other than 0, reported with the extended ack's refusal. */
static const struct nla_policy hfq_rate_policy =
	NLA_POLICY_FULL_RANGE(NLA_U64, &hfq_range_rate);

#define HFQ_TCA_POLICY(A, f, range)					\
	[TCA_HFQ_##A] = NLA_POLICY_FULL_RANGE(NLA_U32, &(range)),
static const struct nla_policy hfq_tca_policy[TCA_HFQ_MAX + 1] = {
	[TCA_HFQ_RATE] = { .type = NLA_U64 },
	HFQ_U32_SETTINGS(HFQ_TCA_POLICY)
};

#undef HFQ_TCA_POLICY

/**
 * hf_hfq_rate_check() - check a requested device rate
 * @attr: a u64 attribute of bytes per second, already of the right size
 * @extack: where a refusal says the range
 *
 * A policy cannot say the rate's range, which has a hole: 0 (unpaced) or
 * HFQ_RATE_MIN..HFQ_RATE_MAX. Refused with the range's policy, so the
 * extended ack carries it.
 *
 * Return: 0, or -ERANGE.
 */
int hf_hfq_rate_check(const struct nlattr *attr, struct netlink_ext_ack *extack)
{
	u64 rate = nla_get_u64(attr);

	if (rate && (rate < HFQ_RATE_MIN || rate > HFQ_RATE_MAX)) {
		NL_SET_ERR_MSG_ATTR_POL(extack, attr, &hfq_rate_policy,
					"rate must be 0 (unpaced) or 500 kbit/s to 10 Tbit/s");
		return -ERANGE;
	}
	return 0;
}

/* The names of struct tc_hfq_xstats' fields, in order. */
const char *const hfq_counter_names[] = {
	"packets_control",
	"packets_data",
	"packets_other",
	"drop_limit",
	"drop_flow_limit",
	"drop_control_limit",
	"drop_horizon",
	"flow_alloc_failed",
	"throttled",
	"rate_delayed",
	"drop_memory_limit",
	"control_foreign",
	"control_over_share",
};

static_assert(ARRAY_SIZE(hfq_counter_names) == HFQ_NR_COUNTERS);

static struct hfq_skb_cb *hfq_cb(struct sk_buff *skb)
{
	qdisc_cb_private_validate(skb, sizeof(struct hfq_skb_cb));
	return (struct hfq_skb_cb *)qdisc_skb_cb(skb)->data;
}

/**
 * hfq_own() - whether this host's transport built a frame
 * @skb: the frame
 *
 * The transport builds its frames without a socket (or, should it charge
 * them, with a hyperframe one); a received skb, forwarded or bridged,
 * keeps the index of the device it came in by.
 * Context: any; reads the skb only.
 * Return: true for no socket or a hyperframe one, and not received.
 */
static bool hfq_own(const struct sk_buff *skb)
{
	return !skb->skb_iif &&
	       (!skb->sk || skb->sk->sk_family == AF_HYPERFRAME);
}

/**
 * hfq_control() - whether a frame may enter the control band (note 6)
 * @sch: the qdisc
 * @skb: the frame
 *
 * Context: any; reads the skb only.
 * Return: true for TC_PRIO_CONTROL set on this host by the kernel or by
 * a socket of the namespace of @sch's device.
 */
static bool hfq_control(const struct Qdisc *sch, const struct sk_buff *skb)
{
	return skb->priority == TC_PRIO_CONTROL && !skb->skb_iif &&
	       (!skb->sk ||
		net_eq(sock_net(skb->sk), dev_net(qdisc_dev(sch))));
}

/**
 * hfq_classify() - the band of a frame
 * @sch: the qdisc
 * @skb: the frame
 * @key: set to its flow key when it goes to the data band
 *
 * Counts control_foreign. Context: the qdisc's root lock held.
 * Return: its band.
 */
static enum hfq_band hfq_classify(struct Qdisc *sch, struct sk_buff *skb,
				  u64 *key)
{
	struct hfq_sched *q = qdisc_priv(sch);
	const struct ethhdr *eth;
	struct ethhdr eth_buf;
	u8 hdr_buf[1];
	const u8 *hdr;

	if (skb->protocol != hf_ethertype() || skb_network_offset(skb) < 0)
		goto not_hf;
	hdr = skb_header_pointer(skb, skb_network_offset(skb), sizeof(hdr_buf),
				 hdr_buf);
	if (!hdr)
		goto not_hf;
	if ((hdr[0] & 0x0f) != HF_TYPE_DATA) {
		if (hfq_control(sch, skb))
			return HFQ_BAND_CONTROL;
		q->xstats.control_foreign++;
	}

	/*
	 * One flow per destination, the peer flow's sequence space: its
	 * segments leave in the order they were numbered, since one that
	 * overtook others would look to the sender as if those were lost.
	 * Its sockets take turns in the transport, which keeps what stands
	 * here short (hf_tx_pick()). Devices without an Ethernet header share
	 * one flow.
	 */
	*key = hfq_own(skb) ? 0 : HFQ_KEY_FOREIGN;
	if (skb_network_offset(skb) >= ETH_HLEN) {
		eth = skb_header_pointer(skb, skb_network_offset(skb) - ETH_HLEN,
					 sizeof(eth_buf), &eth_buf);
		if (eth)
			*key |= ether_addr_to_u64(eth->h_dest);
	}
	return HFQ_BAND_DATA;

not_hf:
	return hfq_control(sch, skb) ? HFQ_BAND_CONTROL : HFQ_BAND_OTHER;
}

/**
 * hfq_bucket() - the hash bucket of a flow key, by this qdisc's siphash key
 * @q: the qdisc's state
 * @key: the flow key
 *
 * Context: the qdisc's root lock held.
 * Return: the bucket.
 */
static struct hlist_head *hfq_bucket(struct hfq_sched *q, u64 key)
{
	return &q->flows[siphash_1u64(key, &q->hash_key) &
			 ((1U << HFQ_HASH_BITS) - 1)];
}

/**
 * hfq_flow_find() - look a data flow up
 * @q: the qdisc's state
 * @key: its key
 *
 * Context: the qdisc's root lock held.
 * Return: the flow of @key, or NULL when it has none.
 */
static struct hfq_flow *hfq_flow_find(struct hfq_sched *q, u64 key)
{
	struct hfq_flow *f;

	hlist_for_each_entry(f, hfq_bucket(q, key), hash)
		if (f->key == key)
			return f;
	return NULL;
}

static struct hfq_flow *hfq_flow_get(struct hfq_sched *q, u64 key)
{
	struct hfq_flow *f = hfq_flow_find(q, key);

	if (f)
		return f;
	f = kmalloc(sizeof(*f), GFP_ATOMIC | __GFP_NOWARN);
	if (!f) {
		q->xstats.flow_alloc_failed++;
		return &q->fallback;
	}
	f->key = key;
	f->deficit = 0;
	__skb_queue_head_init(&f->queue);
	INIT_LIST_HEAD(&f->active);
	RB_CLEAR_NODE(&f->node);
	hlist_add_head(&f->hash, hfq_bucket(q, key));
	q->flows_count++;
	return f;
}

/* Free an empty flow that is neither active nor throttled. */
static void hfq_flow_put(struct hfq_sched *q, struct hfq_flow *f)
{
	if (q->fat == f)
		q->fat = NULL;
	if (f == &q->fallback)
		return;
	hlist_del(&f->hash);
	q->flows_count--;
	kfree(f);
}

static void hfq_throttle(struct hfq_sched *q, struct hfq_flow *f, u64 when)
{
	struct rb_node **p = &q->throttled.rb_node, *parent = NULL;

	list_del_init(&f->active);
	f->time_next = when;
	while (*p) {
		parent = *p;
		if (when < rb_entry(parent, struct hfq_flow, node)->time_next)
			p = &parent->rb_left;
		else
			p = &parent->rb_right;
	}
	rb_link_node(&f->node, parent, p);
	rb_insert_color(&f->node, &q->throttled);
	q->xstats.throttled++;
}

/* Return to the round every flow whose head may leave by @now. */
static void hfq_unthrottle(struct hfq_sched *q, u64 now)
{
	struct rb_node *n;

	while ((n = rb_first(&q->throttled))) {
		struct hfq_flow *f = rb_entry(n, struct hfq_flow, node);

		if (f->time_next > now)
			break;
		rb_erase(n, &q->throttled);
		RB_CLEAR_NODE(n);
		list_add_tail(&f->active, &q->active);
	}
}

/**
 * hfq_unaccount() - take a packet that left, sent or dropped, out of the
 * qdisc's packet, byte and memory counts
 * @sch: the qdisc
 * @skb: the packet, unlinked
 *
 * Context: the qdisc's root lock held.
 */
static void hfq_unaccount(struct Qdisc *sch, struct sk_buff *skb)
{
	struct hfq_sched *q = qdisc_priv(sch);

	qdisc_qstats_backlog_dec(sch, skb);
	sch->q.qlen--;
	q->memory -= skb->truesize;
}

/**
 * hfq_flow_pop() - unlink the head of a data flow
 * @q: the qdisc's state
 * @f: the flow, not empty
 *
 * A flow left empty leaves the round or the tree and is freed.
 * Context: the qdisc's root lock held.
 * Return: the packet, still counted in the qdisc (hfq_unaccount()).
 */
static struct sk_buff *hfq_flow_pop(struct hfq_sched *q, struct hfq_flow *f)
{
	struct sk_buff *skb = __skb_dequeue(&f->queue);

	q->data_qlen--;
	if (hfq_own(skb))
		WRITE_ONCE(q->data_backlog,
			   q->data_backlog - qdisc_pkt_len(skb));
	if (skb_queue_empty(&f->queue)) {
		list_del_init(&f->active);
		if (!RB_EMPTY_NODE(&f->node)) {
			rb_erase(&f->node, &q->throttled);
			RB_CLEAR_NODE(&f->node);
		}
		hfq_flow_put(q, f);
	}
	return skb;
}

/**
 * hfq_longest() - the longest queue, in packets (note 7)
 * @q: the qdisc's state
 * @flow: set to the data flow it is, or to NULL for a band
 *
 * The control or the other band, or the longest data flow as far as
 * @q->fat knows (any flow when it knows none, which it then takes).
 * Context: the qdisc's root lock held.
 * Return: the queue.
 */
static struct sk_buff_head *hfq_longest(struct hfq_sched *q,
					struct hfq_flow **flow)
{
	struct sk_buff_head *best = &q->control;
	struct hfq_flow *f = q->fat;
	struct rb_node *n;

	*flow = NULL;
	if (skb_queue_len(&q->other) > skb_queue_len(best))
		best = &q->other;
	if (!f) {
		f = list_first_entry_or_null(&q->active, struct hfq_flow,
					     active);
		n = rb_first(&q->throttled);
		if (!f && n)
			f = rb_entry(n, struct hfq_flow, node);
		q->fat = f;
	}
	if (f && skb_queue_len(&f->queue) > skb_queue_len(best)) {
		best = &f->queue;
		*flow = f;
	}
	return best;
}

/**
 * hfq_make_room() - make room at the packet and byte limits
 * @sch: the qdisc
 * @skb: the newcomer
 * @queue: the queue it joins; NULL for a data flow not created yet
 * @to_free: where the evicted packets go
 *
 * Drops the oldest packets of queues longer than @queue, at most
 * HFQ_EVICT_MAX (note 7), and tells the parents. Counts every drop, the
 * newcomer's too when it does not fit. Never takes a packet of @queue.
 * Context: the qdisc's root lock held.
 * Return: true when @skb fits now, false when it must be dropped.
 */
static bool hfq_make_room(struct Qdisc *sch, struct sk_buff *skb,
			  struct sk_buff_head *queue,
			  struct sk_buff **to_free)
{
	u32 mine = queue ? skb_queue_len(queue) : 0;
	struct hfq_sched *q = qdisc_priv(sch);
	unsigned int n = 0, len = 0;
	struct sk_buff_head *victims;
	struct sk_buff *victim;
	struct hfq_flow *f;
	bool fits = true;

	/*
	 * The root qdisc's lock, as __dev_xmit_skb() takes it (not
	 * qdisc_root_sleeping_lock(), which asserts RTNL, held only by
	 * the control path).
	 */
	lockdep_assert_held(qdisc_lock(qdisc_root_bh(sch)));
	while (sch->q.qlen >= q->cfg.limit ||
	       (sch->q.qlen &&
		q->memory + skb->truesize > q->cfg.memory_limit)) {
		if (sch->q.qlen >= q->cfg.limit)
			q->xstats.drop_limit++;
		else
			q->xstats.drop_memory_limit++;
		victims = hfq_longest(q, &f);
		if (n >= HFQ_EVICT_MAX || skb_queue_len(victims) <= mine) {
			fits = false;
			break;
		}
		victim = f ? hfq_flow_pop(q, f) : __skb_dequeue(victims);
		n++;
		len += qdisc_pkt_len(victim);
		hfq_unaccount(sch, victim);
		qdisc_drop(victim, sch, to_free);
	}
	if (n)
		qdisc_tree_reduce_backlog(sch, n, len);
	return fits;
}

/**
 * hfq_flow_enqueue() - queue a data packet on its flow
 * @q: the qdisc's state; the qdisc lock held
 * @f: the packet's flow (the fallback flow when no flow could be made)
 * @skb: the packet
 * @when: its departure time, ns
 *
 * A flow that gets its first packet joins the round robin with a full
 * quantum; the fattest flow is remembered for eviction.
 *
 * Return: true when queued; false when the flow is full (counted), and
 * the caller drops the packet.
 */
static bool hfq_flow_enqueue(struct hfq_sched *q, struct hfq_flow *f,
			     struct sk_buff *skb, u64 when)
{
	if (unlikely(skb_queue_len(&f->queue) >= q->cfg.flow_limit)) {
		/* The fallback flow, full. */
		q->xstats.drop_flow_limit++;
		return false;
	}
	hfq_cb(skb)->time_to_send = when;
	if (skb_queue_empty(&f->queue) && list_empty(&f->active) &&
	    RB_EMPTY_NODE(&f->node)) {
		f->deficit = q->cfg.quantum;
		list_add_tail(&f->active, &q->active);
	}
	__skb_queue_tail(&f->queue, skb);
	if (!q->fat || skb_queue_len(&f->queue) > skb_queue_len(&q->fat->queue))
		q->fat = f;
	q->data_qlen++;
	if (hfq_own(skb))
		WRITE_ONCE(q->data_backlog, q->data_backlog + qdisc_pkt_len(skb));
	return true;
}

static int hfq_enqueue(struct sk_buff *skb, struct Qdisc *sch,
		       struct sk_buff **to_free)
{
	struct hfq_sched *q = qdisc_priv(sch);
	struct sk_buff_head *queue = NULL;
	struct hfq_flow *f = NULL;
	u64 key = 0, now, when = 0;
	enum hfq_band band;

	now = ktime_get_ns();
	hfq_cb(skb)->enqueue_ns = now;
	band = hfq_classify(sch, skb, &key);
	switch (band) {
	case HFQ_BAND_CONTROL:
		if (unlikely(skb_queue_len(&q->control) >= q->cfg.control_limit)) {
			q->xstats.drop_control_limit++;
			return qdisc_drop(skb, sch, to_free);
		}
		queue = &q->control;
		break;
	case HFQ_BAND_OTHER:
		queue = &q->other;
		break;
	case HFQ_BAND_DATA:
		when = hf_skb_departure(skb);
		if (when <= now) {
			when = now;
		} else if (when - now > (u64)q->cfg.horizon_ms * NSEC_PER_MSEC) {
			q->xstats.drop_horizon++;
			return qdisc_drop(skb, sch, to_free);
		}
		f = hfq_flow_find(q, key);
		if (f && unlikely(skb_queue_len(&f->queue) >= q->cfg.flow_limit)) {
			q->xstats.drop_flow_limit++;
			return qdisc_drop(skb, sch, to_free);
		}
		queue = f ? &f->queue : NULL;
		break;
	default:
		return qdisc_drop(skb, sch, to_free);
	}

	/* Eviction never takes @queue's own packets: @f stays. */
	if (unlikely(!hfq_make_room(sch, skb, queue, to_free)))
		return qdisc_drop(skb, sch, to_free);

	switch (band) {
	case HFQ_BAND_CONTROL:
		__skb_queue_tail(&q->control, skb);
		break;
	case HFQ_BAND_OTHER:
		__skb_queue_tail(&q->other, skb);
		break;
	default:
		if (!hfq_flow_enqueue(q, f ?: hfq_flow_get(q, key), skb, when))
			return qdisc_drop(skb, sch, to_free);
		break;
	}

	qdisc_qstats_backlog_inc(sch, skb);
	sch->q.qlen++;
	q->memory += skb->truesize;
	trace_hfq_enqueue(qdisc_dev(sch), skb, band, sch->q.qlen);
	return NET_XMIT_SUCCESS;
}

/* Next data packet that may leave at @now, flows round robin by quantum. */
static struct sk_buff *hfq_dequeue_data(struct hfq_sched *q, u64 now)
{
	struct hfq_flow *f;
	struct sk_buff *skb;

	while ((f = list_first_entry_or_null(&q->active, struct hfq_flow,
					     active))) {
		if (f->deficit <= 0) {
			f->deficit += q->cfg.quantum;
			list_move_tail(&f->active, &q->active);
			continue;
		}
		skb = skb_peek(&f->queue);
		if (hfq_cb(skb)->time_to_send > now) {
			hfq_throttle(q, f, hfq_cb(skb)->time_to_send);
			continue;
		}
		f->deficit -= qdisc_pkt_len(skb);
		return hfq_flow_pop(q, f);
	}
	return NULL;
}

/*
 * What control leaves: data and other by deficit round robin. Sets @band
 * to the band of what it returns.
 */
static struct sk_buff *hfq_dequeue_shared(struct hfq_sched *q, u64 now,
					  u8 *band)
{
	bool data = !list_empty(&q->active);
	bool other = !skb_queue_empty(&q->other);
	bool both = data && other;
	struct sk_buff *skb = NULL;
	int turn;

	if (both) {
		while (q->rr_deficit[q->rr_turn] <= 0) {
			u32 share = q->rr_turn == HFQ_RR_OTHER ?
				    q->cfg.other_share : 100 - q->cfg.other_share;

			q->rr_deficit[q->rr_turn] += HFQ_SHARE_ROUND / 100 * share;
			q->rr_turn ^= 1;
		}
		turn = q->rr_turn;
	} else {
		/* A class alone owes nothing: the round robin restarts. */
		q->rr_deficit[HFQ_RR_DATA] = 0;
		q->rr_deficit[HFQ_RR_OTHER] = 0;
		turn = data ? HFQ_RR_DATA : HFQ_RR_OTHER;
	}

	if (turn == HFQ_RR_DATA) {
		skb = hfq_dequeue_data(q, now);
		if (skb) {
			*band = HFQ_BAND_DATA;
			q->xstats.packets_data += hf_skb_segs(skb);
		} else {
			/* Every flow waits for its time: other goes meanwhile,
			 * owing data nothing for it.
			 */
			turn = HFQ_RR_OTHER;
			both = false;
		}
	}
	if (!skb) {
		skb = __skb_dequeue(&q->other);
		if (!skb)
			return NULL;
		*band = HFQ_BAND_OTHER;
		q->xstats.packets_other += hf_skb_segs(skb);
	}
	if (both)
		q->rr_deficit[turn] -= qdisc_pkt_len(skb);
	return skb;
}

/**
 * hfq_ctl_earn() - control earns its share of what another band sent
 * @q: the qdisc's state
 * @skb: what the other band sent
 *
 * Credit up to HFQ_CONTROL_BURST (note 6). Context: the qdisc's root
 * lock held.
 */
static void hfq_ctl_earn(struct hfq_sched *q, const struct sk_buff *skb)
{
	int earned = qdisc_pkt_len(skb) * HFQ_CONTROL_SHARE /
		     (100 - HFQ_CONTROL_SHARE);

	q->ctl_credit = min(q->ctl_credit + earned, HFQ_CONTROL_BURST);
}

static struct sk_buff *hfq_dequeue(struct Qdisc *sch)
{
	struct hfq_sched *q = qdisc_priv(sch);
	u8 band = HFQ_BAND_OTHER;
	struct sk_buff *skb;
	bool others, ctl;
	u64 now, wake;

	if (!sch->q.qlen)
		return NULL;

	now = ktime_get_ns();
	if (q->cfg.rate && now < q->time_next_tx) {
		q->xstats.rate_delayed++;
		qdisc_watchdog_schedule_range_ns(&q->watchdog, q->time_next_tx,
						 HFQ_TIMER_SLACK_NS);
		return NULL;
	}

	/*
	 * Control goes first while it has credit or nothing else waits; its
	 * credit is earned by what the others send (note 6).
	 */
	hfq_unthrottle(q, now);
	others = !list_empty(&q->active) || !skb_queue_empty(&q->other);
	ctl = !skb_queue_empty(&q->control);
	skb = NULL;
	if (ctl && others && q->ctl_credit <= 0) {
		q->xstats.control_over_share++;
		skb = hfq_dequeue_shared(q, now, &band);
		if (skb)
			hfq_ctl_earn(q, skb);
		else
			others = false;	/* all of data waits for its time */
	}
	if (!skb && ctl) {
		skb = __skb_dequeue(&q->control);
		band = HFQ_BAND_CONTROL;
		q->xstats.packets_control += hf_skb_segs(skb);
		if (others)
			q->ctl_credit -= qdisc_pkt_len(skb);
	} else if (!skb) {
		skb = hfq_dequeue_shared(q, now, &band);
		if (skb)
			hfq_ctl_earn(q, skb);
	}
	if (!skb) {
		/* Only data waiting for its departure time is left. */
		struct rb_node *first = rb_first(&q->throttled);

		if (first) {
			wake = rb_entry(first, struct hfq_flow, node)->time_next;
			qdisc_watchdog_schedule_range_ns(&q->watchdog, wake,
							 HFQ_TIMER_SLACK_NS);
		}
		return NULL;
	}

	if (q->cfg.rate) {
		u64 len_ns = hf_pace_len_ns(qdisc_pkt_len(skb), q->cfg.rate);

		/*
		 * Lateness is made up for up to 1 ms or this packet's own
		 * time, whichever is longer: a train at a low rate takes
		 * tens of ms, and a timer late by a few would otherwise cost
		 * the link that much per train.
		 */
		q->time_next_tx = hf_pace_start(q->time_next_tx, now,
						max_t(u64, HFQ_RATE_SLACK_NS,
						      len_ns)) + len_ns;
	}
	hfq_unaccount(sch, skb);
	qdisc_bstats_update(sch, skb);
	trace_hfq_dequeue(qdisc_dev(sch), skb, band,
			  now - hfq_cb(skb)->enqueue_ns);
	return skb;
}

static void hfq_reset(struct Qdisc *sch)
{
	struct hfq_sched *q = qdisc_priv(sch);
	struct hlist_node *tmp;
	struct hfq_flow *f;
	unsigned int bkt;

	__skb_queue_purge(&q->control);
	__skb_queue_purge(&q->other);
	for (bkt = 0; q->flows && bkt < (1U << HFQ_HASH_BITS); bkt++) {
		hlist_for_each_entry_safe(f, tmp, &q->flows[bkt], hash) {
			__skb_queue_purge(&f->queue);
			hlist_del(&f->hash);
			kfree(f);
		}
	}
	__skb_queue_purge(&q->fallback.queue);
	INIT_LIST_HEAD(&q->active);
	INIT_LIST_HEAD(&q->fallback.active);
	RB_CLEAR_NODE(&q->fallback.node);
	q->throttled = RB_ROOT;
	q->flows_count = 0;
	q->fat = NULL;
	q->data_qlen = 0;
	WRITE_ONCE(q->data_backlog, 0);
	q->memory = 0;
	q->ctl_credit = HFQ_CONTROL_BURST;
	q->rr_deficit[HFQ_RR_DATA] = 0;
	q->rr_deficit[HFQ_RR_OTHER] = 0;
	q->time_next_tx = 0;
	sch->q.qlen = 0;
	sch->qstats.backlog = 0;
	qdisc_watchdog_cancel(&q->watchdog);
}

/**
 * hfq_tca_get_u32s() - the u32 settings a tc request gives (HFQ_U32_SETTINGS())
 * @tb: its TCA_HFQ_* attributes, checked against hfq_tca_policy
 * @c: where each one given goes; the others are left as they are
 */
static void hfq_tca_get_u32s(struct nlattr **tb, struct hfq_config *c)
{
#define HFQ_TCA_GET(A, f, range)					\
	if (tb[TCA_HFQ_##A])						\
		c->f = nla_get_u32(tb[TCA_HFQ_##A]);
	HFQ_U32_SETTINGS(HFQ_TCA_GET)
#undef HFQ_TCA_GET
}

/**
 * hfq_parse_opt() - the settings a tc request asks for (note 5)
 * @opt: its TCA_OPTIONS (a nest of TCA_HFQ_*), or NULL
 * @cfg: the settings to start from; those @opt gives are overwritten
 * @extack: where a refusal says why
 *
 * Context: RTNL held.
 * Return: 0, or a negative errno (a value out of range, a malformed
 * attribute) with @cfg unchanged.
 */
static int hfq_parse_opt(struct nlattr *opt, struct hfq_config *cfg,
			 struct netlink_ext_ack *extack)
{
	struct nlattr *tb[TCA_HFQ_MAX + 1];
	struct hfq_config new = *cfg;
	int err;

	if (!opt)
		return 0;
	err = nla_parse_nested(tb, TCA_HFQ_MAX, opt, hfq_tca_policy, extack);
	if (err)
		return err;
	if (tb[TCA_HFQ_RATE]) {
		err = hf_hfq_rate_check(tb[TCA_HFQ_RATE], extack);
		if (err)
			return err;
		new.rate = nla_get_u64(tb[TCA_HFQ_RATE]);
	}
	hfq_tca_get_u32s(tb, &new);
	*cfg = new;
	return 0;
}

/**
 * hfq_change() - "tc qdisc change|replace" of a live hfq
 * @sch: the qdisc
 * @opt: TCA_OPTIONS of the request, or NULL
 * @extack: where a refusal says why
 *
 * Context: RTNL held; the settings change under the tree lock.
 * Return: 0, or a negative errno with nothing changed.
 */
static int hfq_change(struct Qdisc *sch, struct nlattr *opt,
		      struct netlink_ext_ack *extack)
{
	struct hfq_sched *q = qdisc_priv(sch);
	struct hfq_config cfg = q->cfg;
	int err;

	ASSERT_RTNL();
	err = hfq_parse_opt(opt, &cfg, extack);
	if (err)
		return err;
	hf_hfq_config(sch, &cfg);
	return 0;
}

static int hfq_init(struct Qdisc *sch, struct nlattr *opt,
		    struct netlink_ext_ack *extack)
{
	struct hfq_sched *q = qdisc_priv(sch);
	int err;

	/* Before any return: destroy runs even when init fails. */
	qdisc_watchdog_init_clockid(&q->watchdog, sch, CLOCK_MONOTONIC);
	q->cfg = hfq_default_config;
	__skb_queue_head_init(&q->control);
	__skb_queue_head_init(&q->other);
	INIT_LIST_HEAD(&q->active);
	q->throttled = RB_ROOT;
	__skb_queue_head_init(&q->fallback.queue);
	INIT_LIST_HEAD(&q->fallback.active);
	RB_CLEAR_NODE(&q->fallback.node);
	q->ctl_credit = HFQ_CONTROL_BURST;
	/* Not yet attached: nothing else sees the settings. */
	err = hfq_parse_opt(opt, &q->cfg, extack);
	if (err)
		return err;
	sch->limit = q->cfg.limit;
	q->flows = kvcalloc(1U << HFQ_HASH_BITS, sizeof(*q->flows), GFP_KERNEL);
	if (!q->flows)
		return -ENOMEM;
	get_random_bytes(&q->hash_key, sizeof(q->hash_key));
	return 0;
}

static void hfq_destroy(struct Qdisc *sch)
{
	struct hfq_sched *q = qdisc_priv(sch);

	hfq_reset(sch);
	kvfree(q->flows);
}

/* The settings, in TCA_OPTIONS as a request gives them (RTNL held). */
static int hfq_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct hfq_sched *q = qdisc_priv(sch);
	struct hfq_config cfg;
	struct nlattr *opts;

	sch_tree_lock(sch);
	cfg = q->cfg;
	sch_tree_unlock(sch);

	opts = nla_nest_start_noflag(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
#define HFQ_TCA_PUT(A, f, range)					\
	nla_put_u32(skb, TCA_HFQ_##A, cfg.f) ||
	if (nla_put_u64_64bit(skb, TCA_HFQ_RATE, cfg.rate, TCA_HFQ_PAD) ||
	    HFQ_U32_SETTINGS(HFQ_TCA_PUT) false) {
		nla_nest_cancel(skb, opts);
		return -EMSGSIZE;
	}
#undef HFQ_TCA_PUT
	return nla_nest_end(skb, opts);
}

static int hfq_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct hfq_sched *q = qdisc_priv(sch);
	struct tc_hfq_xstats st;

	sch_tree_lock(sch);
	st = q->xstats;
	sch_tree_unlock(sch);
	return gnet_stats_copy_app(d, &st, sizeof(st));
}

static struct Qdisc_ops hfq_qdisc_ops __read_mostly = {
	.id		= "hfq",
	.priv_size	= sizeof(struct hfq_sched),
	.enqueue	= hfq_enqueue,
	.dequeue	= hfq_dequeue,
	.peek		= qdisc_peek_dequeued,
	.init		= hfq_init,
	.reset		= hfq_reset,
	.destroy	= hfq_destroy,
	.change		= hfq_change,
	.dump		= hfq_dump,
	.dump_stats	= hfq_dump_stats,
	.owner		= THIS_MODULE,
};

/**
 * hf_hfq_root() - the hfq instance at the root of a device
 * @dev: the device
 *
 * Context: RTNL held; the result is valid while it is.
 * Return: the qdisc, or NULL when the device's root qdisc is not hfq.
 */
struct Qdisc *hf_hfq_root(struct net_device *dev)
{
	struct Qdisc *sch = rtnl_dereference(dev->qdisc);

	return sch && sch->ops == &hfq_qdisc_ops ? sch : NULL;
}

/**
 * hf_hfq_rate() - the rate an hfq root paces a device to
 * @dev: the device
 *
 * Any context: the root qdisc is read under RCU.
 *
 * Return: bytes per second; 0 when the root is not hfq or paces nothing.
 */
u64 hf_hfq_rate(struct net_device *dev)
{
	struct Qdisc *sch;
	u64 rate = 0;

	rcu_read_lock();
	sch = rcu_dereference(dev->qdisc);
	if (sch && sch->ops == &hfq_qdisc_ops)
		rate = READ_ONCE(((struct hfq_sched *)qdisc_priv(sch))->cfg.rate);
	rcu_read_unlock();
	return rate;
}

/**
 * hf_hfq_backlog_ns() - how long an hfq root's hyperframe data takes to
 * drain
 * @dev: the device
 *
 * Any context: the root qdisc is read under RCU, its data backlog without
 * its lock (a snapshot a packet or two off is good enough for a sender
 * that keeps the queue short). Other traffic is not counted: it has a
 * share of its own, and a backlog of it must not stop hyperframe.
 *
 * Return: the data bytes queued, at the device rate, in nanoseconds; 0
 * when the root is not hfq or paces nothing.
 */
u64 hf_hfq_backlog_ns(struct net_device *dev)
{
	struct hfq_sched *q;
	struct Qdisc *sch;
	u64 ns = 0;

	rcu_read_lock();
	sch = rcu_dereference(dev->qdisc);
	if (sch && sch->ops == &hfq_qdisc_ops) {
		q = qdisc_priv(sch);
		ns = hf_pace_len_ns(READ_ONCE(q->data_backlog),
				    READ_ONCE(q->cfg.rate));
	}
	rcu_read_unlock();
	return ns;
}

/**
 * hf_qdisc_honours_edt() - whether a device's root qdisc holds packets
 * until their departure time
 * @dev: the device
 *
 * Any context: the root qdisc is read under RCU. hfq and fq do (sch_fq
 * is known by its name: it exports nothing else); any other root, or
 * none, sends a stamped packet at once.
 *
 * Return: true for hfq and fq.
 */
bool hf_qdisc_honours_edt(struct net_device *dev)
{
	struct Qdisc *sch;
	bool edt = false;

	rcu_read_lock();
	sch = rcu_dereference(dev->qdisc);
	if (sch)
		edt = sch->ops == &hfq_qdisc_ops || !strcmp(sch->ops->id, "fq");
	rcu_read_unlock();
	return edt;
}

/**
 * hf_hfq_read() - a consistent snapshot of an hfq instance
 * @sch: the qdisc, from hf_hfq_root()
 * @st: filled
 *
 * Context: RTNL held.
 */
void hf_hfq_read(struct Qdisc *sch, struct hfq_state *st)
{
	struct hfq_sched *q = qdisc_priv(sch);

	sch_tree_lock(sch);
	st->cfg = q->cfg;
	st->handle = sch->handle;
	st->flows = q->flows_count + !skb_queue_empty(&q->fallback.queue);
	st->qlen[HFQ_BAND_CONTROL] = skb_queue_len(&q->control);
	st->qlen[HFQ_BAND_DATA] = q->data_qlen;
	st->qlen[HFQ_BAND_OTHER] = skb_queue_len(&q->other);
	st->backlog = sch->qstats.backlog;
	st->memory = q->memory;
	st->xstats = q->xstats;
	sch_tree_unlock(sch);
}

/**
 * hf_hfq_config() - apply new settings to an hfq instance
 * @sch: the qdisc, from hf_hfq_root()
 * @cfg: settings within the bounds of hf_hfq.h
 *
 * Packets already queued stay, even above a lowered limit.
 * Context: RTNL held.
 */
void hf_hfq_config(struct Qdisc *sch, const struct hfq_config *cfg)
{
	struct hfq_sched *q = qdisc_priv(sch);

	sch_tree_lock(sch);
	if (cfg->rate != q->cfg.rate)
		q->time_next_tx = 0;
	q->cfg = *cfg;
	sch->limit = cfg->limit;
	sch_tree_unlock(sch);
	/* A lower rate or none may let packets go now. */
	__netif_schedule(qdisc_root(sch));
}

/**
 * hf_hfq_register() - make "hfq" available to tc
 *
 * Return: 0 or a negative errno from register_qdisc().
 */
int hf_hfq_register(void)
{
	return register_qdisc(&hfq_qdisc_ops);
}

/**
 * hf_hfq_unregister() - undo hf_hfq_register(); no instance is left, as
 * each holds a reference on the module.
 */
void hf_hfq_unregister(void)
{
	unregister_qdisc(&hfq_qdisc_ops);
}
