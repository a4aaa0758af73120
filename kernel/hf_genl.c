// SPDX-License-Identifier: GPL-2.0
/*
 * hf_genl.c - the generic netlink family "hyperframe" (uapi/linux/
 * hyperframe.h): the module's configuration (get and set), the counters
 * of the caller's namespace, and dumps of its devices' counters, peers
 * and bound sockets.
 * The commands on the hfq qdisc are in hf_genl_qdisc.c, the events sent
 * to the multicast group "events" in hf_genl_event.c.
 *
 * Design notes:
 * 1. Every network namespace has its own configuration (struct hf_config
 *    in struct hf_net), read and written through the caller's namespace
 *    (sock_net() of the netlink socket). A new namespace starts with a
 *    copy of the initial namespace's (hf_config_init()). Changing it
 *    needs CAP_NET_ADMIN in the user namespace owning the network
 *    namespace (GENL_UNS_ADMIN_PERM), so a container's root can tune its
 *    own. The limits that bound kernel memory (max_msg, max_peers,
 *    mem_limit, credit_budget, max_inflight) and how long it stays pinned
 *    (retry_limit, rto_max_us, rto_max_backoff, peer_idle_ms) cannot be
 *    raised above the initial namespace's by a writer without
 *    CAP_NET_ADMIN in the initial user namespace: a user who may create
 *    namespaces cannot enlarge what each of them may pin, or for how
 *    long. All namespaces together are bounded by the module-wide
 *    limit (hf_mem.c), which only the initial namespace's root sets.
 *    Everything else is open to everyone, as /proc/net/hyperframe is.
 * 2. Every settable value has a policy range; a request with any value
 *    out of range is refused whole by the netlink core before the handler
 *    runs, with the offending attribute and its range in the extended ack.
 *    Nothing is clamped. The one rule a policy cannot express (rto min <=
 *    initial <= max) is checked on the merged result before anything is
 *    written, so a refused request changes nothing. The requests that
 *    take no attribute (the gets and dumps but the qdisc's) have a policy
 *    too, refusing any: nothing a caller sends is ignored.
 * 3. Readers of a configuration take no lock: each field is one aligned
 *    word (u64 on 64-bit), written here with WRITE_ONCE under
 *    hf_config_lock,
 *    and every reader copes with a value changing between two messages or
 *    peers; the retransmission code clamps with whatever bounds it reads.
 *    New values apply to new messages and peers.
 * 4. Dumps walk the namespace's hash tables under RCU and resume by bucket
 *    and position in it; an entry added or removed meanwhile may be missed
 *    or shown twice, as with any netlink dump. Peer state is copied under
 *    the peer's lock, then written out after it is released.
 */
#include <linux/etherdevice.h>
#include <linux/hashtable.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/hyperframe.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include "hf_genl.h"
#include "hf_mem.h"
#include "hf_net.h"
#include "hf_output.h"
#include "hf_params.h"
#include "hf_peer.h"
#include "hf_sock.h"

#define HF_US_MAX	(60U * 1000 * 1000)	/* a minute */

/* The malformed-frame counters are named after their reason. */
#define HF_MALFORMED_PREFIX	"drop_malformed_"

static DEFINE_MUTEX(hf_config_lock);

/* A tunable's range, from HF_TUNABLES(). */
#define HF_TUNABLE_RANGE(name, type, def, lo, hi, attr, desc)		\
	static struct netlink_range_validation hf_range_##name = {	\
		.min = lo, .max = hi,					\
	};

HF_TUNABLES(HF_TUNABLE_RANGE)

static struct netlink_range_validation hf_range_rto_us = {
	.min = 1, .max = HF_US_MAX,
};

/* Beyond 32 doublings every timeout is at max_us anyway. */
static struct netlink_range_validation hf_range_max_backoff = {
	.min = 0, .max = 32,
};

static struct netlink_range_validation hf_range_retry_limit = {
	.min = 0, .max = U8_MAX,
};

/*
 * HF_TUNABLES() against the uapi's HF_CONFIG_KEYS(), from which hfctl
 * lists the settings: each tunable has a TUNABLE line there with its
 * name, attribute and width, there are no more TUNABLE lines than
 * tunables, and every attribute but UNSPEC and PAD has a line.
 */
#define HF_KEY_KIND_TUNABLE	1
#define HF_KEY_KIND_RTO		0
#define HF_KEY_KIND_RO		0
#define HF_KEY_CONSTS(ATTR, name, key, type, unit, kind, help)		\
	HF_KEY_ATTR_##name = HF_CONFIG_A_##ATTR,			\
	HF_KEY_SIZE_##name = sizeof(type),				\
	HF_KEY_TUNABLE_##name = HF_KEY_KIND_##kind,
enum { HF_CONFIG_KEYS(HF_KEY_CONSTS) };

#define HF_TUNABLE_KEY_CHECK(name, type, def, lo, hi, attr, desc)	\
	static_assert(HF_KEY_TUNABLE_##name &&				\
		      HF_KEY_ATTR_##name == (int)(attr) &&		\
		      HF_KEY_SIZE_##name == sizeof(type),		\
		      #name ": its HF_CONFIG_KEYS() line differs");
HF_TUNABLES(HF_TUNABLE_KEY_CHECK)

#define HF_TUNABLE_ONE(name, type, def, lo, hi, attr, desc)	+ 1
#define HF_KEY_TUNABLE(ATTR, name, key, type, unit, kind, help)	\
	+ HF_KEY_KIND_##kind
#define HF_KEY_ONE(ATTR, name, key, type, unit, kind, help)	+ 1
static_assert(0 HF_TUNABLES(HF_TUNABLE_ONE) ==
	      0 HF_CONFIG_KEYS(HF_KEY_TUNABLE),
	      "a TUNABLE line of HF_CONFIG_KEYS() is not in HF_TUNABLES()");
static_assert(0 HF_CONFIG_KEYS(HF_KEY_ONE) == HF_CONFIG_A_MAX - 1,
	      "an HF_CONFIG_A_* attribute has no line in HF_CONFIG_KEYS()");

#define HF_NLA_u32	NLA_U32
#define HF_NLA_u64	NLA_U64
#define HF_TUNABLE_POLICY(name, type, def, lo, hi, attr, desc)		\
	[attr] = NLA_POLICY_FULL_RANGE(HF_NLA_##type, &hf_range_##name),

static const struct nla_policy hf_config_policy[HF_CONFIG_A_MAX + 1] = {
	HF_TUNABLES(HF_TUNABLE_POLICY)
	[HF_CONFIG_A_ETHERTYPE] = {
		.type = NLA_REJECT,
		.reject_message = "ethertype is read-only (module parameter)",
	},
	[HF_CONFIG_A_RTO_MIN_US] = NLA_POLICY_FULL_RANGE(NLA_U32, &hf_range_rto_us),
	[HF_CONFIG_A_RTO_MAX_US] = NLA_POLICY_FULL_RANGE(NLA_U32, &hf_range_rto_us),
	[HF_CONFIG_A_RTO_INITIAL_US] = NLA_POLICY_FULL_RANGE(NLA_U32, &hf_range_rto_us),
	[HF_CONFIG_A_RTO_GRANULARITY_US] = {
		.type = NLA_REJECT,
		.reject_message = "rto_granularity_us is read-only (one jiffy)",
	},
	[HF_CONFIG_A_RTO_MAX_BACKOFF] = NLA_POLICY_FULL_RANGE(NLA_U32, &hf_range_max_backoff),
	[HF_CONFIG_A_RETRY_LIMIT] = NLA_POLICY_FULL_RANGE(NLA_U32, &hf_range_retry_limit),
};

/**
 * hf_config_init() - the settings a new namespace starts with
 * @net: the namespace being created
 * @c: its settings, filled
 *
 * The initial namespace takes the module parameters, every other one a
 * copy of the initial namespace's settings as they are now. The initial
 * namespace is set up first: it heads the namespace list that
 * register_pernet_subsys() walks. Process context.
 */
void hf_config_init(const struct net *net, struct hf_config *c)
{
	seqlock_init(&c->seq);
	if (net_eq(net, &init_net)) {
		c->p = hf_params_default;
		return;
	}
	mutex_lock(&hf_config_lock);
	c->p = hf_net(&init_net)->config.p;
	mutex_unlock(&hf_config_lock);
}

/* One tunable into a reply: u32 as it is, u64 aligned (HF_CONFIG_A_PAD). */
static int hf_config_put_u32(struct sk_buff *skb, int attr, u32 value)
{
	return nla_put_u32(skb, attr, value);
}

static int hf_config_put_u64(struct sk_buff *skb, int attr, u64 value)
{
	return nla_put_u64_64bit(skb, attr, value, HF_CONFIG_A_PAD);
}

#define HF_TUNABLE_FILL(name, type, def, lo, hi, attr, desc)		\
	err = err ?: hf_config_put_##type(skb, attr, READ_ONCE(hp->name));

/**
 * hf_config_fill() - put a namespace's settings into a reply
 * @skb: the reply
 * @c: the settings; read field by field, the RTO part as one
 *
 * Return: 0, or -EMSGSIZE.
 */
static int hf_config_fill(struct sk_buff *skb, const struct hf_config *c)
{
	const struct hf_params *hp = &c->p;
	struct hf_rto_params rto;
	int err = 0;

	hf_rto_params_read(c, &rto);
	HF_TUNABLES(HF_TUNABLE_FILL)
	if (err ||
	    nla_put_u16(skb, HF_CONFIG_A_ETHERTYPE, hp->ethertype) ||
	    nla_put_u32(skb, HF_CONFIG_A_RTO_MIN_US, rto.min_us) ||
	    nla_put_u32(skb, HF_CONFIG_A_RTO_MAX_US, rto.max_us) ||
	    nla_put_u32(skb, HF_CONFIG_A_RTO_INITIAL_US, rto.initial_us) ||
	    nla_put_u32(skb, HF_CONFIG_A_RTO_GRANULARITY_US,
			rto.granularity_us) ||
	    nla_put_u32(skb, HF_CONFIG_A_RTO_MAX_BACKOFF, rto.max_backoff) ||
	    nla_put_u32(skb, HF_CONFIG_A_RETRY_LIMIT, rto.retry_limit))
		return -EMSGSIZE;
	return 0;
}

static int hf_config_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct hf_net *hn = hf_net(genl_info_net(info));
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &hf_genl_family, 0,
				HF_CMD_CONFIG_GET);
	if (!hdr || hf_config_fill(msg, &hn->config)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/*
 * Refuse @p when it raises a memory limit above the initial namespace's
 * and the writer lacks CAP_NET_ADMIN over the initial user namespace.
 */
static int hf_config_ceiling(const struct sk_buff *skb,
			     const struct hf_params *p,
			     struct netlink_ext_ack *extack)
{
	const struct hf_params *top = &hf_net(&init_net)->config.p;

	if (netlink_capable(skb, CAP_NET_ADMIN))
		return 0;
	if (p->max_msg > top->max_msg)
		NL_SET_ERR_MSG(extack,
			       "max_msg above the initial namespace's needs CAP_NET_ADMIN there");
	else if (p->max_peers > top->max_peers)
		NL_SET_ERR_MSG(extack,
			       "max_peers above the initial namespace's needs CAP_NET_ADMIN there");
	else if (p->mem_limit > top->mem_limit)
		NL_SET_ERR_MSG(extack,
			       "mem_limit above the initial namespace's needs CAP_NET_ADMIN there");
	else if (p->credit_budget > top->credit_budget)
		NL_SET_ERR_MSG(extack,
			       "credit_budget above the initial namespace's needs CAP_NET_ADMIN there");
	else if (p->max_inflight > top->max_inflight)
		NL_SET_ERR_MSG(extack,
			       "max_inflight above the initial namespace's needs CAP_NET_ADMIN there");
	else if (p->rto.retry_limit > top->rto.retry_limit)
		NL_SET_ERR_MSG(extack,
			       "retry_limit above the initial namespace's needs CAP_NET_ADMIN there");
	else if (p->rto.max_us > top->rto.max_us)
		NL_SET_ERR_MSG(extack,
			       "rto_max_us above the initial namespace's needs CAP_NET_ADMIN there");
	else if (p->rto.max_backoff > top->rto.max_backoff)
		NL_SET_ERR_MSG(extack,
			       "rto_max_backoff above the initial namespace's needs CAP_NET_ADMIN there");
	else if (p->peer_idle_ms > top->peer_idle_ms)
		NL_SET_ERR_MSG(extack,
			       "peer_idle_ms above the initial namespace's needs CAP_NET_ADMIN there");
	else
		return 0;
	return -EPERM;
}

#define HF_TUNABLE_GET(name, type, def, lo, hi, attr, desc)		\
	if (tb[attr])							\
		p.name = nla_get_##type(tb[attr]);
#define HF_TUNABLE_SET(name, type, def, lo, hi, attr, desc)		\
	WRITE_ONCE(hp->name, p.name);

static int hf_config_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct hf_config *c = &hf_net(genl_info_net(info))->config;
	struct hf_params *hp = &c->p;
	struct nlattr **tb = info->attrs;
	struct hf_params p;
	u32 backoff, retry;
	int err;

	mutex_lock(&hf_config_lock);
	p = *hp;
	backoff = p.rto.max_backoff;
	retry = p.rto.retry_limit;
	HF_TUNABLES(HF_TUNABLE_GET)
	hf_genl_u32_opt(tb, HF_CONFIG_A_RTO_MIN_US, &p.rto.min_us);
	hf_genl_u32_opt(tb, HF_CONFIG_A_RTO_MAX_US, &p.rto.max_us);
	hf_genl_u32_opt(tb, HF_CONFIG_A_RTO_INITIAL_US, &p.rto.initial_us);
	/* The policy bounds both by U8_MAX. */
	hf_genl_u32_opt(tb, HF_CONFIG_A_RTO_MAX_BACKOFF, &backoff);
	hf_genl_u32_opt(tb, HF_CONFIG_A_RETRY_LIMIT, &retry);
	p.rto.max_backoff = backoff;
	p.rto.retry_limit = retry;

	if (p.frame_min_segs > p.frame_segs) {
		mutex_unlock(&hf_config_lock);
		NL_SET_ERR_MSG(info->extack,
			       "frame_min_segs <= frame_segs does not hold");
		return -EINVAL;
	}
	if (hf_rto_params_check(&p.rto)) {
		mutex_unlock(&hf_config_lock);
		NL_SET_ERR_MSG(info->extack,
			       "rto_min_us <= rto_initial_us <= rto_max_us does not hold");
		return -EINVAL;
	}
	err = hf_config_ceiling(skb, &p, info->extack);
	if (err) {
		mutex_unlock(&hf_config_lock);
		return err;
	}

	/*
	 * Each read as it is needed (credit_initial at each epoch's start,
	 * credit_budget at each grant): no two need to change together.
	 */
	HF_TUNABLES(HF_TUNABLE_SET)
	write_seqlock_bh(&c->seq);
	hp->rto = p.rto;
	write_sequnlock_bh(&c->seq);
	mutex_unlock(&hf_config_lock);
	return 0;
}

/* Space one counter takes in a HF_CMD_STATS_GET reply. */
static size_t hf_counter_size(size_t name_len)
{
	return nla_total_size(0) + nla_total_size(name_len + 1) +
	       nla_total_size_64bit(sizeof(u64));
}

/**
 * hf_genl_counter_put() - add one named counter to a reply
 * @skb: the reply
 * @type: the nest's attribute type (HF_STATS_A_COUNTER, ...)
 * @name: its name
 * @value: its value
 *
 * Return: 0, or -EMSGSIZE with @skb unchanged.
 */
int hf_genl_counter_put(struct sk_buff *skb, int type, const char *name,
			u64 value)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, type);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_string(skb, HF_COUNTER_A_NAME, name) ||
	    nla_put_u64_64bit(skb, HF_COUNTER_A_VALUE, value,
			      HF_COUNTER_A_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* The hyperframe size histogram: a bucket per nest, then the sum. */
static int hf_frame_size_fill(struct sk_buff *skb, struct hf_stats *stats)
{
	struct nlattr *nest;
	unsigned int i;

	for (i = 0; i < HF_FRAME_SIZE_BUCKETS; i++) {
		nest = nla_nest_start(skb, HF_STATS_A_FRAME_SIZE_BUCKET);
		if (!nest)
			return -EMSGSIZE;
		if (nla_put_u64_64bit(skb, HF_BUCKET_A_LE,
				      hf_hist_log2_bound(i, HF_FRAME_SIZE_MIN_SHIFT,
							 HF_FRAME_SIZE_BUCKETS),
				      HF_BUCKET_A_PAD) ||
		    nla_put_u64_64bit(skb, HF_BUCKET_A_COUNT,
				      hf_stat_sum(stats, HF_STAT_FRAME_SIZE(i)),
				      HF_BUCKET_A_PAD)) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
		nla_nest_end(skb, nest);
	}
	return nla_put_u64_64bit(skb, HF_STATS_A_FRAME_SIZE_SUM,
				 hf_stat_sum(stats, HF_STAT_FRAME_SIZE_SUM),
				 HF_STATS_A_PAD);
}

/*
 * The counters of /proc/net/hyperframe, in its order and with its names,
 * then the frame size histogram.
 */
static int hf_stats_fill(struct sk_buff *skb, struct hf_net *hn)
{
	char name[64];
	unsigned int i;

	for (i = 0; i < HF_STAT_MAX; i++)
		if (hf_genl_counter_put(skb, HF_STATS_A_COUNTER,
					hf_stat_names[i],
					hf_stat_sum(&hn->stats, HF_STAT_V(i))))
			return -EMSGSIZE;
	for (i = HF_WERR_OK + 1; i < HF_WERR_MAX; i++) {
		snprintf(name, sizeof(name), HF_MALFORMED_PREFIX "%s",
			 hf_wire_err_name(i));
		if (hf_genl_counter_put(skb, HF_STATS_A_COUNTER, name,
					hf_stat_sum(&hn->stats, HF_STAT_MALFORMED(i))))
			return -EMSGSIZE;
	}
	if (hf_genl_counter_put(skb, HF_STATS_A_COUNTER, "peers",
				READ_ONCE(hn->npeers)) ||
	    hf_genl_counter_put(skb, HF_STATS_A_COUNTER, "rx_mem_bytes",
				atomic64_read(&hn->rx_mem)) ||
	    hf_genl_counter_put(skb, HF_STATS_A_COUNTER, "rx_mem_reserved_bytes",
				atomic64_read(&hn->rx_reserved)) ||
	    hf_genl_counter_put(skb, HF_STATS_A_COUNTER, "mem_bytes",
				(u64)hf_mem_allocated() << PAGE_SHIFT))
		return -EMSGSIZE;
	return hf_frame_size_fill(skb, &hn->stats);
}

static size_t hf_stats_size(void)
{
	size_t size = hf_counter_size(sizeof("peers") - 1) +
		      hf_counter_size(sizeof("rx_mem_bytes") - 1) +
		      hf_counter_size(sizeof("rx_mem_reserved_bytes") - 1) +
		      hf_counter_size(sizeof("mem_bytes") - 1) +
		      HF_FRAME_SIZE_BUCKETS * (nla_total_size(0) +
					       2 * nla_total_size_64bit(sizeof(u64))) +
		      nla_total_size_64bit(sizeof(u64));
	unsigned int i;

	for (i = 0; i < HF_STAT_MAX; i++)
		size += hf_counter_size(strlen(hf_stat_names[i]));
	/* As hf_stats_fill() truncates them. */
	for (i = HF_WERR_OK + 1; i < HF_WERR_MAX; i++)
		size += hf_counter_size(min_t(size_t, 63,
					      sizeof(HF_MALFORMED_PREFIX) - 1 +
					      strlen(hf_wire_err_name(i))));
	return size;
}

static int hf_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct hf_net *hn = hf_net(genl_info_net(info));
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(hf_stats_size(), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &hf_genl_family, 0,
				HF_CMD_STATS_GET);
	if (!hdr || hf_stats_fill(msg, hn)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/*
 * A flow's epoch is half of what a forged frame needs to pass for the
 * flow's own (core/hf_epoch.h): only a caller with CAP_NET_ADMIN over the
 * namespace sees it; to others it reads 0, as for no flow.
 */
static void hf_info_hide_epoch(const struct sk_buff *request, struct hf_info *hi)
{
	if (!netlink_net_capable(request, CAP_NET_ADMIN))
		hi->hfi_epoch = 0;
}

/* A peer's HF_PEER_A_* attributes, in a peer dump or a socket's nest. */
static int hf_peer_attrs_put(struct sk_buff *skb, int ifindex, const u8 *addr,
			     const struct hf_info *hi)
{
	if (nla_put_u32(skb, HF_PEER_A_IFINDEX, ifindex) ||
	    nla_put(skb, HF_PEER_A_ADDR, ETH_ALEN, addr) ||
	    nla_put_u32(skb, HF_PEER_A_EPOCH, hi->hfi_epoch) ||
	    nla_put_u32(skb, HF_PEER_A_SEG_SIZE, hi->hfi_seg_size) ||
	    nla_put_u32(skb, HF_PEER_A_FRAME_SEGS, hi->hfi_frame_segs) ||
	    nla_put_u64_64bit(skb, HF_PEER_A_PACING_RATE, hi->hfi_pacing_rate,
			      HF_PEER_A_PAD) ||
	    nla_put_u32(skb, HF_PEER_A_CREDIT, hi->hfi_credit) ||
	    nla_put_u32(skb, HF_PEER_A_INFLIGHT, hi->hfi_inflight) ||
	    nla_put_u32(skb, HF_PEER_A_SRTT_US, hi->hfi_srtt_us) ||
	    nla_put_u32(skb, HF_PEER_A_RTTVAR_US, hi->hfi_rttvar_us) ||
	    nla_put_u32(skb, HF_PEER_A_MIN_RTT_US, hi->hfi_min_rtt_us) ||
	    nla_put_u32(skb, HF_PEER_A_RTO_US, hi->hfi_rto_us) ||
	    nla_put_u32(skb, HF_PEER_A_BACKOFF, hi->hfi_backoff) ||
	    nla_put_u32(skb, HF_PEER_A_RETRIES, hi->hfi_retries) ||
	    nla_put_u32(skb, HF_PEER_A_TX_QUEUED_MSGS,
			hi->hfi_tx_queued_msgs) ||
	    nla_put_u64_64bit(skb, HF_PEER_A_TX_SEGS, hi->hfi_tx_segs,
			      HF_PEER_A_PAD) ||
	    nla_put_u64_64bit(skb, HF_PEER_A_RETRANSMITS, hi->hfi_retransmits,
			      HF_PEER_A_PAD) ||
	    nla_put_u64_64bit(skb, HF_PEER_A_SPURIOUS, hi->hfi_spurious,
			      HF_PEER_A_PAD) ||
	    nla_put_u64_64bit(skb, HF_PEER_A_RX_SEGS, hi->hfi_rx_segs,
			      HF_PEER_A_PAD) ||
	    nla_put_u64_64bit(skb, HF_PEER_A_TX_BYTES, hi->hfi_tx_bytes,
			      HF_PEER_A_PAD) ||
	    nla_put_u64_64bit(skb, HF_PEER_A_RX_BYTES, hi->hfi_rx_bytes,
			      HF_PEER_A_PAD) ||
	    nla_put_u64_64bit(skb, HF_PEER_A_TX_FRAMES, hi->hfi_tx_frames,
			      HF_PEER_A_PAD) ||
	    nla_put_u64_64bit(skb, HF_PEER_A_TX_MSGS, hi->hfi_peer_tx_msgs,
			      HF_PEER_A_PAD) ||
	    nla_put_u64_64bit(skb, HF_PEER_A_TX_MSGS_DELIVERED,
			      hi->hfi_tx_msgs_delivered, HF_PEER_A_PAD) ||
	    nla_put_u64_64bit(skb, HF_PEER_A_TX_MSGS_FAILED,
			      hi->hfi_tx_msgs_failed, HF_PEER_A_PAD) ||
	    nla_put_u64_64bit(skb, HF_PEER_A_RX_MSGS, hi->hfi_rx_msgs,
			      HF_PEER_A_PAD) ||
	    nla_put_u64_64bit(skb, HF_PEER_A_CREDIT_BYTES,
			      hi->hfi_credit_bytes, HF_PEER_A_PAD) ||
	    nla_put_u64_64bit(skb, HF_PEER_A_CREDIT_STALL_US,
			      hi->hfi_credit_stall_us, HF_PEER_A_PAD) ||
	    nla_put_u64_64bit(skb, HF_PEER_A_RX_CREDIT, hi->hfi_rx_credit,
			      HF_PEER_A_PAD) ||
	    nla_put_u64_64bit(skb, HF_PEER_A_RX_UNREAD, hi->hfi_rx_unread,
			      HF_PEER_A_PAD) ||
	    nla_put_u64_64bit(skb, HF_PEER_A_RATE_HINT, hi->hfi_rate_hint,
			      HF_PEER_A_PAD) ||
	    nla_put_u64_64bit(skb, HF_PEER_A_LINK_SHARE, hi->hfi_link_share,
			      HF_PEER_A_PAD))
		return -EMSGSIZE;
	return 0;
}

static int hf_peer_fill(struct sk_buff *skb, struct netlink_callback *cb,
			int ifindex, const u8 *addr, const struct hf_info *hi)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &hf_genl_family, NLM_F_MULTI, HF_CMD_PEER_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (hf_peer_attrs_put(skb, ifindex, addr, hi)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* cb->args[0]: bucket to resume at; cb->args[1]: entries of it done. */
static int hf_peer_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct hf_net *hn = hf_net(sock_net(skb->sk));
	unsigned long bkt = cb->args[0], skip = cb->args[1], idx = 0;
	struct hf_peer *peer;
	struct hf_info hi;
	u8 addr[ETH_ALEN];
	int ifindex = 0;
	bool dead;

	rcu_read_lock();
	for (; bkt < HASH_SIZE(hn->peers); bkt++, skip = 0) {
		idx = 0;
		hlist_for_each_entry_rcu(peer, &hn->peers[bkt], node) {
			if (idx++ < skip)
				continue;
			memset(&hi, 0, sizeof(hi));
			spin_lock_bh(&peer->lock);
			dead = peer->dead;
			if (!dead) {
				hf_output_info(peer, NULL, &hi);
				hf_info_hide_epoch(cb->skb, &hi);
				ifindex = peer->dev->ifindex;
				ether_addr_copy(addr, peer->addr);
			}
			spin_unlock_bh(&peer->lock);
			if (dead)
				continue;
			if (hf_peer_fill(skb, cb, ifindex, addr, &hi)) {
				idx--;
				goto out;
			}
		}
	}
out:
	rcu_read_unlock();
	cb->args[0] = bkt;
	cb->args[1] = idx;
	return skb->len;
}

static int hf_dev_fill(struct sk_buff *skb, struct netlink_callback *cb,
		       int ifindex, const u64 *v)
{
	unsigned int i;
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &hf_genl_family, NLM_F_MULTI, HF_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, HF_DEV_A_IFINDEX, ifindex))
		goto cancel;
	for (i = 0; i < HF_DEV_STAT_MAX; i++)
		if (hf_genl_counter_put(skb, HF_DEV_A_COUNTER,
					hf_dev_stat_names[i], v[i]))
			goto cancel;
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/*
 * cb->args[0]: the slot to resume at; HF_DEV_SLOTS is the shared one,
 * shown only once something counted in it.
 */
static int hf_dev_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct hf_net *hn = hf_net(sock_net(skb->sk));
	unsigned long idx = cb->args[0];
	struct hf_dev_stats *d;
	u64 v[HF_DEV_STAT_MAX];
	bool any;
	int ifindex;

	for (; idx <= HF_DEV_SLOTS; idx++) {
		d = idx < HF_DEV_SLOTS ? &hn->devs[idx] : &hn->dev_other;
		spin_lock_bh(&hn->devs_lock);
		ifindex = d->gone ? 0 : d->ifindex;
		any = hf_dev_stats_read(d, v);
		spin_unlock_bh(&hn->devs_lock);
		if (idx < HF_DEV_SLOTS ? !ifindex : !any)
			continue;
		if (hf_dev_fill(skb, cb, ifindex, v))
			break;
	}
	cb->args[0] = idx;
	return skb->len;
}

/*
 * The peers @hs remembers that still exist, each in a HF_SOCKET_A_PEER
 * nest; under RCU (the socket dump's), peer state copied under its lock.
 */
static int hf_socket_peers_put(struct sk_buff *skb, struct netlink_callback *cb,
			       struct hf_sock *hs)
{
	struct hf_net *hn = hf_net(sock_net(&hs->sk));
	struct hf_sock_peer keys[HF_SOCK_PEERS];
	unsigned int i, n = hf_sock_peers(hs, keys);
	struct hf_peer *peer;
	struct nlattr *nest;
	struct hf_info hi;
	bool dead;

	for (i = 0; i < n; i++) {
		peer = hf_peer_find_rcu(hn, keys[i].ifindex, keys[i].addr);
		if (!peer)
			continue;
		memset(&hi, 0, sizeof(hi));
		spin_lock_bh(&peer->lock);
		dead = peer->dead;
		if (!dead)
			hf_output_info(peer, &hs->sk, &hi);
		spin_unlock_bh(&peer->lock);
		hf_info_hide_epoch(cb->skb, &hi);
		if (dead)
			continue;
		nest = nla_nest_start(skb, HF_SOCKET_A_PEER);
		if (!nest)
			return -EMSGSIZE;
		if (hf_peer_attrs_put(skb, keys[i].ifindex, keys[i].addr, &hi)) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
		nla_nest_end(skb, nest);
	}
	return 0;
}

static int hf_socket_fill(struct sk_buff *skb, struct netlink_callback *cb,
			  struct hf_sock *hs, u16 port)
{
	struct sock *sk = &hs->sk;
	struct user_namespace *ns = sk_user_ns(NETLINK_CB(cb->skb).sk);
	int reasm = atomic_read(&hs->rx_reasm);
	int rmem = sk_rmem_alloc_get(sk);
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &hf_genl_family, NLM_F_MULTI, HF_CMD_SOCKET_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, HF_SOCKET_A_PORT, port) ||
	    nla_put_u32(skb, HF_SOCKET_A_IFINDEX,
			hf_sock_bound_ifindex(sk)) ||
	    nla_put_u64_64bit(skb, HF_SOCKET_A_TX_QUEUED,
			      sk_wmem_alloc_get(sk), HF_SOCKET_A_PAD) ||
	    nla_put_u64_64bit(skb, HF_SOCKET_A_RX_QUEUED,
			      rmem > reasm ? rmem - reasm : 0,
			      HF_SOCKET_A_PAD) ||
	    nla_put_u64_64bit(skb, HF_SOCKET_A_RX_REASSEMBLY,
			      reasm > 0 ? reasm : 0, HF_SOCKET_A_PAD) ||
	    nla_put_u64_64bit(skb, HF_SOCKET_A_TX_MSGS,
			      READ_ONCE(hs->tx_msgs), HF_SOCKET_A_PAD) ||
	    nla_put_u64_64bit(skb, HF_SOCKET_A_INODE, sock_i_ino(sk),
			      HF_SOCKET_A_PAD) ||
	    nla_put_u32(skb, HF_SOCKET_A_UID,
			from_kuid_munged(ns, sock_i_uid(sk))) ||
	    hf_socket_peers_put(skb, cb, hs)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* As hf_peer_dumpit(), over the port table (sockets are SOCK_RCU_FREE). */
static int hf_socket_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct hf_net *hn = hf_net(sock_net(skb->sk));
	unsigned long bkt = cb->args[0], skip = cb->args[1], idx = 0;
	struct hf_sock *hs;
	u16 port;

	rcu_read_lock();
	for (; bkt < HASH_SIZE(hn->ports); bkt++, skip = 0) {
		idx = 0;
		hlist_for_each_entry_rcu(hs, &hn->ports[bkt], port_node) {
			if (idx++ < skip)
				continue;
			port = READ_ONCE(hs->port);
			if (!port)
				continue;
			if (hf_socket_fill(skb, cb, hs, port)) {
				idx--;
				goto out;
			}
		}
	}
out:
	rcu_read_unlock();
	cb->args[0] = bkt;
	cb->args[1] = idx;
	return skb->len;
}

/*
 * The policy of the requests that take no attribute. Strict validation
 * refuses any attribute type above maxattr as unknown (EINVAL, "Unknown
 * attribute type"); maxattr cannot be 0, which would mean no policy at
 * all, so type 1 is refused here.
 */
static const struct nla_policy hf_noattr_policy[1 + 1] = {
	[1] = {
		.type = NLA_REJECT,
		.reject_message = "this request takes no attribute",
	},
};

static const struct genl_ops hf_genl_ops[] = {
	{
		.cmd	= HF_CMD_CONFIG_GET,
		.doit	= hf_config_get_doit,
		.policy	= hf_noattr_policy,
		.maxattr = 1,
	},
	{
		.cmd	= HF_CMD_CONFIG_SET,
		.flags	= GENL_UNS_ADMIN_PERM,
		.doit	= hf_config_set_doit,
		.policy	= hf_config_policy,
		.maxattr = HF_CONFIG_A_MAX,
	},
	{
		.cmd	= HF_CMD_STATS_GET,
		.doit	= hf_stats_get_doit,
		.policy	= hf_noattr_policy,
		.maxattr = 1,
	},
	{
		.cmd	= HF_CMD_PEER_GET,
		.dumpit	= hf_peer_dumpit,
		.policy	= hf_noattr_policy,
		.maxattr = 1,
	},
	{
		.cmd	= HF_CMD_SOCKET_GET,
		.dumpit	= hf_socket_dumpit,
		.policy	= hf_noattr_policy,
		.maxattr = 1,
	},
	{
		.cmd	= HF_CMD_QDISC_GET,
		.doit	= hf_qdisc_get_doit,
		.dumpit	= hf_qdisc_get_dumpit,
		.policy	= hf_qdisc_get_policy,
		.maxattr = HF_QDISC_A_MAX,
	},
	{
		.cmd	= HF_CMD_QDISC_SET,
		.flags	= GENL_UNS_ADMIN_PERM,
		.doit	= hf_qdisc_set_doit,
		.policy	= hf_qdisc_set_policy,
		.maxattr = HF_QDISC_A_MAX,
	},
	{
		.cmd	= HF_CMD_DEV_GET,
		.dumpit	= hf_dev_dumpit,
		.policy	= hf_noattr_policy,
		.maxattr = 1,
	},
};

/*
 * HF_CMD_EVENT has no entry in hf_genl_ops: genetlink wants a handler for
 * each operation, and an event is never a request (one is refused as an
 * unknown command, EOPNOTSUPP).
 */
static const struct genl_multicast_group hf_genl_mcgrps[] = {
	/* Events name epochs: CAP_NET_ADMIN over the namespace to listen. */
	[HF_GENL_MCGRP_EVENTS_ID] = {
		.name = HF_GENL_MCGRP_EVENTS,
		.flags = GENL_MCAST_CAP_NET_ADMIN,
	},
};

struct genl_family hf_genl_family = {
	.name		= HF_GENL_NAME,
	.version	= HF_GENL_VERSION,
	.netnsok	= true,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.ops		= hf_genl_ops,
	.n_ops		= ARRAY_SIZE(hf_genl_ops),
	.mcgrps		= hf_genl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(hf_genl_mcgrps),
};

/**
 * hf_genl_register() - make the "hyperframe" family available
 *
 * Return: 0 or a negative errno from genl_register_family().
 */
int __init hf_genl_register(void)
{
	int err;

	err = genl_register_family(&hf_genl_family);
	if (!err)
		hf_genl_events_start();
	return err;
}

/**
 * hf_genl_unregister() - undo hf_genl_register(); waits for running
 * requests and dumps to finish
 */
void hf_genl_unregister(void)
{
	hf_genl_events_stop();
	genl_unregister_family(&hf_genl_family);
}
