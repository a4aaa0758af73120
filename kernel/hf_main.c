// SPDX-License-Identifier: GPL-2.0
/*
 * hf_main.c - module entry and exit, the module parameters (the defaults
 * of every namespace's settings), the packet handler and the netdevice
 * notifier.
 *
 * Initialisation registers from the inside out so that nothing user-visible
 * exists before what it needs: per-namespace state, then the packet
 * handler and notifier, and the address family last of all. Exit undoes
 * it in reverse. Sockets hold a module reference, so the module cannot go
 * while one is open or one of its messages is still in flight.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/hyperframe.h>
#include <net/genetlink.h>
#include <net/pkt_sched.h>

#include "hf_compat.h"
#include "hf_genl.h"
#include "hf_hfq.h"
#include "hf_input.h"
#include "hf_mem.h"
#include "hf_net.h"
#include "hf_offload.h"
#include "hf_params.h"
#include "hf_peer.h"
#include "hf_sock.h"

#define HF_TUNABLE_DEFAULT(name, type, def, lo, hi, attr, desc) .name = def,

struct hf_params hf_params_default = {
	.ethertype	= HF_ETH_P_DEFAULT,
	HF_TUNABLES(HF_TUNABLE_DEFAULT)
};

static int hf_family = AF_HYPERFRAME;
module_param_named(family, hf_family, int, 0444);
MODULE_PARM_DESC(family, "address family slot to register (default 18, AF_ASH, never implemented)");

module_param_named(ethertype, hf_params_default.ethertype, ushort, 0444);
MODULE_PARM_DESC(ethertype, "EtherType of hyperframe frames (default 0x88B5, IEEE local experimental)");

#define HF_PARAM_TYPE_u32	uint
#define HF_PARAM_TYPE_u64	ullong
#define HF_TUNABLE_PARAM_(name, ptype, desc)				\
	module_param_named(name, hf_params_default.name, ptype, 0444);	\
	MODULE_PARM_DESC(name, desc);
#define HF_TUNABLE_PARAM(name, type, def, lo, hi, attr, desc)		\
	HF_TUNABLE_PARAM_(name, HF_PARAM_TYPE_##type, desc)

HF_TUNABLES(HF_TUNABLE_PARAM)

static unsigned int hf_retry_limit = 8;
module_param_named(retry_limit, hf_retry_limit, uint, 0444);
MODULE_PARM_DESC(retry_limit, "retransmission timeouts in a row before a peer is unreachable (default 8)");

module_param_named(packed_trains, hf_packed_trains, bool, 0644);
MODULE_PARM_DESC(packed_trains, "send a train as one header and its payloads, not one skb per segment (default Y)");

static int hf_netdev_event(struct notifier_block *nb, unsigned long event,
			   void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);

	if (event == NETDEV_DOWN || event == NETDEV_UNREGISTER)
		hf_peer_flush_dev(dev_net(dev), dev);
	if (event == NETDEV_UNREGISTER)
		hf_dev_stats_gone(hf_net(dev_net(dev)), dev);
	return NOTIFY_DONE;
}

static struct notifier_block hf_netdev_notifier = {
	.notifier_call = hf_netdev_event,
};

static struct packet_type hf_packet_type __read_mostly = {
	.func = hf_input_rcv,
};

/**
 * hf_tunable_check() - whether a module parameter lies in its range
 * @name: its name
 * @value: its value
 * @lo: the least it may be
 * @hi: the most it may be
 *
 * Process context, at load.
 *
 * Return: 0, or -EINVAL with the reason logged.
 */
static int __init hf_tunable_check(const char *name, u64 value, u64 lo, u64 hi)
{
	if (value >= lo && value <= hi)
		return 0;
	pr_err("%s=%llu is outside %llu..%llu\n", name, value, lo, hi);
	return -EINVAL;
}

#define HF_TUNABLE_CHECK(name, type, def, lo, hi, attr, desc)		\
	err = err ?: hf_tunable_check(#name, hf_params_default.name, lo, hi);

/**
 * hf_params_check() - check the module parameters and complete the
 * defaults they leave
 *
 * Process context, at load. Each tunable is held to its range in
 * HF_TUNABLES(); what ties tunables together is checked here.
 *
 * Return: 0, or -EINVAL with the reason logged.
 */
static int __init hf_params_check(void)
{
	int err = 0;

	if (hf_params_default.ethertype < ETH_P_802_3_MIN) {
		pr_err("ethertype=%#x is a length, not an EtherType (minimum %#x)\n",
		       hf_params_default.ethertype, ETH_P_802_3_MIN);
		return -EINVAL;
	}
	HF_TUNABLES(HF_TUNABLE_CHECK)
	if (err)
		return err;
	if (hf_params_default.frame_segs < hf_params_default.frame_min_segs) {
		pr_err("frame_min_segs=%u frame_segs=%u: want frame_min_segs <= frame_segs\n",
		       hf_params_default.frame_min_segs, hf_params_default.frame_segs);
		return -EINVAL;
	}
	if (hf_retry_limit > U8_MAX) {
		pr_err("retry_limit=%u is above %u\n", hf_retry_limit, U8_MAX);
		return -EINVAL;
	}
	hf_rto_params_default(&hf_params_default.rto);
	hf_params_default.rto.retry_limit = hf_retry_limit;
	hf_params_default.rto.granularity_us = jiffies_to_usecs(1);
	return hf_rto_params_check(&hf_params_default.rto);
}

static int __init hf_init(void)
{
	int err;

	err = hf_params_check();
	if (err)
		return err;
	hf_mem_init();

	err = hf_net_register();
	if (err)
		return err;

	/* The notifier first: no peer may appear on a device it missed. */
	err = register_netdevice_notifier(&hf_netdev_notifier);
	if (err)
		goto out_net;

	hf_packet_type.type = htons(hf_params_default.ethertype);
	dev_add_pack(&hf_packet_type);
	/* Before any socket can build a train for a device to cut. */
	hf_offload_register();

	err = hf_sock_register(hf_family);
	if (err)
		goto out_pack;

	err = hf_hfq_register();
	if (err)
		goto out_sock;

	/* The control plane last: all it shows exists by now. */
	err = hf_genl_register();
	if (err)
		goto out_hfq;

	pr_info("address family %d, EtherType %#06x\n", hf_family,
		hf_params_default.ethertype);
	return 0;

out_hfq:
	hf_hfq_unregister();
out_sock:
	hf_sock_unregister();
out_pack:
	hf_offload_unregister();
	dev_remove_pack(&hf_packet_type);
	unregister_netdevice_notifier(&hf_netdev_notifier);
out_net:
	hf_net_unregister();
	return err;
}

static void __exit hf_exit(void)
{
	hf_genl_unregister();
	hf_hfq_unregister();
	hf_sock_unregister();
	hf_offload_unregister();
	dev_remove_pack(&hf_packet_type);
	unregister_netdevice_notifier(&hf_netdev_notifier);
	hf_net_unregister();
	/* Peers are freed after a grace period. */
	rcu_barrier();
}

module_init(hf_init);
module_exit(hf_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The hyperframe developers");
MODULE_DESCRIPTION("hyperframe: large-frame reliable message transport");
MODULE_VERSION("0.1.0");
/*
 * Autoload: socket(AF_HYPERFRAME, ...) asks for "net-pf-18" (the default
 * family; a module loaded with another "family" is not found so), a
 * generic netlink lookup of the family by name (hfctl, libnl's
 * genl_ctrl_resolve()) for "net-pf-16-proto-16-family-hyperframe", and
 * tc for the qdisc by the alias its kernel line uses. (The kernel's YNL
 * cli.py finds families in a dump of them all, which loads nothing.)
 */
MODULE_ALIAS_NETPROTO(AF_HYPERFRAME);
MODULE_ALIAS_GENL_FAMILY(HF_GENL_NAME);
HF_MODULE_ALIAS_QDISC("hfq");
