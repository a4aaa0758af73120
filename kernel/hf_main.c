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

struct hf_params hf_params_default = {
	.ethertype	= HF_ETH_P_DEFAULT,
	.max_msg	= 64 << 20,
	.max_peers	= 256,
	.frame_segs	= HF_FSIZE_DEFAULT_INITIAL_SEGS,
	.frame_min_segs	= HF_FSIZE_DEFAULT_MIN_SEGS,
	.frame_max_bytes = HF_FSIZE_DEFAULT_MAX_BYTES,
	/*
	 * Off: without credits or rate hints the sender's own window queues
	 * at the receiver, and every round trip looks inflated (on a clean
	 * veth link under TCG, 46,463 frames of 1 segment for 46,630).
	 */
	.frame_delay_pct = 0,
	.mem_limit	= 512ULL << 20,
	.peer_idle_ms	= 10000,
	.flow_reset_ms	= 2000,
	.ack_delay_us	= 1000,
	.max_inflight	= 128,
	.credit_initial	= HF_CREDIT_DEFAULT_INITIAL,
	.credit_budget	= 16 << 20,
};

static int hf_family = AF_HYPERFRAME;
module_param_named(family, hf_family, int, 0444);
MODULE_PARM_DESC(family, "address family slot to register (default 18, AF_ASH, never implemented)");

module_param_named(ethertype, hf_params_default.ethertype, ushort, 0444);
MODULE_PARM_DESC(ethertype, "EtherType of hyperframe frames (default 0x88B5, IEEE local experimental)");

module_param_named(max_msg, hf_params_default.max_msg, uint, 0444);
MODULE_PARM_DESC(max_msg, "largest message in bytes (default 64 MiB, at most 1 GiB)");

module_param_named(max_peers, hf_params_default.max_peers, uint, 0444);
MODULE_PARM_DESC(max_peers, "peers one network namespace may hold (default 256)");

module_param_named(frame_segs, hf_params_default.frame_segs, uint, 0444);
MODULE_PARM_DESC(frame_segs, "wire segments in a new flow's first hyperframe (default 4)");

module_param_named(frame_min_segs, hf_params_default.frame_min_segs, uint, 0444);
MODULE_PARM_DESC(frame_min_segs, "smallest hyperframe in wire segments (default 1)");

module_param_named(frame_max_bytes, hf_params_default.frame_max_bytes, uint, 0444);
MODULE_PARM_DESC(frame_max_bytes, "largest hyperframe in payload bytes (default 1 MiB)");

module_param_named(frame_delay_pct, hf_params_default.frame_delay_pct, uint, 0444);
MODULE_PARM_DESC(frame_delay_pct, "round trip above the least by this percent is congestion (default 0: off)");

module_param_named(pacing_rate, hf_params_default.pacing_rate, ullong, 0444);
MODULE_PARM_DESC(pacing_rate, "every socket's pacing cap in bytes per second (default 0: none)");

module_param_named(mem_limit, hf_params_default.mem_limit, ullong, 0444);
MODULE_PARM_DESC(mem_limit, "bytes of reassembly a namespace may hold (default 512 MiB)");

module_param_named(max_inflight, hf_params_default.max_inflight, uint, 0444);
MODULE_PARM_DESC(max_inflight, "receiver queue entries per peer: segments, or trains where the device takes them whole (default 128, at most 4096)");

module_param_named(credit_initial, hf_params_default.credit_initial, uint, 0444);
MODULE_PARM_DESC(credit_initial, "bytes a sender may send before its first grant; the same on every node (default 64 KiB)");

module_param_named(credit_budget, hf_params_default.credit_budget, uint, 0444);
MODULE_PARM_DESC(credit_budget, "bytes a namespace grants its active senders together beyond what was read (default 16 MiB)");

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

static int __init hf_params_check(void)
{
	if (hf_params_default.ethertype < ETH_P_802_3_MIN) {
		pr_err("ethertype=%#x is a length, not an EtherType (minimum %#x)\n",
		       hf_params_default.ethertype, ETH_P_802_3_MIN);
		return -EINVAL;
	}
	if (hf_params_default.max_msg > HF_WIRE_MSG_MAX) {
		pr_err("max_msg=%u is above the wire limit %u\n",
		       hf_params_default.max_msg, HF_WIRE_MSG_MAX);
		return -EINVAL;
	}
	if (!hf_params_default.frame_min_segs ||
	    hf_params_default.frame_segs < hf_params_default.frame_min_segs ||
	    hf_params_default.frame_segs > U16_MAX) {
		pr_err("frame_min_segs=%u frame_segs=%u: want 1 <= frame_min_segs <= frame_segs <= %u\n",
		       hf_params_default.frame_min_segs, hf_params_default.frame_segs, U16_MAX);
		return -EINVAL;
	}
	if (!hf_params_default.frame_max_bytes ||
	    hf_params_default.frame_max_bytes > HF_WIRE_MSG_MAX) {
		pr_err("frame_max_bytes=%u is outside 1..%u\n",
		       hf_params_default.frame_max_bytes, HF_WIRE_MSG_MAX);
		return -EINVAL;
	}
	if (hf_params_default.pacing_rate > HF_PACING_RATE_MAX) {
		pr_err("pacing_rate=%llu is above %llu\n",
		       hf_params_default.pacing_rate, HF_PACING_RATE_MAX);
		return -EINVAL;
	}
	if (hf_params_default.frame_delay_pct > HF_FRAME_DELAY_PCT_MAX) {
		pr_err("frame_delay_pct=%u is above %u\n",
		       hf_params_default.frame_delay_pct, HF_FRAME_DELAY_PCT_MAX);
		return -EINVAL;
	}
	if (!hf_params_default.max_inflight || hf_params_default.max_inflight > HF_WIN_SEGS) {
		pr_err("max_inflight=%u is outside 1..%u\n",
		       hf_params_default.max_inflight, HF_WIN_SEGS);
		return -EINVAL;
	}
	/* Per-socket receive charges are atomic_t: keep far from INT_MAX. */
	if (hf_params_default.mem_limit > INT_MAX / 2) {
		pr_err("mem_limit=%llu is above %d\n", hf_params_default.mem_limit,
		       INT_MAX / 2);
		return -EINVAL;
	}
	if (hf_params_default.credit_initial > HF_CREDIT_DEFAULT_MAX_AHEAD ||
	    !hf_params_default.credit_budget ||
	    hf_params_default.credit_budget > HF_CREDIT_DEFAULT_MAX_AHEAD) {
		pr_err("credit_initial=%u credit_budget=%u: want credit_initial <= %u and 1 <= credit_budget <= %u\n",
		       hf_params_default.credit_initial, hf_params_default.credit_budget,
		       HF_CREDIT_DEFAULT_MAX_AHEAD, HF_CREDIT_DEFAULT_MAX_AHEAD);
		return -EINVAL;
	}
	if (!hf_params_default.max_peers) {
		pr_err("max_peers must be at least 1\n");
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
