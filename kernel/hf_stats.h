/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_stats.h - the per-namespace counters: what was sent, received,
 * retransmitted and dropped (by reason). 64-bit, never reset. Shown in
 * /proc/net/hyperframe (hf_proc.c); the generic netlink family exposes
 * the same table.
 */
#ifndef _HF_STATS_H
#define _HF_STATS_H

#include <linux/atomic.h>
#include <linux/hyperframe.h>
#include <linux/percpu.h>
#include <linux/string.h>

#include "core/hf_hist.h"
#include "core/hf_wire.h"

#define HF_STAT_ENUM(e, name, help)	HF_STAT_##e,

/* The namespace counters, one per line of HF_COUNTERS() (the uapi). */
enum hf_stat {
	HF_COUNTERS(HF_STAT_ENUM)
	HF_STAT_MAX
};

/**
 * struct hf_stats_pcpu - one CPU's share of a namespace's counters
 * @v: one counter per enum hf_stat
 * @malformed: failed decodes, by enum hf_wire_err
 * @frame_size: hyperframes sent, by payload size (hf_hist.h log2 buckets,
 *		not cumulative); they sum to HF_STAT_TX_FRAMES
 * @frame_size_sum: payload bytes of those hyperframes
 */
struct hf_stats_pcpu {
	u64 v[HF_STAT_MAX];
	u64 malformed[HF_WERR_MAX];
	u64 frame_size[HF_FRAME_SIZE_BUCKETS];
	u64 frame_size_sum;
};

/**
 * struct hf_stats - the counters of one namespace: per CPU, as the
 * kernel's SNMP counters, since the data path bumps them for every
 * segment; a reader sums the CPUs' shares (hf_stat_read())
 * @pcpu: the CPUs' shares, from namespace creation to its end
 */
struct hf_stats {
	struct hf_stats_pcpu __percpu *pcpu;
};

/**
 * hf_stat_add() - add to a namespace counter
 * @s: the namespace's counters
 * @i: the counter
 * @n: what to add
 *
 * Any context.
 */
static inline void hf_stat_add(struct hf_stats *s, enum hf_stat i, u64 n)
{
	this_cpu_add(s->pcpu->v[i], n);
}

/**
 * hf_stat_inc() - count one in a namespace counter
 * @s: the namespace's counters
 * @i: the counter
 *
 * Any context.
 */
static inline void hf_stat_inc(struct hf_stats *s, enum hf_stat i)
{
	this_cpu_inc(s->pcpu->v[i]);
}

/**
 * hf_stat_malformed() - count a frame that failed to decode
 * @s: the namespace's counters
 * @err: why (HF_STAT_DROP_MALFORMED is counted apart)
 *
 * Any context.
 */
static inline void hf_stat_malformed(struct hf_stats *s, enum hf_wire_err err)
{
	this_cpu_inc(s->pcpu->malformed[err]);
}

/**
 * hf_stat_frame() - count a hyperframe sent: HF_STAT_TX_FRAMES and the
 * size histogram
 * @s: the namespace's counters
 * @bytes: payload bytes of the hyperframe
 */
static inline void hf_stat_frame(struct hf_stats *s, u64 bytes)
{
	u32 b = hf_hist_log2_bucket(bytes, HF_FRAME_SIZE_MIN_SHIFT,
				    HF_FRAME_SIZE_BUCKETS);

	this_cpu_inc(s->pcpu->v[HF_STAT_TX_FRAMES]);
	this_cpu_inc(s->pcpu->frame_size[b]);
	this_cpu_add(s->pcpu->frame_size_sum, bytes);
}

/**
 * hf_stat_sum() - the sum of the CPUs' shares of one counter
 * @s: the namespace's counters
 * @off: the counter's offset in struct hf_stats_pcpu
 *
 * Any context; read without stopping the writers: each share is a word
 * read whole on the 64-bit machines the module builds for.
 *
 * Return: the sum.
 */
static inline u64 hf_stat_sum(const struct hf_stats *s, size_t off)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(*(u64 *)((char *)per_cpu_ptr(s->pcpu, cpu) + off));
	return sum;
}

/* One namespace counter, a malformed-frame reason, a histogram bucket. */
#define HF_STAT_V(i)		(offsetof(struct hf_stats_pcpu, v) + (i) * sizeof(u64))
#define HF_STAT_MALFORMED(i)	(offsetof(struct hf_stats_pcpu, malformed) + \
				 (i) * sizeof(u64))
#define HF_STAT_FRAME_SIZE(i)	(offsetof(struct hf_stats_pcpu, frame_size) + \
				 (i) * sizeof(u64))
#define HF_STAT_FRAME_SIZE_SUM	offsetof(struct hf_stats_pcpu, frame_size_sum)

int hf_stats_init(struct hf_stats *s);
void hf_stats_free(struct hf_stats *s);

extern const char *const hf_stat_names[HF_STAT_MAX];

/* The counters of one device (hf_dev.c), a subset of the namespace's. */
enum hf_dev_stat {
	HF_DEV_STAT_TX_FRAMES,		/* hyperframes sent */
	HF_DEV_STAT_TX_SEGS,		/* DATA segments sent, first time */
	HF_DEV_STAT_TX_BYTES,		/* their payload bytes */
	HF_DEV_STAT_TX_RETRANSMITS,	/* DATA segments sent again */
	HF_DEV_STAT_RX_FRAMES,		/* accepted segments starting a frame */
	HF_DEV_STAT_RX_SEGS,		/* DATA segments accepted */
	HF_DEV_STAT_RX_BYTES,		/* their payload bytes */
	HF_DEV_STAT_DROPS,		/* frames counted in a drop_* counter */
	HF_DEV_STAT_MAX
};

/* Devices of a namespace with counters of their own; the rest share one. */
#define HF_DEV_SLOTS	64

/**
 * struct hf_dev_stats_pcpu - one CPU's share of a device's counters
 * @v: one counter per enum hf_dev_stat
 */
struct hf_dev_stats_pcpu {
	u64 v[HF_DEV_STAT_MAX];
};

/**
 * struct hf_dev_stats - the counters of one device of a namespace
 * @ifindex: the device; 0: the slot is free
 * @gone: the device was unregistered; the slot is freed with its last user
 * @users: peers counting here (hf_net.devs_lock)
 * @tx_senders: of those, the peers with data to send or in flight: the
 *		sending side's link share is the device's hfq rate divided
 *		among them (hf_pacing.c)
 * @pcpu: the CPUs' shares of the counters, as the namespace's (struct
 *	  hf_stats), from the slot's first use to the namespace's end; a
 *	  reader sums them (hf_dev_stats_read()), a slot taken clears them
 */
struct hf_dev_stats {
	int ifindex;
	bool gone;
	u32 users;
	atomic_t tx_senders;
	struct hf_dev_stats_pcpu __percpu *pcpu;
};

/**
 * hf_dev_stat_add() - add to a device counter
 * @d: the device's counters
 * @i: the counter
 * @n: what to add
 *
 * Any context.
 */
static inline void hf_dev_stat_add(struct hf_dev_stats *d,
				   enum hf_dev_stat i, u64 n)
{
	this_cpu_add(d->pcpu->v[i], n);
}

/**
 * hf_dev_stat_inc() - count one in a device counter
 * @d: the device's counters
 * @i: the counter
 *
 * Any context.
 */
static inline void hf_dev_stat_inc(struct hf_dev_stats *d,
				   enum hf_dev_stat i)
{
	this_cpu_inc(d->pcpu->v[i]);
}

/**
 * hf_dev_stats_read() - the sums of the CPUs' shares of a device's counters
 * @d: the device's counters
 * @v: filled with one sum per enum hf_dev_stat
 *
 * Any context; read without stopping the writers, as hf_stat_sum().
 *
 * Return: whether any of them is not 0.
 */
static inline bool hf_dev_stats_read(const struct hf_dev_stats *d, u64 *v)
{
	const struct hf_dev_stats_pcpu *c;
	bool any = false;
	unsigned int i;
	int cpu;

	memset(v, 0, HF_DEV_STAT_MAX * sizeof(*v));
	for_each_possible_cpu(cpu) {
		c = per_cpu_ptr(d->pcpu, cpu);
		for (i = 0; i < HF_DEV_STAT_MAX; i++)
			v[i] += READ_ONCE(c->v[i]);
	}
	for (i = 0; i < HF_DEV_STAT_MAX; i++)
		any |= v[i] != 0;
	return any;
}

extern const char *const hf_dev_stat_names[HF_DEV_STAT_MAX];

#endif /* _HF_STATS_H */
