// SPDX-License-Identifier: GPL-2.0
/*
 * hf_gro.c - which received segments merge into a train (hf_gro.h). Plain
 * C, no kernel dependency: shared with the userspace unit tests.
 */
#include "hf_gro.h"

/*
 * A segment others may follow into a train: DATA that neither ends its
 * hyperframe nor is a repair (repairs come alone, where the losses were),
 * nor asks for an immediate ack (the sender waits on it: hold nothing).
 */
#define HF_GRO_ALONE	(HF_DF_FRAME_END | HF_DF_RETRANSMIT | HF_DF_ACK_NOW)

/**
 * hf_gro_holds() - whether GRO may hold a segment for others to follow
 * @seg: a decoded header
 *
 * Also tells, of a segment just appended to a train, whether the train
 * may wait for more: when it may not, it goes up at once.
 *
 * Return: true for DATA that another segment of its hyperframe may follow.
 */
bool hf_gro_holds(const struct hf_hdr *seg)
{
	return seg->type == HF_TYPE_DATA && !(seg->flags & HF_GRO_ALONE);
}

/**
 * hf_gro_follows() - whether a segment is the next one of a held train
 * @last: the train's last segment, one hf_gro_holds() accepted
 * @seg: a segment of the same peer flow, just arrived
 *
 * When it is not, the caller sends the train up before @seg, which keeps
 * the flow in order.
 *
 * Return: true when @seg is the DATA segment right after @last in the
 * same hyperframe of the same flow incarnation, sent for the first time.
 */
bool hf_gro_follows(const struct hf_hdr *last, const struct hf_hdr *seg)
{
	return seg->type == HF_TYPE_DATA && last->type == HF_TYPE_DATA &&
	       !(seg->flags & (HF_DF_FRAME_START | HF_DF_RETRANSMIT)) &&
	       seg->data.epoch == last->data.epoch &&
	       seg->data.frame_seq == last->data.frame_seq &&
	       seg->data.seq == last->data.seq + 1;
}
