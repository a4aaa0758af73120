/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_gro.h - which received DATA segments GRO puts back together into one
 * train before the packet handler sees them, decided on their headers.
 *
 * A train is consecutive segments of one hyperframe (hf_offload.c). A
 * device that cannot carry trains has them cut into segments on the way
 * out; on the way in, GRO holds a segment that others of its hyperframe
 * may follow and appends each that does, so the stack above GRO takes
 * the hyperframe as one skb again. The caller has already matched the
 * link-layer headers, device and VLAN: a held segment and a new one come
 * from the same peer flow (one per device and pair of addresses).
 *
 * Nothing here is trusted: GRO runs before any checksum is verified. A
 * corrupt header can only make a train that should not be, whose segments
 * the packet handler then checks one by one as if they had come alone.
 */
#ifndef _HF_GRO_H
#define _HF_GRO_H

#include "hf_core.h"
#include "hf_wire.h"

bool hf_gro_holds(const struct hf_hdr *seg);
bool hf_gro_follows(const struct hf_hdr *last, const struct hf_hdr *seg);

#endif /* _HF_GRO_H */
