// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: checks of source and group addresses.
 */
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/string.h>
#include <net/ipv6.h>
#include <rdma/ib.h>

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
 * rdma_mcm_group_parse() - check a multicast group address
 * @sa: the address
 * @len: its length in bytes
 * @family: the family of the context's source address
 * @out: where to copy the group, with its port cleared
 * @key: where to put the group's hash key
 *
 * Return: 0; the errors of rdma_mcm_addr_parse(); -EINVAL when the family
 * differs from @family or the address is not a multicast address (for
 * AF_IB: an MGID whose first byte is not 0xff).
 */
int rdma_mcm_group_parse(const struct sockaddr *sa, size_t len,
			 sa_family_t family, union rdma_mcm_addr *out,
			 struct rdma_mcm_key *key)
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

	memset(key, 0, sizeof(*key));
	switch (family) {
	case AF_INET:
		if (!ipv4_is_multicast(sin->sin_addr.s_addr))
			return -EINVAL;
		sin->sin_port = 0;
		memcpy(key->raw, &sin->sin_addr, sizeof(sin->sin_addr));
		break;
	case AF_INET6:
		if (!ipv6_addr_is_multicast(&sin6->sin6_addr))
			return -EINVAL;
		sin6->sin6_port = 0;
		memcpy(key->raw, &sin6->sin6_addr, sizeof(sin6->sin6_addr));
		break;
	case AF_IB:
		if (sib->sib_addr.sib_raw[0] != 0xff)
			return -EINVAL;
		memcpy(key->raw, &sib->sib_addr, sizeof(sib->sib_addr));
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
