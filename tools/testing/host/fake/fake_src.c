// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The fake /dev/rdma_mcm: the sources of a source-specific join, checked
 * as the module checks them (Documentation/uapi.rst), in this order:
 *
 *   no sources: nothing to check (source_size and the pointer ignored)
 *   a send-only join, more than RDMA_MCM_MAX_SOURCES, a source_size
 *   below RDMA_MCM_SOURCE_SIZE_VER0                              EINVAL
 *   a source_size above RDMA_MCM_MAX_ENTRY_SIZE                  E2BIG
 *   no array (a NULL pointer stands for a bad one)               EFAULT
 *   an InfiniBand port, an AF_IB context                         EOPNOTSUPP
 *   for each source: a non-zero tail beyond the fake's struct    E2BIG
 *     a non-zero reserved, an addr_len the family does not fill  EINVAL
 *     a family the ABI does not take (AF_INET, AF_INET6, AF_IB)  EAFNOSUPPORT
 *     another family than the group's, not a unicast address
 *     (multicast, 0.0.0.0/8, ::, 255.255.255.255), given twice   EINVAL
 *   more than net.ipv4.igmp_max_msf / net.ipv6.mld_max_msf       ENOBUFS
 *
 * A join that passes is recorded as the last (fake.last_src), as the
 * kernel read its sources. See fake_dev.h.
 */
#include <errno.h>
#include <netinet/in.h>
#include <stddef.h>
#include <string.h>

#include "fake_dev.h"
#include "mcm_model.h"

static uint16_t family_of(const uint8_t *addr)
{
	uint16_t f;

	memcpy(&f, addr, sizeof(f));
	return f;
}

/* The address bytes of a sockaddr_in or _in6: 4 or 16 */
static size_t key_of(const uint8_t *addr, uint8_t key[16])
{
	memset(key, 0, 16);
	if (family_of(addr) == AF_INET) {
		memcpy(key, addr + offsetof(struct sockaddr_in, sin_addr), 4);
		return 4;
	}
	memcpy(key, addr + offsetof(struct sockaddr_in6, sin6_addr), 16);
	return 16;
}

/* Not multicast, not 0.0.0.0/8 or ::, not 255.255.255.255 */
static int is_unicast(const uint8_t *addr)
{
	uint8_t key[16];

	key_of(addr, key);
	return source_unicast(family_of(addr), key);
}

/* Source @i as the kernel reads it: its first bytes, the tail zero */
static int read_source(const struct fake_join_req *r, uint32_t i,
		       struct rdma_mcm_source *s)
{
	const uint8_t *p = (const uint8_t *)(uintptr_t)r->sources +
			   (size_t)i * r->source_size;
	size_t n = r->source_size < sizeof(*s) ? r->source_size : sizeof(*s);
	size_t k;

	memset(s, 0, sizeof(*s));
	memcpy(s, p, n);
	for (k = sizeof(*s); k < r->source_size; k++)
		if (p[k])
			return -E2BIG;
	return 0;
}

static int check_one(const struct fake_ctx *c, const struct rdma_mcm_source *s)
{
	int family, ret;

	if (s->reserved)
		return -EINVAL;
	ret = addr_errno(s->addr, s->addr_len, &family);
	if (ret)
		return -ret;
	if (family != c->family || !is_unicast(s->addr))
		return -EINVAL;
	return 0;
}

int fake_check_sources(const struct fake_ctx *c,
		       const struct fake_join_req *r)
{
	static struct rdma_mcm_source src[RDMA_MCM_MAX_SOURCES];
	uint8_t a[16], b[16];
	uint32_t i, j;
	size_t n;
	int ret;

	if (!r->nr_sources)
		return 0;
	if (r->flags == RDMA_MCM_JOIN_SENDONLY_FULLMEMBER ||
	    r->nr_sources > RDMA_MCM_MAX_SOURCES ||
	    r->source_size < RDMA_MCM_SOURCE_SIZE_VER0)
		return -EINVAL;
	if (r->source_size > RDMA_MCM_MAX_ENTRY_SIZE)
		return -E2BIG;
	if (!r->sources)
		return -EFAULT;
	if (c->family == AF_IB || fake.ib_port)
		return -EOPNOTSUPP;
	for (i = 0; i < r->nr_sources; i++) {
		ret = read_source(r, i, &src[i]);
		if (!ret)
			ret = check_one(c, &src[i]);
		if (ret)
			return ret;
		n = key_of(src[i].addr, a);
		for (j = 0; j < i; j++) {
			key_of(src[j].addr, b);
			if (!memcmp(a, b, n))
				return -EINVAL;
		}
	}
	if (r->nr_sources > (c->family == AF_INET ? fake.igmp_max_msf :
			     fake.mld_max_msf))
		return -ENOBUFS;
	fake.nr_source_joins++;
	fake.last_nr_sources = r->nr_sources;
	fake.last_source_size = r->source_size;
	memcpy(fake.last_src, src, r->nr_sources * sizeof(src[0]));
	return 0;
}
