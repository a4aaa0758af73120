// SPDX-License-Identifier: GPL-2.0
/*
 * hf_msg.c - the sender's copy of a message: copied from the user into
 * pages it owns, charged to its socket and to the module-wide limit, and
 * freed once the receiver reports its outcome, which reaches the socket
 * here (a failure as sk_err and an error-queue entry naming it).
 *
 * Design notes:
 * 1. The message's charge against SO_SNDBUF rides on an empty skb owned
 *    by the socket (skb_set_owner_w); freeing the message frees it, which
 *    uncharges, wakes writers and keeps the socket alive meanwhile.
 * 2. Small messages share pages. A message of up to HF_TX_SMALL_MAX bytes
 *    is copied into the socket's page fragment (sk->sk_frag, which the
 *    socket's destruction releases), cache-line aligned, each message
 *    holding a reference to the page; it is charged its aligned bytes,
 *    not a page. A page each made a 64-byte message cost 4.8 KB of the
 *    socket's buffer, so about 44 unresolved ones filled the default
 *    buffer while one of its peer's large messages was on its way
 *    (docs/plans/link-bound.md, finding 6); TCP charges the bytes it
 *    copies into its page fragment the same way. The fragment's pages
 *    are order 0, so one long-lived message pins at most a page, which
 *    the module-wide limit still counts for it (hf_mem_pages() of any
 *    charge is at least one page), and they are charged to the sender's
 *    memory cgroup. Only the socket's own messages share a page, and only
 *    the bytes of each message are ever sent.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errqueue.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <net/checksum.h>

#include "hf_ack.h"
#include "hf_compat.h"
#include "hf_genl.h"
#include "hf_grant.h"
#include "hf_hfq.h"
#include "hf_input.h"
#include "hf_mem.h"
#include "hf_msg.h"
#include "hf_net.h"
#include "hf_offload.h"
#include "hf_output.h"
#include "hf_pace.h"
#include "hf_pacing.h"
#include "hf_reasm.h"
#include "hf_recovery.h"
#include "hf_sock.h"
#include "hf_trace.h"
#include "hf_train_skb.h"

/**
 * hf_tx_msg_charge() - what a message of @len bytes is charged against its
 * socket's SO_SNDBUF: its pages, its struct and the empty skb that
 * carries the charge
 * @len: its length
 *
 * Any context.
 *
 * Return: the charge in bytes.
 */
u64 hf_tx_msg_charge(size_t len)
{
	u64 npages = DIV_ROUND_UP_ULL(len, PAGE_SIZE);
	u64 data = npages * PAGE_SIZE;

	if (len && len <= HF_TX_SMALL_MAX)
		data = ALIGN(len, SMP_CACHE_BYTES);
	return SKB_TRUESIZE(0) + data +
	       sizeof(struct hf_tx_msg) + npages * sizeof(struct page *);
}

/*
 * Copy a small message (design note 2) into the socket's page fragment,
 * a new order-0 page when it has no room left. Socket lock held.
 * Return: 0, -ENOMEM or -EFAULT.
 */
static int hf_tx_msg_copy_small(struct sock *sk, struct hf_tx_msg *msg,
				struct iov_iter *from, size_t len)
{
	struct page_frag *pfrag = &sk->sk_frag;
	u32 size = ALIGN(len, SMP_CACHE_BYTES);

	sock_owned_by_me(sk);
	if (!pfrag->page || pfrag->offset + size > pfrag->size) {
		struct page *page = alloc_page(GFP_KERNEL_ACCOUNT |
					       __GFP_RETRY_MAYFAIL | __GFP_NOWARN);

		if (!page)
			return -ENOMEM;
		if (pfrag->page)
			put_page(pfrag->page);
		pfrag->page = page;
		pfrag->offset = 0;
		pfrag->size = PAGE_SIZE;
	}
	if (copy_page_from_iter(pfrag->page, pfrag->offset, len, from) != len)
		return -EFAULT;
	get_page(pfrag->page);
	msg->pages[0] = pfrag->page;
	msg->npages = 1;
	msg->page_off = pfrag->offset;
	pfrag->offset += size;
	return 0;
}

/**
 * hf_tx_msg_alloc() - copy a message from the user and charge its socket
 * @sk: the sending socket; caller holds its lock
 * @from: the data
 * @len: its length, already checked against max_msg
 * @seg_size: the stride to cut it at
 * @mem_pages: pages the caller charged to the module-wide limit for it
 *	       (hf_mem_charge()); the message gives them back when freed
 * @err: set to -ENOMEM or -EFAULT on failure
 *
 * Process context. The caller has waited for send buffer space. Every
 * allocation is charged to the sending task's memory cgroup.
 *
 * Return: the message with one reference, or NULL (the caller keeps its
 * charge of @mem_pages then).
 */
struct hf_tx_msg *hf_tx_msg_alloc(struct sock *sk, struct iov_iter *from,
				  size_t len, u32 seg_size,
				  unsigned long mem_pages, int *err)
{
	u32 npages = DIV_ROUND_UP(len, PAGE_SIZE);
	struct hf_tx_msg *msg;
	size_t off = 0;
	u32 i;

	sock_owned_by_me(sk);
	msg = kvzalloc(struct_size(msg, pages, npages), GFP_KERNEL_ACCOUNT);
	if (!msg)
		goto nomem;
	msg->acct = alloc_skb(0, GFP_KERNEL_ACCOUNT);
	if (!msg->acct)
		goto nomem_msg;

	if (len && len <= HF_TX_SMALL_MAX) {
		*err = hf_tx_msg_copy_small(sk, msg, from, len);
		if (*err)
			goto free;
		npages = 0;	/* copied */
	}
	for (i = 0; i < npages; i++) {
		size_t n = min_t(size_t, len - off, PAGE_SIZE);

		msg->pages[i] = alloc_page(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL |
					   __GFP_NOWARN);
		if (!msg->pages[i])
			goto nomem_pages;
		msg->npages++;
		if (copy_page_from_iter(msg->pages[i], 0, n, from) != n) {
			*err = -EFAULT;
			goto free;
		}
		off += n;
	}

	refcount_set(&msg->refs, 1);
	msg->sk = sk;
	msg->len = len;
	msg->seg_size = seg_size;
	msg->nsegs = len ? DIV_ROUND_UP(len, seg_size) : 1;
	msg->mem_pages = mem_pages;
	msg->acct->truesize = hf_tx_msg_charge(len);
	skb_set_owner_w(msg->acct, sk);
	return msg;

nomem_pages:
nomem_msg:
nomem:
	*err = -ENOMEM;
free:
	if (msg) {
		for (i = 0; i < msg->npages; i++)
			put_page(msg->pages[i]);
		kfree_skb(msg->acct);
		kvfree(msg);
	}
	return NULL;
}

/**
 * hf_tx_msg_put() - drop a reference to a message; the last frees it
 * @msg: the message
 *
 * Any context. Freeing uncharges the socket's send buffer and the
 * module-wide limit.
 */
void hf_tx_msg_put(struct hf_tx_msg *msg)
{
	u32 i;

	if (!refcount_dec_and_test(&msg->refs))
		return;
	for (i = 0; i < msg->npages; i++)
		put_page(msg->pages[i]);
	hf_mem_uncharge(msg->mem_pages);
	consume_skb(msg->acct);
	kvfree(msg);
}

/* @msg's outcome is known: count it for HF_INFO's hfi_tx_msgs_done. */
void hf_tx_msg_resolved(const struct hf_tx_msg *msg)
{
	atomic_inc(&hf_sk(msg->sk)->tx_msgs_done);
}

/* Tell the sending socket that @msg failed with @err. */
void hf_tx_msg_fail(struct hf_peer *peer, struct hf_tx_msg *msg, int err)
{
	struct sock *sk = msg->sk;
	struct sock_exterr_skb *serr;
	struct sk_buff *skb;

	lockdep_assert_held(&peer->lock);

	hf_stat_inc(&hf_net(peer->net)->stats, HF_STAT_TX_MSGS_FAILED);
	peer->out.stats.msgs_failed++;
	hf_tx_msg_resolved(msg);

	skb = alloc_skb(0, GFP_ATOMIC);
	if (skb) {
		serr = SKB_EXT_ERR(skb);
		memset(serr, 0, sizeof(*serr));
		serr->ee.ee_errno = err;
		serr->ee.ee_origin = SO_EE_ORIGIN_LOCAL;
		serr->ee.ee_info = msg->user_seq;
		serr->ee.ee_data = msg->len;
	}
	WRITE_ONCE(sk->sk_err, err);
	if (!skb || sock_queue_err_skb(sk, skb)) {
		kfree_skb(skb);
		sk_error_report(sk);
	}
}

