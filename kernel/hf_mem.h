/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_mem.h - the module-wide memory limit: every page of message data the
 * module holds, in every namespace, sending and receiving, counted against
 * three thresholds as udp_mem and tcp_mem are (hf_mem.c).
 */
#ifndef _HF_MEM_H
#define _HF_MEM_H

#include <linux/types.h>
#include <linux/mm.h>

/**
 * hf_mem_pages() - pages @bytes of message data are charged as
 * @bytes: bytes
 *
 * Return: @bytes in pages, rounded up.
 */
static inline unsigned long hf_mem_pages(u64 bytes)
{
	return (unsigned long)((bytes + PAGE_SIZE - 1) >> PAGE_SHIFT);
}

bool hf_mem_charge(unsigned long pages, bool alone);
void hf_mem_uncharge(unsigned long pages);
bool hf_mem_fits(unsigned long pages);
long hf_mem_allocated(void);
int hf_mem_wait(unsigned long pages, bool alone, long *timeo);
void __init hf_mem_init(void);

#endif /* _HF_MEM_H */
