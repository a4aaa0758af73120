// SPDX-License-Identifier: GPL-2.0
/*
 * hf_train.c - what a packed train stands for: how many segments, and
 * the header each would have had on its own.
 *
 * Design notes:
 * 1. The header is the first segment's, so seg_len is a full seg_size
 *    (a train holds two segments or more, and only a message's last is
 *    short), and the payload is everything after it: a packed train is
 *    longer than any frame Ethernet pads (HF_TRAIN_MIN_SEG_SIZE), so its
 *    length is its own, as the device that carried it reported it.
 * 2. Flags describe the train: FRAME_START that its first segment starts
 *    the hyperframe, FRAME_END that its last ends it, ACK_NOW that the
 *    sender wants an ACK for it. A repair (RETRANSMIT) is always sent
 *    alone, never packed.
 */
#include "hf_train.h"

/**
 * hf_train_check() - validate a decoded packed train against its length
 * @h: a DATA header that hf_hdr_decode() accepted, HF_DF_PACKED set
 * @payload: bytes after the header
 * @nsegs: the segments it holds, when it is valid
 *
 * Return: HF_WERR_OK, or why the train is malformed: HF_WERR_FLAGS for a
 * repair, HF_WERR_LENGTH when it does not hold at least two whole
 * segments of a stride of HF_TRAIN_MIN_SEG_SIZE or more, HF_WERR_OFFSET
 * when it runs past its message, HF_WERR_FRAME past its hyperframe or
 * when FRAME_END is set on a train that does not end it.
 */
enum hf_wire_err hf_train_check(const struct hf_hdr *h, u32 payload,
				u32 *nsegs)
{
	const struct hf_data_hdr *d = &h->data;
	u32 n, index;

	if (h->type != HF_TYPE_DATA || !(h->flags & HF_DF_PACKED))
		return HF_WERR_FLAGS;
	if (h->flags & HF_DF_RETRANSMIT)
		return HF_WERR_FLAGS;
	if (d->seg_size < HF_TRAIN_MIN_SEG_SIZE || d->seg_len != d->seg_size ||
	    payload <= d->seg_size)
		return HF_WERR_LENGTH;
	if ((u64)d->offset + payload > d->msg_len)
		return HF_WERR_OFFSET;
	/* Only the message's last segment is short. */
	if (payload % d->seg_size && d->offset + payload != d->msg_len)
		return HF_WERR_LENGTH;
	n = payload / d->seg_size + !!(payload % d->seg_size);
	index = d->seq - d->frame_seq;
	/* hf_hdr_decode() checked index < frame_segs. */
	if (n > d->frame_segs - index)
		return HF_WERR_FRAME;
	if ((h->flags & HF_DF_FRAME_END) && index + n != d->frame_segs)
		return HF_WERR_FRAME;
	*nsegs = n;
	return HF_WERR_OK;
}

/**
 * hf_train_seg() - the header segment @i of a packed train stands for
 * @h: the train's header, accepted by hf_train_check()
 * @payload: bytes after it
 * @i: the segment, below what hf_train_check() counted
 * @seg: its header, as it would have been sent alone (checksum 0)
 */
void hf_train_seg(const struct hf_hdr *h, u32 payload, u32 i,
		  struct hf_hdr *seg)
{
	u32 n = payload / h->data.seg_size + !!(payload % h->data.seg_size);
	u32 at = i * h->data.seg_size;

	*seg = *h;
	seg->csum = 0;
	seg->flags = 0;
	if (i == 0)
		seg->flags |= h->flags & HF_DF_FRAME_START;
	if (i == n - 1)
		seg->flags |= h->flags & (HF_DF_FRAME_END | HF_DF_ACK_NOW);
	seg->data.seq = h->data.seq + i;
	seg->data.offset = h->data.offset + at;
	seg->data.seg_len = payload - at < h->data.seg_size ?
			    payload - at : h->data.seg_size;
}
