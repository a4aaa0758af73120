// SPDX-License-Identifier: GPL-2.0
/*
 * hf_sock.c - the AF_HYPERFRAME socket family: socket creation, the
 * SOCK_RDM operations table and release.
 *
 * Only SOCK_RDM exists: reliable, message-oriented, unconnected, one socket
 * talking to many peers. Any other type fails with ESOCKTNOSUPPORT and any
 * protocol but 0 with EPROTONOSUPPORT, so programs can probe for support.
 *
 * Addresses are struct sockaddr_hf. Every address a user passes goes
 * through hf_check_addr(), which gives each defect its own errno: a short
 * length EINVAL, another family EAFNOSUPPORT, non-zero padding EINVAL, an
 * interface missing from the socket's namespace ENODEV.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/net.h>
#include <linux/socket.h>
#include <net/sock.h>
#include <linux/hyperframe.h>

#include <linux/etherdevice.h>
#include <linux/netdevice.h>

#include "hf_port.h"
#include "hf_sock.h"

static struct proto hf_proto = {
	.name		= "HYPERFRAME",
	.owner		= THIS_MODULE,
	.obj_size	= sizeof(struct hf_sock),
};

/**
 * hf_check_addr() - validate an address passed by the user
 * @sk: the socket it is for
 * @uaddr: the address
 * @len: its length as passed
 *
 * Return: 0, -EINVAL (short, or non-zero padding), -EAFNOSUPPORT (not our
 * family) or -ENODEV (no such interface in the socket's namespace).
 */
static int hf_check_addr(struct sock *sk, const struct sockaddr *uaddr,
			 int len)
{
	const struct sockaddr_hf *addr = (const struct sockaddr_hf *)uaddr;

	if (len < (int)sizeof(*addr))
		return -EINVAL;
	if (addr->shf_family != sk->sk_family)
		return -EAFNOSUPPORT;
	if (addr->shf_zero[0] || addr->shf_zero[1])
		return -EINVAL;
	if (addr->shf_ifindex < 0)
		return -ENODEV;
	if (addr->shf_ifindex) {
		struct net_device *dev;

		rcu_read_lock();
		dev = dev_get_by_index_rcu(sock_net(sk), addr->shf_ifindex);
		rcu_read_unlock();
		if (!dev)
			return -ENODEV;
	}
	return 0;
}

/**
 * hf_bind() - give a socket its port (and optionally an interface)
 * @sock: the socket
 * @uaddr: a struct sockaddr_hf; port 0 asks for an ephemeral port
 * @len: length of @uaddr
 *
 * Return: 0, an hf_check_addr() errno, -EINVAL when already bound,
 * -EADDRINUSE when the port is taken (or no ephemeral port is free).
 */
static int hf_bind(struct socket *sock, struct sockaddr *uaddr, int len)
{
	const struct sockaddr_hf *addr = (const struct sockaddr_hf *)uaddr;
	struct sock *sk = sock->sk;
	struct hf_sock *hs = hf_sk(sk);
	int err;

	err = hf_check_addr(sk, uaddr, len);
	if (err)
		return err;

	lock_sock(sk);
	if (hs->port) {
		err = -EINVAL;
		goto out;
	}
	err = hf_port_bind(sk, addr->shf_port);
	if (!err)
		hs->bound_ifindex = addr->shf_ifindex;
out:
	release_sock(sk);
	return err;
}

/**
 * hf_autobind() - bind to an ephemeral port if not bound yet
 * @sk: the socket; caller holds the socket lock
 *
 * Return: 0 or -EADDRINUSE when no ephemeral port is free.
 */
static int hf_autobind(struct sock *sk)
{
	return hf_sk(sk)->port ? 0 : hf_port_bind(sk, 0);
}

/**
 * hf_connect() - set or clear the default destination, as UDP does
 * @sock: the socket
 * @uaddr: a struct sockaddr_hf naming port, interface and peer address;
 *	   AF_UNSPEC clears the default destination
 * @len: length of @uaddr
 * @flags: file flags (unused: nothing to wait for)
 *
 * Binds an ephemeral port first when the socket is unbound.
 *
 * Return: 0, an hf_check_addr() errno, -EINVAL for port 0, interface 0 or
 * an address that is not a unicast Ethernet address, -EADDRINUSE.
 */
static int hf_connect(struct socket *sock, struct sockaddr *uaddr, int len,
		      int flags)
{
	const struct sockaddr_hf *addr = (const struct sockaddr_hf *)uaddr;
	struct sock *sk = sock->sk;
	struct hf_sock *hs = hf_sk(sk);
	int err;

	if (len >= (int)sizeof(uaddr->sa_family) &&
	    uaddr->sa_family == AF_UNSPEC) {
		lock_sock(sk);
		hs->has_peer = false;
		release_sock(sk);
		return 0;
	}

	err = hf_check_addr(sk, uaddr, len);
	if (err)
		return err;
	if (!addr->shf_port || !addr->shf_ifindex ||
	    !is_valid_ether_addr(addr->shf_addr))
		return -EINVAL;

	lock_sock(sk);
	err = hf_autobind(sk);
	if (!err) {
		hs->peer = *addr;
		hs->has_peer = true;
	}
	release_sock(sk);
	return err;
}

/**
 * hf_getname() - the local address, or the default destination
 * @sock: the socket
 * @uaddr: where to write a struct sockaddr_hf
 * @peer: non-zero for the destination set by connect()
 *
 * Return: the address length, or -ENOTCONN when @peer is asked for and
 * none is set.
 */
static int hf_getname(struct socket *sock, struct sockaddr *uaddr, int peer)
{
	struct sockaddr_hf *addr = (struct sockaddr_hf *)uaddr;
	struct sock *sk = sock->sk;
	struct hf_sock *hs = hf_sk(sk);
	int err = sizeof(*addr);

	lock_sock(sk);
	if (peer) {
		if (hs->has_peer)
			*addr = hs->peer;
		else
			err = -ENOTCONN;
	} else {
		memset(addr, 0, sizeof(*addr));
		addr->shf_family = sk->sk_family;
		addr->shf_port = hs->port;
		addr->shf_ifindex = hs->bound_ifindex;
	}
	release_sock(sk);
	return err;
}

/**
 * hf_release() - close a socket
 * @sock: the socket being closed; called once, in process context
 *
 * Return: 0.
 */
static int hf_release(struct socket *sock)
{
	struct sock *sk = sock->sk;

	if (!sk)
		return 0;

	lock_sock(sk);
	hf_port_unbind(sk);
	sock_orphan(sk);
	release_sock(sk);
	sock->sk = NULL;
	sock_put(sk);
	return 0;
}

/* The family is the module parameter's: both tables are set at init. */
static struct proto_ops hf_rdm_ops __ro_after_init = {
	.family		= AF_HYPERFRAME,
	.owner		= THIS_MODULE,
	.release	= hf_release,
	.bind		= hf_bind,
	.connect	= hf_connect,
	.socketpair	= sock_no_socketpair,
	.accept		= sock_no_accept,
	.getname	= hf_getname,
	.poll		= datagram_poll,
	.ioctl		= sock_no_ioctl,
	.listen		= sock_no_listen,
	.shutdown	= sock_no_shutdown,
	.sendmsg	= sock_no_sendmsg,
	.recvmsg	= sock_no_recvmsg,
	.mmap		= sock_no_mmap,
};

/**
 * hf_create() - create an AF_HYPERFRAME socket
 * @net: network namespace the socket lives in
 * @sock: the new socket, with its type set
 * @protocol: must be 0
 * @kern: whether the kernel itself opens the socket
 *
 * Return: 0, -ESOCKTNOSUPPORT for a type other than SOCK_RDM,
 * -EPROTONOSUPPORT for a protocol other than 0, -ENOMEM.
 */
static int hf_create(struct net *net, struct socket *sock, int protocol,
		     int kern)
{
	struct sock *sk;

	if (sock->type != SOCK_RDM)
		return -ESOCKTNOSUPPORT;
	if (protocol)
		return -EPROTONOSUPPORT;

	sk = sk_alloc(net, hf_rdm_ops.family, GFP_KERNEL, &hf_proto, kern);
	if (!sk)
		return -ENOMEM;

	sock->ops = &hf_rdm_ops;
	sock->state = SS_UNCONNECTED;
	sock_init_data(sock, sk);
	sk->sk_protocol = protocol;
	/* The port lookup finds sockets under RCU alone. */
	sock_set_flag(sk, SOCK_RCU_FREE);
	return 0;
}

static struct net_proto_family hf_family_ops __ro_after_init = {
	.family	= AF_HYPERFRAME,
	.create	= hf_create,
	.owner	= THIS_MODULE,
};

/**
 * hf_sock_register() - register the protocol and the address family
 * @family: the address family slot to take (module parameter "family")
 *
 * Return: 0; -ENOBUFS when @family is not below AF_MAX (out-of-tree code
 * cannot extend the family table); -EEXIST when another protocol holds it.
 */
int __init hf_sock_register(int family)
{
	int err;

	if (family <= AF_UNSPEC || family >= NPROTO) {
		pr_err("family=%d is outside 1..%d: a module cannot extend AF_MAX\n",
		       family, NPROTO - 1);
		return -ENOBUFS;
	}

	/* Set once, before anything can reach the tables. */
	hf_family_ops.family = family;
	hf_rdm_ops.family = family;

	err = proto_register(&hf_proto, 1);
	if (err)
		return err;

	err = sock_register(&hf_family_ops);
	if (err) {
		if (err == -EEXIST)
			pr_err("address family %d is taken by another protocol; load with family=N naming a free slot\n",
			       family);
		proto_unregister(&hf_proto);
		return err;
	}
	return 0;
}

/**
 * hf_sock_unregister() - undo hf_sock_register()
 *
 * No socket can exist here: each holds a reference on the module.
 */
void hf_sock_unregister(void)
{
	sock_unregister(hf_family_ops.family);
	proto_unregister(&hf_proto);
}
