// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_notify: the listening end of systemd's notify protocol, for the
 * tests of rdma-mcm-groups (tools/testing/host/groups-test, the VM's
 * 83-groups): binds an AF_UNIX datagram socket at PATH (or, for @NAME,
 * the abstract NAME), as systemd's $NOTIFY_SOCKET, and prints every
 * datagram it receives, one "N KEY=VALUE" line per line of the datagram
 * (N counts the datagrams from 1), flushed at once. Runs until SIGTERM,
 * SIGINT or -t SECONDS (default 600) pass.
 *
 *   mcm_notify [-t SECONDS] PATH|@NAME
 */
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static void print_usage(void)
{
	fputs("usage: mcm_notify [-t SECONDS] PATH|@NAME\n", stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	unsigned long n = 0;
	char buf[4097], *line, *save;
	struct pollfd p;
	time_t end;
	long secs = 600;
	size_t len;
	ssize_t got;
	int fd, c;

	while ((c = getopt(argc, argv, "t:")) != -1) {
		if (c != 't')
			print_usage();
		secs = strtol(optarg, NULL, 10);
	}
	if (optind + 1 != argc)
		print_usage();
	len = strlen(argv[optind]);
	if (len < 2 || len >= sizeof(un.sun_path))
		print_usage();
	memcpy(un.sun_path, argv[optind], len);
	if (un.sun_path[0] == '@')
		un.sun_path[0] = '\0';
	else
		len++;
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&un,
			   (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len))) {
		perror("mcm_notify: bind");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	end = time(NULL) + secs;
	p.fd = fd;
	p.events = POLLIN;
	while (time(NULL) < end) {
		if (poll(&p, 1, 1000) <= 0)
			continue;
		got = recv(fd, buf, sizeof(buf) - 1, 0);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			perror("mcm_notify: recv");
			return 1;
		}
		buf[got] = '\0';
		n++;
		for (line = strtok_r(buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			printf("%lu %s\n", n, line);
	}
	return 0;
}
