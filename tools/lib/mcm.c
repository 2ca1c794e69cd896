// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librdmamcm: contexts, joins, leaves, query and list, one at a time and
 * in batches. Each wraps one ioctl and keeps the channel's membership
 * table and event queue in step with the kernel.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "rdma_mcm_priv.h"

/* Return -1 with errno = -@ret when @ret is negative, else @ret. */
static int result(int ret)
{
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return ret;
}

MCM_EXPORT int rdma_mcm_create_ctx(struct rdma_mcm_channel *ch,
				   const struct sockaddr *src,
				   uint32_t *ctx_id)
{
	struct rdma_mcm_create_ctx c;
	int ret;

	if (!ch || !src || !ctx_id)
		return result(-EINVAL);
	memset(&c, 0, sizeof(c));
	ret = mcm_addr_copy(src, c.src, &c.src_len);
	if (!ret)
		ret = mcm_ioctl(ch, RDMA_MCM_IOC_CREATE_CTX, &c);
	if (!ret)
		*ctx_id = c.ctx_id;
	return result(ret);
}

MCM_EXPORT int rdma_mcm_destroy_ctx(struct rdma_mcm_channel *ch,
				    uint32_t ctx_id)
{
	struct rdma_mcm_destroy_ctx d = { .ctx_id = ctx_id };
	int ret;

	if (!ch)
		return result(-EINVAL);
	ret = mcm_ioctl(ch, RDMA_MCM_IOC_DESTROY_CTX, &d);
	if (!ret) {
		mcm_table_del_ctx(&ch->members, ctx_id);
		mcm_queue_drop(&ch->queue, ctx_id, 0, 1);
	}
	return result(ret);
}

/* Leave by handle without touching errno or the table; for unwinding. */
static void unjoin(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		   uint32_t handle)
{
	struct rdma_mcm_leave l = { .ctx_id = ctx_id, .handle = handle };
	int saved = errno;

	mcm_ioctl(ch, RDMA_MCM_IOC_LEAVE, &l);
	mcm_queue_drop(&ch->queue, ctx_id, handle, 0);
	errno = saved;
}

MCM_EXPORT int rdma_mcm_join(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			     const struct sockaddr *group, int join_flags,
			     uint64_t cookie, uint32_t *handle)
{
	struct rdma_mcm_join j;
	int ret;

	if (!ch || !group || join_flags < 0)
		return result(-EINVAL);
	memset(&j, 0, sizeof(j));
	j.cookie = cookie;
	j.ctx_id = ctx_id;
	j.join_flags = (uint32_t)join_flags;
	ret = mcm_addr_copy(group, j.addr, &j.addr_len);
	if (!ret)
		ret = mcm_ioctl(ch, RDMA_MCM_IOC_JOIN, &j);
	if (ret)
		return result(ret);
	ret = mcm_table_add(&ch->members, ctx_id, j.handle, j.join_flags,
			    group);
	if (ret) {
		unjoin(ch, ctx_id, j.handle);
		return result(ret);
	}
	if (handle)
		*handle = j.handle;
	return 0;
}

/*
 * The kernel left a membership (or says there is none): forget it and
 * drop its queued events. Returns how many were dropped.
 */
static uint32_t forget(struct rdma_mcm_channel *ch, struct mcm_member *m)
{
	size_t n;

	if (!m)
		return 0;
	n = mcm_queue_drop(&ch->queue, m->ctx_id, m->handle, 0);
	mcm_table_del(&ch->members, m);
	return (uint32_t)n;
}

/* events_reported as the application saw it: less what the library dropped */
static uint32_t seen(uint32_t reported, uint32_t dropped)
{
	return reported > dropped ? reported - dropped : 0;
}

static struct mcm_member *lookup(struct rdma_mcm_channel *ch,
				 uint32_t ctx_id, uint32_t handle,
				 const struct sockaddr *group)
{
	if (group)
		return mcm_table_find_addr(&ch->members, ctx_id, group);
	return mcm_table_find(&ch->members, ctx_id, handle);
}

static int fill_leave(struct rdma_mcm_leave *l, uint32_t ctx_id,
		      uint32_t handle, const struct sockaddr *group)
{
	memset(l, 0, sizeof(*l));
	l->ctx_id = ctx_id;
	l->handle = handle;
	if (!group)
		return 0;
	l->flags = RDMA_MCM_LEAVE_BY_ADDR;
	return mcm_addr_copy(group, l->addr, &l->addr_len);
}

MCM_EXPORT int rdma_mcm_leave_ex(struct rdma_mcm_channel *ch,
				 uint32_t ctx_id, uint32_t handle,
				 const struct sockaddr *group,
				 uint32_t *events_reported)
{
	struct rdma_mcm_leave l;
	struct mcm_member *m;
	uint32_t dropped;
	int ret;

	if (!ch || (group && handle))
		return result(-EINVAL);
	ret = fill_leave(&l, ctx_id, handle, group);
	if (ret)
		return result(ret);
	ret = mcm_ioctl(ch, RDMA_MCM_IOC_LEAVE, &l);
	m = lookup(ch, ctx_id, handle, group);
	if (ret && ret != -EADDRNOTAVAIL)
		return result(ret);
	dropped = forget(ch, m);
	if (ret)
		return result(ret);
	if (events_reported)
		*events_reported = seen(l.events_reported, dropped);
	return 0;
}

MCM_EXPORT int rdma_mcm_leave(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			      uint32_t handle)
{
	return rdma_mcm_leave_ex(ch, ctx_id, handle, NULL, NULL);
}

MCM_EXPORT int rdma_mcm_leave_addr(struct rdma_mcm_channel *ch,
				   uint32_t ctx_id,
				   const struct sockaddr *group)
{
	if (!group) {
		errno = EINVAL;
		return -1;
	}
	return rdma_mcm_leave_ex(ch, ctx_id, 0, group, NULL);
}

/* The membership's events the library holds do not count as reported. */
static void fix_member(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		       struct rdma_mcm_member *mb)
{
	size_t q = mcm_queue_count(&ch->queue, ctx_id, mb->handle);

	mb->events_reported = seen(mb->events_reported, (uint32_t)q);
}

MCM_EXPORT int rdma_mcm_query(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			      uint32_t handle, struct rdma_mcm_member *out)
{
	struct rdma_mcm_query q;
	int ret;

	if (!ch || !out)
		return result(-EINVAL);
	memset(&q, 0, sizeof(q));
	q.ctx_id = ctx_id;
	q.handle = handle;
	ret = mcm_ioctl(ch, RDMA_MCM_IOC_QUERY, &q);
	if (ret)
		return result(ret);
	fix_member(ch, ctx_id, &q.member);
	*out = q.member;
	return 0;
}

MCM_EXPORT int rdma_mcm_list(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			     uint32_t start, struct rdma_mcm_member *out,
			     unsigned int max, uint32_t *next)
{
	struct rdma_mcm_list l;
	uint32_t i;
	int ret;

	if (!ch || (!out && max))
		return result(-EINVAL);
	memset(&l, 0, sizeof(l));
	l.entries = (uintptr_t)out;
	l.ctx_id = ctx_id;
	l.start = start;
	l.count = max > INT_MAX ? INT_MAX : max;
	l.entry_size = sizeof(*out);
	ret = mcm_ioctl(ch, RDMA_MCM_IOC_LIST, &l);
	if (ret)
		return result(ret);
	if (l.count > max)
		return result(-EPROTO);
	for (i = 0; i < l.count; i++)
		fix_member(ch, ctx_id, &out[i]);
	if (next)
		*next = l.next;
	return (int)l.count;
}

/* addr_len 0 in a batch entry: take it from the address family */
static void entry_addr_len(const uint8_t *addr, uint32_t *addr_len)
{
	struct sockaddr_storage ss;

	if (*addr_len)
		return;
	memcpy(&ss, addr, sizeof(ss) < RDMA_MCM_ADDR_SIZE ?
	       sizeof(ss) : RDMA_MCM_ADDR_SIZE);
	*addr_len = (uint32_t)mcm_addr_len((struct sockaddr *)&ss);
}

static const struct sockaddr *entry_sa(const uint8_t *addr,
				       struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	memcpy(ss, addr, sizeof(*ss) < RDMA_MCM_ADDR_SIZE ?
	       sizeof(*ss) : RDMA_MCM_ADDR_SIZE);
	return (const struct sockaddr *)ss;
}

/* Run one batch ioctl of @n entries; returns entries done or -errno. */
static int batch(struct rdma_mcm_channel *ch, unsigned long req,
		 uint32_t ctx_id, void *entries, uint32_t n, size_t size)
{
	struct rdma_mcm_batch b;
	int ret;

	memset(&b, 0, sizeof(b));
	b.entries = (uintptr_t)entries;
	b.ctx_id = ctx_id;
	b.count = n;
	b.entry_size = (uint32_t)size;
	ret = mcm_ioctl(ch, req, &b);
	if (b.done > n)
		return -EPROTO;
	if (ret && !b.done)
		return ret;
	return (int)b.done;
}

static void joined_entry(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			 struct rdma_mcm_join_entry *e)
{
	struct sockaddr_storage ss;
	int ret;

	if (e->result)
		return;
	ret = mcm_table_add(&ch->members, ctx_id, e->handle, e->join_flags,
			    entry_sa(e->addr, &ss));
	if (ret) {
		unjoin(ch, ctx_id, e->handle);
		e->result = ret;
		e->handle = 0;
	}
}

MCM_EXPORT int rdma_mcm_join_batch(struct rdma_mcm_channel *ch,
				   uint32_t ctx_id,
				   struct rdma_mcm_join_entry *entries,
				   unsigned int n)
{
	unsigned int done = 0, i, chunk;
	int ret;

	if (!ch || (!entries && n) || n > INT_MAX)
		return result(-EINVAL);
	for (i = 0; i < n; i++)
		entry_addr_len(entries[i].addr, &entries[i].addr_len);
	while (done < n) {
		chunk = n - done > MCM_MAX_BATCH ? MCM_MAX_BATCH : n - done;
		ret = batch(ch, RDMA_MCM_IOC_BATCH_JOIN, ctx_id,
			    entries + done, chunk, sizeof(*entries));
		if (ret < 0)
			return done ? (int)done : result(ret);
		for (i = done; i < done + (unsigned int)ret; i++)
			joined_entry(ch, ctx_id, &entries[i]);
		done += (unsigned int)ret;
		if ((unsigned int)ret < chunk)
			break;
	}
	return (int)done;
}

static void left_entry(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		       struct rdma_mcm_leave_entry *e)
{
	const struct sockaddr *group = NULL;
	struct sockaddr_storage ss;
	struct mcm_member *m;
	uint32_t dropped;

	if (e->result && e->result != -EADDRNOTAVAIL)
		return;
	if (e->flags & RDMA_MCM_LEAVE_BY_ADDR)
		group = entry_sa(e->addr, &ss);
	m = lookup(ch, ctx_id, e->handle, group);
	dropped = forget(ch, m);
	if (!e->result)
		e->events_reported = seen(e->events_reported, dropped);
}

MCM_EXPORT int rdma_mcm_leave_batch(struct rdma_mcm_channel *ch,
				    uint32_t ctx_id,
				    struct rdma_mcm_leave_entry *entries,
				    unsigned int n)
{
	unsigned int done = 0, i, chunk;
	int ret;

	if (!ch || (!entries && n) || n > INT_MAX)
		return result(-EINVAL);
	for (i = 0; i < n; i++)
		if (entries[i].flags & RDMA_MCM_LEAVE_BY_ADDR)
			entry_addr_len(entries[i].addr, &entries[i].addr_len);
	while (done < n) {
		chunk = n - done > MCM_MAX_BATCH ? MCM_MAX_BATCH : n - done;
		ret = batch(ch, RDMA_MCM_IOC_BATCH_LEAVE, ctx_id,
			    entries + done, chunk, sizeof(*entries));
		if (ret < 0)
			return done ? (int)done : result(ret);
		for (i = done; i < done + (unsigned int)ret; i++)
			left_entry(ch, ctx_id, &entries[i]);
		done += (unsigned int)ret;
		if ((unsigned int)ret < chunk)
			break;
	}
	return (int)done;
}
