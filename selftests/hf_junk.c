// SPDX-License-Identifier: GPL-2.0
/*
 * hf_junk.c - floods an interface with junk frames from a raw AF_PACKET
 * socket, for hf_hfq_hostile.sh: frames of the hyperframe EtherType whose
 * type is not DATA (by default), or of any EtherType, that no hyperframe
 * sender built, as a program on the host or a frame bridged in might send
 * them. It needs CAP_NET_RAW over the interface's namespace only: a user
 * namespace that owns the namespace is enough.
 *
 *   hf_junk --ifname IF --seconds S [--dst MAC] [--flows N] [--size B]
 *	     [--type T] [--ethertype E] [--priority P] [--sndbuf B]
 *	     [--sockets N]
 *
 * --flows N spreads the frames over N destination addresses (the last
 * byte of --dst counts up), each a flow of hfq's data band; --type is the
 * low nibble of the first header byte (2: ACK); --priority sets
 * SO_PRIORITY (7 is TC_PRIO_CONTROL, which needs CAP_NET_ADMIN or
 * CAP_NET_RAW over the namespace); --sndbuf sets SO_SNDBUFFORCE, so that
 * more than the default send buffer's worth can stand in the qdisc;
 * --sockets N (default 8) sends from N sockets in turn, each with its own
 * send buffer, as anyone may open several (that needs no privilege beyond
 * the raw socket). Sends as fast as it can for S seconds, without
 * blocking: a socket whose buffer is full is skipped, and when all are,
 * the flood sleeps 100 us; a frame the qdisc drops (ENOBUFS) is counted
 * and the flood goes on. SIGTERM ends it early, as its time would.
 * Prints "ready" once the sockets are open, then, at the end, one line:
 *   sent N bytes B dropped D
 * Exit status: 0; 1 on a system error; 2 on bad usage.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define JUNK_MAX	9000

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int parse_mac(const char *s, unsigned char *mac)
{
	return sscanf(s, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0], &mac[1],
		      &mac[2], &mac[3], &mac[4], &mac[5]) == 6 ? 0 : -1;
}

static void usage(void)
{
	fprintf(stderr, "usage: hf_junk --ifname IF --seconds S [--dst MAC] "
		"[--flows N] [--size B] [--type T] [--ethertype E] "
		"[--priority P] [--sndbuf B]\n");
	exit(2);
}

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ifname", required_argument, NULL, 'i' },
		{ "seconds", required_argument, NULL, 's' },
		{ "dst", required_argument, NULL, 'd' },
		{ "flows", required_argument, NULL, 'f' },
		{ "size", required_argument, NULL, 'z' },
		{ "type", required_argument, NULL, 't' },
		{ "ethertype", required_argument, NULL, 'e' },
		{ "priority", required_argument, NULL, 'p' },
		{ "sndbuf", required_argument, NULL, 'b' },
		{ "sockets", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned char dst[ETH_ALEN] = { 0x02, 0x00, 0x5e, 0x10, 0x00, 0x00 };
	unsigned long long sent = 0, bytes = 0, dropped = 0;
	int flows = 1, size = 1000, type = 2, prio = -1, sndbuf = 0;
	int nsock = 8, full = 0, fds[64];
	unsigned int ethertype = 0x88b5;	/* HF_ETH_P_DEFAULT */
	unsigned char frame[JUNK_MAX];
	const char *ifname = NULL;
	struct sockaddr_ll sll;
	double seconds = 0, end;
	unsigned int i;
	int c, k;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			ifname = optarg;
			break;
		case 's':
			seconds = atof(optarg);
			break;
		case 'd':
			if (parse_mac(optarg, dst))
				usage();
			break;
		case 'f':
			flows = atoi(optarg);
			break;
		case 'z':
			size = atoi(optarg);
			break;
		case 't':
			type = atoi(optarg);
			break;
		case 'e':
			ethertype = strtoul(optarg, NULL, 0);
			break;
		case 'p':
			prio = atoi(optarg);
			break;
		case 'b':
			sndbuf = atoi(optarg);
			break;
		case 'n':
			nsock = atoi(optarg);
			break;
		default:
			usage();
		}
	}
	if (!ifname || seconds <= 0 || flows < 1 || flows > 256 ||
	    size < ETH_HLEN + 8 || size > JUNK_MAX || type < 0 || type > 15 ||
	    nsock < 1 || nsock > 64)
		usage();

	for (k = 0; k < nsock; k++) {
		fds[k] = socket(AF_PACKET, SOCK_RAW, 0);
		if (fds[k] < 0) {
			perror("hf_junk: socket");
			return 1;
		}
		if (prio >= 0 &&
		    setsockopt(fds[k], SOL_SOCKET, SO_PRIORITY, &prio,
			       sizeof(prio))) {
			perror("hf_junk: SO_PRIORITY");
			return 1;
		}
		if (sndbuf &&
		    setsockopt(fds[k], SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf,
			       sizeof(sndbuf))) {
			perror("hf_junk: SO_SNDBUFFORCE");
			return 1;
		}
	}
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = if_nametoindex(ifname);
	if (!sll.sll_ifindex) {
		perror("hf_junk: if_nametoindex");
		return 1;
	}

	/* Source: a locally administered address of no one; payload: a
	 * header byte of version 4 and the type, then a pattern.
	 */
	memset(frame, 0, sizeof(frame));
	memcpy(frame + ETH_ALEN, "\x02\x00\x5e\x20\x00\x01", ETH_ALEN);
	frame[12] = ethertype >> 8;
	frame[13] = ethertype & 0xff;
	frame[ETH_HLEN] = 4 << 4 | type;
	for (i = ETH_HLEN + 1; i < (unsigned int)size; i++)
		frame[i] = i * 7;
	signal(SIGTERM, on_term);
	printf("ready\n");
	fflush(stdout);

	end = now_s() + seconds;
	for (i = 0, k = 0; !stop && now_s() < end; k = (k + 1) % nsock) {
		memcpy(frame, dst, ETH_ALEN);
		frame[ETH_ALEN - 1] = dst[ETH_ALEN - 1] + i % flows;
		if (sendto(fds[k], frame, size, MSG_DONTWAIT,
			   (struct sockaddr *)&sll, sizeof(sll)) == size) {
			sent++;
			bytes += size;
			i++;
			full = 0;
		} else if (errno == EAGAIN) {
			/* This socket's buffer is full: the next one. */
			if (++full >= nsock) {
				usleep(100);
				full = 0;
			}
		} else if (errno == ENOBUFS) {
			dropped++;
			i++;
		} else {
			perror("hf_junk: sendto");
			return 1;
		}
	}
	printf("sent %llu bytes %llu dropped %llu\n", sent, bytes, dropped);
	return 0;
}
