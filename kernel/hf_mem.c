// SPDX-License-Identifier: GPL-2.0
/*
 * hf_mem.c - the module-wide memory limit: the pages of message data the
 * module holds in all namespaces together, sending (each message's copy,
 * from sendmsg() until its outcome is known) and receiving (each message's
 * reservation, from its admission until it is read or dropped).
 *
 * Design notes:
 * 1. Three thresholds in pages, the module parameter "mem", as udp_mem and
 *    tcp_mem: below the first nothing is limited; above the second (memory
 *    pressure) a socket may only take a message while it holds none, so
 *    every socket still makes progress, one message at a time; above the
 *    third nothing more is taken. Limits per socket (SO_SNDBUF, SO_RCVBUF)
 *    and per namespace (mem_limit) apply as well: this one bounds what
 *    many namespaces, or a user who may create them, hold together.
 * 2. The defaults follow udp_mem: with L an eighth of the pages the buffer
 *    allocator may use (nr_free_buffer_pages()), 3/4 L, L and 2 L: a
 *    quarter of memory at most, which a sender and a receiver on one host
 *    (the selftests' namespaces) each holding 64 MiB messages fit.
 * 3. Pages are charged before they are allocated (sendmsg() waits, or
 *    fails with ENOBUFS when it may not wait; a receiver refuses the
 *    message, which its sender sends again later) and uncharged when
 *    freed, in any context; a sender waiting for room is woken then.
 *    The allocations themselves are charged to the memory cgroup of the
 *    task that sends (GFP_KERNEL_ACCOUNT) or of the receiving socket.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/moduleparam.h>
#include <linux/sched/signal.h>
#include <linux/swap.h>
#include <linux/wait.h>
#include <net/sock.h>

#include "hf_mem.h"

static long hf_mem_limit[3];
static int hf_mem_nlimits;
module_param_array_named(mem, hf_mem_limit, long, &hf_mem_nlimits, 0644);
MODULE_PARM_DESC(mem, "pages of message data all namespaces may hold: none limited below the first, one message per socket above the second, nothing above the third (default from memory size, as udp_mem)");

static atomic_long_t hf_mem_used = ATOMIC_LONG_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(hf_mem_wq);

/**
 * hf_mem_charge() - take @pages of the module-wide limit
 * @pages: pages about to be allocated
 * @alone: the socket they are for holds no other message (it may take
 *	   one under memory pressure)
 *
 * Any context.
 *
 * Return: true when charged; false when the limit refuses them (nothing
 * is charged then).
 */
bool hf_mem_charge(unsigned long pages, bool alone)
{
	long used = atomic_long_add_return(pages, &hf_mem_used);

	if (used > READ_ONCE(hf_mem_limit[2]) ||
	    (used > READ_ONCE(hf_mem_limit[1]) && !alone)) {
		hf_mem_uncharge(pages);
		return false;
	}
	return true;
}

/**
 * hf_mem_uncharge() - give back @pages charged by hf_mem_charge()
 * @pages: pages freed
 *
 * Any context. Wakes the senders waiting for room (hf_mem_wait()).
 */
void hf_mem_uncharge(unsigned long pages)
{
	atomic_long_sub(pages, &hf_mem_used);
	if (wq_has_sleeper(&hf_mem_wq))
		wake_up_all(&hf_mem_wq);
}

/**
 * hf_mem_fits() - whether @pages could ever be charged
 * @pages: pages of one message
 *
 * Return: false when they exceed the limit even with nothing else held.
 */
bool hf_mem_fits(unsigned long pages)
{
	return pages <= (unsigned long)READ_ONCE(hf_mem_limit[2]);
}

/**
 * hf_mem_allocated() - pages charged now, all namespaces together
 *
 * Return: the count.
 */
long hf_mem_allocated(void)
{
	return atomic_long_read(&hf_mem_used);
}

/**
 * hf_mem_wait() - charge @pages, waiting for room up to *@timeo jiffies
 * @pages: pages about to be allocated
 * @alone: as for hf_mem_charge()
 * @timeo: the time left to wait; updated
 *
 * Process context, no spinlock held (it sleeps).
 *
 * Return: 0 when charged; -ENOBUFS when no time was left; a signal's
 * errno (sock_intr_errno()) when interrupted.
 */
int hf_mem_wait(unsigned long pages, bool alone, long *timeo)
{
	long left;

	might_sleep();
	if (hf_mem_charge(pages, alone))
		return 0;
	if (!*timeo)
		return -ENOBUFS;
	left = wait_event_interruptible_timeout(hf_mem_wq,
						hf_mem_charge(pages, alone),
						*timeo);
	if (left > 0) {
		*timeo = left;
		return 0;
	}
	if (!left) {
		*timeo = 0;
		return -ENOBUFS;
	}
	return sock_intr_errno(*timeo);
}

/**
 * hf_mem_init() - the default thresholds, unless the "mem" parameter
 * gave all three
 *
 * Process context, module init.
 */
void __init hf_mem_init(void)
{
	unsigned long limit = max(nr_free_buffer_pages() / 8, 128UL);

	if (hf_mem_nlimits == 3 && hf_mem_limit[0] <= hf_mem_limit[1] &&
	    hf_mem_limit[1] <= hf_mem_limit[2] && hf_mem_limit[0] > 0)
		return;
	if (hf_mem_nlimits)
		pr_warn("mem needs three growing page counts; using the defaults\n");
	hf_mem_limit[0] = limit / 4 * 3;
	hf_mem_limit[1] = limit;
	hf_mem_limit[2] = 2 * limit;
	hf_mem_nlimits = 3;
}
