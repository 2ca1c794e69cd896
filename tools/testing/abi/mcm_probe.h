/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mcm_probe_join(): a socket with a source-specific join
 * (MCAST_JOIN_SOURCE_GROUP) of @group from @source on @ifindex, the probe
 * that makes /proc/net/mcfilter(6) list a device whole (the kernel's
 * reader starts a device's listing at its newest group, and only when
 * that has sources). Shared by mcm_mcfilter and the ABI test.
 */
#ifndef MCM_PROBE_H
#define MCM_PROBE_H

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

/* the socket, or -1 with errno set (from socket() or the join) */
static inline int mcm_probe_join(int family, unsigned int ifindex,
				 const char *group, const char *source)
{
	struct group_source_req gsr = { .gsr_interface = ifindex };
	struct sockaddr_in6 *g6 = (struct sockaddr_in6 *)&gsr.gsr_group;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&gsr.gsr_source;
	struct sockaddr_in *g4 = (struct sockaddr_in *)&gsr.gsr_group;
	struct sockaddr_in *s4 = (struct sockaddr_in *)&gsr.gsr_source;
	int fd, err;

	fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (family == AF_INET) {
		g4->sin_family = AF_INET;
		s4->sin_family = AF_INET;
		inet_pton(AF_INET, group, &g4->sin_addr);
		inet_pton(AF_INET, source, &s4->sin_addr);
	} else {
		g6->sin6_family = AF_INET6;
		s6->sin6_family = AF_INET6;
		inet_pton(AF_INET6, group, &g6->sin6_addr);
		inet_pton(AF_INET6, source, &s6->sin6_addr);
	}
	if (setsockopt(fd, family == AF_INET ? IPPROTO_IP : IPPROTO_IPV6,
		       MCAST_JOIN_SOURCE_GROUP, &gsr, sizeof(gsr))) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

#endif /* MCM_PROBE_H */
