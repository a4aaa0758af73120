// SPDX-License-Identifier: GPL-2.0
/*
 * hf_sendrecv_test.c - the message API of AF_HYPERFRAME sockets: whole
 * messages with their source, MSG_TRUNC and MSG_PEEK as in UDP,
 * non-blocking and timed calls, poll and epoll, sendmmsg/recvmmsg,
 * connect()'s default destination, buffer limits in both directions, the
 * errno of every refused send, failures reported through SO_ERROR and
 * the error queue, byte credit holding a sender to what its reader frees,
 * and the HF_INFO socket option.
 *
 * Each test runs in a network namespace of its own with a veth pair
 * hfa <-> hfb: the sender sends through hfa to hfb's address, the receiver
 * is bound in the same namespace and takes what arrives on hfb.
 */
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/errqueue.h>
#include <linux/sockios.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "hf_family.h"

#define RX_PORT 7000

/* sysfs shows the namespace it was mounted in; ask the current one. */
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

static long elapsed_ms(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1000 +
	       (t1.tv_nsec - t0->tv_nsec) / 1000000;
}

/* Wait until every message sent on @fd has its outcome. */
static int drain(int fd)
{
	int i, outq = 0;

	for (i = 0; i < 1000; i++) {
		if (ioctl(fd, SIOCOUTQ, &outq))
			return -1;
		if (!outq)
			return 0;
		usleep(10000);
	}
	return -1;
}

FIXTURE(pair)
{
	int family;
	int tx, rx;
	struct sockaddr_hf dst;		/* the receiver, reached through a */
	unsigned char mac_a[6];
	int ifindex_a, ifindex_b;
};

FIXTURE_SETUP(pair)
{
	struct sockaddr_hf addr;

	self->family = hf_family();
	ASSERT_GT(self->family, 0) TH_LOG("hyperframe module is not loaded");
	ASSERT_EQ(0, unshare(CLONE_NEWNET));
	ASSERT_EQ(0, system("ip link set lo up && ip link add name hfa type veth peer name hfb && "
			    "ip link set hfa up && ip link set hfb up"));
	self->ifindex_a = if_nametoindex("hfa");
	self->ifindex_b = if_nametoindex("hfb");
	ASSERT_NE(0, self->ifindex_a);
	ASSERT_EQ(0, read_mac("hfa", self->mac_a));

	memset(&self->dst, 0, sizeof(self->dst));
	self->dst.shf_family = self->family;
	self->dst.shf_port = RX_PORT;
	self->dst.shf_ifindex = self->ifindex_a;
	ASSERT_EQ(0, read_mac("hfb", self->dst.shf_addr));

	self->rx = socket(self->family, SOCK_RDM, 0);
	ASSERT_LE(0, self->rx);
	memset(&addr, 0, sizeof(addr));
	addr.shf_family = self->family;
	addr.shf_port = RX_PORT;
	ASSERT_EQ(0, bind(self->rx, (struct sockaddr *)&addr, sizeof(addr)));
	self->tx = socket(self->family, SOCK_RDM, 0);
	ASSERT_LE(0, self->tx);
}

FIXTURE_TEARDOWN(pair)
{
	close(self->tx);
	close(self->rx);
}

static ssize_t send_to(FIXTURE_DATA(pair) *self, const void *buf, size_t len,
		       int flags)
{
	return sendto(self->tx, buf, len, flags,
		      (struct sockaddr *)&self->dst, sizeof(self->dst));
}

TEST_F(pair, message_arrives_whole_with_its_source)
{
	char out[3000], in[4000];
	struct sockaddr_hf src, local;
	socklen_t slen = sizeof(src), llen = sizeof(local);
	unsigned int i;

	for (i = 0; i < sizeof(out); i++)
		out[i] = (char)(i * 7);
	ASSERT_EQ(sizeof(out), send_to(self, out, sizeof(out), 0));
	ASSERT_EQ(sizeof(out), recvfrom(self->rx, in, sizeof(in), 0,
					(struct sockaddr *)&src, &slen));
	EXPECT_EQ(0, memcmp(out, in, sizeof(out)));
	ASSERT_EQ(0, getsockname(self->tx, (struct sockaddr *)&local, &llen));
	EXPECT_EQ(sizeof(src), slen);
	EXPECT_EQ(self->family, src.shf_family);
	EXPECT_EQ(local.shf_port, src.shf_port) TH_LOG("source port: the autobound one");
	EXPECT_EQ(self->ifindex_b, src.shf_ifindex);
	EXPECT_EQ(0, memcmp(self->mac_a, src.shf_addr, 6));
}

TEST_F(pair, empty_message_is_a_message)
{
	char in[8];

	ASSERT_EQ(0, send_to(self, "", 0, 0));
	EXPECT_EQ(0, recv(self->rx, in, sizeof(in), 0));
}

TEST_F(pair, truncation_is_reported_as_in_udp)
{
	char out[100] = "0123456789", in[10];
	struct iovec iov = { in, sizeof(in) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	ASSERT_EQ(100, send_to(self, out, sizeof(out), 0));
	ASSERT_EQ(100, send_to(self, out, sizeof(out), 0));
	EXPECT_EQ(10, recvmsg(self->rx, &mh, 0));
	EXPECT_TRUE(mh.msg_flags & MSG_TRUNC);
	EXPECT_EQ(0, memcmp(in, "0123456789", 10));
	/* With MSG_TRUNC asked for, the real length. */
	EXPECT_EQ(100, recv(self->rx, in, sizeof(in), MSG_TRUNC));
}

TEST_F(pair, peek_leaves_the_message_queued)
{
	char in[16];
	int len = 0;

	ASSERT_EQ(5, send_to(self, "hello", 5, 0));
	ASSERT_EQ(5, recv(self->rx, in, sizeof(in), MSG_PEEK));
	ASSERT_EQ(0, ioctl(self->rx, SIOCINQ, &len));
	EXPECT_EQ(5, len);
	ASSERT_EQ(5, recv(self->rx, in, sizeof(in), 0));
	EXPECT_EQ(0, memcmp(in, "hello", 5));
	ASSERT_EQ(0, ioctl(self->rx, SIOCINQ, &len));
	EXPECT_EQ(0, len);
}

TEST_F(pair, nonblocking_and_timed_receive)
{
	struct timeval tv = { 0, 200000 };
	struct timespec t0;
	char in[8];

	EXPECT_EQ(-1, recv(self->rx, in, sizeof(in), MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
	ASSERT_EQ(0, setsockopt(self->rx, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	EXPECT_EQ(-1, recv(self->rx, in, sizeof(in), 0));
	EXPECT_EQ(EAGAIN, errno);
	EXPECT_LE(190, elapsed_ms(&t0));
}

TEST_F(pair, poll_and_epoll_see_a_complete_message)
{
	struct pollfd p = { .fd = self->rx, .events = POLLIN };
	struct epoll_event ev = { .events = EPOLLIN }, got;
	int ep = epoll_create1(0);
	char in[200000];

	ASSERT_LE(0, ep);
	ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_ADD, self->rx, &ev));
	EXPECT_EQ(0, poll(&p, 1, 0));
	EXPECT_EQ(0, epoll_wait(ep, &got, 1, 0));
	p.fd = self->tx;
	p.events = POLLOUT;
	EXPECT_EQ(1, poll(&p, 1, 0)) TH_LOG("an idle socket is writable");

	memset(in, 'x', sizeof(in));
	ASSERT_EQ(sizeof(in), send_to(self, in, sizeof(in), 0));
	EXPECT_EQ(1, epoll_wait(ep, &got, 1, 5000));
	EXPECT_TRUE(got.events & EPOLLIN);
	p.fd = self->rx;
	p.events = POLLIN;
	EXPECT_EQ(1, poll(&p, 1, 0));
	EXPECT_EQ(sizeof(in), recv(self->rx, in, sizeof(in), 0));
	close(ep);
}

TEST_F(pair, sendmmsg_and_recvmmsg_move_batches_in_order)
{
	enum { N = 8 };
	char out[N][64], in[N][64];
	struct mmsghdr mo[N], mi[N];
	struct iovec io[N], ii[N];
	int i;

	memset(mo, 0, sizeof(mo));
	memset(mi, 0, sizeof(mi));
	for (i = 0; i < N; i++) {
		memset(out[i], 'a' + i, sizeof(out[i]));
		io[i] = (struct iovec){ out[i], (size_t)(10 + i) };
		mo[i].msg_hdr.msg_iov = &io[i];
		mo[i].msg_hdr.msg_iovlen = 1;
		mo[i].msg_hdr.msg_name = &self->dst;
		mo[i].msg_hdr.msg_namelen = sizeof(self->dst);
		ii[i] = (struct iovec){ in[i], sizeof(in[i]) };
		mi[i].msg_hdr.msg_iov = &ii[i];
		mi[i].msg_hdr.msg_iovlen = 1;
	}
	ASSERT_EQ(N, sendmmsg(self->tx, mo, N, 0));
	ASSERT_EQ(0, drain(self->tx));
	ASSERT_EQ(N, recvmmsg(self->rx, mi, N, MSG_DONTWAIT, NULL));
	for (i = 0; i < N; i++) {
		EXPECT_EQ(10 + i, mi[i].msg_len);
		EXPECT_EQ('a' + i, in[i][0]);
	}
}

TEST_F(pair, connect_sets_the_default_destination)
{
	char in[8];

	EXPECT_EQ(-1, send(self->tx, "x", 1, 0));
	EXPECT_EQ(EDESTADDRREQ, errno);
	ASSERT_EQ(0, connect(self->tx, (struct sockaddr *)&self->dst, sizeof(self->dst)));
	ASSERT_EQ(3, send(self->tx, "abc", 3, 0));
	ASSERT_EQ(3, recv(self->rx, in, sizeof(in), 0));
	EXPECT_EQ(0, memcmp(in, "abc", 3));
}

TEST_F(pair, refused_sends_get_a_precise_errno)
{
	struct sockaddr_hf bad = self->dst;
	char buf[16] = { 0 };

	/* Too big: checked before a byte is copied. */
	EXPECT_EQ(-1, send_to(self, buf, (64 << 20) + 1, 0));
	EXPECT_EQ(EMSGSIZE, errno);

	bad.shf_ifindex = 4242;
	EXPECT_EQ(-1, sendto(self->tx, buf, 1, 0, (struct sockaddr *)&bad, sizeof(bad)));
	EXPECT_EQ(ENODEV, errno);

	bad = self->dst;
	bad.shf_addr[0] |= 1;	/* multicast */
	EXPECT_EQ(-1, sendto(self->tx, buf, 1, 0, (struct sockaddr *)&bad, sizeof(bad)));
	EXPECT_EQ(EINVAL, errno);

	bad = self->dst;
	bad.shf_port = 0;
	EXPECT_EQ(-1, sendto(self->tx, buf, 1, 0, (struct sockaddr *)&bad, sizeof(bad)));
	EXPECT_EQ(EINVAL, errno);

	EXPECT_EQ(-1, sendto(self->tx, buf, 1, 0, (struct sockaddr *)&self->dst,
			     sizeof(self->dst) - 1));
	EXPECT_EQ(EINVAL, errno);

	EXPECT_EQ(-1, send_to(self, buf, 1, MSG_OOB));
	EXPECT_EQ(EOPNOTSUPP, errno);

	ASSERT_EQ(0, system("ip link set hfa down"));
	EXPECT_EQ(-1, send_to(self, buf, 1, 0));
	EXPECT_EQ(ENETDOWN, errno);
}

TEST_F(pair, closed_port_reaches_the_sender)
{
	struct sockaddr_hf closed = self->dst;
	struct sock_extended_err *ee;
	char cbuf[256], data[8];
	struct iovec iov = { data, sizeof(data) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct pollfd p = { .fd = self->tx, .events = 0 };
	struct cmsghdr *c;
	int err = 0;
	socklen_t len = sizeof(err);

	closed.shf_port = RX_PORT + 1;
	ASSERT_EQ(4, send_to(self, "good", 4, 0));	/* message 0: delivered */
	ASSERT_EQ(3, sendto(self->tx, "bad", 3, 0, (struct sockaddr *)&closed,
			    sizeof(closed)));		/* message 1: refused */
	ASSERT_EQ(0, drain(self->tx));

	EXPECT_EQ(1, poll(&p, 1, 0));
	EXPECT_TRUE(p.revents & POLLERR);
	ASSERT_LE(0, recvmsg(self->tx, &mh, MSG_ERRQUEUE));
	c = CMSG_FIRSTHDR(&mh);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(SOL_HYPERFRAME, c->cmsg_level);
	EXPECT_EQ(HF_RECVERR, c->cmsg_type);
	ee = (struct sock_extended_err *)CMSG_DATA(c);
	EXPECT_EQ(ECONNREFUSED, ee->ee_errno);
	EXPECT_EQ(SO_EE_ORIGIN_LOCAL, ee->ee_origin);
	EXPECT_EQ(1, ee->ee_info) TH_LOG("names the second message sent");
	EXPECT_EQ(3, ee->ee_data);
	ASSERT_EQ(0, getsockopt(self->tx, SOL_SOCKET, SO_ERROR, &err, &len));
	EXPECT_EQ(ECONNREFUSED, err);
	EXPECT_EQ(4, recv(self->rx, data, sizeof(data), 0));
}

TEST_F(pair, full_send_buffer_blocks_or_says_eagain)
{
	struct sockaddr_hf nowhere = self->dst;
	struct timeval tv = { 0, 200000 };
	int sndbuf = 4096, i, full = 0;
	struct timespec t0;
	char buf[4096] = { 0 };

	/* A peer that never answers keeps every message outstanding. */
	nowhere.shf_addr[5] ^= 0x5a;
	ASSERT_EQ(0, setsockopt(self->tx, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf)));
	for (i = 0; i < 16 && !full; i++) {
		if (sendto(self->tx, buf, sizeof(buf), MSG_DONTWAIT,
			   (struct sockaddr *)&nowhere, sizeof(nowhere)) < 0) {
			EXPECT_EQ(EAGAIN, errno);
			full = 1;
		}
	}
	ASSERT_TRUE(full) TH_LOG("16 sends of 4 KiB never filled a 4 KiB buffer");

	ASSERT_EQ(0, setsockopt(self->tx, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	EXPECT_EQ(-1, sendto(self->tx, buf, sizeof(buf), 0,
			     (struct sockaddr *)&nowhere, sizeof(nowhere)));
	EXPECT_EQ(EAGAIN, errno);
	EXPECT_LE(190, elapsed_ms(&t0));
}

/*
 * A small message is charged its bytes, not a page: a send buffer holds
 * many more unresolved 64-byte messages than 4 KiB ones (hf_msg.c design
 * note 2). A page each let about 27 of either fill 128 KiB.
 */
TEST_F(pair, small_messages_are_charged_their_bytes)
{
	struct sockaddr_hf nowhere = self->dst;
	int want = 65536, sndbuf = 0, small = 0, big = 0;
	socklen_t optlen = sizeof(sndbuf);
	char buf[4096] = { 0 };

	nowhere.shf_addr[5] ^= 0x5a;	/* never answers: all stay unresolved */
	ASSERT_EQ(0, setsockopt(self->tx, SOL_SOCKET, SO_SNDBUF, &want, sizeof(want)));
	ASSERT_EQ(0, getsockopt(self->tx, SOL_SOCKET, SO_SNDBUF, &sndbuf, &optlen));
	while (small < 4096 && sendto(self->tx, buf, 64, MSG_DONTWAIT,
				      (struct sockaddr *)&nowhere, sizeof(nowhere)) == 64)
		small++;
	EXPECT_EQ(EAGAIN, errno);
	close(self->tx);
	self->tx = socket(self->family, SOCK_RDM, 0);
	ASSERT_LE(0, self->tx);
	ASSERT_EQ(0, setsockopt(self->tx, SOL_SOCKET, SO_SNDBUF, &want, sizeof(want)));
	while (big < 4096 && sendto(self->tx, buf, sizeof(buf), MSG_DONTWAIT,
				    (struct sockaddr *)&nowhere, sizeof(nowhere)) ==
			     sizeof(buf))
		big++;
	EXPECT_EQ(EAGAIN, errno);
	TH_LOG("a %d-byte send buffer held %d messages of 64 bytes, %d of 4 KiB",
	       sndbuf, small, big);
	/* Under 1 KiB each for 64 bytes; never less than the bytes. */
	EXPECT_GE(small, sndbuf / 1024);
	EXPECT_LE(small, sndbuf / 64 + 1);
	/* A page message is still charged at least its page. */
	EXPECT_LE(big, sndbuf / 4096 + 1);
	EXPECT_GE(small, 4 * big);
}

TEST_F(pair, full_receive_buffer_loses_nothing)
{
	enum { N = 40, LEN = 50000 };
	int rcvbuf = 16384, i, status;
	static char buf[LEN];
	pid_t child;

	ASSERT_EQ(0, setsockopt(self->rx, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf)));
	/* The sender blocks on its own buffer while the reader sleeps. */
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		for (i = 0; i < N; i++) {
			memset(buf, i, sizeof(buf));
			if (send_to(self, buf, sizeof(buf), 0) != LEN)
				_exit(1);
		}
		_exit(drain(self->tx) ? 2 : 0);
	}
	usleep(300000);
	for (i = 0; i < N; i++) {
		ASSERT_EQ(LEN, recv(self->rx, buf, sizeof(buf), 0));
		ASSERT_EQ((char)i, buf[0]) TH_LOG("message %d out of order", i);
		ASSERT_EQ((char)i, buf[LEN - 1]);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static int get_info(int fd, struct hf_info *info, socklen_t *len)
{
	return getsockopt(fd, SOL_HYPERFRAME, HF_INFO, info, len);
}

static int get_peer_info(int fd, struct hf_info *info, socklen_t *len)
{
	return getsockopt(fd, SOL_HYPERFRAME, HF_PEER_INFO, info, len);
}

TEST_F(pair, hf_info_reports_the_socket_and_the_peer)
{
	char buf[100000], in[100000];
	struct hf_info info;
	socklen_t len;

	memset(buf, 0x5a, sizeof(buf));
	ASSERT_EQ(sizeof(buf), send_to(self, buf, sizeof(buf), 0));
	ASSERT_EQ(0, drain(self->tx));

	/* Before reading: the receiver holds the message, whole. */
	memset(&info, 0, sizeof(info));
	len = sizeof(info);
	ASSERT_EQ(0, get_info(self->rx, &info, &len));
	EXPECT_EQ(sizeof(info), len);
	EXPECT_EQ(HF_INFO_VERSION, info.hfi_version);
	EXPECT_EQ(sizeof(info), info.hfi_size);
	EXPECT_EQ(RX_PORT, info.hfi_port);
	EXPECT_LE(sizeof(buf), info.hfi_rx_queued);
	EXPECT_EQ(0, info.hfi_rx_reassembly);
	EXPECT_EQ(0, info.hfi_flags & HF_INFO_PEER) TH_LOG("no peer named, not connected");
	ASSERT_EQ(sizeof(buf), recv(self->rx, in, sizeof(in), 0));

	/* The sender, asked about its peer by address. */
	memset(&info, 0, sizeof(info));
	info.hfi_peer = self->dst;
	len = sizeof(info);
	ASSERT_EQ(0, get_info(self->tx, &info, &len));
	EXPECT_EQ(1, info.hfi_tx_msgs);
	EXPECT_EQ(0, info.hfi_tx_queued) TH_LOG("the outcome is known: nothing held");
	ASSERT_EQ(HF_INFO_PEER, info.hfi_flags & HF_INFO_PEER);
	EXPECT_EQ(0, info.hfi_peer.shf_port);
	EXPECT_NE(0, info.hfi_epoch);
	EXPECT_EQ(1500 - 44, info.hfi_seg_size); /* a 44-byte DATA header */
	EXPECT_EQ(info.hfi_frame_segs * info.hfi_seg_size, info.hfi_frame_bytes);
	EXPECT_LT(0, info.hfi_frame_segs);
	EXPECT_EQ(0, info.hfi_inflight);
	EXPECT_LT(0, info.hfi_credit);
	EXPECT_LT(0, info.hfi_srtt_us);
	EXPECT_LT(0, info.hfi_min_rtt_us);
	EXPECT_LE(info.hfi_min_rtt_us, info.hfi_srtt_us * 8);
	EXPECT_LT(info.hfi_srtt_us, info.hfi_rto_us);
	EXPECT_LE(info.hfi_reorder_us, info.hfi_srtt_us);
	EXPECT_EQ(0, info.hfi_tx_queued_msgs);
	EXPECT_EQ((sizeof(buf) + 1455) / 1456, info.hfi_tx_segs);
	EXPECT_EQ(0, info.hfi_retransmits) TH_LOG("veth loses nothing");
	EXPECT_EQ(0, info.hfi_rx_segs) TH_LOG("nothing came from that peer");

	/* connect() makes that peer the default one. */
	ASSERT_EQ(0, connect(self->tx, (struct sockaddr *)&self->dst, sizeof(self->dst)));
	memset(&info, 0, sizeof(info));
	len = sizeof(info);
	ASSERT_EQ(0, get_info(self->tx, &info, &len));
	EXPECT_EQ(HF_INFO_PEER, info.hfi_flags & HF_INFO_PEER);
	EXPECT_EQ(0, memcmp(self->dst.shf_addr, info.hfi_peer.shf_addr, 6));
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

/* HF_INFO of @fd about the peer at @ifindex, @mac; 0 or -1. */
static int peer_info(int fd, int family, int ifindex, const unsigned char *mac,
		     struct hf_info *info)
{
	socklen_t len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	info->hfi_peer.shf_family = family;
	info->hfi_peer.shf_ifindex = ifindex;
	memcpy(info->hfi_peer.shf_addr, mac, 6);
	if (get_peer_info(fd, info, &len) || !(info->hfi_flags & HF_INFO_PEER))
		return -1;
	return 0;
}

/*
 * Byte credit (docs/wire-format.md): a receiver whose program does not
 * read grants its budget (credit_budget, 16 MiB by default, one active
 * sender) beyond what was read, and no more; the sender waits with the
 * rest queued, nothing refused or lost, and goes on as the program reads.
 * A message larger than the budget still passes: what reassembly holds
 * was reserved when the message was admitted and is granted on top.
 */
TEST_F(pair, credit_holds_the_sender_to_what_the_reader_frees)
{
	enum { MIB = 1 << 20, N = 24, BUDGET = 16 * MIB };
	int big = 64 * MIB, i, tries;
	long long refused, probes, over;
	struct hf_info tx, rx;
	char *buf, *in;

	buf = malloc(3 * BUDGET / 2);
	in = malloc(3 * BUDGET / 2);
	ASSERT_TRUE(buf && in);
	ASSERT_EQ(0, setsockopt(self->rx, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big)));
	ASSERT_EQ(0, setsockopt(self->tx, SOL_SOCKET, SO_SNDBUFFORCE, &big, sizeof(big)));
	refused = hf_counter("drop_rcvbuf");
	ASSERT_LE(0, refused) TH_LOG("no drop_rcvbuf in /proc/net/hyperframe");
	for (i = 0; i < N; i++) {
		memset(buf, i, MIB);
		ASSERT_EQ(MIB, send_to(self, buf, MIB, 0));
	}
	/* Until the sender stalls with nothing in flight, at most 10 s. */
	for (tries = 0; tries < 1000; tries++) {
		ASSERT_EQ(0, peer_info(self->tx, self->family, self->ifindex_a,
				       self->dst.shf_addr, &tx));
		if (tx.hfi_credit_stall_us && !tx.hfi_inflight && tx.hfi_tx_queued_msgs)
			break;
		usleep(10000);
	}
	ASSERT_EQ(0, peer_info(self->rx, self->family, self->ifindex_b, self->mac_a, &rx));
	/*
	 * The persist timer goes on probing while we read: a probe is
	 * counted before it leaves, so the count read after what the
	 * receiver holds and after its count of bytes beyond the credit
	 * covers every probe in both.
	 */
	over = hf_counter("rx_credit_over");
	probes = hf_counter("tx_credit_probes");
	TH_LOG("stalled: %llu B of credit left, %u msgs queued, %llu B unread at the receiver, "
	       "%lld probes, %lld B beyond the credit", (unsigned long long)tx.hfi_credit_bytes,
	       tx.hfi_tx_queued_msgs, (unsigned long long)rx.hfi_rx_unread, probes, over);
	ASSERT_LT(0, tx.hfi_credit_stall_us) TH_LOG("never waited for credit");
	EXPECT_EQ(0, tx.hfi_inflight);
	EXPECT_LT(0, tx.hfi_tx_queued_msgs) TH_LOG("all sent: credit did not hold");
	EXPECT_GT(1500, tx.hfi_credit_bytes) TH_LOG("idle with a segment's credit left");
	/*
	 * The budget, less a segment; at most the budget plus the message
	 * that was in reassembly when it filled, and a segment per probe.
	 */
	EXPECT_LE(BUDGET - 1500, rx.hfi_rx_unread);
	EXPECT_GE(BUDGET + MIB + probes * 1456, rx.hfi_rx_unread);
	EXPECT_EQ(refused, hf_counter("drop_rcvbuf")) TH_LOG("refused for a full buffer");
	EXPECT_GE(probes * 1456, over) TH_LOG("bytes beyond the credit");

	for (i = 0; i < N; i++) {
		ASSERT_EQ(MIB, recv(self->rx, in, MIB, 0));
		ASSERT_EQ((char)i, in[0]) TH_LOG("message %d out of order", i);
		ASSERT_EQ((char)i, in[MIB - 1]);
	}
	ASSERT_EQ(0, drain(self->tx));
	ASSERT_EQ(0, peer_info(self->rx, self->family, self->ifindex_b, self->mac_a, &rx));
	EXPECT_EQ(0, rx.hfi_rx_unread);
	EXPECT_LE(BUDGET, rx.hfi_rx_credit) TH_LOG("all read: the whole budget is granted");

	/* One message half as large again as the budget. */
	for (i = 0; i < 3 * BUDGET / 2; i++)
		buf[i] = (char)(i * 13);
	ASSERT_EQ(3 * BUDGET / 2, send_to(self, buf, 3 * BUDGET / 2, 0));
	ASSERT_EQ(3 * BUDGET / 2, recv(self->rx, in, 3 * BUDGET / 2, 0));
	EXPECT_EQ(0, memcmp(buf, in, 3 * BUDGET / 2));
	ASSERT_EQ(0, drain(self->tx));
	EXPECT_EQ(refused, hf_counter("drop_rcvbuf"));
	free(buf);
	free(in);
}

/* HF_INFO of @fd, the socket alone; 0 or -1. */
static int sock_info(int fd, struct hf_info *info)
{
	socklen_t len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	return get_info(fd, info, &len);
}

/*
 * A message that reached its socket while the one before it between the
 * same two ports was refused for the full buffer cannot be delivered
 * before that one, so the room it holds must not refuse that one again:
 * neither would ever be delivered (each 10 s, peer_idle_ms, the stuck one
 * was dropped as too big, or the receiver forgot the flow and the sender's
 * messages failed with ECONNRESET). X (1 byte) is delivered and left
 * unread; A (40 kB, more than SO_RCVBUF) is refused beside it; B (1 byte)
 * fits beside X and waits for A. netem holds the receiver's ACKs back, so
 * the sender sends B before it hears of the refusal. Once X is read, A
 * and B must come in order and the sender hear of no failure.
 */
TEST_F_TIMEOUT(pair, message_waiting_for_a_refused_one_leaves_it_room, 120)
{
	enum { LEN = 40000 };
	int rcvbuf = 16384, tries, err = -1;
	struct timeval tv = { 20, 0 };
	socklen_t elen = sizeof(err);
	static char buf[LEN], in[LEN];
	struct hf_info info;
	struct timespec t0;
	long long refused;
	__u64 queued;

	ASSERT_EQ(0, setsockopt(self->rx, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf)));
	ASSERT_EQ(0, setsockopt(self->rx, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
	refused = hf_counter("drop_rcvbuf");
	ASSERT_LE(0, refused) TH_LOG("no drop_rcvbuf in /proc/net/hyperframe");
	ASSERT_EQ(0, system("tc qdisc add dev hfb root netem delay 300ms"));

	ASSERT_EQ(1, send_to(self, "x", 1, 0));
	for (tries = 0; tries < 1000; tries++) {
		ASSERT_EQ(0, sock_info(self->rx, &info));
		if (info.hfi_rx_queued)
			break;
		usleep(10000);
	}
	ASSERT_LT(0, info.hfi_rx_queued) TH_LOG("X never arrived");
	queued = info.hfi_rx_queued;
	memset(buf, 'a', sizeof(buf));
	ASSERT_EQ(LEN, send_to(self, buf, LEN, 0));
	ASSERT_EQ(1, send_to(self, "b", 1, 0));
	/* Until B is at the receiver: held there, or delivered after A. */
	for (tries = 0; tries < 1000; tries++) {
		ASSERT_EQ(0, sock_info(self->rx, &info));
		if (info.hfi_rx_reassembly || info.hfi_rx_queued > queued)
			break;
		usleep(10000);
	}
	ASSERT_TRUE(info.hfi_rx_reassembly || info.hfi_rx_queued > queued)
		TH_LOG("B never reached the receiver");
	ASSERT_LT(refused, hf_counter("drop_rcvbuf")) TH_LOG("A was never refused");
	TH_LOG("B arrived: %llu B held for it, %llu B queued",
	       (unsigned long long)info.hfi_rx_reassembly,
	       (unsigned long long)info.hfi_rx_queued);
	ASSERT_EQ(0, system("tc qdisc del dev hfb root"));

	ASSERT_EQ(1, recv(self->rx, in, sizeof(in), 0));
	EXPECT_EQ('x', in[0]);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ASSERT_EQ(LEN, recv(self->rx, in, sizeof(in), 0))
		TH_LOG("A, after %ld ms: %s", elapsed_ms(&t0), strerror(errno));
	TH_LOG("A came %ld ms after X was read", elapsed_ms(&t0));
	EXPECT_EQ(0, memcmp(buf, in, LEN));
	ASSERT_EQ(1, recv(self->rx, in, sizeof(in), 0))
		TH_LOG("B, after %ld ms: %s", elapsed_ms(&t0), strerror(errno));
	EXPECT_EQ('b', in[0]);
	ASSERT_EQ(0, drain(self->tx));
	ASSERT_EQ(0, getsockopt(self->tx, SOL_SOCKET, SO_ERROR, &err, &elen));
	EXPECT_EQ(0, err) TH_LOG("the sender was told: %s", strerror(err));
}

TEST_F(pair, hf_info_checks_its_input)
{
	struct hf_info info;
	socklen_t len;
	int old;

	/* An older, shorter struct gets its prefix and the length filled. */
	memset(&info, 0xff, sizeof(info));
	len = offsetof(struct hf_info, hfi_sndbuf);
	ASSERT_EQ(0, get_info(self->rx, &info, &len));
	EXPECT_EQ(offsetof(struct hf_info, hfi_sndbuf), len);
	EXPECT_EQ(len, info.hfi_size);
	EXPECT_EQ(RX_PORT, info.hfi_port);
	EXPECT_EQ(0xffffffffu, info.hfi_sndbuf) TH_LOG("nothing written past len");

	len = sizeof(info.hfi_version);
	EXPECT_EQ(-1, get_info(self->rx, &info, &len));
	EXPECT_EQ(EINVAL, errno);

	/* A peer we never talked to: no state, not an error. */
	memset(&info, 0, sizeof(info));
	info.hfi_peer = self->dst;
	info.hfi_peer.shf_addr[5] ^= 0x40;
	len = sizeof(info);
	ASSERT_EQ(0, get_peer_info(self->tx, &info, &len));
	EXPECT_EQ(0, info.hfi_flags & HF_INFO_PEER);

	/* HF_PEER_INFO checks the address it is given. */
	info.hfi_peer = self->dst;
	info.hfi_peer.shf_family = AF_INET;
	len = sizeof(info);
	EXPECT_EQ(-1, get_peer_info(self->tx, &info, &len));
	EXPECT_EQ(EAFNOSUPPORT, errno);

	info.hfi_peer = self->dst;
	info.hfi_peer.shf_ifindex = 9999;
	EXPECT_EQ(-1, get_peer_info(self->tx, &info, &len));
	EXPECT_EQ(ENODEV, errno);

	info.hfi_peer = self->dst;
	info.hfi_peer.shf_zero[1] = 1;
	EXPECT_EQ(-1, get_peer_info(self->tx, &info, &len));
	EXPECT_EQ(EINVAL, errno);

	len = offsetof(struct hf_info, hfi_peer);
	EXPECT_EQ(-1, get_peer_info(self->tx, &info, &len));
	EXPECT_EQ(EINVAL, errno) TH_LOG("HF_PEER_INFO needs room for hfi_peer");

	/* HF_INFO takes no input: none of that is an error there. */
	info.hfi_peer = self->dst;
	info.hfi_peer.shf_family = AF_INET;
	len = sizeof(info);
	EXPECT_EQ(0, get_info(self->tx, &info, &len));
	EXPECT_EQ(0, info.hfi_flags & HF_INFO_PEER);
	info.hfi_peer = self->dst;
	info.hfi_peer.shf_ifindex = 9999;
	EXPECT_EQ(0, get_info(self->tx, &info, &len));
	EXPECT_EQ(0, info.hfi_flags & HF_INFO_PEER);

	old = 1;
	EXPECT_EQ(-1, setsockopt(self->tx, SOL_HYPERFRAME, HF_INFO, &old, sizeof(old)));
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(-1, setsockopt(self->tx, SOL_HYPERFRAME, HF_PEER_INFO, &old, sizeof(old)));
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(-1, getsockopt(self->tx, SOL_HYPERFRAME, 77, &info, &len));
	EXPECT_EQ(ENOPROTOOPT, errno);
}

/*
 * HF_INFO from any language: a caller that passes an uninitialised buffer
 * (CPython's getsockopt(level, opt, buflen) does) gets the socket's state
 * and, once connected, its peer's; the buffer is no question (issue 40).
 */
TEST_F(pair, hf_info_ignores_an_uninitialised_buffer)
{
	char buf[1000];
	struct hf_info info;
	socklen_t len;
	int fill;

	memset(buf, 0x5a, sizeof(buf));
	ASSERT_EQ(sizeof(buf), send_to(self, buf, sizeof(buf), 0));
	ASSERT_EQ(0, drain(self->tx));

	for (fill = 0; fill < 256; fill += 0x55) {
		memset(&info, fill, sizeof(info));
		len = sizeof(info);
		ASSERT_EQ(0, get_info(self->tx, &info, &len))
			TH_LOG("buffer filled with %#x: %s", fill, strerror(errno));
		EXPECT_EQ(sizeof(info), len);
		EXPECT_EQ(HF_INFO_VERSION, info.hfi_version);
		EXPECT_EQ(1, info.hfi_tx_msgs);
		EXPECT_EQ(1, info.hfi_tx_msgs_done) TH_LOG("the outcome is known");
		EXPECT_EQ(0, info.hfi_flags & HF_INFO_PEER) TH_LOG("not connected");
	}
	ASSERT_EQ(0, connect(self->tx, (struct sockaddr *)&self->dst, sizeof(self->dst)));
	memset(&info, 0xa5, sizeof(info));
	len = sizeof(info);
	ASSERT_EQ(0, get_info(self->tx, &info, &len));
	EXPECT_EQ(HF_INFO_PEER, info.hfi_flags & HF_INFO_PEER);
	EXPECT_EQ(0, memcmp(self->dst.shf_addr, info.hfi_peer.shf_addr, 6));
	EXPECT_EQ(0, info.hfi_backoff_answered_us) TH_LOG("veth answers every round trip");
	/* HF_PEER_INFO reads its buffer: garbage there is an error. */
	memset(&info, 0xa5, sizeof(info));
	len = sizeof(info);
	EXPECT_EQ(-1, get_peer_info(self->tx, &info, &len));
	EXPECT_EQ(EAFNOSUPPORT, errno);
}

TEST_HARNESS_MAIN
