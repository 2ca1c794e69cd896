// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librdmamcm: contexts, joins, leaves, query and list. Each wraps one
 * ioctl and keeps the channel's membership table and event queue in step
 * with the kernel, under the channel's lock. Batches are in batch.c.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "rdma_mcm_priv.h"

/*
 * LIBRDMAMCM_1.0 hands these structs to the application at these sizes.
 * When the uapi header grows one, its functions keep the old size, and a
 * new symbol version takes the new one: librdmamcm(7), "ABI growth".
 */
_Static_assert(sizeof(struct rdma_mcm_event) == MCM_API_EVENT_SIZE,
	       "struct rdma_mcm_event grew: see librdmamcm(7), ABI growth");
_Static_assert(sizeof(struct rdma_mcm_member) == MCM_API_MEMBER_SIZE,
	       "struct rdma_mcm_member grew: see librdmamcm(7), ABI growth");
_Static_assert(sizeof(struct rdma_mcm_join_entry) == MCM_API_JOIN_ENTRY_SIZE,
	       "struct rdma_mcm_join_entry grew: see librdmamcm(7)");
_Static_assert(sizeof(struct rdma_mcm_leave_entry) ==
	       MCM_API_LEAVE_ENTRY_SIZE,
	       "struct rdma_mcm_leave_entry grew: see librdmamcm(7)");

MCM_WIRE(struct rdma_mcm_create_ctx, w_create_ctx);
MCM_WIRE(struct rdma_mcm_destroy_ctx, w_destroy_ctx);
MCM_WIRE(struct rdma_mcm_join, w_join);
MCM_WIRE(struct rdma_mcm_leave, w_leave);
MCM_WIRE(struct rdma_mcm_query, w_query);
MCM_WIRE(struct rdma_mcm_list, w_list);

static int destroy_ctx_ioctl(struct rdma_mcm_channel *ch, uint32_t ctx_id)
{
	struct w_destroy_ctx d;

	memset(&d, 0, sizeof(d));
	d.s.ctx_id = ctx_id;
	return mcm_ioctl(ch, RDMA_MCM_IOC_DESTROY_CTX, &d, sizeof(d));
}

static int create_ctx(struct rdma_mcm_channel *ch, const struct sockaddr *src,
		      uint32_t *ctx_id)
{
	struct w_create_ctx c;
	struct mcm_ctx *ctx;
	int ret;

	memset(&c, 0, sizeof(c));
	ret = mcm_addr_copy(src, c.s.src, &c.s.src_len);
	if (ret)
		return ret;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	ret = mcm_ioctl(ch, RDMA_MCM_IOC_CREATE_CTX, &c, sizeof(c));
	if (ret) {
		free(ctx);
		return ret;
	}
	ctx->ctx_id = c.s.ctx_id;
	/* for rdma_mcm_create_ah_ex(): the source GID of the context */
	mcm_addr_gid(src, ctx->src_gid, &ctx->src_ifindex);
	ctx->next = ch->ctxs;
	ch->ctxs = ctx;
	*ctx_id = c.s.ctx_id;
	return 0;
}

MCM_EXPORT int rdma_mcm_create_ctx(struct rdma_mcm_channel *ch,
				   const struct sockaddr *src,
				   uint32_t *ctx_id)
{
	int ret;

	if (!ch || !src || !ctx_id)
		return mcm_result(-EINVAL);
	pthread_mutex_lock(&ch->lock);
	ret = create_ctx(ch, src, ctx_id);
	pthread_mutex_unlock(&ch->lock);
	return mcm_result(ret);
}

static void forget_ctx(struct rdma_mcm_channel *ch, uint32_t ctx_id)
{
	struct mcm_ctx **pp, *c;

	mcm_table_del_ctx(&ch->members, &ch->queue, ctx_id);
	for (pp = &ch->ctxs; (c = *pp); pp = &c->next) {
		if (c->ctx_id != ctx_id)
			continue;
		mcm_queue_purge(&ch->queue, &c->q);
		*pp = c->next;
		free(c);
		return;
	}
}

MCM_EXPORT int rdma_mcm_destroy_ctx(struct rdma_mcm_channel *ch,
				    uint32_t ctx_id)
{
	int ret;

	if (!ch)
		return mcm_result(-EINVAL);
	pthread_mutex_lock(&ch->lock);
	ret = destroy_ctx_ioctl(ch, ctx_id);
	if (!ret)
		forget_ctx(ch, ctx_id);
	pthread_mutex_unlock(&ch->lock);
	return mcm_result(ret);
}

/* Leave by handle without touching errno or the table; for unwinding. */
void mcm_unjoin(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		uint32_t handle)
{
	struct w_leave l;
	int saved = errno;

	memset(&l, 0, sizeof(l));
	l.s.ctx_id = ctx_id;
	l.s.handle = handle;
	mcm_ioctl(ch, RDMA_MCM_IOC_LEAVE, &l, sizeof(l));
	errno = saved;
}

int mcm_join_locked(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		    const struct sockaddr *group, int join_flags,
		    uint64_t cookie, uint32_t *handle)
{
	struct w_join j;
	int ret;

	if (!group || join_flags < 0)
		return -EINVAL;
	memset(&j, 0, sizeof(j));
	j.s.cookie = cookie;
	j.s.ctx_id = ctx_id;
	j.s.join_flags = (uint32_t)join_flags;
	ret = mcm_addr_copy(group, j.s.addr, &j.s.addr_len);
	if (!ret)
		ret = mcm_ioctl(ch, RDMA_MCM_IOC_JOIN, &j, sizeof(j));
	if (ret)
		return ret;
	if (!mcm_table_add(&ch->members, ctx_id, j.s.handle, j.s.join_flags,
			   group, &ret)) {
		mcm_unjoin(ch, ctx_id, j.s.handle);
		return ret;
	}
	if (handle)
		*handle = j.s.handle;
	return 0;
}

MCM_EXPORT int rdma_mcm_join(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			     const struct sockaddr *group, int join_flags,
			     uint64_t cookie, uint32_t *handle)
{
	int ret;

	if (!ch)
		return mcm_result(-EINVAL);
	pthread_mutex_lock(&ch->lock);
	ret = mcm_join_locked(ch, ctx_id, group, join_flags, cookie, handle);
	pthread_mutex_unlock(&ch->lock);
	return mcm_result(ret);
}

/* events_reported as the application saw it: less what the library dropped */
uint32_t mcm_seen(uint32_t reported, uint32_t dropped)
{
	return reported > dropped ? reported - dropped : 0;
}

int mcm_leave_locked(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		     uint32_t handle, const struct sockaddr *group,
		     uint32_t *events_reported)
{
	struct mcm_member *m;
	struct w_leave l;
	uint32_t dropped = 0;
	int ret = 0;

	memset(&l, 0, sizeof(l));
	l.s.ctx_id = ctx_id;
	l.s.handle = handle;
	if (group) {
		l.s.flags = RDMA_MCM_LEAVE_BY_ADDR;
		ret = mcm_addr_copy(group, l.s.addr, &l.s.addr_len);
	}
	if (!ret)
		ret = mcm_ioctl(ch, RDMA_MCM_IOC_LEAVE, &l, sizeof(l));
	if (ret && ret != -EADDRNOTAVAIL)
		return ret;
	/* left, or the kernel has no such membership: forget it */
	if (group)
		m = mcm_table_find_addr(&ch->members, ctx_id, group);
	else
		m = mcm_table_find(&ch->members, ctx_id, handle);
	if (m)
		dropped = mcm_table_del(&ch->members, &ch->queue, m);
	if (!ret && events_reported)
		*events_reported = mcm_seen(l.s.events_reported, dropped);
	return ret;
}

MCM_EXPORT int rdma_mcm_leave_ex(struct rdma_mcm_channel *ch,
				 uint32_t ctx_id, uint32_t handle,
				 const struct sockaddr *group,
				 uint32_t *events_reported)
{
	int ret;

	if (!ch || (group && handle))
		return mcm_result(-EINVAL);
	pthread_mutex_lock(&ch->lock);
	ret = mcm_leave_locked(ch, ctx_id, handle, group, events_reported);
	pthread_mutex_unlock(&ch->lock);
	return mcm_result(ret);
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
	if (!group)
		return mcm_result(-EINVAL);
	return rdma_mcm_leave_ex(ch, ctx_id, 0, group, NULL);
}

/* The membership's events the library holds do not count as reported. */
void mcm_fix_member(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		    struct rdma_mcm_member *mb)
{
	struct mcm_member *m = mcm_table_find(&ch->members, ctx_id,
					      mb->handle);

	if (m)
		mb->events_reported = mcm_seen(mb->events_reported, m->q.count);
}

MCM_EXPORT int rdma_mcm_query(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			      uint32_t handle, struct rdma_mcm_member *out)
{
	struct w_query q;
	int ret;

	if (!ch || !out)
		return mcm_result(-EINVAL);
	memset(&q, 0, sizeof(q));
	q.s.ctx_id = ctx_id;
	q.s.handle = handle;
	pthread_mutex_lock(&ch->lock);
	ret = mcm_ioctl(ch, RDMA_MCM_IOC_QUERY, &q, sizeof(q));
	if (!ret)
		mcm_fix_member(ch, ctx_id, &q.s.member);
	pthread_mutex_unlock(&ch->lock);
	if (ret)
		return mcm_result(ret);
	memcpy(out, &q.s.member, MCM_API_MEMBER_SIZE);
	return 0;
}

/* Entries of one LIST through a bounce buffer (test builds that grow) */
#define MCM_LIST_BOUNCE	256

static int list(struct rdma_mcm_channel *ch, uint32_t ctx_id, uint32_t start,
		struct rdma_mcm_member *out, unsigned int max, uint32_t *next)
{
	const int direct = sizeof(struct mcm_wire_member) == MCM_API_MEMBER_SIZE;
	struct mcm_wire_member *buf = NULL;
	struct w_list l;
	uint32_t i;
	int ret;

	memset(&l, 0, sizeof(l));
	l.s.ctx_id = ctx_id;
	l.s.start = start;
	l.s.count = max > INT_MAX ? INT_MAX : max;
	l.s.entry_size = sizeof(struct mcm_wire_member);
	l.s.entries = (uintptr_t)out;
	if (!direct && max) {
		if (l.s.count > MCM_LIST_BOUNCE)
			l.s.count = MCM_LIST_BOUNCE;
		buf = calloc(l.s.count, sizeof(*buf));
		if (!buf)
			return -ENOMEM;
		l.s.entries = (uintptr_t)buf;
	}
	ret = mcm_ioctl(ch, RDMA_MCM_IOC_LIST, &l, sizeof(l));
	if (!ret && l.s.count > max)
		ret = -EPROTO;
	for (i = 0; !ret && i < l.s.count; i++) {
		if (buf)
			memcpy(&out[i], &buf[i].s, MCM_API_MEMBER_SIZE);
		mcm_fix_member(ch, ctx_id, &out[i]);
	}
	free(buf);
	if (ret)
		return ret;
	if (next)
		*next = l.s.next;
	return (int)l.s.count;
}

MCM_EXPORT int rdma_mcm_list(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			     uint32_t start, struct rdma_mcm_member *out,
			     unsigned int max, uint32_t *next)
{
	int ret;

	if (!ch || (!out && max))
		return mcm_result(-EINVAL);
	pthread_mutex_lock(&ch->lock);
	ret = list(ch, ctx_id, start, out, max, next);
	pthread_mutex_unlock(&ch->lock);
	return mcm_result(ret);
}
