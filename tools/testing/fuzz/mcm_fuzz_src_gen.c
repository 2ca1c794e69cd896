// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_fuzz: the source arrays of joins.
 *
 * A third of the joins (JOIN, and BATCH_JOIN entries of 168 bytes and
 * more) carry a source array: 0 to 70 sources (0 with a garbage pointer
 * and size, which the kernel must ignore), entries of 136 bytes mostly,
 * longer ones with zero or non-zero tails, shorter than the first version
 * and past 4096; good unicast sources of the group's family mostly, and
 * now and then one with a reserved field, an odd length, an unknown or
 * another family, AF_IB, a multicast or wildcard address, or one given
 * twice; in the source room, ending at its guard page, or at a bad
 * pointer; some of them send-only (which may not have sources).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>

#include "mcm_fuzz.h"

/* A good (unicast) source of @family, the @i-th of its array */
static void good_source(struct rng *r, int family, unsigned int i,
			struct sockaddr_storage *ss, uint32_t *len)
{
	static const char * const v4[] = {
		"192.0.2.1", "192.0.2.2", "198.51.100.7", "127.0.0.1",
	};
	static const char * const v6[] = {
		"2001:db8:71::1", "2001:db8:71::2", "fe80::1", "::1",
	};
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET6) {
		sin6->sin6_family = AF_INET6;
		if (one_in(r, 4)) {
			inet_pton(AF_INET6, v6[rnd_below(r, ARRAY_LEN(v6))],
				  &sin6->sin6_addr);
		} else {
			inet_pton(AF_INET6, "2001:db8:77::", &sin6->sin6_addr);
			sin6->sin6_addr.s6_addr[14] = i >> 8;
			sin6->sin6_addr.s6_addr[15] = i + 1;
		}
		if (one_in(r, 8))
			sin6->sin6_scope_id = rnd_below(r, 4);
		*len = sizeof(*sin6);
	} else {
		sin->sin_family = AF_INET;
		if (one_in(r, 4))
			inet_pton(AF_INET, v4[rnd_below(r, ARRAY_LEN(v4))],
				  &sin->sin_addr);
		else
			sin->sin_addr.s_addr = htonl(0x0a4d0001 + i);
		*len = sizeof(*sin);
	}
	/* the port is ignored; so is sin_zero */
	if (one_in(r, 4))
		sin->sin_port = (uint16_t)rnd(r);
	if (family != AF_INET6 && one_in(r, 16))
		sin->sin_zero[rnd_below(r, 8)] = (uint8_t)rnd(r);
}

/* Source @i of @n, @size bytes at @e: good mostly, now and then not */
static void build_source(struct rng *r, uint8_t *e, uint32_t size,
			 int family, unsigned int i)
{
	static const uint32_t lens[] = {
		0, 1, 2, 15, 16, 27, 28, 47, 48, 127, 128, 129, 4096,
		0xffffffff,
	};
	static const int families[] = {
		AF_UNSPEC, AF_UNIX, AF_PACKET, AF_NETLINK, 255, 0xffff,
	};
	static const char * const v4_bad[] = {
		"0.0.0.0", "0.1.2.3", "255.255.255.255", "224.0.0.1",
		"239.77.0.1", "239.255.255.255",
	};
	static const char * const v6_bad[] = {
		"::", "ff02::1", "ff0e::77:1", "ff00::", "ff11::1",
	};
	struct rdma_mcm_source src = { 0 };
	struct sockaddr_storage ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;
	uint32_t len, k;
	uint16_t fam;

	good_source(r, family, i, &ss, &len);
	if (one_in(r, 12)) {
		switch (rnd_below(r, 9)) {
		case 0:		/* reserved: EINVAL */
			src.reserved = 1U << rnd_below(r, 32);
			break;
		case 1:		/* a length the address does not have */
			len = lens[rnd_below(r, ARRAY_LEN(lens))];
			break;
		case 2:		/* a family no kernel takes: EAFNOSUPPORT */
			fam = families[rnd_below(r, ARRAY_LEN(families))];
			memcpy(&ss, &fam, sizeof(fam));
			break;
		case 3:		/* the other family, well formed */
			good_source(r, family == AF_INET6 ? AF_INET : AF_INET6,
				    i, &ss, &len);
			break;
		case 4: {	/* AF_IB */
			struct mcm_sockaddr_ib sib = { .sib_family = AF_IB };

			sib.sib_addr[15] = (uint8_t)i;
			memset(&ss, 0, sizeof(ss));
			memcpy(&ss, &sib, sizeof(sib));
			len = sizeof(sib);
			break;
		}
		case 5:		/* not unicast */
			k = rnd_below(r, family == AF_INET6 ?
					 ARRAY_LEN(v6_bad) : ARRAY_LEN(v4_bad));
			if (family == AF_INET6)
				inet_pton(AF_INET6, v6_bad[k], &sin6->sin6_addr);
			else
				inet_pton(AF_INET, v4_bad[k], &sin->sin_addr);
			break;
		case 6:		/* garbage past the sockaddr: ignored */
			((uint8_t *)&ss)[len + rnd_below(r, 16)] =
				(uint8_t)rnd(r);
			break;
		default:	/* a newer binary's source: its tail */
			if (size > sizeof(src))
				e[sizeof(src) + rnd_below(r, size -
							  sizeof(src))] = 1;
			break;
		}
	}
	src.addr_len = len;
	memcpy(src.addr, &ss, sizeof(src.addr) < sizeof(ss) ?
	       sizeof(src.addr) : sizeof(ss));
	memcpy(e, &src, sizeof(src));
}

/* nr_sources: a few mostly, around igmp_max_msf, up to and past 64 */
static uint32_t pick_nr_sources(struct rng *r)
{
	unsigned int x = rnd_below(r, 100);

	if (x < 45)
		return 1 + rnd_below(r, 3);
	if (x < 65)
		return 4 + rnd_below(r, 9);
	if (x < 78)
		return 13 + rnd_below(r, 52);
	if (x < 84)
		return RDMA_MCM_MAX_SOURCES;
	if (x < 90)
		return RDMA_MCM_MAX_SOURCES + 1 + rnd_below(r, 6);
	return 0;
}

/* source_size: the first version's mostly, longer, and out of bounds */
static uint32_t pick_source_size(struct rng *r)
{
	unsigned int x = rnd_below(r, 100);

	if (x < 60)
		return RDMA_MCM_SOURCE_SIZE_VER0;
	if (x < 72)
		return RDMA_MCM_SOURCE_SIZE_VER0 + 1 + rnd_below(r, 64);
	if (x < 82)
		return RDMA_MCM_SOURCE_SIZE_VER0 + 8 * rnd_below(r, 16);
	if (x < 85)
		return RDMA_MCM_MAX_ENTRY_SIZE;
	if (x < 91)
		return rnd_below(r, RDMA_MCM_SOURCE_SIZE_VER0);	/* EINVAL */
	if (x < 96)
		return RDMA_MCM_MAX_ENTRY_SIZE + 1 + rnd_below(r, 8); /* E2BIG */
	return interesting32(r);
}

/*
 * A source array for a join of a group of @family, its pointer, count and
 * size written to @fields (struct rdma_mcm_join's sources, nr_sources,
 * source_size, or an entry's): built in the worker's source room (this
 * call's part of it: [gs_lo, gs_hi)), or ending at its guard page
 * (@whole: the call's only array), or at a bad pointer. A join with
 * sources is a full member mostly (*@join_flags).
 */
void build_sources(struct worker *w, struct call *c, uint8_t *fields,
		   int family, uint32_t *join_flags, int whole)
{
	struct rng *r = &w->rng;
	uint32_t nr = pick_nr_sources(r), size = pick_source_size(r);
	uint32_t i, fill, room;
	uint64_t ptr;
	uint8_t *p;
	size_t len;

	(void)c;
	w->st->src_built++;
	*join_flags = one_in(r, 6) ? RDMA_MCM_JOIN_SENDONLY_FULLMEMBER :
				     RDMA_MCM_JOIN_FULLMEMBER;
	if (!nr) {		/* no sources: the rest is not looked at */
		ptr = one_in(r, 2) ? bad_ptr(r) : (uintptr_t)w->gs_cur;
		size = one_in(r, 2) ? interesting32(r) : size;
		goto out;
	}
	if (one_in(r, 12)) {	/* nothing there to read */
		ptr = one_in(r, 4) ? (uintptr_t)none_page : bad_ptr(r);
		goto out;
	}
	/* the entries the kernel may read, as many as the room has */
	fill = nr <= RDMA_MCM_MAX_SOURCES && size <= RDMA_MCM_MAX_ENTRY_SIZE ?
	       nr : 1;
	if (size < sizeof(struct rdma_mcm_source) ||
	    size > RDMA_MCM_MAX_ENTRY_SIZE)
		fill = 0;	/* refused before any is read */
	room = w->gs_end - w->gs_cur > 8 ?
	       (w->gs_end - w->gs_cur - 8) / (size ? size : 1) : 0;
	if (fill > room)
		nr = room;
	if (fill > nr)
		fill = nr;
	len = (size_t)fill * size;
	p = w->gs_cur + (one_in(r, 4) ? rnd_below(r, 8) : 0);
	if (whole && len && one_in(r, 8)) {
		/* end at the guard page, or cut the last bytes off */
		p = w->gs_end - len + (one_in(r, 2) ? rnd_below(r, len) : 0);
		len = w->gs_end - p;
	} else {
		w->gs_cur = p + len;
	}
	memset(p, 0, len);
	for (i = 0; i < fill && (size_t)(i + 1) * size <= len; i++)
		build_source(r, p + (size_t)i * size, size, family, i);
	if (i < fill && len > (size_t)i * size) {
		/* the cut one: its first bytes */
		uint8_t tmp[RDMA_MCM_MAX_ENTRY_SIZE];

		memset(tmp, 0, size);
		build_source(r, tmp, size, family, i);
		memcpy(p + (size_t)i * size, tmp, len - (size_t)i * size);
	}
	/* now and then a source given twice (with another port, maybe) */
	if (fill > 1 && one_in(r, 8)) {
		i = 1 + rnd_below(r, fill - 1);
		if ((size_t)(i + 1) * size <= len) {
			memcpy(p + (size_t)i * size,
			       p + (size_t)rnd_below(r, i) * size,
			       sizeof(struct rdma_mcm_source));
			if (one_in(r, 2))
				p[(size_t)i * size + 8 + 2] ^= 1; /* the port */
		}
	}
	if (!w->gs_lo || p < w->gs_lo)
		w->gs_lo = p;
	if (!w->gs_hi || p + len > w->gs_hi)
		w->gs_hi = p + len;
	ptr = (uintptr_t)p;
out:
	memcpy(fields, &ptr, sizeof(ptr));
	memcpy(fields + 8, &nr, sizeof(nr));
	memcpy(fields + 12, &size, sizeof(size));
}
