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
 *   qdisc:qdisc_dequeue     backlog and queue length of the device's qdisc
 *                           after each dequeue (loaded only where the
 *                           kernel has it)
 *
 * The filter (.rodata, set by the loader): the device (ifindex and network
 * namespace, as indexes repeat across namespaces), and optionally an
 * EtherType, an IP protocol and a port (source or destination).
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
const volatile __u16 cfg_port;       /* host order; 0: any */

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
	__u8 ipproto = 0, b = 0;
	__u32 l4off = 0;
	__be16 ports[2] = {};

	pkt->hdrlen = l2len;
	if (cfg_ethertype && proto != cfg_ethertype)
		return false;
	if (proto == HF_ETH_P_IP) {
		if (bpf_probe_read_kernel(&b, 1, head + l3off) ||
		    bpf_probe_read_kernel(&ipproto, 1, head + l3off + 9))
			return !cfg_ipproto;
		l4off = (b & 0xf) * 4;
	} else if (proto == HF_ETH_P_IPV6) {
		if (bpf_probe_read_kernel(&ipproto, 1, head + l3off + 6))
			return !cfg_ipproto;
		l4off = 40;
	} else {
		return !cfg_ipproto;
	}
	if (cfg_ipproto && ipproto != cfg_ipproto)
		return false;
	if (ipproto == HF_IPPROTO_TCP) {
		if (!bpf_probe_read_kernel(&b, 1, head + l3off + l4off + 12))
			pkt->hdrlen = l2len + l4off + (b >> 4) * 4;
	} else if (ipproto == HF_IPPROTO_UDP) {
		pkt->hdrlen = l2len + l4off + 8;
	}
	if (!cfg_port)
		return true;
	if (ipproto != HF_IPPROTO_TCP && ipproto != HF_IPPROTO_UDP)
		return false;
	if (bpf_probe_read_kernel(ports, sizeof(ports), head + l3off + l4off))
		return false;
	return ports[0] == bpf_htons(cfg_port) || ports[1] == bpf_htons(cfg_port);
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

SEC("tp_btf/qdisc_dequeue")
int BPF_PROG(hf_probe_qdisc, struct Qdisc *qdisc, const struct netdev_queue *txq, int packets,
	     struct sk_buff *skb)
{
	struct hf_probe_stats *s;
	__u32 zero = 0;
	__u64 backlog, qlen;

	if (!skb || !dev_match(BPF_CORE_READ(qdisc, dev_queue, dev)))
		return 0;
	s = bpf_map_lookup_elem(&stats, &zero);
	if (!s)
		return 0;
	backlog = BPF_CORE_READ(qdisc, qstats.backlog);
	qlen = BPF_CORE_READ(qdisc, q.qlen);
	s->queue.samples++;
	if (backlog > s->queue.max_backlog)
		s->queue.max_backlog = backlog;
	if (qlen > s->queue.max_qlen)
		s->queue.max_qlen = qlen;
	hf_hist_add(s->queue.backlog_hist, backlog, 1);
	hf_hist_add(s->queue.qlen_hist, qlen, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
