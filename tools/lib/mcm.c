// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librdmamcm: contexts, joins, leaves, query and list. Each wraps one
 * ioctl and keeps the channel's membership table and event queue in step
 * with the kernel, under the channel's lock. Batches are in batch.c, the
 * sources of a source-specific join in source.c.
 */
#include <limits.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "rdma_mcm_priv.h"

/*
 * The library hands these structs to the application at these sizes.
 * When the uapi header grows one, the functions of the symbol versions
 * before keep the old size, and a new symbol version takes the new one:
 * librdmamcm(7), "ABI growth". struct rdma_mcm_member grew twice: 184
 * bytes in LIBRDMAMCM_1.0, 200 in LIBRDMAMCM_1.3, 208 in LIBRDMAMCM_1.5,
 * each the one before and a tail. struct rdma_mcm_join_entry grew once:
 * 152 bytes in LIBRDMAMCM_1.0, 168 in LIBRDMAMCM_1.5 (batch.c).
 */
_Static_assert(sizeof(struct rdma_mcm_event) == MCM_API_EVENT_SIZE,
	       "struct rdma_mcm_event grew: see librdmamcm(7), ABI growth");
_Static_assert(sizeof(struct rdma_mcm_member) == MCM_API_MEMBER_SIZE,
	       "struct rdma_mcm_member grew: see librdmamcm(7), ABI growth");
_Static_assert(offsetof(struct rdma_mcm_member, rejoins) ==
	       MCM_API_MEMBER_SIZE_1_0 &&
	       MCM_API_MEMBER_SIZE_1_0 == RDMA_MCM_MEMBER_SIZE_VER0,
	       "LIBRDMAMCM_1.0's struct rdma_mcm_member is the first 184 bytes");
_Static_assert(offsetof(struct rdma_mcm_member, nr_sources) ==
	       MCM_API_MEMBER_SIZE_1_3,
	       "LIBRDMAMCM_1.3's struct rdma_mcm_member is the first 200 bytes");
_Static_assert(sizeof(struct rdma_mcm_join_entry) == MCM_API_JOIN_ENTRY_SIZE,
	       "struct rdma_mcm_join_entry grew: see librdmamcm(7)");
_Static_assert(offsetof(struct rdma_mcm_join_entry, sources) ==
	       MCM_API_JOIN_ENTRY_SIZE_1_0 &&
	       MCM_API_JOIN_ENTRY_SIZE_1_0 == RDMA_MCM_JOIN_ENTRY_SIZE_VER0,
	       "LIBRDMAMCM_1.0's struct rdma_mcm_join_entry is the first 152 bytes");
_Static_assert(sizeof(struct rdma_mcm_leave_entry) ==
	       MCM_API_LEAVE_ENTRY_SIZE,
	       "struct rdma_mcm_leave_entry grew: see librdmamcm(7)");
_Static_assert(sizeof(struct rdma_mcm_source) == MCM_API_SOURCE_SIZE &&
	       MCM_API_SOURCE_SIZE == RDMA_MCM_SOURCE_SIZE_VER0,
	       "struct rdma_mcm_source grew: see librdmamcm(7)");

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

static int create_ctx(struct rdma_mcm_channel *ch, const struct sockaddr *addr,
		      uint32_t flags, uint32_t *ctx_id)
{
	struct w_create_ctx c;
	struct mcm_ctx *ctx;
	int ret;

	memset(&c, 0, sizeof(c));
	ret = mcm_addr_copy(addr, c.s.src, &c.s.src_len);
	if (ret)
		return ret;
	c.s.flags = flags;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	ret = mcm_ioctl(ch, RDMA_MCM_IOC_CREATE_CTX, &c, sizeof(c));
	if (ret) {
		free(ctx);
		return ret;
	}
	ctx->ctx_id = c.s.ctx_id;
	ctx->flags = flags;
	memcpy(&ctx->addr, addr, mcm_addr_len(addr));
	/*
	 * For rdma_mcm_create_ah_ex() and rdma_mcm_open_device(): the
	 * source GID of the context; a ROUTE context's when it is needed.
	 */
	if (!(flags & RDMA_MCM_CTX_ROUTE)) {
		mcm_addr_gid(addr, ctx->src_gid, &ctx->src_ifindex);
		ctx->src_known = 1;
	}
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
	ret = create_ctx(ch, src, 0, ctx_id);
	pthread_mutex_unlock(&ch->lock);
	return mcm_result(ret);
}

/* LIBRDMAMCM_1.3: the flags go to the kernel, which refuses unknown ones */
MCM_EXPORT int rdma_mcm_create_ctx_ex(struct rdma_mcm_channel *ch,
				      const struct sockaddr *addr,
				      uint32_t flags, uint32_t *ctx_id)
{
	int ret;

	if (!ch || !addr || !ctx_id)
		return mcm_result(-EINVAL);
	pthread_mutex_lock(&ch->lock);
	ret = create_ctx(ch, addr, flags, ctx_id);
	pthread_mutex_unlock(&ch->lock);
	return mcm_result(ret);
}

MCM_WIRE(struct rdma_mcm_query_ctx, w_query_ctx);

/* QUERY_CTX: the kernel's answer; -ENODEV while it has no device */
static int query_ctx(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		     struct mcm_where *w)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&w->src;
	struct w_query_ctx q;
	size_t len;
	int ret;

	memset(&q, 0, sizeof(q));
	q.s.ctx_id = ctx_id;
	pthread_mutex_lock(&ch->lock);
	ret = mcm_ioctl(ch, RDMA_MCM_IOC_QUERY_CTX, &q, sizeof(q));
	pthread_mutex_unlock(&ch->lock);
	if (ret)
		return ret;
	if (!q.s.src_len)
		return -ENODEV;
	len = q.s.src_len < sizeof(w->src) ? q.s.src_len : sizeof(w->src);
	memset(&w->src, 0, sizeof(w->src));
	memcpy(&w->src, q.s.src, len);
	if (!mcm_addr_len((struct sockaddr *)&w->src))
		return -EPROTO;
	w->ifindex = w->src.ss_family == AF_INET6 ? sin6->sin6_scope_id : 0;
	w->flags = q.s.flags;
	w->port_num = q.s.port_num;
	w->node_guid = q.s.node_guid;
	memcpy(w->dev_name, q.s.dev_name,
	       sizeof(w->dev_name) < sizeof(q.s.dev_name) ?
	       sizeof(w->dev_name) : sizeof(q.s.dev_name));
	w->dev_name[sizeof(w->dev_name) - 1] = '\0';
	return 0;
}

/*
 * Where context @ctx_id is: the kernel's answer (QUERY_CTX); from a module
 * without it (ENOTTY), the source it was created on, or for a ROUTE
 * context the source of the route to its group, looked up in the routing
 * table. The source is remembered for rdma_mcm_create_ah_ex(). Takes
 * ch->lock; 0 or -errno.
 */
int mcm_ctx_where(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		  struct mcm_where *w)
{
	struct sockaddr_storage dst;
	struct mcm_ctx *c;
	uint8_t gid[16];
	uint32_t unused;
	int ret = -ENOTTY, ask;

	memset(w, 0, sizeof(*w));
	pthread_mutex_lock(&ch->lock);
	c = mcm_ctx_find(ch, ctx_id);
	if (c) {
		dst = c->addr;
		w->flags = c->flags;
		w->ifindex = c->src_ifindex;
	}
	ask = !ch->no_query_ctx;
	pthread_mutex_unlock(&ch->lock);
	if (!c)
		return -ENOENT;
	if (ask)
		ret = query_ctx(ch, ctx_id, w);
	if (ret == -ENOTTY) {
		pthread_mutex_lock(&ch->lock);
		ch->no_query_ctx = 1;
		pthread_mutex_unlock(&ch->lock);
		if (!(w->flags & RDMA_MCM_CTX_ROUTE)) {
			w->src = dst;
			return 0;
		}
		/* no lock across the lookup: it talks to the kernel */
		ret = ch->io->route(ch->io_priv, (struct sockaddr *)&dst,
				    &w->src, &w->ifindex);
	}
	if (ret)
		return ret;
	pthread_mutex_lock(&ch->lock);
	c = mcm_ctx_find(ch, ctx_id);
	if (c) {
		mcm_addr_gid((struct sockaddr *)&w->src, gid, &unused);
		memcpy(c->src_gid, gid, sizeof(gid));
		c->src_ifindex = w->ifindex;
		c->src_known = 1;
	}
	pthread_mutex_unlock(&ch->lock);
	return c ? 0 : -ENOENT;
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
		    const struct sockaddr *group,
		    const struct mcm_sources *srcs, int join_flags,
		    uint64_t cookie, uint32_t *handle)
{
	int with_sources = srcs && srcs->nr;
	struct w_join j;
	int ret;

	if (!group || join_flags < 0)
		return -EINVAL;
	memset(&j, 0, sizeof(j));
	j.s.cookie = cookie;
	j.s.ctx_id = ctx_id;
	j.s.join_flags = (uint32_t)join_flags;
	if (with_sources) {
		j.s.sources = (uintptr_t)srcs->v;
		j.s.nr_sources = srcs->nr;
		j.s.source_size = sizeof(*srcs->v);
	}
	ret = mcm_addr_copy(group, j.s.addr, &j.s.addr_len);
	if (!ret)
		ret = mcm_ioctl(ch, RDMA_MCM_IOC_JOIN, &j, sizeof(j));
	/*
	 * A module older than sources takes the longer struct only with a
	 * zero tail: the sources make it E2BIG, which the library's own
	 * struct (a zero tail beyond it, a source_size the module takes)
	 * never is from one that knows them.
	 */
	if (ret == -E2BIG && with_sources)
		return -EOPNOTSUPP;
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
	ret = mcm_join_locked(ch, ctx_id, group, NULL, join_flags, cookie,
			      handle);
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

/*
 * QUERY into the application's struct of @size bytes (184, 200 or 208:
 * the symbol version's); the kernel gets the library's own struct.
 */
int mcm_query_sized(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		    uint32_t handle, void *out, size_t size)
{
	struct w_query q;
	int ret;

	if (!ch || !out)
		return -EINVAL;
	memset(&q, 0, sizeof(q));
	q.s.ctx_id = ctx_id;
	q.s.handle = handle;
	pthread_mutex_lock(&ch->lock);
	ret = mcm_ioctl(ch, RDMA_MCM_IOC_QUERY, &q, sizeof(q));
	if (!ret)
		mcm_fix_member(ch, ctx_id, &q.s.member);
	pthread_mutex_unlock(&ch->lock);
	if (ret)
		return ret;
	memcpy(out, &q.s.member, size);
	return 0;
}

/* LIBRDMAMCM_1.5: the 208-byte struct rdma_mcm_member */
MCM_EXPORT int rdma_mcm_query_v1_5(struct rdma_mcm_channel *ch,
				   uint32_t ctx_id, uint32_t handle,
				   struct rdma_mcm_member *out)
{
	return mcm_result(mcm_query_sized(ch, ctx_id, handle, out,
					  MCM_API_MEMBER_SIZE));
}

MCM_SYMVER(rdma_mcm_query_v1_5, "rdma_mcm_query@@LIBRDMAMCM_1.5");

/* LIBRDMAMCM_1.3: its first 200 bytes, for programs linked before 1.5 */
MCM_EXPORT int rdma_mcm_query_v1_3(struct rdma_mcm_channel *ch,
				   uint32_t ctx_id, uint32_t handle,
				   void *out)
{
	return mcm_result(mcm_query_sized(ch, ctx_id, handle, out,
					  MCM_API_MEMBER_SIZE_1_3));
}

MCM_SYMVER(rdma_mcm_query_v1_3, "rdma_mcm_query@LIBRDMAMCM_1.3");

/* LIBRDMAMCM_1.0: its first 184 bytes, for programs linked before 1.3 */
MCM_EXPORT int rdma_mcm_query_v1_0(struct rdma_mcm_channel *ch,
				   uint32_t ctx_id, uint32_t handle,
				   void *out)
{
	return mcm_result(mcm_query_sized(ch, ctx_id, handle, out,
					  MCM_API_MEMBER_SIZE_1_0));
}

MCM_SYMVER(rdma_mcm_query_v1_0, "rdma_mcm_query@LIBRDMAMCM_1.0");

/* Entries of one LIST through a bounce buffer (test builds that grow) */
#define MCM_LIST_BOUNCE	256

/*
 * LIST into the application's array of @size-byte entries (184, 200 or
 * 208).
 * The kernel writes them in place, with entry_size @size (it takes any
 * from RDMA_MCM_MEMBER_SIZE_VER0 up); a test build whose structs grow
 * goes through a bounce buffer of its own entries.
 */
static int list(struct rdma_mcm_channel *ch, uint32_t ctx_id, uint32_t start,
		uint8_t *out, unsigned int max, uint32_t *next, size_t size)
{
	const int direct = !MCM_TEST_GROW;
	struct mcm_wire_member *buf = NULL;
	struct w_list l;
	uint32_t i;
	int ret;

	memset(&l, 0, sizeof(l));
	l.s.ctx_id = ctx_id;
	l.s.start = start;
	l.s.count = max > INT_MAX ? INT_MAX : max;
	l.s.entry_size = (uint32_t)size;
	l.s.entries = (uintptr_t)out;
	if (!direct && max) {
		if (l.s.count > MCM_LIST_BOUNCE)
			l.s.count = MCM_LIST_BOUNCE;
		buf = calloc(l.s.count, sizeof(*buf));
		if (!buf)
			return -ENOMEM;
		l.s.entries = (uintptr_t)buf;
		l.s.entry_size = sizeof(*buf);
	}
	ret = mcm_ioctl(ch, RDMA_MCM_IOC_LIST, &l, sizeof(l));
	if (!ret && l.s.count > max)
		ret = -EPROTO;
	for (i = 0; !ret && i < l.s.count; i++) {
		struct rdma_mcm_member *mb = (void *)(out + i * size);

		if (buf)
			memcpy(mb, &buf[i].s, size);
		mcm_fix_member(ch, ctx_id, mb);
	}
	free(buf);
	if (ret)
		return ret;
	if (next)
		*next = l.s.next;
	return (int)l.s.count;
}

int mcm_list_sized(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		   uint32_t start, void *out, unsigned int max,
		   uint32_t *next, size_t size)
{
	int ret;

	if (!ch || (!out && max))
		return -EINVAL;
	pthread_mutex_lock(&ch->lock);
	ret = list(ch, ctx_id, start, out, max, next, size);
	pthread_mutex_unlock(&ch->lock);
	return ret;
}

/* LIBRDMAMCM_1.5: 208-byte entries */
MCM_EXPORT int rdma_mcm_list_v1_5(struct rdma_mcm_channel *ch,
				  uint32_t ctx_id, uint32_t start,
				  struct rdma_mcm_member *out,
				  unsigned int max, uint32_t *next)
{
	return mcm_result(mcm_list_sized(ch, ctx_id, start, out, max, next,
					 MCM_API_MEMBER_SIZE));
}

MCM_SYMVER(rdma_mcm_list_v1_5, "rdma_mcm_list@@LIBRDMAMCM_1.5");

/* LIBRDMAMCM_1.3: 200-byte entries, for programs linked before 1.5 */
MCM_EXPORT int rdma_mcm_list_v1_3(struct rdma_mcm_channel *ch,
				  uint32_t ctx_id, uint32_t start, void *out,
				  unsigned int max, uint32_t *next)
{
	return mcm_result(mcm_list_sized(ch, ctx_id, start, out, max, next,
					 MCM_API_MEMBER_SIZE_1_3));
}

MCM_SYMVER(rdma_mcm_list_v1_3, "rdma_mcm_list@LIBRDMAMCM_1.3");

/* LIBRDMAMCM_1.0: 184-byte entries, for programs linked before 1.3 */
MCM_EXPORT int rdma_mcm_list_v1_0(struct rdma_mcm_channel *ch,
				  uint32_t ctx_id, uint32_t start, void *out,
				  unsigned int max, uint32_t *next)
{
	return mcm_result(mcm_list_sized(ch, ctx_id, start, out, max, next,
					 MCM_API_MEMBER_SIZE_1_0));
}

MCM_SYMVER(rdma_mcm_list_v1_0, "rdma_mcm_list@LIBRDMAMCM_1.0");
