// SPDX-License-Identifier: GPL-2.0
/*
 * hf_hostile.c - a hostile hyperframe peer for the shell selftests. From a
 * raw AF_PACKET socket it sends one interface address a seeded, bounded
 * stream of random, malformed, contradictory and forged hyperframe frames,
 * from its own and from spoofed source addresses, then prints how many
 * frames of each class it sent and which verdicts the reference decoder
 * (kernel/core/hf_wire.c, linked in) expects for them.
 *
 *   hf_hostile --ifname IF --dst MAC (--count N | --seconds S) [--seed N]
 *		[--spoof N] [--classes LIST] [--dport P] [--impersonate MAC]
 *		[--pps N] [--ethertype T] [--mtu N] [--epoch E]
 *
 * Classes (LIST is comma-separated; the default is every class but the
 * last four, which attack one named peer or one socket):
 *   random	random bytes after the Ethernet header; some to a stranger's
 *		address (drop_otherhost)
 *   truncated	valid DATA and ACK frames cut short (malformed_short/length)
 *   malformed	valid frames with one field the decoder refuses: version,
 *		type, flags, lengths, offsets past the message end, frames,
 *		SACK blocks, message outcomes (malformed_<reason>)
 *   csum	valid frames whose checksum does not verify (drop_csum)
 *   semantic	well-formed DATA that contradicts the receiver's state: the
 *		stride, length or port of a message changed mid-message,
 *		overlapping segments with other content, duplicates, huge and
 *		old message ids, sequence numbers beyond the window, strides
 *		below the minimum, epoch changes, empty and odd-sized messages
 *   partial	a flood of first segments of large messages that are never
 *		completed, and sparse later segments of them (each in a
 *		segment table page of its own), from the spoofed addresses
 *   ack	well-formed forged ACKs: for data never sent, SACK blocks out
 *		of range, WINDOW, msg_done going backwards, wrong epochs;
 *		from --impersonate MAC (the peer a victim sender talks to)
 *		when given, else from the pool
 *   unbound	complete messages (empty, odd sizes, odd strides), in order,
 *		from our own address to port DPORT+1, where nobody is bound
 *   packed	packed trains (one header for several segments, HF_DF_PACKED)
 *		of the spoofed flows' open messages, and ones that describe
 *		no whole segments: a repair, one segment, a short first or
 *		middle one, past the message or the frame, a stride below
 *		the minimum (malformed_<reason>), a bad checksum (drop_csum)
 *   hijack	blind injection from --impersonate MAC into its flow: DATA
 *		in new epochs that could start a flow (the receiver must
 *		challenge them, never reset the live flow), with echoes
 *		guessed at random (answered LOST, which the impersonated
 *		sender ignores), and mid-stream segments of unknown epochs
 *   sweep	ACKs from --impersonate MAC naming random epochs and states
 *		(a 32-bit epoch cannot be swept; --epoch E names the real
 *		one, as a local user who could read it would)
 *   overrun	a flow that never waits for credit: consecutive segments of
 *		1 MiB messages to DPORT from sequence number 0, whatever the
 *		receiver grants
 *   trickle	one segment of a 16 MiB message to DPORT, then that segment
 *		again and again (use a low --pps): repeats are no progress
 * (overrun and trickle come from the first spoofed address with --spoof,
 * else from our own)
 *
 * Every flow from a spoofed address starts with message 0 as a partial
 * message that is never completed: messages resolve in order, so nothing
 * from the flood can ever reach the socket at DPORT. The generator depends
 * only on the seed and the options, never on time, except for when
 * --seconds ends it. Exit status: 0; 1 on a system error; 2 on bad usage;
 * 3 when a frame did not get the verdict its mutation was written for.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../kernel/core/hf_train.h"
#include "../kernel/core/hf_wire.h"

#define ETH_HDR		14
#define FRAME_MAX	(ETH_HDR + 9216)
#define MSG_RING	64
#define SPOOF_MAX	65536
#define HOSTILE_SPORT	4242
#define MIN_STRIDE	64	/* the kernel's HF_MIN_SEG_SIZE */
#define WIN_SEGS	4096	/* the kernel's HF_WIN_SEGS */
#define PER_CHUNK	512	/* segment pointers per table page */

enum cls {
	C_RANDOM, C_TRUNCATED, C_MALFORMED, C_CSUM, C_SEMANTIC, C_PARTIAL,
	C_ACK, C_UNBOUND, C_PACKED, C_HIJACK, C_SWEEP, C_OVERRUN, C_TRICKLE,
	C_MAX
};

static const char *const cls_names[C_MAX] = {
	"random", "truncated", "malformed", "csum", "semantic", "partial",
	"ack", "unbound", "packed", "hijack", "sweep", "overrun", "trickle",
};

/* Classes run unless --classes names others. */
#define C_DEFAULT	((1u << C_HIJACK) - 1)

/* A message of a flow, as we announced it. */
struct msgdef {
	u32 id;
	u32 len;
	u16 seg_size;
	u16 dport;
	bool used;
};

/* One source address and the flow we pretend to run from it. */
struct src {
	u8 mac[6];
	u32 epoch;
	u32 next_seq;
	u32 next_msg;
	u32 msg_done_forged;	/* msg_done of our last forged ACK */
	struct msgdef msgs[MSG_RING];
};

/* A verdict the reference decoder gives a frame. */
enum verdict {
	V_DECODE = 0,		/* + enum hf_wire_err: drop_malformed_<reason> */
	V_CSUM = HF_WERR_MAX,	/* drop_csum */
	V_VALID,		/* passes the decoder and the checksum */
	V_OTHERHOST,		/* not addressed to the receiver */
	V_MAX
};

struct sub {
	const char *name;
	unsigned long sent;
	int want;		/* expected verdict, -1 when any */
	unsigned long mismatch;
};

#define SUB_MAX	96

static struct {
	u64 rng;
	int fd;
	int ifindex;
	u8 own[6];
	u8 dst[6];
	u8 victim[6];
	bool have_victim;
	u16 ethertype;
	u32 mtu;
	u32 max_msg;
	u16 dport;
	u32 nsrc;
	struct src *srcs;
	u32 next_partial;
	u32 forge_epoch;	/* --epoch: the victim flow's real epoch */
	struct src unbound_src;
	u32 unbound_msg;	/* index in the size list */
	u32 unbound_index;	/* next segment of it */
	unsigned long cls_sent[C_MAX];
	unsigned long verdict[V_MAX];
	unsigned long send_errors;
	struct sub subs[SUB_MAX];
	int nsubs;
} g;

/* xorshift64* (Vigna), seeded through splitmix64 so any seed works. */
static u64 rnd(void)
{
	u64 x = g.rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	g.rng = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static void rnd_seed(u64 seed)
{
	u64 z = seed + 0x9E3779B97F4A7C15ULL;

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	g.rng = (z ^ (z >> 31)) | 1;
}

/* Uniform in [0, n); 0 when n is 0. */
static u32 below(u32 n)
{
	return (u32)(((rnd() >> 32) * n) >> 32);
}

static u32 range(u32 lo, u32 hi)
{
	return lo + below(hi - lo + 1);
}

static bool chance(u32 one_in)
{
	return below(one_in) == 0;
}

static void rnd_bytes(u8 *p, size_t n)
{
	while (n--)
		*p++ = (u8)rnd();
}

static u32 rnd_epoch(void)
{
	u32 e;

	do {
		e = (u32)rnd();
	} while (!e);
	return e;
}

static void put16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static void put32(u8 *p, u32 v)
{
	put16(p, v >> 16);
	put16(p + 2, v & 0xffff);
}

static u16 get16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static u32 get32(const u8 *p)
{
	return (u32)get16(p) << 16 | get16(p + 2);
}

static struct sub *sub(const char *name, int want)
{
	int i;

	for (i = 0; i < g.nsubs; i++)
		if (!strcmp(g.subs[i].name, name))
			return &g.subs[i];
	if (g.nsubs == SUB_MAX) {
		fprintf(stderr, "hf_hostile: too many sub-classes\n");
		exit(2);
	}
	g.subs[g.nsubs].name = name;
	g.subs[g.nsubs].want = want;
	return &g.subs[g.nsubs++];
}

/* A frame being built: Ethernet header, then hyperframe bytes. */
struct frame {
	u8 buf[FRAME_MAX];
	size_t len;		/* whole frame */
	enum cls cls;
	struct sub *sub;
};

static u8 *hf(struct frame *f)
{
	return f->buf + ETH_HDR;
}

static void frame_start(struct frame *f, const u8 *src, const u8 *dst)
{
	memcpy(f->buf, dst, 6);
	memcpy(f->buf + 6, src, 6);
	put16(f->buf + 12, g.ethertype);
	f->len = ETH_HDR;
}

/* (Re)compute the checksum over the hyperframe bytes of @f. */
static void frame_csum(struct frame *f)
{
	u8 *p = hf(f);
	size_t n = f->len - ETH_HDR;
	u16 c;

	if (n < HF_COMMON_LEN)
		return;
	p[HF_CSUM_OFFSET] = 0;
	p[HF_CSUM_OFFSET + 1] = 0;
	c = hf_csum_fold(hf_csum_add(0, p, n));
	put16(p + HF_CSUM_OFFSET, c);
}

static size_t payload_max(void)
{
	return g.mtu - HF_DATA_HLEN;
}

/*
 * The pred a message's segments all carry: any of 0..255, fixed per
 * message (segments that disagree would be dropped). A hostile pred can
 * only hold back or reorder the attacker's own messages at the receiver.
 */
static u8 msg_pred(const struct msgdef *m)
{
	return (u8)((m->id * 2654435761u) >> 24);
}

/*
 * Encode DATA segment @index of message @m of flow @s as sequence number
 * @seq, alone in its hyperframe, with a payload derived from @fill.
 */
static void build_data(struct frame *f, const struct src *s,
		       const struct msgdef *m, u32 index, u32 seq, u8 fill)
{
	struct hf_hdr h = {
		.type = HF_TYPE_DATA,
		.flags = HF_DF_FRAME_START | HF_DF_FRAME_END,
		.sport = HOSTILE_SPORT,
		.dport = m->dport,
	};
	u32 off = index * m->seg_size;
	u32 n = m->len > off ? m->len - off : 0;
	u32 i;

	if (n > m->seg_size)
		n = m->seg_size;
	h.data.seq = seq;
	h.data.msg_id = m->id;
	h.data.msg_len = m->len;
	h.data.offset = off;
	h.data.seg_len = n;
	h.data.frame_segs = 1;
	h.data.frame_seq = seq;
	h.data.seg_size = m->seg_size;
	h.data.epoch = s->epoch;
	h.data.pred = msg_pred(m);
	if (chance(4))
		h.flags |= HF_DF_ACK_NOW;

	frame_start(f, s->mac, g.dst);
	hf_hdr_encode(&h, hf(f), FRAME_MAX - ETH_HDR);
	f->len += HF_DATA_HLEN;
	for (i = 0; i < n; i++)
		f->buf[f->len + i] = (u8)(fill + i * 13 + (i >> 8));
	f->len += n;
	frame_csum(f);
}

/*
 * Encode an ACK of @s with @nsack well-formed blocks above @cum and
 * @next words of outcomes after them.
 */
static void build_ack_ext(struct frame *f, const u8 *src, u32 epoch,
			  u32 cum, u8 nsack, u8 flags, u8 next)
{
	struct hf_hdr h = {
		.type = HF_TYPE_ACK,
		.flags = flags,
	};
	u32 at = cum;
	int len, i;

	h.ack.cum_seq = cum;
	h.ack.credit = cum + below(2 * WIN_SEGS);
	h.ack.rate_kbps = chance(2) ? 0 : (u32)rnd();
	h.ack.msg_done = (u32)rnd() & 0xff;
	/* Outcomes 0..2 only: 3 is malformed (the "status" mutation). */
	for (i = 0; i < HF_STATUS_WINDOW; i++)
		h.ack.msg_status |= (u64)below(3) << (2 * i);
	h.ack.epoch = epoch;
	h.ack.nsack = nsack;
	for (i = 0; i < nsack; i++) {
		at += range(1, 64);
		h.ack.sack[i].start = at;
		at += range(1, 64);
		h.ack.sack[i].end = at;
	}
	h.ack.nstatus_ext = next;
	for (i = 0; i < HF_STATUS_WINDOW * next; i++)
		h.ack.status_ext[i / HF_STATUS_WINDOW] |=
			(u64)below(3) << (2 * (i % HF_STATUS_WINDOW));
	frame_start(f, src, g.dst);
	len = hf_hdr_encode(&h, hf(f), FRAME_MAX - ETH_HDR);
	f->len += len > 0 ? len : 0;
	frame_csum(f);
}

/* build_ack_ext() with 0 to HF_STATUS_EXT_MAX words of outcomes. */
static void build_ack(struct frame *f, const u8 *src, u32 epoch, u32 cum,
		      u8 nsack, u8 flags)
{
	build_ack_ext(f, src, epoch, cum, nsack, flags,
		      below(HF_STATUS_EXT_MAX + 1));
}

static struct src *pick_any(void)
{
	return &g.srcs[below(g.nsrc)];
}

/* A spoofed source (our own address when there are none). */
static struct src *pick_spoofed(void)
{
	return g.nsrc > 1 ? &g.srcs[1 + below(g.nsrc - 1)] : &g.srcs[0];
}

static struct msgdef *msg_slot(struct src *s, u32 id)
{
	return &s->msgs[id % MSG_RING];
}

static u16 stride_pick(void)
{
	switch (below(4)) {
	case 0:
		return MIN_STRIDE;
	case 1:
		return range(MIN_STRIDE, payload_max());
	default:
		return payload_max();
	}
}

/* A large message length: up to max_msg, one in eight above it. */
static u32 big_len(u16 stride)
{
	if (chance(8))
		return range(g.max_msg + 1, HF_WIRE_MSG_MAX);
	return range(2 * stride + 1, g.max_msg);
}

/*
 * Start the flow of @s over: a new epoch, and its message 0, a partial
 * message, sent as @f. Message 0 never completes, so no later message of
 * the flow is ever delivered.
 */
static void flow_anchor(struct frame *f, struct src *s, u32 epoch)
{
	struct msgdef *m;

	memset(s->msgs, 0, sizeof(s->msgs));
	s->epoch = epoch;
	s->next_seq = 0;
	s->next_msg = 1;
	m = msg_slot(s, 0);
	m->id = 0;
	m->seg_size = payload_max();
	m->len = range(2 * m->seg_size + 1, g.max_msg);
	m->dport = g.dport;
	m->used = true;
	build_data(f, s, m, 0, s->next_seq++, (u8)rnd());
}

/* A new partial message of @s: its first segment only. */
static void partial_first(struct frame *f, struct src *s)
{
	u32 id = s->next_msg++;
	struct msgdef *m = msg_slot(s, id);

	m->id = id;
	m->seg_size = stride_pick();
	m->len = big_len(m->seg_size);
	m->dport = g.dport;
	m->used = true;
	build_data(f, s, m, 0, s->next_seq++, (u8)rnd());
}

/* An open message of @s, or NULL. */
static struct msgdef *open_msg(struct src *s)
{
	u32 lo = s->next_msg > MSG_RING ? s->next_msg - MSG_RING : 0;
	struct msgdef *m;

	if (s->next_msg == lo)
		return NULL;
	m = msg_slot(s, lo + below(s->next_msg - lo));
	return m->used ? m : NULL;
}

static u32 nsegs_of(const struct msgdef *m)
{
	return m->len ? (m->len + m->seg_size - 1) / m->seg_size : 1;
}

static void gen_partial(struct frame *f)
{
	struct src *s;
	struct msgdef *m;
	u32 nsegs, k;

	/* Walk the pool so every address is used, thousands of them. */
	s = g.nsrc > 1 ? &g.srcs[1 + g.next_partial++ % (g.nsrc - 1)] :
			 &g.srcs[0];
	if (!s->next_msg) {
		f->sub = sub("partial.anchor", V_VALID);
		flow_anchor(f, s, s->epoch ? s->epoch : rnd_epoch());
		return;
	}
	m = open_msg(s);
	nsegs = m ? nsegs_of(m) : 0;
	/*
	 * New messages while the flow has few (past the message window
	 * they are drop_msg_window), else sparse segments of open ones.
	 */
	if (nsegs < 2 * PER_CHUNK + 2 ||
	    (s->next_msg < HF_STATUS_WINDOW + 8 && chance(2))) {
		f->sub = sub("partial.first", V_VALID);
		partial_first(f, s);
		return;
	}
	/*
	 * The first slot of a segment table page: the receiver allocates
	 * the page for this one segment. Never the message's last segment.
	 */
	k = 1 + below((nsegs - 2) / PER_CHUNK);
	f->sub = sub("partial.sparse", V_VALID);
	build_data(f, s, m, k * PER_CHUNK, s->next_seq++, (u8)rnd());
}

static void gen_semantic(struct frame *f)
{
	struct src *s = pick_spoofed();
	struct msgdef *m, tmp;
	u32 index;

	if (!s->next_msg) {
		f->sub = sub("semantic.anchor", V_VALID);
		flow_anchor(f, s, s->epoch ? s->epoch : rnd_epoch());
		return;
	}
	m = open_msg(s);
	if (!m) {
		f->sub = sub("semantic.open", V_VALID);
		partial_first(f, s);
		return;
	}
	index = below(nsegs_of(m) > 1 ? nsegs_of(m) - 1 : 1);
	tmp = *m;
	switch (below(11)) {
	case 0:	/* the stride changes mid-message: drop_disagree */
		f->sub = sub("semantic.stride_change", V_VALID);
		tmp.seg_size = m->seg_size == payload_max() ? MIN_STRIDE :
							       payload_max();
		build_data(f, s, &tmp, 0, s->next_seq++, (u8)rnd());
		break;
	case 1:	/* the length changes mid-message: drop_disagree */
		f->sub = sub("semantic.len_change", V_VALID);
		tmp.len = m->len ^ range(1, 255);
		if (tmp.len > HF_WIRE_MSG_MAX)
			tmp.len = m->len - 1;
		build_data(f, s, &tmp, 0, s->next_seq++, (u8)rnd());
		break;
	case 2:	/* the port changes mid-message: drop_disagree */
		f->sub = sub("semantic.port_change", V_VALID);
		tmp.dport = g.dport + 2;
		build_data(f, s, &tmp, index, s->next_seq++, (u8)rnd());
		break;
	case 3:	/* segment 0 again, other bytes, new seq: drop_disagree */
		f->sub = sub("semantic.overlap", V_VALID);
		build_data(f, s, m, 0, s->next_seq++, (u8)rnd());
		break;
	case 4:	/* the same sequence number twice: rx_duplicates */
		f->sub = sub("semantic.duplicate", V_VALID);
		build_data(f, s, m, index, s->next_seq, (u8)rnd());
		send(g.fd, f->buf, f->len, 0);
		f->sub->sent++;
		g.cls_sent[C_SEMANTIC]++;
		g.verdict[V_VALID]++;
		s->next_seq++;
		break;
	case 5:	/* far past the message window: drop_msg_window */
		f->sub = sub("semantic.huge_id", V_VALID);
		tmp.id = s->next_msg + HF_STATUS_WINDOW + below(1u << 30);
		build_data(f, s, &tmp, index, s->next_seq++, (u8)rnd());
		break;
	case 6:	/* an id before the resolved ones: drop_disagree */
		f->sub = sub("semantic.old_id", V_VALID);
		tmp.id = 0x80000000u + below(1u << 30);
		build_data(f, s, &tmp, index, s->next_seq++, (u8)rnd());
		break;
	case 7:	/* far past the receive window: drop_beyond_window */
		f->sub = sub("semantic.beyond", V_VALID);
		build_data(f, s, m, index,
			   s->next_seq + WIN_SEGS + below(1u << 30), (u8)rnd());
		break;
	case 8:	/* a stride below the minimum: drop_seg_size */
		f->sub = sub("semantic.tiny_stride", V_VALID);
		tmp.id = s->next_msg++;
		tmp.seg_size = range(1, MIN_STRIDE - 1);
		tmp.len = range(tmp.seg_size + 1, 1 << 20);
		build_data(f, s, &tmp, 0, s->next_seq++, (u8)rnd());
		break;
	case 9:	/* empty and odd-sized messages, never delivered (msg 0) */
		f->sub = sub("semantic.odd_size", V_VALID);
		m = msg_slot(s, s->next_msg);
		m->id = s->next_msg++;
		m->len = chance(2) ? 0 : range(1, 3 * payload_max()) | 1;
		m->seg_size = range(MIN_STRIDE, payload_max()) | 1;
		m->dport = g.dport;
		m->used = true;
		build_data(f, s, m, 0, s->next_seq++, (u8)rnd());
		break;
	default: /* a new epoch: the receiver challenges it, keeps the flow */
		f->sub = sub("semantic.new_epoch", V_VALID);
		flow_anchor(f, s, rnd_epoch());
		break;
	}
}

/* A valid DATA or ACK frame from any source, to be mutated. */
static bool valid_any(struct frame *f, struct src *s, bool data)
{
	struct msgdef m = {
		.id = below(HF_STATUS_WINDOW),
		.seg_size = stride_pick(),
		.dport = g.dport,
	};

	if (!data) {
		build_ack(f, s->mac, s->epoch, (u32)rnd(), below(HF_SACK_MAX + 1),
			  below(HF_AF_ALL + 1));
		return false;
	}
	m.len = range(2 * m.seg_size + 1, g.max_msg);
	build_data(f, s, &m, below(nsegs_of(&m) - 1), (u32)rnd(), (u8)rnd());
	return true;
}

static void gen_malformed(struct frame *f)
{
	struct src *s = pick_any();
	u8 *p = hf(f);
	u16 seg_len, seg_size;
	u32 v;

	if (chance(3)) {
		/* ACK mutations. */
		u8 nsack = range(2, HF_SACK_MAX);
		u8 next = range(1, HF_STATUS_EXT_MAX);
		u8 *b;

		build_ack_ext(f, s->mac, s->epoch, (u32)rnd(), nsack, 0, next);
		b = p + HF_ACK_HLEN;
		switch (below(8)) {
		case 0:
			f->sub = sub("malformed.ack_flags", HF_WERR_FLAGS);
			do {
				v = below(8);
			} while (HF_AF_ALL & (1u << v));
			p[1] |= (u8)(1u << v);
			break;
		case 1:
			f->sub = sub("malformed.ack_nsack", HF_WERR_SACK);
			p[32] = range(HF_SACK_MAX + 1, 255);
			break;
		case 2:	/* a block ending where it starts, or before */
			f->sub = sub("malformed.ack_inverted", HF_WERR_SACK);
			v = below(nsack) * HF_SACK_BLOCK_LEN;
			put32(b + v + 4, get32(b + v) - below(9));
			break;
		case 3:	/* the first block at or below the cumulative ack */
			f->sub = sub("malformed.ack_below_cum", HF_WERR_SACK);
			memcpy(b, p + 8, 4);
			break;
		case 4:	/* an outcome of 3 */
			f->sub = sub("malformed.ack_status", HF_WERR_STATUS);
			p[24 + below(8)] |= 3 << (2 * below(4));
			break;
		case 5:	/* an outcome of 3 in a word after the blocks */
			f->sub = sub("malformed.ack_status_ext", HF_WERR_STATUS);
			b[nsack * HF_SACK_BLOCK_LEN + below(next * HF_STATUS_EXT_LEN)] |=
				3 << (2 * below(4));
			break;
		case 6:	/* more outcome words announced than present */
			f->sub = sub("malformed.ack_status_ext_short", HF_WERR_SHORT);
			f->len -= range(1, next * HF_STATUS_EXT_LEN);
			break;
		default: /* more blocks announced than present */
			f->sub = sub("malformed.ack_nsack_short", HF_WERR_SHORT);
			f->len -= HF_SACK_BLOCK_LEN * range(1, nsack);
			break;
		}
		frame_csum(f);
		return;
	}

	valid_any(f, s, true);
	seg_len = get16(p + 24);
	seg_size = get16(p + 32);
	switch (below(15)) {
	case 0:
		f->sub = sub("malformed.version", HF_WERR_VERSION);
		v = below(15);
		p[0] = (u8)((v >= HF_WIRE_VERSION ? v + 1 : v) << 4 |
			    HF_TYPE_DATA);
		break;
	case 1:
		f->sub = sub("malformed.type", HF_WERR_TYPE);
		v = range(3, 16);
		p[0] = HF_WIRE_VERSION << 4 | (v == 16 ? 0 : v);
		break;
	case 2:
		f->sub = sub("malformed.data_flags", HF_WERR_FLAGS);
		p[1] |= (u8)(1u << range(5, 7));	/* above HF_DF_ALL */
		break;
	case 3:	/* seg_len above the bytes present */
		f->sub = sub("malformed.seglen_over", HF_WERR_LENGTH);
		f->len -= range(1, seg_len);
		break;
	case 4:
		f->sub = sub("malformed.stride_zero", HF_WERR_LENGTH);
		put16(p + 32, 0);
		break;
	case 5:	/* seg_len above the stride */
		f->sub = sub("malformed.seglen_gt_stride", HF_WERR_LENGTH);
		put16(p + 32, seg_len - range(1, seg_len - 1));
		break;
	case 6:	/* an empty segment in a non-empty message */
		f->sub = sub("malformed.empty_segment", HF_WERR_LENGTH);
		put16(p + 24, 0);
		f->len -= seg_len;
		break;
	case 7:	/* a short segment that is not the message's last */
		f->sub = sub("malformed.short_middle", HF_WERR_LENGTH);
		put16(p + 24, seg_len - range(1, seg_len - 1));
		f->len -= seg_len - get16(p + 24);
		break;
	case 8:
		f->sub = sub("malformed.msg_len_huge", HF_WERR_OFFSET);
		put32(p + 16, range(HF_WIRE_MSG_MAX + 1, 0xffffffffu));
		break;
	case 9:	/* the segment ends past the message end */
		f->sub = sub("malformed.past_end", HF_WERR_OFFSET);
		v = chance(2) ? 0xffffffffu / seg_size * seg_size :
				(u32)range(1, 1000) * seg_size;
		put32(p + 20, v);
		put32(p + 16, v + seg_len - range(1, seg_len));
		break;
	case 10:
		f->sub = sub("malformed.misaligned", HF_WERR_OFFSET);
		put32(p + 20, get32(p + 20) + range(1, seg_size - 1));
		put32(p + 16, HF_WIRE_MSG_MAX);
		break;
	case 11:
		f->sub = sub("malformed.frame_zero", HF_WERR_FRAME);
		put16(p + 26, 0);
		break;
	case 12:	/* seq outside its hyperframe */
		f->sub = sub("malformed.frame_index", HF_WERR_FRAME);
		put16(p + 26, range(1, 16));
		put32(p + 28, (u32)rnd() & 0xffff0000u);
		memcpy(p + 8, p + 28, 4);
		p[10] = 0;
		p[11] = (u8)(get16(p + 26) + below(200));
		p[1] &= ~(HF_DF_FRAME_START | HF_DF_FRAME_END);
		break;
	case 13:	/* FRAME_START on a segment that is not the first */
		f->sub = sub("malformed.frame_start", HF_WERR_FRAME);
		put16(p + 26, 4);
		put32(p + 28, 1000);
		put32(p + 8, 1000 + range(1, 3));
		p[1] = HF_DF_FRAME_START;
		break;
	default: /* FRAME_END on a segment that is not the last */
		f->sub = sub("malformed.frame_end", HF_WERR_FRAME);
		put16(p + 26, 4);
		put32(p + 28, 1000);
		put32(p + 8, 1000 + below(3));
		p[1] = HF_DF_FRAME_END;
		break;
	}
	frame_csum(f);
}

static void gen_truncated(struct frame *f)
{
	struct src *s = pick_any();
	size_t full;

	if (chance(3)) {
		build_ack(f, s->mac, s->epoch, (u32)rnd(),
			  range(1, HF_SACK_MAX), 0);
		f->sub = sub("truncated.ack", HF_WERR_SHORT);
	} else {
		valid_any(f, s, true);
		f->sub = sub("truncated.data", -1);
	}
	full = f->len - ETH_HDR;
	/* Cut in the header, or (DATA) in the payload. */
	if (f->sub->want == HF_WERR_SHORT || chance(2))
		f->len = ETH_HDR + below(f->sub->want == HF_WERR_SHORT ?
					 HF_ACK_HLEN + HF_SACK_BLOCK_LEN - 1 :
					 HF_DATA_HLEN);
	else
		f->len = ETH_HDR + range(HF_DATA_HLEN, full - 1);
}

static void gen_random(struct frame *f)
{
	struct src *s = pick_spoofed();
	u8 stranger[6];
	size_t n = below(g.mtu + 1);

	if (chance(16)) {
		/* To a unicast address nobody has: drop_otherhost. */
		rnd_bytes(stranger, 6);
		stranger[0] = (stranger[0] & 0xfe) | 0x02;
		frame_start(f, s->mac, stranger);
		f->sub = sub("random.otherhost", V_OTHERHOST);
	} else {
		frame_start(f, s->mac, g.dst);
		f->sub = sub("random.bytes", -1);
	}
	rnd_bytes(hf(f), n);
	/* Some start like a header, to get further into the decoder. */
	if (n && chance(2))
		hf(f)[0] = HF_WIRE_VERSION << 4 | range(HF_TYPE_DATA, HF_TYPE_ACK);
	f->len += n;
	if (chance(4))
		frame_csum(f);
}

static void gen_csum(struct frame *f)
{
	struct src *s = pick_any();
	u8 *p = hf(f);

	if (valid_any(f, s, !chance(3)) && chance(2)) {
		/* One flipped payload bit, the checksum left as it was. */
		f->sub = sub("csum.payload_bit", V_CSUM);
		f->buf[f->len - 1 - below(get16(p + 24))] ^= 1u << below(8);
	} else {
		f->sub = sub("csum.field", V_CSUM);
		put16(p + HF_CSUM_OFFSET,
		      get16(p + HF_CSUM_OFFSET) ^ range(1, 0xfffe));
	}
}

/*
 * Encode a packed train of @n segments of message @m of flow @s from
 * segment @index, sequence numbers from @seq, the hyperframe exactly this
 * train; @payload bytes follow the header (the caller may make that
 * disagree with @n). Payload bytes derive from @fill.
 */
static void build_packed(struct frame *f, const struct src *s,
			 const struct msgdef *m, u32 index, u32 n, u32 seq,
			 u32 payload, u8 fill)
{
	struct hf_hdr h = {
		.type = HF_TYPE_DATA,
		.flags = HF_DF_PACKED | HF_DF_FRAME_START | HF_DF_FRAME_END,
		.sport = HOSTILE_SPORT,
		.dport = m->dport,
	};
	u32 i;

	h.data.seq = seq;
	h.data.msg_id = m->id;
	h.data.msg_len = m->len;
	h.data.offset = index * m->seg_size;
	h.data.seg_len = m->seg_size;
	h.data.frame_segs = (u16)n;
	h.data.frame_seq = seq;
	h.data.seg_size = m->seg_size;
	h.data.epoch = s->epoch;
	h.data.pred = msg_pred(m);
	frame_start(f, s->mac, g.dst);
	hf_hdr_encode(&h, hf(f), FRAME_MAX - ETH_HDR);
	f->len += HF_DATA_HLEN;
	for (i = 0; i < payload; i++)
		f->buf[f->len + i] = (u8)(fill + i * 7 + (i >> 8));
	f->len += payload;
	frame_csum(f);
}

/*
 * Packed trains: valid ones continue the spoofed flows' open messages
 * (never their last segment, so nothing completes), the rest break one
 * rule of hf_train_check() each, or the checksum.
 */
static void gen_packed(struct frame *f)
{
	struct src *s = pick_spoofed();
	struct msgdef *m, tmp;
	u32 n, index, nsegs;
	u8 *p = hf(f);

	if (!s->next_msg) {
		f->sub = sub("packed.anchor", V_VALID);
		flow_anchor(f, s, s->epoch ? s->epoch : rnd_epoch());
		return;
	}
	/* A message of its own, cut fine enough for a few segments a frame. */
	m = open_msg(s);
	if (!m || m->seg_size > payload_max() / 2 || nsegs_of(m) < 3 ||
	    chance(8)) {
		m = msg_slot(s, s->next_msg);
		m->id = s->next_msg++;
		m->seg_size = range(MIN_STRIDE, payload_max() / 2);
		m->len = range(8 * m->seg_size + 1, g.max_msg);
		m->dport = g.dport;
		m->used = true;
	}
	nsegs = nsegs_of(m);
	n = range(2, payload_max() / m->seg_size);
	if (n > nsegs - 1)
		n = nsegs - 1;
	index = below(nsegs - n);
	tmp = *m;
	switch (below(10)) {
	case 0:
		f->sub = sub("packed.repair", HF_WERR_FLAGS);
		build_packed(f, s, m, index, n, s->next_seq++, n * m->seg_size,
			     (u8)rnd());
		p[1] |= HF_DF_RETRANSMIT;
		break;
	case 1:
		f->sub = sub("packed.one_segment", HF_WERR_LENGTH);
		build_packed(f, s, m, index, 1, s->next_seq++, m->seg_size,
			     (u8)rnd());
		break;
	case 2:	/* a ragged end that is not the message's */
		f->sub = sub("packed.ragged", HF_WERR_LENGTH);
		build_packed(f, s, m, index, n, s->next_seq++,
			     n * m->seg_size - range(1, m->seg_size - 1),
			     (u8)rnd());
		break;
	case 3:	/* the message ends inside the train */
		f->sub = sub("packed.past_message", HF_WERR_OFFSET);
		tmp.len = (index + n - 1) * m->seg_size + range(1, m->seg_size - 1);
		build_packed(f, s, &tmp, index, n, s->next_seq++,
			     n * m->seg_size, (u8)rnd());
		break;
	case 4:	/* more segments than the hyperframe has */
		f->sub = sub("packed.past_frame", HF_WERR_FRAME);
		build_packed(f, s, m, index, n, s->next_seq++, n * m->seg_size,
			     (u8)rnd());
		put16(p + 26, (u16)(n - 1));
		p[1] &= ~HF_DF_FRAME_END;
		break;
	case 5:	/* FRAME_END on a train that stops short of it */
		f->sub = sub("packed.early_end", HF_WERR_FRAME);
		build_packed(f, s, m, index, n, s->next_seq++, n * m->seg_size,
			     (u8)rnd());
		put16(p + 26, (u16)(n + range(1, 8)));
		break;
	case 6:	/* a stride below the least a train may have */
		f->sub = sub("packed.tiny_stride", HF_WERR_LENGTH);
		tmp.seg_size = range(8, HF_TRAIN_MIN_SEG_SIZE - 1);
		build_packed(f, s, &tmp, 0, 3, s->next_seq++, 3 * tmp.seg_size,
			     (u8)rnd());
		break;
	case 7:
		f->sub = sub("packed.csum", V_CSUM);
		build_packed(f, s, m, index, n, s->next_seq, n * m->seg_size,
			     (u8)rnd());
		f->buf[f->len - 1 - below(n * m->seg_size)] ^= 1u << below(8);
		break;
	default:
		f->sub = sub("packed.valid", V_VALID);
		build_packed(f, s, m, index, n, s->next_seq, n * m->seg_size,
			     (u8)rnd());
		s->next_seq += n;
		break;
	}
	if (f->sub->want != V_CSUM)
		frame_csum(f);
}

/*
 * Forged ACKs. From the victim's address (impersonation) they use epoch 0,
 * which no sender ever uses, or one of four values fixed by the seed: the
 * real epoch is one of 2^32 - 1, so a forged ACK names it by chance
 * almost never. Even then it is harmless: its cumulative ack is far above
 * anything sent and its rx_state is not the receiver's.
 */
static void gen_ack(struct frame *f)
{
	bool imp = g.have_victim && !chance(4);
	struct src *s = pick_any();
	const u8 *mac = imp ? g.victim : s->mac;
	static u32 fixed[4];
	u32 epoch;
	u32 cum, v;
	u8 *p = hf(f);

	if (!fixed[0]) {
		int i;

		for (i = 0; i < 4; i++)
			fixed[i] = rnd_epoch();
	}
	epoch = imp ? (chance(4) ? fixed[below(4)] : 0) : s->epoch;
	/* For data never sent: far above anything a young flow sent. */
	cum = (1u << 29) + below(1u << 30);

	switch (below(5)) {
	case 0:
		f->sub = sub("ack.never_sent", V_VALID);
		build_ack(f, mac, epoch, cum, below(HF_SACK_MAX + 1), 0);
		break;
	case 1:	/* SACK blocks far above the cumulative ack */
		f->sub = sub("ack.sack_range", V_VALID);
		build_ack(f, mac, epoch, imp && epoch ? cum : below(64), 1, 0);
		v = get32(p + 8) + range(WIN_SEGS, 1u << 20);
		put32(p + HF_ACK_HLEN, v);
		put32(p + HF_ACK_HLEN + 4, v + range(1, 1u << 16));
		break;
	case 2:
		f->sub = sub("ack.window", V_VALID);
		build_ack(f, mac, epoch, imp && epoch ? cum : below(64),
			  below(4), HF_AF_WINDOW | (chance(2) ? HF_AF_ECHO : 0));
		break;
	case 3:	/* msg_done going backwards from one forged ACK to the next */
		f->sub = sub("ack.msg_done_back", V_VALID);
		build_ack(f, mac, epoch, imp && epoch ? cum : below(64), 0, 0);
		s->msg_done_forged = s->msg_done_forged ?
				     s->msg_done_forged - 1 : 1u << 20;
		put32(p + 20, s->msg_done_forged);
		break;
	default:
		f->sub = sub("ack.wrong_epoch", V_VALID);
		build_ack(f, mac, imp ? epoch : (s->epoch + range(1, 0xfffffffe)) ?: 1,
			  imp && epoch ? cum : below(64), below(3), 0);
		break;
	}
	/*
	 * Reserved bytes (but byte 33's nstatus_ext bits) and rx_state:
	 * random where that is safe.
	 */
	if (!imp || !epoch) {
		u8 next = p[33] & HF_STATUS_EXT_MASK;

		rnd_bytes(p + 33, 3);
		p[33] = (p[33] & ~HF_STATUS_EXT_MASK) | next;
		rnd_bytes(p + 40, 4);
	}
	frame_csum(f);
}

/* Complete messages, in order, to a port nobody bound: rx_msgs_no_port. */
static void gen_unbound(struct frame *f)
{
	static const u32 sizes[] = {
		0, 1, 2, 63, 64, 65, 999, 1455, 1456, 1457, 1459, 1460, 1461,
		4097, 9001, 30000,
	};
	static const u16 strides[] = { 0, 64, 65, 777, 1001 };
	struct src *s = &g.unbound_src;
	struct msgdef *m = msg_slot(s, s->next_msg);

	if (!s->epoch) {
		memcpy(s->mac, g.own, 6);
		s->epoch = rnd_epoch();
	}
	if (!g.unbound_index) {
		u32 k = g.unbound_msg++;

		m->id = s->next_msg;
		m->len = sizes[k % (sizeof(sizes) / sizeof(sizes[0]))];
		m->seg_size = strides[(k / 13) % 5];
		if (!m->seg_size || m->seg_size > payload_max())
			m->seg_size = payload_max();
		m->dport = g.dport + 1;
		m->used = true;
	}
	f->sub = sub(m->len ? "unbound.message" : "unbound.empty", V_VALID);
	build_data(f, s, m, g.unbound_index, s->next_seq++, (u8)m->len);
	if (++g.unbound_index == nsegs_of(m)) {
		g.unbound_index = 0;
		s->next_msg++;
	}
}

/*
 * Blind injection into the victim's flow, from its address: DATA of new
 * epochs that could start a flow (first window, first messages, no echo),
 * the same with an echo guessed at random, and segments of unknown epochs
 * anywhere. None may reset, stall or corrupt the flow.
 */
static void gen_hijack(struct frame *f)
{
	struct src s = { .epoch = rnd_epoch() };
	struct msgdef m = {
		.id = below(HF_STATUS_WINDOW),
		.seg_size = payload_max(),
		.dport = g.dport,
		.used = true,
	};
	u8 *p = hf(f);

	memcpy(s.mac, g.victim, 6);
	m.len = range(1, 4 * m.seg_size);
	switch (below(3)) {
	case 0:
		f->sub = sub("hijack.new_epoch", V_VALID);
		build_data(f, &s, &m, 0, below(64), (u8)rnd());
		break;
	case 1:
		f->sub = sub("hijack.guessed_echo", V_VALID);
		build_data(f, &s, &m, 0, below(64), (u8)rnd());
		put32(p + 40, rnd_epoch());
		frame_csum(f);
		break;
	default:
		f->sub = sub("hijack.mid_stream", V_VALID);
		m.id = (u32)rnd();
		build_data(f, &s, &m, 0, (u32)rnd(), (u8)rnd());
		if (chance(2)) {
			put32(p + 40, rnd_epoch());
			frame_csum(f);
		}
		break;
	}
}

/*
 * ACKs from the victim's address: of random epochs and states, or with
 * --epoch of the real one, claiming another receiver state, or LOST for
 * a segment never sent, none acknowledging anything new. None may
 * restart the flow.
 */
static void gen_sweep(struct frame *f)
{
	u32 epoch = g.forge_epoch ? g.forge_epoch : rnd_epoch();
	u32 cum = g.forge_epoch ? below(4) : (u32)rnd();
	u8 *p = hf(f);

	switch (below(2)) {
	case 0:
		f->sub = sub("sweep.other_state", V_VALID);
		build_ack(f, g.victim, epoch, cum, 0, 0);
		break;
	default:
		f->sub = sub("sweep.lost_unsent", V_VALID);
		/* A sequence number far from anything a young flow sent. */
		build_ack(f, g.victim, epoch, (1u << 30) + below(1u << 30), 0,
			  HF_AF_LOST);
		break;
	}
	put32(p + 20, 0);
	memset(p + 24, 0, 8);
	put32(p + 40, rnd_epoch());
	frame_csum(f);
}

/*
 * A flow that never waits for credit: consecutive segments of 1 MiB
 * messages to DPORT, from sequence number 0, whatever the receiver
 * grants. The receiver must drop what goes far beyond its grants.
 */
static void gen_overrun(struct frame *f)
{
	static struct src s;
	static struct msgdef m;
	static u32 index;

	if (!s.epoch) {
		memcpy(s.mac, g.nsrc > 1 ? g.srcs[1].mac : g.own, 6);
		s.epoch = rnd_epoch();
	}
	if (!m.used || index == nsegs_of(&m)) {
		m.id = s.next_msg++;
		m.seg_size = payload_max();
		m.len = 1 << 20;
		m.dport = g.dport;
		m.used = true;
		index = 0;
	}
	f->sub = sub("overrun.segment", V_VALID);
	build_data(f, &s, &m, index++, s.next_seq++, (u8)m.id);
}

/*
 * One segment of a 16 MiB message to DPORT, then the same segment again
 * and again: repeats, which are no progress. The receiver must let the
 * message expire and the peer go.
 */
static void gen_trickle(struct frame *f)
{
	static struct src s;
	static struct msgdef m;

	if (!s.epoch) {
		memcpy(s.mac, g.nsrc > 1 ? g.srcs[1].mac : g.own, 6);
		s.epoch = rnd_epoch();
		m.seg_size = payload_max();
		m.len = 16 << 20;
		m.dport = g.dport;
		m.used = true;
	}
	f->sub = sub(s.next_seq ? "trickle.repeat" : "trickle.first", V_VALID);
	build_data(f, &s, &m, 0, 0, 0x5a);
	/* The same bytes every time: only the sequence number says "again". */
	f->buf[ETH_HDR + 1] &= ~HF_DF_ACK_NOW;
	frame_csum(f);
	s.next_seq = 1;
}

/* What the reference decoder makes of @f. */
static enum verdict judge(const struct frame *f)
{
	const u8 *p = f->buf + ETH_HDR;
	size_t n = f->len - ETH_HDR;
	enum hf_wire_err err;
	struct hf_hdr h;
	size_t flen;

	if (memcmp(f->buf, g.dst, 6))
		return V_OTHERHOST;
	err = hf_hdr_decode(p, n, &h);
	/* A packed train's length is its own: every byte is payload. */
	if (!err && h.type == HF_TYPE_DATA && (h.flags & HF_DF_PACKED)) {
		u32 nsegs;

		err = hf_train_check(&h, n - h.hlen, &nsegs);
		if (err)
			return (enum verdict)err;
		return hf_csum_fold(hf_csum_add(0, p, n)) ? V_CSUM : V_VALID;
	}
	if (err)
		return (enum verdict)err;
	flen = h.hlen + (h.type == HF_TYPE_DATA ? h.data.seg_len : 0);
	return hf_csum_fold(hf_csum_add(0, p, flen)) ? V_CSUM : V_VALID;
}

static const char *verdict_name(int v)
{
	static char buf[40];

	switch (v) {
	case V_CSUM:
		return "drop_csum";
	case V_VALID:
		return "valid";
	case V_OTHERHOST:
		return "drop_otherhost";
	}
	snprintf(buf, sizeof(buf), "drop_malformed_%s",
		 hf_wire_err_name((enum hf_wire_err)v));
	return buf;
}

static void generate(struct frame *f, enum cls c)
{
	f->cls = c;
	f->sub = NULL;
	switch (c) {
	case C_RANDOM:
		gen_random(f);
		break;
	case C_TRUNCATED:
		gen_truncated(f);
		break;
	case C_MALFORMED:
		gen_malformed(f);
		break;
	case C_CSUM:
		gen_csum(f);
		break;
	case C_SEMANTIC:
		gen_semantic(f);
		break;
	case C_PARTIAL:
		gen_partial(f);
		break;
	case C_ACK:
		gen_ack(f);
		break;
	case C_UNBOUND:
		gen_unbound(f);
		break;
	case C_PACKED:
		gen_packed(f);
		break;
	case C_HIJACK:
		gen_hijack(f);
		break;
	case C_SWEEP:
		gen_sweep(f);
		break;
	case C_OVERRUN:
		gen_overrun(f);
		break;
	default:
		gen_trickle(f);
		break;
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int parse_mac(const char *s, u8 *mac)
{
	return sscanf(s, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0], &mac[1],
		      &mac[2], &mac[3], &mac[4], &mac[5]) == 6 ? 0 : -1;
}

static unsigned long read_param(const char *name, unsigned long def)
{
	char path[128];
	unsigned long v;
	FILE *fp;

	snprintf(path, sizeof(path), "/sys/module/hyperframe/parameters/%s",
		 name);
	fp = fopen(path, "r");
	if (!fp)
		return def;
	if (fscanf(fp, "%lu", &v) != 1)
		v = def;
	fclose(fp);
	return v;
}

static unsigned int parse_classes(char *list)
{
	unsigned int mask = 0;
	char *tok;
	int c;

	for (tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		for (c = 0; c < C_MAX; c++)
			if (!strcmp(tok, cls_names[c]))
				break;
		if (c == C_MAX) {
			fprintf(stderr, "hf_hostile: unknown class '%s'\n", tok);
			exit(2);
		}
		mask |= 1u << c;
	}
	return mask;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: hf_hostile --ifname IF --dst MAC (--count N | --seconds S)\n"
		"                  [--seed N] [--spoof N] [--classes LIST] [--dport P]\n"
		"                  [--impersonate MAC] [--pps N] [--ethertype T]\n"
		"                  [--mtu N] [--epoch E]\n");
	exit(2);
}

static int open_socket(const char *ifname)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	struct ifreq ifr = { 0 };
	int fd;

	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0) {
		perror("hf_hostile: socket(AF_PACKET)");
		exit(1);
	}
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(fd, SIOCGIFINDEX, &ifr)) {
		fprintf(stderr, "hf_hostile: %s: %s\n", ifname, strerror(errno));
		exit(1);
	}
	g.ifindex = ifr.ifr_ifindex;
	if (ioctl(fd, SIOCGIFMTU, &ifr)) {
		perror("hf_hostile: SIOCGIFMTU");
		exit(1);
	}
	g.mtu = ifr.ifr_mtu;
	if (ioctl(fd, SIOCGIFHWADDR, &ifr)) {
		perror("hf_hostile: SIOCGIFHWADDR");
		exit(1);
	}
	memcpy(g.own, ifr.ifr_hwaddr.sa_data, 6);
	/* Protocol 0: send only, nothing is queued to us. */
	sll.sll_ifindex = g.ifindex;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		perror("hf_hostile: bind");
		exit(1);
	}
	return fd;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ifname", required_argument, NULL, 'i' },
		{ "dst", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'n' },
		{ "seconds", required_argument, NULL, 't' },
		{ "spoof", required_argument, NULL, 'p' },
		{ "classes", required_argument, NULL, 'c' },
		{ "dport", required_argument, NULL, 'P' },
		{ "impersonate", required_argument, NULL, 'm' },
		{ "pps", required_argument, NULL, 'r' },
		{ "ethertype", required_argument, NULL, 'e' },
		{ "mtu", required_argument, NULL, 'M' },
		{ "epoch", required_argument, NULL, 'E' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long count = 0, sent = 0, seed = 1, spoof = 0;
	double pps = 0;
	unsigned long mtu = 0;
	unsigned int mask = C_DEFAULT, ncls = 0;
	enum cls order[C_MAX];
	const char *ifname = NULL;
	double seconds = 0, t0, elapsed;
	static struct frame f;
	bool have_dst = false;
	int opt, c, i;

	g.dport = 7300;
	g.ethertype = (u16)read_param("ethertype", 0x88b5);
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			ifname = optarg;
			break;
		case 'd':
			if (parse_mac(optarg, g.dst))
				usage();
			have_dst = true;
			break;
		case 's':
			seed = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			count = strtoul(optarg, NULL, 0);
			break;
		case 't':
			seconds = strtod(optarg, NULL);
			break;
		case 'p':
			spoof = strtoul(optarg, NULL, 0);
			break;
		case 'c':
			mask = parse_classes(optarg);
			break;
		case 'P':
			g.dport = (u16)strtoul(optarg, NULL, 0);
			break;
		case 'm':
			if (parse_mac(optarg, g.victim))
				usage();
			g.have_victim = true;
			break;
		case 'r':
			pps = strtod(optarg, NULL);
			break;
		case 'e':
			g.ethertype = (u16)strtoul(optarg, NULL, 0);
			break;
		case 'M':
			mtu = strtoul(optarg, NULL, 0);
			break;
		case 'E':
			g.forge_epoch = (u32)strtoul(optarg, NULL, 0);
			break;
		default:
			usage();
		}
	}
	if (!ifname || !have_dst || (!count && seconds <= 0) ||
	    spoof > SPOOF_MAX || !mask)
		usage();
	if (mask & (1u << C_HIJACK | 1u << C_SWEEP) && !g.have_victim) {
		fprintf(stderr, "hf_hostile: hijack and sweep need --impersonate\n");
		return 2;
	}

	rnd_seed(seed);
	g.fd = open_socket(ifname);
	if (mtu && mtu < g.mtu)
		g.mtu = mtu;
	if (g.mtu < HF_DATA_HLEN + MIN_STRIDE || g.mtu > FRAME_MAX - ETH_HDR) {
		fprintf(stderr, "hf_hostile: MTU %u is out of range\n", g.mtu);
		return 1;
	}
	g.max_msg = read_param("max_msg", 64 << 20);
	if (g.max_msg > HF_WIRE_MSG_MAX - 1)
		g.max_msg = HF_WIRE_MSG_MAX - 1;

	/* Source 0 is our own address; then locally administered unicast. */
	g.nsrc = spoof + 1;
	g.srcs = calloc(g.nsrc, sizeof(*g.srcs));
	if (!g.srcs) {
		perror("hf_hostile: calloc");
		return 1;
	}
	memcpy(g.srcs[0].mac, g.own, 6);
	for (i = 0; i < (int)g.nsrc; i++) {
		if (i) {
			g.srcs[i].mac[0] = 0x02;
			g.srcs[i].mac[1] = 0xbd;
			put32(g.srcs[i].mac + 2, (u32)i << 16 | (u16)rnd());
		}
		g.srcs[i].epoch = rnd_epoch();
	}

	for (c = 0; c < C_MAX; c++)
		if (mask & (1u << c))
			order[ncls++] = (enum cls)c;

	t0 = now_s();
	for (;;) {
		enum verdict v;

		if (count && sent >= count)
			break;
		/*
		 * Time bounds the run and paces it; it is read before every
		 * frame when paced, else every 64 (it chooses nothing).
		 */
		if (pps || !(sent & 63)) {
			elapsed = now_s() - t0;
			if (seconds > 0 && elapsed >= seconds)
				break;
			if (pps && sent > elapsed * pps) {
				usleep((useconds_t)((sent / (double)pps -
						     elapsed) * 1e6));
			}
		}
		/* Random and truncated frames cost the receiver least: half weight. */
		c = order[below(ncls)];
		if (ncls > 2 && (c == C_RANDOM || c == C_TRUNCATED) &&
		    chance(2))
			c = order[below(ncls)];
		generate(&f, (enum cls)c);
		v = judge(&f);
		g.verdict[v]++;
		g.cls_sent[c]++;
		f.sub->sent++;
		if (f.sub->want >= 0 && (int)v != f.sub->want)
			f.sub->mismatch++;
		if (send(g.fd, f.buf, f.len, 0) < 0)
			g.send_errors++;
		sent++;
	}
	elapsed = now_s() - t0;

	printf("hf_hostile: seed %lu, %lu frames in %.1f s (%.0f/s), ",
	       seed, sent, elapsed, elapsed > 0 ? sent / elapsed : 0.0);
	printf("%lu send errors, %u sources\n", g.send_errors, g.nsrc);
	for (c = 0; c < C_MAX; c++)
		if (mask & (1u << c))
			printf("class %s %lu\n", cls_names[c], g.cls_sent[c]);
	for (i = 0; i < g.nsubs; i++) {
		printf("sub %s %lu", g.subs[i].name, g.subs[i].sent);
		if (g.subs[i].mismatch)
			printf(" (%lu not %s)", g.subs[i].mismatch,
			       verdict_name(g.subs[i].want));
		printf("\n");
	}
	for (i = 1; i < V_MAX; i++)
		if (g.verdict[i])
			printf("expect %s %lu\n", verdict_name(i), g.verdict[i]);
	for (i = 0; i < g.nsubs; i++)
		if (g.subs[i].mismatch)
			return 3;
	return 0;
}
