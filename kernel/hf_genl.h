/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_genl.h - the generic netlink family "hyperframe": configuration,
 * counters, the peer and socket tables of a namespace, and the hfq
 * qdiscs of its devices (hf_genl_qdisc.c).
 */
#ifndef _HF_GENL_H
#define _HF_GENL_H

#include <linux/init.h>
#include <linux/hyperframe.h>
#include <net/genetlink.h>

extern struct genl_family hf_genl_family;

int __init hf_genl_register(void);
void hf_genl_unregister(void);
int hf_genl_counter_put(struct sk_buff *skb, int type, const char *name,
			u64 value);

/* hf_genl_qdisc.c */
extern const struct nla_policy hf_qdisc_get_policy[HF_QDISC_A_MAX + 1];
extern const struct nla_policy hf_qdisc_set_policy[HF_QDISC_A_MAX + 1];
int hf_qdisc_get_doit(struct sk_buff *skb, struct genl_info *info);
int hf_qdisc_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int hf_qdisc_set_doit(struct sk_buff *skb, struct genl_info *info);

#endif /* _HF_GENL_H */
