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
 *    dropped and counted, so forged acks cannot fill the table. A full
 *    table makes room by evicting a peer that never proved its address
 *    (it never answered us, and never echoed our state: core/hf_epoch.h)
 *    and had HF_PEER_GRACE to, silent longest first, else one with
 *    nothing in flight either way and silent for flow_reset_ms (its
 *    sender then starts a new epoch: forgetting it fails nothing).
 *    Spoofed sources and absent addresses cannot push a new peer out
 *    before its first round trip, nor a live flow out between its
 *    messages. A flood of them can keep the table full of strangers
 *    younger than HF_PEER_GRACE, so a stranger that finds the table
 *    full is answered without any state kept, as SYN cookies answer a
 *    SYN flood (hf_input.c, hf_rx_stranger()): one that echoes the
 *    cookie proved its address, and may take the table an eighth beyond
 *    max_peers (HF_PEER_CREATE_PROVEN): strangers hold at most
 *    max_peers, and no peer in its grace is pushed out for it.
 *    A receive-only peer is small: the sending side's state (about
 *    100 KiB) is allocated at the first send, in process context.
 * 5. Lookups hash the interface and address with a random per-namespace
 *    key (siphash), so no sender can choose addresses that collide.
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
#include <linux/siphash.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "hf_genl.h"
#include "hf_input.h"
#include "hf_net.h"
#include "hf_output.h"
#include "hf_peer.h"

/* A peer never proven is kept this long at least: its round trip to prove itself. */
#define HF_PEER_GRACE	(HZ / 10)

static u32 peer_hash(const struct hf_net *hn, int ifindex, const u8 *addr)
{
	return hf_addr_hash(&hn->peer_key, ifindex, addr);
}

static struct hf_peer *peer_find(struct hf_net *hn, int ifindex,
				 const u8 *addr)
{
	struct hf_peer *peer;

	hash_for_each_possible_rcu(hn->peers, peer, node,
				   peer_hash(hn, ifindex, addr))
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
	kvfree(peer->out.ring);
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
	refcount_set(&peer->refs, 1);
	peer->net = net;
	peer->cfg = &hf_net(net)->config;
	peer->dev = dev;
	dev_hold(dev);
	ether_addr_copy(peer->addr, addr);
	spin_lock_init(&peer->lock);
	peer->last_active = jiffies;
	peer->created = jiffies;
	/* No one sees it yet: its lock is taken for what the inits assert. */
	spin_lock_bh(&peer->lock);
	hf_output_init(peer);
	hf_input_init(peer);
	spin_unlock_bh(&peer->lock);
	return peer;
}

/* Which peers peer_kill() kills. */
enum hf_peer_kill {
	HF_KILL_ALL,		/* every one: device or namespace going */
	HF_KILL_IDLE,		/* silent for peer_idle_ms, nothing in flight */
	HF_KILL_EVICT,		/* one that may make room (peer_evictable()) */
};

/*
 * Whether @peer proved its address: it answered us (an ACK of our epoch),
 * or its DATA echoed our state, which only our ACKs carry. Neither can a
 * spoofed source or an absent address do.
 */
static bool peer_proven(const struct hf_peer *peer)
{
	return READ_ONCE(peer->out.answered) || READ_ONCE(peer->in.ep.echoed);
}

/*
 * Whether @peer may be forgotten without failing anything: nothing in
 * flight either way, and silent for flow_reset_ms, after which its sender
 * starts a new epoch that any receiver adopts. A peer forgotten sooner
 * would have its next message answered LOST and the flow reset. Its lock
 * held, or a guess without it (peer_evict()).
 */
static bool peer_quiet(const struct hf_peer *peer)
{
	unsigned long reset = msecs_to_jiffies(READ_ONCE(peer->cfg->p.flow_reset_ms));

	return hf_output_idle(peer) && !READ_ONCE(peer->in.reserved) &&
	       time_after(jiffies, READ_ONCE(peer->last_active) + reset);
}

/*
 * Whether @peer, never proven, has had its round trip to prove itself: a
 * new real peer needs one exchange of DATA and ACK, and a flood of
 * strangers must not push it out before that.
 */
static bool peer_grown(const struct hf_peer *peer)
{
	return time_after(jiffies, READ_ONCE(peer->created) + HF_PEER_GRACE);
}

/*
 * Whether @peer may be evicted to make room for a new one: it never proved
 * its address (and had the time to), or it has nothing in flight. Its
 * lock held.
 */
static bool peer_evictable(const struct hf_peer *peer)
{
	return (!peer_proven(peer) && peer_grown(peer)) || peer_quiet(peer);
}

/*
 * Mark a peer dead, when @how selects it; checked and marked under one
 * hold of its lock, so no message can slip in between. A dead peer takes
 * no new work, so the messages it holds, counted in @msgs, are exactly
 * those peer_finish() fails; peers_lock held, the caller unlinks it.
 */
static bool peer_kill(struct hf_peer *peer, enum hf_peer_kill how, u32 *msgs)
{
	unsigned long idle_jiffies = msecs_to_jiffies(READ_ONCE(peer->cfg->p.peer_idle_ms));
	bool kill = true;

	lockdep_assert_held(&hf_net(peer->net)->peers_lock);
	spin_lock(&peer->lock);
	/*
	 * A peer silent for peer_idle_ms with nothing of ours in flight
	 * goes, with any message it left half sent: its sender has given up
	 * or gone.
	 */
	if (how == HF_KILL_IDLE)
		kill = hf_output_idle(peer) &&
		       !time_before(jiffies, peer->last_active + idle_jiffies);
	else if (how == HF_KILL_EVICT)
		kill = !peer->dead && peer_evictable(peer);
	if (kill) {
		peer->dead = true;
		*msgs = hf_output_queued_msgs(peer);
	}
	spin_unlock(&peer->lock);
	return kill;
}

/* Whether @peer was silent longer than @than, which may be NULL. */
static bool peer_older(const struct hf_peer *peer, const struct hf_peer *than)
{
	return !than || time_before(READ_ONCE(peer->last_active),
				    READ_ONCE(than->last_active));
}

/*
 * Make room in a full table: the peer that never proved its address and
 * was silent longest goes, else the quiet one silent longest (both read
 * without their locks: a guess, checked by peer_kill()). It is unlinked
 * now and finished by hf_peer_evicted_work(), outside this context,
 * failing its messages with EHOSTUNREACH. peers_lock held.
 *
 * Return: true when a peer was evicted.
 */
static bool peer_evict(struct hf_net *hn)
{
	struct hf_peer *peer, *unproven = NULL, *quiet = NULL;
	unsigned int bkt;
	u32 msgs;

	lockdep_assert_held(&hn->peers_lock);
	hash_for_each(hn->peers, bkt, peer, node) {
		if (!peer_proven(peer)) {
			if (peer_grown(peer) && peer_older(peer, unproven))
				unproven = peer;
		} else if (peer_quiet(peer) && peer_older(peer, quiet)) {
			quiet = peer;
		}
	}
	peer = unproven ?: quiet;
	if (!peer || !peer_kill(peer, HF_KILL_EVICT, &msgs))
		return false;
	hash_del_rcu(&peer->node);
	hn->npeers--;
	list_add_tail(&peer->gc_node, &hn->evicted);
	hf_genl_event_peer_down(peer, HF_EVENT_REASON_EVICTED, msgs, EHOSTUNREACH);
	hf_stat_inc(&hn->stats, HF_STAT_PEERS_EVICTED);
	schedule_work(&hn->evict_work);
	return true;
}

/*
 * Whether the table has room for a new peer, once a peer was evicted if
 * it had none: a peer that proved its address (@how) may take it an
 * eighth beyond max_peers. peers_lock held.
 */
static bool peer_room(struct hf_net *hn, enum hf_peer_get_how how)
{
	u32 max = READ_ONCE(hn->config.p.max_peers);

	lockdep_assert_held(&hn->peers_lock);
	if (hn->npeers < max || peer_evict(hn))
		return true;
	return how == HF_PEER_CREATE_PROVEN && hn->npeers < max + max / 8 + 1;
}

/**
 * hf_peer_get() - find, or create, the peer behind an interface and address
 * @net: the namespace
 * @dev: the interface
 * @addr: the remote Ethernet address
 * @how: whether to create the peer when it does not exist, and whom a
 *	 full table may evict for it (enum hf_peer_get_how)
 * @err: set to -ENOBUFS when max_peers is reached and no peer may be
 *	 evicted, -ENOMEM when memory is short, -ENODEV when @dev is going,
 *	 -ENOENT when it does not exist and @how is HF_PEER_FIND
 *
 * Any context. A full table evicts a peer to make room (design note 2).
 *
 * Return: the peer with a reference for the caller (hf_peer_put()), or
 * NULL with @err set.
 */
struct hf_peer *hf_peer_get(struct net *net, struct net_device *dev,
			    const u8 *addr, enum hf_peer_get_how how, int *err)
{
	struct hf_net *hn = hf_net(net);
	struct hf_peer *peer, *fresh;

	rcu_read_lock();
	peer = peer_find(hn, dev->ifindex, addr);
	if (peer && !refcount_inc_not_zero(&peer->refs))
		peer = NULL;
	rcu_read_unlock();
	if (peer || how == HF_PEER_FIND) {
		*err = peer ? 0 : -ENOENT;
		return peer;
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
	} else if (dev->reg_state != NETREG_REGISTERED) {
		*err = -ENODEV;
	} else if (!peer_room(hn, how)) {
		*err = -ENOBUFS;
	} else {
		peer = fresh;
		fresh = NULL;
		peer->dstats = hf_dev_stats_get(hn, dev);
		refcount_inc(&peer->refs);
		hash_add_rcu(hn->peers, &peer->node,
			     peer_hash(hn, dev->ifindex, addr));
		hn->npeers++;
		hf_genl_event_peer_up(peer);
	}
	spin_unlock_bh(&hn->peers_lock);

	if (fresh) {
		dev_put(fresh->dev);
		kfree(fresh);
	}
	if (peer)
		*err = 0;
	return peer;
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
	hf_epoch_rx_forget(&peer->in.ep);
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
		if (!peer_kill(peer, idle ? HF_KILL_IDLE : HF_KILL_ALL, &msgs))
			continue;
		hash_del_rcu(&peer->node);
		hn->npeers--;
		list_add(&peer->gc_node, &victims);
		hf_genl_event_peer_down(peer, reason, msgs, ENETDOWN);
		if (idle)
			hf_stat_inc(&hn->stats, HF_STAT_PEERS_RECLAIMED);
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
 * hf_peer_evicted_work() - finish the peers evicted from a full table
 * @work: the namespace's evict_work
 *
 * Process context (a workqueue).
 */
void hf_peer_evicted_work(struct work_struct *work)
{
	struct hf_net *hn = container_of(work, struct hf_net, evict_work);
	struct hf_peer *peer;

	for (;;) {
		spin_lock_bh(&hn->peers_lock);
		peer = list_first_entry_or_null(&hn->evicted, struct hf_peer,
						gc_node);
		if (peer)
			list_del(&peer->gc_node);
		spin_unlock_bh(&hn->peers_lock);
		if (!peer)
			return;
		peer_finish(peer, EHOSTUNREACH);
	}
}

/**
 * hf_peer_gc() - the namespace's periodic pass: drop reassembly that made
 * no progress (hf_input_expire()), then free peers with nothing in flight
 * either way that have been silent for peer_idle_ms
 * @net: the namespace
 *
 * Process context.
 */
void hf_peer_gc(struct net *net)
{
	struct hf_net *hn = hf_net(net);
	struct hf_peer *peer;
	unsigned int bkt;

	rcu_read_lock();
	hash_for_each_rcu(hn->peers, bkt, peer, node) {
		spin_lock_bh(&peer->lock);
		if (!peer->dead)
			hf_input_expire(peer);
		spin_unlock_bh(&peer->lock);
	}
	rcu_read_unlock();
	peer_flush(net, NULL, true);
}
