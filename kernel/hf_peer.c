// SPDX-License-Identifier: GPL-2.0
/*
 * hf_peer.c - the peer table of a namespace: lookup on every frame,
 * creation on first contact (bounded by max_peers), reclaim when idle,
 * and teardown when an interface or the namespace goes.
 *
 * Design notes:
 * 1. Lookup is RCU-only and takes a reference; the table holds one more.
 *    A peer unlinked from the table is marked dead under its lock, its
 *    timers are shut down and its messages failed, then it is freed after
 *    the last reference and a grace period.
 * 2. Only a DATA segment may create a peer: an ACK from a stranger is
 *    dropped and counted, so forged acks cannot fill the table.
 * 3. A peer holds its interface. NETDEV_UNREGISTER flushes the peers of
 *    the device, failing their messages with ENETDOWN, so an interface
 *    can always go away. A peer in the table counts in its device's slot
 *    of per-device counters (hf_dev.c), given back when it is torn down.
 * 4. PEER_UP and PEER_DOWN events (hf_genl_event.c) are sent under
 *    peers_lock, right after the peer enters or leaves the table: the
 *    PEER_DOWN of a peer then always precedes the PEER_UP of a new state
 *    for the same address, and PEER_UP precedes every other event of the
 *    peer (none can happen before hf_peer_get() returns it).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/jhash.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "hf_genl.h"
#include "hf_input.h"
#include "hf_net.h"
#include "hf_output.h"
#include "hf_peer.h"

static u32 peer_hash(int ifindex, const u8 *addr)
{
	return jhash_2words(ifindex, get_unaligned((const u32 *)addr) ^
			    get_unaligned((const u16 *)(addr + 4)), 0);
}

static struct hf_peer *peer_find(struct hf_net *hn, int ifindex,
				 const u8 *addr)
{
	struct hf_peer *peer;

	hash_for_each_possible_rcu(hn->peers, peer, node,
				   peer_hash(ifindex, addr))
		if (peer->dev->ifindex == ifindex &&
		    ether_addr_equal(peer->addr, addr))
			return peer;
	return NULL;
}

/**
 * hf_peer_find_rcu() - the peer behind an interface and address, if any
 * @hn: the namespace
 * @ifindex: the interface
 * @addr: the remote Ethernet address
 *
 * Caller holds rcu_read_lock(); the peer, which may be dead, stays valid
 * until it is released. No reference is taken.
 *
 * Return: the peer, or NULL.
 */
struct hf_peer *hf_peer_find_rcu(struct hf_net *hn, int ifindex,
				 const u8 *addr)
{
	return peer_find(hn, ifindex, addr);
}

static void peer_free_rcu(struct rcu_head *head)
{
	struct hf_peer *peer = container_of(head, struct hf_peer, rcu);

	dev_put(peer->dev);
	kvfree(peer->slots);
	kfree(peer);
}

/**
 * hf_peer_put() - drop a reference; the last one frees the peer
 * @peer: the peer
 */
void hf_peer_put(struct hf_peer *peer)
{
	if (refcount_dec_and_test(&peer->refs))
		call_rcu(&peer->rcu, peer_free_rcu);
}

static struct hf_peer *peer_alloc(struct net *net, struct net_device *dev,
				  const u8 *addr)
{
	struct hf_peer *peer;

	peer = kzalloc(sizeof(*peer), GFP_ATOMIC);
	if (!peer)
		return NULL;
	peer->slots = kvcalloc(HF_WIN_SEGS, sizeof(*peer->slots), GFP_ATOMIC);
	if (!peer->slots) {
		kfree(peer);
		return NULL;
	}
	refcount_set(&peer->refs, 1);
	peer->net = net;
	peer->cfg = &hf_net(net)->config;
	peer->dev = dev;
	dev_hold(dev);
	ether_addr_copy(peer->addr, addr);
	spin_lock_init(&peer->lock);
	peer->last_active = jiffies;
	hf_output_init(peer);
	hf_input_init(peer);
	return peer;
}

/**
 * hf_peer_get() - find, or create, the peer behind an interface and address
 * @net: the namespace
 * @dev: the interface
 * @addr: the remote Ethernet address
 * @create: create the peer when it does not exist
 * @err: set to -ENOBUFS when max_peers is reached, -ENOMEM when memory is
 *	 short, -ENOENT when it does not exist and @create is false
 *
 * Any context.
 *
 * Return: the peer with a reference for the caller (hf_peer_put()), or
 * NULL with @err set.
 */
struct hf_peer *hf_peer_get(struct net *net, struct net_device *dev,
			    const u8 *addr, bool create, int *err)
{
	struct hf_net *hn = hf_net(net);
	struct hf_peer *peer, *fresh;

	rcu_read_lock();
	peer = peer_find(hn, dev->ifindex, addr);
	if (peer && !refcount_inc_not_zero(&peer->refs))
		peer = NULL;
	rcu_read_unlock();
	if (peer || !create) {
		*err = peer ? 0 : -ENOENT;
		return peer;
	}
	/* Cheap early refusal; the count is checked again under the lock. */
	if (READ_ONCE(hn->npeers) >= READ_ONCE(hn->config.p.max_peers)) {
		*err = -ENOBUFS;
		return NULL;
	}

	fresh = peer_alloc(net, dev, addr);
	if (!fresh) {
		*err = -ENOMEM;
		return NULL;
	}

	spin_lock_bh(&hn->peers_lock);
	peer = peer_find(hn, dev->ifindex, addr);
	if (peer) {
		refcount_inc(&peer->refs);
	} else if (hn->npeers >= READ_ONCE(hn->config.p.max_peers) ||
		   !(dev->reg_state == NETREG_REGISTERED)) {
		*err = hn->npeers >= READ_ONCE(hn->config.p.max_peers) ? -ENOBUFS : -ENODEV;
	} else {
		peer = fresh;
		fresh = NULL;
		peer->dstats = hf_dev_stats_get(hn, dev);
		refcount_inc(&peer->refs);
		hash_add_rcu(hn->peers, &peer->node,
			     peer_hash(dev->ifindex, addr));
		hn->npeers++;
		hf_genl_event_peer_up(peer);
	}
	spin_unlock_bh(&hn->peers_lock);

	if (fresh) {
		dev_put(fresh->dev);
		kvfree(fresh->slots);
		kfree(fresh);
	}
	if (peer)
		*err = 0;
	return peer;
}

/*
 * Mark a peer dead, unless @idle asks only for a peer with nothing in
 * flight that has been silent long enough; checked and marked under one
 * hold of its lock, so no message can slip in between. A dead peer takes
 * no new work, so the messages it holds, counted in @msgs, are exactly
 * those peer_finish() fails; peers_lock held, the caller unlinks it.
 */
static bool peer_kill(struct hf_peer *peer, bool idle, u32 *msgs)
{
	unsigned long idle_jiffies = msecs_to_jiffies(READ_ONCE(peer->cfg->p.peer_idle_ms));
	bool kill = true;

	spin_lock(&peer->lock);
	/*
	 * A peer silent for peer_idle_ms with nothing of ours in flight
	 * goes, with any message it left half sent: its sender has given up
	 * or gone.
	 */
	if (idle)
		kill = hf_output_idle(peer) &&
		       !time_before(jiffies, peer->last_active + idle_jiffies);
	if (kill) {
		peer->dead = true;
		*msgs = hf_output_queued_msgs(peer);
	}
	spin_unlock(&peer->lock);
	return kill;
}

/*
 * Fail what a dead peer still holds (@err, a positive errno, or 0 to
 * report nothing), stop its timers and drop the table's reference.
 */
static void peer_finish(struct hf_peer *peer, int err)
{
	spin_lock_bh(&peer->lock);
	hf_output_abort(peer, err);
	hf_input_reset(peer);
	hf_epoch_rx_forget(&peer->rx_ep);
	spin_unlock_bh(&peer->lock);
	hf_output_stop(peer);
	hf_input_stop(peer);
	hf_dev_stats_put(hf_net(peer->net), peer->dstats);
	hf_peer_put(peer);
}

static void peer_flush(struct net *net, struct net_device *dev, bool idle)
{
	enum hf_event_reason reason = idle ? HF_EVENT_REASON_IDLE :
				      dev ? HF_EVENT_REASON_DEVICE :
				      HF_EVENT_REASON_NETNS;
	struct hf_net *hn = hf_net(net);
	struct hf_peer *peer, *next;
	struct hlist_node *tmp;
	LIST_HEAD(victims);
	unsigned int bkt;
	u32 msgs;

	spin_lock_bh(&hn->peers_lock);
	hash_for_each_safe(hn->peers, bkt, tmp, peer, node) {
		if (dev && peer->dev != dev)
			continue;
		if (!peer_kill(peer, idle, &msgs))
			continue;
		hash_del_rcu(&peer->node);
		hn->npeers--;
		list_add(&peer->gc_node, &victims);
		hf_genl_event_peer_down(peer, reason, msgs, ENETDOWN);
	}
	spin_unlock_bh(&hn->peers_lock);

	list_for_each_entry_safe(peer, next, &victims, gc_node)
		peer_finish(peer, idle ? 0 : ENETDOWN);
}

/**
 * hf_peer_flush_dev() - tear down every peer reached through @dev
 * @net: the device's namespace
 * @dev: the device going away; messages to its peers fail with ENETDOWN
 *
 * Process context (netdevice notifier).
 */
void hf_peer_flush_dev(struct net *net, struct net_device *dev)
{
	peer_flush(net, dev, false);
}

/**
 * hf_peer_flush_net() - tear down every peer of a namespace
 * @net: the namespace, on its way out
 */
void hf_peer_flush_net(struct net *net)
{
	peer_flush(net, NULL, false);
}

/**
 * hf_peer_reclaim_idle() - free peers with nothing in flight either way
 * that have been silent for peer_idle_ms
 * @net: the namespace
 */
void hf_peer_reclaim_idle(struct net *net)
{
	peer_flush(net, NULL, true);
}
