/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_compat.h - every difference between the supported kernel lines (6.1
 * and 6.12 LTS) that the module meets, in one place. The rest of the code
 * calls the hf_* names below and never tests LINUX_VERSION_CODE itself.
 * A new kernel line starts here.
 */
#ifndef _HF_COMPAT_H
#define _HF_COMPAT_H

#include <linux/version.h>
#include <linux/skbuff.h>
#include <linux/netdevice.h>
/* 6.5 moved skb_gso_segment() and its kin out of netdevice.h. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#include <net/gso.h>
#endif

/*
 * 6.11 turned skb_set_delivery_time()'s "mono" bool into a clock id
 * (SKB_CLOCK_MONOTONIC). hyperframe stamps departure times on the
 * monotonic clock, as sch_fq expects.
 */
static inline void hf_skb_set_departure(struct sk_buff *skb, ktime_t when)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
	skb_set_delivery_time(skb, when, SKB_CLOCK_MONOTONIC);
#else
	skb_set_delivery_time(skb, when, true);
#endif
}

/*
 * A departure time on the monotonic clock, or 0 when skb->tstamp is not
 * one (a receive timestamp, a real-time clock, nothing). 6.11 replaced
 * the mono_delivery_time bit by tstamp_type.
 */
static inline u64 hf_skb_departure(const struct sk_buff *skb)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
	bool mono = skb->tstamp_type == SKB_CLOCK_MONOTONIC;
#else
	bool mono = skb->mono_delivery_time;
#endif

	return mono ? ktime_to_ns(skb->tstamp) : 0;
}

/*
 * The largest GSO skb @dev takes whole for a protocol other than IPv6.
 * 6.3 gave IPv4 (and with it every other protocol) a limit of its own,
 * gso_ipv4_max_size, which gso_features_check() applies to our trains.
 */
static inline unsigned int hf_dev_gso_max_size(const struct net_device *dev)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	return READ_ONCE(dev->gso_ipv4_max_size);
#else
	return READ_ONCE(dev->gso_max_size);
#endif
}

/*
 * The largest train GRO may build on @dev, by the same rule: since 6.3 a
 * protocol other than IPv6 is held to gro_ipv4_max_size.
 */
static inline unsigned int hf_dev_gro_max_size(const struct net_device *dev)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	return READ_ONCE(dev->gro_ipv4_max_size);
#else
	return READ_ONCE(dev->gro_max_size);
#endif
}

/*
 * The module alias "tc qdisc add ... KIND" asks modprobe for when no qdisc
 * KIND is registered: "sch_KIND" up to 6.9, "net-sch-KIND" since 6.10
 * (NET_SCH_ALIAS_PREFIX, which 6.10 added with MODULE_ALIAS_NET_SCH()).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define HF_MODULE_ALIAS_QDISC(kind)	MODULE_ALIAS_NET_SCH(kind)
#else
#define HF_MODULE_ALIAS_QDISC(kind)	MODULE_ALIAS("sch_" kind)
#endif

#endif /* _HF_COMPAT_H */
