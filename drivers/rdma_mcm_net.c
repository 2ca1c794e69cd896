// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: the real backend's IP side, for what rdma_cm cannot do
 * (rdma_mcm_ipmc.c decides when): the IGMP and MLD memberships rdma_mcm
 * holds itself, in kernel UDP sockets, and the address handle attributes
 * of a group it joined on the device itself. KUnit fakes these as it fakes
 * rdma_cm.
 *
 * Memberships are made with the socket options a program would use, so
 * they compose with every other member of the group on the netdev as a
 * program's would, obey the namespace's igmp_max_memberships, igmp_max_msf
 * and mld_max_msf, and a leave takes back exactly what the join added:
 * IP_ADD_MEMBERSHIP / IPV6_ADD_MEMBERSHIP (any source, by interface index),
 * MCAST_JOIN_SOURCE_GROUP once per source (the only option that builds an
 * INCLUDE filter by interface index, for IPv4 and IPv6 alike), and
 * IP_DROP_MEMBERSHIP / IPV6_DROP_MEMBERSHIP, which drop a group with its
 * filter. The options take the RTNL and the socket's lock themselves.
 * Kernel sockets hold no reference on their namespace: the context holds
 * one until its sockets are gone (its memberships', and the one it keeps
 * empty for the next, rdma_mcm_ipmc.c), at its close.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compat.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/net.h>
#include <linux/netdevice.h>
#include <linux/sockptr.h>
#include <net/compat.h>
#include <net/ipv6.h>
#include <net/sock.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_sa.h>

#include "rdma_mcm_internal.h"

static int rdma_mcm_net_setsockopt(struct socket *sock, int level, int name,
				   void *arg, unsigned int len)
{
	return sock->ops->setsockopt(sock, level, name, KERNEL_SOCKPTR(arg),
				     len);
}

/* @a as the sockaddr of its family (port 0) in @ss */
static void rdma_mcm_net_sockaddr(sa_family_t family, const void *a,
				  struct __kernel_sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;

		sin->sin_family = AF_INET;
		memcpy(&sin->sin_addr, a, sizeof(sin->sin_addr));
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

		sin6->sin6_family = AF_INET6;
		memcpy(&sin6->sin6_addr, a, sizeof(sin6->sin6_addr));
	}
}

/*
 * Add @src to @sock's filter of @group on @ifindex. This socket option
 * reads its argument in the calling process's ABI: a 32-bit process's
 * ioctl arrives as a compat syscall, which takes the packed compat layout.
 */
static int rdma_mcm_net_add_source(struct socket *sock, int level, int ifindex,
				   const void *group,
				   const union rdma_mcm_ipaddr *src)
{
	sa_family_t family = level == SOL_IP ? AF_INET : AF_INET6;
	struct group_source_req gsr = { .gsr_interface = ifindex };

	rdma_mcm_net_sockaddr(family, group, &gsr.gsr_group);
	rdma_mcm_net_sockaddr(family, src, &gsr.gsr_source);
#ifdef CONFIG_COMPAT
	if (in_compat_syscall()) {
		struct compat_group_source_req cgsr = {
			.gsr_interface = ifindex,
		};

		memcpy(&cgsr.gsr_group, &gsr.gsr_group, sizeof(gsr.gsr_group));
		memcpy(&cgsr.gsr_source, &gsr.gsr_source,
		       sizeof(gsr.gsr_source));
		return rdma_mcm_net_setsockopt(sock, level,
					       MCAST_JOIN_SOURCE_GROUP, &cgsr,
					       sizeof(cgsr));
	}
#endif
	return rdma_mcm_net_setsockopt(sock, level, MCAST_JOIN_SOURCE_GROUP,
				       &gsr, sizeof(gsr));
}

/* Join (@join) or leave @group on @ifindex, any source */
static int rdma_mcm_net_membership(struct socket *sock, int ifindex,
				   const union rdma_mcm_addr *group, bool join)
{
	struct ipv6_mreq mreq6 = { .ipv6mr_ifindex = ifindex };
	struct ip_mreqn mreq = { .imr_ifindex = ifindex };

	if (group->sa.sa_family == AF_INET) {
		mreq.imr_multiaddr = group->in.sin_addr;
		return rdma_mcm_net_setsockopt(sock, SOL_IP, join ?
					       IP_ADD_MEMBERSHIP :
					       IP_DROP_MEMBERSHIP,
					       &mreq, sizeof(mreq));
	}
	mreq6.ipv6mr_multiaddr = group->in6.sin6_addr;
	return rdma_mcm_net_setsockopt(sock, SOL_IPV6, join ?
				       IPV6_ADD_MEMBERSHIP :
				       IPV6_DROP_MEMBERSHIP,
				       &mreq6, sizeof(mreq6));
}

/**
 * rdma_mcm_net_ip_open() - a kernel UDP socket for memberships (ip_open)
 * @be: the backend
 * @net: its namespace (the caller holds a reference while it lives)
 * @family: AF_INET or AF_INET6
 * @sock: set to it
 *
 * Context: process context.
 * Return: 0, or the error of sock_create_kern() (-EAFNOSUPPORT without
 * IPv6, -ENOMEM).
 */
int rdma_mcm_net_ip_open(const struct rdma_mcm_backend *be, struct net *net,
			 sa_family_t family, void **sock)
{
	struct socket *s;
	int ret;

	if (family == AF_INET6 && !IS_ENABLED(CONFIG_IPV6))
		return -EAFNOSUPPORT;
	ret = sock_create_kern(net, family, SOCK_DGRAM, IPPROTO_UDP, &s);
	if (!ret)
		*sock = s;
	return ret;
}

/**
 * rdma_mcm_net_ip_close() - close a socket of rdma_mcm_net_ip_open()
 * @be: the backend
 * @sock: the socket (a membership still in it would be dropped)
 *
 * Context: process context.
 */
void rdma_mcm_net_ip_close(const struct rdma_mcm_backend *be, void *sock)
{
	sock_release(sock);
}

/**
 * rdma_mcm_net_ip_join() - join a group through a socket (backend ip_join)
 * @be: the backend
 * @sock: the socket
 * @ifindex: the netdev
 * @group: the group (IPv4 or IPv6, the socket's family)
 * @ipmc: its sources; none: any source
 *
 * A join with sources that fails half-way takes back what it added.
 *
 * Context: process context; the socket options take the RTNL.
 * Return: 0; -ENOBUFS (the socket holds igmp_max_memberships groups, or
 * more sources than igmp_max_msf / mld_max_msf, or no option memory);
 * -ENODEV (no such netdev, or IPv4 or IPv6 is down on it); -EINVAL (IPv6
 * disabled on it); -EADDRNOTAVAIL; -ENOMEM.
 */
int rdma_mcm_net_ip_join(const struct rdma_mcm_backend *be, void *sock,
			 int ifindex, const union rdma_mcm_addr *group,
			 const struct rdma_mcm_ipmc *ipmc)
{
	int level = group->sa.sa_family == AF_INET ? SOL_IP : SOL_IPV6;
	const void *g = group->sa.sa_family == AF_INET ?
			(const void *)&group->in.sin_addr :
			(const void *)&group->in6.sin6_addr;
	unsigned int i;
	int ret;

	if (!ipmc->nr_sources)
		return rdma_mcm_net_membership(sock, ifindex, group, true);
	for (i = 0; i < ipmc->nr_sources; i++) {
		ret = rdma_mcm_net_add_source(sock, level, ifindex, g,
					      &ipmc->sources[i]);
		if (ret) {
			/* even the first: its group may be joined, sourceless */
			rdma_mcm_net_membership(sock, ifindex, group, false);
			return ret;
		}
	}
	return 0;
}

/**
 * rdma_mcm_net_ip_leave() - leave a group rdma_mcm_net_ip_join() joined
 * @be: the backend
 * @sock: the socket
 * @ifindex: the netdev
 * @group: the group, with its filter
 *
 * A netdev that is gone took its memberships with it (the socket's are
 * dropped all the same).
 *
 * Context: process context; the socket options take the RTNL.
 */
void rdma_mcm_net_ip_leave(const struct rdma_mcm_backend *be, void *sock,
			   int ifindex, const union rdma_mcm_addr *group)
{
	rdma_mcm_net_membership(sock, ifindex, group, false);
}

/**
 * rdma_mcm_net_roce_ah() - address handle attributes of a RoCE v2 group
 * @be: the backend
 * @id: a bound id on a RoCE port
 * @mgid: the group's MGID
 * @ah: set to the attributes (with a GID table reference:
 *	rdma_destroy_ah_attr() drops it)
 *
 * As rdma_cm's RoCE join makes them for an IPv4 group on RoCE v2: the
 * RoCE v2 GID of the id's source address on its netdev, hop limit 64,
 * traffic class and flow label 0, the port's rate, P_Key 0xffff.
 *
 * Context: process context.
 * Return: 0; -ENODEV (the netdev is gone); -EINVAL (its MTU is too small
 * for RoCE); -ENOENT (the source has no RoCE v2 GID); -ENOMEM.
 */
int rdma_mcm_net_roce_ah(const struct rdma_mcm_backend *be,
			 struct rdma_cm_id *id, const union ib_gid *mgid,
			 struct rdma_ah_attr *ah)
{
	struct rdma_dev_addr *dev_addr = &id->route.addr.dev_addr;
	struct ib_sa_mcmember_rec rec = {};
	struct net_device *ndev;
	int ret;

	ndev = dev_addr->bound_dev_if ?
	       dev_get_by_index(dev_addr->net, dev_addr->bound_dev_if) : NULL;
	if (!ndev)
		return -ENODEV;
	rec.mgid = *mgid;
	rec.pkey = cpu_to_be16(0xffff);
	rec.rate = IB_RATE_PORT_CURRENT;
	rec.hop_limit = IPV6_DEFAULT_HOPLIMIT;
	rec.mtu = iboe_get_mtu(ndev->mtu);
	rdma_ip2gid((struct sockaddr *)&id->route.addr.src_addr,
		    &rec.port_gid);
	ret = rec.mtu ? ib_init_ah_from_mcmember(id->device, id->port_num,
						 &rec, ndev,
						 IB_GID_TYPE_ROCE_UDP_ENCAP,
						 ah) : -EINVAL;
	dev_put(ndev);
	return ret;
}
