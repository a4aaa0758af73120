// SPDX-License-Identifier: GPL-2.0
/*
 * hf_pin.c - what a user can make the module hold, for hf_memory.sh.
 *
 *   hf_pin fill IFNAME NSOCK SIZE DST [block] [hold]
 *	open NSOCK sockets and send one SIZE-byte message from each to DST,
 *	a MAC address or "random" (a different locally administered
 *	address nobody has for each socket), without waiting unless "block";
 *	print "accepted N of M, B bytes" and one "errno NAME COUNT" line per
 *	error seen; with "hold", print "holding" and keep the sockets open
 *	until standard input reaches end of file; then close them all and
 *	print "closed"
 *   hf_pin sink PORT RCVBUF [force]
 *	bind PORT with SO_RCVBUF RCVBUF (0: leave it; "force":
 *	SO_RCVBUFFORCE, beyond net.core.rmem_max), print "ready" and
 *	read nothing until a line arrives on standard input; then read what
 *	is queued without waiting, print "read N messages B bytes", and
 *	close at end of file
 *
 * Exit status: 0; 1 on a system error; 2 on bad usage.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "hf_family.h"

#define NSOCK_MAX	4096

static int usage(void)
{
	fprintf(stderr,
		"usage: hf_pin fill IFNAME NSOCK SIZE DST|random [block] [hold]\n"
		"       hf_pin sink PORT RCVBUF [force]\n");
	return 2;
}

static int parse_mac(const char *s, unsigned char *mac)
{
	return sscanf(s, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0], &mac[1],
		      &mac[2], &mac[3], &mac[4], &mac[5]) == 6 ? 0 : -1;
}

/* Wait until standard input reaches end of file (or a line, when @line). */
static void wait_stdin(int line)
{
	char buf[256];

	while (fgets(buf, sizeof(buf), stdin))
		if (line)
			return;
}

static int do_fill(int argc, char **argv)
{
	static int fds[NSOCK_MAX], errs[256];
	struct sockaddr_hf dst = { .shf_family = hf_family(), .shf_port = 7999 };
	int nsock, i, accepted = 0, block = 0, hold = 0, random_dst = 0;
	unsigned long long bytes = 0;
	size_t size;
	char *buf;

	if (argc < 6)
		return usage();
	nsock = atoi(argv[3]);
	size = strtoull(argv[4], NULL, 0);
	if (nsock < 1 || nsock > NSOCK_MAX)
		return usage();
	if (!strcmp(argv[5], "random"))
		random_dst = 1;
	else if (parse_mac(argv[5], dst.shf_addr))
		return usage();
	for (i = 6; i < argc; i++) {
		if (!strcmp(argv[i], "block"))
			block = 1;
		else if (!strcmp(argv[i], "hold"))
			hold = 1;
		else
			return usage();
	}
	dst.shf_ifindex = if_nametoindex(argv[2]);
	if (!dst.shf_ifindex) {
		fprintf(stderr, "hf_pin: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	/* Untouched pages: the kernel refuses before it copies, or copies zeros. */
	buf = mmap(NULL, size ? size : 1, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS |
		   MAP_NORESERVE, -1, 0);
	if (buf == MAP_FAILED) {
		perror("hf_pin: mmap");
		return 1;
	}
	srand(time(NULL) ^ getpid());
	for (i = 0; i < nsock; i++) {
		ssize_t n;

		fds[i] = socket(hf_family(), SOCK_RDM, 0);
		if (fds[i] < 0) {
			perror("hf_pin: socket");
			return 1;
		}
		if (random_dst) {
			dst.shf_addr[0] = 0x02;
			dst.shf_addr[1] = 0x9e;
			dst.shf_addr[2] = rand() & 0xff;
			dst.shf_addr[3] = rand() & 0xff;
			dst.shf_addr[4] = i >> 8;
			dst.shf_addr[5] = i & 0xff;
		}
		n = sendto(fds[i], buf, size, block ? 0 : MSG_DONTWAIT,
			   (struct sockaddr *)&dst, sizeof(dst));
		if (n < 0) {
			errs[errno & 255]++;
			continue;
		}
		accepted++;
		bytes += n;
	}
	printf("accepted %d of %d, %llu bytes\n", accepted, nsock, bytes);
	for (i = 0; i < 256; i++)
		if (errs[i])
			printf("errno %s %d\n", strerrorname_np(i) ?: "?", errs[i]);
	fflush(stdout);
	if (hold) {
		printf("holding\n");
		fflush(stdout);
		wait_stdin(0);
	}
	for (i = 0; i < nsock; i++)
		close(fds[i]);
	printf("closed\n");
	return 0;
}

static int do_sink(int argc, char **argv)
{
	struct sockaddr_hf addr = { .shf_family = hf_family() };
	unsigned long long bytes = 0;
	int fd, rcvbuf, msgs = 0, force = 0;
	static char buf[64 << 20];

	if (argc == 5 && !strcmp(argv[4], "force"))
		force = 1;
	else if (argc != 4)
		return usage();
	addr.shf_port = atoi(argv[2]);
	rcvbuf = atoi(argv[3]);
	fd = socket(hf_family(), SOCK_RDM, 0);
	if (fd < 0) {
		perror("hf_pin: socket");
		return 1;
	}
	if (rcvbuf && setsockopt(fd, SOL_SOCKET, force ? SO_RCVBUFFORCE : SO_RCVBUF,
				 &rcvbuf, sizeof(rcvbuf))) {
		perror("hf_pin: SO_RCVBUF");
		return 1;
	}
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		perror("hf_pin: bind");
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	wait_stdin(1);
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n < 0)
			break;
		msgs++;
		bytes += n;
	}
	printf("read %d messages %llu bytes\n", msgs, bytes);
	fflush(stdout);
	wait_stdin(0);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "fill"))
		return do_fill(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "sink"))
		return do_sink(argc, argv);
	return usage();
}
