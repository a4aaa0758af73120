// SPDX-License-Identifier: GPL-2.0
/*
 * bpf/hf_probe.bpf.c - the programs of "hfctl probe": they count the skbs a
 * device transmits and receives, the wire packets those make, and the depth
 * of its qdiscs, into per-CPU log2 histograms (map "stats"), for any
 * traffic and without the hyperframe module.
 *
 * Attached as BTF-typed tracepoints (tp_btf), which hand the programs the
 * kernel's own pointers: every field is read through CO-RE relocations
 * against the running kernel's BTF, so one object works on 6.1 and 6.12.
 *
 *   net:net_dev_start_xmit  transmit: the skb as the driver gets it
 *                           (net_dev_xmit fires after the driver may have
 *                           freed it, so it is not read there)
 *   net:netif_receive_skb   receive: the skb as the stack takes it, after
 *                           GRO, the link-layer header already pulled
 *   qdisc:qdisc_enqueue     backlog and queue length of the device's qdisc
 *                           after each enqueue: the depth packets arrive to
 *   qdisc:qdisc_dequeue     the same after each dequeue (the qdisc programs
 *                           are loaded only where the kernel has them)
 *
 * Both qdisc programs also keep a time series (stats.series): the deepest
 * the queue was in each interval of cfg_interval_ns since start_ns, which
 * the loader sets once everything is attached.
 *
 * The filter (.rodata, set by the loader): the device (ifindex and network
 * namespace, as indexes repeat across namespaces), and optionally an
 * EtherType, or an IP protocol, source and destination address, source
 * and destination port and a port in either direction. The queue is the
 * device's, shared by all its traffic: the filter does not apply to it.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "hf_log2.bpf.h"
#include "hf_probe.h"

_Static_assert(HF_PROBE_BUCKETS == HF_LOG2_BUCKETS, "histograms as hf_log2.bpf.h makes them");

#define HF_ETH_P_IP 0x0800
#define HF_ETH_P_IPV6 0x86DD
#define HF_IPPROTO_TCP 6
#define HF_IPPROTO_UDP 17
#define HF_MAC_UNSET 0xffff

const volatile __u32 cfg_ifindex;
const volatile __u32 cfg_netns;      /* inode of the namespace */
const volatile __u16 cfg_ethertype;  /* host order; 0: any */
const volatile __u8 cfg_ipproto;     /* 0: any */
const volatile __u16 cfg_port;       /* host order, either direction; 0: any */
const volatile __u16 cfg_sport;      /* host order; 0: any */
const volatile __u16 cfg_dport;      /* host order; 0: any */
const volatile __u8 cfg_addr_len;    /* of cfg_src and cfg_dst: 4, 16; 0: any */
const volatile bool cfg_has_src;
const volatile bool cfg_has_dst;
const volatile __u32 cfg_src[4];     /* network order, IPv4 in [0] */
const volatile __u32 cfg_dst[4];
const volatile __u64 cfg_interval_ns; /* of stats.series */
const volatile __u32 cfg_slots;      /* intervals in the duration */

/* CLOCK_MONOTONIC when the probe started, by the loader; 0: not yet. */
__u64 start_ns;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hf_probe_stats);
} stats SEC(".maps");

/* What the headers of one skb say. */
struct hf_pkt {
	__u32 len;     /* skb length, link-layer header included */
	__u32 hdrlen;  /* headers a GSO segment repeats (L2 + L3 + L4) */
	__u32 segs;    /* wire packets */
	__u32 seg_size;/* payload of each full segment (gso_size), 0: not GSO */
};

static __always_inline bool dev_match(const struct net_device *dev)
{
	if (!dev || BPF_CORE_READ(dev, ifindex) != (int)cfg_ifindex)
		return false;
	return BPF_CORE_READ(dev, nd_net.net, ns.inum) == cfg_netns;
}

/* Whether the first `words` words of got are want's. */
static __always_inline bool addr_eq(const __u32 *got, const volatile __u32 *want, __u32 words)
{
	for (int i = 0; i < 4; i++)
		if (i < words && got[i] != want[i])
			return false;
	return true;
}

/*
 * Reads the L3/L4 headers at head + l3off: applies the filter, and sets
 * pkt->hdrlen to the headers up to the end of TCP's or UDP's. Returns
 * whether the skb matches.
 */
static __always_inline bool parse(const struct sk_buff *skb, __u32 l3off, __u32 l2len,
				  struct hf_pkt *pkt)
{
	unsigned char *head = BPF_CORE_READ(skb, head);
	__u16 proto = bpf_ntohs(BPF_CORE_READ(skb, protocol));
	bool want_ip = cfg_ipproto || cfg_addr_len;
	__u8 ipproto = 0, b = 0;
	__u32 l4off = 0, words;
	__u32 addr[8] = {};	/* source in [0..3], destination in [4..7] */
	__be16 ports[2] = {};

	pkt->hdrlen = l2len;
	if (cfg_ethertype && proto != cfg_ethertype)
		return false;
	if (proto == HF_ETH_P_IP) {
		if (bpf_probe_read_kernel(&b, 1, head + l3off) ||
		    bpf_probe_read_kernel(&ipproto, 1, head + l3off + 9))
			return !want_ip;
		l4off = (b & 0xf) * 4;
		words = 1;
		if (cfg_addr_len &&
		    (bpf_probe_read_kernel(&addr[0], 4, head + l3off + 12) ||
		     bpf_probe_read_kernel(&addr[4], 4, head + l3off + 16)))
			return false;
	} else if (proto == HF_ETH_P_IPV6) {
		if (bpf_probe_read_kernel(&ipproto, 1, head + l3off + 6))
			return !want_ip;
		l4off = 40;
		words = 4;
		if (cfg_addr_len && bpf_probe_read_kernel(addr, sizeof(addr), head + l3off + 8))
			return false;
	} else {
		return !want_ip;
	}
	if (cfg_ipproto && ipproto != cfg_ipproto)
		return false;
	if (cfg_addr_len && cfg_addr_len != words * 4)
		return false;
	if (cfg_has_src && !addr_eq(&addr[0], cfg_src, words))
		return false;
	if (cfg_has_dst && !addr_eq(&addr[4], cfg_dst, words))
		return false;
	if (ipproto == HF_IPPROTO_TCP) {
		if (!bpf_probe_read_kernel(&b, 1, head + l3off + l4off + 12))
			pkt->hdrlen = l2len + l4off + (b >> 4) * 4;
	} else if (ipproto == HF_IPPROTO_UDP) {
		pkt->hdrlen = l2len + l4off + 8;
	}
	if (!cfg_port && !cfg_sport && !cfg_dport)
		return true;
	if (ipproto != HF_IPPROTO_TCP && ipproto != HF_IPPROTO_UDP)
		return false;
	if (bpf_probe_read_kernel(ports, sizeof(ports), head + l3off + l4off))
		return false;
	if (cfg_sport && ports[0] != bpf_htons(cfg_sport))
		return false;
	if (cfg_dport && ports[1] != bpf_htons(cfg_dport))
		return false;
	return !cfg_port || ports[0] == bpf_htons(cfg_port) || ports[1] == bpf_htons(cfg_port);
}

/* Segments of the skb from its shared info (gso_segs, else computed). */
static __always_inline void gso(const struct sk_buff *skb, struct hf_pkt *pkt)
{
	struct skb_shared_info *shinfo;
	__u32 size, segs;

	shinfo = (struct skb_shared_info *)(BPF_CORE_READ(skb, head) + BPF_CORE_READ(skb, end));
	size = BPF_CORE_READ(shinfo, gso_size);
	segs = BPF_CORE_READ(shinfo, gso_segs);
	pkt->segs = 1;
	pkt->seg_size = 0;
	if (!size || pkt->len <= pkt->hdrlen + size)
		return;
	if (!segs)
		segs = (pkt->len - pkt->hdrlen + size - 1) / size;
	if (segs > 1) {
		pkt->segs = segs;
		pkt->seg_size = size;
	}
}

static __always_inline void account(__u32 dir, const struct hf_pkt *pkt)
{
	__u32 zero = 0;
	struct hf_probe_stats *s = bpf_map_lookup_elem(&stats, &zero);
	struct hf_probe_dir *d;
	__u64 full, last;

	if (!s || dir >= HF_PROBE_DIRS)
		return;
	d = &s->dir[dir];
	d->skbs++;
	d->bytes += pkt->len;
	if (pkt->len > d->max_skb)
		d->max_skb = pkt->len;
	hf_hist_add(d->skb_hist, pkt->len, 1);
	d->packets += pkt->segs;
	if (pkt->segs == 1) {
		d->wire_bytes += pkt->len;
		hf_hist_add(d->packet_hist, pkt->len, 1);
		return;
	}
	/* segs - 1 full segments, then what is left, each with the headers */
	d->gso_skbs++;
	full = pkt->seg_size + pkt->hdrlen;
	last = pkt->len - (__u64)(pkt->segs - 1) * pkt->seg_size;
	d->wire_bytes += (pkt->segs - 1) * full + last;
	hf_hist_add(d->packet_hist, full, pkt->segs - 1);
	hf_hist_add(d->packet_hist, last, 1);
}

SEC("tp_btf/net_dev_start_xmit")
int BPF_PROG(hf_probe_tx, const struct sk_buff *skb, const struct net_device *dev)
{
	struct hf_pkt pkt = {};
	__u16 mac, net;

	if (!dev_match(dev))
		return 0;
	mac = BPF_CORE_READ(skb, mac_header);
	net = BPF_CORE_READ(skb, network_header);
	pkt.len = BPF_CORE_READ(skb, len);
	if (!parse(skb, net, mac != HF_MAC_UNSET && net > mac ? net - mac : 0, &pkt))
		return 0;
	gso(skb, &pkt);
	account(HF_PROBE_TX, &pkt);
	return 0;
}

SEC("tp_btf/netif_receive_skb")
int BPF_PROG(hf_probe_rx, struct sk_buff *skb)
{
	struct hf_pkt pkt = {};
	__u32 l3off, l2len = 0;
	__u16 mac;

	if (!dev_match(BPF_CORE_READ(skb, dev)))
		return 0;
	/* The link-layer header is pulled: data is at the network header. */
	l3off = BPF_CORE_READ(skb, data) - BPF_CORE_READ(skb, head);
	mac = BPF_CORE_READ(skb, mac_header);
	if (mac != HF_MAC_UNSET && l3off > mac && l3off - mac <= 64)
		l2len = l3off - mac;
	pkt.len = BPF_CORE_READ(skb, len) + l2len;
	if (!parse(skb, l3off, l2len, &pkt))
		return 0;
	gso(skb, &pkt);
	account(HF_PROBE_RX, &pkt);
	return 0;
}

/*
 * The depth of qdisc right after a packet joined or left it (packet) or a
 * dequeue found nothing to send (!packet: the time series only).
 */
static __always_inline void queue_sample(const struct Qdisc *qdisc, __u32 side, bool packet)
{
	struct hf_probe_stats *s;
	struct hf_probe_queue *q;
	struct hf_probe_slot *slot;
	__u64 backlog, qlen, start, now, i;
	__u32 zero = 0;

	s = bpf_map_lookup_elem(&stats, &zero);
	if (!s || side >= HF_PROBE_QUEUES)
		return;
	backlog = BPF_CORE_READ(qdisc, qstats.backlog);
	qlen = BPF_CORE_READ(qdisc, q.qlen);
	if (packet) {
		q = &s->queue[side];
		q->samples++;
		if (backlog > q->max_backlog)
			q->max_backlog = backlog;
		if (qlen > q->max_qlen)
			q->max_qlen = qlen;
		hf_hist_add(q->backlog_hist, backlog, 1);
		hf_hist_add(q->qlen_hist, qlen, 1);
	}

	start = start_ns;
	now = bpf_ktime_get_ns();
	if (!start || now < start || !cfg_interval_ns || !cfg_slots)
		return;
	i = (now - start) / cfg_interval_ns;
	/* The last interval also takes what comes before the detach. */
	if (i >= cfg_slots)
		i = cfg_slots - 1;
	if (i >= HF_PROBE_SLOTS)
		return;
	slot = &s->series[i];
	slot->samples++;
	if (backlog > slot->max_backlog)
		slot->max_backlog = backlog;
	if (qlen > slot->max_qlen)
		slot->max_qlen = qlen;
}

SEC("tp_btf/qdisc_enqueue")
int BPF_PROG(hf_probe_enqueue, struct Qdisc *qdisc, const struct netdev_queue *txq,
	     struct sk_buff *skb)
{
	if (dev_match(BPF_CORE_READ(qdisc, dev_queue, dev)))
		queue_sample(qdisc, HF_PROBE_ENQUEUE, true);
	return 0;
}

SEC("tp_btf/qdisc_dequeue")
int BPF_PROG(hf_probe_qdisc, struct Qdisc *qdisc, const struct netdev_queue *txq, int packets,
	     struct sk_buff *skb)
{
	if (dev_match(BPF_CORE_READ(qdisc, dev_queue, dev)))
		queue_sample(qdisc, HF_PROBE_DEQUEUE, skb);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
