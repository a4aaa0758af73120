/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_genl.h - the generic netlink family "hyperframe": configuration,
 * counters, and the peer and socket tables of a namespace.
 */
#ifndef _HF_GENL_H
#define _HF_GENL_H

#include <linux/init.h>

int __init hf_genl_register(void);
void hf_genl_unregister(void);

#endif /* _HF_GENL_H */
