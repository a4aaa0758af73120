// SPDX-License-Identifier: GPL-2.0
/*
 * hf_xfer.c - a message sender and a verifying receiver for the shell
 * selftests.
 *
 *   hf_xfer recv PORT SIZES [REPEAT]
 *	bind PORT, receive REPEAT rounds of the messages listed in SIZES
 *	(comma-separated byte counts), in order, each checked byte for byte
 *	against the pattern; print a summary; exit 0 when all matched
 *   hf_xfer send IFNAME MAC PORT SIZES [REPEAT [info]]
 *	send the same messages to MAC on IFNAME at PORT, then wait until
 *	the transport has drained, and check the error queue is empty;
 *	with "info", print the flow's HF_INFO after each message is
 *	accepted and every 10 ms while it drains, one line each:
 *	"info MS frame_segs=.. pacing_rate=.. ...", MS since the first send
 *
 * With HF_XFER_HOLD set, either mode then prints "done" and keeps its
 * socket open until standard input reaches end of file. With
 * HF_XFER_RCVBUF=BYTES, the receiver sets its SO_RCVBUF so (forced: the
 * tests run as root), as setsockopt does, doubled.
 *
 * The content of a message of length L is byte i = (i * 131 + L * 7 +
 * i / 4099) & 0xff: it differs between messages of different lengths and
 * repeats only over long distances, so a misplaced segment shows.
 */
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/errqueue.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "hf_family.h"

#define MAX_SIZES 64

static unsigned char pattern(size_t i, size_t len)
{
	return (unsigned char)(i * 131 + len * 7 + i / 4099);
}

static int parse_sizes(char *arg, size_t *sizes)
{
	int n = 0;
	char *tok;

	for (tok = strtok(arg, ","); tok && n < MAX_SIZES; tok = strtok(NULL, ","))
		sizes[n++] = strtoull(tok, NULL, 0);
	return n;
}

static int parse_mac(const char *s, unsigned char *mac)
{
	return sscanf(s, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0], &mac[1],
		      &mac[2], &mac[3], &mac[4], &mac[5]) == 6 ? 0 : -1;
}

static size_t max_size(const size_t *sizes, int n)
{
	size_t max = 0;
	int i;

	for (i = 0; i < n; i++)
		if (sizes[i] > max)
			max = sizes[i];
	return max;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int do_recv(int fd, unsigned short port, size_t *sizes, int n,
		   int repeat)
{
	struct sockaddr_hf addr = { .shf_family = hf_family(), .shf_port = port };
	size_t max = max_size(sizes, n), total = 0;
	unsigned char *buf;
	double t0 = 0;
	int r, i, bad = 0;

	buf = malloc(max + 1);
	if (!buf)
		return 1;
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		fprintf(stderr, "hf_xfer: bind %u: %s\n", port, strerror(errno));
		return 1;
	}
	printf("ready\n");
	fflush(stdout);

	for (r = 0; r < repeat; r++) {
		for (i = 0; i < n; i++) {
			struct sockaddr_hf src;
			struct msghdr mh = { 0 };
			struct iovec iov = { buf, max + 1 };
			ssize_t got;
			size_t k;

			mh.msg_name = &src;
			mh.msg_namelen = sizeof(src);
			mh.msg_iov = &iov;
			mh.msg_iovlen = 1;
			got = recvmsg(fd, &mh, 0);
			if (!t0)
				t0 = now_s();
			if (got < 0) {
				fprintf(stderr, "hf_xfer: recvmsg: %s\n", strerror(errno));
				return 1;
			}
			if ((size_t)got != sizes[i]) {
				fprintf(stderr, "hf_xfer: round %d message %d: %zd bytes, want %zu\n",
					r, i, got, sizes[i]);
				return 1;
			}
			for (k = 0; k < (size_t)got; k++) {
				if (buf[k] != pattern(k, got)) {
					fprintf(stderr, "hf_xfer: round %d message %d (%zd bytes): byte %zu is %#x, want %#x\n",
						r, i, got, k, buf[k], pattern(k, got));
					bad++;
					break;
				}
			}
			total += got;
		}
	}
	printf("received %d messages, %zu bytes, %d corrupt, %.3f s\n",
	       n * repeat, total, bad, now_s() - t0);
	return bad ? 1 : 0;
}

/* Print the flow's HF_INFO towards @dst, @t0 being the first send. */
static int print_info(int fd, const struct sockaddr_hf *dst, double t0)
{
	struct hf_info info;
	socklen_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	info.hfi_peer = *dst;
	info.hfi_peer.shf_port = 0;
	if (getsockopt(fd, SOL_HYPERFRAME, HF_INFO, &info, &len)) {
		fprintf(stderr, "hf_xfer: HF_INFO: %s\n", strerror(errno));
		return 1;
	}
	if (!(info.hfi_flags & HF_INFO_PEER))
		return 0;	/* no flow yet, or idle and reclaimed */
	printf("info %.0f frame_segs=%u frame_bytes=%u pacing_rate=%llu srtt_us=%u min_rtt_us=%u tx_frames=%llu retransmits=%llu epoch=%u\n",
	       (now_s() - t0) * 1000, info.hfi_frame_segs, info.hfi_frame_bytes,
	       (unsigned long long)info.hfi_pacing_rate, info.hfi_srtt_us,
	       info.hfi_min_rtt_us, (unsigned long long)info.hfi_tx_frames,
	       (unsigned long long)info.hfi_retransmits, info.hfi_epoch);
	fflush(stdout);
	return 0;
}

static int do_send(int fd, const char *ifname, const char *mac,
		   unsigned short port, size_t *sizes, int n, int repeat,
		   int info)
{
	struct sockaddr_hf dst = { .shf_family = hf_family(), .shf_port = port };
	size_t max = max_size(sizes, n), k;
	unsigned char *buf;
	int r, i;
	char cbuf[512];
	struct msghdr eh = { 0 };
	double t0 = now_s();

	dst.shf_ifindex = if_nametoindex(ifname);
	if (!dst.shf_ifindex || parse_mac(mac, dst.shf_addr)) {
		fprintf(stderr, "hf_xfer: bad interface or address\n");
		return 2;
	}
	buf = malloc(max + 1);
	if (!buf)
		return 1;

	for (r = 0; r < repeat; r++) {
		for (i = 0; i < n; i++) {
			for (k = 0; k < sizes[i]; k++)
				buf[k] = pattern(k, sizes[i]);
			if (sendto(fd, buf, sizes[i], 0, (struct sockaddr *)&dst,
				   sizeof(dst)) != (ssize_t)sizes[i]) {
				fprintf(stderr, "hf_xfer: sendto %zu bytes: %s\n",
					sizes[i], strerror(errno));
				return 1;
			}
			if (info && print_info(fd, &dst, t0))
				return 1;
		}
	}
	/* Wait until every message has its outcome (60 s at most). */
	for (k = 0; k < 6000; k++) {
		int outq = 0;

		if (ioctl(fd, SIOCOUTQ, &outq)) {
			perror("hf_xfer: SIOCOUTQ");
			return 1;
		}
		if (!outq)
			break;
		if (info && print_info(fd, &dst, t0))
			return 1;
		usleep(10000);
	}
	/* A failed message shows up in the error queue. */
	eh.msg_control = cbuf;
	eh.msg_controllen = sizeof(cbuf);
	if (recvmsg(fd, &eh, MSG_ERRQUEUE | MSG_DONTWAIT) >= 0) {
		struct cmsghdr *c = CMSG_FIRSTHDR(&eh);
		struct sock_extended_err *ee = (void *)CMSG_DATA(c);

		fprintf(stderr, "hf_xfer: message %u failed: %s\n", ee->ee_info,
			strerror(ee->ee_errno));
		return 1;
	}
	printf("sent %d messages\n", n * repeat);
	return 0;
}

/*
 * With HF_XFER_HOLD in the environment, a run that succeeded keeps its
 * socket open: it prints "done" and waits for end of file on standard
 * input, so a test can look at the socket after the traffic.
 */
static int hold(int ret)
{
	char c;

	if (ret || !getenv("HF_XFER_HOLD"))
		return ret;
	printf("done\n");
	fflush(stdout);
	while (read(STDIN_FILENO, &c, 1) > 0)
		;
	return 0;
}

int main(int argc, char **argv)
{
	size_t sizes[MAX_SIZES];
	int fd, n;

	fd = socket(hf_family(), SOCK_RDM, 0);
	if (fd < 0) {
		perror("hf_xfer: socket");
		return 1;
	}
	if (argc >= 4 && !strcmp(argv[1], "recv")) {
		const char *rcvbuf = getenv("HF_XFER_RCVBUF");

		if (rcvbuf) {
			int bytes = atoi(rcvbuf);

			if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bytes,
				       sizeof(bytes))) {
				perror("hf_xfer: SO_RCVBUFFORCE");
				return 1;
			}
		}
		n = parse_sizes(argv[3], sizes);
		return hold(do_recv(fd, atoi(argv[2]), sizes, n,
				    argc > 4 ? atoi(argv[4]) : 1));
	}
	if (argc >= 6 && !strcmp(argv[1], "send")) {
		n = parse_sizes(argv[5], sizes);
		return hold(do_send(fd, argv[2], argv[3], atoi(argv[4]), sizes,
				    n, argc > 6 ? atoi(argv[6]) : 1,
				    argc > 7 && !strcmp(argv[7], "info")));
	}
	fprintf(stderr, "usage: hf_xfer recv PORT SIZES [REPEAT]\n"
			"       hf_xfer send IFNAME MAC PORT SIZES [REPEAT [info]]\n");
	return 2;
}
