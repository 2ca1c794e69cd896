// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librdmamcm: the channel's queue of events read from the kernel and not
 * yet returned to the application (a ring that grows; events are never
 * dropped except by a leave or a destroy of their context).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rdma_mcm_priv.h"

#define MCM_QUEUE_MIN	32

static struct rdma_mcm_event *slot(const struct mcm_queue *q, size_t i)
{
	return &q->ev[(q->head + i) % q->cap];
}

void mcm_queue_free(struct mcm_queue *q)
{
	free(q->ev);
	memset(q, 0, sizeof(*q));
}

/* Make room for @n more events. Returns 0 or -ENOMEM. */
int mcm_queue_reserve(struct mcm_queue *q, size_t n)
{
	struct rdma_mcm_event *ev;
	size_t cap = q->cap ? q->cap : MCM_QUEUE_MIN;
	size_t i;

	while (cap - q->len < n) {
		if (cap > SIZE_MAX / 2 / sizeof(*ev))
			return -ENOMEM;
		cap *= 2;
	}
	if (cap == q->cap)
		return 0;
	ev = calloc(cap, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	for (i = 0; i < q->len; i++)
		ev[i] = *slot(q, i);
	free(q->ev);
	q->ev = ev;
	q->cap = cap;
	q->head = 0;
	return 0;
}

/* Append; the caller has reserved room. */
void mcm_queue_push(struct mcm_queue *q, const struct rdma_mcm_event *ev)
{
	q->len++;
	*slot(q, q->len - 1) = *ev;
}

int mcm_queue_pop(struct mcm_queue *q, struct rdma_mcm_event *ev)
{
	if (!q->len)
		return 0;
	*ev = *slot(q, 0);
	q->head = (q->head + 1) % q->cap;
	q->len--;
	return 1;
}

static int match(const struct rdma_mcm_event *ev, uint32_t ctx_id,
		 uint32_t handle, int any_handle)
{
	return ev->ctx_id == ctx_id && (any_handle || ev->handle == handle);
}

/* Keep the events that do not match, in order; returns how many went. */
static size_t filter(struct mcm_queue *q, uint32_t ctx_id, uint32_t handle,
		     int any_handle, struct rdma_mcm_event *first,
		     size_t limit)
{
	size_t i, kept = 0, gone = 0;

	for (i = 0; i < q->len; i++) {
		struct rdma_mcm_event *ev = slot(q, i);

		if (gone < limit && match(ev, ctx_id, handle, any_handle)) {
			if (first && !gone)
				*first = *ev;
			gone++;
			continue;
		}
		if (kept != i)
			*slot(q, kept) = *ev;
		kept++;
	}
	q->len = kept;
	return gone;
}

/* Remove the oldest event of (@ctx_id, @handle) into @ev; 1 if found. */
int mcm_queue_take(struct mcm_queue *q, uint32_t ctx_id, uint32_t handle,
		   struct rdma_mcm_event *ev)
{
	return filter(q, ctx_id, handle, 0, ev, 1) == 1;
}

/* Drop every event of (@ctx_id, @handle), or of @ctx_id if @any_handle. */
size_t mcm_queue_drop(struct mcm_queue *q, uint32_t ctx_id, uint32_t handle,
		      int any_handle)
{
	return filter(q, ctx_id, handle, any_handle, NULL, SIZE_MAX);
}

size_t mcm_queue_count(const struct mcm_queue *q, uint32_t ctx_id,
		       uint32_t handle)
{
	size_t i, n = 0;

	for (i = 0; i < q->len; i++)
		n += match(slot(q, i), ctx_id, handle, 0);
	return n;
}
