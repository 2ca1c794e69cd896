// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm-groups: the address a "dev NETDEV" membership is joined from,
 * and the rtnetlink events that may change it.
 *
 * rdma_mcm binds a context to a source address (its RDMA device is the
 * one whose GID table holds it). A membership named by its netdev is
 * joined from the netdev's address of the group's family: for IPv4 the
 * first the kernel lists (the primary), for IPv6 the first global one,
 * else the link-local one, scoped to the netdev. When the netdev, or its
 * address, is not there yet, the membership waits (hold.c retries it at
 * each address or link event, and on a timer); when the address goes and
 * the netdev gets another, hold.c moves the context to it.
 */
#include <errno.h>
#include <ifaddrs.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "groups.h"

int grp_netdev_addr(const char *dev, int family, struct sockaddr_storage *ss)
{
	const struct sockaddr_in6 *sin6;
	struct ifaddrs *ifa, *i;
	int found = 0;

	if (!if_nametoindex(dev))
		return -ENODEV;
	if (getifaddrs(&ifa))
		return -errno;
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != family ||
		    strcmp(i->ifa_name, dev))
			continue;
		if (family == AF_INET) {
			memset(ss, 0, sizeof(*ss));
			memcpy(ss, i->ifa_addr, sizeof(struct sockaddr_in));
			found = 1;
			break;
		}
		sin6 = (const struct sockaddr_in6 *)i->ifa_addr;
		/* a link-local one only if there is no other */
		if (found && IN6_IS_ADDR_LINKLOCAL(&sin6->sin6_addr))
			continue;
		memset(ss, 0, sizeof(*ss));
		memcpy(ss, sin6, sizeof(*sin6));
		found = 1;
		if (!IN6_IS_ADDR_LINKLOCAL(&sin6->sin6_addr))
			break;
	}
	freeifaddrs(ifa);
	if (!found)
		return -EADDRNOTAVAIL;
	/* getifaddrs() scopes a link-local address; nothing else */
	if (family == AF_INET6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

		if (!IN6_IS_ADDR_LINKLOCAL(&s6->sin6_addr))
			s6->sin6_scope_id = 0;
		((struct sockaddr_in6 *)ss)->sin6_port = 0;
	} else {
		((struct sockaddr_in *)ss)->sin_port = 0;
	}
	return 0;
}

/* @i's address as grp_addr_cmp() compares it: a global IPv6 one unscoped */
static void ifa_addr_of(const struct ifaddrs *i, struct sockaddr_storage *a)
{
	memset(a, 0, sizeof(*a));
	memcpy(a, i->ifa_addr, i->ifa_addr->sa_family == AF_INET ?
	       sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6));
	if (a->ss_family == AF_INET6 &&
	    !IN6_IS_ADDR_LINKLOCAL(&((struct sockaddr_in6 *)a)->sin6_addr))
		((struct sockaddr_in6 *)a)->sin6_scope_id = 0;
}

int grp_netdev_has(const char *dev, const struct sockaddr_storage *ss)
{
	struct sockaddr_storage a;
	struct ifaddrs *ifa, *i;
	int found = 0;

	if (getifaddrs(&ifa))
		return 1;	/* cannot tell: not moved on a guess */
	for (i = ifa; i && !found; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != ss->ss_family ||
		    strcmp(i->ifa_name, dev))
			continue;
		ifa_addr_of(i, &a);
		found = !grp_addr_cmp(&a, ss);
	}
	freeifaddrs(ifa);
	return found;
}

int grp_netdev_of(const struct sockaddr_storage *ss, char *dev)
{
	struct sockaddr_storage a;
	struct ifaddrs *ifa, *i;
	int ret = -EADDRNOTAVAIL;

	if (getifaddrs(&ifa))
		return -errno;
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != ss->ss_family)
			continue;
		ifa_addr_of(i, &a);
		if (grp_addr_cmp(&a, ss))
			continue;
		snprintf(dev, IF_NAMESIZE, "%s", i->ifa_name);
		ret = 0;
		break;
	}
	freeifaddrs(ifa);
	return ret;
}

int grp_rtnl_open(void)
{
	struct sockaddr_nl nl = {
		.nl_family = AF_NETLINK,
		.nl_groups = RTMGRP_LINK | RTMGRP_IPV4_IFADDR |
			     RTMGRP_IPV6_IFADDR,
	};
	int fd;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    NETLINK_ROUTE);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&nl, sizeof(nl))) {
		close(fd);
		return -1;
	}
	return fd;
}

int grp_rtnl_read(int fd)
{
	char buf[8192] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct nlmsghdr *h;
	int changed = 0, len;
	ssize_t n;

	for (;;) {
		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		/* events lost: anything may have changed */
		if (n < 0 && errno == ENOBUFS) {
			changed = 1;
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return changed;
		if (n <= 0)
			return -1;
		len = (int)n;
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, len);
		     h = NLMSG_NEXT(h, len))
			if (h->nlmsg_type == RTM_NEWADDR ||
			    h->nlmsg_type == RTM_DELADDR ||
			    h->nlmsg_type == RTM_NEWLINK ||
			    h->nlmsg_type == RTM_DELLINK)
				changed = 1;
	}
}

int grp_netdev_type(const char *dev)
{
	char path[80];
	FILE *f;
	int type;

	snprintf(path, sizeof(path), "/sys/class/net/%s/type", dev);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &type) != 1)
		type = -1;
	fclose(f);
	return type;
}
