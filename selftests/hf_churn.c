// SPDX-License-Identifier: GPL-2.0
/*
 * hf_churn.c - random-size messages both ways with blocking sends, timed:
 * the longest single blocking sendto() and the longest wait of any message
 * from the sendto() call to its delivery confirmation.
 *
 *   hf_churn IFNAME MAC PORT SECONDS MAXBYTES [SENDERS [SEED]]
 *
 * Binds PORT and receives (every message checked byte for byte against the
 * pattern of hf_xfer.c) while SENDERS threads (default 2), each with its
 * own socket, send messages of random size, log-uniform from 1 byte to
 * MAXBYTES, to MAC on IFNAME at PORT for SECONDS. Each sender then sends
 * an empty message, the end mark its peer's receiver stops at. Run it on
 * both ends at once: each prints "ready" once bound, and starts sending
 * when the file $HF_CHURN_GO exists (without it, a second later).
 *
 * Delivery confirmation: HF_INFO's hfi_tx_msgs_done counts a socket's
 * messages whose outcome arrived, and a peer resolves messages in the
 * order they were queued; a socket with one sending thread queues them in
 * the order of its sendto() calls. So message k of a socket is confirmed
 * once hfi_tx_msgs_done exceeds k. A monitor thread samples that every
 * millisecond (HF_CHURN_SAMPLE_US), so a wait reads at most one sampling
 * interval (and a getsockopt) long. It samples the peer fields too: the
 * largest hfi_backoff seen, how long it saw the backoff at its largest,
 * and the flow's hfi_backoff_answered_us (time at maximum backoff while
 * the peer answered).
 *
 * Prints one line, "churn sent=.. bytes=.. received=.. rx_bytes=..
 * corrupt=.. failed=.. max_send_ms=.. max_wait_ms=.. p99_wait_ms=..
 * max_backoff=.. backoff_max_ms=.. answered_ms=..", and exits 0 when every
 * message sent was confirmed delivered, none failed, and every message
 * received was intact; 1 otherwise.
 */
#include <errno.h>
#include <net/if.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/errqueue.h>

#include "hf_family.h"

#define MAX_SENDERS	8
#define MAX_MSGS	(1 << 20)
/* Longest the senders wait for their last outcomes after SECONDS. */
#define DRAIN_S		120

struct sender {
	pthread_t thread;
	int fd;
	unsigned int seed;
	/* Written by the sender, read by the monitor. */
	_Atomic uint32_t nmsgs;		/* messages started */
	double *start;			/* [k]: when sendto() of k was called */
	double max_send;
	uint64_t bytes;
	int err;
	/* The monitor's. */
	uint32_t confirmed;		/* messages confirmed */
	double *wait;			/* [k]: sendto() to confirmation */
};

static struct sockaddr_hf dst;
static size_t max_bytes;
static double deadline;
static int nsenders = 2;
static struct sender senders[MAX_SENDERS];
static _Atomic int senders_done;
static unsigned int sample_us = 1000;

/* Monitor results. */
static unsigned int max_backoff_seen;
static double backoff_max_s;
static uint64_t answered_us;
static int failed;

static unsigned char pattern(size_t i, size_t len)
{
	return (unsigned char)(i * 131 + len * 7 + i / 4099);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Log-uniform in [1, max]: a random power of two, then within it. */
static size_t rand_size(unsigned int *seed)
{
	unsigned int bits = 0, e;
	size_t n;

	while (bits < 63 && (size_t)2 << bits <= max_bytes)
		bits++;
	e = rand_r(seed) % (bits + 1);
	n = ((size_t)1 << e) + (size_t)rand_r(seed) % ((size_t)1 << e);
	return n > max_bytes ? max_bytes : n;
}

static void *send_main(void *arg)
{
	struct sender *s = arg;
	unsigned char *buf = malloc(max_bytes);
	uint32_t k = 0;

	if (!buf) {
		s->err = ENOMEM;
		goto out;
	}
	for (;;) {
		int last = now_s() >= deadline || k == MAX_MSGS - 1;
		size_t len = last ? 0 : rand_size(&s->seed), i;
		double t0, t1;

		for (i = 0; i < len; i++)
			buf[i] = pattern(i, len);
		s->start[k] = now_s();
		atomic_store(&s->nmsgs, k + 1);
		t0 = s->start[k];
		if (sendto(s->fd, buf, len, 0, (struct sockaddr *)&dst,
			   sizeof(dst)) != (ssize_t)len) {
			s->err = errno;
			fprintf(stderr, "hf_churn: sendto %zu bytes: %s\n", len,
				strerror(errno));
			break;
		}
		t1 = now_s();
		if (t1 - t0 > s->max_send)
			s->max_send = t1 - t0;
		s->bytes += len;
		k++;
		if (last)
			break;
	}
out:
	free(buf);
	atomic_fetch_add(&senders_done, 1);
	return NULL;
}

static int info_get(int fd, struct hf_info *info)
{
	socklen_t len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	info->hfi_peer = dst;
	info->hfi_peer.shf_port = 0;
	return getsockopt(fd, SOL_HYPERFRAME, HF_INFO, info, &len);
}

/* Take the outcomes of sender @s's messages; return 1 when all are in. */
static int monitor_one(struct sender *s, const struct hf_info *info,
		       double now)
{
	uint32_t n = atomic_load(&s->nmsgs);
	uint64_t done = info->hfi_tx_msgs_done;

	if (info->hfi_errqueue)
		failed = 1;
	while (s->confirmed < n && s->confirmed < done) {
		s->wait[s->confirmed] = now - s->start[s->confirmed];
		s->confirmed++;
	}
	return s->confirmed == n;
}

static void *monitor_main(void *arg)
{
	double at_max_since = 0, now;
	struct hf_info info;
	int i;

	(void)arg;
	for (;;) {
		/*
		 * Read before the outcomes: a sender that starts and ends its
		 * last message while they are read must not count as done
		 * with that message unseen.
		 */
		int done = atomic_load(&senders_done) == nsenders, all = 1;

		for (i = 0; i < nsenders; i++) {
			if (info_get(senders[i].fd, &info)) {
				fprintf(stderr, "hf_churn: HF_INFO: %s\n",
					strerror(errno));
				failed = 1;
				return NULL;
			}
			now = now_s();
			all &= monitor_one(&senders[i], &info, now);
			if (!(info.hfi_flags & HF_INFO_PEER))
				continue;
			if (info.hfi_backoff_answered_us > answered_us)
				answered_us = info.hfi_backoff_answered_us;
			if (i)
				continue;
			/* The flow's backoff, seen from the first socket. */
			if (info.hfi_backoff > max_backoff_seen)
				max_backoff_seen = info.hfi_backoff;
			if (info.hfi_backoff && info.hfi_backoff >= max_backoff_seen) {
				if (!at_max_since)
					at_max_since = now;
			} else if (at_max_since) {
				backoff_max_s += now - at_max_since;
				at_max_since = 0;
			}
		}
		if (done && all)
			break;
		if (now_s() > deadline + DRAIN_S) {
			fprintf(stderr, "hf_churn: outcomes still missing %d s after the end\n",
				DRAIN_S);
			failed = 1;
			break;
		}
		usleep(sample_us);
	}
	if (at_max_since)
		backoff_max_s += now_s() - at_max_since;
	return NULL;
}

/* Print what the error queue of socket @fd (sender @i) holds. */
static void errqueue_report(int fd, int i)
{
	char cbuf[512];

	for (;;) {
		struct msghdr eh = { .msg_control = cbuf,
				     .msg_controllen = sizeof(cbuf) };
		struct sock_extended_err *ee;
		struct cmsghdr *c;

		if (recvmsg(fd, &eh, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			return;
		c = CMSG_FIRSTHDR(&eh);
		if (!c)
			return;
		ee = (struct sock_extended_err *)CMSG_DATA(c);
		fprintf(stderr, "hf_churn: socket %d: message %u (%u bytes) failed: %s\n",
			i, ee->ee_info, ee->ee_data, strerror(ee->ee_errno));
		failed = 1;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct rx_result {
	uint64_t msgs, bytes, corrupt, ends;
	int err;
};

static int do_recv(int fd, struct rx_result *r, unsigned char *buf)
{
	while (r->ends < (uint64_t)nsenders) {
		ssize_t got = recv(fd, buf, max_bytes + 1, 0), k;

		if (got < 0) {
			r->err = errno;
			fprintf(stderr, "hf_churn: recv: %s\n", strerror(errno));
			return 1;
		}
		if (!got) {
			r->ends++;
			continue;
		}
		for (k = 0; k < got; k++)
			if (buf[k] != pattern(k, got)) {
				fprintf(stderr, "hf_churn: %zd-byte message: byte %zd is %#x, want %#x\n",
					got, k, buf[k], pattern(k, got));
				r->corrupt++;
				break;
			}
		r->msgs++;
		r->bytes += got;
	}
	return 0;
}

struct rx_arg {
	int fd;
	struct rx_result res;
	unsigned char *buf;
};

static void *recv_main(void *arg)
{
	struct rx_arg *a = arg;

	do_recv(a->fd, &a->res, a->buf);
	return NULL;
}

int main(int argc, char **argv)
{
	struct sockaddr_hf me = { 0 };
	const char *env = getenv("HF_CHURN_SAMPLE_US"), *go;
	uint64_t sent = 0, bytes = 0, nwait = 0;
	pthread_t rx, mon;
	struct rx_arg rxa = { 0 };
	double max_send = 0, *all;
	struct hf_info info0;
	int i, rc = 0, secs;
	unsigned int seed;

	if (argc < 6) {
		fprintf(stderr, "usage: hf_churn IFNAME MAC PORT SECONDS MAXBYTES [SENDERS [SEED]]\n");
		return 2;
	}
	if (env)
		sample_us = atoi(env);
	dst.shf_family = hf_family();
	dst.shf_port = atoi(argv[3]);
	dst.shf_ifindex = if_nametoindex(argv[1]);
	if (!dst.shf_ifindex ||
	    sscanf(argv[2], "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &dst.shf_addr[0],
		   &dst.shf_addr[1], &dst.shf_addr[2], &dst.shf_addr[3],
		   &dst.shf_addr[4], &dst.shf_addr[5]) != 6) {
		fprintf(stderr, "hf_churn: bad interface or address\n");
		return 2;
	}
	secs = atoi(argv[4]);
	max_bytes = strtoull(argv[5], NULL, 0);
	if (argc > 6)
		nsenders = atoi(argv[6]);
	seed = argc > 7 ? atoi(argv[7]) : (unsigned int)getpid();
	if (nsenders < 1 || nsenders > MAX_SENDERS || !max_bytes) {
		fprintf(stderr, "hf_churn: bad SENDERS or MAXBYTES\n");
		return 2;
	}

	rxa.fd = socket(hf_family(), SOCK_RDM, 0);
	rxa.buf = malloc(max_bytes + 1);
	me.shf_family = hf_family();
	me.shf_port = dst.shf_port;
	if (rxa.fd < 0 || !rxa.buf ||
	    bind(rxa.fd, (struct sockaddr *)&me, sizeof(me))) {
		perror("hf_churn: receiver");
		return 1;
	}
	for (i = 0; i < nsenders; i++) {
		struct sender *s = &senders[i];

		s->fd = socket(hf_family(), SOCK_RDM, 0);
		s->seed = seed * 31 + i;
		s->start = calloc(MAX_MSGS, sizeof(*s->start));
		s->wait = calloc(MAX_MSGS, sizeof(*s->wait));
		if (s->fd < 0 || !s->start || !s->wait) {
			perror("hf_churn: sender");
			return 1;
		}
	}
	printf("ready\n");
	fflush(stdout);
	/* Both ends bound: the caller creates $HF_CHURN_GO (or 1 s passes). */
	go = getenv("HF_CHURN_GO");
	if (go) {
		while (access(go, F_OK))
			usleep(10000);
	} else {
		sleep(1);
	}

	deadline = now_s() + secs;
	pthread_create(&rx, NULL, recv_main, &rxa);
	for (i = 0; i < nsenders; i++)
		pthread_create(&senders[i].thread, NULL, send_main, &senders[i]);
	pthread_create(&mon, NULL, monitor_main, NULL);
	for (i = 0; i < nsenders; i++)
		pthread_join(senders[i].thread, NULL);
	pthread_join(mon, NULL);
	pthread_join(rx, NULL);

	all = calloc(MAX_MSGS * (size_t)nsenders, sizeof(*all));
	for (i = 0; i < nsenders; i++) {
		struct sender *s = &senders[i];
		uint32_t k, n = atomic_load(&s->nmsgs);

		if (s->err)
			rc = 1;
		if (s->confirmed != n) {
			fprintf(stderr, "hf_churn: socket %d: %u of %u messages confirmed\n",
				i, s->confirmed, n);
			rc = 1;
		}
		for (k = 0; k < s->confirmed; k++)
			all[nwait++] = s->wait[k];
		sent += n - 1;
		bytes += s->bytes;
		if (s->max_send > max_send)
			max_send = s->max_send;
	}
	qsort(all, nwait, sizeof(*all), cmp_double);
	if (info_get(senders[0].fd, &info0))
		rc = 1;
	for (i = 0; i < nsenders; i++)
		errqueue_report(senders[i].fd, i);
	if (failed || rxa.res.err || rxa.res.corrupt)
		rc = 1;
	printf("churn sent=%llu bytes=%llu received=%llu rx_bytes=%llu corrupt=%llu failed=%d max_send_ms=%.1f max_wait_ms=%.1f p99_wait_ms=%.1f max_backoff=%u backoff_max_ms=%.0f answered_ms=%.1f sndbuf=%u\n",
	       (unsigned long long)sent, (unsigned long long)bytes,
	       (unsigned long long)rxa.res.msgs,
	       (unsigned long long)rxa.res.bytes,
	       (unsigned long long)rxa.res.corrupt, failed, max_send * 1000,
	       nwait ? all[nwait - 1] * 1000 : 0,
	       nwait ? all[nwait * 99 / 100] * 1000 : 0, max_backoff_seen,
	       backoff_max_s * 1000, answered_us / 1000.0, info0.hfi_sndbuf);
	return rc;
}
