// SPDX-License-Identifier: GPL-2.0
/*
 * hf_wire.c - encoder and validating decoder of the hyperframe wire header,
 * and the Internet checksum that covers header and payload.
 *
 * Design notes:
 * 1. Byte-wise big-endian access: the header follows a 14-byte Ethernet
 *    header, so nothing in it is naturally aligned; byte access is correct
 *    everywhere and the compiler folds it into loads on x86.
 * 2. The decoder checks every field against every other before the caller
 *    sees any of them (offset + length inside the message, segment inside
 *    its hyperframe, SACK blocks above the cumulative ack). The receive
 *    path can then index its state with decoded values without rechecking.
 * 3. Messages are cut at multiples of a per-message stride (seg_size), so
 *    a receiver places a segment at index offset / seg_size in O(1), and
 *    two segments claiming the same bytes always claim the same index:
 *    overlapping data that disagrees cannot be expressed, only duplicated.
 * 4. Reserved bytes are written as zero and ignored on receive, so a later
 *    minor revision can use them without a version bump.
 */
#include "hf_wire.h"

static inline u16 get16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static inline u32 get32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static inline void put16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static inline void put32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = (v >> 16) & 0xff;
	p[2] = (v >> 8) & 0xff;
	p[3] = v & 0xff;
}

static inline u64 get64(const u8 *p)
{
	return (u64)get32(p) << 32 | get32(p + 4);
}

static inline void put64(u8 *p, u64 v)
{
	put32(p, v >> 32);
	put32(p + 4, v & 0xffffffff);
}

/**
 * hf_hdr_len() - bytes the header of @h occupies on the wire
 * @h: header to measure; only type and, for ACK, nsack and nstatus_ext
 *     are read
 *
 * Return: the length, or 0 for an unknown type or too many SACK blocks or
 * outcome words.
 */
u16 hf_hdr_len(const struct hf_hdr *h)
{
	switch (h->type) {
	case HF_TYPE_DATA:
		return HF_DATA_HLEN;
	case HF_TYPE_ACK:
		if (h->ack.nsack > HF_SACK_MAX ||
		    h->ack.nstatus_ext > HF_STATUS_EXT_MAX)
			return 0;
		return HF_ACK_HLEN + h->ack.nsack * HF_SACK_BLOCK_LEN +
		       h->ack.nstatus_ext * HF_STATUS_EXT_LEN;
	}
	return 0;
}

/**
 * hf_hdr_encode() - write @h to @buf in wire format
 * @h: header to encode; version is always written as HF_WIRE_VERSION
 * @buf: destination
 * @cap: bytes available at @buf
 *
 * The checksum field is written from @h->csum; callers compute the
 * checksum afterwards over the whole frame and patch it in.
 *
 * Return: bytes written, -EINVAL for an unknown type or too many SACK
 * blocks or outcome words, -ENOSPC when @cap is too small.
 */
int hf_hdr_encode(const struct hf_hdr *h, u8 *buf, size_t cap)
{
	u16 hlen = hf_hdr_len(h);
	unsigned int i;

	if (!hlen)
		return -EINVAL;
	if (cap < hlen)
		return -ENOSPC;

	memset(buf, 0, hlen);
	buf[0] = HF_WIRE_VERSION << 4 | (h->type & 0x0f);
	buf[1] = h->flags;
	put16(buf + 2, h->sport);
	put16(buf + 4, h->dport);
	put16(buf + HF_CSUM_OFFSET, h->csum);

	switch (h->type) {
	case HF_TYPE_DATA:
		put32(buf + 8, h->data.seq);
		put32(buf + 12, h->data.msg_id);
		put32(buf + 16, h->data.msg_len);
		put32(buf + 20, h->data.offset);
		put16(buf + 24, h->data.seg_len);
		put16(buf + 26, h->data.frame_segs);
		put32(buf + 28, h->data.frame_seq);
		put16(buf + 32, h->data.seg_size);
		buf[34] = h->data.pred;
		buf[35] = h->data.status_ask & HF_STATUS_EXT_MASK;
		put32(buf + 36, h->data.epoch);
		put32(buf + 40, h->data.echo);
		break;
	case HF_TYPE_ACK:
		put32(buf + 8, h->ack.cum_seq);
		put32(buf + 12, h->ack.credit);
		put32(buf + 16, h->ack.rate_kbps);
		put32(buf + 20, h->ack.msg_done);
		put64(buf + 24, h->ack.msg_status);
		buf[32] = h->ack.nsack;
		buf[33] = h->ack.nstatus_ext;
		put32(buf + 36, h->ack.epoch);
		put32(buf + 40, h->ack.rx_state);
		for (i = 0; i < h->ack.nsack; i++) {
			u8 *b = buf + HF_ACK_HLEN + i * HF_SACK_BLOCK_LEN;

			put32(b, h->ack.sack[i].start);
			put32(b + 4, h->ack.sack[i].end);
		}
		for (i = 0; i < h->ack.nstatus_ext; i++)
			put64(buf + HF_ACK_HLEN + h->ack.nsack * HF_SACK_BLOCK_LEN +
			      i * HF_STATUS_EXT_LEN, h->ack.status_ext[i]);
		break;
	}
	return hlen;
}

static enum hf_wire_err decode_data(const u8 *buf, size_t len,
				    struct hf_hdr *h)
{
	struct hf_data_hdr *d = &h->data;
	u32 index;

	if (len < HF_DATA_HLEN)
		return HF_WERR_SHORT;
	if (h->flags & ~HF_DF_ALL)
		return HF_WERR_FLAGS;

	d->seq = get32(buf + 8);
	d->msg_id = get32(buf + 12);
	d->msg_len = get32(buf + 16);
	d->offset = get32(buf + 20);
	d->seg_len = get16(buf + 24);
	d->frame_segs = get16(buf + 26);
	d->frame_seq = get32(buf + 28);
	d->seg_size = get16(buf + 32);
	/* Any value names a message; one below msg_done is resolved. */
	d->pred = buf[34];
	/* Byte 35's high bits are still reserved. */
	d->status_ask = buf[35] & HF_STATUS_EXT_MASK;
	d->epoch = get32(buf + 36);
	d->echo = get32(buf + 40);
	h->hlen = HF_DATA_HLEN;

	/* Ethernet may pad a short frame; it may never cut one. */
	if (d->seg_len > len - HF_DATA_HLEN)
		return HF_WERR_LENGTH;
	/*
	 * A message is cut at multiples of seg_size: every segment is full
	 * but the last, and only an empty message has an empty segment.
	 */
	if (!d->seg_size || d->seg_len > d->seg_size)
		return HF_WERR_LENGTH;
	if (!d->seg_len && d->msg_len)
		return HF_WERR_LENGTH;
	if (d->msg_len > HF_WIRE_MSG_MAX ||
	    (u64)d->offset + d->seg_len > d->msg_len ||
	    d->offset % d->seg_size)
		return HF_WERR_OFFSET;
	if (d->seg_len < d->seg_size && d->offset + d->seg_len != d->msg_len)
		return HF_WERR_LENGTH;

	index = d->seq - d->frame_seq;
	if (!d->frame_segs || index >= d->frame_segs)
		return HF_WERR_FRAME;
	if ((h->flags & HF_DF_FRAME_START) && index != 0)
		return HF_WERR_FRAME;
	/* A packed train's last segment ends it: hf_train_check(). */
	if ((h->flags & HF_DF_FRAME_END) && !(h->flags & HF_DF_PACKED) &&
	    index != d->frame_segs - 1U)
		return HF_WERR_FRAME;
	return HF_WERR_OK;
}

/* Whether a word of 2-bit outcomes holds HF_STATUS_RESERVED (both bits set). */
static bool hf_status_reserved(u64 word)
{
	return word & (word >> 1) & 0x5555555555555555ULL;
}

static enum hf_wire_err decode_ack(const u8 *buf, size_t len,
				   struct hf_hdr *h)
{
	struct hf_ack_hdr *a = &h->ack;
	u32 floor;
	unsigned int i;

	if (len < HF_ACK_HLEN)
		return HF_WERR_SHORT;
	if (h->flags & ~HF_AF_ALL)
		return HF_WERR_FLAGS;

	a->cum_seq = get32(buf + 8);
	a->credit = get32(buf + 12);
	a->rate_kbps = get32(buf + 16);
	a->msg_done = get32(buf + 20);
	a->msg_status = get64(buf + 24);
	a->nsack = buf[32];
	/* Byte 33's high bits and bytes 34, 35 are still reserved. */
	a->nstatus_ext = buf[33] & HF_STATUS_EXT_MASK;
	a->epoch = get32(buf + 36);
	a->rx_state = get32(buf + 40);
	if (hf_status_reserved(a->msg_status))
		return HF_WERR_STATUS;
	if (a->nsack > HF_SACK_MAX)
		return HF_WERR_SACK;
	h->hlen = HF_ACK_HLEN + a->nsack * HF_SACK_BLOCK_LEN +
		  a->nstatus_ext * HF_STATUS_EXT_LEN;
	if (len < h->hlen)
		return HF_WERR_SHORT;
	for (i = 0; i < a->nstatus_ext; i++) {
		a->status_ext[i] = get64(buf + HF_ACK_HLEN +
					 a->nsack * HF_SACK_BLOCK_LEN +
					 i * HF_STATUS_EXT_LEN);
		if (hf_status_reserved(a->status_ext[i]))
			return HF_WERR_STATUS;
	}

	/*
	 * Blocks lie above the cumulative ack (the segment at cum_seq is
	 * missing by definition), each non-empty and shorter than half the
	 * sequence space, and in ascending order without overlap.
	 */
	floor = a->cum_seq;
	for (i = 0; i < a->nsack; i++) {
		const u8 *b = buf + HF_ACK_HLEN + i * HF_SACK_BLOCK_LEN;
		struct hf_sack_block *s = &a->sack[i];

		s->start = get32(b);
		s->end = get32(b + 4);
		if (!hf_seq_after(s->start, floor) ||
		    !hf_seq_before(s->start, s->end) ||
		    hf_seq_before(s->end, floor))
			return HF_WERR_SACK;
		floor = s->end;
	}
	return HF_WERR_OK;
}

/**
 * hf_hdr_decode() - validate and decode the header at the start of a frame
 * @buf: frame bytes after the Ethernet header
 * @len: bytes available at @buf, Ethernet padding included
 * @h: decoded header; meaningful only when HF_WERR_OK is returned
 *
 * Does not verify the checksum: the caller sums the frame (header and
 * payload) with whatever its platform does fastest.
 *
 * Return: HF_WERR_OK, or the reason the frame must be dropped.
 */
enum hf_wire_err hf_hdr_decode(const u8 *buf, size_t len, struct hf_hdr *h)
{
	memset(h, 0, sizeof(*h));
	if (len < HF_COMMON_LEN)
		return HF_WERR_SHORT;

	h->version = buf[0] >> 4;
	h->type = buf[0] & 0x0f;
	h->flags = buf[1];
	h->sport = get16(buf + 2);
	h->dport = get16(buf + 4);
	h->csum = get16(buf + HF_CSUM_OFFSET);
	if (h->version != HF_WIRE_VERSION)
		return HF_WERR_VERSION;

	switch (h->type) {
	case HF_TYPE_DATA:
		return decode_data(buf, len, h);
	case HF_TYPE_ACK:
		return decode_ack(buf, len, h);
	}
	return HF_WERR_TYPE;
}

/**
 * hf_wire_err_name() - short name of a decode error, for counters and logs
 * @err: the error
 *
 * Return: a static string; "unknown" for values out of range.
 */
const char *hf_wire_err_name(enum hf_wire_err err)
{
	static const char *const names[HF_WERR_MAX] = {
		[HF_WERR_OK]		= "ok",
		[HF_WERR_SHORT]		= "short",
		[HF_WERR_VERSION]	= "version",
		[HF_WERR_TYPE]		= "type",
		[HF_WERR_FLAGS]		= "flags",
		[HF_WERR_LENGTH]	= "length",
		[HF_WERR_OFFSET]	= "offset",
		[HF_WERR_FRAME]		= "frame",
		[HF_WERR_SACK]		= "sack",
		[HF_WERR_STATUS]	= "status",
	};

	if ((unsigned int)err >= HF_WERR_MAX)
		return "unknown";
	return names[err];
}

/**
 * hf_csum_add() - add @len bytes to a running one's-complement sum
 * @sum: sum so far (0 to start)
 * @buf: bytes to add
 * @len: byte count; an odd count is padded with a zero byte, so only the
 *	 last chunk of a frame may be odd
 *
 * The reference RFC 1071 sum over 16-bit big-endian words. The module
 * computes the same value with the kernel's optimised csum helpers.
 *
 * Return: the new unfolded sum.
 */
u32 hf_csum_add(u32 sum, const u8 *buf, size_t len)
{
	u64 acc = sum;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		acc += get16(buf + i);
	if (len & 1)
		acc += (u32)buf[len - 1] << 8;
	while (acc >> 32)
		acc = (acc & 0xffffffff) + (acc >> 32);
	return (u32)acc;
}

/**
 * hf_csum_fold() - fold a running sum into the 16-bit checksum field value
 * @sum: unfolded sum
 *
 * Return: the one's complement of the folded sum, as stored on the wire.
 */
u16 hf_csum_fold(u32 sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (u16)~sum;
}
