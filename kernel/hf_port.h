/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_port.h - the per-namespace port table: binding, ephemeral ports and
 * the lookup the receive path uses to find a port's socket.
 */
#ifndef _HF_PORT_H
#define _HF_PORT_H

#include <net/sock.h>

/* Ports below this one need CAP_NET_BIND_SERVICE, as for IP. */
#define HF_PORT_PRIVILEGED	1024

int hf_port_bind(struct sock *sk, u16 port, int ifindex);
void hf_port_unbind(struct sock *sk);
struct sock *hf_port_lookup(struct net *net, u16 port, int ifindex,
			    bool *other_dev);

#endif /* _HF_PORT_H */
