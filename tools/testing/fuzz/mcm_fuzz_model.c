// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_fuzz: the worker's files and what it knows of each.
 *
 * A slot is one open file of a worker: its descriptor (which the racer
 * closes or replaces under the calls), the contexts and membership
 * handles the worker got from it (to build arguments that get past the
 * first checks), and what the file asked to read. The last is exact, so
 * every read() of the worker's own file is held to it:
 *  - a file that never asked reads JOINED and ERROR only, 72 bytes each;
 *  - SET_EVENTS answers with the types asked for that the kernel knows
 *    and the smaller of the size asked and the kernel's, and from then on
 *    read() returns whole records of that size, of those types only.
 * SET_EVENTS is made only by the file's worker, under the slot's lock, so
 * the racer cannot put another file under it; other workers' calls into
 * the file (read, poll and commands on borrowed contexts) never change
 * what it reads.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "mcm_fuzz.h"

/* ------------------------------------------------------------ slots */

int open_dev(int nonblock)
{
	return open(DEV_PATH, O_RDWR | O_CLOEXEC | (nonblock ? O_NONBLOCK : 0));
}

unsigned long load_ul(unsigned long *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

int load_int(int *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

void store_int(int *p, int v)
{
	__atomic_store_n(p, v, __ATOMIC_SEQ_CST);
}

static void bump_gen(struct slot *s)
{
	__atomic_add_fetch(&s->gen, 1, __ATOMIC_SEQ_CST);
}

/* Show the slot's contexts to the other workers. */
static void publish(struct slot *s)
{
	int i;

	for (i = 0; i < NR_CTX; i++) {
		__atomic_store_n(&s->pub_ctx[i],
				 i < s->nr_ctx ? s->ctx[i].id : 0,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&s->pub_family[i], s->ctx[i].family,
				 __ATOMIC_RELAXED);
	}
}

/* A view of another worker's slot @s: its contexts, no memberships. */
void borrow(struct slot *view, struct slot *s)
{
	uint32_t id;
	int i;

	view->nr_ctx = 0;
	view->nr_mem = 0;
	for (i = 0; i < NR_CTX; i++) {
		id = __atomic_load_n(&s->pub_ctx[i], __ATOMIC_RELAXED);
		if (!id)
			continue;
		view->ctx[view->nr_ctx].id = id;
		view->ctx[view->nr_ctx++].family =
			__atomic_load_n(&s->pub_family[i], __ATOMIC_RELAXED);
	}
}

/* A new file in the slot: nothing of it known, and it never asked. */
void forget_all(struct slot *s)
{
	s->nr_ctx = 0;
	s->nr_mem = 0;
	s->ev.mask = RDMA_MCM_EVENTS_DEFAULT;
	s->ev.size = RDMA_MCM_EVENT_SIZE_VER0;
	publish(s);
}

/* The worker closes (unless already closed) and reopens a slot. */
void reopen(struct worker *w, struct slot *s)
{
	int fd;

	pthread_mutex_lock(&s->lock);
	bump_gen(s);
	if (s->state != S_CLOSED)
		close(s->fd);
	store_int(&s->nonblock, !one_in(&w->rng, 4));
	fd = open_dev(s->nonblock);
	if (fd < 0) {
		fprintf(stderr, "mcm_fuzz: open %s again: %s\n", DEV_PATH,
			strerror(errno));
		store_int(&s->state, S_CLOSED);
	} else {
		store_int(&s->fd, fd);
		store_int(&s->state, S_DEV);
	}
	bump_gen(s);
	s->seen_gen = load_ul(&s->gen);
	pthread_mutex_unlock(&s->lock);
	forget_all(s);
}

/* The racer: close the slot's file, or put another file in its place. */
void race_slot(struct slot *s, struct rng *r)
{
	int fd;

	pthread_mutex_lock(&s->lock);
	if (s->state == S_CLOSED) {
		/* its number may be another slot's now: leave it */
		pthread_mutex_unlock(&s->lock);
		return;
	}
	bump_gen(s);
	switch (rnd_below(r, 3)) {
	case 0:
		close(s->fd);
		store_int(&s->state, S_CLOSED);
		break;
	case 1:
		fd = open_dev(s->nonblock);
		if (fd >= 0) {
			if (dup2(fd, s->fd) >= 0)
				store_int(&s->state, S_DEV);
			close(fd);
		}
		break;
	default:
		if (dup2(null_fd, s->fd) >= 0)
			store_int(&s->state, S_NULL);
		break;
	}
	bump_gen(s);
	pthread_mutex_unlock(&s->lock);
}

/* ------------------------------------------------------------ ids */

void add_ctx(struct worker *w, struct slot *s, uint32_t id, int family,
	     uint32_t *evicted)
{
	int i = s->nr_ctx;

	*evicted = 0;
	if (s->nr_ctx == NR_CTX) {
		i = rnd_below(&w->rng, NR_CTX);
		*evicted = s->ctx[i].id;
	} else {
		s->nr_ctx++;
	}
	s->ctx[i].id = id;
	s->ctx[i].family = family;
	publish(s);
}

void del_ctx(struct worker *w, struct slot *s, uint32_t id)
{
	int i;

	for (i = 0; i < s->nr_ctx; i++)
		if (s->ctx[i].id == id)
			s->ctx[i--] = s->ctx[--s->nr_ctx];
	for (i = 0; i < s->nr_mem; i++)
		if (s->mem[i].ctx_id == id)
			s->mem[i--] = s->mem[--s->nr_mem];
	w->stale_ctx = id;
	publish(s);
}

void add_member(struct worker *w, struct slot *s, uint32_t ctx_id,
		uint32_t handle, int group)
{
	int i = s->nr_mem;

	if (s->nr_mem == NR_MEMBERS)
		i = rnd_below(&w->rng, NR_MEMBERS);	/* forget one */
	else
		s->nr_mem++;
	s->mem[i].ctx_id = ctx_id;
	s->mem[i].handle = handle;
	s->mem[i].group = group;
}

/*
 * Forget a membership left by handle, or by group (@by_addr): @group is
 * its index in the pool, negative when not known.
 */
void del_member(struct worker *w, struct slot *s, uint32_t ctx_id,
		uint32_t handle, int by_addr, int group)
{
	int i;

	if (by_addr && group < 0)
		return;
	for (i = 0; i < s->nr_mem; i++) {
		if (s->mem[i].ctx_id != ctx_id)
			continue;
		if (by_addr ? s->mem[i].group == group :
			      s->mem[i].handle == handle) {
			w->stale_handle = s->mem[i].handle;
			s->mem[i] = s->mem[--s->nr_mem];
			return;
		}
	}
}

/* A context: mostly a live one of the slot, sometimes not. */
struct ctx pick_ctx(struct worker *w, struct slot *s)
{
	struct rng *r = &w->rng;
	struct ctx c = { .id = 1 + rnd_below(r, 4), .family = AF_INET };
	struct slot *o;
	unsigned int x = rnd_below(r, 100);

	if (s->nr_ctx && x < 90)
		return s->ctx[rnd_below(r, s->nr_ctx)];
	if (x < 94) {
		c.id = w->stale_ctx;
	} else if (x < 97) {
		o = &w->slot[rnd_below(r, NR_SLOTS)];
		if (o->nr_ctx)
			c = o->ctx[rnd_below(r, o->nr_ctx)];
	} else if (x < 99) {
		c.id = (uint32_t)rnd(r);
	}
	return c;
}

/* A membership handle of @ctx_id: mostly a live one, sometimes not. */
uint32_t pick_handle(struct worker *w, struct slot *s, uint32_t ctx_id,
		     int *group)
{
	struct rng *r = &w->rng;
	int i, n = 0, which;

	*group = -1;
	for (i = 0; i < s->nr_mem; i++)
		n += s->mem[i].ctx_id == ctx_id;
	if (n && !one_in(r, 12)) {
		which = rnd_below(r, n);
		for (i = 0; i < s->nr_mem; i++) {
			if (s->mem[i].ctx_id != ctx_id)
				continue;
			if (!which--) {
				*group = s->mem[i].group;
				return s->mem[i].handle;
			}
		}
	}
	switch (rnd_below(r, 4)) {
	case 0:
		return w->stale_handle;
	case 1:
		return s->nr_mem ? s->mem[rnd_below(r, s->nr_mem)].handle : 1;
	case 2:
		return 1 + rnd_below(r, 64);
	default:
		return one_in(r, 2) ? (uint32_t)rnd(r) : UINT32_MAX;
	}
}

/* ------------------------------------------------------------ events */

/*
 * SET_EVENTS was made on the slot's own file, under its lock: what the
 * file reads from now on is what it asked for, as the ABI says: the known
 * types of its mask, in the smaller of its size and the kernel's. (The
 * call's checks, in mcm_fuzz_check.c, hold the kernel's answer to the
 * same.) When it failed with EFAULT on a read-only argument it may have
 * taken effect or not (the kernel may apply it before it finds it cannot
 * write the answer back, or check that first): the file may read the
 * types of either mask, and records of either size (not checked when the
 * two differ). Any other failure changed nothing.
 */
void model_set_events(struct slot *s, const struct call *c, int err)
{
	uint64_t mask;
	uint32_t size;

	if (err && (err != EFAULT || c->arg_where != W_RO))
		return;
	if (!saved64(c, AT(rdma_mcm_set_events, event_mask), &mask) ||
	    !saved32(c, AT(rdma_mcm_set_events, event_size), &size) ||
	    size < RDMA_MCM_EVENT_SIZE_VER0)
		return;
	mask &= EVENTS_KNOWN;
	size = size < EV_SIZE ? size : EV_SIZE;
	if (!err) {
		s->ev.mask = mask;
		s->ev.size = size;
		return;
	}
	s->ev.mask |= mask;
	if (s->ev.size != size)
		s->ev.size = 0;
}

/* One record of a read() on a file that asked for @ev. */
static void check_record(struct worker *w, const struct evmodel *ev,
			 const struct rdma_mcm_event *e, size_t at)
{
	static const char * const what[] = {
		[RDMA_MCM_EVENT_JOINED] = "JOINED",
		[RDMA_MCM_EVENT_ERROR] = "ERROR",
		[RDMA_MCM_EVENT_DEVICE_REMOVED] = "DEVICE_REMOVED",
		[RDMA_MCM_EVENT_REJOINING] = "REJOINING",
		[RDMA_MCM_EVENT_REJOINED] = "REJOINED",
		[RDMA_MCM_EVENT_DEVICE_ADDED] = "DEVICE_ADDED",
	};

	w->st->records++;
	if (e->event >= sizeof(what) / sizeof(what[0]) || !what[e->event] ||
	    !(ev->mask & RDMA_MCM_EVENT_BIT(e->event)) ||
	    !(EVENTS_KNOWN & RDMA_MCM_EVENT_BIT(e->event))) {
		violated(w, "read: record at %zu of type %u, mask 0x%llx",
			 at, e->event, (unsigned long long)ev->mask);
		return;
	}
	if (!e->ctx_id || e->reserved)
		violated(w, "read: %s record with ctx_id %u, reserved %u",
			 what[e->event], e->ctx_id, e->reserved);
	switch (e->event) {
	case RDMA_MCM_EVENT_JOINED:
	case RDMA_MCM_EVENT_REJOINED:
		if (!e->handle || e->status || e->is_global != 1)
			violated(w, "read: %s record: handle %u status %d is_global %u",
				 what[e->event], e->handle, e->status,
				 e->is_global);
		break;
	case RDMA_MCM_EVENT_ERROR:
	case RDMA_MCM_EVENT_REJOINING:
		if (!e->handle || (!status_documented(e->status) &&
				   e->status != -EADDRNOTAVAIL &&
				   e->status != -ENETDOWN &&
				   e->status != -ENETUNREACH))
			violated(w, "read: %s record: handle %u status %d",
				 what[e->event], e->handle, e->status);
		break;
	case RDMA_MCM_EVENT_DEVICE_ADDED:
		if (e->handle || e->cookie || e->status)
			violated(w, "read: DEVICE_ADDED record: handle %u cookie %llu status %d",
				 e->handle, (unsigned long long)e->cookie,
				 e->status);
		break;
	default:
		if (e->handle || e->cookie || e->status != -ENODEV)
			violated(w, "read: DEVICE_REMOVED record: handle %u cookie %llu status %d",
				 e->handle, (unsigned long long)e->cookie,
				 e->status);
		break;
	}
}

/*
 * A read() of @len bytes into @buf on the slot's own file, which the
 * racer did not touch meanwhile: it returned @ret (@err).
 */
void model_read(struct worker *w, struct slot *s, const uint8_t *buf,
		size_t len, ssize_t ret, int err)
{
	const struct evmodel *ev = &s->ev;
	struct rdma_mcm_event e;
	size_t at;

	if (!ev->size)		/* one of two sizes: not known */
		return;
	w->st->reads_checked++;
	if (ret < 0) {
		if (len < ev->size && err != EINVAL && err != EFAULT)
			violated(w, "read of %zu bytes, records of %u: %s, not EINVAL",
				 len, ev->size, strerrorname_np(err));
		if (len >= ev->size && err == EINVAL)
			violated(w, "read of %zu bytes, records of %u: EINVAL",
				 len, ev->size);
		return;
	}
	if (!ret || (size_t)ret > len || ret % ev->size) {
		violated(w, "read: %zu bytes returned %zd: not whole %u-byte records",
			 len, ret, ev->size);
		return;
	}
	for (at = 0; at < (size_t)ret; at += ev->size) {
		memcpy(&e, buf + at, sizeof(e));
		check_record(w, ev, &e, at);
	}
}
