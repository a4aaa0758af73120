// SPDX-License-Identifier: GPL-2.0
/*
 * bpf/hf_trace_skel.c - hf_trace_skel.h over the generated skeleton
 * (hf_trace.skel.h, from bpftool gen skeleton): open, configure, load,
 * attach, detach, destroy.
 */
#include "hf_trace_skel.h"

#include <errno.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hf_trace.skel.h"

struct hf_trace *hf_trace_skel_load(const struct hf_trace_config *config, int *error)
{
	struct hf_trace *trace = hf_trace__open();
	int err;

	if (!trace) {
		*error = -errno;
		return NULL;
	}
	trace->rodata->cfg_netns = config->netns;
	trace->rodata->cfg_ifindex = config->ifindex;
	err = hf_trace__load(trace);
	if (err) {
		hf_trace__destroy(trace);
		*error = err;
		return NULL;
	}
	return trace;
}

int hf_trace_skel_attach(struct hf_trace *trace)
{
	return hf_trace__attach(trace);
}

void hf_trace_skel_detach(struct hf_trace *trace)
{
	hf_trace__detach(trace);
}

int hf_trace_skel_stats_fd(const struct hf_trace *trace)
{
	return bpf_map__fd(trace->maps.stats);
}

int hf_trace_skel_peers_fd(const struct hf_trace *trace)
{
	return bpf_map__fd(trace->maps.peers);
}

int hf_trace_skel_missed(const struct hf_trace *trace, __u64 *missed)
{
	struct bpf_program *prog;

	*missed = 0;
	bpf_object__for_each_program(prog, trace->obj) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int err = bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len);

		if (err)
			return err;
		*missed += info.recursion_misses;
	}
	return 0;
}

void hf_trace_skel_destroy(struct hf_trace *trace)
{
	hf_trace__destroy(trace);
}
