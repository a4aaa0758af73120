/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_genl.h - the generic netlink family "hyperframe": configuration,
 * counters, the peer and socket tables of a namespace, the hfq qdiscs of
 * its devices (hf_genl_qdisc.c), and the events of its peers and flows
 * (hf_genl_event.c).
 */
#ifndef _HF_GENL_H
#define _HF_GENL_H

#include <linux/init.h>
#include <linux/hyperframe.h>
#include <net/genetlink.h>

struct hf_config;
struct hf_peer;

/* The family's multicast groups, by index in hf_genl_family.mcgrps. */
enum hf_genl_mcgrp {
	HF_GENL_MCGRP_EVENTS_ID,
};

extern struct genl_family hf_genl_family;

int __init hf_genl_register(void);
void hf_genl_unregister(void);
void hf_config_init(const struct net *net, struct hf_config *c);
int hf_genl_counter_put(struct sk_buff *skb, int type, const char *name,
			u64 value);

/* *@v = the u32 attribute @type of a request, when the request has it. */
static inline void hf_genl_u32_opt(struct nlattr **tb, int type, u32 *v)
{
	if (tb[type])
		*v = nla_get_u32(tb[type]);
}

/* hf_genl_qdisc.c */
extern const struct nla_policy hf_qdisc_get_policy[HF_QDISC_A_MAX + 1];
extern const struct nla_policy hf_qdisc_set_policy[HF_QDISC_A_MAX + 1];
int hf_qdisc_get_doit(struct sk_buff *skb, struct genl_info *info);
int hf_qdisc_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int hf_qdisc_set_doit(struct sk_buff *skb, struct genl_info *info);

/* hf_genl_event.c */
void hf_genl_events_start(void);
void hf_genl_events_stop(void);
void hf_genl_event_peer_up(const struct hf_peer *peer);
void hf_genl_event_peer_down(const struct hf_peer *peer,
			     enum hf_event_reason reason, u32 msgs, int err);
void hf_genl_event_retry_limit(const struct hf_peer *peer, u32 epoch,
			       u32 msgs);
void hf_genl_event_flow_reset(const struct hf_peer *peer, u32 epoch,
			      u32 msgs);
void hf_genl_event_epoch(const struct hf_peer *peer);
void hf_genl_event_backoff(const struct hf_peer *peer,
			   enum hf_event_sign sign, u32 rate_scale,
			   u32 frame_segs);

#endif /* _HF_GENL_H */
