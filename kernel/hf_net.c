// SPDX-License-Identifier: GPL-2.0
/*
 * hf_net.c - per-network-namespace state: created when a namespace comes
 * up (or the module loads), freed with it. A socket holds a reference on
 * its namespace, so the port table is empty by the time it goes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/random.h>

#include "hf_net.h"

unsigned int hf_net_id __read_mostly;

static int __net_init hf_net_init(struct net *net)
{
	struct hf_net *hn = hf_net(net);

	spin_lock_init(&hn->ports_lock);
	hash_init(hn->ports);
	hn->next_ephemeral = HF_EPHEMERAL_MIN +
		get_random_u32_below(HF_EPHEMERAL_MAX - HF_EPHEMERAL_MIN + 1);
	return 0;
}

static struct pernet_operations hf_net_ops = {
	.init	= hf_net_init,
	.id	= &hf_net_id,
	.size	= sizeof(struct hf_net),
};

/**
 * hf_net_register() - create the state of every existing namespace and
 * of each one created from now on
 *
 * Return: 0 or a negative errno from register_pernet_subsys().
 */
int __init hf_net_register(void)
{
	return register_pernet_subsys(&hf_net_ops);
}

/**
 * hf_net_unregister() - undo hf_net_register()
 */
void hf_net_unregister(void)
{
	unregister_pernet_subsys(&hf_net_ops);
}
