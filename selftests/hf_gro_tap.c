// SPDX-License-Identifier: GPL-2.0
/*
 * hf_gro_tap.c - a hyperframe peer behind a tap device, for the GRO
 * selftests (hf_gro.sh). It opens a tap with IFF_NAPI and a virtio-net
 * header, so that every frame it writes goes through the tap's NAPI
 * instance and GRO as a NIC's would, and sends one hyperframe flow
 * through it: messages in hf_xfer's pattern (hf_xfer recv checks them),
 * cut into hyperframes of several consecutive segments, which GRO may put
 * back together into trains. Its frames are built with the module's wire
 * encoder (kernel/core/hf_wire.c).
 *
 *   hf_gro_tap --ifname NAME --port P --sizes LIST [--repeat N]
 *		[--dst MAC] [--src MAC] [--vlan VID [--qinq]] [--frags] [--partial]
 *		[--bad N] [--observe] [--seg BYTES] [--frame-segs N]
 *
 *   --dst	the receiver's address; the tap's own by default (the module
 *		in the tap's namespace receives)
 *   --vlan	every DATA frame carries an 802.1Q tag with this VID (0: a
 *		priority tag, which the stack takes off and delivers on the
 *		tap itself)
 *   --qinq	and an 802.1ad tag (VID 0) outside it
 *   --frags	the virtio-net header's hdr_len is 14: only the Ethernet
 *		header is in the skb's linear area, everything after it in
 *		page frags (as napi_gro_frags drivers and many NICs deliver);
 *		without it hdr_len is the whole frame, which tun copies into
 *		the linear area
 *   --partial	the frames ask for their checksum to be filled in
 *		(VIRTIO_NET_HDR_F_NEEDS_CSUM, the field left 0), as a local
 *		sender's do: they arrive CHECKSUM_PARTIAL
 *   --bad N	every Nth segment (by sequence number) goes out first with a
 *		checksum that does not verify, and again, correct and marked
 *		RETRANSMIT, after the rest of its message
 *   --observe	an AF_PACKET socket with PACKET_AUXDATA on the tap sees each
 *		skb the stack delivers, a GRO train as one: it walks the
 *		segments in each, verifies their checksums and reads the
 *		stack's mark (TP_STATUS_CSUM_VALID: CHECKSUM_UNNECESSARY, or
 *		the checksum found valid; TP_STATUS_CSUMNOTREADY: PARTIAL)
 *
 * The tap is created down. The program prints "ready NAME MAC" and waits
 * for a line on standard input (the caller brings the tap up, sets its
 * gro_flush_timeout, adds it to a bridge, starts the receiver), binds
 * the observer, sends,
 * prints what it sent and saw as "key value" lines, then waits for end of
 * file on standard input before it closes the tap: the caller's receiver
 * takes the messages meanwhile.
 *
 * Merging needs segments that reach GRO while the one before is still
 * held: tun schedules its NAPI instance for every frame written, and GRO
 * sends up what it holds when the poll completes unless the device's
 * gro_flush_timeout is set, in which case it keeps what came in the
 * current jiffy. The sender waits for ACKs before it goes past the credit
 * the receiver granted. Exit status: 0; 1 on a system error; 2 on bad
 * usage.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/if_packet.h>
#include <linux/if_tun.h>
#include <linux/virtio_net.h>
#include <net/ethernet.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "hf_util.h"
#include "../kernel/core/hf_wire.h"

#define ETH_HDR		14
#define VLAN_HDR	4
#define FRAME_MAX	(sizeof(struct virtio_net_hdr) + ETH_HDR + 2 * VLAN_HDR + 9216)
#define OBS_BUF		(1U << 20)
#define MAX_SIZES	64
#define GRO_SPORT	4343
/* The module's default unscheduled window (core/hf_credit.h). */
#define CREDIT_INITIAL	(64U << 10)

static struct {
	int tap;
	int obs;		/* the observer's socket, -1 for none */
	bool observe;
	char ifname[IFNAMSIZ];
	int ifindex;
	u8 own[6];		/* the tap's address */
	u8 src[6];		/* ours, as the peer */
	u8 dst[6];
	bool have_dst;
	u16 ethertype;
	int vlan;		/* -1: untagged */
	bool qinq;		/* an 802.1ad tag (VID 0) outside it */
	bool frags;
	bool partial;
	u32 bad;
	u16 seg;
	u16 frame_segs;
	u16 port;
	u32 epoch;
	u32 echo;		/* the receiver's rx_state, once an ACK gave it */
	u32 seq;
	u32 msg_id;
	u64 credit_sent;	/* new payload bytes sent */
	u32 credit_limit;	/* low 32 bits of the largest grant */
	unsigned long frames, segs, bad_sent, resent, acks, credit_waits;
	unsigned long credit_timeouts;
} g = {
	.tap = -1,
	.obs = -1,
	.vlan = -1,
	.seg = 1400,
	.frame_segs = 8,
	.ethertype = 0x88b5,
};

/* What the observer saw: skbs of the EtherType delivered on the tap. */
static struct {
	unsigned long skbs, segs, trains, train_segs, max_train;
	unsigned long valid_skbs, valid_trains, notready_skbs, notready_trains;
	unsigned long bad_segs, bad_in_valid, bad_in_trains, unparsed;
	unsigned long truncated, short_skbs;
} obs;

static void die(const char *what)
{
	fprintf(stderr, "hf_gro_tap: %s: %s\n", what, strerror(errno));
	exit(1);
}

static unsigned char pattern(size_t i, size_t len)
{
	return (unsigned char)(i * 131 + len * 7 + i / 4099);
}

static void put16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static u16 get16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static u16 ethertype_param(void)
{
	unsigned int v;
	FILE *f;

	f = fopen("/sys/module/hyperframe/parameters/ethertype", "r");
	if (!f)
		return 0x88b5;
	if (fscanf(f, "%i", &v) != 1)
		v = 0x88b5;
	fclose(f);
	return (u16)v;
}

static void tap_open(void)
{
	struct ifreq ifr = { 0 };

	g.tap = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
	if (g.tap < 0)
		die("open /dev/net/tun");
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI | IFF_NAPI | IFF_VNET_HDR;
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", g.ifname);
	if (ioctl(g.tap, TUNSETIFF, &ifr))
		die("TUNSETIFF (IFF_TAP | IFF_NAPI | IFF_VNET_HDR)");
	snprintf(g.ifname, sizeof(g.ifname), "%s", ifr.ifr_name);
	/* The tap's own fd answers for its address. */
	if (ioctl(g.tap, SIOCGIFHWADDR, &ifr))
		die("SIOCGIFHWADDR");
	memcpy(g.own, ifr.ifr_hwaddr.sa_data, 6);
	g.ifindex = if_nametoindex(g.ifname);
	if (!g.ifindex)
		die("if_nametoindex");
	if (!g.have_dst)
		memcpy(g.dst, g.own, 6);
}

static void obs_open(void)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
		.sll_ifindex = g.ifindex,
	};
	int one = 1, size = 64 << 20;

	g.obs = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL));
	if (g.obs < 0)
		die("socket(AF_PACKET)");
	if (setsockopt(g.obs, SOL_PACKET, PACKET_AUXDATA, &one, sizeof(one)))
		die("PACKET_AUXDATA");
	if (setsockopt(g.obs, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		die("SO_RCVBUFFORCE");
	if (bind(g.obs, (struct sockaddr *)&sll, sizeof(sll)))
		die("bind(AF_PACKET)");
}

/* Take in what the module sent back (its ACKs carry credit). */
static void tap_drain(int timeout_ms)
{
	u8 buf[FRAME_MAX];
	struct pollfd pfd = { .fd = g.tap, .events = POLLIN };

	while (poll(&pfd, 1, timeout_ms) > 0) {
		const size_t vh = sizeof(struct virtio_net_hdr);
		struct hf_hdr h;
		ssize_t n;

		timeout_ms = 0;
		n = read(g.tap, buf, sizeof(buf));
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			die("read tap");
		}
		if ((size_t)n < vh + ETH_HDR ||
		    memcmp(buf + vh, g.src, 6) ||
		    buf[vh + 12] != g.ethertype >> 8 ||
		    buf[vh + 13] != (g.ethertype & 0xff))
			continue;
		if (hf_hdr_decode(buf + vh + ETH_HDR, n - vh - ETH_HDR, &h) ||
		    h.type != HF_TYPE_ACK || h.ack.epoch != g.epoch)
			continue;
		g.acks++;
		/*
		 * Echoed from now on, as a sender does (wire v5); a CHALLENGE
		 * carries the cookie to echo, a LOST answer nothing.
		 */
		if (!(h.flags & HF_AF_LOST) && h.ack.rx_state)
			g.echo = h.ack.rx_state;
		if ((int32_t)(h.ack.credit - g.credit_limit) > 0)
			g.credit_limit = h.ack.credit;
	}
}

/* Wait until the receiver's credit covers @bytes more (or 30 s pass). */
static void credit_wait(u32 bytes)
{
	double end = hf_now() + 30;

	tap_drain(0);
	if ((int32_t)(g.credit_limit - (u32)(g.credit_sent + bytes)) >= 0)
		return;
	g.credit_waits++;
	while ((int32_t)(g.credit_limit - (u32)(g.credit_sent + bytes)) < 0) {
		if (hf_now() > end) {
			g.credit_timeouts++;
			return;
		}
		tap_drain(50);
	}
}

/*
 * Write one DATA segment: header @h, payload @payload. @bad: with a
 * checksum that does not verify.
 */
static void send_seg(const struct hf_hdr *h, const u8 *payload, bool bad)
{
	u8 buf[FRAME_MAX];
	struct virtio_net_hdr *vh = (struct virtio_net_hdr *)buf;
	u8 *eth = buf + sizeof(*vh), *p = eth;
	size_t flen = HF_DATA_HLEN + h->data.seg_len, len;
	u16 c;

	memset(vh, 0, sizeof(*vh));
	memcpy(p, g.dst, 6);
	memcpy(p + 6, g.src, 6);
	p += 12;
	if (g.qinq) {
		put16(p, ETH_P_8021AD);
		put16(p + 2, 0);
		p += 4;
	}
	if (g.vlan >= 0) {
		put16(p, ETH_P_8021Q);
		put16(p + 2, (u16)g.vlan);
		p += 4;
	}
	put16(p, g.ethertype);
	p += 2;
	if (hf_hdr_encode(h, p, HF_DATA_HLEN) != HF_DATA_HLEN) {
		fprintf(stderr, "hf_gro_tap: encode failed\n");
		exit(1);
	}
	memcpy(p + HF_DATA_HLEN, payload, h->data.seg_len);
	len = (p - eth) + flen;
	if (g.partial) {
		/* Left to a device, as the module's own segments are. */
		vh->flags = VIRTIO_NET_HDR_F_NEEDS_CSUM;
		vh->csum_start = p - eth;
		vh->csum_offset = HF_CSUM_OFFSET;
	} else {
		c = hf_csum_fold(hf_csum_add(0, p, flen));
		if (bad)
			c ^= 0x5a5a;
		put16(p + HF_CSUM_OFFSET, c);
	}
	/* Linear: the whole frame; frags: the Ethernet header only. */
	vh->hdr_len = g.frags ? ETH_HDR : len;
	if (write(g.tap, buf, sizeof(*vh) + len) != (ssize_t)(sizeof(*vh) + len))
		die("write tap");
	g.frames++;
}

/* Send message @len of hf_xfer's pattern, hyperframe by hyperframe. */
static void send_msg(size_t len, u8 *body)
{
	u32 nsegs = len ? (len + g.seg - 1) / g.seg : 1;
	u32 first_seq = g.seq, i, j;
	struct hf_hdr h = {
		.type = HF_TYPE_DATA,
		.sport = GRO_SPORT,
		.dport = g.port,
	};
	size_t k;

	for (k = 0; k < len; k++)
		body[k] = pattern(k, len);
	h.data.msg_id = g.msg_id;
	h.data.msg_len = len;
	h.data.seg_size = g.seg;
	h.data.epoch = g.epoch;
	/* Each message follows the one before: hf_xfer takes them in order. */
	h.data.pred = g.msg_id ? 1 : 0;
	for (i = 0; i < nsegs; i += g.frame_segs) {
		u32 n = nsegs - i < g.frame_segs ? nsegs - i : g.frame_segs;
		u32 bytes = 0;

		for (j = 0; j < n; j++) {
			u32 off = (i + j) * g.seg;

			bytes += len - off < g.seg ? len - off : g.seg;
		}
		credit_wait(bytes);
		for (j = 0; j < n; j++) {
			u32 off = (i + j) * g.seg;
			u32 seq = first_seq + i + j;
			bool bad = g.bad && !g.partial && seq % g.bad == g.bad - 1;

			h.flags = 0;
			if (!j)
				h.flags |= HF_DF_FRAME_START;
			if (j == n - 1)
				h.flags |= HF_DF_FRAME_END | HF_DF_ACK_NOW;
			h.data.seq = seq;
			h.data.offset = off;
			h.data.seg_len = len - off < g.seg ? len - off : g.seg;
			h.data.frame_segs = n;
			h.data.frame_seq = first_seq + i;
			h.data.echo = g.echo;
			send_seg(&h, body + off, bad);
			g.segs++;
			g.bad_sent += bad;
		}
		g.credit_sent += bytes;
	}
	/* The repairs of what went bad, alone, as a sender's would. */
	for (i = 0; g.bad && !g.partial && i < nsegs; i++) {
		u32 seq = first_seq + i, f = i / g.frame_segs * g.frame_segs;
		u32 n = nsegs - f < g.frame_segs ? nsegs - f : g.frame_segs;
		u32 off = i * g.seg;

		if (seq % g.bad != g.bad - 1)
			continue;
		h.flags = HF_DF_RETRANSMIT;
		if (i == f)
			h.flags |= HF_DF_FRAME_START;
		if (i == f + n - 1)
			h.flags |= HF_DF_FRAME_END;
		h.data.seq = seq;
		h.data.offset = off;
		h.data.seg_len = len - off < g.seg ? len - off : g.seg;
		h.data.frame_segs = n;
		h.data.frame_seq = first_seq + f;
		h.data.echo = g.echo;
		send_seg(&h, body + off, false);
		g.resent++;
	}
	g.seq = first_seq + nsegs;
	g.msg_id++;
}

/*
 * One skb the observer caught, its first hyperframe header at @off: walk
 * its segments.
 */
static void obs_skb(const u8 *buf, size_t off, size_t caplen, size_t len,
		    unsigned int status)
{
	bool valid = status & TP_STATUS_CSUM_VALID;
	bool notready = status & TP_STATUS_CSUMNOTREADY;
	unsigned long nsegs = 0, nbad = 0;

	if (caplen < len) {
		obs.truncated++;
		return;
	}
	while (off < len) {
		struct hf_hdr h;
		size_t flen;

		if (hf_hdr_decode(buf + off, len - off, &h) ||
		    h.type != HF_TYPE_DATA) {
			obs.unparsed++;
			return;
		}
		flen = h.hlen + h.data.seg_len;
		nsegs++;
		/* A frame left to a device has its field unfilled: 0. */
		if (!notready && hf_csum_fold(hf_csum_add(0, buf + off, flen)))
			nbad++;
		off += flen;
	}
	obs.skbs++;
	obs.segs += nsegs;
	obs.bad_segs += nbad;
	obs.valid_skbs += valid;
	obs.notready_skbs += notready;
	if (valid)
		obs.bad_in_valid += nbad;
	if (nsegs > 1) {
		obs.trains++;
		obs.train_segs += nsegs;
		obs.valid_trains += valid;
		obs.notready_trains += notready;
		obs.bad_in_trains += nbad;
		if (nsegs > obs.max_train)
			obs.max_train = nsegs;
	}
}

/* Read what the observer caught until it has been quiet for @quiet_ms. */
static void obs_drain(int quiet_ms)
{
	static u8 buf[OBS_BUF];
	struct pollfd pfd = { .fd = g.obs, .events = POLLIN };

	while (poll(&pfd, 1, quiet_ms) > 0) {
		char cbuf[CMSG_SPACE(sizeof(struct tpacket_auxdata))];
		struct sockaddr_ll from;
		struct iovec iov = { buf, sizeof(buf) };
		struct msghdr mh = {
			.msg_name = &from,
			.msg_namelen = sizeof(from),
			.msg_iov = &iov,
			.msg_iovlen = 1,
			.msg_control = cbuf,
			.msg_controllen = sizeof(cbuf),
		};
		struct tpacket_auxdata *aux = NULL;
		struct cmsghdr *cm;
		size_t off = 12;
		ssize_t n;

		n = recvmsg(g.obs, &mh, MSG_TRUNC);
		if (n < 0 && errno == EFAULT) {
			/*
			 * The skb holds less than its length says: a train
			 * whose frag_list was cut under the clone we got.
			 */
			obs.short_skbs++;
			continue;
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("recvmsg(AF_PACKET)");
		}
		if (from.sll_pkttype == PACKET_OUTGOING)
			continue;
		for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm))
			if (cm->cmsg_level == SOL_PACKET &&
			    cm->cmsg_type == PACKET_AUXDATA)
				aux = (struct tpacket_auxdata *)CMSG_DATA(cm);
		if (!aux || n < ETH_HDR || memcmp(buf + 6, g.src, 6))
			continue;
		/*
		 * The stack takes the outer tag off before a packet socket
		 * sees the skb (the auxdata has it); an inner one (--qinq)
		 * is still in the frame.
		 */
		while (off + 6 <= (size_t)n &&
		       (get16(buf + off) == ETH_P_8021Q ||
			get16(buf + off) == ETH_P_8021AD))
			off += VLAN_HDR;
		if (off + 2 > (size_t)n || get16(buf + off) != g.ethertype)
			continue;
		obs_skb(buf, off + 2,
			n < (ssize_t)sizeof(buf) ? (size_t)n : sizeof(buf),
			aux->tp_len, aux->tp_status);
	}
}

static int parse_sizes(char *arg, size_t *sizes)
{
	int n = 0;
	char *tok;

	for (tok = strtok(arg, ","); tok && n < MAX_SIZES; tok = strtok(NULL, ","))
		sizes[n++] = strtoull(tok, NULL, 0);
	return n;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: hf_gro_tap --ifname NAME --port P --sizes LIST [--repeat N]\n"
		"	[--dst MAC] [--src MAC] [--vlan VID [--qinq]] [--frags] [--partial]\n"
		"	[--bad N] [--observe] [--seg BYTES] [--frame-segs N]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ifname", required_argument, NULL, 'i' },
		{ "port", required_argument, NULL, 'p' },
		{ "sizes", required_argument, NULL, 's' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "dst", required_argument, NULL, 'd' },
		{ "src", required_argument, NULL, 'S' },
		{ "vlan", required_argument, NULL, 'v' },
		{ "qinq", no_argument, NULL, 'q' },
		{ "frags", no_argument, NULL, 'f' },
		{ "partial", no_argument, NULL, 'P' },
		{ "bad", required_argument, NULL, 'b' },
		{ "observe", no_argument, NULL, 'o' },
		{ "seg", required_argument, NULL, 'g' },
		{ "frame-segs", required_argument, NULL, 'F' },
		{ NULL, 0, NULL, 0 },
	};
	static const u8 default_src[6] = { 0x02, 0x47, 0x52, 0x4f, 0x00, 0x01 };
	size_t sizes[MAX_SIZES], max = 1;
	int nsizes = 0, repeat = 1, c, r, i;
	char line[64];
	u8 *body;

	memcpy(g.src, default_src, 6);
	g.ethertype = ethertype_param();
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			snprintf(g.ifname, sizeof(g.ifname), "%s", optarg);
			break;
		case 'p':
			g.port = atoi(optarg);
			break;
		case 's':
			nsizes = parse_sizes(optarg, sizes);
			break;
		case 'r':
			repeat = atoi(optarg);
			break;
		case 'd':
			if (hf_parse_mac(optarg, g.dst))
				usage();
			g.have_dst = true;
			break;
		case 'S':
			if (hf_parse_mac(optarg, g.src))
				usage();
			break;
		case 'v':
			g.vlan = atoi(optarg) & 0xfff;
			break;
		case 'q':
			g.qinq = true;
			break;
		case 'f':
			g.frags = true;
			break;
		case 'P':
			g.partial = true;
			break;
		case 'b':
			g.bad = atoi(optarg);
			break;
		case 'o':
			g.observe = true;
			break;
		case 'g':
			g.seg = atoi(optarg);
			break;
		case 'F':
			g.frame_segs = atoi(optarg);
			break;
		default:
			usage();
		}
	}
	if (!g.ifname[0] || !g.port || !nsizes || repeat < 1 ||
	    g.seg < 64 || g.seg > 9000 || !g.frame_segs ||
	    (g.qinq && g.vlan < 0))
		usage();
	for (i = 0; i < nsizes; i++)
		if (sizes[i] > max)
			max = sizes[i];
	body = malloc(max);
	if (!body)
		die("malloc");

	tap_open();
	srand(getpid());
	do {
		g.epoch = (u32)rand();
	} while (!g.epoch);
	g.credit_limit = CREDIT_INITIAL;
	printf("ready %s %02x:%02x:%02x:%02x:%02x:%02x\n", g.ifname, g.own[0],
	       g.own[1], g.own[2], g.own[3], g.own[4], g.own[5]);
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 0;
	/* Bound once the tap is up: on a device down it would see ENETDOWN. */
	if (g.observe)
		obs_open();

	for (r = 0; r < repeat; r++)
		for (i = 0; i < nsizes; i++)
			send_msg(sizes[i], body);
	/* What GRO still holds goes up at its gro_flush_timeout. */
	tap_drain(500);
	if (g.obs >= 0)
		obs_drain(1000);

	printf("frames %lu\nsegs %lu\nbad_sent %lu\nresent %lu\nacks %lu\n"
	       "credit_waits %lu\ncredit_timeouts %lu\n", g.frames, g.segs,
	       g.bad_sent, g.resent, g.acks, g.credit_waits, g.credit_timeouts);
	if (g.obs >= 0)
		printf("obs_skbs %lu\nobs_segs %lu\nobs_trains %lu\n"
		       "obs_train_segs %lu\nobs_max_train %lu\n"
		       "obs_valid_skbs %lu\nobs_valid_trains %lu\n"
		       "obs_notready_skbs %lu\nobs_notready_trains %lu\n"
		       "obs_bad_segs %lu\nobs_bad_in_valid %lu\n"
		       "obs_bad_in_trains %lu\nobs_unparsed %lu\n"
		       "obs_truncated %lu\nobs_short %lu\n", obs.skbs, obs.segs, obs.trains,
		       obs.train_segs, obs.max_train, obs.valid_skbs,
		       obs.valid_trains, obs.notready_skbs,
		       obs.notready_trains, obs.bad_segs, obs.bad_in_valid,
		       obs.bad_in_trains, obs.unparsed, obs.truncated,
		       obs.short_skbs);
	printf("done\n");
	fflush(stdout);
	/* Keep the tap until the caller's receiver has what it needs. */
	while (fgets(line, sizeof(line), stdin))
		;
	free(body);
	return 0;
}
