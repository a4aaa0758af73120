// SPDX-License-Identifier: GPL-2.0
/*
 * hf_input.c - the receiving side: the packet handler of the hyperframe
 * EtherType, reassembly, in-order delivery, and the ACKs that report what
 * arrived and what became of each message.
 *
 * Design notes:
 * 1. Nothing from the wire is trusted: the header is decoded and checked
 *    (core/hf_wire.c), the checksum verified, and every drop counted by
 *    reason. Only a DATA segment can create peer state.
 * 2. A segment is placed at index offset / seg_size in O(1), in page-sized
 *    tables of skb pointers allocated as segments arrive, so a 64 MiB
 *    message needs no large contiguous allocation in softirq context.
 * 3. Segments are kept as the skbs they arrived in (on veth these still
 *    point at the sender's pages): delivery chains them under an empty
 *    head skb as its frag_list and recvmsg copies once, to the user.
 * 4. Memory: a new message is admitted only while the messages delivered
 *    to its socket and not yet read are under SO_RCVBUF (a message may then
 *    overshoot it, as a UDP datagram does). Reassembly is charged to the
 *    socket too, but does not block admission: a message in progress must
 *    not shut out the next one, or the flow would stall behind its own
 *    repair. Every byte held for reassembly also counts against the
 *    namespace's mem_limit. A segment that cannot be held is
 *    dropped unmarked and unacknowledged: the sender repairs it later.
 * 5. A segment is marked received in the window only once it is held, so
 *    the window never claims data that is not there.
 * 6. Messages are resolved in msg_id order, once complete and once the
 *    cumulative ack has passed all their segments; each outcome is
 *    reported in every ACK for the next HF_STATUS_WINDOW messages. A
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

#include "hf_hfq.h"
#include "hf_input.h"
#include "hf_mem.h"
#include "hf_net.h"
#include "hf_offload.h"
#include "hf_output.h"
#include "hf_port.h"
#include "hf_sock.h"
#include "hf_trace.h"
#include "hf_train.h"

#define HF_PER_CHUNK	(PAGE_SIZE / sizeof(struct sk_buff *))
/*
 * The slot of a segment held in another slot's skb: a packed train that
 * arrived whole is kept as one skb in its first segment's slot.
 */
#define HF_RX_COVERED	((struct sk_buff *)1UL)
#define HF_ACK_EVERY	16
/* Adoptions of a new epoch through a challenge: at most one per this. */
#define HF_EPOCH_ADOPT_GAP	(HZ / 10)
/*
 * Answers to one peer per window: challenges, which a genuine new epoch
 * of that peer needs and forgeries in its name compete for, and LOST.
 */
#define HF_EPOCH_CHALLENGES	64
#define HF_EPOCH_LOSTS		8
#define HF_EPOCH_REPLY_WINDOW	(HZ / 10)
/* A challenge cookie holds for this bucket of time and the next. */
#define HF_COOKIE_BUCKET	(2 * HZ)
/*
 * How long a refusing socket's flow stays closed after its last refusal
 * while the socket is under full but above half its buffer: a reader
 * that reads on gets there in milliseconds (a 4 MiB message takes about
 * 20 ms to copy in a TCG guest).
 */
#define HF_REFUSED_HOLD	msecs_to_jiffies(100)
/* The least credit share, in segments: a new flow's first frame. */
#define HF_CREDIT_MIN_SEGS	4
/* Segments a sender may go beyond the credit before they are dropped. */
#define HF_CREDIT_SLACK_SEGS	64

static struct sk_buff **seg_slot(struct hf_rx_msg *m, u32 index, bool alloc)
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
 * delivered skb holds that part until it is freed (rx_head_free()).
 */
static void rx_msg_release(struct hf_peer *peer, struct hf_rx_msg *m)
{
	struct hf_net *hn = hf_net(peer->net);
	u32 c, i;

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
	peer->rx_reserved -= m->reserve;
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

static void rx_msg_free(struct hf_peer *peer, struct hf_rx_msg *m)
{
	rx_msg_release(peer, m);
	kfree(m);
}

/*
 * The segments of @m take far more memory than its reservation: it is
 * refused as too big for this receiver. It still completes, counting its
 * segments without holding them, so the sender learns the outcome.
 */
static void rx_msg_refuse(struct hf_peer *peer, struct hf_rx_msg *m)
{
	rx_msg_release(peer, m);
	m->status = HF_STATUS_TOO_BIG;
	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_RX_MSGS_NO_MEMORY);
}

/*
 * What a message's segments are expected to take: payload plus, per
 * segment, an skb's bookkeeping and header room. Admission reserves this;
 * a message may hold twice as much before it is refused.
 */
static u64 rx_msg_reserve(u32 len, u32 nsegs)
{
	return (u64)len + (u64)nsegs * SKB_TRUESIZE(256);
}

/*
 * A copy of @skb's bytes from its data pointer on, in a buffer of their
 * size: skb_copy() would keep the headroom and the whole original
 * buffer. Its truesize is at most twice rx_msg_reserve() of its payload,
 * whatever buffer the driver received it in.
 */
static struct sk_buff *rx_skb_tight(const struct sk_buff *skb)
{
	struct sk_buff *n = alloc_skb(skb->len, GFP_ATOMIC);

	if (!n)
		return NULL;
	if (skb_copy_bits(skb, 0, skb_put(n, skb->len), skb->len)) {
		kfree_skb(n);
		return NULL;
	}
	n->dev = skb->dev;
	n->tstamp = skb->tstamp;
	n->protocol = skb->protocol;
	memcpy(n->cb, skb->cb, sizeof(n->cb));
	return n;
}

/* Bytes of @sk's receive memory delivered and not read yet. */
static int rx_sock_delivered(const struct sock *sk)
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
static bool rx_sock_full(const struct sock *sk, u64 need)
{
	int delivered = rx_sock_delivered(sk);
	int reserved = atomic_read(&hf_sk(sk)->rx_reserved);

	if (!delivered && !reserved)
		return false;
	return (u64)delivered + reserved + need > (u64)READ_ONCE(sk->sk_rcvbuf);
}

/*
 * Reserve @need bytes of @sk's receive buffer for a new message, as
 * rx_sock_full() allows: atomically, since messages from other peers are
 * admitted concurrently. Return: true when reserved.
 */
static bool rx_sock_reserve(struct sock *sk, u32 need)
{
	struct hf_sock *hs = hf_sk(sk);
	int delivered = rx_sock_delivered(sk);
	int reserved = atomic_add_return(need, &hs->rx_reserved);

	if ((!delivered && reserved == need) ||
	    (u64)delivered + reserved <= (u64)READ_ONCE(sk->sk_rcvbuf))
		return true;
	atomic_sub(need, &hs->rx_reserved);
	return false;
}

/*
 * Credit we grant the sender (core/hf_credit.c): the bytes it may have
 * sent beyond what our programs have read is its share of credit_budget,
 * split evenly among the peers whose bytes are not all read yet (this one
 * counted), and never more than one source may reserve (rx_msg_new()),
 * plus what its messages in reassembly hold. Those were paid for when
 * they were admitted (the whole message is reserved then), and a message
 * larger than the share could never complete if they counted; once
 * delivered, their bytes count until read.
 */
static bool rx_credit_busy(const struct hf_credit_rx *c)
{
	return c->received != c->consumed;
}

/*
 * The peer's share of the budget, reassembly not included; never below a
 * few segments, or a sender with nothing in flight could send only
 * persist probes.
 */
/* Peers sending to this namespace: those whose bytes are not all read. */
static u32 rx_credit_nactive(const struct hf_peer *peer)
{
	u32 nactive = max(atomic_read(&hf_net(peer->net)->rx_credit_active), 0);

	/* This one counts, busy or not: it is asking. */
	return rx_credit_busy(&peer->rx_credit) ? max(nactive, 1U) : nactive + 1;
}

static u64 rx_credit_share_base(const struct hf_peer *peer)
{
	u32 nactive = rx_credit_nactive(peer);
	u64 floor = (u64)HF_CREDIT_MIN_SEGS *
		    hf_seg_size(READ_ONCE(peer->dev->mtu));
	u64 share;

	share = min_t(u64, hf_credit_share(READ_ONCE(peer->cfg->p.credit_budget),
					   nactive, 0),
		      READ_ONCE(peer->cfg->p.mem_limit) / 4);
	return max(share, floor);
}

static u64 rx_credit_share(const struct hf_peer *peer)
{
	return rx_credit_share_base(peer) + peer->rx_credit_reasm;
}

/*
 * @bytes of new payload arrived, counted once per sequence number: held in
 * reassembly until their message is delivered or dropped.
 */
static void rx_credit_data(struct hf_peer *peer, u32 bytes)
{
	struct hf_credit_rx *c = &peer->rx_credit;
	struct hf_net *hn = hf_net(peer->net);
	bool idle = !rx_credit_busy(c);
	u64 over = c->over;

	peer->rx_credit_reasm += bytes;
	hf_credit_rx_on_data(c, bytes);
	/* Kept: every byte is bounded by the socket and namespace limits. */
	if (c->over != over)
		hf_stat_add(&hn->stats, HF_STAT_RX_CREDIT_OVER, c->over - over);
	if (idle && rx_credit_busy(c))
		atomic_inc(&hn->rx_credit_active);
}

/* @bytes were read, or dropped after they arrived. */
static void rx_credit_release(struct hf_peer *peer, u64 bytes)
{
	struct hf_credit_rx *c = &peer->rx_credit;
	bool busy = rx_credit_busy(c);

	hf_credit_rx_on_consume(c, bytes);
	if (busy && !rx_credit_busy(c))
		atomic_dec(&hf_net(peer->net)->rx_credit_active);
}

/* A new incarnation of the flow, or none: both counts start at 0. */
static void rx_credit_reset(struct hf_peer *peer)
{
	struct hf_credit_params cp;

	peer->rx_credit_reasm = 0;
	if (rx_credit_busy(&peer->rx_credit))
		atomic_dec(&hf_net(peer->net)->rx_credit_active);
	hf_credit_rx_init(&peer->rx_credit, hf_credit_params_read(peer->cfg, &cp));
}

/*
 * Whether new segments [@seq, @seq + @n) of @bytes payload take the flow
 * far beyond the credit we granted: past the limit by more than
 * HF_CREDIT_SLACK_SEGS segments (a sender's persist probes go one beyond
 * it at a time). Its sender broke its credit: they are dropped unheld
 * (and answered, the flow being alive), so a sender cannot make us hold
 * more than our grants. Repeats and segments outside the window are
 * judged elsewhere.
 */
static bool rx_credit_broken(struct hf_peer *peer, u32 seq, u32 n, u32 bytes)
{
	const struct hf_credit_rx *c = &peer->rx_credit;
	u64 slack = (u64)HF_CREDIT_SLACK_SEGS * hf_seg_size(READ_ONCE(peer->dev->mtu));

	return c->received + bytes > c->limit + slack &&
	       hf_rxwin_fresh(&peer->rxw, seq, n);
}

/* Start reassembly of the message @d announces; NULL when it cannot be held now. */
static struct hf_rx_msg *rx_msg_new(struct hf_peer *peer,
				    const struct hf_hdr *h,
				    enum hf_stat *why)
{
	const struct hf_data_hdr *d = &h->data;
	struct hf_net *hn = hf_net(peer->net);
	u32 nsegs = d->msg_len ? DIV_ROUND_UP(d->msg_len, d->seg_size) : 1;
	u64 reserve = rx_msg_reserve(d->msg_len, nsegs);
	u8 status = HF_STATUS_DELIVERED;
	struct sock *sk = NULL;
	struct hf_rx_msg *m;
	bool other_dev;

	if (d->msg_len > READ_ONCE(peer->cfg->p.max_msg)) {
		status = HF_STATUS_TOO_BIG;
	} else if (reserve > READ_ONCE(peer->cfg->p.mem_limit) / 4) {
		/* Could never be held, however long the sender waits. */
		status = HF_STATUS_TOO_BIG;
		hf_stat_inc(&hn->stats, HF_STAT_RX_MSGS_NO_MEMORY);
	} else {
		sk = hf_port_lookup(peer->net, h->dport, peer->dev->ifindex,
				    &other_dev);
		if (!sk) {
			status = HF_STATUS_NO_PORT;
			if (other_dev)
				hf_stat_inc(&hn->stats, HF_STAT_RX_MSGS_OTHER_DEV);
		}
	}

	/*
	 * Reserve the whole message now, so that every message admitted can
	 * complete: charging segments as they come would let concurrent
	 * large messages each take part of the limit and none finish. A
	 * message refused here is admitted when its sender tries again. It
	 * is reserved against its socket's buffer, its source's quarter of
	 * mem_limit, the namespace's mem_limit and the module-wide limit;
	 * the socket's full buffer is flow control, the rest memory limits.
	 */
	if (sk) {
		if (!rx_sock_reserve(sk, reserve)) {
			peer->rx_refused = true;
			peer->rx_refused_port = h->dport;
			peer->rx_refused_need = reserve;
			peer->rx_refused_at = jiffies;
			WRITE_ONCE(hf_sk(sk)->rx_refused, true);
			sock_put(sk);
			*why = HF_STAT_DROP_RCVBUF;
			return NULL;
		}
		*why = HF_STAT_DROP_MEM_LIMIT;
		if (peer->rx_reserved + reserve > READ_ONCE(peer->cfg->p.mem_limit) / 4)
			goto unreserve_sock;
		if (atomic64_add_return(reserve, &hn->rx_reserved) >
		    READ_ONCE(peer->cfg->p.mem_limit))
			goto unreserve_net;
		/* Under memory pressure, a socket takes one message at a time. */
		if (!hf_mem_charge(hf_mem_pages(reserve),
				   atomic_read(&hf_sk(sk)->rx_reserved) == reserve &&
				   !rx_sock_delivered(sk)))
			goto unreserve_net;
	} else {
		reserve = 0;
	}

	*why = HF_STAT_DROP_MEMORY;
	m = kzalloc(sizeof(*m), GFP_ATOMIC);
	if (!m)
		goto fail;
	m->first_ns = ktime_get_ns();
	m->msg_id = d->msg_id;
	m->len = d->msg_len;
	m->seg_size = d->seg_size;
	m->nsegs = nsegs;
	m->last_seq = d->seq;
	m->sport = h->sport;
	m->dport = h->dport;
	m->pred = d->pred;
	m->status = status;
	m->sk = sk;
	m->reserve = reserve;
	m->progress_at = jiffies;
	peer->rx_reserved += reserve;
	if (sk) {
		m->head = alloc_skb(0, GFP_ATOMIC);
		m->nchunks = DIV_ROUND_UP(m->nsegs, HF_PER_CHUNK);
		m->chunks = kcalloc(m->nchunks, sizeof(*m->chunks), GFP_ATOMIC);
		if (!m->head || !m->chunks) {
			rx_msg_free(peer, m);
			return NULL;
		}
	}
	return m;
fail:
	if (!sk)
		return NULL;
	hf_mem_uncharge(hf_mem_pages(reserve));
unreserve_net:
	atomic64_sub(reserve, &hn->rx_reserved);
unreserve_sock:
	atomic_sub(reserve, &hf_sk(sk)->rx_reserved);
	sock_put(sk);
	return NULL;
}

/*
 * The destructor of a delivered message's skb, read or dropped: its
 * reservation leaves the namespace's and the module-wide limits only now
 * (a slow reader's messages count there until read), then the socket's
 * receive memory, as sock_rfree() does for any skb.
 */
static void rx_head_free(struct sk_buff *skb)
{
	u32 reserve = HF_SKB_CB(skb)->reserve;

	atomic64_sub(reserve, &hf_net(sock_net(skb->sk))->rx_reserved);
	hf_mem_uncharge(hf_mem_pages(reserve));
	sock_rfree(skb);
}

/*
 * The socket's filter kept only the first @head->len bytes of @m and freed
 * the segments beyond: its reservation shrinks to what it still holds
 * (rx_msg_reserve() of the bytes and segments kept, never more than it
 * had), given back at once to the socket, the peer, the namespace and the
 * module-wide limit. An unread cut message counts for the memory it pins,
 * as it does in the socket's buffer, not for the message it was. Peer
 * lock held.
 */
static void rx_msg_shrink(struct hf_peer *peer, struct hf_rx_msg *m,
			  const struct sk_buff *head)
{
	const struct sk_buff *seg;
	u32 nsegs = 0;
	u64 keep, diff;

	lockdep_assert_held(&peer->lock);
	skb_walk_frags(head, seg)
		nsegs++;
	keep = min(rx_msg_reserve(head->len, max(nsegs, 1U)), m->reserve);
	diff = m->reserve - keep;
	if (!diff)
		return;
	atomic64_sub(diff, &hf_net(peer->net)->rx_reserved);
	hf_mem_uncharge(hf_mem_pages(m->reserve) - hf_mem_pages(keep));
	peer->rx_reserved -= diff;
	atomic_sub(diff, &hf_sk(m->sk)->rx_reserved);
	m->reserve = keep;
}

/*
 * Hand a complete message to its socket; false when the socket is gone, or
 * refused it: its filter or the security module dropped it. Delivered,
 * its reservation goes with it (rx_head_free()) and its memory stays
 * charged to the socket until read. Refused, it is resolved as for no port
 * (HF_STATUS_NO_PORT, so its sender gets ECONNREFUSED) and everything it
 * holds is let go at once, as for a message read at once.
 */
static bool rx_deliver(struct hf_peer *peer, struct hf_rx_msg *m)
{
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	struct sk_buff *head = m->head, **link;
	struct sock *sk = m->sk;
	unsigned long flags;
	u32 i, len;
	int err;

	if (sock_flag(sk, SOCK_DEAD))
		return false;

	link = &skb_shinfo(head)->frag_list;
	for (i = 0; i < m->nsegs; i++) {
		struct sk_buff **slot = seg_slot(m, i, false);
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

	/*
	 * The hooks every family runs on delivery, both in sk_filter(): the
	 * security module's (security_sock_rcv_skb()) and the socket's filter
	 * (SO_ATTACH_FILTER, SO_ATTACH_BPF). The filter sees the message from
	 * its first byte, as it came in on its interface (skb->ifindex,
	 * skb->protocol); it may drop it or keep a part (pskb_trim() of the
	 * chain, which frees the segments beyond, and its reservation
	 * shrinks with it). The credit the message took is returned whole
	 * when it is read (hf_skb_cb.len).
	 */
	len = head->len;
	head->dev = peer->dev;
	head->skb_iif = peer->dev->ifindex;
	if (skb_shinfo(head)->frag_list)
		head->protocol = skb_shinfo(head)->frag_list->protocol;
	err = sk_filter(sk, head);
	/* Queued for long: no pointer to a device that may go meanwhile. */
	head->dev = NULL;
	if (err) {
		m->status = HF_STATUS_NO_PORT;
		hf_stat_inc(stats, HF_STAT_RX_MSGS_FILTERED);
		rx_msg_release(peer, m);
		return false;
	}
	if (head->len < len)
		rx_msg_shrink(peer, m, head);

	HF_SKB_CB(head)->sport = m->sport;
	BUILD_BUG_ON(sizeof(struct hf_skb_cb) > sizeof_field(struct sk_buff, cb));
	HF_SKB_CB(head)->len = len;
	HF_SKB_CB(head)->epoch = peer->rx_ep.epoch;
	HF_SKB_CB(head)->rx_state = peer->rx_ep.state;
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
	head->destructor = rx_head_free;
	__skb_queue_tail(&sk->sk_receive_queue, head);
	spin_unlock_irqrestore(&sk->sk_receive_queue.lock, flags);
	/*
	 * Under the peer's lock: a kernel user must not read from its
	 * data_ready callback (recvmsg() takes the lock to return credit).
	 */
	sk->sk_data_ready(sk);
	hf_sock_note_peer(hf_sk(sk), peer->dev->ifindex, peer->addr);
	/* Out of reassembly: its bytes count against the share until read. */
	peer->rx_credit_reasm -= min(m->credited, peer->rx_credit_reasm);

	hf_stat_inc(stats, HF_STAT_RX_MSGS);
	hf_stat_add(stats, HF_STAT_RX_BYTES, m->len);
	if (trace_hf_msg_deliver_enabled())
		trace_hf_msg_deliver(peer, m->msg_id, m->sport, m->dport,
				     m->len, ktime_get_ns() - m->first_ns);
	peer->rx_delivered++;
	return true;
}

/*
 * Whether the messages before @m between the same two ports let it go to
 * its socket now: the one it follows (@m->pred back, as its sender named
 * it) is resolved or delivered, or will never be delivered (refused) and
 * the one that one follows lets it in turn. One not seen yet holds @m
 * back. Each step goes back in msg_id and stops at msg_done, so the walk
 * ends within HF_STATUS_WINDOW steps, whatever a sender put in pred.
 */
static bool rx_pred_clear(const struct hf_peer *peer,
			  const struct hf_rx_msg *m)
{
	while (m->pred) {
		u32 id = m->msg_id - m->pred;

		if (hf_seq_before(id, peer->rx_msg_done))
			return true;
		m = peer->rx_msgs[id % HF_STATUS_WINDOW];
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
 * may be from any pair: its sender's pred (rx_pred_clear()) says whether
 * it holds a later one back. The outcomes are still resolved and reported
 * in msg_id order (rx_resolve()).
 */
static void rx_deliver_ready(struct hf_peer *peer)
{
	u32 blocked[HF_STATUS_WINDOW];
	unsigned int nblocked = 0, i;
	u32 id;

	for (id = peer->rx_msg_done;
	     id - peer->rx_msg_done < HF_STATUS_WINDOW; id++) {
		struct hf_rx_msg *m = peer->rx_msgs[id % HF_STATUS_WINDOW];
		u32 pair;

		if (!m || m->delivered || m->status != HF_STATUS_DELIVERED)
			continue;
		pair = (u32)m->sport << 16 | m->dport;
		for (i = 0; i < nblocked; i++)
			if (blocked[i] == pair)
				break;
		if (i == nblocked && m->received == m->nsegs && m->sk &&
		    rx_pred_clear(peer, m) && rx_deliver(peer, m)) {
			m->delivered = true;
			rx_msg_release(peer, m);
			continue;
		}
		/* Refused by its socket's filter: holds nothing back. */
		if (m->status != HF_STATUS_DELIVERED)
			continue;
		if (i == nblocked)
			blocked[nblocked++] = pair;
	}
}

/* Resolve, in order, every message that is complete and cumulatively acked. */
static bool rx_resolve(struct hf_peer *peer)
{
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	u32 cum = hf_rxwin_cum(&peer->rxw);
	bool resolved = false;

	for (;;) {
		u32 slot = peer->rx_msg_done % HF_STATUS_WINDOW;
		struct hf_rx_msg *m = peer->rx_msgs[slot];
		u8 status;

		if (!m || m->received < m->nsegs ||
		    !hf_seq_before(m->last_seq, cum))
			break;
		peer->rx_msgs[slot] = NULL;
		status = m->status;
		if (status == HF_STATUS_DELIVERED && !m->delivered &&
		    !rx_deliver(peer, m))
			status = HF_STATUS_NO_PORT;
		if (status == HF_STATUS_NO_PORT)
			hf_stat_inc(stats, HF_STAT_RX_MSGS_NO_PORT);
		else if (status == HF_STATUS_TOO_BIG)
			hf_stat_inc(stats, HF_STAT_RX_MSGS_TOO_BIG);
		/* A delivered message's bytes come back as it is read. */
		if (status != HF_STATUS_DELIVERED) {
			peer->rx_credit_reasm -= min(m->credited,
						     peer->rx_credit_reasm);
			rx_credit_release(peer, m->credited);
		}
		peer->rx_msg_status = peer->rx_msg_status << 2 | status;
		peer->rx_msg_done++;
		rx_msg_free(peer, m);
		resolved = true;
	}
	return resolved;
}

/*
 * Whether @peer has a message in reassembly for @sk: its rest must still
 * come (it holds part of the buffer that the refusal waits for), so the
 * flow's window stays open for it whatever the socket refused.
 */
static bool rx_reassembles_for(const struct hf_peer *peer, const struct sock *sk)
{
	unsigned int i;

	for (i = 0; i < HF_STATUS_WINDOW; i++) {
		const struct hf_rx_msg *m = peer->rx_msgs[i];

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
static bool rx_window_closed(struct hf_peer *peer)
{
	struct sock *sk;
	bool closed;

	if (!peer->rx_refused)
		return false;
	sk = hf_port_lookup(peer->net, peer->rx_refused_port,
			    peer->dev->ifindex, NULL);
	if (!sk)
		return false;
	closed = !rx_reassembles_for(peer, sk) &&
		 (rx_sock_full(sk, peer->rx_refused_need) ||
		  (READ_ONCE(hf_sk(sk)->rx_refused) && !hf_sock_room_again(sk) &&
		   time_before(jiffies, peer->rx_refused_at + HF_REFUSED_HOLD)));
	sock_put(sk);
	return closed;
}

/*
 * The credit limit an ACK carries: raised to the sender's share beyond
 * what was read, unless a socket's full buffer closed the window (the
 * ACK says CLOSED then; the limit never goes back).
 */
static u32 rx_credit_limit(struct hf_peer *peer, bool closed)
{
	struct hf_credit_params cp;

	if (!closed)
		hf_credit_rx_grant(&peer->rx_credit, hf_credit_params_read(peer->cfg, &cp),
				   rx_credit_share(peer));
	peer->rx_credit.advertised = peer->rx_credit.limit;
	return hf_credit_to_wire(peer->rx_credit.limit);
}

/*
 * The rate hint an ACK carries, in kbit/s: the rate of the link the data
 * comes in by, split evenly among the peers sending to us (incast: 1/N
 * each). The link's rate is the one hfq paces the device to, taken as
 * the link's both ways; without hfq or a rate, 0: no hint.
 */
static u32 rx_rate_hint(const struct hf_peer *peer)
{
	u64 link = hf_hfq_rate(peer->dev);
	u64 hint;

	if (!link)
		return 0;
	hint = hf_credit_rate_hint(0, link, rx_credit_nactive(peer));
	return min_t(u64, DIV_ROUND_UP_ULL(hint * 8, 1000), U32_MAX);
}

/*
 * The ACK timer, unless it is already set or the peer is dead (its timers
 * stopped for good). Peer lock held.
 */
static void rx_ack_timer_arm(struct hf_peer *peer)
{
	if (!peer->dead && !timer_pending(&peer->ack_timer))
		mod_timer(&peer->ack_timer,
			  jiffies + usecs_to_jiffies(READ_ONCE(peer->cfg->p.ack_delay_us)) + 1);
}

static void rx_send_ack(struct hf_peer *peer, u8 flags)
{
	struct net_device *dev = peer->dev;
	struct hf_hdr h = { .type = HF_TYPE_ACK };
	struct sk_buff *skb;
	__sum16 csum;
	bool closed;
	int hlen;
	u8 *hdr;

	skb = alloc_skb(LL_RESERVED_SPACE(dev) + HF_HLEN_MAX, GFP_ATOMIC);
	if (!skb) {
		/*
		 * What was owed stays owed (one ACK may stand for a train),
		 * and the timer tries again: any ACK says it all.
		 */
		hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_XMIT_ERRORS);
		peer->ack_due = true;
		rx_ack_timer_arm(peer);
		return;
	}
	/*
	 * Only for an ACK that leaves: the credit it grants is recorded as
	 * advertised, and the SACK runs are extended for it.
	 */
	closed = rx_window_closed(peer);
	h.flags = flags | (closed ? HF_AF_CLOSED : 0) |
		  (peer->ack_echo ? HF_AF_ECHO : 0);
	h.ack.cum_seq = hf_rxwin_cum(&peer->rxw);
	h.ack.credit = rx_credit_limit(peer, closed);
	h.ack.rate_kbps = rx_rate_hint(peer);
	h.ack.msg_done = peer->rx_msg_done;
	h.ack.msg_status = peer->rx_msg_status;
	h.ack.epoch = peer->rx_ep.epoch;
	h.ack.rx_state = peer->rx_ep.state;
	h.ack.nsack = hf_rxwin_sack(&peer->rxw, h.ack.sack, HF_SACK_MAX);
	peer->ack_owed = 0;
	peer->ack_due = false;
	peer->ack_echo = false;
	del_timer(&peer->ack_timer);

	skb_reserve(skb, LL_RESERVED_SPACE(dev));
	hlen = hf_hdr_len(&h);
	hdr = skb_put(skb, hlen);
	hf_hdr_encode(&h, hdr, hlen);
	csum = csum_fold(csum_partial(hdr, hlen, 0));
	memcpy(hdr + HF_CSUM_OFFSET, &csum, sizeof(csum));
	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_ACKS);
	trace_hf_credit_grant(peer, h.ack.cum_seq, h.flags);
	hf_xmit(peer, skb, TC_PRIO_CONTROL);
}

static void rx_ack_timer(struct timer_list *t)
{
	struct hf_peer *peer = from_timer(peer, t, ack_timer);

	spin_lock_bh(&peer->lock);
	if (!peer->dead && (peer->ack_owed || peer->ack_due))
		rx_send_ack(peer, 0);
	spin_unlock_bh(&peer->lock);
}

/*
 * @segs new segments of @m, @bytes of payload, were taken in (held, or
 * counted for a refused message): count them and their credit.
 */
static void rx_data_count(struct hf_peer *peer, struct hf_rx_msg *m, u8 flags,
			  u32 segs, u32 bytes)
{
	m->received += segs;
	m->progress_at = jiffies;
	rx_credit_data(peer, bytes);
	m->credited += bytes;
	hf_stat_add(&hf_net(peer->net)->stats, HF_STAT_RX_SEGS, segs);
	peer->rx_segs += segs;
	peer->rx_bytes += bytes;
	hf_dev_stat_add(peer->dstats, HF_DEV_STAT_RX_SEGS, segs);
	hf_dev_stat_add(peer->dstats, HF_DEV_STAT_RX_BYTES, bytes);
	if (flags & HF_DF_FRAME_START)
		hf_dev_stat_inc(peer->dstats, HF_DEV_STAT_RX_FRAMES);
}

/*
 * After @segs new segments of @m: deliver and resolve what they complete,
 * and ACK now or arm the ACK timer. @more: segments of the same train
 * follow in this softirq, so an ACK waits for its last.
 */
static void rx_data_taken(struct hf_peer *peer, struct hf_rx_msg *m, u8 flags,
			  u32 segs, bool more)
{
	bool now;

	if (m->received == m->nsegs)
		rx_deliver_ready(peer);
	now = rx_resolve(peer);
	now |= flags & (HF_DF_FRAME_END | HF_DF_ACK_NOW);
	now |= hf_rxwin_pending(&peer->rxw) != 0;
	peer->ack_owed += segs;
	now |= peer->ack_owed >= HF_ACK_EVERY;
	peer->ack_echo |= !!(flags & HF_DF_ACK_NOW);
	peer->ack_due |= now;
	if (peer->ack_due && !more)
		rx_send_ack(peer, 0);
	else
		rx_ack_timer_arm(peer);
}

/*
 * The challenge cookie of @epoch from @peer in time bucket @bucket: a keyed
 * hash no blind sender can compute, so only a sender that received our
 * challenge ACK can echo it. Never 0, which means "no echo".
 */
static u32 rx_cookie(const struct hf_peer *peer, u32 epoch,
		     unsigned long bucket)
{
	struct {
		u32 epoch;
		u32 bucket;
		int ifindex;
		u8 addr[ETH_ALEN];
		u16 zero;
	} in = {
		.epoch = epoch,
		.bucket = (u32)bucket,
		.ifindex = peer->dev->ifindex,
	};
	u32 cookie;

	ether_addr_copy(in.addr, peer->addr);
	cookie = (u32)siphash(&in, sizeof(in), &hf_net(peer->net)->cookie_key);
	return cookie ?: 1;
}

/*
 * Whether a challenge (@lost false) or LOST answer may go to @peer now: at
 * most HF_EPOCH_CHALLENGES and HF_EPOCH_LOSTS per HF_EPOCH_REPLY_WINDOW,
 * so that forged DATA cannot make us send more than a trickle to the
 * address it names, nor use up the challenges with LOSTs.
 */
static bool rx_reply_allowed(struct hf_peer *peer, bool lost)
{
	u8 *n = lost ? &peer->rx_losts : &peer->rx_challenges;

	lockdep_assert_held(&peer->lock);
	if (time_after(jiffies, peer->rx_reply_at + HF_EPOCH_REPLY_WINDOW)) {
		peer->rx_reply_at = jiffies;
		peer->rx_challenges = 0;
		peer->rx_losts = 0;
	}
	if (*n >= (lost ? HF_EPOCH_LOSTS : HF_EPOCH_CHALLENGES))
		return false;
	(*n)++;
	return true;
}

/*
 * An ACK about an epoch that is not (yet) ours: a challenge (@flags
 * HF_AF_CHALLENGE, @state the cookie to echo) or a LOST answer (@cum the
 * segment that named a state we do not hold). It carries nothing of the
 * current flow: no credit, no outcomes, no SACK.
 */
static void rx_send_reply(struct hf_peer *peer, u32 epoch, u32 state, u32 cum,
			  u8 flags)
{
	struct net_device *dev = peer->dev;
	struct hf_hdr h = { .type = HF_TYPE_ACK, .flags = flags };
	struct sk_buff *skb;
	__sum16 csum;
	u8 *hdr;

	lockdep_assert_held(&peer->lock);
	skb = alloc_skb(LL_RESERVED_SPACE(dev) + HF_ACK_HLEN, GFP_ATOMIC);
	if (!skb) {
		hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_XMIT_ERRORS);
		return;
	}
	h.ack.epoch = epoch;
	h.ack.rx_state = state;
	h.ack.cum_seq = cum;
	skb_reserve(skb, LL_RESERVED_SPACE(dev));
	hdr = skb_put(skb, HF_ACK_HLEN);
	hf_hdr_encode(&h, hdr, HF_ACK_HLEN);
	csum = csum_fold(csum_partial(hdr, HF_ACK_HLEN, 0));
	memcpy(hdr + HF_CSUM_OFFSET, &csum, sizeof(csum));
	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_ACKS);
	hf_xmit(peer, skb, TC_PRIO_CONTROL);
}

/* A fresh state id for a flow adopted without a challenge: not 0, not the last. */
static u32 rx_state_new(const struct hf_epoch_rx *e)
{
	u32 state;

	do {
		state = get_random_u32();
	} while (!state || state == e->state);
	return state;
}

/*
 * What core/hf_epoch.c says of DATA header @d (@nsegs segments) from
 * @peer, with the cookies of its epoch when they can matter (*@cookie,
 * for a challenge). No side effect. Peer lock held.
 */
static enum hf_epoch_verdict rx_epoch_verdict(const struct hf_peer *peer,
					      const struct hf_data_hdr *d,
					      u32 nsegs, u32 *cookie)
{
	const struct hf_epoch_rx *e = &peer->rx_ep;
	unsigned long bucket = jiffies / HF_COOKIE_BUCKET;
	u32 prev = 0;

	lockdep_assert_held(&peer->lock);
	*cookie = 0;
	if (e->epoch && d->epoch != e->epoch && d->epoch != e->prev) {
		*cookie = rx_cookie(peer, d->epoch, bucket);
		prev = rx_cookie(peer, d->epoch, bucket - 1);
	}
	return hf_epoch_rx_check(e, d, nsegs, HF_WIN_SEGS, *cookie, prev);
}

/*
 * Start the incarnation DATA header @d belongs to, with our state id
 * @state: whatever the flow before it held is dropped, and its sender
 * learns of the new one from the next ACK.
 */
static void rx_epoch_start(struct hf_peer *peer, const struct hf_data_hdr *d,
			   u32 state)
{
	lockdep_assert_held(&peer->lock);
	hf_input_reset(peer);
	hf_epoch_rx_adopt(&peer->rx_ep, d, state);
	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_RX_EPOCHS);
}

/*
 * Whether DATA header @d (@nsegs segments) from @peer belongs to a flow we
 * take (core/hf_epoch.h): the current one, or a new one we adopt now.
 * Otherwise it is dropped, *@why set, and a doubtful new epoch is answered
 * with a challenge, a sender believing in a state we do not hold with a
 * LOST answer. Peer lock held.
 */
static bool rx_epoch_admit(struct hf_peer *peer, const struct hf_data_hdr *d,
			   u32 nsegs, enum hf_stat *why)
{
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	u32 cookie;

	switch (rx_epoch_verdict(peer, d, nsegs, &cookie)) {
	case HF_EPOCH_ACCEPT:
		hf_epoch_rx_accept(&peer->rx_ep, d);
		return true;
	case HF_EPOCH_ADOPT:
		if (!d->echo) {
			rx_epoch_start(peer, d, rx_state_new(&peer->rx_ep));
			return true;
		}
		/* A challenge answered; one such adoption per gap. */
		if (time_before(jiffies, peer->rx_adopted_at + HF_EPOCH_ADOPT_GAP))
			break;
		peer->rx_adopted_at = jiffies;
		rx_epoch_start(peer, d, d->echo);
		return true;
	case HF_EPOCH_CHALLENGE:
		if (rx_reply_allowed(peer, false)) {
			hf_stat_inc(stats, HF_STAT_RX_CHALLENGES);
			rx_send_reply(peer, d->epoch, cookie, 0, HF_AF_CHALLENGE);
		}
		break;
	case HF_EPOCH_LOST:
		if (rx_reply_allowed(peer, true)) {
			hf_stat_inc(stats, HF_STAT_RX_LOST_REPLIES);
			rx_send_reply(peer, d->epoch, 0, d->seq, HF_AF_LOST);
		}
		*why = HF_STAT_DROP_NO_STATE;
		return false;
	case HF_EPOCH_STALE:
		*why = HF_STAT_DROP_STALE_EPOCH;
		return false;
	case HF_EPOCH_FORGED:
		*why = HF_STAT_DROP_FORGED;
		return false;
	}
	*why = HF_STAT_DROP_UNPROVEN;
	return false;
}

/*
 * Whether DATA header @h says otherwise than message @m about what every
 * segment of a message repeats: its length, stride, ports and pred.
 */
static bool rx_msg_disagrees(const struct hf_rx_msg *m, const struct hf_hdr *h)
{
	const struct hf_data_hdr *d = &h->data;

	return m->len != d->msg_len || m->seg_size != d->seg_size ||
	       m->sport != h->sport || m->dport != h->dport ||
	       m->pred != d->pred;
}

/*
 * A DATA segment for @peer; consumes @skb. @more: segments of the same
 * train follow it in this softirq, so an ACK it calls for waits for the
 * train's last (one ACK per train, as one per GRO skb in TCP; the ACK
 * timer covers a last segment that never gets here). Peer lock held.
 */
static void rx_data(struct hf_peer *peer, struct sk_buff *skb,
		    const struct hf_hdr *h, bool more)
{
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	const struct hf_data_hdr *d = &h->data;
	enum hf_stat why = HF_STAT_DROP_MSG_WINDOW;
	struct hf_net *hn = hf_net(peer->net);
	struct sk_buff **slot = NULL;
	struct hf_rx_msg *m;
	bool fresh = false;
	u32 index;

	if (!rx_epoch_admit(peer, d, 1, &why))
		goto count_drop;

	if (hf_seq_before(d->msg_id, peer->rx_msg_done)) {
		/* A message already resolved: a segment of it is a duplicate. */
		if (hf_rxwin_mark(&peer->rxw, d->seq) != HF_RX_NEW) {
			hf_stat_inc(stats, HF_STAT_RX_DUPLICATES);
			rx_send_ack(peer, HF_AF_DUP);
		} else {
			hf_stat_inc(stats, HF_STAT_DROP_DISAGREE);
			hf_dev_stat_inc(peer->dstats, HF_DEV_STAT_DROPS);
		}
		goto drop;
	}
	if (d->msg_id - peer->rx_msg_done >= HF_STATUS_WINDOW)
		goto count_drop;
	if (d->seg_size < HF_MIN_SEG_SIZE && d->msg_len > d->seg_size) {
		why = HF_STAT_DROP_SEG_SIZE;
		goto count_drop;
	}

	m = peer->rx_msgs[d->msg_id % HF_STATUS_WINDOW];
	if (!m) {
		m = rx_msg_new(peer, h, &why);
		if (!m)
			goto count_drop;
		fresh = true;
	}
	why = HF_STAT_DROP_DISAGREE;
	if (rx_msg_disagrees(m, h))
		goto release;

	index = d->offset / d->seg_size;
	/*
	 * Measured against the payload, as the reservation is: kept this
	 * way, a message's segments never take twice its reservation.
	 */
	if (m->chunks && skb->truesize > 2 * rx_msg_reserve(d->seg_len, 1)) {
		/* A small segment in a big buffer: keep only what it carries. */
		struct sk_buff *tight = rx_skb_tight(skb);

		why = HF_STAT_DROP_MEMORY;
		if (!tight)
			goto release;
		consume_skb(skb);
		skb = tight;
	}
	if (m->chunks) {
		why = HF_STAT_DROP_MEMORY;
		slot = seg_slot(m, index, true);
		if (!slot)
			goto release;
	}

	if (rx_credit_broken(peer, d->seq, 1, d->seg_len)) {
		why = HF_STAT_DROP_OVER_CREDIT;
		goto release;
	}
	switch (hf_rxwin_mark(&peer->rxw, d->seq)) {
	case HF_RX_NEW:
		/* Only progress keeps the flow alive, never a repeat. */
		peer->last_active = jiffies;
		break;
	case HF_RX_DUPLICATE:
		hf_stat_inc(stats, HF_STAT_RX_DUPLICATES);
		rx_send_ack(peer, HF_AF_DUP);
		if (fresh)
			rx_msg_free(peer, m);
		goto drop;
	default:
		why = HF_STAT_DROP_BEYOND;
		goto release;
	}

	if (slot && *slot) {
		/* Same bytes under a new sequence number: not from our sender. */
		hf_stat_inc(stats, HF_STAT_DROP_DISAGREE);
		hf_dev_stat_inc(peer->dstats, HF_DEV_STAT_DROPS);
		goto drop;
	}
	if (fresh)
		peer->rx_msgs[d->msg_id % HF_STATUS_WINDOW] = m;
	if (hf_seq_after(d->seq, m->last_seq))
		m->last_seq = d->seq;
	rx_data_count(peer, m, h->flags, 1, d->seg_len);

	/*
	 * Held segments taking far more memory than announced: refused as
	 * too big. Checked only for a segment about to be held, never for a
	 * duplicate, which a sender's repairs make legitimately.
	 */
	if (slot && m->charge + skb->truesize > 2 * m->reserve) {
		rx_msg_refuse(peer, m);
		slot = NULL;
	}
	if (slot) {
		skb_orphan(skb);
		__skb_pull(skb, HF_DATA_HLEN);
		skb->next = NULL;
		skb_set_owner_r(skb, m->sk);
		atomic64_add(skb->truesize, &hn->rx_mem);
		atomic_add(skb->truesize, &hf_sk(m->sk)->rx_reasm);
		m->charge += skb->truesize;
		*slot = skb;
	} else {
		consume_skb(skb);
	}

	rx_data_taken(peer, m, h->flags, 1, more);
	return;

release:
	if (fresh)
		rx_msg_free(peer, m);
count_drop:
	hf_stat_inc(stats, why);
	hf_dev_stat_inc(peer->dstats, HF_DEV_STAT_DROPS);
	/*
	 * Tell a sender we could not take from that we are alive; and one
	 * whose segments fall outside our windows what our state is: if we
	 * lost it (adopting its epoch mid-stream), our rx_state tells it.
	 */
	if (why == HF_STAT_DROP_RCVBUF || why == HF_STAT_DROP_MEMORY ||
	    why == HF_STAT_DROP_MEM_LIMIT || why == HF_STAT_DROP_BEYOND ||
	    why == HF_STAT_DROP_MSG_WINDOW || why == HF_STAT_DROP_OVER_CREDIT)
		rx_send_ack(peer, 0);
drop:
	kfree_skb(skb);
}

/* How a frame reached rx_frame(). */
#define HF_RXF_LONE	BIT(0)	/* alone, not a segment of a train */
#define HF_RXF_MORE	BIT(1)	/* segments of its train follow it */
#define HF_RXF_UNFILLED	BIT(2)	/* copied out of a train that crossed no wire */

/*
 * Take in one frame from @src on @dev: a lone segment or ACK, or one
 * segment of a train; @how: HF_RXF_* flags. Return: NET_RX_SUCCESS or
 * NET_RX_DROP.
 */
static int rx_frame(struct sk_buff *skb, struct net_device *dev,
		    const u8 *src, unsigned int how)
{
	struct net *net = dev_net(dev);
	struct hf_net *hn = hf_net(net);
	struct hf_stats *stats = &hn->stats;
	enum hf_wire_err werr;
	struct hf_peer *peer;
	struct hf_hdr h;
	u32 flen;
	int err;

	if (skb->len < HF_COMMON_LEN) {
		hf_stat_inc(stats, HF_STAT_DROP_MALFORMED);
		atomic64_inc(&stats->malformed[HF_WERR_SHORT]);
		goto drop;
	}
	/*
	 * Make the header linear, and only the header: a DATA segment's
	 * payload stays in the frags it arrived in (an ACK is all header).
	 */
	if (!pskb_may_pull(skb, HF_COMMON_LEN) ||
	    !pskb_may_pull(skb, min_t(u32, skb->len,
				      (skb->data[0] & 0x0f) == HF_TYPE_DATA ?
				      HF_DATA_HLEN : HF_HLEN_MAX))) {
		hf_stat_inc(stats, HF_STAT_DROP_MEMORY);
		goto drop;
	}

	werr = hf_hdr_decode(skb->data, skb->len, &h);
	/*
	 * A packed train goes to rx_train() as it arrives: one here came
	 * inside another train, which no sender builds.
	 */
	if (!werr && h.type == HF_TYPE_DATA && (h.flags & HF_DF_PACKED))
		werr = HF_WERR_FLAGS;
	if (werr) {
		hf_stat_inc(stats, HF_STAT_DROP_MALFORMED);
		atomic64_inc(&stats->malformed[werr]);
		goto drop;
	}
	/* A train's skb was counted once, as it arrived. */
	if ((how & HF_RXF_LONE) && h.type == HF_TYPE_DATA) {
		hf_stat_inc(stats, HF_STAT_RX_DATA_SKBS);
		trace_hf_frame_recv(dev, src, 1, skb->len);
	}
	flen = h.hlen + (h.type == HF_TYPE_DATA ? h.data.seg_len : 0);
	if (pskb_trim(skb, flen)) {
		hf_stat_inc(stats, HF_STAT_DROP_MEMORY);
		goto drop;
	}
	/* A frame that crossed no wire may have it unfilled: hf_csum_local(). */
	if ((how & HF_RXF_UNFILLED) || hf_csum_local(skb)) {
		hf_stat_inc(stats, HF_STAT_RX_CSUM_LOCAL);
	} else if (csum_fold(skb_checksum(skb, 0, flen, 0))) {
		hf_stat_inc(stats, HF_STAT_DROP_CSUM);
		goto drop;
	}

	peer = hf_peer_get(net, dev, src, h.type == HF_TYPE_DATA, &err);
	if (!peer) {
		hf_stat_inc(stats, err == -ENOENT ? HF_STAT_DROP_NO_PEER :
				   err == -ENOBUFS ? HF_STAT_DROP_PEER_LIMIT :
				   HF_STAT_DROP_MEMORY);
		goto drop;
	}

	spin_lock_bh(&peer->lock);
	if (peer->dead) {
		spin_unlock_bh(&peer->lock);
		hf_peer_put(peer);
		kfree_skb(skb);
		return NET_RX_DROP;
	}
	if (h.type == HF_TYPE_DATA) {
		rx_data(peer, skb, &h, how & HF_RXF_MORE);
	} else {
		hf_output_ack(peer, &h);
		consume_skb(skb);
	}
	spin_unlock_bh(&peer->lock);
	hf_peer_put(peer);
	return NET_RX_SUCCESS;

drop:
	/* Every way here counted a drop_* counter. */
	hf_dev_stat_inc(hf_dev_stats_find(hn, dev), HF_DEV_STAT_DROPS);
	kfree_skb(skb);
	return NET_RX_DROP;
}

/*
 * Whether packed train @skb, @n segments of @payload bytes from header @h,
 * can be held as it came, one skb for all: its flow and message are the
 * current ones, every segment is new and its slot free, and its memory is
 * what the message reserved. Creates the message when it is new (*fresh).
 * Otherwise rx_data_train() takes it apart, and rx_data() decides each
 * segment as if it had come alone, with every drop reason that has.
 */
static struct hf_rx_msg *rx_train_whole(struct hf_peer *peer,
					const struct sk_buff *skb,
					const struct hf_hdr *h, u32 n,
					u32 payload, bool *fresh)
{
	const struct hf_data_hdr *d = &h->data;
	enum hf_epoch_verdict v;
	enum hf_stat why;
	struct hf_rx_msg *m;
	u32 index, i, cookie;

	*fresh = false;
	/* Anything but the current flow or a new one is decided per segment. */
	v = rx_epoch_verdict(peer, d, n, &cookie);
	if ((v != HF_EPOCH_ACCEPT && v != HF_EPOCH_ADOPT) ||
	    !rx_epoch_admit(peer, d, n, &why) ||
	    hf_seq_before(d->msg_id, peer->rx_msg_done) ||
	    d->msg_id - peer->rx_msg_done >= HF_STATUS_WINDOW ||
	    !hf_rxwin_fresh(&peer->rxw, d->seq, n) ||
	    rx_credit_broken(peer, d->seq, n, payload) ||
	    skb->truesize > 2 * rx_msg_reserve(payload, n))
		return NULL;
	m = peer->rx_msgs[d->msg_id % HF_STATUS_WINDOW];
	if (!m) {
		m = rx_msg_new(peer, h, &why);
		if (!m)
			return NULL;
		*fresh = true;
	}
	if (rx_msg_disagrees(m, h))
		goto slow;
	if (!m->chunks)
		return m;
	if (m->charge + skb->truesize > 2 * m->reserve)
		goto slow;
	index = d->offset / d->seg_size;
	for (i = 0; i < n; i++) {
		struct sk_buff **slot = seg_slot(m, index + i, true);

		if (!slot || *slot)
			goto slow;
	}
	return m;
slow:
	if (*fresh)
		rx_msg_free(peer, m);
	*fresh = false;
	return NULL;
}

/*
 * A packed train for @peer, @n segments of @payload bytes; consumes @skb.
 * Held whole when it can be (rx_train_whole()), else each segment is
 * copied out with the header it stands for and taken as if it had come
 * alone. Peer lock held.
 */
static void rx_data_train(struct hf_peer *peer, struct sk_buff *skb,
			  const struct hf_hdr *h, u32 n, u32 payload)
{
	struct hf_stats *stats = &hf_net(peer->net)->stats;
	const struct hf_data_hdr *d = &h->data;
	struct hf_net *hn = hf_net(peer->net);
	struct hf_rx_msg *m;
	bool fresh;
	u32 i;

	m = rx_train_whole(peer, skb, h, n, payload, &fresh);
	if (m) {
		u32 index = d->offset / d->seg_size;

		peer->last_active = jiffies;
		if (fresh)
			peer->rx_msgs[d->msg_id % HF_STATUS_WINDOW] = m;
		for (i = 0; i < n; i++)
			hf_rxwin_mark(&peer->rxw, d->seq + i);
		if (hf_seq_after(d->seq + n - 1, m->last_seq))
			m->last_seq = d->seq + n - 1;
		rx_data_count(peer, m, h->flags, n, payload);
		if (m->chunks) {
			skb_orphan(skb);
			__skb_pull(skb, HF_DATA_HLEN);
			skb->next = NULL;
			skb_set_owner_r(skb, m->sk);
			atomic64_add(skb->truesize, &hn->rx_mem);
			atomic_add(skb->truesize, &hf_sk(m->sk)->rx_reasm);
			m->charge += skb->truesize;
			*seg_slot(m, index, false) = skb;
			for (i = 1; i < n; i++)
				*seg_slot(m, index + i, false) = HF_RX_COVERED;
		} else {
			consume_skb(skb);
		}
		rx_data_taken(peer, m, h->flags, n, false);
		return;
	}

	hf_stat_inc(stats, HF_STAT_RX_PACKED_SPLIT);
	for (i = 0; i < n; i++) {
		struct hf_hdr sh;
		struct sk_buff *seg;

		hf_train_seg(h, payload, i, &sh);
		seg = alloc_skb(HF_DATA_HLEN + sh.data.seg_len, GFP_ATOMIC);
		if (!seg) {
			/* Neither held nor marked: the sender repairs it. */
			hf_stat_inc(stats, HF_STAT_DROP_MEMORY);
			hf_dev_stat_inc(peer->dstats, HF_DEV_STAT_DROPS);
			continue;
		}
		hf_hdr_encode(&sh, skb_put(seg, HF_DATA_HLEN), HF_DATA_HLEN);
		/* Within @skb: hf_train_check() measured it. */
		if (skb_copy_bits(skb, HF_DATA_HLEN + (sh.data.offset - d->offset),
				  skb_put(seg, sh.data.seg_len), sh.data.seg_len)) {
			kfree_skb(seg);
			continue;
		}
		hf_train_seg_adopt(seg, skb->dev, skb->protocol, skb->pkt_type);
		rx_data(peer, seg, &sh, i + 1 < n);
	}
	consume_skb(skb);
}

/*
 * A packed train (core/hf_train.h): one header for the segments whose
 * payloads follow it, as a sender builds it for a device that carries
 * trains whole. Checked as a whole (its length decides how many segments
 * it holds), then taken in under the peer's lock at once. Return:
 * NET_RX_SUCCESS or NET_RX_DROP.
 */
static int rx_train(struct sk_buff *skb, struct net_device *dev,
		    const u8 *src)
{
	struct net *net = dev_net(dev);
	struct hf_net *hn = hf_net(net);
	struct hf_stats *stats = &hn->stats;
	enum hf_wire_err werr;
	struct hf_peer *peer;
	u32 n = 0, payload;
	struct hf_hdr h;
	int err;

	if (skb->len < HF_DATA_HLEN) {
		hf_stat_inc(stats, HF_STAT_DROP_MALFORMED);
		atomic64_inc(&stats->malformed[HF_WERR_SHORT]);
		goto drop;
	}
	if (!pskb_may_pull(skb, HF_DATA_HLEN)) {
		hf_stat_inc(stats, HF_STAT_DROP_MEMORY);
		goto drop;
	}
	payload = skb->len - HF_DATA_HLEN;
	werr = hf_hdr_decode(skb->data, skb->len, &h);
	if (!werr)
		werr = hf_train_check(&h, payload, &n);
	/*
	 * A sender's train still marked as one holds the segments it was
	 * built with; more are a carrier that something on the way copied
	 * into one buffer (generic XDP), where its trains' bounds are lost:
	 * read as one train, its later trains' headers would be payload.
	 */
	if (!werr && skb_is_gso(skb) && skb_shinfo(skb)->gso_segs != n)
		werr = HF_WERR_LENGTH;
	if (werr) {
		hf_stat_inc(stats, HF_STAT_DROP_MALFORMED);
		atomic64_inc(&stats->malformed[werr]);
		goto drop;
	}
	hf_stat_inc(stats, HF_STAT_RX_DATA_SKBS);
	hf_stat_inc(stats, HF_STAT_RX_PACKED_TRAINS);
	trace_hf_frame_recv(dev, src, n, skb->len);
	/* One checksum for the whole train, as for any frame. */
	if (hf_csum_local(skb)) {
		hf_stat_inc(stats, HF_STAT_RX_CSUM_LOCAL);
	} else if (csum_fold(skb_checksum(skb, 0, skb->len, 0))) {
		hf_stat_inc(stats, HF_STAT_DROP_CSUM);
		goto drop;
	}

	peer = hf_peer_get(net, dev, src, true, &err);
	if (!peer) {
		hf_stat_inc(stats, err == -ENOBUFS ? HF_STAT_DROP_PEER_LIMIT :
				   HF_STAT_DROP_MEMORY);
		goto drop;
	}
	spin_lock_bh(&peer->lock);
	if (peer->dead) {
		spin_unlock_bh(&peer->lock);
		hf_peer_put(peer);
		kfree_skb(skb);
		return NET_RX_DROP;
	}
	rx_data_train(peer, skb, &h, n, payload);
	spin_unlock_bh(&peer->lock);
	hf_peer_put(peer);
	return NET_RX_SUCCESS;

drop:
	hf_dev_stat_inc(hf_dev_stats_find(hn, dev), HF_DEV_STAT_DROPS);
	kfree_skb(skb);
	return NET_RX_DROP;
}

/*
 * Whether @skb starts with a packed train's header (rx_train()): this
 * version's DATA with PACKED set. Any other version goes to rx_frame(),
 * whose decoder refuses it for that first, as hf_hdr_decode() orders it.
 */
static bool rx_is_packed(const struct sk_buff *skb)
{
	u8 buf[2];
	const u8 *p = skb_header_pointer(skb, 0, sizeof(buf), buf);

	return p && p[0] == (HF_WIRE_VERSION << 4 | HF_TYPE_DATA) &&
	       (p[1] & HF_DF_PACKED);
}

/*
 * A carrier a device carried whole (hf_offload.c; the sender queues none
 * a device would carry whole, but the device's gso_max_size may have
 * been raised since): its trains, each a packed train or, last, a lone
 * segment, are taken in one by one, in order, as if they had arrived so.
 */
static int rx_carrier(struct sk_buff *skb, struct net_device *dev,
		      const u8 *src)
{
	struct hf_stats *stats = &hf_net(dev_net(dev))->stats;
	struct sk_buff *list, *train;
	__be16 protocol = skb->protocol;
	u8 pkt_type = skb->pkt_type;
	int rc;

	list = hf_train_split(skb);
	if (IS_ERR(list)) {
		hf_stat_inc(stats, HF_STAT_DROP_MEMORY);
		hf_dev_stat_inc(hf_dev_stats_find(hf_net(dev_net(dev)), dev),
				HF_DEV_STAT_DROPS);
		kfree_skb(skb);
		return NET_RX_DROP;
	}
	hf_stat_inc(stats, HF_STAT_RX_CARRIERS);
	rc = rx_train(skb, dev, src);
	while ((train = hf_train_next(&list, dev, protocol, pkt_type)))
		rc = rx_is_packed(train) ? rx_train(train, dev, src) :
			rx_frame(train, dev, src, HF_RXF_LONE);
	return rc;
}

/*
 * A train whose segments lie back to back in one buffer: something on the
 * way (XDP on a veth, generic XDP) copied it out of its frag_list. Each
 * segment is copied into an skb of its own (pulling each out of the
 * buffer in place would copy the train once per segment); its length
 * comes from its header, checked by rx_frame() as any frame's.
 */
static int rx_linearized(struct sk_buff *skb, struct net_device *dev,
			 const u8 *src)
{
	struct hf_net *hn = hf_net(dev_net(dev));
	struct hf_stats *stats = &hn->stats;
	/* Copied, but still a frame whose checksum was left unfilled. */
	unsigned int how = hf_csum_local(skb) ? HF_RXF_UNFILLED : 0;
	int rc = NET_RX_DROP;
	u32 off = 0;

	while (off < skb->len) {
		enum hf_wire_err werr;
		struct sk_buff *seg;
		struct hf_hdr h;
		u32 flen;

		werr = hf_train_seg_decode(skb, off, &h);
		if (werr) {
			/* What is left cannot be cut: one malformed frame. */
			hf_stat_inc(stats, HF_STAT_DROP_MALFORMED);
			atomic64_inc(&stats->malformed[werr]);
			break;
		}
		flen = h.hlen + h.data.seg_len;
		seg = alloc_skb(flen, GFP_ATOMIC);
		if (!seg) {
			hf_stat_inc(stats, HF_STAT_DROP_MEMORY);
			break;
		}
		if (skb_copy_bits(skb, off, skb_put(seg, flen), flen)) {
			hf_stat_inc(stats, HF_STAT_DROP_MALFORMED);
			atomic64_inc(&stats->malformed[HF_WERR_SHORT]);
			kfree_skb(seg);
			break;
		}
		hf_train_seg_adopt(seg, dev, skb->protocol, skb->pkt_type);
		off += flen;
		rc = rx_frame(seg, dev, src,
			      how | (off < skb->len ? HF_RXF_MORE : 0));
	}
	if (off < skb->len) {
		/* The rest of the train is lost: counted above, repaired. */
		hf_dev_stat_inc(hf_dev_stats_find(hn, dev), HF_DEV_STAT_DROPS);
		kfree_skb(skb);
		return NET_RX_DROP;
	}
	consume_skb(skb);
	return rc;
}

/**
 * hf_input_rcv() - the packet handler of the hyperframe EtherType
 * @skb: a received frame, Ethernet header pulled; a lone segment or ACK,
 *	 or a train of segments a device carried whole (hf_offload.c)
 * @dev: the interface it arrived on
 * @pt: our packet_type
 * @orig_dev: the interface before any upper device
 *
 * Softirq context. A train's segments are taken in one by one, in order,
 * as if they had arrived so; they share the head's source address.
 *
 * Return: NET_RX_SUCCESS or NET_RX_DROP (of a train: of its last segment).
 */
int hf_input_rcv(struct sk_buff *skb, struct net_device *dev,
		 struct packet_type *pt, struct net_device *orig_dev)
{
	struct hf_net *hn = hf_net(dev_net(dev));
	struct hf_stats *stats = &hn->stats;
	struct sk_buff *list, *seg;
	u8 src[ETH_ALEN], pkt_type;
	__be16 protocol;
	int rc;

	if (skb->pkt_type != PACKET_HOST) {
		hf_stat_inc(stats, HF_STAT_DROP_OTHERHOST);
		goto drop;
	}
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb) {
		hf_stat_inc(stats, HF_STAT_DROP_MEMORY);
		hf_dev_stat_inc(hf_dev_stats_find(hn, dev), HF_DEV_STAT_DROPS);
		return NET_RX_DROP;
	}
	ether_addr_copy(src, eth_hdr(skb)->h_source);
	if (rx_is_packed(skb))
		return hf_train_is_carrier(skb) ? rx_carrier(skb, dev, src) :
						  rx_train(skb, dev, src);
	if (!skb_is_gso(skb) ||
	    !(skb_shinfo(skb)->gso_type & SKB_GSO_FRAGLIST))
		return rx_frame(skb, dev, src, HF_RXF_LONE);

	/*
	 * A train; without its frag_list, something on the way copied it
	 * into one buffer. Other frag_list skbs (a driver's large receive
	 * buffers) are no GSO skbs and went to rx_frame() above.
	 */
	hf_stat_inc(stats, HF_STAT_RX_DATA_SKBS);
	trace_hf_frame_recv(dev, src, skb_shinfo(skb)->gso_segs ?: 1, skb->len);
	if (!skb_has_frag_list(skb)) {
		hf_stat_inc(stats, HF_STAT_RX_LINEARIZED_TRAINS);
		return rx_linearized(skb, dev, src);
	}
	list = hf_train_split(skb);
	if (IS_ERR(list)) {
		hf_stat_inc(stats, HF_STAT_DROP_MEMORY);
		goto drop;
	}
	protocol = skb->protocol;
	pkt_type = skb->pkt_type;
	rc = rx_frame(skb, dev, src, list ? HF_RXF_MORE : 0);
	while ((seg = hf_train_next(&list, dev, protocol, pkt_type)))
		rc = rx_frame(seg, dev, src, list ? HF_RXF_MORE : 0);
	return rc;

drop:
	hf_dev_stat_inc(hf_dev_stats_find(hn, dev), HF_DEV_STAT_DROPS);
	kfree_skb(skb);
	return NET_RX_DROP;
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
		if (!READ_ONCE(peer->rx_refused))
			continue;
		spin_lock_bh(&peer->lock);
		if (!peer->dead && peer->rx_refused) {
			peer->rx_refused = false;
			/*
			 * Its sender counts this ACK as the flow alive: so
			 * must our idle reclaim.
			 */
			peer->last_active = jiffies;
			rx_send_ack(peer, HF_AF_WINDOW);
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
		peer = hf_peer_get(net, dev, cb->addr, false, &err);
	rcu_read_unlock();
	if (!peer)
		return;
	spin_lock_bh(&peer->lock);
	if (!peer->dead && peer->rx_ep.epoch && peer->rx_ep.epoch == cb->epoch &&
	    peer->rx_ep.state == cb->rx_state) {
		struct hf_credit_rx *c = &peer->rx_credit;
		u64 seg = hf_seg_size(READ_ONCE(peer->dev->mtu));
		struct hf_credit_params cp;
		u64 base, step;

		rx_credit_release(peer, len);
		/* One reading of the share for both: nactive may move. */
		base = rx_credit_share_base(peer);
		step = max_t(u64, base / 4, 1);
		if (c->advertised < c->received + seg)
			step = 0;
		if (!rx_window_closed(peer)) {
			hf_credit_rx_grant(c, hf_credit_params_read(peer->cfg, &cp),
					   base + peer->rx_credit_reasm);
			if (hf_credit_rx_advertise(c, step, &wire)) {
				/* Its sender counts the ACK as the flow alive. */
				peer->last_active = jiffies;
				rx_send_ack(peer, 0);
			}
		}
	}
	spin_unlock_bh(&peer->lock);
	hf_peer_put(peer);
}

/**
 * hf_input_init() - set up the receiving side of a new peer
 * @peer: the peer, not yet visible to anyone
 */
void hf_input_init(struct hf_peer *peer)
{
	struct hf_credit_params cp;

	hf_rxwin_init(&peer->rxw, peer->rx_words, HF_WIN_SEGS, 0);
	hf_credit_rx_init(&peer->rx_credit, hf_credit_params_read(peer->cfg, &cp));
	peer->rx_adopted_at = jiffies - HF_EPOCH_ADOPT_GAP;
	peer->rx_reply_at = jiffies;
	timer_setup(&peer->ack_timer, rx_ack_timer, 0);
}

/**
 * hf_input_reset() - drop the incoming flow's reassembly, window and credit
 * @peer: the peer; caller holds its lock
 *
 * Its incarnation (@peer->rx_ep) is the caller's to change: a new one
 * adopted, or forgotten with the peer.
 */
void hf_input_reset(struct hf_peer *peer)
{
	unsigned int i;

	for (i = 0; i < HF_STATUS_WINDOW; i++) {
		if (peer->rx_msgs[i]) {
			rx_msg_free(peer, peer->rx_msgs[i]);
			peer->rx_msgs[i] = NULL;
		}
	}
	hf_rxwin_init(&peer->rxw, peer->rx_words, HF_WIN_SEGS, 0);
	rx_credit_reset(peer);
	peer->rx_msg_done = 0;
	peer->rx_msg_status = 0;
	peer->rx_refused = false;
	peer->ack_owed = 0;
	peer->ack_due = false;
	peer->ack_echo = false;
	del_timer(&peer->ack_timer);
}

/**
 * hf_input_stop() - wait for the receiving side's timer to finish
 * @peer: a dead peer; no lock held
 */
void hf_input_stop(struct hf_peer *peer)
{
	del_timer_sync(&peer->ack_timer);
}

/*
 * Drop what message @m holds, its socket reference included, and let it
 * resolve as @status: its remaining segments are counted, not held, so
 * its sender still learns the outcome. Peer lock held.
 */
static void rx_msg_drop(struct hf_peer *peer, struct hf_rx_msg *m, u8 status)
{
	lockdep_assert_held(&peer->lock);
	rx_msg_release(peer, m);
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
	for (i = 0; i < HF_STATUS_WINDOW; i++) {
		struct hf_rx_msg *m = peer->rx_msgs[i];

		if (m && m->sk && !m->delivered &&
		    time_after(jiffies, m->progress_at + timeout))
			rx_msg_drop(peer, m, HF_STATUS_TOO_BIG);
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
		for (i = 0; !peer->dead && i < HF_STATUS_WINDOW; i++) {
			struct hf_rx_msg *m = peer->rx_msgs[i];

			if (m && m->sk == sk && !m->delivered)
				rx_msg_drop(peer, m, HF_STATUS_NO_PORT);
		}
		spin_unlock_bh(&peer->lock);
	}
	rcu_read_unlock();
}
