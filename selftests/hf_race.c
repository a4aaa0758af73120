// SPDX-License-Identifier: GPL-2.0
/*
 * hf_race.c - lifecycle races on AF_HYPERFRAME sockets, for
 * hf_lifecycle.sh. Sockets are opened in two namespaces made by "ip netns
 * add": TXNS reaches RXNS through its eth0.
 *
 *   hf_race close-send TXNS RXNS timeout|drain|signal
 *	a sender blocks on a full SO_SNDBUF (the receiver does not read);
 *	another thread closes its descriptor; then the call ends by its
 *	SO_SNDTIMEO, by the receiver reading, or by a signal. Checks what
 *	it returns, that close() alone did not end it, and that every
 *	message accepted arrives, intact and in order, after the close
 *   hf_race close-recv TXNS RXNS timeout|message|signal
 *	a receiver blocks in recv(); another thread closes its descriptor;
 *	then the call ends by SO_RCVTIMEO, by a message arriving, or by a
 *	signal. Checks what it returns and that the port is free after it
 *   hf_race threads TXNS RXNS THREADS MESSAGES
 *	one socket in each namespace; on each, THREADS/2 threads send
 *	MESSAGES messages each to the other socket while THREADS/2 threads
 *	receive; every message must arrive once, intact, and in order per
 *	sending thread as each receiving thread sees them
 *
 * $HF_RACE_PORT (default 7300) is the receiver's port, the sender's is
 * the next one, so that runs can go side by side.
 *
 * A call counts as blocked once the kernel reports its thread asleep
 * inside it (/proc/self/task/TID/syscall names the call only for a task
 * that is not running) twice in a row with nothing completed between:
 * no guessing from elapsed time.
 *
 * Linux does not end a system call blocked on a descriptor that another
 * thread closes: the call holds its own reference to the file, and the
 * socket is released only when the call returns. These tests pin that
 * down for hyperframe and check that nothing is lost or left behind.
 * Exit status 0 when every check held; the reasons otherwise on stderr.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <linux/errqueue.h>
#include <linux/sockios.h>

#include "hf_util.h"

/* The receiving socket's port, and the sender's one above it. */
static unsigned short port_rx = 7300;
#define PORT_RX		port_rx
#define PORT_TX		(port_rx + 1)

static int failures;

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "hf_race: " __VA_ARGS__);		\
		fputc('\n', stderr);					\
		failures++;						\
	}								\
} while (0)

struct pair {
	int tx, rx;
	struct sockaddr_hf to_rx;	/* from tx, through TXNS's eth0 */
	struct sockaddr_hf to_tx;	/* from rx, through RXNS's eth0 */
	const char *rxns;
};

/* One socket in each namespace; rx bound to PORT_RX, tx to PORT_TX. */
static int open_pair(struct pair *p, const char *txns, const char *rxns)
{
	struct sockaddr_hf a = { .shf_family = hf_family() };
	unsigned char tx_mac[6], rx_mac[6];
	int tx_if, rx_if;

	p->rxns = rxns;
	if (hf_enter_netns(rxns) || hf_if_info("eth0", &rx_if, rx_mac))
		return -1;
	p->rx = socket(hf_family(), SOCK_RDM, 0);
	a.shf_port = PORT_RX;
	if (p->rx < 0 || bind(p->rx, (struct sockaddr *)&a, sizeof(a))) {
		perror("hf_race: rx socket");
		return -1;
	}
	if (hf_enter_netns(txns) || hf_if_info("eth0", &tx_if, tx_mac))
		return -1;
	p->tx = socket(hf_family(), SOCK_RDM, 0);
	a.shf_port = PORT_TX;
	if (p->tx < 0 || bind(p->tx, (struct sockaddr *)&a, sizeof(a))) {
		perror("hf_race: tx socket");
		return -1;
	}
	p->to_rx = (struct sockaddr_hf){ .shf_family = hf_family(),
		.shf_port = PORT_RX, .shf_ifindex = tx_if };
	memcpy(p->to_rx.shf_addr, rx_mac, 6);
	p->to_tx = (struct sockaddr_hf){ .shf_family = hf_family(),
		.shf_port = PORT_TX, .shf_ifindex = rx_if };
	memcpy(p->to_tx.shf_addr, tx_mac, 6);
	return 0;
}

static void set_timeo(int fd, int opt, double s)
{
	struct timeval tv = { (time_t)s, (suseconds_t)((s - (time_t)s) * 1e6) };

	if (setsockopt(fd, SOL_SOCKET, opt, &tv, sizeof(tv)))
		perror("hf_race: timeout");
}

static void set_buf(int fd, int opt, int bytes)
{
	if (setsockopt(fd, SOL_SOCKET, opt, &bytes, sizeof(bytes)))
		perror("hf_race: buffer");
}

/*
 * Receive numbered messages 0..@n-1 of @len bytes on @fd, in order, then
 * check nothing more comes.
 */
static void expect_messages(int fd, uint32_t n, size_t len)
{
	unsigned char *buf = malloc(len + 1);
	uint32_t i;

	set_timeo(fd, SO_RCVTIMEO, 15);
	for (i = 0; i < n; i++) {
		ssize_t r = recv(fd, buf, len + 1, 0), bad;
		int64_t num;

		if (r < 0) {
			CHECK(0, "message %u of %u accepted never arrived: %s",
			      i, n, strerror(errno));
			break;
		}
		num = hf_check(buf, r, &bad);
		CHECK(num == i && (size_t)r == len && bad < 0,
		      "message %u: got number %lld, %zd bytes, first bad byte %zd",
		      i, (long long)num, r, bad);
	}
	set_timeo(fd, SO_RCVTIMEO, 0.5);
	CHECK(recv(fd, buf, len + 1, 0) < 0 && errno == EAGAIN,
	      "a message arrived that sendmsg had not accepted");
	free(buf);
	printf("hf_race: %u accepted messages arrived intact after the close\n", n);
}

static void on_usr1(int sig)
{
}

struct blocked {
	int fd;
	const struct sockaddr_hf *to;
	size_t len;
	_Atomic uint32_t done;		/* messages accepted / received */
	_Atomic bool in_call;
	_Atomic bool closing;
	double call_start, ret_time;
	ssize_t ret;
	int err;
	unsigned char *buf;
	_Atomic pid_t tid;		/* the thread making the call */
};

/*
 * Whether thread @tid is asleep inside system call @nr. The kernel gives
 * the call's number in /proc/.../syscall only for a task that is not
 * running ("running" otherwise); -1 means outside any call.
 */
static bool asleep_in(pid_t tid, long nr)
{
	char path[64], line[128];
	bool ret = false;
	long got;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", tid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fgets(line, sizeof(line), f) && sscanf(line, "%ld", &got) == 1)
		ret = got == nr;
	fclose(f);
	return ret;
}

static void *sender(void *arg)
{
	struct blocked *b = arg;
	uint32_t k;

	b->tid = syscall(SYS_gettid);
	for (k = 0;; k++) {
		hf_fill(b->buf, b->len, k);
		b->call_start = hf_now();
		b->in_call = true;
		b->ret = sendto(b->fd, b->buf, b->len, 0,
				(struct sockaddr *)b->to, sizeof(*b->to));
		b->err = errno;
		b->ret_time = hf_now();
		b->in_call = false;
		if (b->ret != (ssize_t)b->len || b->closing)
			break;
		b->done = k + 1;
	}
	if (b->ret == (ssize_t)b->len)
		b->done = k + 1;
	return NULL;
}

static void *receiver(void *arg)
{
	struct blocked *b = arg;

	b->tid = syscall(SYS_gettid);
	b->call_start = hf_now();
	b->in_call = true;
	/* recv() is recvfrom() on x86-64; called by name for asleep_in(). */
	b->ret = recvfrom(b->fd, b->buf, b->len + 1, 0, NULL, NULL);
	b->err = errno;
	b->ret_time = hf_now();
	b->in_call = false;
	return NULL;
}

/*
 * Wait until the thread is asleep inside system call @nr, twice in a row
 * 20 ms apart with no call completed between, or @limit seconds pass.
 */
static int wait_blocked(struct blocked *b, long nr, double limit)
{
	double t0 = hf_now();
	uint32_t seen = b->done;
	int asleep = 0;

	while (hf_now() - t0 < limit) {
		usleep(20000);
		if (b->done != seen || !b->in_call || !b->tid ||
		    !asleep_in(b->tid, nr)) {
			seen = b->done;
			asleep = 0;
			continue;
		}
		if (++asleep == 2)
			return 0;
	}
	return -1;
}

/*
 * After the close: the call must go on sleeping. Nothing in the kernel
 * happens on another thread's close() to wake it, so this looks for a
 * while (@window seconds) for the call having ended anyway.
 */
static bool still_blocked(struct blocked *b, long nr, double window)
{
	double t0 = hf_now();

	while (hf_now() - t0 < window) {
		if (!b->in_call)
			return false;
		usleep(20000);
	}
	return b->in_call && asleep_in(b->tid, nr);
}

static int close_send(const char *txns, const char *rxns, const char *mode)
{
	const double timeo = !strcmp(mode, "timeout") ? 3 : 30;
	struct sigaction sa = { .sa_handler = on_usr1 };
	struct blocked b = { .len = 32768 };
	struct pair p;
	pthread_t th;
	uint32_t before;
	double t_close;

	if (open_pair(&p, txns, rxns))
		return 2;
	sigaction(SIGUSR1, &sa, NULL);
	/* Small buffers: two messages fill each side. */
	set_buf(p.tx, SO_SNDBUF, 32768);
	set_buf(p.rx, SO_RCVBUF, 32768);
	set_timeo(p.tx, SO_SNDTIMEO, timeo);
	b.fd = p.tx;
	b.to = &p.to_rx;
	b.buf = malloc(b.len);
	pthread_create(&th, NULL, sender, &b);

	if (wait_blocked(&b, SYS_sendto, 20)) {
		CHECK(0, "the sender never blocked (accepted %u, last %s)",
		      b.done, hf_errname(b.in_call ? 0 : b.err));
		return 1;
	}
	before = b.done;
	b.closing = true;
	t_close = hf_now();
	CHECK(close(p.tx) == 0, "close: %s", strerror(errno));
	printf("hf_race: sender blocked after %u messages; descriptor closed\n",
	       before);

	if (!strcmp(mode, "timeout")) {
		pthread_join(th, NULL);
		CHECK(b.ret == -1 && b.err == EAGAIN,
		      "blocked send after close returned %zd (%s), want EAGAIN at SO_SNDTIMEO",
		      b.ret, hf_errname(b.err));
		CHECK(b.ret_time - b.call_start >= timeo - 0.05,
		      "blocked send returned after %.2f s, before its %.0f s timeout: close() ended it",
		      b.ret_time - b.call_start, timeo);
		printf("hf_race: blocked send returned %s %.2f s after the close (timeout %.0f s)\n",
		       hf_errname(b.err), b.ret_time - t_close, timeo);
		expect_messages(p.rx, before, b.len);
	} else if (!strcmp(mode, "drain")) {
		CHECK(still_blocked(&b, SYS_sendto, 0.3),
		      "close() ended the blocked send: %zd (%s)",
		      b.ret, hf_errname(b.err));
		/* The reader frees room; the call on the closed descriptor completes. */
		expect_messages(p.rx, before + 1, b.len);
		pthread_join(th, NULL);
		CHECK(b.ret == (ssize_t)b.len,
		      "blocked send returned %zd (%s) once room came, want %zu",
		      b.ret, hf_errname(b.err), b.len);
		printf("hf_race: blocked send on the closed descriptor returned %zd once the receiver read\n",
		       b.ret);
	} else {
		CHECK(still_blocked(&b, SYS_sendto, 0.3),
		      "close() ended the blocked send: %zd (%s)",
		      b.ret, hf_errname(b.err));
		pthread_kill(th, SIGUSR1);
		pthread_join(th, NULL);
		CHECK(b.ret == -1 && b.err == EINTR,
		      "signalled send returned %zd (%s), want EINTR",
		      b.ret, hf_errname(b.err));
		CHECK(b.ret_time - t_close < 2,
		      "signalled send took %.2f s to return", b.ret_time - t_close);
		printf("hf_race: blocked send returned %s on a signal\n",
		       hf_errname(b.err));
		expect_messages(p.rx, before, b.len);
	}
	close(p.rx);
	return failures ? 1 : 0;
}

static int close_recv(const char *txns, const char *rxns, const char *mode)
{
	const double timeo = !strcmp(mode, "timeout") ? 3 : 30;
	struct sigaction sa = { .sa_handler = on_usr1 };
	struct sockaddr_hf a = { .shf_family = hf_family(), .shf_port = PORT_RX };
	struct blocked b = { .len = 20000 };
	unsigned char *out;
	struct pair p;
	pthread_t th;
	double t_close;
	int fd;

	if (open_pair(&p, txns, rxns))
		return 2;
	sigaction(SIGUSR1, &sa, NULL);
	set_timeo(p.rx, SO_RCVTIMEO, timeo);
	b.fd = p.rx;
	b.buf = malloc(b.len + 1);
	out = malloc(b.len);
	pthread_create(&th, NULL, receiver, &b);
	if (wait_blocked(&b, SYS_recvfrom, 20)) {
		CHECK(0, "the receiver never blocked: %zd (%s)", b.ret,
		      hf_errname(b.err));
		return 1;
	}
	t_close = hf_now();
	CHECK(close(p.rx) == 0, "close: %s", strerror(errno));

	if (!strcmp(mode, "timeout")) {
		pthread_join(th, NULL);
		CHECK(b.ret == -1 && b.err == EAGAIN,
		      "blocked recv after close returned %zd (%s), want EAGAIN at SO_RCVTIMEO",
		      b.ret, hf_errname(b.err));
		CHECK(b.ret_time - b.call_start >= timeo - 0.05,
		      "blocked recv returned after %.2f s, before its %.0f s timeout: close() ended it",
		      b.ret_time - b.call_start, timeo);
	} else if (!strcmp(mode, "message")) {
		struct sock_extended_err *ee;
		char cbuf[256];
		struct msghdr mh = { .msg_control = cbuf,
				     .msg_controllen = sizeof(cbuf) };
		struct cmsghdr *c;
		int i, outq = -1;
		ssize_t bad;

		CHECK(still_blocked(&b, SYS_recvfrom, 0.3),
		      "close() ended the blocked recv: %zd (%s)",
		      b.ret, hf_errname(b.err));
		/* Still bound until the call returns: it gets the message. */
		hf_fill(out, b.len, 0);
		CHECK(sendto(p.tx, out, b.len, 0, (struct sockaddr *)&p.to_rx,
			     sizeof(p.to_rx)) == (ssize_t)b.len,
		      "send: %s", strerror(errno));
		pthread_join(th, NULL);
		CHECK(b.ret == (ssize_t)b.len && hf_check(b.buf, b.len, &bad) == 0 &&
		      bad < 0, "blocked recv on the closed descriptor returned %zd (%s), want the message",
		      b.ret, hf_errname(b.err));
		/* The call's return released the socket: the port refuses. */
		hf_fill(out, b.len, 1);
		CHECK(sendto(p.tx, out, b.len, 0, (struct sockaddr *)&p.to_rx,
			     sizeof(p.to_rx)) == (ssize_t)b.len,
		      "send: %s", strerror(errno));
		for (i = 0; i < 1000 && outq; i++) {
			ioctl(p.tx, SIOCOUTQ, &outq);
			usleep(10000);
		}
		CHECK(recvmsg(p.tx, &mh, MSG_ERRQUEUE | MSG_DONTWAIT) >= 0 &&
		      (c = CMSG_FIRSTHDR(&mh)) &&
		      (ee = (struct sock_extended_err *)CMSG_DATA(c)) &&
		      ee->ee_errno == ECONNREFUSED && ee->ee_info == 1,
		      "a message to the released port was not refused (outq %d)",
		      outq);
	} else {
		CHECK(still_blocked(&b, SYS_recvfrom, 0.3),
		      "close() ended the blocked recv: %zd (%s)",
		      b.ret, hf_errname(b.err));
		pthread_kill(th, SIGUSR1);
		pthread_join(th, NULL);
		CHECK(b.ret == -1 && b.err == EINTR,
		      "signalled recv returned %zd (%s), want EINTR", b.ret,
		      hf_errname(b.err));
		CHECK(b.ret_time - t_close < 2,
		      "signalled recv took %.2f s to return", b.ret_time - t_close);
	}
	printf("hf_race: blocked recv returned %zd (%s) %.2f s after the close\n",
	       b.ret, b.ret < 0 ? hf_errname(b.err) : "a message",
	       b.ret_time - t_close);

	/* The socket is gone with the call: its port can be bound again. */
	if (hf_enter_netns(rxns))
		return 2;
	fd = socket(hf_family(), SOCK_RDM, 0);
	CHECK(fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0,
	      "port %d still taken after the blocked recv returned: %s",
	      PORT_RX, strerror(errno));
	close(fd);
	close(p.tx);
	return failures ? 1 : 0;
}

/* The many-threads case: both sockets send and receive at once. */
struct side {
	int fd;
	const struct sockaddr_hf *to;
	int id;				/* 0 or 1: which socket */
	int senders, msgs;
	_Atomic int received;
	pthread_mutex_t lock;
	unsigned char *seen;		/* [sender thread][message] */
	int corrupt, dup, reordered, send_errors;
};

struct worker {
	struct side *s;
	int thread;
};

static size_t thread_len(int side, int thread, int k)
{
	return 16 + (size_t)((k * 7919u + thread * 104729u + side * 31u) % 40000);
}

static void *thread_send(void *arg)
{
	struct worker *w = arg;
	struct side *s = w->s;
	unsigned char *buf = malloc(40016);
	int k;

	for (k = 0; k < s->msgs; k++) {
		size_t len = thread_len(s->id, w->thread, k);

		hf_fill(buf, len, (uint32_t)s->id << 24 | w->thread << 16 | k);
		if (sendto(s->fd, buf, len, 0, (struct sockaddr *)s->to,
			   sizeof(*s->to)) != (ssize_t)len) {
			fprintf(stderr, "hf_race: side %d thread %d send %d: %s\n",
				s->id, w->thread, k, strerror(errno));
			__atomic_add_fetch(&s->send_errors, 1, __ATOMIC_RELAXED);
			break;
		}
	}
	free(buf);
	return NULL;
}

/* Receives what the other side's senders sent to this side's socket. */
static void *thread_recv(void *arg)
{
	struct worker *w = arg;
	struct side *s = w->s;
	int total = s->senders * s->msgs;
	unsigned char *buf = malloc(40017);
	int last[256];
	double t0 = hf_now();
	int i;

	for (i = 0; i < 256; i++)
		last[i] = -1;
	while (s->received < total && hf_now() - t0 < 40) {
		ssize_t r = recv(s->fd, buf, 40017, 0), bad;
		int64_t num;
		int side, thread, k;

		if (r < 0)
			continue;	/* SO_RCVTIMEO: look at the count again */
		num = hf_check(buf, r, &bad);
		side = num >> 24;
		thread = num >> 16 & 0xff;
		k = num & 0xffff;
		pthread_mutex_lock(&s->lock);
		if (num < 0 || bad >= 0 || side != !s->id ||
		    thread >= s->senders || k >= s->msgs ||
		    (size_t)r != thread_len(side, thread, k)) {
			s->corrupt++;
		} else if (s->seen[thread * s->msgs + k]) {
			s->dup++;
		} else {
			s->seen[thread * s->msgs + k] = 1;
			if (k <= last[thread])
				s->reordered++;
			last[thread] = k;
			s->received++;
		}
		pthread_mutex_unlock(&s->lock);
	}
	free(buf);
	return NULL;
}

static int threads(const char *txns, const char *rxns, int nthreads, int msgs)
{
	struct side sides[2];
	struct worker *w;
	pthread_t *th;
	int i, n = 0, per = nthreads / 2;
	struct pair p;
	double t0;

	if (per < 1 || per > 255 || msgs < 1 || msgs > 65535 ||
	    open_pair(&p, txns, rxns))
		return 2;
	th = calloc(4 * per, sizeof(*th));
	w = calloc(4 * per, sizeof(*w));
	for (i = 0; i < 2; i++) {
		struct side *s = &sides[i];

		memset(s, 0, sizeof(*s));
		s->fd = i ? p.rx : p.tx;
		s->to = i ? &p.to_tx : &p.to_rx;
		s->id = i;
		s->senders = per;
		s->msgs = msgs;
		s->seen = calloc(per * msgs, 1);
		pthread_mutex_init(&s->lock, NULL);
		set_timeo(s->fd, SO_RCVTIMEO, 0.2);
	}
	t0 = hf_now();
	for (i = 0; i < 4 * per; i++) {
		w[i].s = &sides[i / (2 * per)];
		w[i].thread = i % per;
		pthread_create(&th[i], NULL,
			       (i / per) % 2 ? thread_recv : thread_send, &w[i]);
	}
	for (i = 0; i < 4 * per; i++)
		pthread_join(th[i], NULL);

	for (i = 0; i < 2; i++) {
		struct side *s = &sides[i];
		int outq = -1, j;

		for (j = 0; j < 1000 && outq; j++) {
			ioctl(s->fd, SIOCOUTQ, &outq);
			if (outq)
				usleep(10000);
		}
		CHECK(!outq, "socket %d: %d bytes without an outcome", i, outq);
		CHECK(recv(s->fd, NULL, 0, MSG_ERRQUEUE | MSG_DONTWAIT) < 0,
		      "socket %d: a message was reported failed", i);
		CHECK(s->received == per * msgs && !s->corrupt && !s->dup &&
		      !s->reordered && !s->send_errors,
		      "socket %d: received %d of %d, corrupt %d, duplicate %d, out of order %d, send errors %d",
		      i, s->received, per * msgs, s->corrupt, s->dup,
		      s->reordered, s->send_errors);
		n += s->received;
	}
	printf("hf_race: %d threads on each socket, %d messages each way, %d received once and intact, %.2f s\n",
	       2 * per, per * msgs, n, hf_now() - t0);
	close(p.tx);
	close(p.rx);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (getenv("HF_RACE_PORT"))
		port_rx = atoi(getenv("HF_RACE_PORT"));
	if (hf_family() < 0) {
		fprintf(stderr, "hf_race: module not loaded\n");
		return 2;
	}
	if (argc == 5 && !strcmp(argv[1], "close-send"))
		return close_send(argv[2], argv[3], argv[4]);
	if (argc == 5 && !strcmp(argv[1], "close-recv"))
		return close_recv(argv[2], argv[3], argv[4]);
	if (argc == 6 && !strcmp(argv[1], "threads"))
		return threads(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]));
	fprintf(stderr, "usage: hf_race close-send TXNS RXNS timeout|drain|signal\n"
			"       hf_race close-recv TXNS RXNS timeout|message|signal\n"
			"       hf_race threads TXNS RXNS THREADS MESSAGES\n");
	return 2;
}
