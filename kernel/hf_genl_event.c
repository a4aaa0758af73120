// SPDX-License-Identifier: GPL-2.0
/*
 * hf_genl_event.c - the events of the generic netlink family "hyperframe"
 * (HF_CMD_EVENT, uapi/linux/hyperframe.h): building one message per event
 * about a peer or its flow and multicasting it to the group "events" of
 * the peer's namespace. The places that change the state call in here:
 * hf_peer.c (a peer created or removed) and hf_output.c (a new epoch, the
 * retry limit, a receiver that lost its state, a congestion back-off).
 *
 * Design notes:
 * 1. Callers hold spinlocks (the peer table's, a peer's) and some run in
 *    softirq, so everything here is atomic: GFP_ATOMIC, no sleeping. An
 *    event that cannot be allocated is lost and counted (events_dropped);
 *    one a listener has no room for is its socket's overrun (ENOBUFS).
 * 2. Nothing is built while nobody listens (genl_has_listeners(), one bit
 *    test), so the data path pays nothing for the feature by default.
 * 3. The family is unregistered first at module exit while peers still
 *    come and go (packets arrive until the handler is removed, peers are
 *    flushed with the namespaces), and its multicast group id may then be
 *    reused by another family. hf_genl_events_stop() closes the gate and
 *    waits for every sender inside it (RCU) before the family goes.
 */
#include <linux/etherdevice.h>
#include <linux/rcupdate.h>
#include <net/genetlink.h>

#include "hf_genl.h"
#include "hf_net.h"
#include "hf_peer.h"

/* Whether the family is registered: events may be sent. */
static bool hf_events_on;

/**
 * struct hf_event - one event, as its attributes
 * @type: enum hf_event_type
 * @reason: enum hf_event_reason; 0: no HF_EVENT_A_REASON
 * @err: positive errno the messages failed with; 0: no HF_EVENT_A_ERRNO
 * @epoch: the flow it is about; 0: no HF_EVENT_A_EPOCH
 * @msgs: messages it failed
 * @has_msgs: whether to send HF_EVENT_A_MSGS
 * @sign: enum hf_event_sign of a back-off; 0: no HF_EVENT_A_SIGN, nor the
 *	  two below
 * @rate_scale: the pacing rate kept by a back-off, in 1/HF_RATE_SCALE_ONE
 * @frame_segs: the hyperframe size after a back-off, in segments
 */
struct hf_event {
	u32 type;
	u32 reason;
	u32 err;
	u32 epoch;
	u32 msgs;
	bool has_msgs;
	u32 sign;
	u32 rate_scale;
	u32 frame_segs;
};

/**
 * hf_genl_events_start() - let events be sent; the family is registered
 */
void hf_genl_events_start(void)
{
	WRITE_ONCE(hf_events_on, true);
}

/**
 * hf_genl_events_stop() - send no more events, and wait for those being
 * sent; before the family is unregistered
 *
 * Process context.
 */
void hf_genl_events_stop(void)
{
	WRITE_ONCE(hf_events_on, false);
	synchronize_rcu();
}

static size_t hf_event_size(void)
{
	return 9 * nla_total_size(sizeof(u32)) + nla_total_size(ETH_ALEN);
}

static int hf_event_fill(struct sk_buff *skb, const struct hf_peer *peer,
			 const struct hf_event *ev)
{
	if (nla_put_u32(skb, HF_EVENT_A_TYPE, ev->type) ||
	    nla_put_u32(skb, HF_EVENT_A_IFINDEX, peer->dev->ifindex) ||
	    nla_put(skb, HF_EVENT_A_ADDR, ETH_ALEN, peer->addr))
		return -EMSGSIZE;
	if (ev->err && nla_put_u32(skb, HF_EVENT_A_ERRNO, ev->err))
		return -EMSGSIZE;
	if (ev->epoch && nla_put_u32(skb, HF_EVENT_A_EPOCH, ev->epoch))
		return -EMSGSIZE;
	if (ev->has_msgs && nla_put_u32(skb, HF_EVENT_A_MSGS, ev->msgs))
		return -EMSGSIZE;
	if (ev->reason && nla_put_u32(skb, HF_EVENT_A_REASON, ev->reason))
		return -EMSGSIZE;
	if (ev->sign &&
	    (nla_put_u32(skb, HF_EVENT_A_SIGN, ev->sign) ||
	     nla_put_u32(skb, HF_EVENT_A_RATE_SCALE, ev->rate_scale) ||
	     nla_put_u32(skb, HF_EVENT_A_FRAME_SEGS, ev->frame_segs)))
		return -EMSGSIZE;
	return 0;
}

/* Build @ev about @peer and multicast it in the peer's namespace. */
static void hf_event_send(const struct hf_peer *peer,
			  const struct hf_event *ev)
{
	struct net *net = peer->net;
	struct sk_buff *skb;
	void *hdr;

	rcu_read_lock();
	if (!READ_ONCE(hf_events_on) ||
	    !genl_has_listeners(&hf_genl_family, net, HF_GENL_MCGRP_EVENTS_ID))
		goto out;

	skb = genlmsg_new(hf_event_size(), GFP_ATOMIC);
	if (!skb)
		goto dropped;
	hdr = genlmsg_put(skb, 0, 0, &hf_genl_family, 0, HF_CMD_EVENT);
	if (!hdr || hf_event_fill(skb, peer, ev)) {
		nlmsg_free(skb);
		goto dropped;
	}
	genlmsg_end(skb, hdr);
	/* No listener left (-ESRCH) or one overrun (-ENOBUFS): theirs to see. */
	genlmsg_multicast_netns(&hf_genl_family, net, skb, 0,
				HF_GENL_MCGRP_EVENTS_ID, GFP_ATOMIC);
	goto out;

dropped:
	hf_stat_inc(&hf_net(net)->stats, HF_STAT_EVENTS_DROPPED);
out:
	rcu_read_unlock();
}

/**
 * hf_genl_event_peer_up() - HF_EVENT_PEER_UP: state for @peer was created
 * @peer: the peer, just added to its namespace's table
 *
 * Any context.
 */
void hf_genl_event_peer_up(const struct hf_peer *peer)
{
	struct hf_event ev = { .type = HF_EVENT_PEER_UP };

	hf_event_send(peer, &ev);
}

/**
 * hf_genl_event_peer_down() - HF_EVENT_PEER_DOWN: @peer was removed
 * @peer: the peer, dead and out of its namespace's table
 * @reason: why (enum hf_event_reason)
 * @msgs: messages still queued to it, which fail
 * @err: the positive errno they fail with
 *
 * Any context.
 */
void hf_genl_event_peer_down(const struct hf_peer *peer,
			     enum hf_event_reason reason, u32 msgs, int err)
{
	struct hf_event ev = {
		.type = HF_EVENT_PEER_DOWN,
		.reason = reason,
		.err = msgs ? err : 0,
		.msgs = msgs,
		.has_msgs = msgs != 0,
	};

	hf_event_send(peer, &ev);
}

/**
 * hf_genl_event_retry_limit() - HF_EVENT_RETRY_LIMIT: the sender gave up
 * on a silent peer
 * @peer: the peer; its lock held
 * @epoch: the flow given up
 * @msgs: messages failed with EHOSTUNREACH
 */
void hf_genl_event_retry_limit(const struct hf_peer *peer, u32 epoch,
			       u32 msgs)
{
	struct hf_event ev = {
		.type = HF_EVENT_RETRY_LIMIT,
		.err = EHOSTUNREACH,
		.epoch = epoch,
		.msgs = msgs,
		.has_msgs = true,
	};

	hf_event_send(peer, &ev);
}

/**
 * hf_genl_event_flow_reset() - HF_EVENT_FLOW_RESET: the receiver lost its
 * state for the flow
 * @peer: the peer; its lock held
 * @epoch: the flow it lost
 * @msgs: messages started in it, failed with ECONNRESET
 */
void hf_genl_event_flow_reset(const struct hf_peer *peer, u32 epoch,
			      u32 msgs)
{
	struct hf_event ev = {
		.type = HF_EVENT_FLOW_RESET,
		.err = ECONNRESET,
		.epoch = epoch,
		.msgs = msgs,
		.has_msgs = true,
	};

	hf_event_send(peer, &ev);
}

/**
 * hf_genl_event_epoch() - HF_EVENT_EPOCH: a new outgoing flow started
 * @peer: the peer, with its new out.epoch; its lock held
 */
void hf_genl_event_epoch(const struct hf_peer *peer)
{
	struct hf_event ev = {
		.type = HF_EVENT_EPOCH,
		.epoch = peer->out.epoch,
	};

	hf_event_send(peer, &ev);
}

/**
 * hf_genl_event_backoff() - HF_EVENT_BACKOFF: the sender backed off
 * @peer: the peer; its lock held
 * @sign: the congestion sign (enum hf_event_sign)
 * @rate_scale: the pacing rate kept, in 1/HF_RATE_SCALE_ONE (the
 *	        frame-size controller's unit, the same)
 * @frame_segs: the hyperframe size now, in segments
 */
void hf_genl_event_backoff(const struct hf_peer *peer,
			   enum hf_event_sign sign, u32 rate_scale,
			   u32 frame_segs)
{
	struct hf_event ev = {
		.type = HF_EVENT_BACKOFF,
		.epoch = peer->out.epoch,
		.sign = sign,
		.rate_scale = rate_scale,
		.frame_segs = frame_segs,
	};

	BUILD_BUG_ON(HF_RATE_SCALE_ONE != HF_FSIZE_ONE);
	hf_event_send(peer, &ev);
}
