// SPDX-License-Identifier: GPL-2.0
/*
 * hf_bind_test.c - addressing of AF_HYPERFRAME sockets: bind (explicit and
 * ephemeral ports, EADDRINUSE, ports per network namespace, release on
 * close), connect as a default destination (set, read back, clear), and
 * the precise errno for every defect of a struct sockaddr_hf.
 */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "kselftest_harness.h"
#include "hf_family.h"

#define EPHEMERAL_MIN 49152

static struct sockaddr_hf hf_addr(int family, unsigned short port, int ifindex)
{
	struct sockaddr_hf a;

	memset(&a, 0, sizeof(a));
	a.shf_family = family;
	a.shf_port = port;
	a.shf_ifindex = ifindex;
	return a;
}

static int bind_port(int fd, int family, unsigned short port)
{
	struct sockaddr_hf a = hf_addr(family, port, 0);

	return bind(fd, (struct sockaddr *)&a, sizeof(a));
}

static unsigned short local_port(int fd)
{
	struct sockaddr_hf a;
	socklen_t len = sizeof(a);

	if (getsockname(fd, (struct sockaddr *)&a, &len))
		return 0;
	return a.shf_port;
}

FIXTURE(addr)
{
	int family;
	int fd;
};

FIXTURE_SETUP(addr)
{
	self->family = hf_family();
	ASSERT_GT(self->family, 0) TH_LOG("hyperframe module is not loaded");
	self->fd = socket(self->family, SOCK_RDM, 0);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(addr)
{
	close(self->fd);
}

TEST_F(addr, unbound_socket_reports_port_zero)
{
	struct sockaddr_hf a;
	socklen_t len = sizeof(a);

	ASSERT_EQ(0, getsockname(self->fd, (struct sockaddr *)&a, &len));
	EXPECT_EQ(sizeof(a), len);
	EXPECT_EQ(self->family, a.shf_family);
	EXPECT_EQ(0, a.shf_port);
}

TEST_F(addr, bind_explicit_port)
{
	ASSERT_EQ(0, bind_port(self->fd, self->family, 4000));
	EXPECT_EQ(4000, local_port(self->fd));
}

TEST_F(addr, bind_port_zero_picks_ephemeral)
{
	int other = socket(self->family, SOCK_RDM, 0);

	ASSERT_EQ(0, bind_port(self->fd, self->family, 0));
	EXPECT_LE(EPHEMERAL_MIN, local_port(self->fd));
	ASSERT_EQ(0, bind_port(other, self->family, 0));
	EXPECT_LE(EPHEMERAL_MIN, local_port(other));
	EXPECT_NE(local_port(self->fd), local_port(other));
	close(other);
}

TEST_F(addr, port_in_use_gets_eaddrinuse)
{
	int other = socket(self->family, SOCK_RDM, 0);

	ASSERT_EQ(0, bind_port(self->fd, self->family, 4001));
	EXPECT_EQ(-1, bind_port(other, self->family, 4001));
	EXPECT_EQ(EADDRINUSE, errno);
	close(other);
}

TEST_F(addr, close_releases_the_port)
{
	int other = socket(self->family, SOCK_RDM, 0);

	ASSERT_EQ(0, bind_port(other, self->family, 4002));
	close(other);
	EXPECT_EQ(0, bind_port(self->fd, self->family, 4002));
}

TEST_F(addr, second_bind_gets_einval)
{
	ASSERT_EQ(0, bind_port(self->fd, self->family, 4003));
	EXPECT_EQ(-1, bind_port(self->fd, self->family, 4004));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(4003, local_port(self->fd));
}

TEST_F(addr, ports_are_per_namespace)
{
	int inner;

	ASSERT_EQ(0, bind_port(self->fd, self->family, 4005));
	ASSERT_EQ(0, unshare(CLONE_NEWNET)) TH_LOG("unshare: %s", strerror(errno));
	inner = socket(self->family, SOCK_RDM, 0);
	ASSERT_LE(0, inner);
	EXPECT_EQ(0, bind_port(inner, self->family, 4005))
		TH_LOG("port 4005 of another namespace: %s", strerror(errno));
	close(inner);
}

TEST_F(addr, bind_defects_get_precise_errno)
{
	struct sockaddr_hf a = hf_addr(self->family, 4006, 0);

	EXPECT_EQ(-1, bind(self->fd, (struct sockaddr *)&a, sizeof(a) - 1));
	EXPECT_EQ(EINVAL, errno);

	a.shf_family = AF_INET;
	EXPECT_EQ(-1, bind(self->fd, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(EAFNOSUPPORT, errno);

	a = hf_addr(self->family, 4006, 0);
	a.shf_zero[1] = 1;
	EXPECT_EQ(-1, bind(self->fd, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(EINVAL, errno);

	a = hf_addr(self->family, 4006, 99999);
	EXPECT_EQ(-1, bind(self->fd, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(ENODEV, errno);

	a = hf_addr(self->family, 4006, -3);
	EXPECT_EQ(-1, bind(self->fd, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(ENODEV, errno);

	/* None of the refused binds took the port. */
	EXPECT_EQ(0, local_port(self->fd));
}

TEST_F(addr, bind_to_an_interface)
{
	struct sockaddr_hf a = hf_addr(self->family, 4007, 1); /* lo */
	socklen_t len = sizeof(a);

	ASSERT_EQ(0, bind(self->fd, (struct sockaddr *)&a, sizeof(a)));
	memset(&a, 0, sizeof(a));
	ASSERT_EQ(0, getsockname(self->fd, (struct sockaddr *)&a, &len));
	EXPECT_EQ(1, a.shf_ifindex);
	EXPECT_EQ(4007, a.shf_port);
}

TEST_F(addr, connect_sets_default_peer_and_autobinds)
{
	struct sockaddr_hf a = hf_addr(self->family, 5000, 1);
	struct sockaddr_hf got;
	socklen_t len = sizeof(got);
	static const unsigned char mac[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x01 };

	memcpy(a.shf_addr, mac, ETH_ALEN);
	EXPECT_EQ(-1, getpeername(self->fd, (struct sockaddr *)&got, &len));
	EXPECT_EQ(ENOTCONN, errno);

	ASSERT_EQ(0, connect(self->fd, (struct sockaddr *)&a, sizeof(a)));
	len = sizeof(got);
	ASSERT_EQ(0, getpeername(self->fd, (struct sockaddr *)&got, &len));
	EXPECT_EQ(0, memcmp(&a, &got, sizeof(a)));
	EXPECT_LE(EPHEMERAL_MIN, local_port(self->fd));
}

TEST_F(addr, connect_af_unspec_clears_peer)
{
	struct sockaddr_hf a = hf_addr(self->family, 5000, 1);
	struct sockaddr unspec = { .sa_family = AF_UNSPEC };
	socklen_t len = sizeof(a);

	a.shf_addr[0] = 0x02;
	a.shf_addr[5] = 0x07;
	ASSERT_EQ(0, connect(self->fd, (struct sockaddr *)&a, sizeof(a)));
	ASSERT_EQ(0, connect(self->fd, &unspec, sizeof(unspec)));
	EXPECT_EQ(-1, getpeername(self->fd, (struct sockaddr *)&a, &len));
	EXPECT_EQ(ENOTCONN, errno);
}

TEST_F(addr, connect_defects_get_precise_errno)
{
	struct sockaddr_hf a = hf_addr(self->family, 5000, 1);

	a.shf_addr[0] = 0x02;
	a.shf_addr[5] = 0x09;
	EXPECT_EQ(-1, connect(self->fd, (struct sockaddr *)&a, sizeof(a) - 2));
	EXPECT_EQ(EINVAL, errno);

	a.shf_port = 0;
	EXPECT_EQ(-1, connect(self->fd, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(EINVAL, errno) TH_LOG("port 0");

	a.shf_port = 5000;
	a.shf_ifindex = 0;
	EXPECT_EQ(-1, connect(self->fd, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(EINVAL, errno) TH_LOG("no interface");

	a.shf_ifindex = 99999;
	EXPECT_EQ(-1, connect(self->fd, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(ENODEV, errno);

	a.shf_ifindex = 1;
	a.shf_addr[0] = 0x01; /* multicast */
	EXPECT_EQ(-1, connect(self->fd, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(EINVAL, errno) TH_LOG("multicast address");

	memset(a.shf_addr, 0, ETH_ALEN);
	EXPECT_EQ(-1, connect(self->fd, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(EINVAL, errno) TH_LOG("zero address");

	a.shf_family = AF_PACKET;
	EXPECT_EQ(-1, connect(self->fd, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(EAFNOSUPPORT, errno);
}

TEST_HARNESS_MAIN
