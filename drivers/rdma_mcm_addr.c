// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: checks of source and group addresses.
 */
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/string.h>
#include <net/ipv6.h>
#include <rdma/ib.h>
#include <rdma/ib_addr.h>

#include "rdma_mcm_internal.h"

static size_t rdma_mcm_family_len(sa_family_t family)
{
	switch (family) {
	case AF_INET:
		return sizeof(struct sockaddr_in);
	case AF_INET6:
		return sizeof(struct sockaddr_in6);
	case AF_IB:
		return sizeof(struct sockaddr_ib);
	default:
		return 0;
	}
}

/**
 * rdma_mcm_addr_parse() - check a socket address and copy it
 * @sa: the address
 * @len: its length in bytes
 * @out: where to copy it, zero padded
 *
 * Return: 0; -EINVAL when @sa is NULL or @len is too short to hold a
 * family or shorter than the family's sockaddr; -EAFNOSUPPORT when the
 * family is not AF_INET, AF_INET6 or AF_IB.
 */
int rdma_mcm_addr_parse(const struct sockaddr *sa, size_t len,
			union rdma_mcm_addr *out)
{
	size_t need;

	if (!sa || len < sizeof(sa->sa_family))
		return -EINVAL;
	need = rdma_mcm_family_len(sa->sa_family);
	if (!need)
		return -EAFNOSUPPORT;
	if (len < need)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	memcpy(out, sa, need);
	return 0;
}

/**
 * rdma_mcm_addr_clear_port() - an address without its port
 * @sa: the address (AF_INET, AF_INET6 or AF_IB; others are left alone)
 *
 * For AF_IB, the service id is the port.
 */
void rdma_mcm_addr_clear_port(struct sockaddr *sa)
{
	switch (sa->sa_family) {
	case AF_INET:
		((struct sockaddr_in *)sa)->sin_port = 0;
		break;
	case AF_INET6:
		((struct sockaddr_in6 *)sa)->sin6_port = 0;
		break;
	case AF_IB:
		((struct sockaddr_ib *)sa)->sib_sid = 0;
		((struct sockaddr_ib *)sa)->sib_sid_mask = 0;
		break;
	}
}

/**
 * rdma_mcm_src_parse() - check a source address and copy it without its port
 * @sa: the address
 * @len: its length in bytes
 * @out: where to copy it, zero padded, with the port cleared
 *
 * The port of a source address means nothing to multicast, as the port of
 * a group does not: every rdma_cm_id of a context binds a port of its own
 * from rdma_cm's UDP port space. Kept, it would make the context's second
 * id fail with -EADDRINUSE (and a port below 1024 -EACCES).
 *
 * Return: the errors of rdma_mcm_addr_parse(), or 0.
 */
int rdma_mcm_src_parse(const struct sockaddr *sa, size_t len,
		       union rdma_mcm_addr *out)
{
	int ret = rdma_mcm_addr_parse(sa, len, out);

	if (ret)
		return ret;
	rdma_mcm_addr_clear_port(&out->sa);
	return 0;
}

/*
 * On InfiniBand rdma_cm maps an IPv6 group to an MGID that keeps only its
 * last ten bytes (cma_set_mgid(): the IPv6 signature, the scope of the
 * port's broadcast address, the P_Key, then bytes 6..15), unless the
 * address is itself an SA-assigned MGID (ff1x:a01b::/32), used as it is.
 * Groups that differ only in bytes 0..5 are one group there: their key is
 * the bytes rdma_cm keeps.
 */
static void rdma_mcm_ib_ipv6_key(const struct in6_addr *a,
				 struct rdma_mcm_key *key)
{
	if ((be32_to_cpu(a->s6_addr32[0]) & 0xFFF0FFFF) == 0xFF10A01B) {
		memcpy(key->raw, a->s6_addr, sizeof(key->raw));
		return;
	}
	memcpy(&key->raw[6], &a->s6_addr[6], 10);
}

/**
 * rdma_mcm_group_key() - a group's key in a context's tree of groups
 * @group: the group, as rdma_mcm_group_parse() made it
 * @ib_mgid: the context joins on InfiniBand, where rdma_cm's MGID of an
 *	IPv6 group drops its first six bytes: key by what it keeps
 * @key: where to put the key
 *
 * Computed when needed, not kept: sixteen bytes less per membership.
 */
void rdma_mcm_group_key(const union rdma_mcm_addr *group, bool ib_mgid,
			struct rdma_mcm_key *key)
{
	memset(key, 0, sizeof(*key));
	switch (group->sa.sa_family) {
	case AF_INET:
		memcpy(key->raw, &group->in.sin_addr, sizeof(group->in.sin_addr));
		break;
	case AF_INET6:
		if (ib_mgid)
			rdma_mcm_ib_ipv6_key(&group->in6.sin6_addr, key);
		else
			memcpy(key->raw, &group->in6.sin6_addr,
			       sizeof(group->in6.sin6_addr));
		break;
	case AF_IB:
		memcpy(key->raw, &group->ib.sib_addr,
		       sizeof(group->ib.sib_addr));
		break;
	}
}

/**
 * rdma_mcm_group_sa_assigned() - the group is one the SA is to assign
 * @group: the group, as rdma_mcm_group_parse() made it
 *
 * The IPv6 unspecified address, or an AF_IB MGID of zeros: rdma_cm then
 * asks the SA for a new group with an MGID of zeros (cma_set_mgid()), and
 * the SA answers with the MGID it made (ff1x:a01b::/32 on opensm).
 * InfiniBand only; two such joins are two groups.
 *
 * Return: true for such a group.
 */
bool rdma_mcm_group_sa_assigned(const union rdma_mcm_addr *group)
{
	switch (group->sa.sa_family) {
	case AF_INET6:
		return ipv6_addr_any(&group->in6.sin6_addr);
	case AF_IB:
		return ib_addr_any(&group->ib.sib_addr);
	default:
		return false;
	}
}

/**
 * rdma_mcm_group_parse() - check a multicast group address
 * @sa: the address
 * @len: its length in bytes
 * @family: the family of the context's source address
 * @out: where to copy the group, with its port cleared
 *
 * An IPv6 group must have a scope a group can be joined at on a link: not
 * interface-local (ff01::/16, for loopback only, RFC 4291, which the IP
 * stack never sends on a netdev, and a RoCE HCA would put on the wire) nor
 * a reserved one (0 and 15), whatever its flags.
 *
 * The group the SA is to assign (rdma_mcm_group_sa_assigned(): IPv6 ::,
 * an AF_IB MGID of zeros) passes; the caller decides where it may be
 * joined (InfiniBand) and how it is left (by handle).
 *
 * Return: 0; the errors of rdma_mcm_addr_parse(); -EINVAL when the family
 * differs from @family or the address is not a multicast address (for
 * AF_IB: an MGID whose first byte is not 0xff), or an IPv6 group of the
 * interface-local or a reserved scope.
 */
int rdma_mcm_group_parse(const struct sockaddr *sa, size_t len,
			 sa_family_t family, union rdma_mcm_addr *out)
{
	struct sockaddr_in *sin = &out->in;
	struct sockaddr_in6 *sin6 = &out->in6;
	struct sockaddr_ib *sib = &out->ib;
	int ret;

	ret = rdma_mcm_addr_parse(sa, len, out);
	if (ret)
		return ret;
	if (out->sa.sa_family != family)
		return -EINVAL;

	switch (family) {
	case AF_INET:
		if (!ipv4_is_multicast(sin->sin_addr.s_addr))
			return -EINVAL;
		sin->sin_port = 0;
		break;
	case AF_INET6:
		sin6->sin6_port = 0;
		if (ipv6_addr_any(&sin6->sin6_addr))
			break;
		if (!ipv6_addr_is_multicast(&sin6->sin6_addr))
			return -EINVAL;
		switch (IPV6_ADDR_MC_SCOPE(&sin6->sin6_addr)) {
		case 0x0:	/* reserved */
		case IPV6_ADDR_SCOPE_NODELOCAL:
		case 0xf:	/* reserved */
			return -EINVAL;
		}
		break;
	case AF_IB:
		if (sib->sib_addr.sib_raw[0] != 0xff &&
		    !ib_addr_any(&sib->sib_addr))
			return -EINVAL;
		break;
	}
	return 0;
}

/**
 * rdma_mcm_addr_to_storage() - widen a kept address for the API
 * @addr: the address
 * @ss: where to copy it, zero padded
 */
void rdma_mcm_addr_to_storage(const union rdma_mcm_addr *addr,
			      struct sockaddr_storage *ss)
{
	BUILD_BUG_ON(sizeof(*addr) > sizeof(*ss));
	memset(ss, 0, sizeof(*ss));
	memcpy(ss, addr, sizeof(*addr));
}

/**
 * rdma_mcm_sockaddr_len() - length of a kernel caller's sockaddr
 * @sa: the address, or NULL
 *
 * Return: the length of @sa's family's sockaddr, the size of a family
 * alone for an unknown family (rdma_mcm_addr_parse() then says why), or 0
 * for NULL.
 */
size_t rdma_mcm_sockaddr_len(const struct sockaddr *sa)
{
	size_t len;

	if (!sa)
		return 0;
	len = rdma_addr_size(sa);
	return len ? len : sizeof(sa->sa_family);
}
