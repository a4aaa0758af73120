// SPDX-License-Identifier: GPL-2.0
/*
 * hf_reasm.c - reassembly and delivery: a received message's segments
 * held until it is complete, its charge against its socket's buffer and
 * the namespace's and module's limits, delivery in order per pair of
 * ports, outcomes resolved in msg_id order, the reads that return its
 * memory and reopen a window a full socket closed.
 *
 * Design notes:
 * 1. A segment is placed at index offset / seg_size in O(1), in page-sized
 *    tables of skb pointers allocated as segments arrive, so a 64 MiB
 *    message needs no large contiguous allocation in softirq context.
 * 2. Segments are kept as the skbs they arrived in (on veth these still
 *    point at the sender's pages): delivery chains them under an empty
 *    head skb as its frag_list and recvmsg copies once, to the user.
 * 3. Memory: a new message is admitted only while the messages delivered
 *    to its socket and not yet read are under SO_RCVBUF (a message may then
 *    overshoot it, as a UDP datagram does). Reassembly is charged to the
 *    socket too, but does not block admission: a message in progress must
 *    not shut out the next one, or the flow would stall behind its own
 *    repair. Every byte held for reassembly also counts against the
 *    namespace's mem_limit.
 * 4. Messages are resolved in msg_id order, once complete and once the
 *    cumulative ack has passed all their segments; each outcome is
 *    reported in every ACK for the next HF_STATUS_WINDOW messages, or up
 *    to HF_STATUS_WINDOW_MAX (what the epoch's DATA asks, within
 *    status_window, fixed when it is adopted). A
 *    complete message is delivered earlier, ahead of its turn, when no
 *    message before it between the same two ports is undelivered: order
 *    holds per pair of ports, not across the whole peer. A message is
 *    never sent again once started (a reset fails it), so delivering
 *    before the outcome is reported cannot deliver twice.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/random.h>
#include <linux/siphash.h>
#include <linux/slab.h>
#include <net/checksum.h>
#include <net/sock.h>

#include "hf_ack.h"
#include "hf_grant.h"
#include "hf_hfq.h"
#include "hf_input.h"
#include "hf_mem.h"
#include "hf_msg.h"
#include "hf_net.h"
#include "hf_offload.h"
#include "hf_output.h"
#include "hf_pacing.h"
#include "hf_port.h"
#include "hf_reasm.h"
#include "hf_recovery.h"
#include "hf_sock.h"
#include "hf_trace.h"
#include "hf_train.h"
#include "hf_train_skb.h"

#define HF_PER_CHUNK	(PAGE_SIZE / sizeof(struct sk_buff *))

/*
 * How long a refusing socket's flow stays closed after its last refusal
 * while the socket is under full but above half its buffer: a reader
 * that reads on gets there in milliseconds (a 4 MiB message takes about
 * 20 ms to copy in a TCG guest).
 */
#define HF_REFUSED_HOLD	msecs_to_jiffies(100)

struct sk_buff **hf_rx_seg_slot(struct hf_rx_msg *m, u32 index, bool alloc)
{
	struct sk_buff ***chunk = &m->chunks[index / HF_PER_CHUNK];

	if (!*chunk) {
		if (!alloc)
			return NULL;
		*chunk = (struct sk_buff **)get_zeroed_page(GFP_ATOMIC);
		if (!*chunk)
			return NULL;
	}
	return &(*chunk)[index % HF_PER_CHUNK];
}

/*
 * Let go of the segments @m holds and what they are charged to, and of its
 * socket. Its reservation goes back to the socket and the peer; to the
 * namespace and the module-wide limit too, unless @m was delivered: the
 * delivered skb holds that part until it is freed (hf_rx_head_free()).
 */
static void hf_rx_msg_release(struct hf_peer *peer, struct hf_rx_msg *m)
{
	struct hf_net *hn = hf_net(peer->net);
	u32 c, i;

	lockdep_assert_held(&peer->lock);

	if (m->chunks) {
		for (c = 0; c < m->nchunks; c++) {
			if (!m->chunks[c])
				continue;
			for (i = 0; i < HF_PER_CHUNK; i++)
				if (m->chunks[c][i] != HF_RX_COVERED)
					kfree_skb(m->chunks[c][i]);
			free_page((unsigned long)m->chunks[c]);
		}
		kfree(m->chunks);
		m->chunks = NULL;
	}
	atomic64_sub(m->charge, &hn->rx_mem);
	if (!m->delivered) {
		atomic64_sub(m->reserve, &hn->rx_reserved);
		hf_mem_uncharge(hf_mem_pages(m->reserve));
	}
	peer->in.reserved -= m->reserve;
	kfree_skb(m->head);
	m->head = NULL;
	if (m->sk) {
		atomic_sub(m->charge, &hf_sk(m->sk)->rx_reasm);
		atomic_sub(m->reserve, &hf_sk(m->sk)->rx_reserved);
		sock_put(m->sk);
		m->sk = NULL;
	}
	m->charge = 0;
	m->reserve = 0;
}

void hf_rx_msg_free(struct hf_peer *peer, struct hf_rx_msg *m)
{
	lockdep_assert_held(&peer->lock);
	hf_rx_msg_release(peer, m);
	kfree(m);
}

/*
 * The segments of @m take far more memory than its reservation: it is
 * refused as too big for this receiver. It still completes, counting its
 * segments without holding them, so the sender learns the outcome.
 */
void hf_rx_msg_refuse(struct hf_peer *peer, struct hf_rx_msg *m)
{
	lockdep_assert_held(&peer->lock);
	hf_rx_msg_release(peer, m);
	m->status = HF_STATUS_TOO_BIG;
	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_RX_MSGS_NO_MEMORY);
}

/*
 * What a message's segments are expected to take: payload plus, per
 * segment, an skb's bookkeeping and header room. Admission reserves this;
 * a message may hold twice as much before it is refused.
 */
u64 hf_rx_msg_reserve(u32 len, u32 nsegs)
{
	return (u64)len + (u64)nsegs * SKB_TRUESIZE(256);
}

/* Bytes of @sk's receive memory delivered and not read yet. */
static int hf_rx_sock_delivered(const struct sock *sk)
{
	return max(atomic_read(&sk->sk_rmem_alloc) -
		   atomic_read(&hf_sk(sk)->rx_reasm), 0);
}

/*
 * Whether @sk has no room for a message reserving @need bytes: what it
 * holds delivered and what its messages in reassembly reserved, with
 * @need, are above SO_RCVBUF, and it holds anything at all (one message
 * larger than the buffer goes into an empty socket).
 */
static bool hf_rx_sock_full(const struct sock *sk, u64 need)
{
	int delivered = hf_rx_sock_delivered(sk);
	int reserved = atomic_read(&hf_sk(sk)->rx_reserved);

	if (!delivered && !reserved)
		return false;
	return (u64)delivered + reserved + need > (u64)READ_ONCE(sk->sk_rcvbuf);
}

/*
 * Reserve @need bytes of @sk's receive buffer for a new message, as
 * hf_rx_sock_full() allows: atomically, since messages from other peers are
 * admitted concurrently. Return: true when reserved.
 */
static bool hf_rx_sock_reserve(struct sock *sk, u32 need)
{
	struct hf_sock *hs = hf_sk(sk);
	int delivered = hf_rx_sock_delivered(sk);
	int reserved = atomic_add_return(need, &hs->rx_reserved);

	if ((!delivered && reserved == need) ||
	    (u64)delivered + reserved <= (u64)READ_ONCE(sk->sk_rcvbuf))
		return true;
	atomic_sub(need, &hs->rx_reserved);
	return false;
}

/**
 * hf_rx_msg_status() - what becomes of a new message, by its header alone
 * @peer: its source; caller holds its lock
 * @h: the DATA header of its first segment to arrive
 * @reserve: what holding it would reserve (hf_rx_msg_reserve())
 * @sk: set to the socket bound to its port, with a reference, when it may
 *	go there; else NULL
 *
 * Return: HF_STATUS_DELIVERED with *@sk set; HF_STATUS_TOO_BIG above
 * max_msg, or when it could never be held; HF_STATUS_NO_PORT when no
 * socket here takes its port.
 */
static u8 hf_rx_msg_status(struct hf_peer *peer, const struct hf_hdr *h,
			   u64 reserve, struct sock **sk)
{
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	bool other_dev;

	lockdep_assert_held(&peer->lock);
	*sk = NULL;
	if (h->data.msg_len > READ_ONCE(peer->cfg->p.max_msg))
		return HF_STATUS_TOO_BIG;
	if (reserve > READ_ONCE(peer->cfg->p.mem_limit) / 4) {
		/* Could never be held, however long the sender waits. */
		hf_stat_inc(stats, HF_STAT_RX_MSGS_NO_MEMORY);
		return HF_STATUS_TOO_BIG;
	}
	*sk = hf_port_lookup(peer->net, h->dport, peer->dev->ifindex,
			     &other_dev);
	if (*sk)
		return HF_STATUS_DELIVERED;
	if (other_dev)
		hf_stat_inc(stats, HF_STAT_RX_MSGS_OTHER_DEV);
	return HF_STATUS_NO_PORT;
}

/**
 * hf_rx_msg_awaited() - whether a later message between the same two
 * ports waits for the one DATA header @h starts
 * @peer: the peer; caller holds its lock
 * @h: a segment of a message not in reassembly yet
 *
 * A message of that pair with a later msg_id, held for its socket and not
 * delivered, cannot be delivered before this one (hf_rx_pred_clear()).
 * The room it holds in the socket's buffer must not refuse this one: it
 * would be refused at every repair, and neither delivered (until
 * hf_input_expire() dropped the later one, or the peer was forgotten and
 * the flow reset).
 *
 * Return: true when such a message is held.
 */
static bool hf_rx_msg_awaited(const struct hf_peer *peer,
			      const struct hf_hdr *h)
{
	unsigned int i;

	lockdep_assert_held(&peer->lock);
	for (i = 0; i < HF_STATUS_WINDOW_MAX; i++) {
		const struct hf_rx_msg *m = peer->in.msgs[i];

		if (m && m->sk && !m->delivered && m->sport == h->sport &&
		    m->dport == h->dport &&
		    hf_seq_after(m->msg_id, h->data.msg_id))
			return true;
	}
	return false;
}

/**
 * hf_rx_msg_admit() - reserve a new message's memory, whole
 * @peer: its source; caller holds its lock
 * @h: the DATA header of its first segment to arrive
 * @sk: its socket; the caller's reference is given up when refused
 * @reserve: what it reserves (hf_rx_msg_reserve())
 * @why: set to the drop reason when refused
 *
 * Reserve the whole message now, so that every message admitted can
 * complete: charging segments as they come would let concurrent large
 * messages each take part of the limit and none finish. A message refused
 * here is admitted when its sender tries again. It is reserved against its
 * socket's buffer, its source's quarter of mem_limit, the namespace's
 * mem_limit and the module-wide limit; the socket's full buffer is flow
 * control (the peer and the socket note the refusal, and a read reopens
 * the window: hf_input_window_open()), the rest memory limits. A message
 * that a later one of its pair waits for (hf_rx_msg_awaited()) goes in
 * whatever room the socket has left, and under memory pressure as if
 * alone: the later one holds that room until this one is delivered;
 * bounded still by the status window and the other limits.
 * hf_rx_msg_unreserve() gives back what this takes.
 *
 * Return: true when reserved; false with *@why set (HF_STAT_DROP_RCVBUF or
 * HF_STAT_DROP_MEM_LIMIT) and nothing reserved.
 */
static bool hf_rx_msg_admit(struct hf_peer *peer, const struct hf_hdr *h,
			    struct sock *sk, u64 reserve, enum hf_stat *why)
{
	struct hf_net *hn = hf_net(peer->net);
	bool awaited = hf_rx_msg_awaited(peer, h);

	lockdep_assert_held(&peer->lock);
	if (awaited) {
		atomic_add(reserve, &hf_sk(sk)->rx_reserved);
	} else if (!hf_rx_sock_reserve(sk, reserve)) {
		peer->in.refused.on = true;
		peer->in.refused.port = h->dport;
		peer->in.refused.need = reserve;
		peer->in.refused.at = jiffies;
		WRITE_ONCE(hf_sk(sk)->rx_refused, true);
		sock_put(sk);
		*why = HF_STAT_DROP_RCVBUF;
		return false;
	}
	*why = HF_STAT_DROP_MEM_LIMIT;
	if (peer->in.reserved + reserve > READ_ONCE(peer->cfg->p.mem_limit) / 4)
		goto unreserve_sock;
	if (atomic64_add_return(reserve, &hn->rx_reserved) >
	    READ_ONCE(peer->cfg->p.mem_limit))
		goto unreserve_net;
	/* Under memory pressure, a socket takes one message at a time. */
	if (!hf_mem_charge(hf_mem_pages(reserve), awaited ||
			   (atomic_read(&hf_sk(sk)->rx_reserved) == reserve &&
			    !hf_rx_sock_delivered(sk))))
		goto unreserve_net;
	return true;

unreserve_net:
	atomic64_sub(reserve, &hn->rx_reserved);
unreserve_sock:
	atomic_sub(reserve, &hf_sk(sk)->rx_reserved);
	sock_put(sk);
	return false;
}

/**
 * hf_rx_msg_unreserve() - give back what hf_rx_msg_admit() reserved
 * @peer: the message's source; caller holds its lock
 * @sk: its socket; the caller's reference is given up
 * @reserve: what was reserved
 */
static void hf_rx_msg_unreserve(struct hf_peer *peer, struct sock *sk,
				u64 reserve)
{
	lockdep_assert_held(&peer->lock);
	hf_mem_uncharge(hf_mem_pages(reserve));
	atomic64_sub(reserve, &hf_net(peer->net)->rx_reserved);
	atomic_sub(reserve, &hf_sk(sk)->rx_reserved);
	sock_put(sk);
}

/**
 * hf_rx_msg_fill() - set a new message's fields its header gives
 * @m: the message, zeroed
 * @h: the DATA header of its first segment to arrive
 * @nsegs: how many segments it has
 */
static void hf_rx_msg_fill(struct hf_rx_msg *m, const struct hf_hdr *h,
			   u32 nsegs)
{
	const struct hf_data_hdr *d = &h->data;

	m->first_ns = ktime_get_ns();
	m->msg_id = d->msg_id;
	m->len = d->msg_len;
	m->seg_size = d->seg_size;
	m->nsegs = nsegs;
	m->last_seq = d->seq;
	m->sport = h->sport;
	m->dport = h->dport;
	m->pred = d->pred;
}

/**
 * hf_rx_msg_new() - start reassembly of the message a DATA header announces
 * @peer: its source; caller holds its lock
 * @h: the DATA header of its first segment to arrive
 * @why: set to the drop reason when it cannot be held now
 *
 * A message that will not be delivered (too big, no port) is started too,
 * holding no segments and reserving nothing: it completes by count, so
 * that its sender learns its outcome.
 *
 * Return: the message, not yet in the peer's table; NULL when it cannot be
 * held now.
 */
struct hf_rx_msg *hf_rx_msg_new(struct hf_peer *peer, const struct hf_hdr *h,
				enum hf_stat *why)
{
	const struct hf_data_hdr *d = &h->data;
	u32 nsegs = d->msg_len ? DIV_ROUND_UP(d->msg_len, d->seg_size) : 1;
	u64 reserve = hf_rx_msg_reserve(d->msg_len, nsegs);
	struct hf_rx_msg *m;
	struct sock *sk;
	u8 status;

	lockdep_assert_held(&peer->lock);

	status = hf_rx_msg_status(peer, h, reserve, &sk);
	if (sk) {
		if (!hf_rx_msg_admit(peer, h, sk, reserve, why))
			return NULL;
	} else {
		reserve = 0;
	}

	*why = HF_STAT_DROP_MEMORY;
	m = kzalloc(sizeof(*m), GFP_ATOMIC);
	if (!m) {
		if (sk)
			hf_rx_msg_unreserve(peer, sk, reserve);
		return NULL;
	}
	hf_rx_msg_fill(m, h, nsegs);
	m->status = status;
	m->sk = sk;
	m->reserve = reserve;
	m->progress_at = jiffies;
	peer->in.reserved += reserve;
	if (sk) {
		m->head = alloc_skb(0, GFP_ATOMIC);
		m->nchunks = DIV_ROUND_UP(m->nsegs, HF_PER_CHUNK);
		m->chunks = kcalloc(m->nchunks, sizeof(*m->chunks), GFP_ATOMIC);
		if (!m->head || !m->chunks) {
			hf_rx_msg_free(peer, m);
			return NULL;
		}
	}
	return m;
}

/*
 * The destructor of a delivered message's skb, read or dropped: its
 * reservation leaves the namespace's and the module-wide limits only now
 * (a slow reader's messages count there until read), then the socket's
 * receive memory, as sock_rfree() does for any skb.
 */
static void hf_rx_head_free(struct sk_buff *skb)
{
	u32 reserve = HF_SKB_CB(skb)->reserve;

	atomic64_sub(reserve, &hf_net(sock_net(skb->sk))->rx_reserved);
	hf_mem_uncharge(hf_mem_pages(reserve));
	sock_rfree(skb);
}

/*
 * The socket's filter kept only the first @head->len bytes of @m and freed
 * the segments beyond: its reservation shrinks to what it still holds
 * (hf_rx_msg_reserve() of the bytes and segments kept, never more than it
 * had), given back at once to the socket, the peer, the namespace and the
 * module-wide limit. An unread cut message counts for the memory it pins,
 * as it does in the socket's buffer, not for the message it was. Peer
 * lock held.
 */
static void hf_rx_msg_shrink(struct hf_peer *peer, struct hf_rx_msg *m,
			     const struct sk_buff *head)
{
	const struct sk_buff *seg;
	u32 nsegs = 0;
	u64 keep, diff;

	lockdep_assert_held(&peer->lock);
	skb_walk_frags(head, seg)
		nsegs++;
	keep = min(hf_rx_msg_reserve(head->len, max(nsegs, 1U)), m->reserve);
	diff = m->reserve - keep;
	if (!diff)
		return;
	atomic64_sub(diff, &hf_net(peer->net)->rx_reserved);
	hf_mem_uncharge(hf_mem_pages(m->reserve) - hf_mem_pages(keep));
	peer->in.reserved -= diff;
	atomic_sub(diff, &hf_sk(m->sk)->rx_reserved);
	m->reserve = keep;
}

/**
 * hf_rx_deliver_chain() - chain a complete message's segments under its head
 * @m: the message, every segment held; caller holds its peer's lock
 *
 * Each slot is emptied as its skb joins @m->head's frag_list, in order; a
 * slot a packed train covers adds nothing (the train's skb is in its first
 * segment's slot).
 */
static void hf_rx_deliver_chain(struct hf_rx_msg *m)
{
	struct sk_buff *head = m->head, **link;
	u32 i;

	link = &skb_shinfo(head)->frag_list;
	for (i = 0; i < m->nsegs; i++) {
		struct sk_buff **slot = hf_rx_seg_slot(m, i, false);
		struct sk_buff *seg = *slot;

		*slot = NULL;
		if (seg == HF_RX_COVERED)
			continue;
		head->len += seg->len;
		head->data_len += seg->len;
		*link = seg;
		link = &seg->next;
	}
	*link = NULL;
}

/**
 * hf_rx_deliver_filter() - run the hooks every family runs on delivery
 * @peer: the message's source; caller holds its lock
 * @m: the message, its segments chained under @m->head
 * @len: its length before the hooks
 *
 * Both are in sk_filter(): the security module's (security_sock_rcv_skb())
 * and the socket's filter (SO_ATTACH_FILTER, SO_ATTACH_BPF). The filter
 * sees the message from its first byte, as it came in on its interface
 * (skb->ifindex, skb->protocol); it may drop it or keep a part (pskb_trim()
 * of the chain, which frees the segments beyond, and its reservation
 * shrinks with it).
 *
 * Return: true when the message goes on to its socket, whole or cut; false
 * when refused: it is resolved as for no port and everything it holds is
 * let go.
 */
static bool hf_rx_deliver_filter(struct hf_peer *peer, struct hf_rx_msg *m,
				 u32 len)
{
	struct sk_buff *head = m->head;
	int err;

	lockdep_assert_held(&peer->lock);
	head->dev = peer->dev;
	head->skb_iif = peer->dev->ifindex;
	if (skb_shinfo(head)->frag_list)
		head->protocol = skb_shinfo(head)->frag_list->protocol;
	err = sk_filter(m->sk, head);
	/* Queued for long: no pointer to a device that may go meanwhile. */
	head->dev = NULL;
	if (err) {
		m->status = HF_STATUS_NO_PORT;
		hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_RX_MSGS_FILTERED);
		hf_rx_msg_release(peer, m);
		return false;
	}
	if (head->len < len)
		hf_rx_msg_shrink(peer, m, head);
	return true;
}

/**
 * hf_rx_deliver_queue() - queue a message past its hooks on its socket
 * @peer: its source; caller holds its lock
 * @m: the message; its head skb goes to the socket when queued
 * @len: its length as it was sent, before any cut
 *
 * The head skb carries what recvmsg() reports (struct hf_skb_cb) and the
 * message's reservation (freed with it: hf_rx_head_free()), and is charged
 * to the socket.
 *
 * Return: true when queued; false when the socket died meanwhile.
 */
static bool hf_rx_deliver_queue(struct hf_peer *peer, struct hf_rx_msg *m,
				u32 len)
{
	struct sk_buff *head = m->head;
	struct sock *sk = m->sk;
	unsigned long flags;

	lockdep_assert_held(&peer->lock);
	HF_SKB_CB(head)->sport = m->sport;
	BUILD_BUG_ON(sizeof(struct hf_skb_cb) > sizeof_field(struct sk_buff, cb));
	HF_SKB_CB(head)->len = len;
	HF_SKB_CB(head)->epoch = peer->in.ep.epoch;
	HF_SKB_CB(head)->rx_state = peer->in.ep.state;
	HF_SKB_CB(head)->ifindex = peer->dev->ifindex;
	ether_addr_copy(HF_SKB_CB(head)->addr, peer->addr);
	/*
	 * Checked again under the queue's lock, which hf_release() takes
	 * after marking the socket dead to return the credit of what is
	 * queued: nothing may be queued after that (its credit would be
	 * lost). Refused here, the chain is freed with @m; a later call
	 * returns at the first check, the socket being dead for good.
	 */
	spin_lock_irqsave(&sk->sk_receive_queue.lock, flags);
	if (sock_flag(sk, SOCK_DEAD)) {
		spin_unlock_irqrestore(&sk->sk_receive_queue.lock, flags);
		return false;
	}
	m->head = NULL;
	m->delivered = true;
	HF_SKB_CB(head)->reserve = m->reserve;
	skb_set_owner_r(head, sk);
	head->destructor = hf_rx_head_free;
	__skb_queue_tail(&sk->sk_receive_queue, head);
	spin_unlock_irqrestore(&sk->sk_receive_queue.lock, flags);
	return true;
}

/**
 * hf_rx_deliver() - hand a complete message to its socket
 * @peer: its source; caller holds its lock
 * @m: the message, every segment held
 *
 * Delivered, its reservation goes with it (hf_rx_head_free()) and its
 * memory stays charged to the socket until read. Refused by the socket's
 * filter or the security module, it is resolved as for no port
 * (HF_STATUS_NO_PORT, so its sender gets ECONNREFUSED) and everything it
 * holds is let go at once, as for a message read at once.
 *
 * Return: true when delivered; false when the socket is gone, or refused it.
 */
static bool hf_rx_deliver(struct hf_peer *peer, struct hf_rx_msg *m)
{
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	struct sock *sk = m->sk;
	u32 len;

	lockdep_assert_held(&peer->lock);

	if (sock_flag(sk, SOCK_DEAD))
		return false;
	hf_rx_deliver_chain(m);
	/* The credit it took is returned whole when read (hf_skb_cb.len). */
	len = m->head->len;
	if (!hf_rx_deliver_filter(peer, m, len) ||
	    !hf_rx_deliver_queue(peer, m, len))
		return false;
	/*
	 * Under the peer's lock: a kernel user must not read from its
	 * data_ready callback (recvmsg() takes the lock to return credit).
	 */
	sk->sk_data_ready(sk);
	hf_sock_note_peer(hf_sk(sk), peer->dev->ifindex, peer->addr);
	/* Out of reassembly: its bytes count against the share until read. */
	peer->in.credit_reasm -= min(m->credited, peer->in.credit_reasm);

	hf_stat_inc(stats, HF_STAT_RX_MSGS);
	hf_stat_add(stats, HF_STAT_RX_BYTES, m->len);
	if (trace_hf_msg_deliver_enabled())
		trace_hf_msg_deliver(peer, m->msg_id, m->sport, m->dport,
				     m->len, ktime_get_ns() - m->first_ns);
	peer->in.stats.delivered++;
	return true;
}

/*
 * Whether the messages before @m between the same two ports let it go to
 * its socket now: the one it follows (@m->pred back, as its sender named
 * it) is resolved or delivered, or will never be delivered (refused) and
 * the one that one follows lets it in turn. One not seen yet holds @m
 * back. Each step goes back in msg_id and stops at msg_done, so the walk
 * ends within HF_STATUS_WINDOW_MAX steps, whatever a sender put in pred.
 */
static bool hf_rx_pred_clear(const struct hf_peer *peer,
			     const struct hf_rx_msg *m)
{
	lockdep_assert_held(&peer->lock);
	while (m->pred) {
		u32 id = m->msg_id - m->pred;

		if (hf_seq_before(id, peer->in.msg_done))
			return true;
		m = peer->in.msgs[id % HF_STATUS_WINDOW_MAX];
		if (!m || m->msg_id != id)
			return false;
		if (m->delivered)
			return true;
		if (m->status == HF_STATUS_DELIVERED)
			return false;
	}
	return true;
}

/*
 * Deliver now every complete message that no undelivered message before
 * it from the same port to the same port holds back: the messages of one
 * pair of ports keep their order, other pairs do not wait for them (a
 * small message overtakes another socket's bulk). A message not seen yet
 * may be from any pair: its sender's pred (hf_rx_pred_clear()) says whether
 * it holds a later one back. The outcomes are still resolved and reported
 * in msg_id order (hf_rx_resolve()).
 */
void hf_rx_deliver_ready(struct hf_peer *peer)
{
	u32 blocked[HF_STATUS_WINDOW_MAX];
	unsigned int nblocked = 0, i;
	u32 id;

	lockdep_assert_held(&peer->lock);

	for (id = peer->in.msg_done;
	     id - peer->in.msg_done < hf_rx_status_span(peer); id++) {
		struct hf_rx_msg *m = peer->in.msgs[id % HF_STATUS_WINDOW_MAX];
		u32 pair;

		if (!m || m->delivered || m->status != HF_STATUS_DELIVERED)
			continue;
		pair = (u32)m->sport << 16 | m->dport;
		for (i = 0; i < nblocked; i++)
			if (blocked[i] == pair)
				break;
		if (i == nblocked && m->received == m->nsegs && m->sk &&
		    hf_rx_pred_clear(peer, m) && hf_rx_deliver(peer, m)) {
			m->delivered = true;
			hf_rx_msg_release(peer, m);
			continue;
		}
		/* Refused by its socket's filter: holds nothing back. */
		if (m->status != HF_STATUS_DELIVERED)
			continue;
		if (i == nblocked)
			blocked[nblocked++] = pair;
	}
}

/*
 * Record the outcome of message msg_done, the latest: the words of
 * in.msg_status are one register of 2-bit outcomes, shifted as one.
 */
static void hf_rx_status_push(struct hf_peer *peer, u8 status)
{
	u64 *w = peer->in.msg_status;
	unsigned int i;

	lockdep_assert_held(&peer->lock);
	for (i = ARRAY_SIZE(peer->in.msg_status) - 1; i > 0; i--)
		w[i] = w[i] << 2 | w[i - 1] >> 62;
	w[0] = w[0] << 2 | status;
}

/* Resolve, in order, every message that is complete and cumulatively acked. */
bool hf_rx_resolve(struct hf_peer *peer)
{
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	u32 cum = hf_rxwin_cum(&peer->in.rxw);
	bool resolved = false;

	lockdep_assert_held(&peer->lock);

	for (;;) {
		u32 slot = peer->in.msg_done % HF_STATUS_WINDOW_MAX;
		struct hf_rx_msg *m = peer->in.msgs[slot];
		u8 status;

		if (!m || m->received < m->nsegs ||
		    !hf_seq_before(m->last_seq, cum))
			break;
		peer->in.msgs[slot] = NULL;
		status = m->status;
		if (status == HF_STATUS_DELIVERED && !m->delivered &&
		    !hf_rx_deliver(peer, m))
			status = HF_STATUS_NO_PORT;
		if (status == HF_STATUS_NO_PORT)
			hf_stat_inc(stats, HF_STAT_RX_MSGS_NO_PORT);
		else if (status == HF_STATUS_TOO_BIG)
			hf_stat_inc(stats, HF_STAT_RX_MSGS_TOO_BIG);
		/* A delivered message's bytes come back as it is read. */
		if (status != HF_STATUS_DELIVERED) {
			peer->in.credit_reasm -= min(m->credited,
						     peer->in.credit_reasm);
			hf_rx_credit_release(peer, m->credited);
		}
		hf_rx_status_push(peer, status);
		peer->in.msg_done++;
		hf_rx_msg_free(peer, m);
		resolved = true;
	}
	return resolved;
}

/*
 * Whether @peer has a message in reassembly for @sk: its rest must still
 * come (it holds part of the buffer that the refusal waits for), so the
 * flow's window stays open for it whatever the socket refused.
 */
static bool hf_rx_reassembles_for(const struct hf_peer *peer, const struct sock *sk)
{
	unsigned int i;

	lockdep_assert_held(&peer->lock);

	for (i = 0; i < HF_STATUS_WINDOW_MAX; i++) {
		const struct hf_rx_msg *m = peer->in.msgs[i];

		if (m && m->sk == sk && !m->delivered && m->received < m->nsegs)
			return true;
	}
	return false;
}

/*
 * Whether the flow's window is closed: no message of the flow for the
 * socket that last refused one of its messages is still being reassembled
 * (the rest of it must come), and that socket is there and still has no
 * room for the message it refused, or has not yet drained to the half of
 * its buffer its WINDOW ack waits for (hf_sock_room_again()): an ACK that
 * opened the window sooner would have the sender repair into a buffer
 * about to be full again. That hold
 * lasts HF_REFUSED_HOLD after the last refusal at most: the other ports
 * behind the flow must not wait on a reader that stopped above half and
 * may not come back. Checked at each ACK, so a socket that was read, or
 * closed, before its WINDOW ack could tell, does not hold the flow.
 */
bool hf_rx_window_closed(struct hf_peer *peer)
{
	struct sock *sk;
	bool closed;

	lockdep_assert_held(&peer->lock);

	if (!peer->in.refused.on)
		return false;
	sk = hf_port_lookup(peer->net, peer->in.refused.port,
			    peer->dev->ifindex, NULL);
	if (!sk)
		return false;
	closed = !hf_rx_reassembles_for(peer, sk) &&
		 (hf_rx_sock_full(sk, peer->in.refused.need) ||
		  (READ_ONCE(hf_sk(sk)->rx_refused) && !hf_sock_room_again(sk) &&
		   time_before(jiffies, peer->in.refused.at + HF_REFUSED_HOLD)));
	sock_put(sk);
	return closed;
}

/**
 * hf_input_window_open() - tell every peer refused for a full socket
 * buffer that there is room again
 * @net: the namespace of the socket that was just read
 *
 * Process context. Refused segments were neither kept nor acknowledged;
 * a WINDOW ack makes their senders resend them now instead of at their
 * (backed-off) retransmission timeout. Peers of the namespace are few
 * (max_peers) and only those flagged are touched.
 */
void hf_input_window_open(struct net *net)
{
	struct hf_net *hn = hf_net(net);
	struct hf_peer *peer;
	unsigned int bkt;

	rcu_read_lock();
	hash_for_each_rcu(hn->peers, bkt, peer, node) {
		if (!READ_ONCE(peer->in.refused.on))
			continue;
		spin_lock_bh(&peer->lock);
		if (!peer->dead && peer->in.refused.on) {
			peer->in.refused.on = false;
			/*
			 * Its sender counts this ACK as the flow alive: so
			 * must our idle reclaim.
			 */
			peer->last_active = jiffies;
			hf_rx_send_ack(peer, HF_AF_WINDOW);
		}
		spin_unlock_bh(&peer->lock);
	}
	rcu_read_unlock();
}

/**
 * hf_input_read() - a delivered message was read, or dropped unread:
 * return its bytes to the credit of the flow it came by
 * @net: the socket's namespace
 * @cb: where the message came from (a copy of its skb's, which may be
 *	freed already: the socket's buffer must not count it any more)
 * @len: its length
 *
 * Process context, no locks held. A message of an incarnation of the
 * flow other than the current one (another epoch, or our state for it
 * lost and started again), or of a peer gone, returns nothing: that
 * flow's credit went with it. The grant goes out on an ACK of its own
 * once it grew by a quarter of the share, or at once when the sender
 * cannot send a segment with what it was told; otherwise the next ACK
 * carries it.
 */
void hf_input_read(struct net *net, const struct hf_skb_cb *cb, u32 len)
{
	struct hf_peer *peer = NULL;
	struct net_device *dev;
	u32 wire;
	int err;

	rcu_read_lock();
	dev = dev_get_by_index_rcu(net, cb->ifindex);
	if (dev)
		peer = hf_peer_get(net, dev, cb->addr, HF_PEER_FIND, &err);
	rcu_read_unlock();
	if (!peer)
		return;
	spin_lock_bh(&peer->lock);
	if (!peer->dead && peer->in.ep.epoch && peer->in.ep.epoch == cb->epoch &&
	    peer->in.ep.state == cb->rx_state) {
		struct hf_credit_rx *c = &peer->in.credit;
		u64 seg = hf_seg_size(READ_ONCE(peer->dev->mtu));
		struct hf_credit_params cp;
		u64 base, step;

		hf_rx_credit_release(peer, len);
		/* One reading of the share for both: nactive may move. */
		base = hf_rx_credit_share_base(peer);
		step = max_t(u64, base / 4, 1);
		if (c->advertised < c->received + seg)
			step = 0;
		if (!hf_rx_window_closed(peer)) {
			hf_credit_rx_grant(c, hf_credit_params_read(peer->cfg, &cp),
					   hf_rx_credit_sched(peer, base +
							      peer->in.credit_reasm));
			if (hf_credit_rx_advertise(c, step, &wire)) {
				/* Its sender counts the ACK as the flow alive. */
				peer->last_active = jiffies;
				hf_rx_send_ack(peer, 0);
			}
		}
	}
	spin_unlock_bh(&peer->lock);
	hf_peer_put(peer);
}

/*
 * Drop what message @m holds, its socket reference included, and let it
 * resolve as @status: its remaining segments are counted, not held, so
 * its sender still learns the outcome. Peer lock held.
 */
static void hf_rx_msg_drop(struct hf_peer *peer, struct hf_rx_msg *m, u8 status)
{
	lockdep_assert_held(&peer->lock);
	hf_rx_msg_release(peer, m);
	m->status = status;
	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_RX_MSGS_EXPIRED);
}

/**
 * hf_input_expire() - drop reassembly that made no progress for
 * peer_idle_ms
 * @peer: the peer; caller holds its lock
 *
 * A message whose last new segment is that old holds memory and a socket
 * for a sender that stopped (or trickles repeats, which are not progress):
 * it is refused as too big to hold (HF_STATUS_TOO_BIG).
 */
void hf_input_expire(struct hf_peer *peer)
{
	unsigned long timeout = msecs_to_jiffies(READ_ONCE(peer->cfg->p.peer_idle_ms));
	unsigned int i;

	lockdep_assert_held(&peer->lock);
	for (i = 0; i < HF_STATUS_WINDOW_MAX; i++) {
		struct hf_rx_msg *m = peer->in.msgs[i];

		if (m && m->sk && !m->delivered &&
		    time_after(jiffies, m->progress_at + timeout))
			hf_rx_msg_drop(peer, m, HF_STATUS_TOO_BIG);
	}
}

/**
 * hf_input_sock_closed() - drop the reassembly of a closed socket
 * @net: its namespace
 * @sk: the socket, unbound and dead
 *
 * Process context, no locks held. What is reassembled for @sk holds a
 * reference on it (and so its namespace and the module): it goes now,
 * and those messages resolve as for a port nobody bound.
 */
void hf_input_sock_closed(struct net *net, const struct sock *sk)
{
	struct hf_net *hn = hf_net(net);
	struct hf_peer *peer;
	unsigned int bkt, i;

	rcu_read_lock();
	hash_for_each_rcu(hn->peers, bkt, peer, node) {
		spin_lock_bh(&peer->lock);
		for (i = 0; !peer->dead && i < HF_STATUS_WINDOW_MAX; i++) {
			struct hf_rx_msg *m = peer->in.msgs[i];

			if (m && m->sk == sk && !m->delivered)
				hf_rx_msg_drop(peer, m, HF_STATUS_NO_PORT);
		}
		spin_unlock_bh(&peer->lock);
	}
	rcu_read_unlock();
}
