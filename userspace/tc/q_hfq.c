// SPDX-License-Identifier: GPL-2.0
/*
 * q_hfq.c - the tc plugin of hyperframe's hfq qdisc. tc loads q_<kind>.so
 * from its library folder (TC_LIB_DIR, by default the tc/ folder of the
 * multiarch library folder) for a kind it does not know and looks up
 * <kind>_qdisc_util in it. With it:
 *
 *   tc qdisc replace dev DEV root hfq [ rate RATE ] [ limit PACKETS ]
 *           [ flow_limit PACKETS ] [ control_limit PACKETS ]
 *           [ quantum BYTES ] [ other_share PERCENT ] [ horizon TIME ]
 *           [ memory_limit BYTES ]
 *   tc -s -d qdisc show dev DEV
 *
 * The options go to the module as TCA_OPTIONS (TCA_HFQ_*, in
 * <linux/hyperframe.h>; a nest flagged NLA_F_NESTED, as the module parses
 * it strictly), which range-checks them as hfctl qdisc set does;
 * a setting not given keeps its value. "rate 0" (or "rate unlimited")
 * removes the device's pacing.
 *
 * iproute2 installs no development header, so the plugin declares what it
 * uses of tc: struct qdisc_util as tc reads it (iproute2 6.1: the callbacks
 * below, then has_block; the tail is padded with NULLs for later fields),
 * and the exported functions it calls, with their iproute2 6.1 signatures.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/rtnetlink.h>
#include <linux/hyperframe.h>

struct qdisc_util {
	struct qdisc_util *next;
	const char *id;
	int (*parse_qopt)(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev);
	int (*print_qopt)(struct qdisc_util *qu, FILE *f, struct rtattr *opt);
	int (*print_xstats)(struct qdisc_util *qu, FILE *f,
			    struct rtattr *xstats);
	int (*parse_copt)(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev);
	int (*print_copt)(struct qdisc_util *qu, FILE *f, struct rtattr *opt);
	int (*has_block)(struct qdisc_util *qu, struct rtattr *opt,
			 uint32_t block_idx, bool *has);
	void *reserved[8];
};

/* iproute2's json_print.h: where a value goes; any color is plain. */
enum output_type { PRINT_FP = 1, PRINT_JSON = 2, PRINT_ANY = 4 };
#define HFQ_COLOR_NONE 0 /* only used with color off, where all are plain */

int addattr_l(struct nlmsghdr *n, int maxlen, int type, const void *data,
	      int alen);
struct rtattr *addattr_nest(struct nlmsghdr *n, int maxlen, int type);
int addattr_nest_end(struct nlmsghdr *n, struct rtattr *nest);
int parse_rtattr_flags(struct rtattr *tb[], int max, struct rtattr *rta,
		       int len, unsigned short flags);
int get_rate64(uint64_t *rate, const char *str);
int get_u32(uint32_t *val, const char *arg, int base);
int get_size(unsigned int *size, const char *str);
int get_time(unsigned int *time, const char *str);
void tc_print_rate(enum output_type t, const char *key, const char *fmt,
		   unsigned long long rate);
int print_color_uint(enum output_type t, int color, const char *key,
		     const char *fmt, unsigned int value);
int print_color_u64(enum output_type t, int color, const char *key,
		    const char *fmt, uint64_t value);
int print_color_string(enum output_type t, int color, const char *key,
		       const char *fmt, const char *value);
void print_nl(void);

#define HFQ_MAXLEN 1024 /* tc's request buffer is larger */

static void hfq_explain(void)
{
	fprintf(stderr,
		"Usage: ... hfq [ rate RATE ] [ limit PACKETS ] [ flow_limit PACKETS ]\n"
		"               [ control_limit PACKETS ] [ quantum BYTES ]\n"
		"               [ other_share PERCENT ] [ horizon TIME ]\n"
		"               [ memory_limit BYTES ]\n"
		"rate 0 or unlimited: no device pacing. Settings not given keep\n"
		"their values (see hfctl(8), \"qdisc set\", for the ranges).\n");
}

static int hfq_bad(const char *what, const char *arg)
{
	fprintf(stderr, "hfq: illegal %s \"%s\"\n", what, arg);
	hfq_explain();
	return -1;
}

static int hfq_parse_opt(struct qdisc_util *qu, int argc, char **argv,
			 struct nlmsghdr *n, const char *dev)
{
	static const struct {
		const char *name;
		int type;
		int kind; /* 0: count, 1: size in bytes */
	} u32_opts[] = {
		{ "limit", TCA_HFQ_LIMIT, 0 },
		{ "flow_limit", TCA_HFQ_FLOW_LIMIT, 0 },
		{ "control_limit", TCA_HFQ_CONTROL_LIMIT, 0 },
		{ "quantum", TCA_HFQ_QUANTUM, 1 },
		{ "other_share", TCA_HFQ_OTHER_SHARE, 0 },
		{ "memory_limit", TCA_HFQ_MEMORY_LIMIT, 1 },
	};
	struct rtattr *tail;
	unsigned int i;

	(void)qu;
	(void)dev;
	tail = addattr_nest(n, HFQ_MAXLEN, TCA_OPTIONS | NLA_F_NESTED);
	for (; argc > 0; argc--, argv++) {
		const char *opt = *argv;
		uint32_t v32;
		uint64_t rate;
		unsigned int usec;
		bool done = false;

		if (strcmp(opt, "help") == 0) {
			hfq_explain();
			return -1;
		}
		if (argc < 2) {
			fprintf(stderr, "hfq: \"%s\" needs a value\n", opt);
			hfq_explain();
			return -1;
		}
		argc--;
		argv++;
		if (strcmp(opt, "rate") == 0) {
			if (strcmp(*argv, "0") == 0 ||
			    strcmp(*argv, "unlimited") == 0)
				rate = 0;
			else if (get_rate64(&rate, *argv))
				return hfq_bad("rate", *argv);
			/* tc's rates are bytes per second, as the module's. */
			addattr_l(n, HFQ_MAXLEN, TCA_HFQ_RATE, &rate,
				  sizeof(rate));
			continue;
		}
		if (strcmp(opt, "horizon") == 0) {
			if (get_time(&usec, *argv) || usec < 1000)
				return hfq_bad("horizon", *argv);
			v32 = usec / 1000;
			addattr_l(n, HFQ_MAXLEN, TCA_HFQ_HORIZON_MS, &v32,
				  sizeof(v32));
			continue;
		}
		for (i = 0; i < sizeof(u32_opts) / sizeof(u32_opts[0]); i++) {
			if (strcmp(opt, u32_opts[i].name) != 0)
				continue;
			if (u32_opts[i].kind ? get_size(&v32, *argv) :
					       get_u32(&v32, *argv, 0))
				return hfq_bad(opt, *argv);
			addattr_l(n, HFQ_MAXLEN, u32_opts[i].type, &v32,
				  sizeof(v32));
			done = true;
			break;
		}
		if (!done) {
			fprintf(stderr, "hfq: unknown option \"%s\"\n", opt);
			hfq_explain();
			return -1;
		}
	}
	addattr_nest_end(n, tail);
	return 0;
}

static uint32_t hfq_u32(struct rtattr *rta)
{
	uint32_t v;

	memcpy(&v, RTA_DATA(rta), sizeof(v));
	return v;
}

static int hfq_print_opt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct rtattr *tb[TCA_HFQ_MAX + 1];
	uint64_t rate;

	(void)qu;
	(void)f;
	if (!opt)
		return 0;
	parse_rtattr_flags(tb, TCA_HFQ_MAX, RTA_DATA(opt), RTA_PAYLOAD(opt), 0);
	if (tb[TCA_HFQ_RATE] && RTA_PAYLOAD(tb[TCA_HFQ_RATE]) >= sizeof(rate)) {
		memcpy(&rate, RTA_DATA(tb[TCA_HFQ_RATE]), sizeof(rate));
		if (rate)
			tc_print_rate(PRINT_ANY, "rate", "rate %s ", rate);
		else
			print_color_string(PRINT_ANY, HFQ_COLOR_NONE, "rate",
					   "rate %s ", "unlimited");
	}
#define HFQ_PRINT_U32(attr, key, fmt)                                         \
	do {                                                                  \
		if (tb[attr] && RTA_PAYLOAD(tb[attr]) >= sizeof(uint32_t))    \
			print_color_uint(PRINT_ANY, HFQ_COLOR_NONE, key, fmt, \
					 hfq_u32(tb[attr]));                  \
	} while (0)
	HFQ_PRINT_U32(TCA_HFQ_LIMIT, "limit", "limit %up ");
	HFQ_PRINT_U32(TCA_HFQ_FLOW_LIMIT, "flow_limit", "flow_limit %up ");
	HFQ_PRINT_U32(TCA_HFQ_CONTROL_LIMIT, "control_limit",
		      "control_limit %up ");
	HFQ_PRINT_U32(TCA_HFQ_QUANTUM, "quantum", "quantum %ub ");
	HFQ_PRINT_U32(TCA_HFQ_OTHER_SHARE, "other_share", "other_share %u%% ");
	HFQ_PRINT_U32(TCA_HFQ_HORIZON_MS, "horizon_ms", "horizon %ums ");
	HFQ_PRINT_U32(TCA_HFQ_MEMORY_LIMIT, "memory_limit",
		      "memory_limit %ub ");
#undef HFQ_PRINT_U32
	return 0;
}

static int hfq_print_xstats(struct qdisc_util *qu, FILE *f,
			    struct rtattr *xstats)
{
	/* struct tc_hfq_xstats: fields are only ever added at the end. */
	static const char *const names[] = {
		"packets_control",    "packets_data",	   "packets_other",
		"drop_limit",	      "drop_flow_limit",   "drop_control_limit",
		"drop_horizon",	      "flow_alloc_failed", "throttled",
		"rate_delayed",	      "drop_memory_limit", "control_foreign",
		"control_over_share",
	};
	size_t n, i;
	uint64_t v;
	char fmt[64];

	(void)qu;
	(void)f;
	if (!xstats)
		return 0;
	n = RTA_PAYLOAD(xstats) / sizeof(uint64_t);
	if (n > sizeof(names) / sizeof(names[0]))
		n = sizeof(names) / sizeof(names[0]);
	for (i = 0; i < n; i++) {
		if (i % 4 == 0)
			print_nl();
		memcpy(&v, (const char *)RTA_DATA(xstats) + i * sizeof(v),
		       sizeof(v));
		snprintf(fmt, sizeof(fmt), " %s %%" PRIu64, names[i]);
		print_color_u64(PRINT_ANY, HFQ_COLOR_NONE, names[i], fmt, v);
	}
	return 0;
}

struct qdisc_util hfq_qdisc_util = {
	.id = "hfq",
	.parse_qopt = hfq_parse_opt,
	.print_qopt = hfq_print_opt,
	.print_xstats = hfq_print_xstats,
};
