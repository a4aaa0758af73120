// SPDX-License-Identifier: GPL-2.0
/*
 * hf_pingpong.c - small-message round trips and bulk load, over hyperframe
 * or TCP, for the qdisc and pacing selftests.
 *
 *   hf_pingpong echo hf PORT | echo tcp PORT
 *	send every message back to where it came from, until killed
 *   hf_pingpong sink hf PORT | sink tcp PORT
 *	read and drop everything, until killed
 *   hf_pingpong ping hf IFNAME MAC PORT SIZE COUNT GAP_US
 *   hf_pingpong ping tcp ADDR PORT SIZE COUNT GAP_US
 *	COUNT round trips of SIZE bytes, GAP_US apart; print
 *	"rtt n=COUNT p50_us=... p99_us=... max_us=..."
 *   hf_pingpong bulk hf IFNAME MAC PORT SIZE SECONDS [RATE_BPS [SNDBUF]]
 *   hf_pingpong bulk tcp ADDR PORT SIZE SECONDS [RATE_BPS [SNDBUF]]
 *	send messages (writes) of SIZE bytes for SECONDS, the socket's
 *	SO_MAX_PACING_RATE at RATE_BPS bytes/s when given and not 0, its
 *	send buffer SNDBUF bytes (SO_SNDBUFFORCE: root) when not 0; print
 *	"bulk bytes=... seconds=... rate_bps=..."
 *
 * Exit status 0 on success, 1 on any error (printed).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "hf_family.h"

#define MAX_MSG		(4 << 20)
#define MAX_PINGS	100000

static unsigned char buf[MAX_MSG];

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int fail(const char *what)
{
	fprintf(stderr, "hf_pingpong: %s: %s\n", what, strerror(errno));
	return 1;
}

static int hf_open(const char *port)
{
	struct sockaddr_hf a = { .shf_family = hf_family() };
	int fd = socket(hf_family(), SOCK_RDM, 0);

	if (fd < 0)
		return -1;
	a.shf_port = atoi(port);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int hf_peer(const char *ifname, const char *mac, const char *port,
		   struct sockaddr_hf *a)
{
	memset(a, 0, sizeof(*a));
	a->shf_family = hf_family();
	a->shf_port = atoi(port);
	a->shf_ifindex = if_nametoindex(ifname);
	if (!a->shf_ifindex)
		return -1;
	if (sscanf(mac, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &a->shf_addr[0],
		   &a->shf_addr[1], &a->shf_addr[2], &a->shf_addr[3],
		   &a->shf_addr[4], &a->shf_addr[5]) != 6) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

static int tcp_listen(const char *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	a.sin_port = htons(atoi(port));
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(fd, 8)) {
		close(fd);
		return -1;
	}
	return fd;
}

static int tcp_connect(const char *addr, const char *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	a.sin_port = htons(atoi(port));
	if (inet_pton(AF_INET, addr, &a.sin_addr) != 1) {
		errno = EINVAL;
		close(fd);
		return -1;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int full_io(int fd, size_t len, int write_it)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = write_it ? write(fd, buf + done, len - done) :
			       read(fd, buf + done, len - done);
		if (n <= 0) {
			if (!n)
				errno = EPIPE;
			return -1;
		}
		done += n;
	}
	return 0;
}

/* Serve TCP connections one after the other: echo back, or drop. */
static int tcp_serve(const char *port, int echo)
{
	int lfd = tcp_listen(port), fd, one = 1;
	ssize_t n;

	if (lfd < 0)
		return fail("listen");
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		fd = accept(lfd, NULL, NULL);
		if (fd < 0)
			return fail("accept");
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			if (echo && full_io(fd, n, 1))
				break;
		close(fd);
	}
}

static int hf_serve(const char *port, int echo)
{
	int fd = hf_open(port);
	struct sockaddr_hf from;
	socklen_t alen;
	ssize_t n;

	if (fd < 0)
		return fail("bind");
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		alen = sizeof(from);
		n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from,
			     &alen);
		if (n < 0)
			return fail("recvfrom");
		if (echo && sendto(fd, buf, n, 0, (struct sockaddr *)&from,
				   alen) < 0)
			return fail("sendto");
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double pct(const double *v, int n, double p)
{
	int i = (int)(p * n);

	return v[i < n ? i : n - 1];
}

static int ping(int hf, char **argv)
{
	static double rtt[MAX_PINGS];
	struct sockaddr_hf peer;
	size_t size;
	int fd, count, gap_us, i;
	double t;

	if (hf) {
		if (hf_peer(argv[0], argv[1], argv[2], &peer))
			return fail("peer");
		fd = hf_open("0");
		argv++;
	} else {
		fd = tcp_connect(argv[0], argv[1]);
	}
	if (fd < 0)
		return fail("socket");
	size = strtoul(argv[2], NULL, 0);
	count = atoi(argv[3]);
	gap_us = atoi(argv[4]);
	if (!size || size > MAX_MSG || count < 1 || count > MAX_PINGS) {
		fprintf(stderr, "hf_pingpong: bad size or count\n");
		return 1;
	}
	for (i = 0; i < count; i++) {
		t = now_s();
		if (hf) {
			if (sendto(fd, buf, size, 0, (struct sockaddr *)&peer,
				   sizeof(peer)) != (ssize_t)size)
				return fail("sendto");
			if (recv(fd, buf, sizeof(buf), 0) != (ssize_t)size)
				return fail("recv");
		} else if (full_io(fd, size, 1) || full_io(fd, size, 0)) {
			return fail("tcp round trip");
		}
		rtt[i] = (now_s() - t) * 1e6;
		usleep(gap_us);
	}
	qsort(rtt, count, sizeof(rtt[0]), cmp_double);
	printf("rtt n=%d p50_us=%.0f p99_us=%.0f max_us=%.0f\n", count,
	       pct(rtt, count, 0.50), pct(rtt, count, 0.99), rtt[count - 1]);
	return 0;
}

static int bulk(int hf, char **argv, int argc)
{
	unsigned long long bytes = 0;
	struct sockaddr_hf peer;
	double start, seconds;
	unsigned long rate = 0;
	int sndbuf = 0;
	size_t size;
	int fd;

	if (hf) {
		if (hf_peer(argv[0], argv[1], argv[2], &peer))
			return fail("peer");
		fd = hf_open("0");
		argv++;
		argc--;
	} else {
		fd = tcp_connect(argv[0], argv[1]);
	}
	if (fd < 0)
		return fail("socket");
	size = strtoul(argv[2], NULL, 0);
	seconds = atof(argv[3]);
	if (argc > 4)
		rate = strtoul(argv[4], NULL, 0);
	if (argc > 5)
		sndbuf = atoi(argv[5]);
	if (!size || size > MAX_MSG || seconds <= 0) {
		fprintf(stderr, "hf_pingpong: bad size or duration\n");
		return 1;
	}
	if (rate && setsockopt(fd, SOL_SOCKET, SO_MAX_PACING_RATE, &rate,
			       sizeof(rate)))
		return fail("SO_MAX_PACING_RATE");
	if (sndbuf && setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf,
				 sizeof(sndbuf)))
		return fail("SO_SNDBUFFORCE");

	start = now_s();
	while (now_s() - start < seconds) {
		if (hf) {
			if (sendto(fd, buf, size, 0, (struct sockaddr *)&peer,
				   sizeof(peer)) != (ssize_t)size)
				return fail("sendto");
		} else if (full_io(fd, size, 1)) {
			return fail("write");
		}
		bytes += size;
	}
	seconds = now_s() - start;
	printf("bulk bytes=%llu seconds=%.3f rate_bps=%.0f\n", bytes, seconds,
	       bytes / seconds);
	return 0;
}

int main(int argc, char **argv)
{
	int hf = argc > 2 && !strcmp(argv[2], "hf");

	if (argc > 2 && !hf && strcmp(argv[2], "tcp"))
		argc = 0;
	if (argc == 4 && !strcmp(argv[1], "echo"))
		return hf ? hf_serve(argv[3], 1) : tcp_serve(argv[3], 1);
	if (argc == 4 && !strcmp(argv[1], "sink"))
		return hf ? hf_serve(argv[3], 0) : tcp_serve(argv[3], 0);
	if (argc == 8 + hf && !strcmp(argv[1], "ping"))
		return ping(hf, argv + 3);
	if (argc >= 7 + hf && argc <= 9 + hf && !strcmp(argv[1], "bulk"))
		return bulk(hf, argv + 3, argc - 3);
	fprintf(stderr,
		"usage: hf_pingpong echo|sink hf|tcp PORT\n"
		"       hf_pingpong ping hf IFNAME MAC PORT SIZE COUNT GAP_US\n"
		"       hf_pingpong ping tcp ADDR PORT SIZE COUNT GAP_US\n"
		"       hf_pingpong bulk hf IFNAME MAC PORT SIZE SECONDS [RATE [SNDBUF]]\n"
		"       hf_pingpong bulk tcp ADDR PORT SIZE SECONDS [RATE [SNDBUF]]\n");
	return 1;
}
