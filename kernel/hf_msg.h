/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_msg.h - a message on its way: the sender's copy (struct hf_tx_msg),
 * kept until the receiver reports its outcome, and the receiver's
 * reassembly (struct hf_rx_msg), kept until its outcome is resolved in
 * order.
 */
#ifndef _HF_MSG_H
#define _HF_MSG_H

#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/skbuff.h>
#include <linux/uio.h>
#include <net/sock.h>

struct hf_peer;

/*
 * A message this small shares a page with its socket's others and is
 * charged its bytes, not a page (hf_msg.c design note 2).
 */
#define HF_TX_SMALL_MAX		(PAGE_SIZE / 2)

/**
 * struct hf_tx_msg - a message being sent
 * @node: in the peer's out.queue until it starts, its out.active list while
 *	  segments remain unsent, then its out.sent list until the outcome is
 *	  known
 * @refs: one for the list it is on, one per segment in flight
 * @sk: the sending socket; valid for the message's lifetime because
 *	@acct holds write memory of it
 * @acct: an empty skb whose truesize is the message's charge against the
 *	  socket's sndbuf; freeing it uncharges and wakes writers
 * @user_seq: number of the message among its socket's sends (from 0), the
 *	      name error-queue entries give it
 * @msg_id: number in the peer flow, given when it starts
 * @pred: @msg_id less that of the message it follows between the same
 *	  ports, when that one was unresolved as it started; 0 when none
 *	  was (the DATA header's pred)
 * @status_waited: it was held unstarted by the status window (counted
 *		   once in HF_STAT_TX_STATUS_WAITS)
 * @len: bytes
 * @seg_size: stride it is cut at
 * @nsegs: segments
 * @next_seg: first segment never sent
 * @turn: the peer's frame count when it last started a frame; 0 before
 * @sport: sending port
 * @dport: receiving port
 * @mem_pages: pages charged to the module-wide limit (hf_mem.c) for it,
 *	       given back when it is freed
 * @npages: pages in @pages
 * @page_off: where the data begins in @pages[0]: 0, but for a small
 *	      message, which shares a page with its socket's others
 *	      (hf_msg.c design note 2)
 * @pages: the data, copied from the user once
 */
struct hf_tx_msg {
	struct list_head node;
	refcount_t refs;
	struct sock *sk;
	struct sk_buff *acct;
	u32 user_seq;
	u32 msg_id;
	u32 len;
	u32 seg_size;
	u32 nsegs;
	u32 next_seg;
	u32 turn;
	u16 sport;
	u16 dport;
	u8 pred;
	bool status_waited;
	unsigned long mem_pages;
	u32 npages;
	u32 page_off;
	struct page *pages[];
};

/**
 * struct hf_rx_msg - a message being reassembled
 * @msg_id: number in the peer flow
 * @len: bytes
 * @seg_size: stride
 * @nsegs: segments expected
 * @received: segments held (or counted, for a refused message)
 * @last_seq: highest sequence number among its segments so far
 * @sport: sending port
 * @dport: receiving port
 * @pred: @msg_id less that of the message it follows between the same
 *	  ports, as the sender gave it; 0 when that one was resolved
 * @status: enum hf_msg_status decided when it started
 * @delivered: handed to the socket ahead of its turn (its memory released);
 *	       the outcome is still reported in msg_id order
 * @sk: the receiving socket, held; NULL when refused or delivered
 * @charge: truesize of the segments held, charged to the socket and rx_mem
 * @reserve: bytes reserved against the namespace's mem_limit at admission;
 *	     @charge may grow to twice this, never more
 * @head: the empty skb the segments are chained under on delivery
 * @nchunks: entries in @chunks
 * @chunks: the segments by index, in page-sized tables of skb pointers
 *	    allocated as segments arrive; NULL for a refused message
 * @credited: payload bytes of its segments counted against the flow's
 *	      credit (hf_grant.c), given back exactly
 * @first_ns: when its first segment arrived (the delivery tracepoint's
 *	      latency)
 * @progress_at: jiffies of its last new segment: one that makes no
 *		 progress for peer_idle_ms is dropped (hf_input_expire())
 */
struct hf_rx_msg {
	u32 msg_id;
	u32 len;
	u32 seg_size;
	u32 nsegs;
	u32 received;
	u32 last_seq;
	u16 sport;
	u16 dport;
	u8 pred;
	u8 status;
	bool delivered;
	struct sock *sk;
	u64 charge;
	u64 reserve;
	struct sk_buff *head;
	u32 nchunks;
	struct sk_buff ***chunks;
	u64 credited;
	u64 first_ns;
	unsigned long progress_at;
};

/*
 * Where a received message came from, in the delivered skb's cb: the
 * source, the flow incarnation whose credit its reading returns, its length
 * as it arrived (@len: the socket's filter may keep less of it, skb->len,
 * but the credit counted every byte and gets every byte back), and the
 * reservation it holds against the namespace's and the module's limits
 * until it is freed (hf_reasm.c).
 */
struct hf_skb_cb {
	u16 sport;
	u32 epoch;
	u32 rx_state;
	int ifindex;
	u32 len;
	u8 addr[6];
	u32 reserve;
};

#define HF_SKB_CB(skb) ((struct hf_skb_cb *)((skb)->cb))

u64 hf_tx_msg_charge(size_t len);
struct hf_tx_msg *hf_tx_msg_alloc(struct sock *sk, struct iov_iter *from,
				  size_t len, u32 seg_size,
				  unsigned long mem_pages, int *err);
void hf_tx_msg_put(struct hf_tx_msg *msg);

/* Pages of @msg that bytes [@off, @off + @len) lie in; @len > 0. */
static inline u32 hf_tx_msg_pages(u32 off, u32 len)
{
	return ((off + len - 1) >> PAGE_SHIFT) - (off >> PAGE_SHIFT) + 1;
}

void hf_tx_msg_resolved(const struct hf_tx_msg *msg);
void hf_tx_msg_fail(struct hf_peer *peer, struct hf_tx_msg *msg, int err);

#endif /* _HF_MSG_H */
