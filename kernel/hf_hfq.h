/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_hfq.h - the hfq qdisc as the rest of the module sees it: registration,
 * and the settings and counters the control plane reads and writes.
 */
#ifndef _HF_HFQ_H
#define _HF_HFQ_H

#include <linux/types.h>
#include <linux/hyperframe.h>

struct net_device;
struct netlink_ext_ack;
struct netlink_range_validation;
struct nlattr;
struct Qdisc;

/* Bounds of the settings, enforced by the netlink policy. */
#define HFQ_LIMIT_MAX		(1U << 20)	/* packets */
#define HFQ_QUANTUM_MIN		256		/* bytes */
#define HFQ_QUANTUM_MAX		(1U << 24)
#define HFQ_SHARE_MIN		1		/* percent */
#define HFQ_SHARE_MAX		99
/*
 * rate: 0 (unpaced) or 500 kbit/s to 10 Tbit/s. At the least, a 64 KiB
 * skb (a train, a TSO skb) holds the device about 1 s; at 1 B/s it held it
 * 18 hours, control frames behind it.
 */
#define HFQ_RATE_MIN		62500ULL	/* bytes per second */
#define HFQ_RATE_MAX		1250000000000ULL
/* memory_limit: bytes of skb truesize queued in all bands. */
#define HFQ_MEMORY_MIN		(64U << 10)
#define HFQ_MEMORY_MAX		(1U << 30)

/**
 * struct hfq_config - the settings of one hfq instance
 * @rate: bytes per second the whole device is paced to; 0: unpaced
 * @limit: packets queued in all bands
 * @flow_limit: packets queued per data flow
 * @control_limit: packets queued in the control band
 * @quantum: bytes a data flow sends per round
 * @other_share: percent of the link owed to traffic other than hyperframe
 * @horizon_ms: data whose departure time is further ahead is dropped
 * @memory_limit: bytes of skb truesize queued in all bands
 */
struct hfq_config {
	u64 rate;
	u32 limit;
	u32 flow_limit;
	u32 control_limit;
	u32 quantum;
	u32 other_share;
	u32 horizon_ms;
	u32 memory_limit;
};

/*
 * The u32 settings, one line each: X(ATTR, field, range), where ATTR
 * names both the tc attribute TCA_HFQ_ATTR and the genl attribute
 * HF_QDISC_A_ATTR, field the member of struct hfq_config, range its
 * netlink_range_validation. The tc and genl policies, tc's parse and dump
 * and genl's set expand it (the rate, a u64 checked with its own message,
 * is beside it in each).
 */
#define HFQ_U32_SETTINGS(X)						\
	X(LIMIT, limit, hfq_range_limit)				\
	X(FLOW_LIMIT, flow_limit, hfq_range_limit)			\
	X(CONTROL_LIMIT, control_limit, hfq_range_limit)		\
	X(QUANTUM, quantum, hfq_range_quantum)				\
	X(OTHER_SHARE, other_share, hfq_range_share)			\
	X(HORIZON_MS, horizon_ms, hfq_range_horizon)			\
	X(MEMORY_LIMIT, memory_limit, hfq_range_memory)

/**
 * struct hfq_state - a consistent snapshot of one hfq instance
 * @cfg: its settings
 * @handle: its handle
 * @flows: data flows with packets queued
 * @qlen: packets queued in the control, data and other bands
 * @backlog: bytes queued
 * @memory: truesize of what is queued, the measure of @cfg.memory_limit
 * @xstats: its counters
 */
struct hfq_state {
	struct hfq_config cfg;
	u32 handle;
	u32 flows;
	u32 qlen[3];
	u32 backlog;
	u32 memory;
	struct tc_hfq_xstats xstats;
};

#define HFQ_NR_COUNTERS	(sizeof(struct tc_hfq_xstats) / sizeof(u64))
extern const char *const hfq_counter_names[];

/*
 * The ranges of the settings, shared by hfq's tc and genl policies (not
 * const: 6.1's nla_policy points at them without).
 */
extern struct netlink_range_validation hfq_range_limit;
extern struct netlink_range_validation hfq_range_quantum;
extern struct netlink_range_validation hfq_range_share;
extern struct netlink_range_validation hfq_range_horizon;
extern struct netlink_range_validation hfq_range_memory;

int hf_hfq_rate_check(const struct nlattr *attr, struct netlink_ext_ack *extack);
int hf_hfq_register(void);
void hf_hfq_unregister(void);
struct Qdisc *hf_hfq_root(struct net_device *dev);
u64 hf_hfq_rate(struct net_device *dev);
u64 hf_hfq_backlog_ns(struct net_device *dev);
bool hf_qdisc_honours_edt(struct net_device *dev);
void hf_hfq_read(struct Qdisc *sch, struct hfq_state *st);
void hf_hfq_config(struct Qdisc *sch, const struct hfq_config *cfg);

#endif /* _HF_HFQ_H */
