/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_sock.h - the hyperframe socket: its state and the entry points the
 * rest of the module uses to register the address family.
 */
#ifndef _HF_SOCK_H
#define _HF_SOCK_H

#include <net/sock.h>
#include <linux/hyperframe.h>

/* Peers a socket remembers for the socket dump (hfctl socket show). */
#define HF_SOCK_PEERS	8

/**
 * struct hf_sock_peer - a peer a socket talked to
 * @ifindex: its interface; 0: the slot is free
 * @addr: its Ethernet address
 * @seen: jiffies of the last message sent to it or received from it
 */
struct hf_sock_peer {
	int ifindex;
	u8 addr[ETH_ALEN];
	unsigned long seen;
};

/**
 * struct hf_sock - an AF_HYPERFRAME socket
 * @sk: the generic socket; must stay first
 * @port_node: entry in the namespace's port table, while bound
 * @port: bound port; 0 while unbound. Written under the socket lock and
 *	  the namespace's ports_lock, read under either or RCU
 * @peer: default destination set by connect(); valid when @has_peer
 * @has_peer: whether connect() set @peer
 * @tx_msgs: messages sent so far; names a message in error-queue entries
 * @rx_reasm: bytes of this socket's receive memory held by messages still
 *	      being reassembled (their segments' truesize); the rest of
 *	      sk_rmem_alloc is delivered and unread
 * @rx_reserved: bytes the messages being reassembled for this socket
 *		 reserved at admission: a message is admitted while what is
 *		 delivered, this, and its own reservation fit SO_RCVBUF, or
 *		 into a socket that holds nothing (hf_input.c)
 * @rx_refused: a message for this socket was refused for a full buffer;
 *		the read that leaves half the buffer free tells the refused
 *		peers there is room again (hf_sock_room_again())
 * @tx_pace_ns: when paced (SO_MAX_PACING_RATE, the module's pacing_rate),
 *		the departure time (monotonic ns)
 *		free for the socket's next byte, over all its peers
 * @peers_lock: guards @peers
 * @peers: the peers this socket last sent to or received from, for the
 *	   socket dump; keys only (no reference), looked up when shown
 */
struct hf_sock {
	struct sock sk;
	struct hlist_node port_node;
	u16 port;
	struct sockaddr_hf peer;
	bool has_peer;
	u32 tx_msgs;
	atomic_t tx_msgs_done;
	atomic_t rx_reasm;
	atomic_t rx_reserved;
	bool rx_refused;
	atomic64_t tx_pace_ns;
	spinlock_t peers_lock;
	struct hf_sock_peer peers[HF_SOCK_PEERS];
};

static inline struct hf_sock *hf_sk(const struct sock *sk)
{
	return container_of(sk, struct hf_sock, sk);
}

/*
 * The interface a socket is bound to, 0 for any: bind()'s shf_ifindex and
 * SO_BINDTODEVICE are one binding, sk_bound_dev_if (hf_port.c). It only
 * takes messages that arrive on it and only sends through it.
 */
static inline int hf_sock_bound_ifindex(const struct sock *sk)
{
	return READ_ONCE(sk->sk_bound_dev_if);
}

/*
 * Whether a socket that refused a message for its full buffer has room to
 * say so (a WINDOW ack): once what it holds, read or in reassembly aside,
 * is down to half its buffer. At the first byte below the limit, the
 * segments the sender resends meet a buffer that messages already in
 * flight fill again, and are refused again (the sender's window may hold
 * two frames); half a buffer of room takes them. Until then the window
 * stays closed (hf_input.c).
 */
static inline bool hf_sock_room_again(const struct sock *sk)
{
	return atomic_read(&sk->sk_rmem_alloc) -
	       atomic_read(&hf_sk(sk)->rx_reasm) +
	       atomic_read(&hf_sk(sk)->rx_reserved) <= READ_ONCE(sk->sk_rcvbuf) / 2;
}

void hf_sock_note_peer(struct hf_sock *hs, int ifindex, const u8 *addr);
unsigned int hf_sock_peers(struct hf_sock *hs,
			   struct hf_sock_peer peers[HF_SOCK_PEERS]);
int __init hf_sock_register(int family);
void hf_sock_unregister(void);

#endif /* _HF_SOCK_H */
