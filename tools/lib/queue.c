// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librdmamcm: the channel's queue of events read from the kernel and not
 * yet returned to the application.
 *
 * One FIFO of records in the order the kernel gave them, and one FIFO per
 * owner (membership or context) of its live records. Taking a
 * membership's event out of order (join_sync) or purging an owner (leave,
 * destroy_ctx) marks its records dead through the owner's FIFO, at a cost
 * that does not depend on how many events the channel holds; dead records
 * are freed when they reach the head of the channel's FIFO.
 */
#include <stdlib.h>
#include <string.h>

#include "rdma_mcm_priv.h"

/* Spare records kept for the next read() */
#define MCM_FREE_KEEP	256

static void free_list(struct mcm_rec *r)
{
	struct mcm_rec *next;

	for (; r; r = next) {
		next = r->next;
		free(r);
	}
}

void mcm_queue_free(struct mcm_queue *q)
{
	free_list(q->head);
	free_list(q->free);
	memset(q, 0, sizeof(*q));
}

/* Make sure @n records can be pushed. Returns 0 or -ENOMEM. */
int mcm_queue_reserve(struct mcm_queue *q, size_t n)
{
	struct mcm_rec *r;

	while (q->nfree < n) {
		r = malloc(sizeof(*r));
		if (!r)
			return -ENOMEM;
		r->next = q->free;
		q->free = r;
		q->nfree++;
	}
	return 0;
}

static void recycle(struct mcm_queue *q, struct mcm_rec *r)
{
	if (q->nfree >= MCM_FREE_KEEP) {
		free(r);
		return;
	}
	r->next = q->free;
	q->free = r;
	q->nfree++;
}

/*
 * Append an event of @size bytes, zero-extended to the library's struct
 * (or cut to it). The caller has reserved room. The record has no owner
 * until mcm_queue_own().
 */
struct mcm_rec *mcm_queue_push(struct mcm_queue *q, const void *ev,
			       size_t size)
{
	struct mcm_rec *r = q->free;

	q->free = r->next;
	q->nfree--;
	memset(r, 0, sizeof(*r));
	memcpy(&r->w, ev, size < sizeof(r->w) ? size : sizeof(r->w));
	if (q->tail)
		q->tail->next = r;
	else
		q->head = r;
	q->tail = r;
	q->live++;
	return r;
}

void mcm_queue_own(struct mcm_rec *r, struct mcm_member *m,
		   struct mcm_ctx *c)
{
	struct mcm_fifo *f = m ? &m->q : c ? &c->q : NULL;

	r->m = m;
	r->c = m ? NULL : c;
	if (!f)
		return;
	if (f->tail)
		f->tail->next_own = r;
	else
		f->head = r;
	f->tail = r;
	f->count++;
}

static struct mcm_fifo *owner_fifo(struct mcm_rec *r)
{
	if (r->m)
		return &r->m->q;
	return r->c ? &r->c->q : NULL;
}

/* Remove @r, its owner's oldest live record, from the owner's FIFO. */
static void fifo_shift(struct mcm_queue *q, struct mcm_rec *r)
{
	struct mcm_fifo *f = owner_fifo(r);
	struct mcm_rec *prev = NULL, *p;

	if (!f)
		return;
	/* always the head; the walk only guards against a broken FIFO */
	for (p = f->head; p && p != r; p = p->next_own) {
		prev = p;
		q->visits++;
	}
	if (!p)
		return;
	if (prev)
		prev->next_own = r->next_own;
	else
		f->head = r->next_own;
	if (f->tail == r)
		f->tail = prev;
	f->count--;
}

/* Free the dead records at the head of the channel's FIFO. */
static void trim(struct mcm_queue *q)
{
	struct mcm_rec *r;

	while ((r = q->head) && r->dead) {
		q->visits++;
		q->head = r->next;
		if (!q->head)
			q->tail = NULL;
		recycle(q, r);
	}
}

static int wanted(uint64_t types, uint32_t type)
{
	return type < 64 && (types >> type) & 1;
}

/*
 * The oldest event not claimed by a join_sync, into @ev; 1 if there was
 * one, else 0. Events of a type not in @types are dropped on the way.
 */
int mcm_queue_pop(struct mcm_queue *q, uint64_t types,
		  struct mcm_wire_event *ev)
{
	struct mcm_rec *r, *prev = NULL, *next;

	for (r = q->head; r; r = next) {
		next = r->next;
		q->visits++;
		if (!r->dead && r->m && r->m->claimed) {
			prev = r;
			continue;
		}
		if (prev)
			prev->next = next;
		else
			q->head = next;
		if (q->tail == r)
			q->tail = prev;
		if (r->dead) {
			recycle(q, r);
			continue;
		}
		fifo_shift(q, r);
		q->live--;
		if (!wanted(types, r->w.s.event)) {
			recycle(q, r);
			continue;
		}
		*ev = r->w;
		recycle(q, r);
		return 1;
	}
	return 0;
}

/* The oldest event of membership @m into @ev; 1 if it had one, else 0. */
int mcm_queue_take(struct mcm_queue *q, struct mcm_member *m,
		   struct mcm_wire_event *ev)
{
	struct mcm_rec *r = m->q.head;

	if (!r)
		return 0;
	q->visits++;
	m->q.head = r->next_own;
	if (!m->q.head)
		m->q.tail = NULL;
	m->q.count--;
	*ev = r->w;
	r->dead = 1;
	r->m = NULL;
	q->live--;
	trim(q);
	return 1;
}

/* Drop every event of an owner; returns how many there were. */
uint32_t mcm_queue_purge(struct mcm_queue *q, struct mcm_fifo *f)
{
	uint32_t n = f->count;
	struct mcm_rec *r;

	for (r = f->head; r; r = r->next_own) {
		q->visits++;
		r->dead = 1;
		r->m = NULL;
		r->c = NULL;
		q->live--;
	}
	memset(f, 0, sizeof(*f));
	trim(q);
	return n;
}
