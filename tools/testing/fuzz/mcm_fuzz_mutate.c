// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_fuzz: mutating an argument built valid (mcm_fuzz_gen.c).
 *
 * Up to three random mutations: flipped bits and bytes, reserved fields,
 * flags, address lengths and families, stale or random context ids and
 * handles, batch and list counts, starts and entry sizes (below the first
 * version, up to and past the largest), event masks with unknown bits and
 * event sizes below, around and far above the kernel's, pointers (the
 * argument itself or its array) to NULL, to unmapped, read-only or kernel
 * memory or into a buffer that runs into a guard page, and command
 * numbers with another size (shorter than the first version, or longer
 * with a zero or non-zero tail), direction, number or type.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/ioctl.h>

#include "mcm_fuzz.h"

/* How often each mutation is picked. */
static const unsigned char mut_weight[NR_MUTATIONS] = {
	[M_BITFLIP] = 4, [M_BYTE] = 3, [M_RESERVED] = 3, [M_FLAGS] = 3,
	[M_ADDR] = 6, [M_CTX] = 3, [M_HANDLE] = 3, [M_COUNT] = 3,
	[M_ENTRY_SIZE] = 4, [M_START] = 2, [M_ENTRY] = 4, [M_ARR_PTR] = 3,
	[M_ARG_PTR] = 3, [M_SIZE] = 3, [M_TAIL] = 2, [M_DIR] = 1, [M_NR] = 1,
	[M_TYPE] = 1, [M_EVENTS] = 4,
};

/* ------------------------------------------------------------ addresses */

/* A family's sockaddr length; sockaddr's 16 for a family the ABI lacks */
static uint32_t mutate_len(int family)
{
	uint32_t len = family_len(family);

	return len ? len : 16;
}

/* An address not in the pool: unicast, wildcard, odd multicast, ... */
static uint32_t put_odd_addr(struct rng *r, uint8_t *addr, int is_src)
{
	static const char * const v4[] = {
		"10.1.2.3", "127.0.0.1", "0.0.0.0", "255.255.255.255",
		"224.0.0.1", "224.0.0.0", "239.255.255.255", "192.0.2.255",
		"198.51.100.1", "192.0.2.1", "192.0.2.2", "239.77.0.1",
	};
	static const char * const v6[] = {
		"::", "::1", "fe80::1", "ff02::1", "ff0e::77:1", "2001:db8::1",
		"::ffff:192.0.2.2", "ff00::", "ff01::1", "ff3f::1:2",
	};
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	struct mcm_sockaddr_ib sib = { .sib_family = AF_IB };

	memset(addr, 0, RDMA_MCM_ADDR_SIZE);
	switch (rnd_below(r, is_src ? 4 : 3)) {
	case 0:
		inet_pton(AF_INET, v4[rnd_below(r, ARRAY_LEN(v4))],
			  &sin.sin_addr);
		sin.sin_port = one_in(r, 4) ? (uint16_t)rnd(r) : 0;
		if (one_in(r, 8))
			sin.sin_zero[rnd_below(r, 8)] = 1;
		memcpy(addr, &sin, sizeof(sin));
		return sizeof(sin);
	case 1:
		inet_pton(AF_INET6, v6[rnd_below(r, ARRAY_LEN(v6))],
			  &sin6.sin6_addr);
		if (one_in(r, 4))
			sin6.sin6_scope_id = rnd_below(r, 4);
		if (one_in(r, 8))
			sin6.sin6_flowinfo = (uint32_t)rnd(r);
		memcpy(addr, &sin6, sizeof(sin6));
		return sizeof(sin6);
	case 2:
		sib.sib_addr[0] = one_in(r, 2) ? 0xff : (uint8_t)rnd(r);
		sib.sib_addr[15] = (uint8_t)rnd(r);
		sib.sib_pkey = (uint16_t)rnd(r);
		memcpy(addr, &sib, sizeof(sib));
		return sizeof(sib);
	default:
		/* a source of the other bench device, or a group as source */
		return put_group(addr, AF_INET, rnd_below(r, NR_GROUPS));
	}
}

/* Mutate an address field and its length. */
static void mutate_addr(struct rng *r, uint8_t *addr, uint8_t *len_field,
			int family, int is_src)
{
	static const uint32_t lens[] = {
		0, 1, 2, 3, 15, 16, 27, 28, 47, 48, 127, 128, 129, 256, 4096,
		0x80000000, 0xffffffff,
	};
	static const int families[] = {
		AF_UNSPEC, AF_UNIX, AF_INET, AF_INET6, AF_IB, AF_PACKET,
		AF_NETLINK, 255, 0xffff,
	};
	uint32_t len;
	uint16_t fam;

	switch (rnd_below(r, 6)) {
	case 0:		/* the length */
		len = one_in(r, 4) ? (uint32_t)rnd(r) :
				     lens[rnd_below(r, ARRAY_LEN(lens))];
		memcpy(len_field, &len, sizeof(len));
		break;
	case 1:		/* a group of another family, of the right length */
		len = put_group(addr, families[rnd_below(r,
							 ARRAY_LEN(families))],
				rnd_below(r, NR_GROUPS));
		if (family == AF_INET && one_in(r, 2))
			len = put_group(addr, AF_INET6,
					rnd_below(r, NR_GROUPS));
		memcpy(len_field, &len, sizeof(len));
		break;
	case 2:		/* the family field alone */
		fam = one_in(r, 2) ? (uint16_t)rnd(r) :
			families[rnd_below(r, ARRAY_LEN(families))];
		memcpy(addr, &fam, sizeof(fam));
		break;
	case 3:		/* an address not in the pool */
		len = put_odd_addr(r, addr, is_src);
		memcpy(len_field, &len, sizeof(len));
		break;
	case 4:		/* a length one short of, or past, the family's */
		len = mutate_len(family) + rnd_below(r, 3) - 1;
		if (one_in(r, 2))
			len = mutate_len(family) + 1 +
			      rnd_below(r, RDMA_MCM_ADDR_SIZE -
					   mutate_len(family));
		memcpy(len_field, &len, sizeof(len));
		break;
	default:	/* garbage past the sockaddr, or in it */
		addr[rnd_below(r, RDMA_MCM_ADDR_SIZE)] = (uint8_t)rnd(r);
		break;
	}
}

/* ------------------------------------------------------------ mutations */

/* Mutate one entry of a batch; returns 0 when not applicable. */
static int mutate_entry(struct worker *w, struct call *c)
{
	const struct layout *l = c->op == C_BATCH_JOIN ? &join_entry_layout :
							 &leave_entry_layout;
	struct rng *r = &w->rng;
	uint8_t *e;
	uint32_t i, k;

	if (!c->nr_built)
		return 0;
	i = rnd_below(r, c->nr_built);
	e = c->arr + (size_t)i * c->entry_size;
	c->egroup[i] = -2;	/* unknown now */
	switch (rnd_below(r, 7)) {
	case 0:
		k = rnd_below(r, l->size);
		if (l->sources && k + 1 >= l->sources &&
		    k + 1 < l->sources + sizeof(uint64_t))
			return 0;	/* the sources pointer: see mutate() */
		e[k] ^= 1 << rnd_below(r, 8);
		break;
	case 1:
		put32(e, l->flags, interesting32(r));
		break;
	case 2:
		put32(e, l->reserved, 1 + rnd_below(r, 0xffff));
		break;
	case 3:
		put32(e, l->handle, interesting32(r));
		break;
	case 4:		/* the outputs: the kernel ignores them */
		put64(e, l->out_off + 1, rnd(r));
		break;
	case 5:		/* a newer binary's entry: its tail is not zero */
		if (c->entry_size <= l->size)
			return 0;
		e[l->size + rnd_below(r, c->entry_size - l->size)] = 1;
		break;
	default:
		mutate_addr(r, e + l->addr - 1, e + l->addr_len - 1,
			    c->ctx.family, 0);
		break;
	}
	return 1;
}

/* SET_EVENTS: unknown types, sizes below, around and far above 72. */
static void mutate_set_events(struct rng *r, uint8_t *a)
{
	static const uint32_t huge[] = {
		0x1000, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff,
	};
	const unsigned int m = OFF(rdma_mcm_set_events, event_mask);
	const unsigned int z = OFF(rdma_mcm_set_events, event_size);

	switch (rnd_below(r, 6)) {
	case 0:		/* a type no kernel knows (0, or 4 and up) */
		put64(a, m, get64(a, m) |
		      1ULL << (one_in(r, 4) ? 0 : 4 + rnd_below(r, 60)));
		break;
	case 1:		/* any mask at all */
		put64(a, m, one_in(r, 4) ? ~0ULL : rnd(r));
		break;
	case 2:		/* below the first version: EINVAL */
		put32(a, z, rnd_below(r, EV_SIZE));
		break;
	case 3:		/* 71, 72, 73 */
		put32(a, z, EV_SIZE - 1 + rnd_below(r, 3));
		break;
	case 4:
		put32(a, z, one_in(r, 2) ? huge[rnd_below(r, ARRAY_LEN(huge))] :
					   interesting32(r));
		break;
	default:	/* reserved: EINVAL */
		put32(a, OFF(rdma_mcm_set_events, reserved),
		      1U << rnd_below(r, 32));
		break;
	}
}

/* An entry size around the bounds: below the first version, past 4096. */
static uint32_t odd_entry_size(struct rng *r, uint32_t ver0)
{
	switch (rnd_below(r, 8)) {
	case 0:
		return rnd_below(r, ver0);		/* EINVAL */
	case 1:
		return ver0 - 1;
	case 2:
		return RDMA_MCM_MAX_ENTRY_SIZE + 1 + rnd_below(r, 8); /* E2BIG */
	case 3:
		return RDMA_MCM_MAX_ENTRY_SIZE;
	case 4:
		return ver0 + 1 + rnd_below(r, 7);
	case 5:
		return ver0 + rnd_below(r, 2 * RDMA_MCM_MAX_ENTRY_SIZE);
	default:
		return interesting32(r);
	}
}

/* Apply one mutation to @c; returns 0 when it does not apply. */
int mutate(struct worker *w, struct slot *s, struct call *c)
{
	const struct layout *l = &layouts[c->op];
	struct rng *r = &w->rng;
	uint8_t *a = w->abuf;
	unsigned int off, size = l->size;
	uint32_t v;
	int g;

	switch (pick_weighted(r, mut_weight, NR_MUTATIONS)) {
	case M_BITFLIP:
	case M_BYTE:
		off = rnd_below(r, size);
		/*
		 * never a user pointer: it must stay in our guard rooms (an
		 * array the kernel writes; sources, which it reads, and the
		 * model with it)
		 */
		if (l->entries && off + 1 >= l->entries &&
		    off + 1 < l->entries + sizeof(uint64_t))
			return 0;
		if (l->sources && off + 1 >= l->sources &&
		    off + 1 < l->sources + sizeof(uint64_t))
			return 0;
		if (one_in(r, 2))
			a[off] ^= 1 << rnd_below(r, 8);
		else
			a[off] = (uint8_t)rnd(r);
		return 1;
	case M_RESERVED:
		if (!l->reserved)
			return 0;
		put32(a, l->reserved, 1U << rnd_below(r, 32));
		return 1;
	case M_FLAGS:
		if (!l->flags)
			return 0;
		v = one_in(r, 2) ? interesting32(r) : get32(a, l->flags) ^ 1;
		put32(a, l->flags, v);
		return 1;
	case M_ADDR:
		if (!l->addr)
			return 0;
		mutate_addr(r, a + l->addr - 1, a + l->addr_len - 1,
			    c->ctx.family, c->op == C_CREATE_CTX);
		c->group = -2;
		return 1;
	case M_CTX:
		if (!l->ctx_id || c->op == C_CREATE_CTX)
			return 0;
		v = get32(a, l->ctx_id);
		switch (rnd_below(r, 5)) {
		case 0:
			v = 0;
			break;
		case 1:
			v = w->stale_ctx;
			break;
		case 2:
			v += 1;
			break;
		default:
			v = interesting32(r);
			break;
		}
		put32(a, l->ctx_id, v);
		return 1;
	case M_HANDLE:
		if (!l->handle || c->op == C_JOIN)
			return 0;
		if (one_in(r, 2))
			v = pick_handle(w, &w->slot[rnd_below(r, NR_SLOTS)],
					rnd_below(r, 8), &g);
		else
			v = one_in(r, 2) ? w->stale_handle : interesting32(r);
		put32(a, l->handle, v);
		c->group = -2;
		return 1;
	case M_COUNT:
		if (!l->count)
			return 0;
		switch (rnd_below(r, 6)) {
		case 0:
			v = rnd_below(r, 3);
			break;
		case 1:
			v = c->nr_built + 1 + rnd_below(r, 8);
			break;
		case 2:
			v = RDMA_MCM_MAX_BATCH - 1 + rnd_below(r, 3);
			break;
		case 3:
			v = c->nr_built * 2 + rnd_below(r, 1000);
			break;
		default:
			v = interesting32(r);
			break;
		}
		put32(a, l->count, v);
		return 1;
	case M_ENTRY_SIZE:
		if (!l->entry_size)
			return 0;
		put32(a, l->entry_size,
		      odd_entry_size(r, c->op == C_LIST ?
				     RDMA_MCM_MEMBER_SIZE_VER0 :
				     RDMA_MCM_JOIN_ENTRY_SIZE_VER0));
		return 1;
	case M_START:
		if (!l->start)
			return 0;
		v = one_in(r, 2) ? interesting32(r) :
				   pick_handle(w, s, c->ctx.id, &g) + 1;
		put32(a, l->start, v);
		return 1;
	case M_ENTRY:
		if (c->op != C_BATCH_JOIN && c->op != C_BATCH_LEAVE)
			return 0;
		return mutate_entry(w, c);
	case M_ARR_PTR:
		if (!l->entries)
			return 0;
		c->arr_where = W_UNALIGNED + rnd_below(r, 4);
		return 1;
	case M_ARG_PTR:
		c->arg_where = W_UNALIGNED + rnd_below(r, 4);
		return 1;
	case M_SIZE:
		if (one_in(r, 2) && l->ver0 > 0)	/* EINVAL */
			set_usize(w, c, rnd_below(r, l->ver0));
		else if (one_in(r, 2))
			set_usize(w, c, size + 1 + rnd_below(r, 64));
		else
			set_usize(w, c, size + 1 +
				  rnd_below(r, MAX_IOC_SIZE - size));
		c->ioc = _IOC(_IOC_DIR(c->ioc), RDMA_MCM_IOCTL_MAGIC,
			      _IOC_NR(c->ioc), c->usize);
		return 1;
	case M_TAIL:		/* E2BIG, when the kernel reads it */
		set_usize(w, c, size + 1 + rnd_below(r, 256));
		a[size + rnd_below(r, c->usize - size)] = 1 + rnd_below(r, 255);
		c->ioc = _IOC(_IOC_DIR(c->ioc), RDMA_MCM_IOCTL_MAGIC,
			      _IOC_NR(c->ioc), c->usize);
		return 1;
	case M_DIR:
		v = (_IOC_DIR(c->ioc) + 1 + rnd_below(r, 3)) & 3;
		c->ioc = _IOC(v, RDMA_MCM_IOCTL_MAGIC, _IOC_NR(c->ioc),
			      c->usize);
		return 1;
	case M_NR:
		c->ioc = _IOC(_IOC_DIR(c->ioc), RDMA_MCM_IOCTL_MAGIC,
			      NR_IOCTLS + rnd_below(r, 256 - NR_IOCTLS),
			      c->usize);
		return 1;
	case M_EVENTS:
		if (c->op != C_SET_EVENTS)
			return 0;
		mutate_set_events(r, a);
		return 1;
	default:
		c->ioc = _IOC(_IOC_DIR(c->ioc), other_type(r), _IOC_NR(c->ioc),
			      c->usize);
		return 1;
	}
}
