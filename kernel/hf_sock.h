/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_sock.h - the hyperframe socket: its state and the entry points the
 * rest of the module uses to register the address family.
 */
#ifndef _HF_SOCK_H
#define _HF_SOCK_H

#include <net/sock.h>

/**
 * struct hf_sock - an AF_HYPERFRAME socket
 * @sk: the generic socket; must stay first
 */
struct hf_sock {
	struct sock sk;
};

static inline struct hf_sock *hf_sk(const struct sock *sk)
{
	return container_of(sk, struct hf_sock, sk);
}

int __init hf_sock_register(int family);
void hf_sock_unregister(void);

#endif /* _HF_SOCK_H */
