// SPDX-License-Identifier: GPL-2.0
/*
 * hf_account.c - an accounted sender and a verifying receiver for the
 * lifecycle and fault-injection selftests. Every message is numbered
 * (hf_util.h) and every outcome tallied, so a test can show that each
 * message sendmsg() accepted was either delivered, byte-exact and once,
 * or reported failed; and that every error a call returned was one the
 * test allows.
 *
 *   hf_account send [OPTIONS] IFNAME MAC PORT SIZES COUNT
 *	send COUNT numbered messages, sizes cycling through SIZES (comma-
 *	separated, each at least 8 bytes), to MAC on IFNAME at PORT; then
 *	wait for every outcome (SIOCOUTQ reaching 0) and print the tally
 *   hf_account recv [OPTIONS] PORT SIZES COUNT
 *	bind PORT and check each message that arrives: its number, length
 *	and content, that numbers only grow (one socket's messages to one
 *	peer arrive in order), and that none arrives twice
 *   hf_account nth IFNAME MAC PORT SIZE
 *	fail the 1st, 2nd, 3rd ... allocation of one sendmsg() in turn
 *	(/proc/thread-self/fail-nth) until a call makes no more; the
 *	messages accepted are tallied as send does
 *   hf_account nth-socket
 *	the same for socket() and bind() of an AF_HYPERFRAME socket
 *
 * Options of send:
 *   --retry ERRS   sendmsg() errors to retry 2 ms later, by name
 *		    (ENOMEM,ENOBUFS,...); any other error fails the run
 *   --stop ERRS    sendmsg() errors that end the sending phase
 *   --expect ERRS  failures the error queue may report (default none)
 *   --time S       stop sending after S seconds
 *   --until FILE   stop sending once FILE exists
 *   --drain S      wait at most S seconds for outcomes (default 60)
 * Options of recv:
 *   --idle MS      end after MS ms without a message (30 s before the
 *		    first), or once the last number arrived, rather than
 *		    after COUNT messages (which waits 60 s at most).
 *		    SIGUSR1 makes it take what is queued and end: once the
 *		    sender has every outcome, every delivered message is
 *		    queued on the socket already
 * Both:
 *   --log FILE     the ledger: "N ok", "N failed ERR" or "N refused ERR"
 *		    per message attempted (send), the numbers received (recv)
 *   --fail-self    set /proc/thread-self/make-it-fail while transferring:
 *		    fault injection with task-filter aims at this process
 *
 * send and nth print one "account: key=value ..." line and exit 0 when
 * every error was allowed and every outcome arrived; recv prints one and
 * exits 0 when every message was intact and, without --idle, all came.
 * "ok" means no failure was reported; "unnamed" counts failures the
 * namespace's tx_msgs_failed counter saw that no error-queue entry named
 * (the entry itself could not be allocated): that many "ok" messages may
 * not have arrived. Only meaningful with one sending socket in the
 * namespace.
 */
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <linux/errqueue.h>
#include <linux/sockios.h>

#include "hf_util.h"

#define MAX_SIZES	64

enum { UNSENT, REFUSED, ACCEPTED, FAILED };

static struct {
	unsigned int retry[64], stop[64], expect[64];
	double time_limit, drain;
	const char *until;
	int idle_ms;
	const char *log;
	bool fail_self;
} opt = { .drain = 60 };

static size_t sizes[MAX_SIZES];
static int nsizes;

/* The sender's ledger. */
static unsigned char *state;
static int *errs;
static uint32_t *seq_num;		/* user_seq (ee_info) -> number */
static uint32_t naccepted;
static unsigned int send_err[200], async_err[200];
static int unexpected, double_reports, misnamed, odd_errno;

static int make_it_fail_fd = -1;

static void fail_self(bool on)
{
	if (make_it_fail_fd >= 0 &&
	    pwrite(make_it_fail_fd, on ? "1" : "0", 1, 0) != 1)
		perror("hf_account: make-it-fail");
}

static int parse_errs(const char *arg, unsigned int *set)
{
	char *copy = strdup(arg), *tok, *save;

	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int e = hf_errnum(tok);

		if (!e) {
			fprintf(stderr, "hf_account: unknown errno name %s\n", tok);
			return -1;
		}
		set[e / 32] |= 1u << (e % 32);
	}
	free(copy);
	return 0;
}

static bool in_set(const unsigned int *set, int e)
{
	return e > 0 && e < 64 * 32 && (set[e / 32] & (1u << (e % 32)));
}

static int parse_sizes(char *arg)
{
	char *tok;

	for (tok = strtok(arg, ","); tok && nsizes < MAX_SIZES;
	     tok = strtok(NULL, ",")) {
		sizes[nsizes] = strtoull(tok, NULL, 0);
		if (sizes[nsizes] < HF_TAG_LEN) {
			fprintf(stderr, "hf_account: sizes must be at least %d\n",
				HF_TAG_LEN);
			return -1;
		}
		nsizes++;
	}
	return nsizes ? 0 : -1;
}

static size_t max_size(void)
{
	size_t max = 0;
	int i;

	for (i = 0; i < nsizes; i++)
		if (sizes[i] > max)
			max = sizes[i];
	return max;
}

/* A counter from this namespace's /proc/net/hyperframe, or -1. */
static long long proc_stat(const char *name)
{
	char key[64];
	long long v, found = -1;
	FILE *f = fopen("/proc/net/hyperframe", "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", key, &v) == 2)
		if (!strcmp(key, name))
			found = v;
	fclose(f);
	return found;
}

static void tally(char *out, size_t cap, const unsigned int *count)
{
	size_t n = 0;
	int e;

	out[0] = 0;
	for (e = 1; e < 200; e++)
		if (count[e] && n < cap)
			n += snprintf(out + n, cap - n, "%s%s:%u", n ? "," : "",
				      hf_errname(e), count[e]);
	if (!n)
		snprintf(out, cap, "none");
}

/* Take every entry off the error queue and mark its message failed. */
static void read_errqueue(int fd)
{
	char cbuf[512];

	for (;;) {
		struct msghdr mh = { .msg_control = cbuf,
				     .msg_controllen = sizeof(cbuf) };
		struct sock_extended_err *ee;
		struct cmsghdr *c;
		uint32_t num;

		if (recvmsg(fd, &mh, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			return;
		c = CMSG_FIRSTHDR(&mh);
		if (!c || c->cmsg_level != SOL_HYPERFRAME ||
		    c->cmsg_type != HF_RECVERR) {
			fprintf(stderr, "hf_account: error-queue entry without HF_RECVERR\n");
			misnamed++;
			continue;
		}
		ee = (struct sock_extended_err *)CMSG_DATA(c);
		if (ee->ee_info >= naccepted) {
			fprintf(stderr, "hf_account: error for message %u, only %u sent\n",
				ee->ee_info, naccepted);
			misnamed++;
			continue;
		}
		num = seq_num[ee->ee_info];
		if (ee->ee_data != sizes[num % nsizes]) {
			fprintf(stderr, "hf_account: error for message %u names %u bytes, it has %zu\n",
				num, ee->ee_data, sizes[num % nsizes]);
			misnamed++;
		}
		if (state[num] == FAILED)
			double_reports++;
		state[num] = FAILED;
		errs[num] = ee->ee_errno;
		if (ee->ee_errno > 0 && ee->ee_errno < 200)
			async_err[ee->ee_errno]++;
		else
			odd_errno++;
		if (!in_set(opt.expect, ee->ee_errno)) {
			fprintf(stderr, "hf_account: message %u failed: %s (ee_errno %d)\n",
				num, strerror(ee->ee_errno), (int)ee->ee_errno);
			unexpected++;
		}
	}
}

static int ledger_alloc(uint32_t count)
{
	state = calloc(count, 1);
	errs = calloc(count, sizeof(*errs));
	seq_num = calloc(count, sizeof(*seq_num));
	return state && errs && seq_num ? 0 : -1;
}

static int open_dest(const char *ifname, const char *mac, int port,
		     struct sockaddr_hf *dst)
{
	int fd = socket(hf_family(), SOCK_RDM, 0);

	if (fd < 0) {
		perror("hf_account: socket");
		return -1;
	}
	memset(dst, 0, sizeof(*dst));
	dst->shf_family = hf_family();
	dst->shf_port = port;
	dst->shf_ifindex = if_nametoindex(ifname);
	if (!dst->shf_ifindex || hf_parse_mac(mac, dst->shf_addr)) {
		fprintf(stderr, "hf_account: bad interface or address\n");
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Wait for every outcome, then print the ledger and the tally. Returns
 * the exit status.
 */
static int finish_send(int fd, uint32_t attempted, long long failed0,
		       double t0)
{
	uint32_t i, ok = 0, failed = 0, refused = 0;
	char se[512], ae[512];
	int outq = -1, so_error = 0;
	socklen_t len = sizeof(so_error);
	long long failed1, unnamed = -1;
	double t = hf_now();
	FILE *log = NULL;

	do {
		read_errqueue(fd);
		if (ioctl(fd, SIOCOUTQ, &outq))
			outq = -1;
		if (!outq)
			break;
		usleep(10000);
	} while (hf_now() - t < opt.drain);
	read_errqueue(fd);
	getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &len);

	if (opt.log) {
		log = fopen(opt.log, "w");
		if (!log)
			perror("hf_account: log");
	}
	for (i = 0; i < attempted; i++) {
		switch (state[i]) {
		case ACCEPTED:
			ok++;
			if (log)
				fprintf(log, "%u ok\n", i);
			break;
		case FAILED:
			failed++;
			if (log)
				fprintf(log, "%u failed %s\n", i, hf_errname(errs[i]));
			break;
		case REFUSED:
			refused++;
			if (log)
				fprintf(log, "%u refused %s\n", i, hf_errname(errs[i]));
			break;
		}
	}
	if (log)
		fclose(log);
	failed1 = proc_stat("tx_msgs_failed");
	if (failed0 >= 0 && failed1 >= 0)
		unnamed = failed1 - failed0 - failed;
	tally(se, sizeof(se), send_err);
	tally(ae, sizeof(ae), async_err);
	printf("account: attempted=%u accepted=%u ok=%u failed=%u unnamed=%lld refused=%u send_errors=%s async_errors=%s outq=%d so_error=%s double_reports=%d misnamed=%d odd_errno=%d seconds=%.2f\n",
	       attempted, naccepted, ok, failed, unnamed, refused, se, ae,
	       outq, hf_errname(so_error), double_reports, misnamed, odd_errno,
	       hf_now() - t0);
	if (outq)
		fprintf(stderr, "hf_account: %d bytes still without an outcome after %.0f s\n",
			outq, opt.drain);
	if (so_error < 0)
		fprintf(stderr, "hf_account: SO_ERROR is negative: %d\n", so_error);
	return unexpected || double_reports || misnamed || odd_errno ||
	       so_error < 0 || outq ? 1 : 0;
}

static int do_send(const char *ifname, const char *mac, int port,
		   uint32_t count)
{
	struct sockaddr_hf dst;
	unsigned char *buf;
	long long failed0;
	uint32_t num = 0;
	double t0;
	int fd;

	fd = open_dest(ifname, mac, port, &dst);
	buf = malloc(max_size());
	if (fd < 0 || !buf || ledger_alloc(count))
		return 2;
	memset(buf, 0, max_size());
	failed0 = proc_stat("tx_msgs_failed");
	t0 = hf_now();

	fail_self(true);
	while (num < count) {
		size_t len = sizes[num % nsizes];
		ssize_t r;
		int e;

		if (opt.time_limit && hf_now() - t0 > opt.time_limit)
			break;
		if (opt.until && !access(opt.until, F_OK))
			break;
		hf_fill(buf, len, num);
		r = sendto(fd, buf, len, 0, (struct sockaddr *)&dst, sizeof(dst));
		e = errno;
		if (r == (ssize_t)len) {
			/* Its outcome may be queued before sendto() returns. */
			seq_num[naccepted++] = num;
			state[num++] = ACCEPTED;
			read_errqueue(fd);
			continue;
		}
		read_errqueue(fd);
		if (r >= 0) {
			fprintf(stderr, "hf_account: sendto returned %zd of %zu\n",
				r, len);
			unexpected++;
			break;
		}
		if (e < 200)
			send_err[e]++;
		if (in_set(opt.retry, e)) {
			usleep(2000);
			continue;
		}
		state[num] = REFUSED;
		errs[num++] = e;
		if (!in_set(opt.stop, e)) {
			fprintf(stderr, "hf_account: sendto message %u: %s\n",
				num - 1, strerror(e));
			unexpected++;
		}
		break;
	}
	fail_self(false);
	return finish_send(fd, num, failed0, t0);
}

static volatile sig_atomic_t stop_recv, drain_recv;

static void on_term(int sig)
{
	stop_recv = 1;
}

static void on_usr1(int sig)
{
	drain_recv = 1;
}

static int do_recv(int port, uint32_t count)
{
	struct sockaddr_hf addr = { .shf_family = hf_family(), .shf_port = port };
	int idle = opt.idle_ms ? opt.idle_ms : 60000;
	size_t max = max_size(), total = 0;
	struct sigaction sa = { .sa_handler = on_term };
	struct sigaction sd = { .sa_handler = on_usr1 };
	int64_t last = -1;
	uint32_t got = 0;
	int corrupt = 0, dup = 0, reordered = 0, foreign = 0, errors = 0;
	unsigned char *buf, *seen;
	uint32_t *nums, i;
	double t0 = 0, last_t;
	FILE *log = NULL;
	int fd;

	fd = socket(hf_family(), SOCK_RDM, 0);
	buf = malloc(max + 1);
	seen = calloc(count, 1);
	nums = calloc(count, sizeof(*nums));
	if (fd < 0 || !buf || !seen || !nums) {
		perror("hf_account: socket");
		return 2;
	}
	/* No page fault inside a call while faults are injected. */
	memset(buf, 0, max + 1);
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		fprintf(stderr, "hf_account: bind %d: %s\n", port, strerror(errno));
		return 2;
	}
	if (opt.log) {
		log = fopen(opt.log, "w");
		if (!log) {
			perror("hf_account: log");
			return 2;
		}
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGUSR1, &sd, NULL);
	printf("ready\n");
	fflush(stdout);

	last_t = hf_now();
	fail_self(true);
	while (!stop_recv && (opt.idle_ms || got < count)) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n, bad;
		int64_t num;
		int ready = poll(&p, 1, drain_recv ? 0 : 100);

		if (ready < 0 && errno == EINTR)
			continue;
		if (ready <= 0) {
			if (drain_recv)
				break;
			/* Silence counts from the first message (30 s before it). */
			if (hf_now() - last_t > (t0 ? idle / 1000.0 : 30))
				break;
			continue;
		}
		n = recv(fd, buf, max + 1, MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			fail_self(false);
			fprintf(stderr, "hf_account: recv: %s\n", strerror(errno));
			errors++;
			break;
		}
		if (!t0)
			t0 = hf_now();
		last_t = hf_now();
		num = hf_check(buf, n, &bad);
		if (num < 0 || num >= count) {
			foreign++;
			continue;
		}
		if ((size_t)n != sizes[num % nsizes] || bad >= 0) {
			fail_self(false);
			fprintf(stderr, "hf_account: message %lld: %zd bytes (want %zu), first bad byte %zd\n",
				(long long)num, n, sizes[num % nsizes], bad);
			fail_self(true);
			corrupt++;
		}
		if (seen[num]) {
			dup++;
			continue;
		}
		if (num < last)
			reordered++;
		seen[num] = 1;
		nums[got++] = num;
		if (num > last)
			last = num;
		total += n;
		/* Numbers only grow: after the last one nothing can come. */
		if (num == count - 1)
			break;
	}
	fail_self(false);
	/* Written only now: a write may fail while faults are injected. */
	for (i = 0; log && i < got; i++)
		fprintf(log, "%u\n", nums[i]);
	if (log && fclose(log))
		perror("hf_account: log");
	printf("account: received=%u bytes=%zu corrupt=%d duplicate=%d reordered=%d foreign=%d last=%lld seconds=%.2f\n",
	       got, total, corrupt, dup, reordered, foreign, (long long)last,
	       t0 ? last_t - t0 : 0.0);
	if (!opt.idle_ms && got < count)
		fprintf(stderr, "hf_account: %u of %u messages arrived\n", got, count);
	return corrupt || dup || reordered || foreign || errors ||
	       (!opt.idle_ms && got < count) ? 1 : 0;
}

/*
 * Arm /proc/thread-self/fail-nth for the @n-th allocation, run @call,
 * disarm; return whether the fault was injected.
 */
static int nth_fd = -1;

static int nth_arm(int n)
{
	char v[16];
	int len = snprintf(v, sizeof(v), "%d", n);

	return pwrite(nth_fd, v, len, 0) == len ? 0 : -1;
}

static bool nth_injected(void)
{
	char v[16] = "";

	/* 0 once injected, the count still to go otherwise. */
	if (pread(nth_fd, v, sizeof(v) - 1, 0) <= 0)
		return false;
	nth_arm(0);
	return atoi(v) == 0;
}

static int nth_open(void)
{
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (nth_fd < 0)
		perror("hf_account: /proc/thread-self/fail-nth");
	return nth_fd;
}

static int do_nth(const char *ifname, const char *mac, int port, size_t len)
{
	enum { MAX_N = 400 };
	struct sockaddr_hf dst;
	unsigned char *buf;
	int fd, n, missed = 0, injected = 0;
	char trail[4096];
	size_t tn = 0;
	long long failed0;
	double t0 = hf_now();
	uint32_t num = 0;

	sizes[0] = len;
	nsizes = 1;
	fd = open_dest(ifname, mac, port, &dst);
	buf = malloc(len);
	if (fd < 0 || !buf || ledger_alloc(MAX_N) || nth_open() < 0)
		return 2;
	failed0 = proc_stat("tx_msgs_failed");

	for (n = 1; n < MAX_N && missed < 2; n++, num++) {
		ssize_t r;
		int e;
		bool hit;

		hf_fill(buf, len, num);
		if (nth_arm(n))
			return 2;
		r = sendto(fd, buf, len, 0, (struct sockaddr *)&dst, sizeof(dst));
		e = errno;
		hit = nth_injected();
		injected += hit;
		missed = hit ? 0 : missed + 1;
		if (r == (ssize_t)len) {
			seq_num[naccepted++] = num;
			state[num] = ACCEPTED;
		} else {
			state[num] = REFUSED;
			errs[num] = e;
			if (e < 200)
				send_err[e]++;
			if (e != ENOMEM && e != ENOBUFS) {
				fprintf(stderr, "hf_account: sendto with allocation %d failed: %s\n",
					n, strerror(e));
				unexpected++;
			}
		}
		if (tn < sizeof(trail))
			tn += snprintf(trail + tn, sizeof(trail) - tn, "%s%d:%s%s",
				       tn ? "," : "", n,
				       r == (ssize_t)len ? "ok" : hf_errname(e),
				       hit ? "" : "(none)");
		read_errqueue(fd);
	}
	printf("nth: allocations=%d injected=%d calls=%s\n",
	       n - 1 - missed, injected, trail);
	return finish_send(fd, num, failed0, t0) || !injected ? 1 : 0;
}

static int do_nth_socket(void)
{
	/* Read before arming: reading it allocates too. */
	int family = hf_family();
	struct sockaddr_hf addr = { .shf_family = family };
	int n, missed = 0, injected = 0, bad = 0;
	unsigned int count[200] = { 0 };
	char out[512];

	if (nth_open() < 0)
		return 2;
	for (n = 1; n < 200 && missed < 2; n++) {
		int fd, e = 0;
		bool hit;

		if (nth_arm(n))
			return 2;
		fd = socket(family, SOCK_RDM, 0);
		if (fd < 0)
			e = errno;
		else if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)))
			e = errno;
		hit = nth_injected();
		if (fd >= 0)
			close(fd);
		injected += hit;
		missed = hit ? 0 : missed + 1;
		if (e < 200)
			count[e]++;
		if (e && e != ENOMEM && e != ENFILE && e != ENOBUFS) {
			fprintf(stderr, "hf_account: socket/bind with allocation %d failed: %s\n",
				n, strerror(e));
			bad++;
		}
	}
	tally(out, sizeof(out), count);
	printf("nth-socket: allocations=%d injected=%d results=%s\n",
	       n - 1 - missed, injected, out);
	return bad || !injected || !count[0] ? 1 : 0;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: hf_account send [OPTIONS] IFNAME MAC PORT SIZES COUNT\n"
		"       hf_account recv [OPTIONS] PORT SIZES COUNT\n"
		"       hf_account nth IFNAME MAC PORT SIZE\n"
		"       hf_account nth-socket\n");
	return 2;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "retry", required_argument, NULL, 'r' },
		{ "stop", required_argument, NULL, 's' },
		{ "expect", required_argument, NULL, 'e' },
		{ "time", required_argument, NULL, 't' },
		{ "until", required_argument, NULL, 'u' },
		{ "drain", required_argument, NULL, 'd' },
		{ "idle", required_argument, NULL, 'i' },
		{ "log", required_argument, NULL, 'l' },
		{ "fail-self", no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 }
	};
	const char *cmd;
	int c;

	if (argc < 2)
		return usage();
	cmd = argv[1];
	optind = 2;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (parse_errs(optarg, opt.retry))
				return 2;
			break;
		case 's':
			if (parse_errs(optarg, opt.stop))
				return 2;
			break;
		case 'e':
			if (parse_errs(optarg, opt.expect))
				return 2;
			break;
		case 't':
			opt.time_limit = atof(optarg);
			break;
		case 'u':
			opt.until = optarg;
			break;
		case 'd':
			opt.drain = atof(optarg);
			break;
		case 'i':
			opt.idle_ms = atoi(optarg);
			break;
		case 'l':
			opt.log = optarg;
			break;
		case 'f':
			opt.fail_self = true;
			break;
		default:
			return usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (hf_family() < 0) {
		fprintf(stderr, "hf_account: module not loaded\n");
		return 2;
	}
	if (opt.fail_self) {
		make_it_fail_fd = open("/proc/thread-self/make-it-fail",
				       O_WRONLY | O_CLOEXEC);
		if (make_it_fail_fd < 0) {
			perror("hf_account: /proc/thread-self/make-it-fail");
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (!strcmp(cmd, "send") && argc == 5) {
		if (parse_sizes(argv[3]))
			return 2;
		return do_send(argv[0], argv[1], atoi(argv[2]),
			       strtoul(argv[4], NULL, 0));
	}
	if (!strcmp(cmd, "recv") && argc == 3) {
		if (parse_sizes(argv[1]))
			return 2;
		return do_recv(atoi(argv[0]), strtoul(argv[2], NULL, 0));
	}
	if (!strcmp(cmd, "nth") && argc == 4)
		return do_nth(argv[0], argv[1], atoi(argv[2]),
			      strtoul(argv[3], NULL, 0));
	if (!strcmp(cmd, "nth-socket") && argc == 0)
		return do_nth_socket();
	return usage();
}
