/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * hyperframe.h - the user API of the hyperframe transport, shared by the
 * kernel module and every userspace program: the address family, the socket
 * address, socket options and the generic netlink family.
 *
 * Out-of-tree code cannot raise AF_MAX, so hyperframe borrows an address
 * family slot below it that no kernel registers. The default, 18, is AF_ASH:
 * named by the kernel since 2.x and never implemented. The module takes its
 * slot from the "family" module parameter; programs that must be exact read
 * it back from /sys/module/hyperframe/parameters/family (libhyperframe
 * does). See docs/design.md, "Address family".
 */
#ifndef _UAPI_LINUX_HYPERFRAME_H
#define _UAPI_LINUX_HYPERFRAME_H

#include <linux/types.h>
#include <linux/if_ether.h>
#include <linux/socket.h>

#define AF_HYPERFRAME		18
#define PF_HYPERFRAME		AF_HYPERFRAME
#define SOL_HYPERFRAME		299

/* IEEE 802 local experimental EtherType 1; the "ethertype" module parameter. */
#define HF_ETH_P_DEFAULT	0x88B5

/* Path of the module parameter that holds the family actually registered. */
#define HF_SYSFS_FAMILY		"/sys/module/hyperframe/parameters/family"

/**
 * struct sockaddr_hf - a hyperframe endpoint
 * @shf_family: AF_HYPERFRAME
 * @shf_port: port in host byte order; 0 in bind() picks an ephemeral port
 * @shf_ifindex: interface the peer is reached through; 0 in bind() means any
 * @shf_addr: the peer's Ethernet address (unused in bind())
 * @shf_zero: must be zero
 */
struct sockaddr_hf {
	__kernel_sa_family_t	shf_family;
	__u16			shf_port;
	__s32			shf_ifindex;
	__u8			shf_addr[ETH_ALEN];
	__u8			shf_zero[2];
};

/*
 * Control messages and options at level SOL_HYPERFRAME.
 *
 * HF_RECVERR: the cmsg type of an error-queue entry (recvmsg with
 * MSG_ERRQUEUE). Its data is a struct sock_extended_err: ee_errno says why
 * the message was not delivered (ECONNREFUSED: no socket bound at the
 * destination port; EMSGSIZE: above the receiver's message limit;
 * EHOSTUNREACH: no answer within the retry limit; ENETDOWN: the interface
 * went down or away), ee_origin is SO_EE_ORIGIN_LOCAL, ee_info the number
 * of the message among the socket's sends (counting from 0) and ee_data
 * its length.
 */
#define HF_RECVERR		1

#endif /* _UAPI_LINUX_HYPERFRAME_H */
