/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_train.h - packed trains: consecutive DATA segments of one hyperframe
 * carried as one header and their payloads back to back.
 *
 * A packed train is what a sender hands its device when the device takes
 * trains whole (veth, a bridge, loopback): the header of the train's
 * first segment with HF_DF_PACKED set, then the payload of every segment
 * in order. The headers of the others are implied by the first and by the
 * frame's length, so nothing in the train says how many segments it holds
 * but that length; a device that cannot carry the train has it cut into
 * the segments it stands for, each with its own header
 * (docs/wire-format.md, "Packed trains"). Decoding trusts nothing: a
 * train that does not describe whole segments of its message and frame
 * is malformed.
 */
#ifndef _HF_TRAIN_H
#define _HF_TRAIN_H

#include "hf_core.h"
#include "hf_wire.h"

/* The least segment stride of a packed train: see hf_train_check(). */
#define HF_TRAIN_MIN_SEG_SIZE	64

enum hf_wire_err hf_train_check(const struct hf_hdr *h, u32 payload,
				u32 *nsegs);
void hf_train_seg(const struct hf_hdr *h, u32 payload, u32 i,
		  struct hf_hdr *seg);

#endif /* _HF_TRAIN_H */
