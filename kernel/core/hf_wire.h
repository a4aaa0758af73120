/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_wire.h - the hyperframe wire header: layout, decoded form, encoder,
 * and the validating decoder every received frame goes through.
 *
 * docs/wire-format.md is the reference for the layout; this file and that
 * document change together. Everything on the wire is big-endian. The
 * decoder trusts nothing: it returns the reason a frame is malformed so
 * the receive path can drop it and count that reason.
 */
#ifndef _HF_WIRE_H
#define _HF_WIRE_H

#include "hf_core.h"

#define HF_WIRE_VERSION		5

/* Frame types (low nibble of byte 0). Others are malformed. */
enum hf_type {
	HF_TYPE_DATA	= 1,	/* one wire segment of a message */
	HF_TYPE_ACK	= 2,	/* acks, message outcomes, credit, rate */
};

/* Header lengths; an ACK adds 8 bytes per SACK block. */
#define HF_COMMON_LEN		8
#define HF_DATA_HLEN		44
#define HF_ACK_HLEN		44
#define HF_SACK_BLOCK_LEN	8
#define HF_SACK_MAX		16
#define HF_STATUS_EXT_LEN	8	/* an outcome word after the SACK blocks */
#define HF_STATUS_EXT_MAX	3
/* ACK byte 33's bits for nstatus_ext, DATA byte 35's for status_ask */
#define HF_STATUS_EXT_MASK	0x03
#define HF_HLEN_MAX		(HF_ACK_HLEN + HF_SACK_MAX * HF_SACK_BLOCK_LEN + \
				 HF_STATUS_EXT_MAX * HF_STATUS_EXT_LEN)

/* DATA flags. */
#define HF_DF_FRAME_START	0x01	/* first segment of a hyperframe */
#define HF_DF_FRAME_END		0x02	/* last segment of a hyperframe */
#define HF_DF_RETRANSMIT	0x04	/* sent again after a loss */
#define HF_DF_ACK_NOW		0x08	/* sender asks for an immediate ack */
#define HF_DF_PACKED		0x10	/* a packed train of segments (hf_train.h) */
#define HF_DF_ALL		0x1f

/* ACK flags. */
#define HF_AF_ECHO		0x01	/* answers an HF_DF_ACK_NOW */
#define HF_AF_WINDOW		0x02	/* room again: resend what was refused */
#define HF_AF_DUP		0x04	/* answers a segment that arrived twice */
#define HF_AF_CLOSED		0x08	/* window closed: send nothing new */
#define HF_AF_CHALLENGE		0x10	/* prove this epoch: echo rx_state */
#define HF_AF_LOST		0x20	/* no state for this epoch (cum_seq names the segment) */
#define HF_AF_ALL		0x3f

/*
 * Outcome of a message at the receiver, two bits each in an ACK's
 * msg_status for the HF_STATUS_WINDOW messages below msg_done, and in its
 * status_ext words for HF_STATUS_WINDOW more each. A sender never has
 * more messages unresolved towards one peer than the outcomes an ACK
 * carries, so it always learns each outcome (see docs/wire-format.md).
 */
enum hf_msg_status {
	HF_STATUS_DELIVERED	= 0,	/* queued to the receiving socket */
	HF_STATUS_NO_PORT	= 1,	/* no socket bound at the port */
	HF_STATUS_TOO_BIG	= 2,	/* above the receiver's message limit */
	HF_STATUS_RESERVED	= 3,	/* malformed */
};

#define HF_STATUS_WINDOW	32
/* The most outcomes an ACK carries: msg_status and every status_ext word. */
#define HF_STATUS_WINDOW_MAX	(HF_STATUS_WINDOW * (1 + HF_STATUS_EXT_MAX))

/* Largest message length the wire can describe (the socket limit is lower). */
#define HF_WIRE_MSG_MAX		(1U << 30)

/* Why the decoder refused a frame; receive counters are indexed by it. */
enum hf_wire_err {
	HF_WERR_OK = 0,
	HF_WERR_SHORT,		/* shorter than its header */
	HF_WERR_VERSION,	/* unknown version */
	HF_WERR_TYPE,		/* unknown type */
	HF_WERR_FLAGS,		/* flag bits undefined for the type */
	HF_WERR_LENGTH,		/* segment length disagrees with the frame */
	HF_WERR_OFFSET,		/* segment outside its message */
	HF_WERR_FRAME,		/* segment outside its hyperframe */
	HF_WERR_SACK,		/* too many or inverted SACK blocks */
	HF_WERR_STATUS,		/* a reserved message outcome */
	HF_WERR_MAX,
};

struct hf_sack_block {
	u32 start;		/* first sequence number received */
	u32 end;		/* one past the last */
};

struct hf_data_hdr {
	u32 seq;		/* peer-flow sequence number of this segment */
	u32 msg_id;		/* message, numbered in its flow as it starts */
	u32 msg_len;		/* whole message length in bytes */
	u32 offset;		/* where this payload goes in the message */
	u16 seg_len;		/* payload bytes in this segment */
	u16 frame_segs;		/* segments in this hyperframe */
	u32 frame_seq;		/* sequence number of the frame's first segment */
	u16 seg_size;		/* the message's segment stride */
	u8 pred;		/* back to the message it follows (same ports) */
	u8 status_ask;		/* status_ext words its ACKs may carry */
	u32 epoch;		/* incarnation of the sender's peer flow */
	u32 echo;		/* the receiver's rx_state as the sender knows it */
};

struct hf_ack_hdr {
	u32 cum_seq;		/* every segment before this one arrived */
	u32 credit;		/* byte credit limit, low 32 bits (hf_credit.h) */
	u32 rate_kbps;		/* receiver's rate hint, 0 = none */
	u32 msg_done;		/* every message before this one is resolved */
	u64 msg_status;		/* 2 bits per message msg_done - 1 - i */
	u32 epoch;		/* the flow incarnation this ack is about */
	u32 rx_state;		/* the receiver's state for it, echoed in DATA */
	u8 nsack;
	u8 nstatus_ext;		/* status_ext words after the SACK blocks */
	struct hf_sack_block sack[HF_SACK_MAX];
	/* word j: 2 bits per message msg_done - 33 - 32 j - i */
	u64 status_ext[HF_STATUS_EXT_MAX];
};

/* A decoded header, in host byte order. */
struct hf_hdr {
	u8 version;
	u8 type;		/* enum hf_type */
	u8 flags;
	u16 sport;
	u16 dport;
	u16 csum;
	u16 hlen;		/* bytes of header on the wire */
	union {
		struct hf_data_hdr data;
		struct hf_ack_hdr ack;
	};
};

/* Offset of the checksum field, which the checksum covers as zero. */
#define HF_CSUM_OFFSET		6

u16 hf_hdr_len(const struct hf_hdr *h);
int hf_hdr_encode(const struct hf_hdr *h, u8 *buf, size_t cap);
enum hf_wire_err hf_hdr_decode(const u8 *buf, size_t len, struct hf_hdr *h);
const char *hf_wire_err_name(enum hf_wire_err err);

/**
 * hf_ack_status() - outcome of message @msg_id as an ACK reports it
 * @a: a decoded ACK
 * @msg_id: a message before @a->msg_done
 *
 * Return: the enum hf_msg_status value; HF_STATUS_RESERVED for a message
 * further below @a->msg_done than the ACK reports (hf_ack_status_span()).
 */
static inline unsigned int hf_ack_status(const struct hf_ack_hdr *a,
					 u32 msg_id)
{
	u32 i = a->msg_done - 1 - msg_id;
	u64 word;

	if (i < HF_STATUS_WINDOW) {
		word = a->msg_status;
	} else {
		i -= HF_STATUS_WINDOW;
		if (i / HF_STATUS_WINDOW >= a->nstatus_ext)
			return HF_STATUS_RESERVED;
		word = a->status_ext[i / HF_STATUS_WINDOW];
		i %= HF_STATUS_WINDOW;
	}
	return (word >> (2 * i)) & 3;
}

/**
 * hf_status_ext_of() - the outcome words a status window needs
 * @window: messages unresolved at once, HF_STATUS_WINDOW..HF_STATUS_WINDOW_MAX
 *
 * Return: the status_ext words beyond msg_status, 0..HF_STATUS_EXT_MAX.
 */
static inline u8 hf_status_ext_of(u32 window)
{
	u32 words = (window + HF_STATUS_WINDOW - 1) / HF_STATUS_WINDOW;

	if (words <= 1)
		return 0;
	return words - 1 < HF_STATUS_EXT_MAX ? words - 1 : HF_STATUS_EXT_MAX;
}

/**
 * hf_status_span() - the outcomes msg_status and @ext words carry
 * @ext: status_ext words, 0..HF_STATUS_EXT_MAX
 *
 * Return: HF_STATUS_WINDOW for msg_status, and as many more per word.
 */
static inline u32 hf_status_span(u8 ext)
{
	return HF_STATUS_WINDOW * (1 + ext);
}

/**
 * hf_ack_status_span() - how many messages below msg_done an ACK reports
 * @a: a decoded ACK
 *
 * Return: HF_STATUS_WINDOW for msg_status, and as many more per
 * status_ext word.
 */
static inline u32 hf_ack_status_span(const struct hf_ack_hdr *a)
{
	return hf_status_span(a->nstatus_ext);
}

u32 hf_csum_add(u32 sum, const u8 *buf, size_t len);
u16 hf_csum_fold(u32 sum);

#endif /* _HF_WIRE_H */
