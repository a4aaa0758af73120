// SPDX-License-Identifier: GPL-2.0
/*
 * hf_net.c - per-network-namespace state: created when a namespace comes
 * up (or the module loads) and freed with it, with its counters in
 * /proc/net/hyperframe and a periodic reclaim of idle peers. A socket
 * holds a reference on its namespace, so the port table is empty by the
 * time it goes; peers are torn down here.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/proc_fs.h>
#include <linux/random.h>
#include <linux/seq_file.h>

#include "hf_genl.h"
#include "hf_mem.h"
#include "hf_net.h"
#include "hf_peer.h"

#define HF_GC_INTERVAL	HZ

unsigned int hf_net_id __read_mostly;

#define HF_STAT_NAME(e, name, help)					\
	[HF_STAT_##e] = #name,

const char *const hf_stat_names[HF_STAT_MAX] = {
	HF_COUNTERS(HF_STAT_NAME)
};

static int hf_proc_show(struct seq_file *seq, void *v)
{
	struct hf_net *hn = hf_net(seq_file_single_net(seq));
	unsigned int i;

	for (i = 0; i < HF_STAT_MAX; i++)
		seq_printf(seq, "%s %lld\n", hf_stat_names[i],
			   (s64)hf_stat_sum(&hn->stats, HF_STAT_V(i)));
	for (i = HF_WERR_OK + 1; i < HF_WERR_MAX; i++)
		seq_printf(seq, "drop_malformed_%s %lld\n", hf_wire_err_name(i),
			   (s64)hf_stat_sum(&hn->stats, HF_STAT_MALFORMED(i)));
	seq_printf(seq, "peers %u\n", READ_ONCE(hn->npeers));
	seq_printf(seq, "rx_mem_bytes %lld\n", (s64)atomic64_read(&hn->rx_mem));
	seq_printf(seq, "rx_mem_reserved_bytes %lld\n",
		   (s64)atomic64_read(&hn->rx_reserved));
	/* Module-wide: all namespaces together (hf_mem.c). */
	seq_printf(seq, "mem_bytes %ld\n", hf_mem_allocated() << PAGE_SHIFT);
	return 0;
}

static void hf_net_gc(struct work_struct *work)
{
	struct hf_net *hn = container_of(to_delayed_work(work), struct hf_net,
					 gc);

	hf_peer_gc(hn->net);
	schedule_delayed_work(&hn->gc, HF_GC_INTERVAL);
}

/**
 * hf_stats_init() - allocate a namespace's counters, all 0
 * @s: the counters
 *
 * Process context; charged to the memory cgroup of the task that creates
 * the namespace.
 *
 * Return: 0, or -ENOMEM.
 */
int hf_stats_init(struct hf_stats *s)
{
	s->pcpu = alloc_percpu_gfp(struct hf_stats_pcpu, GFP_KERNEL_ACCOUNT);
	return s->pcpu ? 0 : -ENOMEM;
}

/**
 * hf_stats_free() - free a namespace's counters
 * @s: the counters, no longer bumped by anyone
 */
void hf_stats_free(struct hf_stats *s)
{
	free_percpu(s->pcpu);
	s->pcpu = NULL;
}

static int __net_init hf_net_init(struct net *net)
{
	struct hf_net *hn = hf_net(net);

	hn->net = net;
	if (hf_stats_init(&hn->stats))
		return -ENOMEM;
	if (hf_devs_init(hn)) {
		hf_stats_free(&hn->stats);
		return -ENOMEM;
	}
	hf_config_init(net, &hn->config);
	get_random_bytes(&hn->cookie_key, sizeof(hn->cookie_key));
	get_random_bytes(&hn->stranger_key, sizeof(hn->stranger_key));
	spin_lock_init(&hn->stranger_lock);
	get_random_bytes(&hn->peer_key, sizeof(hn->peer_key));
	INIT_LIST_HEAD(&hn->evicted);
	INIT_WORK(&hn->evict_work, hf_peer_evicted_work);
	spin_lock_init(&hn->ports_lock);
	hash_init(hn->ports);
	hn->next_ephemeral = HF_EPHEMERAL_MIN +
		get_random_u32_below(HF_EPHEMERAL_MAX - HF_EPHEMERAL_MIN + 1);
	spin_lock_init(&hn->peers_lock);
	hash_init(hn->peers);
	spin_lock_init(&hn->rxsched_lock);
	INIT_DELAYED_WORK(&hn->gc, hf_net_gc);

	if (!proc_create_net_single("hyperframe", 0444, net->proc_net,
				    hf_proc_show, NULL)) {
		hf_devs_free(hn);
		hf_stats_free(&hn->stats);
		return -ENOMEM;
	}
	schedule_delayed_work(&hn->gc, HF_GC_INTERVAL);
	return 0;
}

static void __net_exit hf_net_exit(struct net *net)
{
	struct hf_net *hn = hf_net(net);

	remove_proc_entry("hyperframe", net->proc_net);
	cancel_delayed_work_sync(&hn->gc);
	/* No device is left to bring a frame: nothing is evicted after this. */
	flush_work(&hn->evict_work);
	hf_peer_flush_net(net);
	/* The peers' timers are stopped: nothing counts any more. */
	hf_devs_free(hn);
	hf_stats_free(&hn->stats);
}

static struct pernet_operations hf_net_ops = {
	.init	= hf_net_init,
	.exit	= hf_net_exit,
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
