// SPDX-License-Identifier: GPL-2.0
/*
 * hf_sockhold.c - a helper for the shell selftests: opens AF_HYPERFRAME
 * sockets and holds them.
 *
 *   hf_sockhold --probe     open one SOCK_RDM socket, close it, exit 0
 *   hf_sockhold --count N   open N, print "ready N", hold them until
 *                           standard input reaches end of file
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "hf_family.h"

int main(int argc, char **argv)
{
	int family = hf_family();
	int count = 1, i;
	int *fds;
	char buf[64];

	if (argc == 3 && !strcmp(argv[1], "--count"))
		count = atoi(argv[2]);
	else if (argc != 2 || strcmp(argv[1], "--probe"))
		count = -1;
	if (count < 1) {
		fprintf(stderr, "usage: hf_sockhold --probe | --count N\n");
		return 2;
	}
	if (family < 0) {
		fprintf(stderr, "hf_sockhold: module not loaded (no %s)\n",
			HF_SYSFS_FAMILY);
		return 1;
	}

	fds = calloc(count, sizeof(*fds));
	if (!fds)
		return 1;
	for (i = 0; i < count; i++) {
		fds[i] = socket(family, SOCK_RDM, 0);
		if (fds[i] < 0) {
			fprintf(stderr, "hf_sockhold: socket(%d, SOCK_RDM): %s\n",
				family, strerror(errno));
			return 1;
		}
	}
	if (argc == 3) {
		printf("ready %d\n", count);
		fflush(stdout);
		while (read(STDIN_FILENO, buf, sizeof(buf)) > 0)
			;
	}
	for (i = 0; i < count; i++)
		close(fds[i]);
	free(fds);
	return 0;
}
