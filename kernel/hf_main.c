// SPDX-License-Identifier: GPL-2.0
/*
 * hf_main.c - module entry and exit, and the module parameters.
 *
 * Initialisation registers from the inside out so that nothing user-visible
 * exists before what it needs: the protocol and address family last of
 * all. Exit undoes it in reverse. Sockets hold a module reference, so the
 * module cannot go while one is open.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/hyperframe.h>

#include "hf_net.h"
#include "hf_sock.h"

static int hf_family = AF_HYPERFRAME;
module_param_named(family, hf_family, int, 0444);
MODULE_PARM_DESC(family, "address family slot to register (default 18, AF_ASH, never implemented)");

static ushort hf_ethertype = HF_ETH_P_DEFAULT;
module_param_named(ethertype, hf_ethertype, ushort, 0444);
MODULE_PARM_DESC(ethertype, "EtherType of hyperframe frames (default 0x88B5, IEEE local experimental)");

static int __init hf_init(void)
{
	int err;

	if (hf_ethertype < ETH_P_802_3_MIN) {
		pr_err("ethertype=%#x is a length, not an EtherType (minimum %#x)\n",
		       hf_ethertype, ETH_P_802_3_MIN);
		return -EINVAL;
	}

	err = hf_net_register();
	if (err)
		return err;

	err = hf_sock_register(hf_family);
	if (err) {
		hf_net_unregister();
		return err;
	}

	pr_info("address family %d, EtherType %#06x\n", hf_family, hf_ethertype);
	return 0;
}

static void __exit hf_exit(void)
{
	hf_sock_unregister();
	hf_net_unregister();
}

module_init(hf_init);
module_exit(hf_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The hyperframe developers");
MODULE_DESCRIPTION("hyperframe: large-frame reliable message transport");
MODULE_VERSION("0.1.0");
MODULE_ALIAS_NETPROTO(AF_HYPERFRAME);
