/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_core.h - the portability shim of the protocol core.
 *
 * Files under kernel/core/ hold protocol logic with no kernel dependency:
 * they build into hyperframe.ko and, unchanged, into the userspace unit
 * tests and fuzzers. They include this header instead of kernel or libc
 * headers, and use only what it provides: fixed-width types, bool, size_t,
 * memcpy/memset and errno values.
 */
#ifndef _HF_CORE_H
#define _HF_CORE_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/string.h>
#include <linux/errno.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
#endif

/* Sequence numbers wrap at 2^32; these compare within half the space. */
static inline bool hf_seq_before(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

static inline bool hf_seq_after(u32 a, u32 b)
{
	return hf_seq_before(b, a);
}

#endif /* _HF_CORE_H */
