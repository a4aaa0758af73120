// SPDX-License-Identifier: GPL-2.0
/*
 * hf_dev.c - the per-device counters of a namespace: frames, segments and
 * bytes each way, retransmissions and drops of every device hyperframe
 * traffic uses, read by HF_CMD_DEV_GET.
 *
 * Design notes:
 * 1. An out-of-tree module cannot hang state off struct net_device, so
 *    each namespace holds a fixed table of HF_DEV_SLOTS slots in its
 *    struct hf_net: the memory is bounded and goes with the namespace.
 *    The devices after the first HF_DEV_SLOTS share one more slot,
 *    reported as ifindex 0 ("other"); none is ever lost.
 * 2. A slot is taken on first use: when a peer is created on the device
 *    (the peer keeps a pointer to it and counts there without a lookup),
 *    or when a frame the device received is dropped before any peer is
 *    known (a scan of the table: a drop path, not a hot one).
 * 3. A slot is freed when its device is unregistered (also when it moves
 *    to another namespace) and no peer counts in it any more. Peers of a
 *    device are torn down by NETDEV_UNREGISTER before the slot is marked
 *    gone, and hf_peer_get() creates none on a device being unregistered,
 *    so nothing counts in a freed slot; a device that comes back is a new
 *    device (new counters, as ip -s link). A slot's counters are cleared
 *    when it is taken, never while it is in use.
 * 4. The counters are per CPU, as the namespace's: the data path bumps
 *    them for every segment. The shared slot's are allocated with the
 *    namespace; a device slot's when it is first taken (in softirq
 *    context, atomically: a device whose slot cannot get them counts in
 *    the shared slot), kept for reuse until the namespace goes; taking a
 *    slot again clears every CPU's share. A namespace that never carries
 *    hyperframe holds 64 bytes per CPU of them.
 */
#include "hf_net.h"

const char *const hf_dev_stat_names[HF_DEV_STAT_MAX] = {
	[HF_DEV_STAT_TX_FRAMES]		= "tx_frames",
	[HF_DEV_STAT_TX_SEGS]		= "tx_segs",
	[HF_DEV_STAT_TX_BYTES]		= "tx_bytes",
	[HF_DEV_STAT_TX_RETRANSMITS]	= "tx_retransmits",
	[HF_DEV_STAT_RX_FRAMES]		= "rx_frames",
	[HF_DEV_STAT_RX_SEGS]		= "rx_segs",
	[HF_DEV_STAT_RX_BYTES]		= "rx_bytes",
	[HF_DEV_STAT_DROPS]		= "drops",
};

/**
 * hf_devs_init() - allocate the shared counters of a new namespace
 * @hn: the namespace, its slots all free
 *
 * Process context; charged to the memory cgroup of the task that creates
 * the namespace. A device's own slot gets its counters when first taken
 * (hf_dev_slot()), so a namespace that never carries hyperframe holds
 * one CPU's share of one slot per CPU, not the whole table's.
 *
 * Return: 0, or -ENOMEM.
 */
int hf_devs_init(struct hf_net *hn)
{
	spin_lock_init(&hn->devs_lock);
	hn->dev_other.pcpu = alloc_percpu_gfp(struct hf_dev_stats_pcpu,
					      GFP_KERNEL_ACCOUNT);
	return hn->dev_other.pcpu ? 0 : -ENOMEM;
}

/**
 * hf_devs_free() - free the per-device counters of a namespace
 * @hn: the namespace, whose peers are gone: nothing counts any more
 */
void hf_devs_free(struct hf_net *hn)
{
	unsigned int i;

	for (i = 0; i < HF_DEV_SLOTS; i++) {
		free_percpu(hn->devs[i].pcpu);
		hn->devs[i].pcpu = NULL;
	}
	free_percpu(hn->dev_other.pcpu);
	hn->dev_other.pcpu = NULL;
}

/*
 * The slot of @ifindex, taken if need be; the shared one when none is free
 * or its counters cannot be had (softirq: a slot's first use allocates
 * them atomically; bounded by HF_DEV_SLOTS, kept until the namespace
 * goes).
 */
static struct hf_dev_stats *hf_dev_slot(struct hf_net *hn, int ifindex)
{
	struct hf_dev_stats *free = NULL, *d;
	unsigned int i;
	int cpu;

	lockdep_assert_held(&hn->devs_lock);
	for (i = 0; i < HF_DEV_SLOTS; i++) {
		d = &hn->devs[i];
		if (d->ifindex == ifindex && !d->gone)
			return d;
		if (!d->ifindex && !free)
			free = d;
	}
	if (!free)
		return &hn->dev_other;
	if (!free->pcpu) {
		/* New per-CPU memory comes zeroed. */
		free->pcpu = alloc_percpu_gfp(struct hf_dev_stats_pcpu,
					      GFP_ATOMIC | __GFP_NOWARN);
		if (!free->pcpu)
			return &hn->dev_other;
	} else {
		/* Nothing counts in a free slot, nor reads it but under the lock. */
		for_each_possible_cpu(cpu)
			memset(per_cpu_ptr(free->pcpu, cpu), 0,
			       sizeof(struct hf_dev_stats_pcpu));
	}
	free->gone = false;
	free->users = 0;
	atomic_set(&free->tx_senders, 0);
	WRITE_ONCE(free->ifindex, ifindex);
	return free;
}

/**
 * hf_dev_stats_get() - the counters of a device, for a new peer on it
 * @hn: the device's namespace
 * @dev: the device, registered
 *
 * Any context. Each call takes a use of the slot: hf_dev_stats_put().
 *
 * Return: the device's slot, or the shared one; never NULL.
 */
struct hf_dev_stats *hf_dev_stats_get(struct hf_net *hn,
				      const struct net_device *dev)
{
	struct hf_dev_stats *d;

	spin_lock_bh(&hn->devs_lock);
	d = hf_dev_slot(hn, dev->ifindex);
	if (d != &hn->dev_other)
		d->users++;
	spin_unlock_bh(&hn->devs_lock);
	return d;
}

/* Free @d if its device is gone and nobody counts in it; devs_lock held. */
static void dev_slot_release(struct hf_dev_stats *d)
{
	if (d->gone && !d->users)
		WRITE_ONCE(d->ifindex, 0);
}

/**
 * hf_dev_stats_put() - give back a use taken by hf_dev_stats_get()
 * @hn: the namespace
 * @d: the slot
 *
 * Any context; nothing may count in @d through this use afterwards.
 */
void hf_dev_stats_put(struct hf_net *hn, struct hf_dev_stats *d)
{
	if (d == &hn->dev_other)
		return;
	spin_lock_bh(&hn->devs_lock);
	d->users--;
	dev_slot_release(d);
	spin_unlock_bh(&hn->devs_lock);
}

/**
 * hf_dev_stats_find() - the counters of a device that received a frame
 * @hn: the device's namespace
 * @dev: the device
 *
 * Softirq context (the receive path), where @dev is registered: its slot
 * cannot be freed meanwhile. Takes no use.
 *
 * Return: the device's slot, or the shared one; never NULL.
 */
struct hf_dev_stats *hf_dev_stats_find(struct hf_net *hn,
				       const struct net_device *dev)
{
	struct hf_dev_stats *d;
	unsigned int i;

	for (i = 0; i < HF_DEV_SLOTS; i++) {
		d = &hn->devs[i];
		if (READ_ONCE(d->ifindex) == dev->ifindex && !READ_ONCE(d->gone))
			return d;
	}
	spin_lock_bh(&hn->devs_lock);
	d = hf_dev_slot(hn, dev->ifindex);
	spin_unlock_bh(&hn->devs_lock);
	return d;
}

/**
 * hf_dev_drop() - count a frame @dev received that is dropped before its
 * peer is known: the namespace's drop_* counter and the device's drops
 * together (hf_peer_drop() once it is)
 * @hn: the device's namespace
 * @dev: the device
 * @why: the namespace counter that names the reason (HF_STAT_DROP_*)
 *
 * Softirq context (the receive path), as hf_dev_stats_find().
 */
void hf_dev_drop(struct hf_net *hn, const struct net_device *dev,
		 enum hf_stat why)
{
	hf_stat_inc(&hn->stats, why);
	hf_dev_stat_inc(hf_dev_stats_find(hn, dev), HF_DEV_STAT_DROPS);
}

/**
 * hf_dev_stats_gone() - a device was unregistered: free its slot once
 * nothing counts in it
 * @hn: the namespace it leaves
 * @dev: the device; its peers are torn down already
 *
 * Process context (netdevice notifier).
 */
void hf_dev_stats_gone(struct hf_net *hn, const struct net_device *dev)
{
	struct hf_dev_stats *d;
	unsigned int i;

	spin_lock_bh(&hn->devs_lock);
	for (i = 0; i < HF_DEV_SLOTS; i++) {
		d = &hn->devs[i];
		if (d->ifindex == dev->ifindex && !d->gone) {
			WRITE_ONCE(d->gone, true);
			dev_slot_release(d);
			break;
		}
	}
	spin_unlock_bh(&hn->devs_lock);
}
