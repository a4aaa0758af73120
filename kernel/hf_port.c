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
 * 3. A socket bound to an interface (bind()'s shf_ifindex or
 *    SO_BINDTODEVICE: one binding, sk_bound_dev_if) takes only what
 *    arrives on it: the lookup compares one integer, and for a message
 *    from another interface the port is as good as closed. A port stays
 *    one socket's, whatever its interface.
 * 4. Ports below HF_PORT_PRIVILEGED need CAP_NET_BIND_SERVICE in the user
 *    namespace that owns the socket's network namespace, as for IP.
 */
#include <linux/capability.h>
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
 * hf_port_bind() - give a socket a port in its namespace, and optionally
 * bind it to an interface
 * @sk: an unbound socket; caller holds the socket lock (as SO_BINDTODEVICE
 *	does, so sk_bound_dev_if cannot change under us)
 * @port: the port wanted, or 0 for an ephemeral one
 * @ifindex: the interface to bind to, as SO_BINDTODEVICE would; 0 leaves
 *	     the socket's binding as it is
 *
 * The binding is in place before the port is visible to the receive path,
 * so no message from another interface slips in between.
 *
 * Return: 0; -EACCES for a port below HF_PORT_PRIVILEGED without
 * CAP_NET_BIND_SERVICE over the namespace; -EINVAL when @ifindex differs
 * from the interface the socket is bound to already; -EADDRINUSE when
 * @port is taken or no ephemeral port is free.
 */
int hf_port_bind(struct sock *sk, u16 port, int ifindex)
{
	struct hf_net *hn = hf_net(sock_net(sk));
	struct hf_sock *hs = hf_sk(sk);
	int bound = sk->sk_bound_dev_if;
	int err = 0;

	if (port && port < HF_PORT_PRIVILEGED &&
	    !ns_capable(sock_net(sk)->user_ns, CAP_NET_BIND_SERVICE))
		return -EACCES;
	if (ifindex && bound && ifindex != bound)
		return -EINVAL;

	spin_lock_bh(&hn->ports_lock);
	if (!port)
		port = port_pick_ephemeral(hn);
	if (!port || port_find(hn, port)) {
		err = -EADDRINUSE;
		goto out;
	}
	if (ifindex)
		WRITE_ONCE(sk->sk_bound_dev_if, ifindex);
	hs->port = port;
	/* Publishes the socket, its binding written before. */
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
 * hf_port_lookup() - find the socket that takes a port's messages from an
 * interface
 * @net: the namespace
 * @port: the port
 * @ifindex: the interface the message arrived on
 * @other_dev: if not NULL, set to whether the port's socket is bound to
 *	       another interface (NULL is returned then)
 *
 * Safe in any context; takes the RCU read lock itself.
 *
 * Return: the socket with a reference the caller must drop with
 * sock_put(), or NULL when none is bound to @port or the one bound is
 * bound to another interface than @ifindex.
 */
struct sock *hf_port_lookup(struct net *net, u16 port, int ifindex,
			    bool *other_dev)
{
	struct sock *sk = NULL;
	struct hf_sock *hs;
	int bound;

	if (other_dev)
		*other_dev = false;
	rcu_read_lock();
	hs = port_find(hf_net(net), port);
	if (hs) {
		bound = READ_ONCE(hs->sk.sk_bound_dev_if);
		if (bound && bound != ifindex) {
			if (other_dev)
				*other_dev = true;
		} else if (refcount_inc_not_zero(&hs->sk.sk_refcnt)) {
			sk = &hs->sk;
		}
	}
	rcu_read_unlock();
	return sk;
}
