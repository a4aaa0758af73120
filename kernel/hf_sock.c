// SPDX-License-Identifier: GPL-2.0
/*
 * hf_sock.c - the AF_HYPERFRAME socket family: socket creation, the
 * SOCK_RDM operations table and release.
 *
 * Only SOCK_RDM exists: reliable, message-oriented, unconnected, one socket
 * talking to many peers. Any other type fails with ESOCKTNOSUPPORT and any
 * protocol but 0 with EPROTONOSUPPORT, so programs can probe for support.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/net.h>
#include <linux/socket.h>
#include <net/sock.h>
#include <linux/hyperframe.h>

#include "hf_sock.h"

static struct proto hf_proto = {
	.name		= "HYPERFRAME",
	.owner		= THIS_MODULE,
	.obj_size	= sizeof(struct hf_sock),
};

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
	.bind		= sock_no_bind,
	.connect	= sock_no_connect,
	.socketpair	= sock_no_socketpair,
	.accept		= sock_no_accept,
	.getname	= sock_no_getname,
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
