// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_fuzz: building an argument, and placing it.
 *
 * Every ioctl starts from a valid argument (a join of a group of a small
 * pool on a live context, a leave of a real handle, a list or a batch
 * into a real array with an entry size from the entry's first version up
 * to RDMA_MCM_MAX_ENTRY_SIZE, a SET_EVENTS of some of the known types,
 * ...; the source arrays of joins: mcm_fuzz_src_gen.c), which then gets
 * up to three random mutations (mcm_fuzz_mutate.c); a command number the
 * module does not know gets random bytes. The argument and its array are
 * passed from where the call wants them: aligned or not, ending at a
 * guard page, read-only, or at a bad pointer.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "mcm_fuzz.h"

/* ------------------------------------------------------------ random */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_init(struct rng *r, uint64_t s)
{
	r->s = splitmix64(&s);
	if (!r->s)
		r->s = 1;
}

/* xorshift64* */
uint64_t rnd(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

uint32_t rnd_below(struct rng *r, uint32_t n)
{
	return n ? (uint32_t)((rnd(r) >> 32) % n) : 0;
}

int one_in(struct rng *r, uint32_t n)
{
	return rnd_below(r, n) == 0;
}

int pick_weighted(struct rng *r, const unsigned char *w, int n)
{
	unsigned int sum = 0, x;
	int i;

	for (i = 0; i < n; i++)
		sum += w[i];
	x = rnd_below(r, sum);
	for (i = 0; i < n; i++) {
		if (x < w[i])
			return i;
		x -= w[i];
	}
	return n - 1;
}

/* A 32-bit value likely to sit on a boundary. */
uint32_t interesting32(struct rng *r)
{
	static const uint32_t v[] = {
		0, 1, 2, 3, 4, 7, 8, 15, 16, 0x7f, 0x80, 0xff, 0x100, 0x3fff,
		0x4000, 0x7fff, 0x8000, 0xffff, 0x10000, 0x10001, 0x7fffffff,
		0x80000000, 0xfffffffe, 0xffffffff,
	};

	if (one_in(r, 4))
		return (uint32_t)rnd(r);
	return v[rnd_below(r, ARRAY_LEN(v))];
}

/* ------------------------------------------------------------ addresses */

/* Group @i of the pool, of @family, into @addr; returns its length. */
uint32_t put_group(uint8_t *addr, int family, unsigned int i)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	struct mcm_sockaddr_ib sib = { .sib_family = AF_IB };

	i %= NR_GROUPS;
	memset(addr, 0, RDMA_MCM_ADDR_SIZE);
	switch (family) {
	case AF_INET:
		sin.sin_addr.s_addr = htonl(0xef4d0000 | i);
		memcpy(addr, &sin, sizeof(sin));
		return sizeof(sin);
	case AF_INET6:
		sin6.sin6_addr.s6_addr[0] = 0xff;
		sin6.sin6_addr.s6_addr[1] = 0x0e;
		sin6.sin6_addr.s6_addr[13] = 0x77;
		sin6.sin6_addr.s6_addr[15] = i;
		memcpy(addr, &sin6, sizeof(sin6));
		return sizeof(sin6);
	case AF_IB:
		sib.sib_addr[0] = 0xff;
		sib.sib_addr[1] = 0x12;
		sib.sib_addr[13] = 0x77;
		sib.sib_addr[15] = i;
		memcpy(addr, &sib, sizeof(sib));
		return sizeof(sib);
	default:
		memcpy(addr, &family, sizeof(uint16_t));
		return 16;
	}
}

/* ------------------------------------------------------------ builders */

static void build_join_entry(struct worker *w, struct call *c, uint8_t *e,
			     int i)
{
	struct rdma_mcm_join_entry je = { 0 };
	int g = rnd_below(&w->rng, NR_GROUPS);

	je.cookie = rnd(&w->rng);
	je.join_flags = rnd_below(&w->rng, 2);
	je.addr_len = put_group(je.addr, c->ctx.family, g);
	if (c->entry_size >= sizeof(je) && one_in(&w->rng, 3))
		build_sources(w, c, (uint8_t *)&je.sources, c->ctx.family,
			      &je.join_flags, 0);
	/* an entry of the first version's size has no sources fields */
	memcpy(e, &je, c->entry_size < sizeof(je) ? c->entry_size :
						    sizeof(je));
	c->egroup[i] = g;
}

static void build_leave_entry(struct worker *w, struct slot *s,
			      struct call *c, uint8_t *e, int i)
{
	struct rdma_mcm_leave_entry le = { 0 };
	int g;

	le.handle = pick_handle(w, s, c->ctx.id, &g);
	if (g < 0 || one_in(&w->rng, 4)) {
		g = rnd_below(&w->rng, NR_GROUPS);
		le.flags = RDMA_MCM_LEAVE_BY_ADDR;
		le.addr_len = put_group(le.addr, c->ctx.family, g);
	}
	memcpy(e, &le, sizeof(le));
	c->egroup[i] = g;
}

/* A valid entry size: the first version's mostly, up to the largest. */
static uint32_t pick_entry_size(struct rng *r, uint32_t ver0)
{
	switch (rnd_below(r, 10)) {
	case 0:
		return RDMA_MCM_MAX_ENTRY_SIZE;
	case 1:		/* not a multiple of 8 */
		return ver0 + 1 + rnd_below(r, 63);
	case 2:
		return ver0 + rnd_below(r, RDMA_MCM_MAX_ENTRY_SIZE - ver0 + 1);
	case 3:
	case 4:
		return ver0 + 8 * rnd_below(r, 16);
	default:
		return ver0;
	}
}

/* Entries of @size that fit the array room, however it is placed. */
static uint32_t room_for(uint32_t want, uint32_t size)
{
	uint32_t most = (ARR_ROOM - 8) / size;

	return want < most ? want : most;
}

/* The event types and size a file asks for: the known types, mostly. */
static void build_set_events(struct rng *r, uint8_t *a)
{
	static const uint32_t sizes[] = {
		EV_SIZE, EV_SIZE, EV_SIZE, EV_SIZE + 1, EV_SIZE + 8, 128, 4096,
	};
	uint64_t mask = 0;
	int t;

	if (one_in(r, 4)) {
		mask = RDMA_MCM_EVENTS_DEFAULT;
	} else {
		for (t = RDMA_MCM_EVENT_JOINED;
		     t <= RDMA_MCM_EVENT_DEVICE_REMOVED; t++)
			if (one_in(r, 2))
				mask |= RDMA_MCM_EVENT_BIT(t);
	}
	put64(a, OFF(rdma_mcm_set_events, event_mask), mask);
	put32(a, OFF(rdma_mcm_set_events, event_size),
	      sizes[rnd_below(r, ARRAY_LEN(sizes))]);
}

/* A valid argument for @c->op in the worker's @abuf (and array at @ge). */
void set_usize(struct worker *w, struct call *c, size_t usize)
{
	c->usize = usize;
	if (w->dirty < usize + 8)
		w->dirty = usize + 8;
}

void build(struct worker *w, struct slot *s, struct call *c)
{
	const struct layout *l = &layouts[c->op];
	struct rng *r = &w->rng;
	uint8_t *a = w->abuf;
	const struct src *src;
	uint32_t i, len, handle, flags;
	uint16_t port;
	uint8_t *e;

	c->ioc = cmd_num[c->op];
	set_usize(w, c, l->size);
	c->ctx = pick_ctx(w, s);
	c->group = -1;
	for (i = 0; i < (uint32_t)s->nr_ctx; i++)
		if (s->ctx[i].id == c->ctx.id && s->ctx[i].family ==
		    c->ctx.family)
			c->ctx_known = 1;
	w->gs_cur = w->gs;
	w->gs_lo = NULL;
	w->gs_hi = NULL;
	if (l->ctx_id)
		put32(a, l->ctx_id, c->ctx.id);

	switch (c->op) {
	case C_CREATE_CTX:
		src = &srcs[rnd_below(r, nr_srcs)];
		memcpy(a + l->addr - 1, &src->ss, src->len);
		/* any port: the kernel ignores it (sin_port, sin6_port) */
		port = one_in(r, 4) ? 0 : one_in(r, 2) ? rnd_below(r, 1024) :
						       (uint16_t)rnd(r);
		memcpy(a + l->addr - 1 + 2, &port, sizeof(port));
		put32(a, l->addr_len, src->len);
		put32(a, l->ctx_id, 0);
		c->ctx.family = src->ss.ss_family;
		break;
	case C_JOIN:
		c->group = rnd_below(r, NR_GROUPS);
		len = put_group(a + l->addr - 1, c->ctx.family, c->group);
		put32(a, l->addr_len, len);
		flags = rnd_below(r, 2);
		if (one_in(r, 3))
			build_sources(w, c, a + l->sources - 1, c->ctx.family,
				      &flags, 1);
		put32(a, l->flags, flags);
		put64(a, OFF(rdma_mcm_join, cookie), rnd(r));
		break;
	case C_LEAVE:
		handle = pick_handle(w, s, c->ctx.id, &c->group);
		put32(a, l->handle, handle);
		if (c->group < 0 || one_in(r, 4)) {
			c->group = rnd_below(r, NR_GROUPS);
			len = put_group(a + l->addr - 1, c->ctx.family,
					c->group);
			put32(a, l->addr_len, len);
			put32(a, l->flags, RDMA_MCM_LEAVE_BY_ADDR);
		} else {
			c->group = -1;
		}
		if (one_in(r, 2))	/* an output: the kernel ignores it */
			put32(a, OFF(rdma_mcm_leave, events_reported),
			      DONE_POISON);
		break;
	case C_QUERY:
		put32(a, l->handle, pick_handle(w, s, c->ctx.id, &c->group));
		break;
	case C_LIST:
		c->entry_size = pick_entry_size(r, RDMA_MCM_MEMBER_SIZE_VER0);
		c->nr_built = one_in(r, 16) ? 0 : 1 + rnd_below(r, MAX_LIST);
		c->nr_built = room_for(c->nr_built, c->entry_size);
		c->arr = w->ge;
		c->arr_len = (size_t)c->nr_built * c->entry_size;
		put32(a, l->count, c->nr_built);
		put32(a, l->entry_size, c->entry_size);
		if (one_in(r, 4))
			put32(a, l->start, pick_handle(w, s, c->ctx.id,
						       &c->group));
		if (one_in(r, 2))
			put32(a, OFF(rdma_mcm_list, next), DONE_POISON);
		break;
	case C_BATCH_JOIN:
	case C_BATCH_LEAVE:
		c->entry_size = pick_entry_size(r, c->op == C_BATCH_JOIN ?
						RDMA_MCM_JOIN_ENTRY_SIZE_VER0 :
						RDMA_MCM_LEAVE_ENTRY_SIZE_VER0);
		c->nr_built = room_for(1 + rnd_below(r, MAX_BATCH),
				       c->entry_size);
		c->arr = w->ge;
		c->arr_len = (size_t)c->nr_built * c->entry_size;
		for (i = 0; i < c->nr_built; i++) {
			e = w->ge + (size_t)i * c->entry_size;
			memset(e, 0, c->entry_size);
			if (c->op == C_BATCH_JOIN)
				build_join_entry(w, c, e, i);
			else
				build_leave_entry(w, s, c, e, i);
		}
		put32(a, l->count, c->nr_built);
		put32(a, l->entry_size, c->entry_size);
		/* an output only: a batch that fails early must set it to 0 */
		if (one_in(r, 2))
			put32(a, l->done, DONE_POISON);
		break;
	case C_SET_EVENTS:
		build_set_events(r, a);
		break;
	default:
		break;
	}
}

/* A pointer nothing may be read from or written to. */
uint64_t bad_ptr(struct rng *r)
{
	switch (rnd_below(r, 9)) {
	case 0:
		return 0;
	case 1:
		return (uintptr_t)none_page;
	case 2:
		return (uintptr_t)none_page + page_size - 1;
	case 3:
		return KERNEL_PTR;
	case 4:
		return 0xffffffff81000000ULL;
	case 5:
		return 0x8000000000000000ULL;	/* not canonical */
	case 6:
		return 0x10;
	case 7:
		return KERNEL_PTR - 8;	/* user, running into the kernel */
	default:
		return UINT64_MAX - 7;
	}
}

/* A type byte other than rdma_mcm's and those the VFS handles itself. */
unsigned int other_type(struct rng *r)
{
	unsigned int t;

	do {
		t = one_in(r, 2) ? RDMA_MCM_IOCTL_MAGIC + 1 -
				   2 * rnd_below(r, 2) : rnd_below(r, 256);
	} while (t == RDMA_MCM_IOCTL_MAGIC || t == 0 || t == 'T' ||
		 t == 'X' || t == 'f' || t == 0x94 || t == 0x15);
	return t;
}

/* The histogram's command for a command number. */
int classify(unsigned int ioc)
{
	int i;

	for (i = 0; i < NR_IOCTLS; i++)
		if ((ioc & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT)) ==
		    (cmd_num[i] & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT)))
			return i;
	return C_UNKNOWN;
}

/* A random command number the module does not know, on random bytes. */
void build_unknown(struct worker *w, struct call *c)
{
	struct rng *r = &w->rng;
	unsigned int dir, nr, type, size;
	size_t i;

	do {
		dir = rnd_below(r, 4);
		nr = one_in(r, 2) ? rnd_below(r, 16) : rnd_below(r, 256);
		type = one_in(r, 2) ? RDMA_MCM_IOCTL_MAGIC : other_type(r);
		size = one_in(r, 2) ? rnd_below(r, 256) :
				      rnd_below(r, MAX_IOC_SIZE + 1);
		c->ioc = _IOC(dir, type, nr, size);
	} while (classify(c->ioc) != C_UNKNOWN);
	set_usize(w, c, size);
	for (i = 0; i < 64 && i < size; i++)
		w->abuf[i] = one_in(r, 2) ? 0 : (uint8_t)rnd(r);
}

/* ------------------------------------------------------------ placement */

static void ro_writable(struct worker *w)
{
	if (w->ro_open)
		return;
	if (mprotect(w->ro, ARG_ROOM + ARR_ROOM, PROT_READ | PROT_WRITE))
		die("mprotect");
	w->ro_open = 1;
}

void ro_sealed(struct worker *w)
{
	if (!w->ro_open)
		return;
	if (mprotect(w->ro, ARG_ROOM + ARR_ROOM, PROT_READ))
		die("mprotect");
	w->ro_open = 0;
}

/* Move the array where the call wants it; sets the entries field. */
void place_array(struct worker *w, struct call *c)
{
	const struct layout *l = &layouts[c->op];
	struct rng *r = &w->rng;
	uint8_t *p = c->arr;
	size_t len = c->arr_len;

	if (!l->entries || classify(c->ioc) == C_UNKNOWN)
		return;
	switch (c->arr_where) {
	case W_UNALIGNED:
		p = w->ge + 1 + rnd_below(r, 7);
		memmove(p, c->arr, len);
		break;
	case W_GUARD:
		/* end at the guard page, or cut the last bytes off */
		c->arr_cut = len && one_in(r, 2) ? 1 + rnd_below(r, len) : 0;
		p = w->ge_end - len + c->arr_cut;
		memmove(p, c->arr, len - c->arr_cut);
		break;
	case W_RO:
		ro_writable(w);
		p = w->ro + ARG_ROOM;
		memcpy(p, c->arr, len);
		break;
	case W_BAD:
		put64(w->abuf, l->entries, bad_ptr(r));
		c->arr = NULL;
		return;
	default:
		break;
	}
	c->arr = p;
	put64(w->abuf, l->entries, (uintptr_t)p);
}

/* Pass the argument from where the call wants it. */
void place_arg(struct worker *w, struct call *c)
{
	struct rng *r = &w->rng;

	c->argp = w->abuf;
	switch (c->arg_where) {
	case W_UNALIGNED:
		c->argp = w->abuf + 1 + rnd_below(r, 7);
		memmove(c->argp, w->abuf, c->usize);	/* dirty covers it */
		break;
	case W_GUARD:
		c->arg_cut = c->usize && one_in(r, 2) ?
			     1 + rnd_below(r, c->usize) : 0;
		c->argp = w->ga_end - c->usize + c->arg_cut;
		memcpy(c->argp, w->abuf, c->usize - c->arg_cut);
		break;
	case W_RO:
		ro_writable(w);
		c->argp = w->ro;
		memcpy(c->argp, w->abuf, c->usize);
		break;
	case W_BAD:
		c->argp = (uint8_t *)(uintptr_t)bad_ptr(r);
		break;
	default:
		break;
	}
	ro_sealed(w);
}
