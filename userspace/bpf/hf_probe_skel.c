// SPDX-License-Identifier: GPL-2.0
/*
 * bpf/hf_probe_skel.c - hf_probe_skel.h over the generated skeleton
 * (hf_probe.skel.h, from bpftool gen skeleton): open, configure, load,
 * attach, detach, destroy.
 */
#include "hf_probe_skel.h"

#include <errno.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "hf_probe.skel.h"

struct hf_probe *hf_probe_skel_load(const struct hf_probe_config *config, int *error)
{
	struct hf_probe *probe = hf_probe__open();
	int err;

	if (!probe) {
		*error = -errno;
		return NULL;
	}
	probe->rodata->cfg_ifindex = config->ifindex;
	probe->rodata->cfg_netns = config->netns;
	probe->rodata->cfg_ethertype = config->ethertype;
	probe->rodata->cfg_ipproto = config->ipproto;
	probe->rodata->cfg_port = config->port;
	probe->rodata->cfg_sport = config->sport;
	probe->rodata->cfg_dport = config->dport;
	probe->rodata->cfg_addr_len = config->addr_len;
	probe->rodata->cfg_has_src = config->has_src;
	probe->rodata->cfg_has_dst = config->has_dst;
	memcpy((void *)probe->rodata->cfg_src, config->src, sizeof(config->src));
	memcpy((void *)probe->rodata->cfg_dst, config->dst, sizeof(config->dst));
	probe->rodata->cfg_interval_ns = config->interval_ns;
	probe->rodata->cfg_slots = config->slots;
	if (!config->dequeue)
		bpf_program__set_autoload(probe->progs.hf_probe_qdisc, false);
	if (!config->enqueue)
		bpf_program__set_autoload(probe->progs.hf_probe_enqueue, false);
	err = hf_probe__load(probe);
	if (err) {
		hf_probe__destroy(probe);
		*error = err;
		return NULL;
	}
	return probe;
}

int hf_probe_skel_attach(struct hf_probe *probe)
{
	return hf_probe__attach(probe);
}

void hf_probe_skel_start(struct hf_probe *probe, __u64 now_ns)
{
	/* .bss is mmapped: the programs see it at their next event. */
	__atomic_store_n(&probe->bss->start_ns, now_ns, __ATOMIC_RELEASE);
}

void hf_probe_skel_detach(struct hf_probe *probe)
{
	hf_probe__detach(probe);
}

int hf_probe_skel_stats_fd(const struct hf_probe *probe)
{
	return bpf_map__fd(probe->maps.stats);
}

void hf_probe_skel_destroy(struct hf_probe *probe)
{
	hf_probe__destroy(probe);
}
