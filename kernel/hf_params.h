/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_params.h - the tunables: module parameters give the defaults at
 * load, each network namespace holds its own copy (struct hf_config in
 * struct hf_net), taken from the initial namespace's when it is created
 * and changed at run time by HF_CMD_CONFIG_SET (hf_genl.c). Readers on
 * the data path take single fields with READ_ONCE() and the RTO settings,
 * which only make sense together, with hf_rto_params_read().
 */
#ifndef _HF_PARAMS_H
#define _HF_PARAMS_H

#include <asm/byteorder.h>
#include <linux/seqlock.h>
#include <linux/types.h>

#include "core/hf_fsize.h"
#include "core/hf_credit.h"
#include "core/hf_rto.h"
#include "core/hf_wire.h"

/**
 * struct hf_params - the settings of one namespace
 * @ethertype: EtherType of hyperframe frames, host order; module-wide,
 *	       set only at load (the packet handler is registered with it)
 * @max_msg: largest message sendmsg() accepts and a receiver takes
 * @max_peers: peers one namespace may hold
 * @frame_segs: segments of a new flow's first hyperframe (the frame-size
 *		controller, core/hf_fsize.c, grows and shrinks it from there)
 * @frame_min_segs: the controller's smallest frame, in segments
 * @frame_max_bytes: its largest, in payload bytes
 * @frame_delay_pct: a round trip this much above the flow's least is a
 *		     congestion sign (and at least 500 us); 0: delay is none
 * @pacing_rate: every socket's pacing cap, bytes per second of wire
 *		 frames; SO_MAX_PACING_RATE may set a lower one; 0: none
 * @mem_limit: bytes of reassembly one namespace may hold for its peers
 * @peer_idle_ms: an idle peer is reclaimed after this long
 * @flow_reset_ms: a sender starts a new epoch after this much idleness
 * @ack_delay_us: longest an ACK waits for company
 * @max_inflight: entries of the receiver's device queue a peer may fill
 *		  (its backlog, netdev_max_backlog 1000; a veth ring, 256):
 *		  segments in flight, or, where the device carries trains
 *		  whole, trains; the window is then two frames within
 *		  max_inflight full trains (hf_tx_window(), hf_output.c)
 * @credit_initial: bytes a sender may send a receiver before its first
 *		    grant (the unscheduled window); the same on both sides
 * @credit_budget: bytes a namespace grants its active senders together,
 *		   beyond what its programs have read: each gets an equal
 *		   share (core/hf_credit.c)
 * @rx_sched: 1: the receiver schedules its link (core/hf_rxsched.c):
 *	      grants and rates to its senders, shortest remaining first,
 *	      where it knows the link's rate; 0: off
 * @link_rate: the rate of our link, bytes per second, where the device
 *	       has no hfq rate; 0: unknown (nothing is scheduled)
 * @unsched_bytes: under rx_sched, the bytes a sender may send before its
 *		   first grant and the receiver's bandwidth-delay product;
 *		   0: the link's rate times an estimated round trip
 * @status_window: messages to one peer that may be unresolved at once, 32
 *		   to 128: above 32 a sender's new epochs ask for the
 *		   outcomes of that many (rounded up to 32) and go beyond 32
 *		   once the receiver's ACKs carry them; a receiver gives
 *		   what is asked up to its own
 * @rto: retransmission timer settings
 */
struct hf_params {
	u16 ethertype;
	u32 max_msg;
	u32 max_peers;
	u32 frame_segs;
	u32 frame_min_segs;
	u32 frame_max_bytes;
	u32 frame_delay_pct;
	u64 pacing_rate;
	u64 mem_limit;
	u32 peer_idle_ms;
	u32 flow_reset_ms;
	u32 ack_delay_us;
	u32 max_inflight;
	u32 credit_initial;
	u32 credit_budget;
	u32 rx_sched;
	u64 link_rate;
	u32 unsched_bytes;
	u32 status_window;
	struct hf_rto_params rto;
};

/**
 * struct hf_config - one namespace's settings and the lock of their RTO part
 * @p: the settings
 * @seq: writers of @p.rto hold it (write_seqlock_bh()); readers of the
 *	 other fields take each with READ_ONCE()
 */
struct hf_config {
	struct hf_params p;
	seqlock_t seq;
};

/* The module parameters: read-only once the module is loaded. */
extern struct hf_params hf_params_default;

/* Longest a millisecond tunable may be: a day. */
#define HF_MS_MAX		(24U * 3600 * 1000)

/*
 * HF_TUNABLES(X) - every tunable of struct hf_params but the EtherType
 * (read-only, module-wide) and the RTO settings (which only make sense
 * together: hf_rto_params_check()), one line each:
 *
 *	X(name, type, default, minimum, maximum, attribute, description)
 *
 * From that line come the default (hf_params_default) and the module
 * parameter with its description and load-time range check (hf_main.c),
 * and the generic netlink attribute's policy, fill and set (hf_genl.c).
 * What userspace knows of a tunable (its attribute, name, width, unit and
 * hfctl's help) is its line in the uapi's HF_CONFIG_KEYS(); hf_genl.c
 * checks at build time that the two tables agree.
 * The type is u32 or u64. Checks between tunables are the callers'.
 * frame_delay_pct is off by default: without credits or rate hints the
 * sender's own window queues at the receiver, and every round trip looks
 * inflated (on a clean veth link under TCG, 46,463 frames of 1 segment
 * for 46,630). mem_limit stays far below INT_MAX: per-socket receive
 * charges are atomic_t.
 */
#define HF_TUNABLES(X)							\
	X(max_msg, u32, 64 << 20, 1, HF_WIRE_MSG_MAX,			\
	  HF_CONFIG_A_MAX_MSG,						\
	  "largest message in bytes (default 64 MiB, at most 1 GiB)")	\
	X(max_peers, u32, 256, 1, U32_MAX, HF_CONFIG_A_MAX_PEERS,	\
	  "peers one network namespace may hold (default 256)")		\
	X(frame_segs, u32, HF_FSIZE_DEFAULT_INITIAL_SEGS, 1, U16_MAX,	\
	  HF_CONFIG_A_FRAME_SEGS,					\
	  "wire segments in a new flow's first hyperframe (default 4)")	\
	X(frame_min_segs, u32, HF_FSIZE_DEFAULT_MIN_SEGS, 1, U16_MAX,	\
	  HF_CONFIG_A_FRAME_MIN_SEGS,					\
	  "smallest hyperframe in wire segments (default 1)")		\
	X(frame_max_bytes, u32, HF_FSIZE_DEFAULT_MAX_BYTES, 1,		\
	  HF_WIRE_MSG_MAX, HF_CONFIG_A_FRAME_MAX_BYTES,			\
	  "largest hyperframe in payload bytes (default 1 MiB)")	\
	X(frame_delay_pct, u32, 0, 0, HF_FRAME_DELAY_PCT_MAX,		\
	  HF_CONFIG_A_FRAME_DELAY_PCT,					\
	  "round trip above the least by this percent is congestion (default 0: off)") \
	X(pacing_rate, u64, 0, 0, HF_PACING_RATE_MAX,			\
	  HF_CONFIG_A_PACING_RATE,					\
	  "every socket's pacing cap in bytes per second (default 0: none)") \
	X(mem_limit, u64, 512ULL << 20, 0, INT_MAX / 2,			\
	  HF_CONFIG_A_MEM_LIMIT,					\
	  "bytes of reassembly a namespace may hold (default 512 MiB)")	\
	X(peer_idle_ms, u32, 10000, 1, HF_MS_MAX,			\
	  HF_CONFIG_A_PEER_IDLE_MS,					\
	  "an idle peer is reclaimed after this many ms (default 10000)") \
	X(flow_reset_ms, u32, 2000, 1, HF_MS_MAX,			\
	  HF_CONFIG_A_FLOW_RESET_MS,					\
	  "a sender idle this many ms starts a new epoch (default 2000)") \
	X(ack_delay_us, u32, 1000, 0, 1000 * 1000,			\
	  HF_CONFIG_A_ACK_DELAY_US,					\
	  "longest an ACK waits for company, in us (default 1000)")	\
	X(max_inflight, u32, 128, 1, HF_WIN_SEGS,			\
	  HF_CONFIG_A_MAX_INFLIGHT,					\
	  "receiver queue entries a peer may fill (default 128, max 4096)") \
	X(credit_initial, u32, HF_CREDIT_DEFAULT_INITIAL, 0,		\
	  HF_CREDIT_DEFAULT_MAX_AHEAD, HF_CONFIG_A_CREDIT_INITIAL,	\
	  "bytes sent before the first grant, alike on all nodes (default 64 KiB)") \
	X(credit_budget, u32, 16 << 20, 1, HF_CREDIT_DEFAULT_MAX_AHEAD,	\
	  HF_CONFIG_A_CREDIT_BUDGET,					\
	  "bytes granted to all active senders beyond what was read (default 16 MiB)") \
	X(rx_sched, u32, 0, 0, 1, HF_CONFIG_A_RX_SCHED,			\
	  "1: the receiver schedules its link with grants and rates (default 0: off)") \
	X(link_rate, u64, 0, 0, HF_PACING_RATE_MAX, HF_CONFIG_A_LINK_RATE, \
	  "our link's rate in bytes per second where hfq has none (default 0: unknown)") \
	X(unsched_bytes, u32, 0, 0, HF_CREDIT_DEFAULT_MAX_AHEAD,	\
	  HF_CONFIG_A_UNSCHED_BYTES,					\
	  "rx_sched: bytes before a first grant (default 0: one bandwidth-delay product)") \
	X(status_window, u32, HF_STATUS_WINDOW, HF_STATUS_WINDOW,	\
	  HF_STATUS_WINDOW_MAX, HF_CONFIG_A_STATUS_WINDOW,		\
	  "messages to one peer unresolved at once, 32..128 (default 32)")

/* EtherType of every hyperframe frame, network order. */
static inline __be16 hf_ethertype(void)
{
	return htons(hf_params_default.ethertype);
}

/**
 * hf_rto_params_read() - a consistent copy of the RTO settings
 * @c: a namespace's settings
 * @p: filled with @c's RTO settings as one CONFIG_SET left them
 *
 * Any context.
 *
 * Return: @p.
 */
static inline const struct hf_rto_params *
hf_rto_params_read(const struct hf_config *c, struct hf_rto_params *p)
{
	unsigned int seq;

	do {
		seq = read_seqbegin(&c->seq);
		*p = c->p.rto;
	} while (read_seqretry(&c->seq, seq));
	return p;
}

/**
 * hf_fsize_params_read() - the frame-size controller's settings now
 * @c: a namespace's settings
 * @p: filled from @c, the policy at its defaults
 *
 * Any context. Each field is read once; the controller clamps with what
 * it is given, so settings changing between calls are harmless.
 *
 * Return: @p.
 */
static inline const struct hf_fsize_params *
hf_fsize_params_read(const struct hf_config *c, struct hf_fsize_params *p)
{
	hf_fsize_params_default(p);
	p->initial_segs = READ_ONCE(c->p.frame_segs);
	p->min_segs = min(READ_ONCE(c->p.frame_min_segs), p->initial_segs);
	p->max_bytes = READ_ONCE(c->p.frame_max_bytes);
	p->delay_pct = READ_ONCE(c->p.frame_delay_pct);
	return p;
}

/**
 * hf_credit_params_read() - the credit settings now
 * @c: a namespace's settings
 * @p: filled from @c (CONFIG_SET may change them: the initial
 *     window counts from the next epoch, the budget at the next grant)
 *
 * Any context.
 *
 * Return: @p.
 */
static inline const struct hf_credit_params *
hf_credit_params_read(const struct hf_config *c, struct hf_credit_params *p)
{
	hf_credit_params_default(p);
	p->initial_window = READ_ONCE(c->p.credit_initial);
	return p;
}

/*
 * Smallest segment stride sent or accepted: bounds the segment tables a
 * peer can make a receiver allocate (64 MiB / 64 B / 512 per page = 2048
 * table pointers).
 */
#define HF_MIN_SEG_SIZE		64

/* Largest pacing_rate: 1 Tbit/s, in bytes per second. */
#define HF_PACING_RATE_MAX	125000000000ULL

/* Largest frame_delay_pct: a round trip 100 times the least. */
#define HF_FRAME_DELAY_PCT_MAX	10000

/**
 * hf_seg_size() - payload bytes per wire segment on a link of @mtu
 * @mtu: the device's MTU, at least HF_DATA_HLEN + HF_MIN_SEG_SIZE
 *
 * Return: the segment stride; DATA headers count it in 16 bits.
 */
static inline u32 hf_seg_size(unsigned int mtu)
{
	return min_t(u32, mtu - HF_DATA_HLEN, U16_MAX);
}

/* Segments in flight per peer flow; a power of two (ring bitmaps). */
#define HF_WIN_SEGS		4096

#endif /* _HF_PARAMS_H */
