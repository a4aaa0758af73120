/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hf_util.h - small pieces shared by the selftest helpers hf_race and
 * hf_account: entering a named network namespace, an interface's index and
 * Ethernet address there, a monotonic clock, errno names, and the numbered
 * message format both helpers send.
 *
 * A numbered message of length L (at least HF_TAG_LEN) starts with its
 * number N as a little-endian u32 and ~N as another; byte i >= HF_TAG_LEN
 * is (i * 131 + L * 7 + i / 4099 + N) & 0xff, so a message that lands in
 * the place of another, or a segment misplaced inside one, shows.
 */
#ifndef _HF_SELFTEST_UTIL_H
#define _HF_SELFTEST_UTIL_H

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "hf_family.h"

#define HF_TAG_LEN	8

static inline double hf_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Move the calling thread into the namespace "ip netns add NAME" made. */
static inline int hf_enter_netns(const char *name)
{
	char path[256];
	int fd, err;

	snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "open %s: %s\n", path, strerror(errno));
		return -1;
	}
	err = setns(fd, CLONE_NEWNET);
	if (err)
		fprintf(stderr, "setns %s: %s\n", name, strerror(errno));
	close(fd);
	return err;
}

/* Index and Ethernet address of @ifname in the current namespace. */
static inline int hf_if_info(const char *ifname, int *ifindex,
			     unsigned char *mac)
{
	struct ifreq ifr;
	int fd, err;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, ifname, IFNAMSIZ - 1);
	err = ioctl(fd, SIOCGIFINDEX, &ifr);
	if (!err)
		*ifindex = ifr.ifr_ifindex;
	if (!err)
		err = ioctl(fd, SIOCGIFHWADDR, &ifr);
	if (!err)
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	close(fd);
	return err;
}

static inline int hf_parse_mac(const char *s, unsigned char *mac)
{
	return sscanf(s, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0], &mac[1],
		      &mac[2], &mac[3], &mac[4], &mac[5]) == 6 ? 0 : -1;
}

static inline unsigned char hf_body(size_t i, size_t len, uint32_t num)
{
	return (unsigned char)(i * 131 + len * 7 + i / 4099 + num);
}

/* Fill @buf as numbered message @num of @len bytes (len >= HF_TAG_LEN). */
static inline void hf_fill(unsigned char *buf, size_t len, uint32_t num)
{
	uint32_t tag[2] = { htole32(num), htole32(~num) };
	size_t i;

	memcpy(buf, tag, sizeof(tag));
	for (i = HF_TAG_LEN; i < len; i++)
		buf[i] = hf_body(i, len, num);
}

/*
 * The number of the message in @buf, or -1 when its tag is not one;
 * *@bad is set to the offset of the first wrong byte, or -1.
 */
static inline int64_t hf_check(const unsigned char *buf, size_t len,
			       ssize_t *bad)
{
	uint32_t tag[2];
	size_t i;

	*bad = -1;
	if (len < HF_TAG_LEN)
		return -1;
	memcpy(tag, buf, sizeof(tag));
	tag[0] = le32toh(tag[0]);
	if (le32toh(tag[1]) != ~tag[0])
		return -1;
	for (i = HF_TAG_LEN; i < len; i++) {
		if (buf[i] != hf_body(i, len, tag[0])) {
			*bad = i;
			break;
		}
	}
	return tag[0];
}

/* "ENOMEM" for ENOMEM; the number for an errno without a name here. */
static inline const char *hf_errname(int err)
{
	static char num[16];

	switch (err) {
	case 0: return "OK";
	case ENOMEM: return "ENOMEM";
	case ENOBUFS: return "ENOBUFS";
	case EAGAIN: return "EAGAIN";
	case EINTR: return "EINTR";
	case ENETDOWN: return "ENETDOWN";
	case ENODEV: return "ENODEV";
	case ENXIO: return "ENXIO";
	case EHOSTUNREACH: return "EHOSTUNREACH";
	case ECONNREFUSED: return "ECONNREFUSED";
	case ECONNRESET: return "ECONNRESET";
	case EMSGSIZE: return "EMSGSIZE";
	case EFAULT: return "EFAULT";
	case ENFILE: return "ENFILE";
	case EMFILE: return "EMFILE";
	case EBADF: return "EBADF";
	case EINVAL: return "EINVAL";
	case EPIPE: return "EPIPE";
	}
	snprintf(num, sizeof(num), "E%d", err);
	return num;
}

/* The errno named @name ("ENOMEM"), or 0. */
static inline int hf_errnum(const char *name)
{
	int e;

	for (e = 1; e < 200; e++)
		if (!strcmp(hf_errname(e), name))
			return e;
	return 0;
}

#endif /* _HF_SELFTEST_UTIL_H */
