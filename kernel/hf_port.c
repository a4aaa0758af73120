// SPDX-License-Identifier: GPL-2.0
/*
 * hf_port.c - the per-namespace port table.
 *
 * Design notes:
 * 1. Writers (bind, close) take the namespace's ports_lock; the receive
 *    path looks ports up under RCU only, and takes a reference with
 *    refcount_inc_not_zero(). Sockets are SOCK_RCU_FREE, so a socket found
 *    in a bucket stays valid memory for the rest of the RCU section even
 *    if it is being closed.
 * 2. Ephemeral ports come from the IANA dynamic range, searched from a
 *    per-namespace cursor that starts at a random point, so a port just
 *    released is not handed out again at once.
 */
#include <linux/hashtable.h>
#include <linux/rculist.h>

#include "hf_net.h"
#include "hf_port.h"
#include "hf_sock.h"

static struct hf_sock *port_find(struct hf_net *hn, u16 port)
{
	struct hf_sock *hs;

	hash_for_each_possible_rcu(hn->ports, hs, port_node, port)
		if (hs->port == port)
			return hs;
	return NULL;
}

static u16 port_pick_ephemeral(struct hf_net *hn)
{
	const u32 range = HF_EPHEMERAL_MAX - HF_EPHEMERAL_MIN + 1;
	u32 i;

	for (i = 0; i < range; i++) {
		u16 port = hn->next_ephemeral;

		hn->next_ephemeral = port == HF_EPHEMERAL_MAX ?
				     HF_EPHEMERAL_MIN : port + 1;
		if (!port_find(hn, port))
			return port;
	}
	return 0;
}

/**
 * hf_port_bind() - give a socket a port in its namespace
 * @sk: an unbound socket; caller holds the socket lock
 * @port: the port wanted, or 0 for an ephemeral one
 *
 * Return: 0; -EADDRINUSE when @port is taken or no ephemeral port is free.
 */
int hf_port_bind(struct sock *sk, u16 port)
{
	struct hf_net *hn = hf_net(sock_net(sk));
	struct hf_sock *hs = hf_sk(sk);
	int err = 0;

	spin_lock_bh(&hn->ports_lock);
	if (!port)
		port = port_pick_ephemeral(hn);
	if (!port || port_find(hn, port)) {
		err = -EADDRINUSE;
		goto out;
	}
	hs->port = port;
	hash_add_rcu(hn->ports, &hs->port_node, port);
out:
	spin_unlock_bh(&hn->ports_lock);
	return err;
}

/**
 * hf_port_unbind() - release a socket's port, if it has one
 * @sk: the socket; caller holds the socket lock
 */
void hf_port_unbind(struct sock *sk)
{
	struct hf_net *hn = hf_net(sock_net(sk));
	struct hf_sock *hs = hf_sk(sk);

	if (!hs->port)
		return;
	spin_lock_bh(&hn->ports_lock);
	hash_del_rcu(&hs->port_node);
	spin_unlock_bh(&hn->ports_lock);
	hs->port = 0;
}

/**
 * hf_port_lookup() - find the socket bound to a port
 * @net: the namespace
 * @port: the port
 *
 * Safe in any context; takes the RCU read lock itself.
 *
 * Return: the socket with a reference the caller must drop with
 * sock_put(), or NULL.
 */
struct sock *hf_port_lookup(struct net *net, u16 port)
{
	struct hf_sock *hs;
	struct sock *sk = NULL;

	rcu_read_lock();
	hs = port_find(hf_net(net), port);
	if (hs && refcount_inc_not_zero(&hs->sk.sk_refcnt))
		sk = &hs->sk;
	rcu_read_unlock();
	return sk;
}
