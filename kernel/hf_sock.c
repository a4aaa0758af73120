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
 *
 * A socket bound to an interface (bind()'s shf_ifindex or SO_BINDTODEVICE,
 * one binding) receives only what arrives on it (hf_port.c) and sends only
 * through it: a destination on another interface is ENETUNREACH, as IP
 * says when SO_BINDTODEVICE leaves no route to a destination.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/net.h>
#include <linux/socket.h>
#include <net/sock.h>
#include <linux/hyperframe.h>

#include <linux/errqueue.h>
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/netdevice.h>
#include <linux/sockios.h>
#include <asm/ioctls.h>

#include "hf_input.h"
#include "hf_mem.h"
#include "hf_net.h"
#include "hf_output.h"
#include "hf_params.h"
#include "hf_peer.h"
#include "hf_port.h"
#include "hf_sock.h"

/*
 * The buffers a new socket starts with (as tcp_wmem[1] and tcp_rmem[1]
 * are TCP's own). Messages are MiB-class and each is reserved whole at
 * the receiver: at the system's rmem_default (208 KiB) a socket would
 * take one message at a time from all its sources, the others held back
 * a round trip each. The send side keeps the system's default: what a
 * bulk socket sends waits in its peer's one flow below the scheduler, so
 * a deep send buffer would hold another socket's small message to that
 * peer behind it (3.5 s at 16 MiB in hf_hfq.sh's ping-pong case).
 * SO_SNDBUF and SO_RCVBUF still set either; the module-wide limit
 * (hf_mem.c), the namespace's mem_limit and the memory cgroup bound what
 * they hold.
 */
static unsigned int hf_sock_sndbuf;
module_param_named(sndbuf, hf_sock_sndbuf, uint, 0644);
MODULE_PARM_DESC(sndbuf,
		 "SO_SNDBUF of a new socket, bytes (default 0: net.core.wmem_default)");

static unsigned int hf_sock_rcvbuf = 16 << 20;
module_param_named(rcvbuf, hf_sock_rcvbuf, uint, 0644);
MODULE_PARM_DESC(rcvbuf,
		 "SO_RCVBUF of a new socket, bytes (0: net.core.rmem_default; default 16 MiB)");

/* A buffer default in bytes, as sk_sndbuf and sk_rcvbuf may hold it. */
static int hf_sock_buf(unsigned int bytes, int min)
{
	return clamp_t(unsigned int, bytes, min, INT_MAX / 2);
}

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

/* A destination must name a port, an interface and a unicast address. */
static int hf_check_dest(struct sock *sk, const struct sockaddr_hf *addr,
			 int len)
{
	int err = hf_check_addr(sk, (const struct sockaddr *)addr, len);

	if (err)
		return err;
	if (!addr->shf_port || !addr->shf_ifindex ||
	    !is_valid_ether_addr(addr->shf_addr))
		return -EINVAL;
	return 0;
}

/*
 * Whether the socket may send to (or connect to) a destination on
 * @ifindex: any when it is bound to no interface, else its own only.
 */
static int hf_check_route(const struct sock *sk, int ifindex)
{
	int bound = hf_sock_bound_ifindex(sk);

	return bound && bound != ifindex ? -ENETUNREACH : 0;
}

/**
 * hf_bind() - give a socket its port (and optionally an interface)
 * @sock: the socket
 * @uaddr: a struct sockaddr_hf; port 0 asks for an ephemeral port; a
 *	   non-zero shf_ifindex binds the socket to that interface, as
 *	   SO_BINDTODEVICE does
 * @len: length of @uaddr
 *
 * Return: 0, an hf_check_addr() errno, -EINVAL when already bound (to a
 * port, or to another interface than @uaddr names), -EACCES for a port
 * below 1024 without CAP_NET_BIND_SERVICE, -EADDRINUSE when the port is
 * taken (or no ephemeral port is free).
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
	err = hf_port_bind(sk, addr->shf_port, addr->shf_ifindex);
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
	return hf_sk(sk)->port ? 0 : hf_port_bind(sk, 0, 0);
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
 * an address that is not a unicast Ethernet address, -ENETUNREACH for an
 * interface other than the one the socket is bound to, -EADDRINUSE.
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
	err = hf_check_route(sk, addr->shf_ifindex);
	if (!err)
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
		addr->shf_ifindex = hf_sock_bound_ifindex(sk);
	}
	release_sock(sk);
	return err;
}

/*
 * Whether one more message charged @charge bytes fits the send buffer:
 * what the socket's unfinished messages hold and this one within
 * SO_SNDBUF, or nothing held at all (a message larger than the buffer
 * goes alone). @used: what they hold now. The write charge is a
 * refcount_t: it also stays far from INT_MAX, whatever SO_SNDBUF allows.
 */
static bool hf_sndbuf_fits(const struct sock *sk, int used, u64 charge)
{
	return (!used || (u64)used + charge <= (u64)READ_ONCE(sk->sk_sndbuf)) &&
	       (u64)used + charge < INT_MAX / 2;
}

/*
 * Wait until a message charged @charge bytes fits the socket's send buffer
 * (hf_sndbuf_fits()). Socket lock held; released while waiting.
 */
static int hf_wait_sock_room(struct sock *sk, u64 charge, long *timeo)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	int err = 0;

	add_wait_queue(sk_sleep(sk), &wait);
	for (;;) {
		if (hf_sndbuf_fits(sk, sk_wmem_alloc_get(sk), charge))
			break;
		sk_set_bit(SOCKWQ_ASYNC_NOSPACE, sk);
		set_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
		if (!*timeo) {
			err = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			err = sock_intr_errno(*timeo);
			break;
		}
		release_sock(sk);
		*timeo = wait_woken(&wait, TASK_INTERRUPTIBLE, *timeo);
		lock_sock(sk);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	return err;
}

/*
 * Wait until a message charged @charge bytes fits the socket's send buffer
 * and the module-wide limit (hf_mem.c), and charge the latter: @pages
 * are the caller's to pass on to the message, or to give back. Socket
 * lock held; released while waiting.
 */
static int hf_wait_sndbuf(struct sock *sk, u64 charge, unsigned long pages,
			  long *timeo)
{
	int used, err;

	sock_owned_by_me(sk);
	for (;;) {
		err = hf_wait_sock_room(sk, charge, timeo);
		if (err)
			return err;
		used = sk_wmem_alloc_get(sk);
		if (hf_mem_charge(pages, !used))
			return 0;
		hf_stat_inc(&hf_net(sock_net(sk))->stats, HF_STAT_TX_MEM_WAITS);
		release_sock(sk);
		err = hf_mem_wait(pages, !used, timeo);
		lock_sock(sk);
		if (err)
			return err;
		/* Others of this socket may have sent meanwhile. */
		if (hf_sndbuf_fits(sk, sk_wmem_alloc_get(sk), charge))
			return 0;
		hf_mem_uncharge(pages);
	}
}

/**
 * hf_dest_dev() - the interface a message leaves through, if it can
 * @net: the sender's namespace
 * @ifindex: the destination's interface
 * @seg_size: set to the segment stride its MTU allows
 * @err: set to -ENODEV, -EOPNOTSUPP (not Ethernet: on lo every unicast
 *	 frame would be OTHERHOST), -ENETDOWN or -EMSGSIZE (MTU too small)
 *
 * Return: the device with a reference, or NULL with @err set.
 */
static struct net_device *hf_dest_dev(struct net *net, int ifindex,
				      u32 *seg_size, int *err)
{
	struct net_device *dev = dev_get_by_index(net, ifindex);
	u32 mtu;

	if (!dev) {
		*err = -ENODEV;
		return NULL;
	}
	mtu = READ_ONCE(dev->mtu);
	if (dev->type != ARPHRD_ETHER)
		*err = -EOPNOTSUPP;
	else if (!netif_running(dev))
		*err = -ENETDOWN;
	else if (mtu < HF_DATA_HLEN + HF_MIN_SEG_SIZE)
		*err = -EMSGSIZE;
	else
		*err = 0;
	if (*err) {
		dev_put(dev);
		return NULL;
	}
	*seg_size = hf_seg_size(mtu);
	return dev;
}

/**
 * struct hf_sendmsg_ctx - a message on its way through hf_sendmsg()
 * @dst: its destination
 * @dev: the interface it leaves through, with a reference once found
 *	after the wait (hf_sendmsg_wait())
 * @len: its length
 * @charge: what it is charged against the send buffer (hf_tx_msg_charge())
 * @pages: @charge in pages, charged to the module-wide limit by the wait
 *	and passed on to the message
 * @seg_size: the segment stride @dev's MTU allows
 */
struct hf_sendmsg_ctx {
	struct sockaddr_hf dst;
	struct net_device *dev;
	size_t len;
	u64 charge;
	unsigned long pages;
	u32 seg_size;
};

/**
 * hf_sendmsg_dest() - where a message goes
 * @sk: the sending socket; its lock not held (taken to read connect()'s
 *	address)
 * @m: the message; msg_name, if set, is the destination
 * @dst: set to the destination: msg_name's, else connect()'s
 *
 * Return: 0; -EDESTADDRREQ without a destination, or an hf_check_dest()
 * errno for a bad one.
 */
static int hf_sendmsg_dest(struct sock *sk, const struct msghdr *m,
			   struct sockaddr_hf *dst)
{
	struct hf_sock *hs = hf_sk(sk);
	int err;

	if (m->msg_name) {
		err = hf_check_dest(sk, m->msg_name, m->msg_namelen);
		if (err)
			return err;
		memcpy(dst, m->msg_name, sizeof(*dst));
		return 0;
	}
	lock_sock(sk);
	err = hs->has_peer ? 0 : -EDESTADDRREQ;
	*dst = hs->peer;
	release_sock(sk);
	return err;
}

/**
 * hf_sendmsg_wait() - make ready to send: route, port, room, interface
 * @sk: the sending socket; caller holds its lock, released while waiting
 * @m: the message (its flags: MSG_DONTWAIT)
 * @s: the message's destination and charge; @s->dev and @s->seg_size set
 *
 * The destination must be reachable from the socket's binding; a socket
 * without a port gets one; the message waits for room (hf_wait_sndbuf(),
 * which charges @s->pages); its interface is looked up again, since no
 * reference was held while waiting.
 *
 * Return: 0 with @s->pages charged and @s->dev held; else an errno, and
 * nothing charged or held.
 */
static int hf_sendmsg_wait(struct sock *sk, const struct msghdr *m,
			   struct hf_sendmsg_ctx *s)
{
	long timeo;
	int err;

	sock_owned_by_me(sk);
	/* Under the lock: SO_BINDTODEVICE takes it to change the binding. */
	err = hf_check_route(sk, s->dst.shf_ifindex);
	if (!err)
		err = hf_autobind(sk);
	if (err)
		return err;
	timeo = sock_sndtimeo(sk, m->msg_flags & MSG_DONTWAIT);
	err = hf_wait_sndbuf(sk, s->charge, s->pages, &timeo);
	if (err)
		return err;
	/* No device reference is held while waiting: look again. */
	s->dev = hf_dest_dev(sock_net(sk), s->dst.shf_ifindex, &s->seg_size,
			     &err);
	if (!s->dev)
		hf_mem_uncharge(s->pages);
	return err;
}

/**
 * hf_sendmsg_queue() - copy a message in and queue it to its peer
 * @sk: the sending socket; caller holds its lock
 * @m: the message (its data: msg_iter)
 * @s: the message's destination, interface and charge; @s->pages pass
 *	to the message, or are given back
 *
 * Return: 0 when queued (and counted); else an errno, and nothing charged.
 */
static int hf_sendmsg_queue(struct sock *sk, struct msghdr *m,
			    const struct hf_sendmsg_ctx *s)
{
	struct hf_sock *hs = hf_sk(sk);
	struct net *net = sock_net(sk);
	struct hf_tx_msg *msg;
	struct hf_peer *peer;
	int err;

	sock_owned_by_me(sk);
	msg = hf_tx_msg_alloc(sk, &m->msg_iter, s->len, s->seg_size, s->pages,
			      &err);
	if (!msg) {
		hf_mem_uncharge(s->pages);
		return err;
	}
	msg->sport = hs->port;
	msg->dport = s->dst.shf_port;

	peer = hf_peer_get(net, s->dev, s->dst.shf_addr, HF_PEER_CREATE, &err);
	if (!peer) {
		hf_tx_msg_put(msg);
		return err;
	}
	err = hf_output_prepare(peer);
	if (err) {
		hf_peer_put(peer);
		hf_tx_msg_put(msg);
		return err;
	}
	spin_lock_bh(&peer->lock);
	if (peer->dead) {
		err = -ENETDOWN;
	} else {
		msg->user_seq = hs->tx_msgs++;
		hf_output_queue(peer, msg);
		msg = NULL;
	}
	spin_unlock_bh(&peer->lock);
	if (!msg)
		hf_sock_note_peer(hs, s->dev->ifindex, s->dst.shf_addr);
	hf_peer_put(peer);
	if (msg) {
		hf_tx_msg_put(msg);
		return err;
	}
	hf_stat_inc(&hf_net(net)->stats, HF_STAT_TX_MSGS);
	hf_stat_add(&hf_net(net)->stats, HF_STAT_TX_BYTES, s->len);
	return 0;
}

/**
 * hf_sendmsg() - queue one whole message to a peer
 * @sock: the socket
 * @m: the message; msg_name, if set, is the destination (else connect()'s)
 * @len: its length
 *
 * The whole message is charged before it is admitted: it must fit
 * SO_SNDBUF with the socket's unfinished messages (or go alone into a
 * socket that holds none) and the module-wide limit (hf_mem.c). A
 * blocking send waits for both (up to SO_SNDTIMEO); a non-blocking one
 * gets EAGAIN for the first, ENOBUFS for the second. The message is
 * copied once and owned by the transport from here: delivery or failure
 * is reported later.
 *
 * Return: @len; -EDESTADDRREQ without a destination, an hf_check_addr()
 * errno or -EINVAL for a bad one, -ENETUNREACH for one on another
 * interface than the socket is bound to, -EMSGSIZE above max_msg, above
 * what any buffer could hold (the module-wide limit, or about 1 GiB), or the
 * interface's MTU cannot carry a segment, -ENETDOWN for an interface that
 * is down, -EOPNOTSUPP for an interface that is not Ethernet or for
 * unsupported flags, -EAGAIN, -EINTR, -ENOMEM, -ENOBUFS (peer limit, or
 * the module-wide limit without waiting), -EFAULT.
 */
static int hf_sendmsg(struct socket *sock, struct msghdr *m, size_t len)
{
	struct sock *sk = sock->sk;
	struct net *net = sock_net(sk);
	struct hf_sendmsg_ctx s = { .len = len };
	int err;

	if (m->msg_flags & ~(MSG_DONTWAIT | MSG_NOSIGNAL | MSG_EOR |
			     MSG_CMSG_COMPAT | MSG_BATCH))
		return -EOPNOTSUPP;
	err = hf_sendmsg_dest(sk, m, &s.dst);
	if (err)
		return err;
	if (len > READ_ONCE(hf_net(net)->config.p.max_msg))
		return -EMSGSIZE;
	/* A message no buffer could ever hold fails now, never waits. */
	s.charge = hf_tx_msg_charge(len);
	s.pages = hf_mem_pages(s.charge);
	if (s.charge >= INT_MAX / 2 || !hf_mem_fits(s.pages))
		return -EMSGSIZE;

	/* Refuse a bad interface at once, before waiting for room. */
	s.dev = hf_dest_dev(net, s.dst.shf_ifindex, &s.seg_size, &err);
	if (!s.dev)
		return err;
	dev_put(s.dev);

	lock_sock(sk);
	err = hf_sendmsg_wait(sk, m, &s);
	if (!err) {
		err = hf_sendmsg_queue(sk, m, &s);
		if (!err)
			err = len;
		dev_put(s.dev);
	}
	release_sock(sk);
	return err;
}

/**
 * hf_recvmsg() - receive one whole message, or an error-queue entry
 * @sock: the socket
 * @m: where to put it; msg_name receives the source address
 * @len: room in @m
 * @flags: MSG_DONTWAIT, MSG_PEEK, MSG_TRUNC, MSG_ERRQUEUE
 *
 * A message longer than @len is truncated and MSG_TRUNC set in
 * msg_flags, as in UDP; with MSG_TRUNC in @flags the full length is
 * returned. A message the socket's filter cut short (hf_rx_deliver()) is
 * reported the same way: MSG_TRUNC, and its length as it was sent.
 *
 * Return: bytes copied (or the message length with MSG_TRUNC), -EAGAIN,
 * a pending socket error, -EOPNOTSUPP for unsupported flags.
 */
static int hf_recvmsg(struct socket *sock, struct msghdr *m, size_t len,
		      int flags)
{
	DECLARE_SOCKADDR(struct sockaddr_hf *, src, m->msg_name);
	struct sock *sk = sock->sk;
	struct hf_skb_cb cb;
	struct sk_buff *skb;
	size_t copied;
	u32 msg_len;
	int err;

	if (flags & ~(MSG_DONTWAIT | MSG_PEEK | MSG_TRUNC | MSG_ERRQUEUE |
		      MSG_CMSG_COMPAT | MSG_CMSG_CLOEXEC | MSG_WAITALL |
		      MSG_WAITFORONE))
		return -EOPNOTSUPP;
	if (flags & MSG_ERRQUEUE)
		return sock_recv_errqueue(sk, m, len, SOL_HYPERFRAME,
					  HF_RECVERR);

	skb = skb_recv_datagram(sk, flags, &err);
	if (!skb)
		return err;

	/* As sent: a filter may have kept less (skb->len). */
	msg_len = HF_SKB_CB(skb)->len;
	copied = skb->len;
	if (copied > len) {
		copied = len;
		m->msg_flags |= MSG_TRUNC;
	}
	if (skb->len < msg_len)
		m->msg_flags |= MSG_TRUNC;
	err = skb_copy_datagram_msg(skb, 0, m, copied);
	if (!err) {
		if (src) {
			memset(src, 0, sizeof(*src));
			src->shf_family = sk->sk_family;
			src->shf_port = HF_SKB_CB(skb)->sport;
			src->shf_ifindex = HF_SKB_CB(skb)->ifindex;
			ether_addr_copy(src->shf_addr, HF_SKB_CB(skb)->addr);
			m->msg_namelen = sizeof(*src);
		}
		err = flags & MSG_TRUNC ? msg_len : copied;
	}
	/*
	 * Taken off the queue, read or not: its bytes are its sender's again,
	 * once the buffer no longer counts them. All its bytes, whatever a
	 * filter kept: the credit counted them as they arrived.
	 */
	cb = *HF_SKB_CB(skb);
	skb_free_datagram(sk, skb);
	if (!(flags & MSG_PEEK))
		hf_input_read(sock_net(sk), &cb, cb.len);
	if (READ_ONCE(hf_sk(sk)->rx_refused) && !(flags & MSG_PEEK) &&
	    hf_sock_room_again(sk)) {
		WRITE_ONCE(hf_sk(sk)->rx_refused, false);
		hf_input_window_open(sock_net(sk));
	}
	return err;
}

/**
 * hf_ioctl() - queue sizes, as for UDP
 * @sock: the socket
 * @cmd: SIOCINQ (length of the next message) or SIOCOUTQ (bytes of
 *	 messages sent whose outcome is not known yet)
 * @arg: user pointer to an int
 *
 * Return: 0, -EFAULT, or -ENOIOCTLCMD for other commands.
 */
static int hf_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)
{
	struct sock *sk = sock->sk;
	struct sk_buff *skb;
	int val;

	switch (cmd) {
	case SIOCINQ:
		spin_lock_bh(&sk->sk_receive_queue.lock);
		skb = skb_peek(&sk->sk_receive_queue);
		val = skb ? skb->len : 0;
		spin_unlock_bh(&sk->sk_receive_queue.lock);
		break;
	case SIOCOUTQ:
		val = sk_wmem_alloc_get(sk);
		break;
	default:
		return -ENOIOCTLCMD;
	}
	return put_user(val, (int __user *)arg);
}

/*
 * No option at SOL_HYPERFRAME is writable (yet); HF_INFO and HF_PEER_INFO
 * are read-only.
 */
static int hf_setsockopt(struct socket *sock, int level, int optname,
			 sockptr_t optval, unsigned int optlen)
{
	if (level == SOL_HYPERFRAME &&
	    (optname == HF_INFO || optname == HF_PEER_INFO))
		return -EPERM;
	return -ENOPROTOOPT;
}

/* Fill the peer part of @info for the peer it names, if we know it. */
static int hf_info_peer(struct sock *sk, struct hf_info *info)
{
	struct sockaddr_hf *addr = &info->hfi_peer;
	struct net_device *dev;
	struct hf_peer *peer;
	int err;

	err = hf_check_addr(sk, (struct sockaddr *)addr, sizeof(*addr));
	if (err)
		return err;
	if (!addr->shf_ifindex || !is_valid_ether_addr(addr->shf_addr))
		return -EINVAL;
	dev = dev_get_by_index(sock_net(sk), addr->shf_ifindex);
	if (!dev)
		return -ENODEV;
	peer = hf_peer_get(sock_net(sk), dev, addr->shf_addr, HF_PEER_FIND, &err);
	dev_put(dev);
	if (!peer)
		return 0;
	spin_lock_bh(&peer->lock);
	if (!peer->dead)
		hf_output_info(peer, sk, info);
	spin_unlock_bh(&peer->lock);
	hf_peer_put(peer);
	/* As in the peer dump (hf_genl.c): the epoch only to CAP_NET_ADMIN. */
	if (!ns_capable(sock_net(sk)->user_ns, CAP_NET_ADMIN))
		info->hfi_epoch = 0;
	return 0;
}

/*
 * Whether HF_INFO's buffer names a peer, for programs written before
 * HF_PEER_INFO: only a complete address of our family does (family,
 * a non-zero ifindex, zero padding). Anything else there, such as an
 * uninitialised buffer, is no question and is ignored.
 */
static bool hf_info_names_peer(const struct sock *sk,
			       const struct sockaddr_hf *addr)
{
	return addr->shf_family == sk->sk_family && addr->shf_ifindex > 0 &&
	       !memchr_inv(addr->shf_zero, 0, sizeof(addr->shf_zero));
}

/**
 * hf_get_info() - getsockopt HF_INFO and HF_PEER_INFO
 * @sk: the socket; not locked
 * @optval: the caller's struct hf_info
 * @optlen: its length; set to the bytes filled
 * @peer_query: HF_PEER_INFO: hfi_peer in the buffer names the peer (family
 *		0: the connected one), and a bad address is an error.
 *		HF_INFO: the connected peer, or for compatibility the peer a
 *		complete address in hfi_peer names (hf_info_names_peer());
 *		the buffer's contents are otherwise ignored
 *
 * Return: 0, -EFAULT, -EINVAL (@optlen short of hfi_size, or for
 * HF_PEER_INFO short of hfi_peer or a bad address), -EAFNOSUPPORT or
 * -ENODEV (HF_PEER_INFO: another family, no such interface).
 */
static int hf_get_info(struct sock *sk, char __user *optval,
		       int __user *optlen, bool peer_query)
{
	struct hf_sock *hs = hf_sk(sk);
	struct hf_info info;
	int len, err;

	if (get_user(len, optlen))
		return -EFAULT;
	if (len < (int)offsetofend(struct hf_info, hfi_size))
		return -EINVAL;
	if (peer_query && len < (int)offsetofend(struct hf_info, hfi_peer))
		return -EINVAL;
	len = min_t(unsigned int, len, sizeof(info));

	memset(&info, 0, sizeof(info));
	if (len >= (int)offsetofend(struct hf_info, hfi_peer) &&
	    copy_from_user(&info.hfi_peer,
			   optval + offsetof(struct hf_info, hfi_peer),
			   sizeof(info.hfi_peer)))
		return -EFAULT;
	if (!peer_query && !hf_info_names_peer(sk, &info.hfi_peer))
		memset(&info.hfi_peer, 0, sizeof(info.hfi_peer));

	lock_sock(sk);
	if (!info.hfi_peer.shf_family && hs->has_peer)
		info.hfi_peer = hs->peer;
	info.hfi_version = HF_INFO_VERSION;
	info.hfi_size = len;
	info.hfi_port = hs->port;
	info.hfi_sndbuf = READ_ONCE(sk->sk_sndbuf);
	info.hfi_rcvbuf = READ_ONCE(sk->sk_rcvbuf);
	info.hfi_tx_queued = sk_wmem_alloc_get(sk);
	info.hfi_rx_reassembly = atomic_read(&hs->rx_reasm);
	info.hfi_rx_queued = sk_rmem_alloc_get(sk) - info.hfi_rx_reassembly;
	info.hfi_tx_msgs = hs->tx_msgs;
	info.hfi_tx_msgs_done = (u32)atomic_read(&hs->tx_msgs_done);
	info.hfi_errqueue = skb_queue_len(&sk->sk_error_queue);
	release_sock(sk);

	if (info.hfi_peer.shf_family) {
		info.hfi_peer.shf_port = 0;
		err = hf_info_peer(sk, &info);
		/* HF_INFO: a peer we cannot find is no peer. */
		if (err && !peer_query) {
			memset(&info.hfi_peer, 0, sizeof(info.hfi_peer));
			err = 0;
		}
		if (err)
			return err;
	}
	if (copy_to_user(optval, &info, len) || put_user(len, optlen))
		return -EFAULT;
	return 0;
}

static int hf_getsockopt(struct socket *sock, int level, int optname,
			 char __user *optval, int __user *optlen)
{
	if (level != SOL_HYPERFRAME)
		return -ENOPROTOOPT;
	switch (optname) {
	case HF_INFO:
		return hf_get_info(sock->sk, optval, optlen, false);
	case HF_PEER_INFO:
		return hf_get_info(sock->sk, optval, optlen, true);
	default:
		return -ENOPROTOOPT;
	}
}

static void hf_sock_destruct(struct sock *sk)
{
	skb_queue_purge(&sk->sk_receive_queue);
	skb_queue_purge(&sk->sk_error_queue);
}

/*
 * Messages delivered and never read: dropped, their bytes returned to
 * their flows' credit. Dead now, the socket takes no more (hf_rx_deliver()
 * checks under the queue's lock), so none is left for the destructor.
 */
static void hf_release_unread(struct sock *sk)
{
	struct sk_buff_head unread;
	struct sk_buff *skb;
	unsigned long flags;

	__skb_queue_head_init(&unread);
	spin_lock_irqsave(&sk->sk_receive_queue.lock, flags);
	skb_queue_splice_init(&sk->sk_receive_queue, &unread);
	spin_unlock_irqrestore(&sk->sk_receive_queue.lock, flags);
	while ((skb = __skb_dequeue(&unread))) {
		struct hf_skb_cb cb = *HF_SKB_CB(skb);

		kfree_skb(skb);
		hf_input_read(sock_net(sk), &cb, cb.len);
	}
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
	hf_release_unread(sk);
	/*
	 * Reassembly for it holds a reference on it: it goes now. Its own
	 * messages are still delivered where a peer answers (hf_tx_rto_expired()
	 * gives up those to a peer that never does).
	 */
	hf_input_sock_closed(sock_net(sk), sk);
	/*
	 * A peer refused for this socket's full buffer is told no credit
	 * until a read; none will come. Unbound, its messages now resolve
	 * as refused for no port, so the window opens.
	 */
	if (READ_ONCE(hf_sk(sk)->rx_refused))
		hf_input_window_open(sock_net(sk));
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
	.ioctl		= hf_ioctl,
	.listen		= sock_no_listen,
	.shutdown	= sock_no_shutdown,
	.setsockopt	= hf_setsockopt,
	.getsockopt	= hf_getsockopt,
	.sendmsg	= hf_sendmsg,
	.recvmsg	= hf_recvmsg,
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
	if (READ_ONCE(hf_sock_sndbuf))
		sk->sk_sndbuf = hf_sock_buf(READ_ONCE(hf_sock_sndbuf),
					    SOCK_MIN_SNDBUF);
	if (READ_ONCE(hf_sock_rcvbuf))
		sk->sk_rcvbuf = hf_sock_buf(READ_ONCE(hf_sock_rcvbuf),
					    SOCK_MIN_RCVBUF);
	/* The port lookup finds sockets under RCU alone. */
	sock_set_flag(sk, SOCK_RCU_FREE);
	sk->sk_destruct = hf_sock_destruct;
	spin_lock_init(&hf_sk(sk)->peers_lock);
	return 0;
}

/**
 * hf_sock_note_peer() - remember a peer the socket sent to or received from
 * @hs: the socket
 * @ifindex: the peer's interface
 * @addr: its Ethernet address
 *
 * A known peer is marked seen now; a new one takes a free slot or the
 * one seen longest ago. Any context.
 */
void hf_sock_note_peer(struct hf_sock *hs, int ifindex, const u8 *addr)
{
	struct hf_sock_peer *p, *slot = NULL;
	unsigned long flags;

	spin_lock_irqsave(&hs->peers_lock, flags);
	for (p = hs->peers; p < hs->peers + HF_SOCK_PEERS; p++) {
		if (p->ifindex == ifindex && ether_addr_equal(p->addr, addr)) {
			slot = p;
			break;
		}
		/* Else a free slot, else the one seen longest ago. */
		if (!slot || (slot->ifindex &&
			      (!p->ifindex || time_before(p->seen, slot->seen))))
			slot = p;
	}
	slot->ifindex = ifindex;
	ether_addr_copy(slot->addr, addr);
	slot->seen = jiffies;
	spin_unlock_irqrestore(&hs->peers_lock, flags);
}

/**
 * hf_sock_peers() - the peers a socket remembers
 * @hs: the socket
 * @peers: filled with them, most recently seen first
 *
 * Any context.
 *
 * Return: how many were filled.
 */
unsigned int hf_sock_peers(struct hf_sock *hs,
			   struct hf_sock_peer peers[HF_SOCK_PEERS])
{
	unsigned int i, j, n = 0;
	struct hf_sock_peer p;
	unsigned long flags;

	spin_lock_irqsave(&hs->peers_lock, flags);
	for (i = 0; i < HF_SOCK_PEERS; i++)
		if (hs->peers[i].ifindex)
			peers[n++] = hs->peers[i];
	spin_unlock_irqrestore(&hs->peers_lock, flags);
	/* Insertion sort, newest first: at most HF_SOCK_PEERS entries. */
	for (i = 1; i < n; i++) {
		p = peers[i];
		for (j = i; j > 0 && time_after(p.seen, peers[j - 1].seen); j--)
			peers[j] = peers[j - 1];
		peers[j] = p;
	}
	return n;
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
