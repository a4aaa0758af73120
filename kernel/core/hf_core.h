/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_core.h - the portability shim of the protocol core.
 *
 * Files under kernel/core/ hold protocol logic with no kernel dependency:
 * they build into hyperframe.ko and, unchanged, into the userspace unit
 * tests and fuzzers. They include this header instead of kernel or libc
 * headers, and use only what it provides: fixed-width types, bool, size_t,
 * memcpy/memset, errno values and hf_mul_div64().
 */
#ifndef _HF_CORE_H
#define _HF_CORE_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/string.h>
#include <linux/errno.h>
#include <linux/math64.h>

/* a * b / c without overflowing in the product; c > 0. */
static inline u64 hf_mul_div64(u64 a, u64 b, u64 c)
{
	return mul_u64_u64_div_u64(a, b, c);
}
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

static inline u64 hf_mul_div64(u64 a, u64 b, u64 c)
{
	return (u64)((__uint128_t)a * b / c);
}
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
