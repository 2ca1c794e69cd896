// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm-groups: systemd's notify protocol and the log.
 *
 * The protocol (sd_notify(3)) without libsystemd: one datagram of
 * "KEY=VALUE" lines to the AF_UNIX socket named by $NOTIFY_SOCKET, a path
 * or, starting with '@', an abstract name. Without $NOTIFY_SOCKET (run by
 * hand) nothing is sent. The service sends READY=1 once every membership
 * of the configuration was asked for, STATUS= with the counts whenever
 * they change, RELOADING=1 with MONOTONIC_USEC= when a reload starts and
 * READY=1 when it ends, STOPPING=1 when it stops.
 *
 * The log goes to stderr, one line a message; under systemd (journald
 * reads stderr: $JOURNAL_STREAM) each line starts with its syslog
 * priority, "<3>", which journald takes as the message's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "groups.h"

void grp_log(int prio, const char *fmt, ...)
{
	static int journal = -1;
	char msg[1024];
	va_list ap;

	if (journal < 0)
		journal = !!getenv("JOURNAL_STREAM");
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (journal)
		fprintf(stderr, "<%d>%s\n", prio, msg);
	else
		fprintf(stderr, "rdma-mcm-groups: %s\n", msg);
}

/* $NOTIFY_SOCKET as an address; its length, or 0 when there is none */
static socklen_t notify_addr(struct sockaddr_un *un)
{
	const char *path = getenv("NOTIFY_SOCKET");
	size_t len;

	if (!path || (path[0] != '/' && path[0] != '@'))
		return 0;
	len = strlen(path);
	if (len < 2 || len >= sizeof(un->sun_path))
		return 0;
	memset(un, 0, sizeof(*un));
	un->sun_family = AF_UNIX;
	memcpy(un->sun_path, path, len);
	/* an abstract name: its leading NUL, no trailing one */
	if (path[0] == '@')
		un->sun_path[0] = '\0';
	else
		len++;
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len);
}

int grp_notify(const char *fmt, ...)
{
	static int fd = -1, warned;
	struct sockaddr_un un;
	socklen_t alen;
	char msg[2048];
	va_list ap;
	int len;

	alen = notify_addr(&un);
	if (!alen)
		return 0;
	va_start(ap, fmt);
	len = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= sizeof(msg))
		return -EMSGSIZE;
	if (fd < 0)
		fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (sendto(fd, msg, (size_t)len, MSG_NOSIGNAL, (struct sockaddr *)&un,
		   alen) < 0) {
		int err = errno;

		/* said once: the next datagrams fail the same way */
		if (!warned++)
			grp_log(LOG_WARNING, "notify %s: %s",
				getenv("NOTIFY_SOCKET"), strerror(err));
		return -err;
	}
	return 0;
}

int grp_notify_reloading(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return grp_notify("RELOADING=1\nMONOTONIC_USEC=%llu",
			  (unsigned long long)now.tv_sec * 1000000ULL +
			  (unsigned long long)now.tv_nsec / 1000);
}
