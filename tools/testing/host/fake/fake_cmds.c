// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The fake /dev/rdma_mcm: the commands over arrays (LIST and the
 * batches, with the kernel's entry_size rules) and SET_EVENTS. See
 * fake_dev.h.
 */
#include <errno.h>
#include <string.h>

#include "fake_dev.h"

/* The member of @ctx_id with the smallest handle >= @start */
static struct fake_member *next_member(uint32_t ctx_id, uint32_t start)
{
	struct fake_member *best = NULL;
	int i;

	for (i = 0; i < FAKE_MAX_MEMBERS; i++) {
		struct fake_member *fm = &fake.mem[i];

		if (!fm->used || fm->ctx_id != ctx_id || fm->m.handle < start)
			continue;
		if (!best || fm->m.handle < best->m.handle)
			best = fm;
	}
	return best;
}

/* entry_size of LIST and BATCH: 0, -EINVAL or -E2BIG, as the kernel */
static int check_entry_size(uint32_t size, uint32_t ver0)
{
	if (size < ver0)
		return -EINVAL;
	return size > RDMA_MCM_MAX_ENTRY_SIZE ? -E2BIG : 0;
}

int fake_do_list(struct rdma_mcm_list *l)
{
	uint8_t *out = (void *)(uintptr_t)l->entries;
	size_t ksize = fake_member_size();
	size_t n_copy = l->entry_size < ksize ? l->entry_size : ksize;
	struct fake_member *fm;
	uint32_t n = 0, start = l->start;
	int ret;

	fake.entry_size[_IOC_NR(RDMA_MCM_IOC_LIST)] = l->entry_size;
	if (l->reserved)
		return -EINVAL;
	ret = check_entry_size(l->entry_size, RDMA_MCM_MEMBER_SIZE_VER0);
	if (ret)
		return ret;
	if (!fake_find_ctx(l->ctx_id))
		return -ENOENT;
	while (n < l->count && (fm = next_member(l->ctx_id, start))) {
		/* the caller's entry: the kernel's bytes, then zeros */
		uint8_t *e = out + (size_t)n * l->entry_size;

		memset(e, 0, l->entry_size);
		memcpy(e, &fm->m, n_copy < sizeof(fm->m) ? n_copy : sizeof(fm->m));
		if (n_copy > sizeof(fm->m))
			memcpy(e + sizeof(fm->m), fm->tail, n_copy - sizeof(fm->m));
		n++;
		start = fm->m.handle + 1;
	}
	fm = next_member(l->ctx_id, start);
	l->next = fm ? fm->m.handle : 0;
	l->count = n;
	return 0;
}

/*
 * One entry of a batch as the kernel reads it: its first @ver0.. bytes,
 * zero-extended; a longer entry's unknown tail must be zero (-E2BIG).
 */
static int read_entry(void *dst, size_t ksize, const uint8_t *src,
		      size_t usize)
{
	size_t i;

	memset(dst, 0, ksize);
	memcpy(dst, src, usize < ksize ? usize : ksize);
	for (i = ksize; i < usize; i++)
		if (src[i])
			return -E2BIG;
	return 0;
}

static int check_batch(struct rdma_mcm_batch *b, unsigned long nr,
		       uint32_t ver0)
{
	int ret;

	fake.entry_size[nr] = b->entry_size;
	if (b->count > RDMA_MCM_MAX_BATCH || b->done)
		return -EINVAL;
	ret = check_entry_size(b->entry_size, ver0);
	if (ret)
		return ret;
	return fake_find_ctx(b->ctx_id) ? 0 : -ENOENT;
}

/*
 * Only the outputs of an entry are written: result and handle. The module
 * before sources knows the entry's first version only: its sources are
 * a non-zero tail (-E2BIG).
 */
int fake_do_batch_join(struct rdma_mcm_batch *b)
{
	uint8_t *arr = (void *)(uintptr_t)b->entries;
	struct rdma_mcm_join_entry e, *out;
	struct fake_join_req r;
	uint32_t i;
	int ret;

	ret = check_batch(b, _IOC_NR(RDMA_MCM_IOC_BATCH_JOIN),
			  RDMA_MCM_JOIN_ENTRY_SIZE_VER0);
	if (ret)
		return ret;
	for (i = 0; i < b->count; i++) {
		out = (void *)(arr + (size_t)i * b->entry_size);
		memset(&e, 0, sizeof(e));
		e.result = read_entry(&e, fake_join_size(), (uint8_t *)out,
				      b->entry_size);
		r = (struct fake_join_req){
			.ctx_id = b->ctx_id, .cookie = e.cookie,
			.flags = e.join_flags, .addr_len = e.addr_len,
			.addr = e.addr, .sources = e.sources,
			.nr_sources = e.nr_sources,
			.source_size = e.source_size,
		};
		if (!e.result)
			e.result = fake_join_one(&r, &e.handle);
		out->handle = e.result ? 0 : e.handle;
		out->result = e.result;
	}
	b->done = b->count;
	return 0;
}

/* Only the outputs of an entry are written: result and events_reported */
int fake_do_batch_leave(struct rdma_mcm_batch *b)
{
	uint8_t *arr = (void *)(uintptr_t)b->entries;
	struct rdma_mcm_leave_entry e, *out;
	uint32_t i;
	int ret;

	ret = check_batch(b, _IOC_NR(RDMA_MCM_IOC_BATCH_LEAVE),
			  RDMA_MCM_LEAVE_ENTRY_SIZE_VER0);
	if (ret)
		return ret;
	for (i = 0; i < b->count; i++) {
		out = (void *)(arr + (size_t)i * b->entry_size);
		e.events_reported = 0;
		e.result = read_entry(&e, sizeof(e), (uint8_t *)out,
				      b->entry_size);
		if (!e.result && e.reserved)
			e.result = -EINVAL;
		if (!e.result)
			e.result = fake_leave_one(b->ctx_id, e.flags,
						  e.handle, e.addr_len,
						  e.addr,
						  &e.events_reported);
		out->events_reported = e.result ? 0 : e.events_reported;
		out->result = e.result;
	}
	b->done = b->count;
	return 0;
}

int fake_do_set_events(struct rdma_mcm_set_events *se)
{
	const uint64_t heal = RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_REJOINING) |
			      RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_REJOINED) |
			      RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_DEVICE_ADDED);
	const uint64_t known = RDMA_MCM_EVENTS_DEFAULT |
			       RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_DEVICE_REMOVED) |
			       (fake.no_heal ? 0 : heal);

	fake.nr_set_events++;
	if (se->reserved || se->event_size < RDMA_MCM_EVENT_SIZE_VER0)
		return -EINVAL;
	fake.ev_mask = se->event_mask & known;
	if (se->event_size > fake_event_size())
		se->event_size = (uint32_t)fake_event_size();
	fake.ev_size = se->event_size;
	se->event_mask = fake.ev_mask;
	return 0;
}

