/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_bitmap.h - ring bitmaps over caller-supplied u64 words: the storage
 * under the receive window (hf_rxwin.c) and the send scoreboard
 * (hf_txwin.c).
 *
 * A ring of @nbits bits (a power of two between HF_BM_MIN_BITS and
 * HF_BM_MAX_BITS) maps a u32 position p to bit (p & (nbits - 1)). Because
 * nbits divides 2^32, sequence numbers index the ring directly and wrap
 * with it. Searches and range updates take a start position and a length,
 * work a word at a time, and never look past the length they are given.
 *
 * Design notes:
 * 1. Every helper that reads words takes a scan counter and adds one per
 *    word it loads. The windows keep the counter in their state: it is how
 *    the unit tests prove that the work per segment is bounded, and it
 *    costs one add per word.
 * 2. __builtin_ctzll in both builds: GCC and clang expand it inline (bsf
 *    or tzcnt on x86) without a library call. The population count is
 *    written out instead of using __builtin_popcountll, which without
 *    -mpopcnt becomes a call to libgcc's __popcountdi2, a symbol a module
 *    cannot link against.
 * 3. Lengths are at most nbits and positions are u32: callers pass
 *    sequence numbers unchanged and let the mask do the wrapping.
 */
#ifndef _HF_BITMAP_H
#define _HF_BITMAP_H

#include "hf_core.h"

#define HF_BM_WORD_BITS		64U
#define HF_BM_MIN_BITS		HF_BM_WORD_BITS
/* Sequence comparisons need windows well inside half the u32 space. */
#define HF_BM_MAX_BITS		(1U << 30)

/**
 * hf_bm_valid_size() - whether @nbits can size a ring
 * @nbits: proposed ring size in bits
 *
 * Return: true for a power of two in [HF_BM_MIN_BITS, HF_BM_MAX_BITS].
 */
static inline bool hf_bm_valid_size(u32 nbits)
{
	return nbits >= HF_BM_MIN_BITS && nbits <= HF_BM_MAX_BITS &&
	       !(nbits & (nbits - 1));
}

/**
 * hf_bm_words() - u64 words a ring of @nbits bits occupies
 * @nbits: ring size, valid per hf_bm_valid_size()
 *
 * Return: the word count the caller must allocate.
 */
static inline u32 hf_bm_words(u32 nbits)
{
	return nbits / HF_BM_WORD_BITS;
}

/**
 * hf_bm_low() - mask of the low @n bits of a word
 * @n: bit count, 0 to 64
 *
 * Return: the mask; all ones for 64 (a shift by 64 is undefined).
 */
static inline u64 hf_bm_low(u32 n)
{
	return n >= HF_BM_WORD_BITS ? ~(u64)0 : ((u64)1 << n) - 1;
}

/**
 * hf_bm_ctz() - index of the lowest set bit of @w
 * @w: a non-zero word
 *
 * Return: 0 to 63.
 */
static inline u32 hf_bm_ctz(u64 w)
{
	return (u32)__builtin_ctzll(w);
}

/**
 * hf_bm_weight() - number of set bits in @w
 * @w: any word
 *
 * Return: 0 to 64.
 */
static inline u32 hf_bm_weight(u64 w)
{
	w -= (w >> 1) & 0x5555555555555555ULL;
	w = (w & 0x3333333333333333ULL) + ((w >> 2) & 0x3333333333333333ULL);
	w = (w + (w >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (u32)((w * 0x0101010101010101ULL) >> 56);
}

/**
 * hf_bm_set() - set the bit at position @pos
 * @words: the ring, caller storage of hf_bm_words(@nbits) words
 * @nbits: ring size
 * @pos: position, wrapped by the ring
 */
static inline void hf_bm_set(u64 *words, u32 nbits, u32 pos)
{
	u32 i = pos & (nbits - 1);

	words[i / HF_BM_WORD_BITS] |= (u64)1 << (i % HF_BM_WORD_BITS);
}

/**
 * hf_bm_clear() - clear the bit at position @pos
 * @words: the ring
 * @nbits: ring size
 * @pos: position, wrapped by the ring
 */
static inline void hf_bm_clear(u64 *words, u32 nbits, u32 pos)
{
	u32 i = pos & (nbits - 1);

	words[i / HF_BM_WORD_BITS] &= ~((u64)1 << (i % HF_BM_WORD_BITS));
}

/**
 * hf_bm_test() - read the bit at position @pos
 * @words: the ring
 * @nbits: ring size
 * @pos: position, wrapped by the ring
 *
 * Return: true when the bit is set.
 */
static inline bool hf_bm_test(const u64 *words, u32 nbits, u32 pos)
{
	u32 i = pos & (nbits - 1);

	return (words[i / HF_BM_WORD_BITS] >> (i % HF_BM_WORD_BITS)) & 1;
}

/**
 * hf_bm_load() - the bits from @pos to the end of its word, as one value
 * @words: the ring
 * @nbits: ring size
 * @pos: first position wanted
 * @len: positions wanted, at least 1
 * @span: set to the positions returned: @len or the bits left in the word
 *	  holding @pos, whichever is smaller
 * @scan: word-load counter, incremented once
 *
 * Return: bit i is the bit at @pos + i for i < *@span; higher bits are 0.
 */
static inline u64 hf_bm_load(const u64 *words, u32 nbits, u32 pos, u32 len,
			     u32 *span, u64 *scan)
{
	u32 i = pos & (nbits - 1);
	u32 off = i % HF_BM_WORD_BITS;
	u32 n = HF_BM_WORD_BITS - off;

	if (n > len)
		n = len;
	*span = n;
	(*scan)++;
	return (words[i / HF_BM_WORD_BITS] >> off) & hf_bm_low(n);
}

/**
 * hf_bm_find() - distance to the first set (or clear) bit from @pos
 * @words: the ring
 * @nbits: ring size
 * @pos: where the search starts
 * @len: positions to search, at most @nbits
 * @set: search for a set bit when true, a clear bit when false
 * @scan: word-load counter
 *
 * Return: the offset from @pos of the first match, or @len for none.
 */
static inline u32 hf_bm_find(const u64 *words, u32 nbits, u32 pos, u32 len,
			     bool set, u64 *scan)
{
	u32 done = 0;
	u32 span;
	u64 w;

	while (done < len) {
		w = hf_bm_load(words, nbits, pos + done, len - done, &span,
			       scan);
		if (!set)
			w = ~w & hf_bm_low(span);
		if (w)
			return done + hf_bm_ctz(w);
		done += span;
	}
	return len;
}

/**
 * hf_bm_next_set() - distance to the first set bit at or after @pos
 * @words: the ring
 * @nbits: ring size
 * @pos: where the search starts
 * @len: positions to search, at most @nbits
 * @scan: word-load counter
 *
 * Return: the offset from @pos of the first set bit, or @len for none.
 */
static inline u32 hf_bm_next_set(const u64 *words, u32 nbits, u32 pos,
				 u32 len, u64 *scan)
{
	return hf_bm_find(words, nbits, pos, len, true, scan);
}

/**
 * hf_bm_next_zero() - distance to the first clear bit at or after @pos
 * @words: the ring
 * @nbits: ring size
 * @pos: where the search starts
 * @len: positions to search, at most @nbits
 * @scan: word-load counter
 *
 * Return: the offset from @pos of the first clear bit, or @len for none.
 */
static inline u32 hf_bm_next_zero(const u64 *words, u32 nbits, u32 pos,
				  u32 len, u64 *scan)
{
	return hf_bm_find(words, nbits, pos, len, false, scan);
}

/**
 * hf_bm_update() - set or clear the bits at [@pos, @pos + @len)
 * @words: the ring
 * @nbits: ring size
 * @pos: first position
 * @len: positions to change, at most @nbits
 * @set: set the bits when true, clear them when false
 * @scan: word-load counter
 *
 * Return: how many bits changed value.
 */
static inline u32 hf_bm_update(u64 *words, u32 nbits, u32 pos, u32 len,
			       bool set, u64 *scan)
{
	u32 changed = 0;
	u32 i, off, n;
	u64 *w;
	u64 m;

	while (len) {
		i = pos & (nbits - 1);
		off = i % HF_BM_WORD_BITS;
		n = HF_BM_WORD_BITS - off;
		if (n > len)
			n = len;
		m = hf_bm_low(n) << off;
		w = &words[i / HF_BM_WORD_BITS];
		(*scan)++;
		if (set) {
			changed += hf_bm_weight(m & ~*w);
			*w |= m;
		} else {
			changed += hf_bm_weight(m & *w);
			*w &= ~m;
		}
		pos += n;
		len -= n;
	}
	return changed;
}

/**
 * hf_bm_set_range() - set the bits at [@pos, @pos + @len)
 * @words: the ring
 * @nbits: ring size
 * @pos: first position
 * @len: positions to set, at most @nbits
 * @scan: word-load counter
 *
 * Return: how many of them were clear before.
 */
static inline u32 hf_bm_set_range(u64 *words, u32 nbits, u32 pos, u32 len,
				  u64 *scan)
{
	return hf_bm_update(words, nbits, pos, len, true, scan);
}

/**
 * hf_bm_clear_range() - clear the bits at [@pos, @pos + @len)
 * @words: the ring
 * @nbits: ring size
 * @pos: first position
 * @len: positions to clear, at most @nbits
 * @scan: word-load counter
 *
 * Return: how many of them were set before.
 */
static inline u32 hf_bm_clear_range(u64 *words, u32 nbits, u32 pos, u32 len,
				    u64 *scan)
{
	return hf_bm_update(words, nbits, pos, len, false, scan);
}

/**
 * hf_bm_take_run() - clear the run of set bits that starts at @pos
 * @words: the ring
 * @nbits: ring size
 * @pos: first position of the run
 * @len: longest run to take, at most @nbits
 * @scan: word-load counter
 *
 * Finds and clears the run in one pass, a word at a time.
 *
 * Return: the run length (0 when the bit at @pos is clear), at most @len.
 */
static inline u32 hf_bm_take_run(u64 *words, u32 nbits, u32 pos, u32 len,
				 u64 *scan)
{
	u32 done = 0;
	u32 i, off, n, run;
	u64 ones;
	u64 *w;

	while (done < len) {
		i = (pos + done) & (nbits - 1);
		off = i % HF_BM_WORD_BITS;
		n = HF_BM_WORD_BITS - off;
		if (n > len - done)
			n = len - done;
		w = &words[i / HF_BM_WORD_BITS];
		(*scan)++;
		ones = (*w >> off) & hf_bm_low(n);
		run = ones == hf_bm_low(n) ? n : hf_bm_ctz(~ones);
		*w &= ~(hf_bm_low(run) << off);
		done += run;
		if (run < n)
			break;
	}
	return done;
}

#endif /* _HF_BITMAP_H */
