/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * hyperframe.h - the user API of the hyperframe transport, shared by the
 * kernel module and every userspace program: the address family, the socket
 * address, socket options and the generic netlink family.
 *
 * Out-of-tree code cannot raise AF_MAX, so hyperframe borrows an address
 * family slot below it that no kernel registers. The default, 18, is AF_ASH:
 * named by the kernel since 2.x and never implemented. The module takes its
 * slot from the "family" module parameter; programs that must be exact read
 * it back from /sys/module/hyperframe/parameters/family (libhyperframe
 * does). See docs/design.md, "Address family".
 */
#ifndef _UAPI_LINUX_HYPERFRAME_H
#define _UAPI_LINUX_HYPERFRAME_H

#include <linux/types.h>
#include <linux/if_ether.h>
#include <linux/socket.h>

#define AF_HYPERFRAME		18
#define PF_HYPERFRAME		AF_HYPERFRAME
#define SOL_HYPERFRAME		299

/* IEEE 802 local experimental EtherType 1; the "ethertype" module parameter. */
#define HF_ETH_P_DEFAULT	0x88B5

/* Path of the module parameter that holds the family actually registered. */
#define HF_SYSFS_FAMILY		"/sys/module/hyperframe/parameters/family"

/**
 * struct sockaddr_hf - a hyperframe endpoint
 * @shf_family: AF_HYPERFRAME
 * @shf_port: port in host byte order; 0 in bind() picks an ephemeral port
 * @shf_ifindex: interface the peer is reached through; 0 in bind() means any
 * @shf_addr: the peer's Ethernet address (unused in bind())
 * @shf_zero: must be zero
 */
struct sockaddr_hf {
	__kernel_sa_family_t	shf_family;
	__u16			shf_port;
	__s32			shf_ifindex;
	__u8			shf_addr[ETH_ALEN];
	__u8			shf_zero[2];
};

/*
 * Control messages and options at level SOL_HYPERFRAME.
 *
 * HF_RECVERR: the cmsg type of an error-queue entry (recvmsg with
 * MSG_ERRQUEUE). Its data is a struct sock_extended_err: ee_errno says why
 * the message was not delivered (ECONNREFUSED: no socket bound at the
 * destination port; EMSGSIZE: above the receiver's message limit;
 * EHOSTUNREACH: no answer within the retry limit; ENETDOWN: the interface
 * went down or away), ee_origin is SO_EE_ORIGIN_LOCAL, ee_info the number
 * of the message among the socket's sends (counting from 0) and ee_data
 * its length.
 */
#define HF_RECVERR		1

/*
 * HF_INFO: getsockopt(fd, SOL_HYPERFRAME, HF_INFO, &info, &len) fills a
 * struct hf_info, like TCP_INFO: the kernel writes min(len, its size)
 * bytes and sets len to that; fields are only ever added at the end, so
 * old programs keep working and hfi_size says what the kernel filled.
 * HF_INFO takes no input: the peer fields are those of the connected peer.
 * (For programs written before HF_PEER_INFO, a buffer whose hfi_peer
 * holds a complete address of the family, with shf_family the family, a
 * non-zero shf_ifindex and zero shf_zero, still names the peer; anything
 * else there, an uninitialised buffer included, is ignored.) Errors:
 * EINVAL (len too short for hfi_size).
 *
 * HF_PEER_INFO: the same, about one peer. A socket talks to many: set
 * hfi_peer (family, ifindex, address; port ignored) before the call and
 * pass a len that covers it; with hfi_peer.shf_family 0 the connected peer
 * is reported. Errors: EINVAL (len too short for hfi_peer, non-zero
 * padding or a bad address in hfi_peer), EAFNOSUPPORT (another family in
 * hfi_peer), ENODEV (no such interface).
 *
 * HF_INFO_PEER in hfi_flags says the peer fields are valid: it is clear
 * when no peer was named and the socket is not connected, or when this
 * namespace holds no state for that peer (nothing sent or received yet,
 * or reclaimed when idle).
 */
#define HF_INFO			2
#define HF_INFO_VERSION		1

#define HF_INFO_PEER		0x1	/* the peer fields are valid */
#define HF_PEER_INFO		3

/**
 * struct hf_info - the state of a socket and of one of its peers
 * @hfi_version: HF_INFO_VERSION of the kernel that filled it
 * @hfi_size: bytes filled
 * @hfi_flags: HF_INFO_*
 * @hfi_port: the socket's port; 0 while unbound
 * @hfi_sndbuf: SO_SNDBUF in effect, bytes
 * @hfi_rcvbuf: SO_RCVBUF in effect, bytes
 * @hfi_tx_queued: bytes accepted by sendmsg whose outcome is not known yet
 * @hfi_rx_queued: bytes of complete messages waiting to be read
 * @hfi_rx_reassembly: bytes held for messages still being reassembled
 * @hfi_tx_msgs: messages sent by this socket
 * @hfi_errqueue: entries waiting on the error queue
 * @hfi_peer: the peer (input of HF_PEER_INFO, output of both; port unused)
 * @hfi_epoch: incarnation of the flow towards the peer; 0 when idle
 * @hfi_seg_size: payload bytes per wire segment towards the peer
 * @hfi_frame_segs: segments per hyperframe now
 * @hfi_frame_bytes: hyperframe size now, bytes of payload
 * @hfi_pacing_rate: bytes per second (wire frames) the socket is paced at
 *		     towards the peer: the lowest of the module's
 *		     pacing_rate, SO_MAX_PACING_RATE, the peer's rate
 *		     hint and the device's link share, after the
 *		     frame-size controller's cut on congestion; 0 =
 *		     unpaced. Pacing needs an EDT qdisc on the device:
 *		     hfq or fq
 * @hfi_credit: segments the flow may still put in flight now (its
 *		segment window; the byte credit is @hfi_credit_bytes)
 * @hfi_inflight: segments in flight (sent, not cumulatively acked)
 * @hfi_srtt_us: smoothed round trip; 0 before the first sample
 * @hfi_rttvar_us: round-trip variation
 * @hfi_min_rtt_us: least round trip seen
 * @hfi_rto_us: retransmission timeout now, backoff included
 * @hfi_reorder_us: reordering window: how long a segment may be late
 *		    before it counts as lost
 * @hfi_backoff: doublings of the timeout in effect
 * @hfi_retries: timeouts in a row without an answer
 * @hfi_tx_queued_msgs: messages to the peer (all sockets) not resolved
 * @hfi_tx_segs: segments sent to the peer, first transmissions
 * @hfi_retransmits: segments sent again to the peer
 * @hfi_spurious: retransmissions the peer already had
 * @hfi_rx_segs: segments accepted from the peer
 * @hfi_tx_bytes: payload bytes of @hfi_tx_segs (first transmissions)
 * @hfi_rx_bytes: payload bytes of @hfi_rx_segs
 * @hfi_tx_frames: hyperframes sent to the peer
 * @hfi_peer_tx_msgs: messages queued to the peer (all sockets)
 * @hfi_tx_msgs_delivered: of those, confirmed by the peer
 * @hfi_tx_msgs_failed: of those, reported failed to their socket
 * @hfi_rx_msgs: messages from the peer delivered to sockets
 * @hfi_credit_bytes: bytes of new data the peer's grants let the flow
 *		      send now (limit - sent, docs/wire-format.md)
 * @hfi_credit_stall_us: time the flow waited for credit, the current
 *			 stall included
 * @hfi_rx_credit: bytes we grant the peer beyond what it has sent us
 * @hfi_rx_unread: bytes the peer sent us that programs have not read yet,
 *		   reassembly included
 * @hfi_rate_hint: the peer's rate hint for us, bytes per second (0: none);
 *		   it caps @hfi_pacing_rate
 * @hfi_link_share: the flow's share of the device it leaves by, bytes per
 *		    second (0: none): the device's hfq rate divided among
 *		    its peers with data to send; it caps @hfi_pacing_rate
 * @hfi_tx_msgs_done: messages sent by this socket whose outcome is known
 *		      (confirmed delivered or reported failed); a peer
 *		      resolves its messages in the order they were queued
 * @hfi_backoff_answered_us: time the flow spent at its maximum timeout
 *			     backoff after an ACK from the peer had taken
 *			     data (acked or newly SACKed), the current
 *			     stretch included: a peer that answers is no
 *			     silent peer, so this stays 0
 *
 * The four credit fields count within a flow's epoch: a new epoch starts
 * them at 0 (the initial window for @hfi_credit_bytes).
 */
struct hf_info {
	__u32			hfi_version;
	__u32			hfi_size;
	__u32			hfi_flags;
	__u16			hfi_port;
	__u16			hfi_pad0;
	__u32			hfi_sndbuf;
	__u32			hfi_rcvbuf;
	__u64			hfi_tx_queued;
	__u64			hfi_rx_queued;
	__u64			hfi_rx_reassembly;
	__u64			hfi_tx_msgs;
	__u32			hfi_errqueue;
	__u32			hfi_pad1;

	struct sockaddr_hf	hfi_peer;
	__u32			hfi_epoch;
	__u32			hfi_seg_size;
	__u32			hfi_frame_segs;
	__u32			hfi_frame_bytes;
	__u64			hfi_pacing_rate;
	__u32			hfi_credit;
	__u32			hfi_inflight;
	__u32			hfi_srtt_us;
	__u32			hfi_rttvar_us;
	__u32			hfi_min_rtt_us;
	__u32			hfi_rto_us;
	__u32			hfi_reorder_us;
	__u16			hfi_backoff;
	__u16			hfi_retries;
	__u32			hfi_tx_queued_msgs;
	__u32			hfi_pad2;
	__u64			hfi_tx_segs;
	__u64			hfi_retransmits;
	__u64			hfi_spurious;
	__u64			hfi_rx_segs;
	__u64			hfi_tx_bytes;
	__u64			hfi_rx_bytes;
	__u64			hfi_tx_frames;
	__u64			hfi_peer_tx_msgs;
	__u64			hfi_tx_msgs_delivered;
	__u64			hfi_tx_msgs_failed;
	__u64			hfi_rx_msgs;
	__u64			hfi_credit_bytes;
	__u64			hfi_credit_stall_us;
	__u64			hfi_rx_credit;
	__u64			hfi_rx_unread;
	__u64			hfi_rate_hint;
	__u64			hfi_link_share;
	__u64			hfi_tx_msgs_done;
	__u64			hfi_backoff_answered_us;
};

/*
 * The generic netlink family "hyperframe" (docs/design.md, "Control
 * plane"). Every command works on the caller's network namespace, whose
 * configuration is its own (a new namespace starts with a copy of the
 * initial namespace's). HF_CMD_CONFIG_SET and HF_CMD_QDISC_SET need
 * CAP_NET_ADMIN over that namespace (in the user namespace owning it);
 * raising the limits that bound kernel memory or how long it stays held
 * (max_msg, max_peers, mem_limit, credit_budget, max_inflight,
 * retry_limit, rto_max_us, rto_max_backoff, peer_idle_ms) above the
 * initial namespace's needs it in the initial user namespace. Listening
 * to HF_GENL_MCGRP_EVENTS needs CAP_NET_ADMIN over the namespace (events
 * name flow epochs). The rest is open to all. The family is also
 * described in the kernel's YAML netlink format, docs/netlink/
 * hyperframe.yaml, for the kernel's YNL tools (cli.py).
 * Attributes are only ever added, each command has its own attribute space
 * and every attribute is validated by a policy: a value out of range is
 * refused (ERANGE with the range in the extended ack), never clamped.
 */
#define HF_GENL_NAME		"hyperframe"
#define HF_GENL_VERSION		1
#define HF_GENL_MCGRP_EVENTS	"events"

/**
 * enum hf_genl_cmd - commands of the "hyperframe" family
 * @HF_CMD_CONFIG_GET: reply: every HF_CONFIG_A_* attribute
 * @HF_CMD_CONFIG_SET: set the writable HF_CONFIG_A_* attributes given; all
 *		       or none are applied. Applies to new messages and peers
 * @HF_CMD_STATS_GET: reply: the namespace's counters, HF_STATS_A_COUNTER
 * @HF_CMD_PEER_GET: dump only: one message of HF_PEER_A_* per peer
 * @HF_CMD_SOCKET_GET: dump only: one message of HF_SOCKET_A_* per bound socket
 * @HF_CMD_QDISC_GET: the hfq qdisc at the root of HF_QDISC_A_IFINDEX; as a
 *		      dump, one message of HF_QDISC_A_* per device whose root
 *		      qdisc is hfq
 * @HF_CMD_QDISC_SET: set the writable HF_QDISC_A_* given on the hfq at the
 *		      root of HF_QDISC_A_IFINDEX, all or none
 * @HF_CMD_EVENT: notification only, never a request: one HF_EVENT_A_* message
 *		  per event, sent to the multicast group HF_GENL_MCGRP_EVENTS
 * @HF_CMD_DEV_GET: dump only: one message of HF_DEV_A_* per device of the
 *		    namespace hyperframe traffic used
 */
enum hf_genl_cmd {
	HF_CMD_UNSPEC,
	HF_CMD_CONFIG_GET,
	HF_CMD_CONFIG_SET,
	HF_CMD_STATS_GET,
	HF_CMD_PEER_GET,
	HF_CMD_SOCKET_GET,
	HF_CMD_QDISC_GET,
	HF_CMD_QDISC_SET,
	HF_CMD_EVENT,
	HF_CMD_DEV_GET,

	__HF_CMD_MAX,
	HF_CMD_MAX = __HF_CMD_MAX - 1
};

/*
 * HF_CMD_CONFIG_*: the module's settings (struct hf_params). Read-only:
 * ETHERTYPE and RTO_GRANULARITY_US (one jiffy); in a SET they are refused.
 * All are u32 but MEM_LIMIT, PACING_RATE and LINK_RATE (u64) and ETHERTYPE
 * (u16).
 */
enum hf_config_attr {
	HF_CONFIG_A_UNSPEC,
	HF_CONFIG_A_PAD,
	HF_CONFIG_A_ETHERTYPE,
	HF_CONFIG_A_MAX_MSG,		/* bytes, largest message */
	HF_CONFIG_A_MAX_PEERS,		/* peers per namespace */
	HF_CONFIG_A_FRAME_SEGS,		/* segments of a flow's first hyperframe */
	HF_CONFIG_A_MEM_LIMIT,		/* bytes of reassembly per namespace */
	HF_CONFIG_A_PEER_IDLE_MS,	/* idle peers reclaimed after this */
	HF_CONFIG_A_FLOW_RESET_MS,	/* idle flows restart after this */
	HF_CONFIG_A_ACK_DELAY_US,	/* longest an ACK waits */
	HF_CONFIG_A_MAX_INFLIGHT,	/* receiver queue entries per peer */
	HF_CONFIG_A_RTO_MIN_US,
	HF_CONFIG_A_RTO_MAX_US,
	HF_CONFIG_A_RTO_INITIAL_US,	/* min <= initial <= max */
	HF_CONFIG_A_RTO_GRANULARITY_US,
	HF_CONFIG_A_RTO_MAX_BACKOFF,	/* doublings of the timeout */
	HF_CONFIG_A_RETRY_LIMIT,	/* expiries in a row; 255: no limit */
	HF_CONFIG_A_FRAME_MIN_SEGS,	/* smallest hyperframe; <= FRAME_SEGS */
	HF_CONFIG_A_FRAME_MAX_BYTES,	/* largest hyperframe, payload bytes */
	HF_CONFIG_A_FRAME_DELAY_PCT,	/* RTT inflation that is congestion; 0: none */
	HF_CONFIG_A_PACING_RATE,	/* u64 bytes/s, every socket's pacing cap; 0: none */
	HF_CONFIG_A_CREDIT_INITIAL,	/* bytes sent before a first grant;
					 * the same on every node; new epochs
					 */
	HF_CONFIG_A_CREDIT_BUDGET,	/* bytes granted all active senders
					 * beyond what was read
					 */
	HF_CONFIG_A_RX_SCHED,		/* 1: the receiver schedules its link
					 * (grants, rates, SRPT); 0: off
					 */
	HF_CONFIG_A_LINK_RATE,		/* u64 bytes/s of our link, where the
					 * device has no hfq rate; 0: unknown
					 */
	HF_CONFIG_A_UNSCHED_BYTES,	/* bytes before a first grant under
					 * rx_sched; 0: a bandwidth-delay product
					 */
	HF_CONFIG_A_STATUS_WINDOW,	/* messages to one peer unresolved at
					 * once, 32..128
					 */

	__HF_CONFIG_A_MAX,
	HF_CONFIG_A_MAX = __HF_CONFIG_A_MAX - 1
};

/*
 * HF_CONFIG_KEYS(X) - every HF_CONFIG_A_* setting, in the order hfctl
 * lists them, one line each:
 *
 *	X(ATTR, name, key, type, unit, kind, help)
 *
 * ATTR: the attribute is HF_CONFIG_A_<ATTR>. name: the kernel's (and its
 * module parameter's), in the base unit, as hfctl's JSON gives it. key:
 * the name hfctl takes and prints, in human units. type: the attribute's
 * width (u16, u32 or u64). unit: of the value, for hfctl to read and
 * print it (count, bytes, usecs, msecs, bytes_per_s). kind: TUNABLE, a
 * line of the kernel's HF_TUNABLES() too (default, bounds, module
 * parameter; the module's build checks that both agree on the name,
 * type and attribute); RTO, a retransmission timer setting (checked
 * together); RO, read-only. help: hfctl's one-line description.
 */
#define HF_CONFIG_KEYS(X)						\
	X(ETHERTYPE, ethertype, ethertype, u16, count, RO,		\
	  "EtherType of hyperframe frames (module parameter)")		\
	X(MAX_MSG, max_msg, max_msg, u32, bytes, TUNABLE,		\
	  "largest message sent or accepted")				\
	X(MAX_PEERS, max_peers, max_peers, u32, count, TUNABLE,	\
	  "peers one namespace may hold")				\
	X(FRAME_SEGS, frame_segs, frame_segs, u32, count, TUNABLE,	\
	  "wire segments in a new flow's first hyperframe")		\
	X(FRAME_MIN_SEGS, frame_min_segs, frame_min_segs, u32, count,	\
	  TUNABLE,							\
	  "smallest hyperframe in wire segments (at most frame_segs)")	\
	X(FRAME_MAX_BYTES, frame_max_bytes, frame_max, u32, bytes,	\
	  TUNABLE, "largest hyperframe, payload bytes")			\
	X(FRAME_DELAY_PCT, frame_delay_pct, frame_delay_pct, u32, count, \
	  TUNABLE,							\
	  "round trip above the least by this percent is congestion "	\
	  "(0: never)")							\
	X(PACING_RATE, pacing_rate, pacing_rate, u64, bytes_per_s,	\
	  TUNABLE,							\
	  "every socket's pacing cap (100mbit, 10gbit); "		\
	  "SO_MAX_PACING_RATE may lower it (0: none)")			\
	X(MEM_LIMIT, mem_limit, mem_limit, u64, bytes, TUNABLE,	\
	  "reassembly memory one namespace may hold")			\
	X(PEER_IDLE_MS, peer_idle_ms, peer_idle, u32, msecs, TUNABLE,	\
	  "an idle peer is reclaimed after this long")			\
	X(FLOW_RESET_MS, flow_reset_ms, flow_reset, u32, msecs,	\
	  TUNABLE, "a sender idle this long starts a new epoch")	\
	X(ACK_DELAY_US, ack_delay_us, ack_delay, u32, usecs, TUNABLE,	\
	  "longest an ACK waits for company")				\
	X(MAX_INFLIGHT, max_inflight, max_inflight, u32, count, TUNABLE, \
	  "receiver queue entries per peer: segments, or trains carried " \
	  "whole")							\
	X(CREDIT_INITIAL, credit_initial, credit_initial, u32, bytes,	\
	  TUNABLE,							\
	  "bytes a sender sends before its first grant; the same on "	\
	  "every node")							\
	X(CREDIT_BUDGET, credit_budget, credit_budget, u32, bytes,	\
	  TUNABLE,							\
	  "bytes granted all active senders together beyond what "	\
	  "programs read")						\
	X(RX_SCHED, rx_sched, rx_sched, u32, count, TUNABLE,		\
	  "1: the receiver schedules its link with grants and rates "	\
	  "(0: off)")							\
	X(LINK_RATE, link_rate, link_rate, u64, bytes_per_s, TUNABLE,	\
	  "our link's rate where the device's hfq has none (50mbit; "	\
	  "0: unknown)")						\
	X(UNSCHED_BYTES, unsched_bytes, unsched_bytes, u32, bytes,	\
	  TUNABLE,							\
	  "rx_sched: bytes before a first grant (0: one "		\
	  "bandwidth-delay product)")					\
	X(STATUS_WINDOW, status_window, status_window, u32, count,	\
	  TUNABLE,							\
	  "messages to one peer unresolved at once (32..128; above 32 "	\
	  "only with a receiver set so too)")				\
	X(RTO_MIN_US, rto_min_us, rto_min, u32, usecs, RTO,		\
	  "least retransmission timeout")				\
	X(RTO_MAX_US, rto_max_us, rto_max, u32, usecs, RTO,		\
	  "greatest retransmission timeout, backoff included")		\
	X(RTO_INITIAL_US, rto_initial_us, rto_initial, u32, usecs, RTO,	\
	  "retransmission timeout before the first sample")		\
	X(RTO_GRANULARITY_US, rto_granularity_us, rto_granularity, u32,	\
	  usecs, RO, "timer granularity (one jiffy)")			\
	X(RTO_MAX_BACKOFF, rto_max_backoff, rto_max_backoff, u32, count, \
	  RTO, "doublings of the timeout, at most")			\
	X(RETRY_LIMIT, retry_limit, retry_limit, u32, count, RTO,	\
	  "timeouts in a row before a peer is unreachable (255: no limit)")

/*
 * HF_CMD_STATS_GET: the counters of the caller's namespace, as a list of
 * HF_STATS_A_COUNTER nests, each a name and a value, so that counters can
 * be added without changing this header. The names are those of
 * /proc/net/hyperframe; values are 64-bit and never reset.
 *
 * The hyperframe size histogram follows: hyperframes sent by payload
 * bytes (a frame's size is counted when it starts; the histogram's
 * buckets sum to the counter tx_frames). One HF_STATS_A_FRAME_SIZE_BUCKET
 * nest per bucket in increasing order of bound, each holding the frames
 * whose size is at most HF_BUCKET_A_LE and above the previous bucket's
 * bound (counts are NOT cumulative); the last bucket's bound is
 * HF_BUCKET_A_LE_INF. HF_STATS_A_FRAME_SIZE_SUM is the sum of the sizes.
 * The bounds are 1 KiB, 2 KiB, ... 4 MiB, +Inf now, but a reader takes
 * them from the reply.
 */
enum hf_stats_attr {
	HF_STATS_A_UNSPEC,
	HF_STATS_A_COUNTER,		/* nest of HF_COUNTER_A_* */
	HF_STATS_A_PAD,
	HF_STATS_A_FRAME_SIZE_BUCKET,	/* nest of HF_BUCKET_A_*, repeated */
	HF_STATS_A_FRAME_SIZE_SUM,	/* u64, bytes */

	__HF_STATS_A_MAX,
	HF_STATS_A_MAX = __HF_STATS_A_MAX - 1
};

/*
 * HF_COUNTERS(X) - the counters of a network namespace, in the order
 * HF_CMD_STATS_GET and /proc/net/hyperframe give them, one line each:
 *
 *	X(ENUM, name, help)
 *
 * The kernel makes its enum (HF_STAT_ENUM) and the names it reports from
 * it; userspace (hfctl's exporter) the help it gives each. The drop_*
 * counters are the frames dropped on receive, by reason; the namespace
 * reports after them drop_malformed_REASON (enum hf_wire_err) and the
 * gauges peers, rx_mem_bytes, rx_mem_reserved_bytes and mem_bytes.
 */
#define HF_COUNTERS(X)							\
	X(TX_MSGS, tx_msgs, "Messages accepted by sendmsg().")		\
	X(TX_BYTES, tx_bytes, "Bytes of the messages accepted by sendmsg().")\
	X(TX_SEGS, tx_segs, "DATA segments sent for the first time.")	\
	X(TX_FRAMES, tx_frames, "Hyperframes sent.")			\
	X(TX_ACKS, tx_acks, "ACKs sent.")				\
	X(TX_RETRANSMITS, tx_retransmits, "DATA segments sent again.")	\
	X(TX_RTO, tx_rto, "Retransmission timer expiries.")		\
	X(TX_RTO_SPURIOUS, tx_rto_spurious,				\
	  "Retransmission timer expiries the acks showed to be early "	\
	  "(F-RTO).")							\
	X(TX_XMIT_ERRORS, tx_xmit_errors, "Frames the device refused.")	\
	X(TX_MSGS_FAILED, tx_msgs_failed, "Messages reported failed.")	\
	X(TX_MSGS_DELIVERED, tx_msgs_delivered,				\
	  "Messages the receiver confirmed.")				\
	X(TX_RESETS, tx_resets,						\
	  "Flows restarted because the receiver lost its state.")	\
	X(TX_CHALLENGES, tx_challenges,					\
	  "Challenges of a new flow incarnation answered: the "		\
	  "receiver held another flow from this node and asked for "	\
	  "proof.")							\
	X(TX_EPOCHS, tx_epochs, "Flow incarnations started.")		\
	X(TX_SPURIOUS, tx_spurious_retransmits,				\
	  "Retransmissions the receiver already had.")			\
	X(TX_REORDER_WAITS, tx_reorder_waits,				\
	  "Repairs held back by the reordering window.")		\
	X(TX_REPAIRS_LOST, tx_repairs_lost,				\
	  "Repairs found lost and sent again.")				\
	X(TX_WINDOW_RESENDS, tx_window_resends,				\
	  "Segments sent again because the receiver had room again.")	\
	X(TX_DATA_SKBS, tx_data_skbs,					\
	  "Socket buffers of new DATA handed to devices; a train of "	\
	  "segments counts once.")					\
	X(TX_SW_SEGMENTED, tx_sw_segmented,				\
	  "Trains cut into segments in software for a device that "	\
	  "cannot carry them.")						\
	X(TX_FRAME_SKBS, tx_frame_skbs,					\
	  "Socket buffers of new DATA handed to the device queue; a "	\
	  "carrier (the trains of one hyperframe) counts once.")	\
	X(TX_CARRIERS_SPLIT, tx_carriers_split,				\
	  "Carriers taken apart into their trains at the device "	\
	  "boundary.")							\
	X(TX_FRAME_GROWS, tx_frame_grows,				\
	  "Hyperframe size doubled after a round trip without "		\
	  "congestion, or put back when a timeout proved spurious.")	\
	X(TX_FRAME_SHRINKS, tx_frame_shrinks,				\
	  "Hyperframe size halved after congestion or idleness.")	\
	X(TX_RATE_CUTS, tx_rate_cuts,					\
	  "Pacing rate scale cut on a congestion sign.")		\
	X(TX_CREDIT_STALLS, tx_credit_stalls,				\
	  "Times the window or credit closed on a sender with data "	\
	  "waiting.")							\
	X(TX_PACING_DELAYS, tx_pacing_delays,				\
	  "Socket buffers pacing held past the time they were built.")	\
	X(TX_PACE_WAITS, tx_pace_waits,					\
	  "Pushes that stopped because pacing or the device's hfq "	\
	  "queue ran over 2 ms ahead; a timer or an ACK pushes again.")	\
	X(TX_CREDIT_INVALID, tx_credit_invalid,				\
	  "Credit grants refused: more than max_ahead beyond the "	\
	  "bytes sent.")						\
	X(TX_CREDIT_PROBES, tx_credit_probes,				\
	  "Segments sent beyond the credit as persist probes, nothing "	\
	  "being in flight.")						\
	X(TX_RATE_HINTS, tx_rate_hints,					\
	  "Changes of a receiver's rate hint, which caps the flow's "	\
	  "pacing rate.")						\
	X(TX_PUSH_DEFERRALS, tx_push_deferrals,				\
	  "Sends that waited for more acks to open the window for a "	\
	  "full train.")						\
	X(TX_MEM_WAITS, tx_mem_waits,					\
	  "Sends that waited for, or were refused by, the module-wide "	\
	  "memory limit.")						\
	X(TX_MSGS_ORPHANED, tx_msgs_orphaned,				\
	  "Messages of closed sockets given up after a few timeouts "	\
	  "because their peer never answered.")				\
	X(TX_BACKOFF_ANSWERED_US, tx_backoff_answered_us,		\
	  "Seconds flows spent at their maximum timeout backoff while "	\
	  "the peer's acks took data; 0 unless a peer that answers is "	\
	  "waited for like a silent one.")				\
	X(RX_SEGS, rx_segs, "DATA segments accepted.")			\
	X(RX_DATA_SKBS, rx_data_skbs,					\
	  "Socket buffers of DATA that arrived; a train of segments "	\
	  "counts once.")						\
	X(RX_LINEARIZED_TRAINS, rx_linearized_trains,			\
	  "Trains that arrived copied into one buffer (generic XDP) "	\
	  "and were cut here.")						\
	X(RX_PACKED_TRAINS, rx_packed_trains,				\
	  "Packed trains (one header for all their segments) that "	\
	  "arrived whole.")						\
	X(RX_PACKED_SPLIT, rx_packed_split,				\
	  "Packed trains taken apart segment by segment: some "		\
	  "segments had arrived before or fell outside the windows.")	\
	X(RX_CARRIERS, rx_carriers,					\
	  "Carriers (the trains of one hyperframe as one skb) that "	\
	  "arrived whole and were taken apart here.")			\
	X(RX_CSUM_LOCAL, rx_csum_local,					\
	  "Frames that crossed no wire with their checksum left to a "	\
	  "device, which a virtual link never fills: taken without "	\
	  "verifying.")							\
	X(RX_GRO_TRAINS, rx_gro_trains,					\
	  "Trains GRO built again from DATA segments that arrived one "	\
	  "by one.")							\
	X(RX_GRO_SEGS, rx_gro_segs,					\
	  "DATA segments that arrived one by one and went up in a GRO "	\
	  "train.")							\
	X(RX_EPOCHS, rx_epochs, "Flow incarnations adopted.")		\
	X(RX_CHALLENGES, rx_challenges,					\
	  "New flow incarnations challenged while a flow from the "	\
	  "same peer existed.")						\
	X(RX_LOST_REPLIES, rx_lost_replies,				\
	  "LOST answers sent: DATA named a receiver state this node "	\
	  "does not hold.")						\
	X(RX_ACKS, rx_acks, "ACKs accepted.")				\
	X(RX_MSGS, rx_msgs, "Messages delivered to sockets.")		\
	X(RX_BYTES, rx_bytes, "Bytes of the messages delivered to sockets.")\
	X(RX_DUPLICATES, rx_duplicates, "Segments received twice.")	\
	X(RX_MSGS_NO_PORT, rx_msgs_no_port,				\
	  "Messages refused because no socket is bound to their port.")	\
	X(RX_MSGS_OTHER_DEV, rx_msgs_other_dev,				\
	  "Messages refused because their port's socket is bound to "	\
	  "another interface (also counted in "				\
	  "hyperframe_rx_msgs_no_port_total).")				\
	X(RX_MSGS_FILTERED, rx_msgs_filtered,				\
	  "Messages refused by their socket's filter or a security "	\
	  "module (also counted in hyperframe_rx_msgs_no_port_total).")	\
	X(RX_MSGS_TOO_BIG, rx_msgs_too_big, "Messages refused as too big.")\
	X(RX_MSGS_NO_MEMORY, rx_msgs_no_memory,				\
	  "Messages refused as too big for the namespace's memory "	\
	  "limit (also counted in hyperframe_rx_msgs_too_big_total).")	\
	X(RX_CREDIT_OVER, rx_credit_over,				\
	  "Payload bytes received beyond the credit granted (persist "	\
	  "probes, or a sender that broke its credit).")		\
	X(RX_MSGS_EXPIRED, rx_msgs_expired,				\
	  "Messages dropped in reassembly: no progress for "		\
	  "peer_idle_ms, or their socket closed.")			\
	X(PEERS_EVICTED, peers_evicted,					\
	  "Peers evicted from a full table (max_peers) to make room "	\
	  "for a new one: ones that never answered, or had nothing in "	\
	  "flight.")							\
	X(DROP_MALFORMED, drop_malformed,				\
	  "Failed hf_hdr_decode(); by reason below.")			\
	X(DROP_CSUM, drop_csum, "Checksum did not verify.")		\
	X(DROP_BEYOND, drop_beyond_window,				\
	  "Sequence outside the receive window.")			\
	X(DROP_MSG_WINDOW, drop_msg_window,				\
	  "Message id outside the message window.")			\
	X(DROP_DISAGREE, drop_disagree, "Segment contradicts its message.")\
	X(DROP_SEG_SIZE, drop_seg_size, "Stride below HF_MIN_SEG_SIZE.")\
	X(DROP_NO_PEER, drop_no_peer, "ACK from an unknown peer.")	\
	X(DROP_PEER_LIMIT, drop_peer_limit, "No room for another peer.")\
	X(DROP_EPOCH, drop_epoch, "ACK for another flow incarnation.")	\
	X(DROP_STALE_EPOCH, drop_stale_epoch,				\
	  "DATA of the incarnation before this one.")			\
	X(DROP_UNPROVEN, drop_unproven, "DATA of a new epoch not proven yet.")\
	X(DROP_FORGED, drop_forged,					\
	  "DATA no sender sends: echo, epoch 0, start.")		\
	X(DROP_NO_STATE, drop_no_state,					\
	  "DATA echoing a state not held (LOST).")			\
	X(DROP_OVER_CREDIT, drop_over_credit,				\
	  "DATA far beyond the credit granted.")			\
	X(DROP_ACK_INVALID, drop_ack_invalid, "ACK for segments never sent.")\
	X(DROP_RCVBUF, drop_rcvbuf, "Receiving socket's buffer full.")	\
	X(DROP_MEMORY, drop_memory,					\
	  "No memory, or above the message's reservation.")		\
	X(DROP_MEM_LIMIT, drop_mem_limit,				\
	  "New message: namespace reservations full.")			\
	X(DROP_OTHERHOST, drop_otherhost, "Frame not addressed to us.")	\
	X(EVENTS_DROPPED, events_dropped,				\
	  "Events (hfctl monitor) lost for want of memory to build "	\
	  "them.")							\
	X(RX_SCHED_GRANTS, rx_sched_grants,				\
	  "ACKs whose credit limit the receiver's schedule (rx_sched) "	\
	  "raised.")							\
	X(RX_SCHED_RECLAIMS, rx_sched_reclaims,				\
	  "Scheduled senders found silent, their outstanding grant "	\
	  "given to the others.")					\
	X(RX_SCHED_FULL, rx_sched_full,					\
	  "Grants to a sender the schedule had no slot for (only the "	\
	  "least grant given).")					\
	X(TX_UNSCHED_BYTES, tx_unsched_bytes,				\
	  "Payload bytes sent to a peer before its first grant of the "	\
	  "flow's incarnation.")					\
	X(RX_STRANGER_REPLIES, rx_stranger_replies,			\
	  "Answers sent, keeping no state, to DATA from a node the "	\
	  "full peer table had no room for: a challenge to a flow's "	\
	  "first segments, LOST to a segment echoing a state.")		\
	X(PEERS_PROVEN_IN, peers_proven_in,				\
	  "Peers admitted to a full table because they echoed the "	\
	  "cookie of such a challenge (up to an eighth beyond "	\
	  "max_peers).")					\
	X(PEERS_RECLAIMED, peers_reclaimed,				\
	  "Peers reclaimed after peer_idle_ms of silence with nothing "	\
	  "in flight.")							\
	X(DROP_BAD_SOURCE, drop_bad_source,				\
	  "Frames from a group (multicast) or zero source address.")	\
	X(TX_STATUS_WAITS, tx_status_waits,				\
	  "Messages that could have started but waited because as "	\
	  "many messages to their peer as one ACK reports outcomes for "\
	  "were unresolved.")						\
	X(TX_REPAIR_UNDOS, tx_repair_undos,				\
	  "Loss reactions (a rate cut or a frame halved) taken back "	\
	  "because every segment sent again since arrived twice.")


enum hf_counter_attr {
	HF_COUNTER_A_UNSPEC,
	HF_COUNTER_A_PAD,
	HF_COUNTER_A_NAME,		/* string */
	HF_COUNTER_A_VALUE,		/* u64 */

	__HF_COUNTER_A_MAX,
	HF_COUNTER_A_MAX = __HF_COUNTER_A_MAX - 1
};

/* One bucket of a histogram (HF_STATS_A_FRAME_SIZE_BUCKET). */
#define HF_BUCKET_A_LE_INF	(~(__u64)0)	/* the bucket "+Inf" */

enum hf_bucket_attr {
	HF_BUCKET_A_UNSPEC,
	HF_BUCKET_A_PAD,
	HF_BUCKET_A_LE,			/* u64, largest value the bucket holds */
	HF_BUCKET_A_COUNT,		/* u64, values in it (not cumulative) */

	__HF_BUCKET_A_MAX,
	HF_BUCKET_A_MAX = __HF_BUCKET_A_MAX - 1
};

/* HF_CMD_PEER_GET: one peer of the caller's namespace (struct hf_info). */
enum hf_peer_attr {
	HF_PEER_A_UNSPEC,
	HF_PEER_A_PAD,
	HF_PEER_A_IFINDEX,		/* u32 */
	HF_PEER_A_ADDR,			/* binary, ETH_ALEN */
	HF_PEER_A_EPOCH,		/* u32, 0 when idle */
	HF_PEER_A_SEG_SIZE,		/* u32, bytes */
	HF_PEER_A_CREDIT,		/* u32, segments */
	HF_PEER_A_INFLIGHT,		/* u32, segments */
	HF_PEER_A_SRTT_US,		/* u32 */
	HF_PEER_A_RTTVAR_US,		/* u32 */
	HF_PEER_A_MIN_RTT_US,		/* u32 */
	HF_PEER_A_RTO_US,		/* u32 */
	HF_PEER_A_BACKOFF,		/* u32 */
	HF_PEER_A_RETRIES,		/* u32 */
	HF_PEER_A_TX_QUEUED_MSGS,	/* u32 */
	HF_PEER_A_TX_SEGS,		/* u64 */
	HF_PEER_A_RETRANSMITS,		/* u64 */
	HF_PEER_A_SPURIOUS,		/* u64 */
	HF_PEER_A_RX_SEGS,		/* u64 */
	HF_PEER_A_TX_BYTES,		/* u64, payload bytes of TX_SEGS */
	HF_PEER_A_RX_BYTES,		/* u64, payload bytes of RX_SEGS */
	HF_PEER_A_TX_FRAMES,		/* u64, hyperframes sent */
	HF_PEER_A_TX_MSGS,		/* u64, messages queued to the peer */
	HF_PEER_A_TX_MSGS_DELIVERED,	/* u64, of those, confirmed */
	HF_PEER_A_TX_MSGS_FAILED,	/* u64, of those, failed */
	HF_PEER_A_RX_MSGS,		/* u64, messages delivered to sockets */
	HF_PEER_A_FRAME_SEGS,		/* u32, segments per hyperframe now */
	HF_PEER_A_PACING_RATE,		/* u64, bytes/s the module's pacing_rate
					 * and the peer's rate hint come to
					 * after the frame-size controller's
					 * cut; 0: unpaced
					 */
	HF_PEER_A_CREDIT_BYTES,		/* u64, bytes of credit left */
	HF_PEER_A_CREDIT_STALL_US,	/* u64, time spent waiting for credit */
	HF_PEER_A_RX_CREDIT,		/* u64, bytes granted beyond received */
	HF_PEER_A_RX_UNREAD,		/* u64, bytes received, not read yet */
	HF_PEER_A_RATE_HINT,		/* u64, bytes/s the peer hints; 0: none */
	HF_PEER_A_LINK_SHARE,		/* u64, bytes/s of the device for the
					 * flow; 0: none */

	__HF_PEER_A_MAX,
	HF_PEER_A_MAX = __HF_PEER_A_MAX - 1
};

/* HF_CMD_SOCKET_GET: one bound socket of the caller's namespace. */
enum hf_socket_attr {
	HF_SOCKET_A_UNSPEC,
	HF_SOCKET_A_PAD,
	HF_SOCKET_A_PORT,		/* u32 */
	HF_SOCKET_A_IFINDEX,		/* u32, bound interface; 0: any */
	HF_SOCKET_A_TX_QUEUED,		/* u64, bytes sent, outcome unknown */
	HF_SOCKET_A_RX_QUEUED,		/* u64, bytes of messages to read */
	HF_SOCKET_A_RX_REASSEMBLY,	/* u64, bytes being reassembled */
	HF_SOCKET_A_TX_MSGS,		/* u64, messages sent */
	HF_SOCKET_A_INODE,		/* u64, socket inode, as in ss */
	HF_SOCKET_A_UID,		/* u32, owner in the caller's user ns */
	/*
	 * nested, repeated: a peer the socket last sent to or received from
	 * (at most 8, most recent first), as HF_PEER_A_* attributes; its
	 * HF_PEER_A_PACING_RATE includes this socket's own cap
	 */
	HF_SOCKET_A_PEER,

	__HF_SOCKET_A_MAX,
	HF_SOCKET_A_MAX = __HF_SOCKET_A_MAX - 1
};

/*
 * HF_CMD_DEV_GET: the counters of one device of the caller's namespace,
 * as HF_DEV_A_COUNTER nests (name and value, as HF_STATS_A_COUNTER):
 * tx_frames, tx_segs, tx_bytes (payload of first transmissions),
 * tx_retransmits, rx_frames (accepted segments that start a hyperframe;
 * a repair travels alone, so it starts one), rx_segs, rx_bytes (payload)
 * and drops (received frames counted in a drop_* counter of the
 * namespace). A device has counters from its first hyperframe traffic
 * until it is unregistered (or leaves the namespace); they are 64-bit and
 * never reset meanwhile. A namespace keeps counters for a bounded number
 * of devices; the devices beyond share one entry, IFINDEX 0.
 */
enum hf_dev_attr {
	HF_DEV_A_UNSPEC,
	HF_DEV_A_PAD,
	HF_DEV_A_IFINDEX,		/* u32; 0: the devices without an entry */
	HF_DEV_A_COUNTER,		/* nest of HF_COUNTER_A_*, repeated */

	__HF_DEV_A_MAX,
	HF_DEV_A_MAX = __HF_DEV_A_MAX - 1
};

/*
 * HF_CMD_QDISC_*: hfq, the qdisc the module registers (docs/design.md,
 * "The hfq qdisc"). Attach it with "tc qdisc replace dev DEV root hfq" or
 * "hfctl qdisc attach dev DEV"; its settings are read and written here,
 * per device of the caller's namespace, or with tc and the q_hfq.so
 * plugin (TCA_HFQ_* below): both change the same settings. GET
 * and SET answer ENODEV for an unknown device and ENOENT when the root
 * qdisc of the device is not hfq. SET needs CAP_NET_ADMIN in the user
 * namespace owning the caller's network namespace; a value out of range
 * is refused with the range in the extended ack (RATE: 0, unpaced, or
 * 62500..1250000000000 bytes/s, 500 kbit/s to 10 Tbit/s). A lower limit
 * applies to new packets: what is queued drains.
 */
enum hf_qdisc_attr {
	HF_QDISC_A_UNSPEC,
	HF_QDISC_A_PAD,
	HF_QDISC_A_IFINDEX,		/* u32, the device; required */
	HF_QDISC_A_HANDLE,		/* u32, read-only: the qdisc's handle */
	HF_QDISC_A_RATE,		/* u64, bytes/s the device is paced to; 0: unpaced */
	HF_QDISC_A_LIMIT,		/* u32, packets queued in all bands */
	HF_QDISC_A_FLOW_LIMIT,		/* u32, packets queued per data flow */
	HF_QDISC_A_CONTROL_LIMIT,	/* u32, packets queued in the control band */
	HF_QDISC_A_QUANTUM,		/* u32, bytes a data flow sends per round */
	HF_QDISC_A_OTHER_SHARE,		/* u32, percent of the link owed to other traffic */
	HF_QDISC_A_HORIZON_MS,		/* u32, departure times further ahead are dropped */
	HF_QDISC_A_FLOWS,		/* u32, read-only: data flows with packets queued */
	HF_QDISC_A_QLEN_CONTROL,	/* u32, read-only: packets queued per band */
	HF_QDISC_A_QLEN_DATA,		/* u32, read-only */
	HF_QDISC_A_QLEN_OTHER,		/* u32, read-only */
	HF_QDISC_A_BACKLOG,		/* u32, read-only: bytes queued */
	HF_QDISC_A_COUNTER,		/* read-only, repeated: nest of HF_COUNTER_A_* */
	HF_QDISC_A_MEMORY_LIMIT,	/* u32, bytes (skb truesize) queued in all bands */
	HF_QDISC_A_MEMORY,		/* u32, read-only: truesize of what is queued */

	__HF_QDISC_A_MAX,
	HF_QDISC_A_MAX = __HF_QDISC_A_MAX - 1
};

/*
 * enum hf_tca_hfq_attr - hfq's settings in the TCA_OPTIONS of a tc request
 * ("tc qdisc add|change|replace dev DEV root hfq rate 10gbit ...", sent
 * by the q_hfq.so plugin of hyperframe-tools) and of a qdisc dump ("tc -d
 * qdisc show"). Each is the HF_QDISC_A_* setting of the same name, with
 * the same range and errors; a request sets those it gives, the others
 * keep their values (their defaults on a new qdisc); a dump gives all.
 */
enum hf_tca_hfq_attr {
	TCA_HFQ_UNSPEC,
	TCA_HFQ_PAD,
	TCA_HFQ_RATE,			/* u64, bytes/s the device is paced to; 0: unpaced */
	TCA_HFQ_LIMIT,			/* u32, packets queued in all bands */
	TCA_HFQ_FLOW_LIMIT,		/* u32, packets queued per data flow */
	TCA_HFQ_CONTROL_LIMIT,		/* u32, packets queued in the control band */
	TCA_HFQ_QUANTUM,		/* u32, bytes a data flow sends per round */
	TCA_HFQ_OTHER_SHARE,		/* u32, percent of the link owed to other traffic */
	TCA_HFQ_HORIZON_MS,		/* u32, departure times further ahead are dropped */
	TCA_HFQ_MEMORY_LIMIT,		/* u32, bytes (skb truesize) queued in all bands */

	__TCA_HFQ_MAX,
	TCA_HFQ_MAX = __TCA_HFQ_MAX - 1
};

/*
 * HF_CMD_EVENT: what happened to the peers and flows of a namespace, sent
 * to the listeners of the multicast group HF_GENL_MCGRP_EVENTS in that
 * namespace (join it with NETLINK_ADD_MEMBERSHIP, which needs
 * CAP_NET_ADMIN over the namespace: EPERM otherwise). Each
 * message is one event: HF_EVENT_A_TYPE, the peer (IFINDEX and ADDR,
 * always), and the attributes its type lists. Events are sent after the
 * state change they report, from atomic context; one that cannot be
 * allocated is lost and counted (events_dropped in the namespace's
 * counters), and a listener whose receive buffer overflows gets ENOBUFS
 * from recv(), as with any netlink multicast. The events of one peer
 * arrive in the order they happened, a peer's PEER_DOWN before the
 * PEER_UP of a new state for the same address.
 */
enum hf_event_attr {
	HF_EVENT_A_UNSPEC,
	HF_EVENT_A_TYPE,		/* u32, enum hf_event_type */
	HF_EVENT_A_IFINDEX,		/* u32, the peer's interface */
	HF_EVENT_A_ADDR,		/* binary, ETH_ALEN: the peer's address */
	HF_EVENT_A_ERRNO,		/* u32, positive errno the messages failed with */
	HF_EVENT_A_EPOCH,		/* u32, a sender epoch (wire-format.md) */
	HF_EVENT_A_MSGS,		/* u32, messages the event failed */
	HF_EVENT_A_REASON,		/* u32, enum hf_event_reason */
	HF_EVENT_A_SIGN,		/* u32, enum hf_event_sign */
	HF_EVENT_A_RATE_SCALE,		/* u32, pacing rate kept, in
					 * 1/HF_RATE_SCALE_ONE
					 */
	HF_EVENT_A_FRAME_SEGS,		/* u32, hyperframe size, segments */

	__HF_EVENT_A_MAX,
	HF_EVENT_A_MAX = __HF_EVENT_A_MAX - 1
};

/**
 * enum hf_event_type - HF_EVENT_A_TYPE
 * @HF_EVENT_UNSPEC: never sent
 * @HF_EVENT_PEER_UP: the namespace created state for a peer: its first
 *		      message was sent to it, or its first DATA segment arrived
 * @HF_EVENT_PEER_DOWN: the peer's state was removed; REASON says why.
 *			Messages still queued to it failed: MSGS of them, with
 *			ERRNO (ENETDOWN), both present only when MSGS > 0
 * @HF_EVENT_RETRY_LIMIT: the sender gave up on a silent peer after
 *			  retry_limit timeouts in a row: MSGS messages failed
 *			  with ERRNO (EHOSTUNREACH); EPOCH is the flow given
 *			  up, the next message starts a new one
 * @HF_EVENT_FLOW_RESET: the receiver lost its state for the flow EPOCH:
 *			 the MSGS messages started in it failed with ERRNO
 *			 (ECONNRESET, outcome unknown); the rest go out in a
 *			 new epoch (an HF_EVENT_EPOCH follows)
 * @HF_EVENT_EPOCH: a new outgoing flow incarnation, EPOCH, started: the
 *		    first message to the peer, the first after an idle
 *		    flow_reset_ms, a retry limit or a flow reset
 * @HF_EVENT_BACKOFF: the sender backed off the flow EPOCH on a congestion
 *		      SIGN: a whole rate is cut (RATE_SCALE / HF_RATE_SCALE_ONE
 *		      of the socket's pacing rate is kept), a cut one leaves the
 *		      hyperframes halved (FRAME_SEGS), the smallest frame
 *		      the rate cut further; both give the state after. One
 *		      per congestion episode: signs about data sent before
 *		      the last back-off make none.
 */
enum hf_event_type {
	HF_EVENT_UNSPEC,
	HF_EVENT_PEER_UP,
	HF_EVENT_PEER_DOWN,
	HF_EVENT_RETRY_LIMIT,
	HF_EVENT_FLOW_RESET,
	HF_EVENT_EPOCH,
	HF_EVENT_BACKOFF,

	__HF_EVENT_MAX,
	HF_EVENT_MAX = __HF_EVENT_MAX - 1
};

/**
 * enum hf_event_reason - HF_EVENT_A_REASON: why a peer went down
 * @HF_EVENT_REASON_UNSPEC: never sent
 * @HF_EVENT_REASON_IDLE: reclaimed after peer_idle_ms of silence with
 *			  nothing in flight
 * @HF_EVENT_REASON_DEVICE: its interface went down, went away or left
 *			    the namespace
 * @HF_EVENT_REASON_NETNS: the namespace is being deleted
 * @HF_EVENT_REASON_EVICTED: the peer table was full and this peer, one
 *			     that never answered or had nothing in flight,
 *			     made room for a new one (its messages fail
 *			     with EHOSTUNREACH)
 */
enum hf_event_reason {
	HF_EVENT_REASON_UNSPEC,
	HF_EVENT_REASON_IDLE,
	HF_EVENT_REASON_DEVICE,
	HF_EVENT_REASON_NETNS,
	HF_EVENT_REASON_EVICTED,

	__HF_EVENT_REASON_MAX,
	HF_EVENT_REASON_MAX = __HF_EVENT_REASON_MAX - 1
};

/* HF_EVENT_A_RATE_SCALE of the whole, uncut pacing rate. */
#define HF_RATE_SCALE_ONE	1024

/**
 * enum hf_event_sign - HF_EVENT_A_SIGN: the congestion sign a sender
 * backed off on
 * @HF_EVENT_SIGN_UNSPEC: never sent
 * @HF_EVENT_SIGN_LOSS: a segment was found lost (reordering window or
 *			retransmission timeout)
 * @HF_EVENT_SIGN_DELAY: a round trip rose above the least by
 *			 frame_delay_pct
 * @HF_EVENT_SIGN_NOTICE: the receiver sent a congestion notice (reserved:
 *			  no receiver sends one yet)
 */
enum hf_event_sign {
	HF_EVENT_SIGN_UNSPEC,
	HF_EVENT_SIGN_LOSS,
	HF_EVENT_SIGN_DELAY,
	HF_EVENT_SIGN_NOTICE,

	__HF_EVENT_SIGN_MAX,
	HF_EVENT_SIGN_MAX = __HF_EVENT_SIGN_MAX - 1
};

/**
 * struct tc_hfq_xstats - hfq's own counters, in the qdisc's extended
 *	statistics (TCA_STATS_APP); HF_CMD_QDISC_GET gives the same counters
 *	by name. Fields are only ever added at the end.
 * @packets_control: packets sent from the control band
 * @packets_data: packets sent from the hyperframe data band
 * @packets_other: packets sent from the band of other traffic
 *	(wire packets: a train of segments, or any GSO skb, counts each
 *	segment, as the qdisc's standard packet count does)
 * @drop_limit: dropped: the qdisc held its limit of packets
 * @drop_flow_limit: dropped: the data flow held its limit
 * @drop_control_limit: dropped: the control band held its limit
 * @drop_horizon: dropped: departure time beyond the horizon
 * @flow_alloc_failed: flows that shared the fallback queue for want of memory
 * @throttled: times a data flow waited for its head's departure time
 * @rate_delayed: times the device rate held a packet back
 * @drop_memory_limit: dropped: the qdisc held its memory_limit of bytes
 *	(truesize); at either limit the longest queue loses its oldest
 *	packet, unless the packet's own queue is the longest (both drops
 *	counted here and in @drop_limit)
 * @control_foreign: frames of the hyperframe EtherType and a type other
 *	than DATA that this host's transport did not send (forwarded,
 *	bridged, from a packet socket of another namespace or below
 *	TC_PRIO_CONTROL), queued as data of a flow of their own instead of
 *	in the control band
 * @control_over_share: times the control band, its share of the link
 *	used up, let another band's packet go first
 */
struct tc_hfq_xstats {
	__u64	packets_control;
	__u64	packets_data;
	__u64	packets_other;
	__u64	drop_limit;
	__u64	drop_flow_limit;
	__u64	drop_control_limit;
	__u64	drop_horizon;
	__u64	flow_alloc_failed;
	__u64	throttled;
	__u64	rate_delayed;
	__u64	drop_memory_limit;
	__u64	control_foreign;
	__u64	control_over_share;
};

#endif /* _UAPI_LINUX_HYPERFRAME_H */
