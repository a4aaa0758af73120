/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_net.h - per-network-namespace state of hyperframe: the port table
 * (ports are per namespace), the namespace's settings, counters, limits
 * and peers.
 */
#ifndef _HF_NET_H
#define _HF_NET_H

#include <linux/hashtable.h>
#include <linux/netdevice.h>
#include <linux/siphash.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "core/hf_rxsched.h"
#include "hf_params.h"
#include "hf_stats.h"

#define HF_PORT_HASH_BITS	8
#define HF_PEER_HASH_BITS	8
/* LOST answers to strangers are limited per this many buckets of addresses. */
#define HF_STRANGER_BUCKETS	64

/**
 * struct hf_reply_limit - the answers to flows we do not hold (challenges
 * and LOST, hf_ack.c) sent to one address, or one bucket of addresses,
 * in the current window: hf_reply_allowed() keeps them to a trickle
 * @at: jiffies when the window began
 * @challenges: challenges sent in it
 * @losts: LOST answers sent in it
 */
struct hf_reply_limit {
	unsigned long at;
	u8 challenges;
	u8 losts;
};

/* Ephemeral ports: the IANA dynamic range. */
#define HF_EPHEMERAL_MIN	49152
#define HF_EPHEMERAL_MAX	65535

/**
 * struct hf_net - hyperframe state of one network namespace
 * @ports_lock: serialises changes to @ports; readers use RCU
 * @ports: bound sockets hashed by port
 * @next_ephemeral: where the next ephemeral port search starts
 * @peers_lock: serialises changes to @peers; readers use RCU
 * @peers: peers hashed by interface and address
 * @npeers: peers in @peers
 * @rx_mem: bytes of reassembly held for peers (skb truesize)
 * @rx_reserved: bytes reserved by the messages being reassembled; a new
 *		 message is admitted only while this stays within mem_limit
 * @rx_credit_active: peers whose sent bytes our programs have not all
 *		      read yet: the credit budget is shared among them
 * @rxsched_lock: serialises @rxsched (taken under a peer's lock)
 * @rxsched: the senders the receiver schedules (rx_sched, hf_grant.c):
 *	     a slot per peer with messages on their way to us
 * @gc: reclaims idle peers and stalled reassembly (hf_peer_gc())
 * @evicted: peers evicted from the full table, waiting for @evict_work
 *	     (under @peers_lock)
 * @evict_work: finishes them (hf_peer_evicted_work())
 * @peer_key: the random key of the peer table's hash
 * @stats: counters
 * @devs_lock: serialises the allocation of @devs and their users
 * @devs: per-device counters, a slot per device (hf_dev.c)
 * @dev_other: the counters of devices that found no free slot
 * @config: the namespace's settings (hf_params.h); a new namespace
 *	    starts with the initial namespace's
 * @cookie_key: the random key of the challenge cookies (hf_ack.c)
 * @stranger_key: the random key that buckets the addresses of
 *		  @stranger_replies
 * @stranger_lock: serialises @stranger_replies
 * @stranger_replies: the LOST answers to nodes a full peer table has no
 *		      room for (hf_input.c, hf_rx_stranger()), per bucket of
 *		      addresses
 * @net: the namespace this belongs to
 */
struct hf_net {
	spinlock_t ports_lock;
	DECLARE_HASHTABLE(ports, HF_PORT_HASH_BITS);
	u16 next_ephemeral;
	spinlock_t peers_lock;
	DECLARE_HASHTABLE(peers, HF_PEER_HASH_BITS);
	u32 npeers;
	atomic64_t rx_mem;
	atomic64_t rx_reserved;
	atomic_t rx_credit_active;
	spinlock_t rxsched_lock;
	struct hf_rxsched_sender rxsched[HF_RXSCHED_SLOTS];
	struct delayed_work gc;
	struct list_head evicted;
	struct work_struct evict_work;
	siphash_key_t peer_key;
	struct hf_stats stats;
	spinlock_t devs_lock;
	struct hf_dev_stats devs[HF_DEV_SLOTS];
	struct hf_dev_stats dev_other;
	struct hf_config config;
	siphash_key_t cookie_key;
	siphash_key_t stranger_key;
	spinlock_t stranger_lock;
	struct hf_reply_limit stranger_replies[HF_STRANGER_BUCKETS];
	struct net *net;
};

extern unsigned int hf_net_id;

static inline struct hf_net *hf_net(const struct net *net)
{
	return net_generic(net, hf_net_id);
}

int hf_devs_init(struct hf_net *hn);
void hf_devs_free(struct hf_net *hn);
struct hf_dev_stats *hf_dev_stats_get(struct hf_net *hn,
				      const struct net_device *dev);
void hf_dev_stats_put(struct hf_net *hn, struct hf_dev_stats *d);
struct hf_dev_stats *hf_dev_stats_find(struct hf_net *hn,
				       const struct net_device *dev);
void hf_dev_stats_gone(struct hf_net *hn, const struct net_device *dev);
void hf_dev_drop(struct hf_net *hn, const struct net_device *dev,
		 enum hf_stat why);

int __init hf_net_register(void);
void hf_net_unregister(void);

#endif /* _HF_NET_H */
