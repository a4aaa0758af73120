// SPDX-License-Identifier: GPL-2.0
/*
 * hf_scope_test.c - who may reach a socket, and what it lets in: a socket
 * bound to an interface (bind()'s shf_ifindex or SO_BINDTODEVICE, one
 * binding) receives only what arrives on it, the sender of anything else
 * learns ECONNREFUSED, and it sends only through it (ENETUNREACH); a
 * socket filter (SO_ATTACH_FILTER, SO_ATTACH_BPF) and the security module
 * (a BPF LSM program) see every message before it is queued and may drop
 * it (ECONNREFUSED at the sender) or, the filter, keep a part of it,
 * without costing its flow the credit of the rest; ports below 1024 need
 * CAP_NET_BIND_SERVICE over the socket's network namespace.
 *
 * Each test runs in a network namespace of its own holding one node with
 * two interfaces, hfb and hfd, each the far end of a veth pair: what is
 * sent through hfa arrives on hfb, what is sent through hfc on hfd.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/capability.h>
#include <linux/errqueue.h>
#include <linux/filter.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "hf_family.h"

#define RX_PORT 7100

static int read_mac(const char *ifname, unsigned char *mac)
{
	struct ifreq ifr;
	int fd, err;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, ifname, IFNAMSIZ - 1);
	err = ioctl(fd, SIOCGIFHWADDR, &ifr);
	close(fd);
	if (err)
		return -1;
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	return 0;
}

/* Wait until every message sent on @fd has its outcome. */
static int drain(int fd)
{
	int i, outq = 0;

	for (i = 0; i < 3000; i++) {
		if (ioctl(fd, SIOCOUTQ, &outq))
			return -1;
		if (!outq)
			return 0;
		usleep(10000);
	}
	return -1;
}

/*
 * The next error-queue entry of @fd: its errno, and in *@info the number
 * of the message it names; 0 when the queue is empty.
 */
static int next_error(int fd, unsigned int *info)
{
	char cbuf[256], data[8];
	struct iovec iov = { data, sizeof(data) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct sock_extended_err *ee;
	struct cmsghdr *c;

	if (recvmsg(fd, &mh, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
		return errno == EAGAIN ? 0 : -1;
	c = CMSG_FIRSTHDR(&mh);
	if (!c || c->cmsg_level != SOL_HYPERFRAME || c->cmsg_type != HF_RECVERR)
		return -1;
	ee = (struct sock_extended_err *)CMSG_DATA(c);
	*info = ee->ee_info;
	return ee->ee_errno;
}

/* A counter of this namespace's /proc/net/hyperframe; -1 when missing. */
static long long hf_counter(const char *name)
{
	char key[64];
	long long val, found = -1;
	FILE *f = fopen("/proc/net/hyperframe", "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", key, &val) == 2)
		if (!strcmp(key, name))
			found = val;
	fclose(f);
	return found;
}

/*
 * Whether what a refused, cut or read message held is all back: this
 * namespace holds no reassembly (rx_mem_bytes) and no reservation
 * (rx_mem_reserved_bytes), and the module-wide charge (mem_bytes) is back
 * at @mem or below. Polled for up to 10 s: a message's memory goes when
 * its outcome is resolved, after its last segment. 0, or -1 (with the
 * gauges logged).
 */
static int settled(struct __test_metadata *_metadata, long long mem)
{
	long long rx_mem = -1, reserved = -1, all = -1;
	int i;

	for (i = 0; i < 1000; i++) {
		rx_mem = hf_counter("rx_mem_bytes");
		reserved = hf_counter("rx_mem_reserved_bytes");
		all = hf_counter("mem_bytes");
		if (!rx_mem && !reserved && all >= 0 && all <= mem)
			return 0;
		usleep(10000);
	}
	TH_LOG("still held: rx_mem_bytes %lld, rx_mem_reserved_bytes %lld, "
	       "mem_bytes %lld (%lld before)", rx_mem, reserved, all, mem);
	return -1;
}

static void set_rcvtimeo(int fd, int ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

FIXTURE(node)
{
	int family;
	int tx, rx;
	int if_a, if_b, if_c, if_d;
	unsigned char mac_a[6], mac_c[6];
	struct sockaddr_hf to_b;	/* RX_PORT, arriving on hfb */
	struct sockaddr_hf to_d;	/* RX_PORT, arriving on hfd */
};

FIXTURE_SETUP(node)
{
	self->family = hf_family();
	ASSERT_GT(self->family, 0) TH_LOG("hyperframe module is not loaded");
	ASSERT_EQ(0, unshare(CLONE_NEWNET));
	ASSERT_EQ(0, system("ip link set lo up && "
			    "ip link add name hfa type veth peer name hfb && "
			    "ip link add name hfc type veth peer name hfd && "
			    "for i in hfa hfb hfc hfd; do ip link set $i up || exit 1; done"));
	self->if_a = if_nametoindex("hfa");
	self->if_b = if_nametoindex("hfb");
	self->if_c = if_nametoindex("hfc");
	self->if_d = if_nametoindex("hfd");
	ASSERT_TRUE(self->if_a && self->if_b && self->if_c && self->if_d);
	ASSERT_EQ(0, read_mac("hfa", self->mac_a));
	ASSERT_EQ(0, read_mac("hfc", self->mac_c));

	memset(&self->to_b, 0, sizeof(self->to_b));
	self->to_b.shf_family = self->family;
	self->to_b.shf_port = RX_PORT;
	self->to_b.shf_ifindex = self->if_a;
	ASSERT_EQ(0, read_mac("hfb", self->to_b.shf_addr));
	self->to_d = self->to_b;
	self->to_d.shf_ifindex = self->if_c;
	ASSERT_EQ(0, read_mac("hfd", self->to_d.shf_addr));

	self->rx = socket(self->family, SOCK_RDM, 0);
	ASSERT_LE(0, self->rx);
	self->tx = socket(self->family, SOCK_RDM, 0);
	ASSERT_LE(0, self->tx);
}

FIXTURE_TEARDOWN(node)
{
	close(self->tx);
	close(self->rx);
}

static int bind_to(int fd, int family, unsigned short port, int ifindex)
{
	struct sockaddr_hf a;

	memset(&a, 0, sizeof(a));
	a.shf_family = family;
	a.shf_port = port;
	a.shf_ifindex = ifindex;
	return bind(fd, (struct sockaddr *)&a, sizeof(a));
}

static int bind_device(int fd, const char *ifname)
{
	return setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, ifname, strlen(ifname));
}

static ssize_t send_msg(int fd, const struct sockaddr_hf *dst, const char *s)
{
	return sendto(fd, s, strlen(s), 0, (const struct sockaddr *)dst, sizeof(*dst));
}

static int bound_ifindex(int fd)
{
	struct sockaddr_hf a;
	socklen_t len = sizeof(a);

	if (getsockname(fd, (struct sockaddr *)&a, &len))
		return -1;
	return a.shf_ifindex;
}

/*
 * Message 0 to RX_PORT by hfd, message 1 by hfb, from one socket: @rx,
 * bound to hfb, gets the second only, with its source, and the first's
 * sender learns ECONNREFUSED, counted as for no port and as for another
 * interface.
 */
static void only_from_b(struct __test_metadata *_metadata,
			FIXTURE_DATA(node) *self)
{
	long long no_port = hf_counter("rx_msgs_no_port");
	long long other = hf_counter("rx_msgs_other_dev");
	struct sockaddr_hf src;
	socklen_t slen = sizeof(src);
	unsigned int info = 99;
	char in[64];
	ssize_t n;

	ASSERT_EQ(5, send_msg(self->tx, &self->to_d, "via-d"));
	ASSERT_EQ(5, send_msg(self->tx, &self->to_b, "via-b"));
	ASSERT_EQ(0, drain(self->tx));

	set_rcvtimeo(self->rx, 2000);
	n = recvfrom(self->rx, in, sizeof(in), 0, (struct sockaddr *)&src, &slen);
	ASSERT_EQ(5, n);
	EXPECT_EQ(0, memcmp(in, "via-b", 5)) TH_LOG("got '%.*s' first", (int)n, in);
	EXPECT_EQ(self->if_b, src.shf_ifindex);
	EXPECT_EQ(0, memcmp(src.shf_addr, self->mac_a, 6));
	n = recv(self->rx, in, sizeof(in), MSG_DONTWAIT);
	EXPECT_EQ(-1, n) TH_LOG("also got '%.*s', which came in on hfd",
				(int)(n > 0 ? n : 0), in);

	EXPECT_EQ(ECONNREFUSED, next_error(self->tx, &info));
	EXPECT_EQ(0, info) TH_LOG("names the message sent by hfd");
	EXPECT_EQ(0, next_error(self->tx, &info)) TH_LOG("one refusal only");
	EXPECT_EQ(no_port + 1, hf_counter("rx_msgs_no_port"));
	EXPECT_EQ(other + 1, hf_counter("rx_msgs_other_dev"));
}

TEST_F(node, bound_interface_takes_only_its_own)
{
	ASSERT_EQ(0, bind_to(self->rx, self->family, RX_PORT, self->if_b));
	only_from_b(_metadata, self);
}

TEST_F(node, bindtodevice_takes_only_its_own)
{
	ASSERT_EQ(0, bind_device(self->rx, "hfb"));
	ASSERT_EQ(0, bind_to(self->rx, self->family, RX_PORT, 0));
	EXPECT_EQ(self->if_b, bound_ifindex(self->rx)) TH_LOG("one binding, shown by getsockname");
	only_from_b(_metadata, self);
}

/*
 * bind()'s interface and SO_BINDTODEVICE are one binding: bind refuses
 * another interface than the socket is bound to (EINVAL, as IPv6 does for
 * a scope id), each shows in the other, and the last one set holds.
 */
TEST_F(node, the_two_bindings_are_one)
{
	char name[IFNAMSIZ] = "";
	socklen_t len = sizeof(name);
	int s = socket(self->family, SOCK_RDM, 0);
	char in[16];

	ASSERT_LE(0, s);
	ASSERT_EQ(0, bind_device(s, "hfd"));
	EXPECT_EQ(-1, bind_to(s, self->family, RX_PORT + 1, self->if_b));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, bind_to(s, self->family, RX_PORT + 1, self->if_d))
		TH_LOG("the same interface both ways: %s", strerror(errno));
	close(s);

	ASSERT_EQ(0, bind_to(self->rx, self->family, RX_PORT, self->if_b));
	ASSERT_EQ(0, getsockopt(self->rx, SOL_SOCKET, SO_BINDTODEVICE, name, &len));
	EXPECT_STREQ("hfb", name) TH_LOG("bind()'s interface, seen as SO_BINDTODEVICE");

	/* Moved (as root: CAP_NET_RAW) to hfd: hfb is refused now. */
	ASSERT_EQ(0, bind_device(self->rx, "hfd"));
	EXPECT_EQ(self->if_d, bound_ifindex(self->rx));
	ASSERT_EQ(5, send_msg(self->tx, &self->to_b, "via-b"));
	ASSERT_EQ(5, send_msg(self->tx, &self->to_d, "via-d"));
	ASSERT_EQ(0, drain(self->tx));
	set_rcvtimeo(self->rx, 2000);
	ASSERT_EQ(5, recv(self->rx, in, sizeof(in), 0));
	EXPECT_EQ(0, memcmp(in, "via-d", 5));
	EXPECT_EQ(-1, recv(self->rx, in, sizeof(in), MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
}

/*
 * A socket bound to an interface sends only through it, as IP's
 * SO_BINDTODEVICE restricts the route: a destination on another one is
 * ENETUNREACH, for sendto() and connect(), whichever way it was bound.
 */
TEST_F(node, bound_socket_sends_only_through_its_interface)
{
	int dev = socket(self->family, SOCK_RDM, 0);
	char in[16];

	ASSERT_LE(0, dev);
	ASSERT_EQ(0, bind_to(self->rx, self->family, RX_PORT, 0));
	ASSERT_EQ(0, bind_to(self->tx, self->family, 0, self->if_a));

	EXPECT_EQ(-1, send_msg(self->tx, &self->to_d, "via-c"));
	EXPECT_EQ(ENETUNREACH, errno);
	EXPECT_EQ(-1, connect(self->tx, (struct sockaddr *)&self->to_d, sizeof(self->to_d)));
	EXPECT_EQ(ENETUNREACH, errno);
	ASSERT_EQ(0, connect(self->tx, (struct sockaddr *)&self->to_b, sizeof(self->to_b)));
	ASSERT_EQ(5, send(self->tx, "via-a", 5, 0));

	ASSERT_EQ(0, bind_device(dev, "hfc"));
	EXPECT_EQ(-1, send_msg(dev, &self->to_b, "via-a"));
	EXPECT_EQ(ENETUNREACH, errno);
	ASSERT_EQ(5, send_msg(dev, &self->to_d, "via-c"));

	ASSERT_EQ(0, drain(self->tx));
	ASSERT_EQ(0, drain(dev));
	set_rcvtimeo(self->rx, 2000);
	EXPECT_EQ(5, recv(self->rx, in, sizeof(in), 0));
	EXPECT_EQ(5, recv(self->rx, in, sizeof(in), 0));
	EXPECT_EQ(-1, recv(self->rx, in, sizeof(in), MSG_DONTWAIT))
		TH_LOG("a message went through an interface its socket is not bound to");
	close(dev);
}

static int attach_cbpf(int fd, struct sock_filter *insns, unsigned short n)
{
	struct sock_fprog prog = { .len = n, .filter = insns };

	return setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog));
}

/*
 * Message @num of @self->tx was refused: its sender got ECONNREFUSED for
 * it, counted as filtered (and as for no port) at the receiver.
 */
static void refused(struct __test_metadata *_metadata, FIXTURE_DATA(node) *self,
		    unsigned int num, long long filtered, long long no_port)
{
	unsigned int info = 99;

	ASSERT_EQ(0, drain(self->tx));
	EXPECT_EQ(ECONNREFUSED, next_error(self->tx, &info));
	EXPECT_EQ(num, info);
	EXPECT_EQ(filtered, hf_counter("rx_msgs_filtered"));
	EXPECT_EQ(no_port, hf_counter("rx_msgs_no_port"));
}

TEST_F(node, classic_filter_drops_and_its_sender_learns)
{
	struct sock_filter drop[] = { BPF_STMT(BPF_RET | BPF_K, 0) };
	long long filtered = hf_counter("rx_msgs_filtered");
	long long no_port = hf_counter("rx_msgs_no_port");
	long long mem = hf_counter("mem_bytes");
	char in[16];
	int none = 0;

	ASSERT_EQ(0, bind_to(self->rx, self->family, RX_PORT, 0));
	ASSERT_EQ(0, attach_cbpf(self->rx, drop, 1));
	ASSERT_EQ(7, send_msg(self->tx, &self->to_b, "dropped"));
	refused(_metadata, self, 0, filtered + 1, no_port + 1);
	EXPECT_EQ(-1, recv(self->rx, in, sizeof(in), MSG_DONTWAIT))
		TH_LOG("a filter that drops everything let a message through");

	/* Without the filter, the next one arrives. */
	ASSERT_EQ(0, setsockopt(self->rx, SOL_SOCKET, SO_DETACH_FILTER, &none, sizeof(none)));
	ASSERT_EQ(4, send_msg(self->tx, &self->to_b, "kept"));
	set_rcvtimeo(self->rx, 2000);
	ASSERT_EQ(4, recv(self->rx, in, sizeof(in), 0));
	EXPECT_EQ(0, memcmp(in, "kept", 4));
	EXPECT_EQ(filtered + 1, hf_counter("rx_msgs_filtered"));
	EXPECT_EQ(0, settled(_metadata, mem));
}

/* An eBPF socket filter returning @verdict. */
static int ebpf_filter(int verdict)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = verdict },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "hf_verdict", "GPL", insns,
			     sizeof(insns) / sizeof(insns[0]), NULL);
}

TEST_F(node, ebpf_filter_drops_and_its_sender_learns)
{
	long long filtered = hf_counter("rx_msgs_filtered");
	long long no_port = hf_counter("rx_msgs_no_port");
	long long mem = hf_counter("mem_bytes");
	int drop = ebpf_filter(0), keep = ebpf_filter(-1);
	char in[16];

	ASSERT_LE(0, drop) TH_LOG("BPF_PROG_LOAD: %s", strerror(errno));
	ASSERT_LE(0, keep);
	ASSERT_EQ(0, bind_to(self->rx, self->family, RX_PORT, 0));
	ASSERT_EQ(0, setsockopt(self->rx, SOL_SOCKET, SO_ATTACH_BPF, &drop, sizeof(drop)));
	ASSERT_EQ(7, send_msg(self->tx, &self->to_b, "dropped"));
	refused(_metadata, self, 0, filtered + 1, no_port + 1);
	EXPECT_EQ(-1, recv(self->rx, in, sizeof(in), MSG_DONTWAIT));

	ASSERT_EQ(0, setsockopt(self->rx, SOL_SOCKET, SO_ATTACH_BPF, &keep, sizeof(keep)));
	ASSERT_EQ(4, send_msg(self->tx, &self->to_b, "kept"));
	set_rcvtimeo(self->rx, 2000);
	ASSERT_EQ(4, recv(self->rx, in, sizeof(in), 0));
	EXPECT_EQ(0, memcmp(in, "kept", 4));
	close(drop);
	close(keep);
	EXPECT_EQ(0, settled(_metadata, mem));
}

static unsigned char body(size_t i, unsigned int num)
{
	return (unsigned char)(i * 131 + i / 1021 + num * 7);
}

/*
 * The filter sees the whole message, from its first byte, across its
 * segments: one that drops the messages whose byte 5000 (in the fourth
 * segment of 1460) is 'X' refuses those and lets the others through
 * byte-exact and in order.
 */
TEST_F(node, filter_reads_the_message_and_passes_the_rest_whole)
{
	enum { N = 8, LEN = 20000, MARK = 5000 };
	struct sock_filter by_content[] = {
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, MARK),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 'X', 0, 1),
		BPF_STMT(BPF_RET | BPF_K, 0),
		BPF_STMT(BPF_RET | BPF_K, 0xffffffff),
	};
	long long filtered = hf_counter("rx_msgs_filtered");
	long long mem = hf_counter("mem_bytes");
	static unsigned char out[LEN], in[LEN + 1];
	unsigned int i, info;
	size_t j;

	ASSERT_EQ(0, bind_to(self->rx, self->family, RX_PORT, 0));
	ASSERT_EQ(0, attach_cbpf(self->rx, by_content, 4));
	for (i = 0; i < N; i++) {
		for (j = 0; j < LEN; j++)
			out[j] = body(j, i);
		out[MARK] = i % 2 ? 'X' : 'x';
		ASSERT_EQ(LEN, sendto(self->tx, out, LEN, 0, (struct sockaddr *)&self->to_b,
				      sizeof(self->to_b)));
	}
	ASSERT_EQ(0, drain(self->tx));
	set_rcvtimeo(self->rx, 2000);
	for (i = 0; i < N; i += 2) {
		ASSERT_EQ(LEN, recv(self->rx, in, sizeof(in), 0));
		for (j = 0; j < LEN; j++)
			if (in[j] != (j == MARK ? 'x' : body(j, i)))
				break;
		EXPECT_EQ(LEN, j) TH_LOG("message %u: first wrong byte at %zu", i, j);
	}
	EXPECT_EQ(-1, recv(self->rx, in, sizeof(in), MSG_DONTWAIT))
		TH_LOG("a marked message got through");
	for (i = 1; i < N; i += 2) {
		EXPECT_EQ(ECONNREFUSED, next_error(self->tx, &info));
		EXPECT_EQ(i, info);
	}
	EXPECT_EQ(filtered + N / 2, hf_counter("rx_msgs_filtered"));
	EXPECT_EQ(0, settled(_metadata, mem));
}

/* HF_INFO of @fd about the peer at @ifindex, @mac; 0 or -1. */
static int peer_info(int fd, int family, int ifindex, const unsigned char *mac,
		     struct hf_info *info)
{
	socklen_t len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	info->hfi_peer.shf_family = family;
	info->hfi_peer.shf_ifindex = ifindex;
	memcpy(info->hfi_peer.shf_addr, mac, 6);
	if (getsockopt(fd, SOL_HYPERFRAME, HF_INFO, info, &len) ||
	    !(info->hfi_flags & HF_INFO_PEER))
		return -1;
	return 0;
}

/*
 * A filter that keeps 16 bytes of each message: the reader gets those 16,
 * MSG_TRUNC set, and with MSG_TRUNC asked the length sent. Every byte of
 * every message goes back to its flow's credit when it is read, not the 16
 * kept: 40 messages of 1 MiB, two and a half times what the credit lets a
 * sender have unread (16 MiB by default), all arrive, and nothing is left
 * unread in the flow's count at the end.
 */
TEST_F_TIMEOUT(node, truncating_filter_keeps_the_flow_s_credit, 180)
{
	enum { MIB = 1 << 20, N = 40, KEEP = 16 };
	struct sock_filter cut[] = { BPF_STMT(BPF_RET | BPF_K, KEEP) };
	static unsigned char out[MIB], in[64 * 1024];
	struct iovec iov = { in, sizeof(in) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	long long mem = hf_counter("mem_bytes");
	struct hf_info info;
	int i, status, big = 4 * MIB;
	unsigned int num;
	pid_t child;
	ssize_t n;

	ASSERT_EQ(0, bind_to(self->rx, self->family, RX_PORT, 0));
	ASSERT_EQ(0, attach_cbpf(self->rx, cut, 1));
	ASSERT_EQ(0, setsockopt(self->tx, SOL_SOCKET, SO_SNDBUFFORCE, &big, sizeof(big)));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		for (i = 0; i < N; i++) {
			memset(out, 'a' + i % 26, sizeof(out));
			memcpy(out, &i, sizeof(i));
			if (sendto(self->tx, out, MIB, 0, (struct sockaddr *)&self->to_b,
				   sizeof(self->to_b)) != MIB)
				_exit(1);
		}
		if (drain(self->tx))
			_exit(2);
		/* Every message delivered: say which were not, and why. */
		status = 0;
		while ((n = next_error(self->tx, &num)) > 0) {
			fprintf(stderr, "# message %u failed: %s\n", num, strerror(n));
			status = 3;
		}
		_exit(status);
	}
	/* A sender out of credit stalls for good: fail, not hang. */
	set_rcvtimeo(self->rx, 15000);
	for (i = 0; i < N; i++) {
		mh.msg_flags = 0;
		n = recvmsg(self->rx, &mh, i == N - 1 ? MSG_TRUNC : 0);
		if (n < 0) {
			kill(child, SIGKILL);
			ASSERT_LE(0, n) TH_LOG("message %d of %d: %s (credit lost?)", i, N,
					       strerror(errno));
		}
		EXPECT_EQ(i == N - 1 ? MIB : KEEP, n) TH_LOG("message %d", i);
		EXPECT_TRUE(mh.msg_flags & MSG_TRUNC) TH_LOG("message %d", i);
		EXPECT_EQ(0, memcmp(in, &i, sizeof(i))) TH_LOG("message %d out of order", i);
		EXPECT_EQ('a' + i % 26, in[KEEP - 1]);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("sender: status %d (2: outcomes missing, 3: messages failed)",
		       WEXITSTATUS(status));
	ASSERT_EQ(0, peer_info(self->rx, self->family, self->if_b, self->mac_a, &info));
	EXPECT_EQ(0, info.hfi_rx_unread) TH_LOG("bytes the flow still counts unread");
	EXPECT_EQ(-1, recv(self->rx, in, sizeof(in), MSG_DONTWAIT));
	EXPECT_EQ(0, settled(_metadata, mem));
}

/*
 * A refused message lets go of everything it held, as one read at once
 * does: a filter dropping all of 40 messages of 1 MiB (two and a half
 * times the credit budget: a sender stalls if any credit is kept) refuses
 * every one (ECONNREFUSED, in order), its flow gets the credit of each
 * back (nothing counted unread) and nothing stays reserved or charged.
 * Messages a filter cut to 16 bytes and nobody read still count against
 * the namespace until their socket is closed, as any unread message does,
 * but for what they keep, not for the 1 MiB they arrived with (else a
 * reader with such a filter would hold the namespace's and the module's
 * limits with memory long freed); nothing after the close.
 */
TEST_F_TIMEOUT(node, refused_and_cut_messages_hold_nothing, 180)
{
	enum { MIB = 1 << 20, N = 40, UNREAD = 4, KEEP = 16 };
	struct sock_filter drop[] = { BPF_STMT(BPF_RET | BPF_K, 0) };
	struct sock_filter cut[] = { BPF_STMT(BPF_RET | BPF_K, KEEP) };
	long long filtered = hf_counter("rx_msgs_filtered");
	long long mem = hf_counter("mem_bytes");
	int i, status, big = 4 * MIB, rcvbuf = 8 * MIB;
	static unsigned char out[MIB];
	struct sockaddr_hf to_cut;
	struct hf_info info;
	unsigned int num;
	long long held;
	pid_t child;
	int cutter;

	ASSERT_EQ(0, bind_to(self->rx, self->family, RX_PORT, 0));
	ASSERT_EQ(0, attach_cbpf(self->rx, drop, 1));
	ASSERT_EQ(0, setsockopt(self->tx, SOL_SOCKET, SO_SNDBUFFORCE, &big, sizeof(big)));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		for (i = 0; i < N; i++) {
			memset(out, 'a' + i % 26, sizeof(out));
			if (sendto(self->tx, out, MIB, 0, (struct sockaddr *)&self->to_b,
				   sizeof(self->to_b)) != MIB)
				_exit(1);
		}
		_exit(drain(self->tx) ? 2 : 0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("sender: status %d (2: outcomes missing, credit lost?)",
		       WEXITSTATUS(status));
	for (i = 0; i < N; i++) {
		num = ~0U;
		EXPECT_EQ(ECONNREFUSED, next_error(self->tx, &num)) TH_LOG("message %d", i);
		EXPECT_EQ((unsigned int)i, num);
	}
	EXPECT_EQ(filtered + N, hf_counter("rx_msgs_filtered"));
	ASSERT_EQ(0, peer_info(self->rx, self->family, self->if_b, self->mac_a, &info));
	EXPECT_EQ(0, info.hfi_rx_unread) TH_LOG("bytes of refused messages counted unread");
	EXPECT_EQ(0, settled(_metadata, mem));

	/* Cut to 16 bytes and left unread: held until close(). */
	cutter = socket(self->family, SOCK_RDM, 0);
	ASSERT_LE(0, cutter);
	ASSERT_EQ(0, setsockopt(cutter, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)));
	ASSERT_EQ(0, bind_to(cutter, self->family, RX_PORT + 1, 0));
	ASSERT_EQ(0, attach_cbpf(cutter, cut, 1));
	to_cut = self->to_b;
	to_cut.shf_port = RX_PORT + 1;
	for (i = 0; i < UNREAD; i++)
		ASSERT_EQ(MIB, sendto(self->tx, out, MIB, 0, (struct sockaddr *)&to_cut,
				      sizeof(to_cut)));
	ASSERT_EQ(0, drain(self->tx));
	EXPECT_EQ(0, next_error(self->tx, &num)) TH_LOG("a cut message was refused");
	held = hf_counter("rx_mem_reserved_bytes");
	TH_LOG("%d refused messages of 1 MiB, then %d cut to %d bytes and unread: "
	       "%lld bytes reserved", N, UNREAD, KEEP, held);
	EXPECT_LT(0, held) TH_LOG("unread messages counted for nothing");
	EXPECT_GE((long long)UNREAD * 4096, held)
		TH_LOG("%d messages cut to %d bytes, %lld bytes reserved", UNREAD, KEEP, held);
	close(cutter);
	EXPECT_EQ(0, settled(_metadata, mem));
}

/*
 * A BPF LSM program on socket_sock_rcv_skb denying every hyperframe
 * socket: security_sock_rcv_skb() runs on delivery, so a message is
 * refused (ECONNREFUSED, counted as filtered) while it is attached, and
 * delivered once it is gone. Skipped where the BPF LSM is not active.
 */
TEST_F(node, security_module_refuses_and_its_sender_learns)
{
	long long filtered = hf_counter("rx_msgs_filtered");
	long long no_port = hf_counter("rx_msgs_no_port");
	long long mem = hf_counter("mem_bytes");
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_LSM_MAC);
	struct bpf_insn insns[] = {
		/* r0 = 0; r2 = ctx[0] (sk); r3 = sk->__sk_common.skc_family */
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_2,
		  .src_reg = BPF_REG_1, .off = 0 },
		{ .code = BPF_LDX | BPF_MEM | BPF_H, .dst_reg = BPF_REG_3,
		  .src_reg = BPF_REG_2, .off = 16 },
		/* if r3 == family: r0 = -EPERM */
		{ .code = BPF_JMP | BPF_JNE | BPF_K, .dst_reg = BPF_REG_3, .off = 1,
		  .imm = self->family },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = -EPERM },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	char lsms[256] = "", in[16];
	struct btf *vmlinux;
	int fd, id, prog, link;
	ssize_t n = -1;

	fd = open("/sys/kernel/security/lsm", O_RDONLY);
	if (fd >= 0) {
		n = read(fd, lsms, sizeof(lsms) - 1);
		close(fd);
	}
	if (n > 0 && !strstr(lsms, "bpf"))
		SKIP(return, "the BPF LSM is not active (%s)", lsms);
	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux)
		SKIP(return, "no kernel BTF");
	id = btf__find_by_name_kind(vmlinux, "bpf_lsm_socket_sock_rcv_skb", BTF_KIND_FUNC);
	btf__free(vmlinux);
	ASSERT_LT(0, id) TH_LOG("no bpf_lsm_socket_sock_rcv_skb in the kernel's BTF");
	opts.attach_btf_id = id;
	prog = bpf_prog_load(BPF_PROG_TYPE_LSM, "hf_deny_rcv", "GPL", insns,
			     sizeof(insns) / sizeof(insns[0]), &opts);
	ASSERT_LE(0, prog) TH_LOG("loading the LSM program: %s", strerror(errno));
	link = bpf_link_create(prog, 0, BPF_LSM_MAC, NULL);
	ASSERT_LE(0, link) TH_LOG("attaching the LSM program: %s", strerror(errno));

	ASSERT_EQ(0, bind_to(self->rx, self->family, RX_PORT, 0));
	ASSERT_EQ(6, send_msg(self->tx, &self->to_b, "denied"));
	refused(_metadata, self, 0, filtered + 1, no_port + 1);
	EXPECT_EQ(-1, recv(self->rx, in, sizeof(in), MSG_DONTWAIT))
		TH_LOG("the security module's denial was ignored");

	close(link);
	close(prog);
	ASSERT_EQ(7, send_msg(self->tx, &self->to_b, "allowed"));
	set_rcvtimeo(self->rx, 2000);
	ASSERT_EQ(7, recv(self->rx, in, sizeof(in), 0));
	EXPECT_EQ(0, memcmp(in, "allowed", 7));
	EXPECT_EQ(0, settled(_metadata, mem));
}

/* Capabilities of this thread: @effective and @permitted, CAP_* bits. */
static int set_caps(unsigned long long effective, unsigned long long permitted)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = {
		{ .effective = (__u32)effective, .permitted = (__u32)permitted },
		{ .effective = (__u32)(effective >> 32), .permitted = (__u32)(permitted >> 32) },
	};

	return syscall(SYS_capset, &h, d);
}

static int become_nobody(void)
{
	return setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
	       setresuid(65534, 65534, 65534) ? -1 : 0;
}

static int bind_new(int family, unsigned short port)
{
	int fd = socket(family, SOCK_RDM, 0), err;

	if (fd < 0)
		return -2;
	err = bind_to(fd, family, port, 0) ? errno : 0;
	close(fd);
	return err;
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -1;
}

/*
 * Ports below 1024 need CAP_NET_BIND_SERVICE in the user namespace that
 * owns the socket's network namespace. Exit status of a child: 0, or the
 * step that went wrong.
 */
TEST(privileged_ports_need_cap_net_bind_service)
{
	const unsigned long long nbs = 1ULL << CAP_NET_BIND_SERVICE;
	static const char knob[] = "/proc/sys/kernel/unprivileged_userns_clone";
	int family = hf_family(), status, fd;
	char old[8] = "";
	pid_t child;

	ASSERT_GT(family, 0);
	ASSERT_EQ(0, unshare(CLONE_NEWNET));
	EXPECT_EQ(0, bind_new(family, 80)) TH_LOG("root binds port 80");

	/* nobody, with and without CAP_NET_BIND_SERVICE in effect. */
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		if (prctl(PR_SET_KEEPCAPS, 1) || become_nobody() || set_caps(0, nbs))
			_exit(10);
		if (bind_new(family, 80) != EACCES)
			_exit(11);
		if (bind_new(family, 1023) != EACCES)
			_exit(12);
		if (bind_new(family, 1024) != 0)
			_exit(13);
		if (bind_new(family, 0) != 0)
			_exit(14);
		if (set_caps(nbs, nbs))
			_exit(15);
		if (bind_new(family, 80) != 0)
			_exit(16);
		_exit(0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("step %d: 11/12 a low port without the capability, 13/14 a high one, "
		       "16 port 80 with it", WEXITSTATUS(status));

	/*
	 * nobody as root of its own user namespace binds port 80 in a
	 * network namespace that namespace owns, and not in ours.
	 */
	/* Debian's switch for user namespaces of unprivileged users. */
	fd = open(knob, O_RDONLY);
	if (fd >= 0) {
		if (read(fd, old, sizeof(old) - 1) <= 0)
			old[0] = 0;
		close(fd);
		if (old[0])
			write_file(knob, "1");
	}
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		int outer;
		char map[32];

		/* Dumpable again, or /proc/self is root's (uid_map). */
		if (become_nobody() || prctl(PR_SET_DUMPABLE, 1))
			_exit(20);
		outer = socket(family, SOCK_RDM, 0);
		if (outer < 0)
			_exit(20);
		if (unshare(CLONE_NEWUSER | CLONE_NEWNET))
			_exit(21);
		snprintf(map, sizeof(map), "0 65534 1");
		if (write_file("/proc/self/setgroups", "deny") ||
		    write_file("/proc/self/uid_map", map) ||
		    write_file("/proc/self/gid_map", map))
			_exit(22);
		if (bind_new(family, 80) != 0)
			_exit(23);
		if (bind_to(outer, family, 80, 0) == 0 || errno != EACCES)
			_exit(24);
		_exit(0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	if (old[0])
		write_file(knob, old);
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("step %d: 21 no user namespace, 23 port 80 in its own namespace, "
		       "24 port 80 in the initial one", WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
