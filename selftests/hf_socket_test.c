// SPDX-License-Identifier: GPL-2.0
/*
 * hf_socket_test.c - socket creation in the AF_HYPERFRAME family: the one
 * supported type, the errno for every unsupported type and protocol, the
 * identity a socket reports, operations an unconnected message socket
 * refuses, and many sockets at once.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/socket.h>

#include "kselftest_harness.h"
#include "hf_family.h"

FIXTURE(family)
{
	int family;
};

FIXTURE_SETUP(family)
{
	self->family = hf_family();
	ASSERT_GT(self->family, 0) TH_LOG("hyperframe module is not loaded");
}

FIXTURE_TEARDOWN(family)
{
}

TEST_F(family, rdm_socket_reports_its_identity)
{
	int fd = socket(self->family, SOCK_RDM, 0);
	int val;
	socklen_t len = sizeof(val);

	ASSERT_LE(0, fd) TH_LOG("socket: %s", strerror(errno));
	ASSERT_EQ(0, getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &val, &len));
	EXPECT_EQ(self->family, val);
	ASSERT_EQ(0, getsockopt(fd, SOL_SOCKET, SO_TYPE, &val, &len));
	EXPECT_EQ(SOCK_RDM, val);
	ASSERT_EQ(0, getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &val, &len));
	EXPECT_EQ(0, val);
	EXPECT_EQ(0, close(fd));
}

TEST_F(family, nonblocking_and_cloexec_flags_apply)
{
	int fd = socket(self->family, SOCK_RDM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	ASSERT_LE(0, fd);
	EXPECT_TRUE(fcntl(fd, F_GETFL) & O_NONBLOCK);
	EXPECT_TRUE(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
}

TEST_F(family, unsupported_types_get_esocktnosupport)
{
	static const int types[] = {
		SOCK_STREAM, SOCK_DGRAM, SOCK_RAW, SOCK_SEQPACKET, SOCK_PACKET,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		errno = 0;
		EXPECT_EQ(-1, socket(self->family, types[i], 0))
			TH_LOG("type %d was accepted", types[i]);
		EXPECT_EQ(ESOCKTNOSUPPORT, errno) TH_LOG("type %d", types[i]);
	}
}

TEST_F(family, nonzero_protocol_gets_eprotonosupport)
{
	static const int protocols[] = { 1, 17, 255, 0x88b5 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(protocols); i++) {
		errno = 0;
		EXPECT_EQ(-1, socket(self->family, SOCK_RDM, protocols[i]));
		EXPECT_EQ(EPROTONOSUPPORT, errno) TH_LOG("protocol %d", protocols[i]);
	}
}

TEST_F(family, connection_calls_are_refused)
{
	int fd = socket(self->family, SOCK_RDM, 0);
	int pair[2];

	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, listen(fd, 1));
	EXPECT_EQ(EOPNOTSUPP, errno);
	EXPECT_EQ(-1, accept(fd, NULL, NULL));
	EXPECT_EQ(EOPNOTSUPP, errno);
	EXPECT_EQ(-1, socketpair(self->family, SOCK_RDM, 0, pair));
	EXPECT_EQ(EOPNOTSUPP, errno);
	close(fd);
}

TEST_F(family, a_thousand_sockets_open_and_close)
{
	enum { N = 1000 };
	int fds[N];
	int i;

	for (i = 0; i < N; i++) {
		fds[i] = socket(self->family, SOCK_RDM, 0);
		ASSERT_LE(0, fds[i]) TH_LOG("socket %d: %s", i, strerror(errno));
	}
	for (i = 0; i < N; i++)
		ASSERT_EQ(0, close(fds[i]));
}

TEST_HARNESS_MAIN
