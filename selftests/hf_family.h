/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_family.h - how the selftests find the address family the module took:
 * $HF_FAMILY when set and non-empty, else the module's "family" parameter
 * in sysfs. Returns -1 when neither gives a number.
 */
#ifndef _HF_SELFTEST_FAMILY_H
#define _HF_SELFTEST_FAMILY_H

#include <stdio.h>
#include <stdlib.h>
#include <linux/hyperframe.h>

static inline int hf_family(void)
{
	const char *env = getenv("HF_FAMILY");
	int family = -1;
	FILE *f;

	if (env && *env)
		return atoi(env);
	f = fopen(HF_SYSFS_FAMILY, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &family) != 1)
		family = -1;
	fclose(f);
	return family;
}

#endif /* _HF_SELFTEST_FAMILY_H */
