// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The call side: the joins of UD ids go to rdma_mcm, with a context per
 * id bound to the id's source address; leave, destroy_id, migrate_id and
 * destroy_event_channel keep the records and the channel queues right.
 *
 * Not ours, and passed to librdmacm unchanged: a disabled or missing
 * /dev/rdma_mcm, an id that is not UD or has no device yet, a
 * synchronous id (created without a channel: librdmacm waits for its
 * events inside the call), a group rdma_mcm does not take (EINVAL,
 * EOPNOTSUPP, EAFNOSUPPORT: an SA-assigned zero MGID on InfiniBand, say),
 * a leave of a group librdmacm joined.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <infiniband/verbs.h>

#include "preload.h"

#ifndef AF_IB
#define AF_IB	27
#endif

struct pl_state pl = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.wake_fd = -1,
};

/* Synchronous ids: created with no channel, librdmacm's own to serve */
struct pl_sync {
	struct pl_node node;
	struct rdma_cm_id *id;
};

static struct pl_table syncs;

#define EXPORT	__attribute__((visibility("default")))

static uint64_t ptr_key(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

#define node_entry(n, type, member) \
	((type *)(void *)((char *)(n) - offsetof(type, member)))

socklen_t pl_addr_len(const struct sockaddr *sa)
{
	switch (sa->sa_family) {
	case AF_INET:
		return sizeof(struct sockaddr_in);
	case AF_INET6:
		return sizeof(struct sockaddr_in6);
	case AF_IB:
		return 48;	/* sizeof(struct sockaddr_ib) */
	}
	return 0;
}

/* The group's address bytes, without port or scope */
static const void *group_bytes(const struct sockaddr *sa, size_t *len)
{
	switch (sa->sa_family) {
	case AF_INET:
		*len = 4;
		return &((const struct sockaddr_in *)sa)->sin_addr;
	case AF_INET6:
		*len = 16;
		return &((const struct sockaddr_in6 *)sa)->sin6_addr;
	case AF_IB:
		*len = 16;	/* sib_addr, after family, pkey, flowinfo */
		return (const char *)sa + 8;
	}
	*len = 0;
	return NULL;
}

static uint64_t addr_key(const struct rdma_cm_id *id, const struct sockaddr *g)
{
	unsigned char buf[sizeof(void *) + 2 + 16];
	size_t len;
	const void *b = group_bytes(g, &len);

	memcpy(buf, &id, sizeof(id));
	memcpy(buf + sizeof(id), &g->sa_family, 2);
	memcpy(buf + sizeof(id) + 2, b, len);
	return pl_hash(buf, sizeof(id) + 2 + len, pl.seed);
}

static int same_group(const struct sockaddr *a, const struct sockaddr *b)
{
	size_t la, lb;
	const void *ba = group_bytes(a, &la), *bb = group_bytes(b, &lb);

	return a->sa_family == b->sa_family && la == lb && !memcmp(ba, bb, la);
}

struct pl_id *pl_id_find(const struct rdma_cm_id *id)
{
	struct pl_node *n = pl_table_find(&pl.ids, ptr_key(id), NULL);

	for (; n; n = pl_table_find(&pl.ids, ptr_key(id), n))
		if (node_entry(n, struct pl_id, by_id)->id == id)
			return node_entry(n, struct pl_id, by_id);
	return NULL;
}

struct pl_id *pl_id_by_ctx(uint32_t ctx_id)
{
	struct pl_node *n = pl_table_find(&pl.ctxs, ctx_id, NULL);

	for (; n; n = pl_table_find(&pl.ctxs, ctx_id, n))
		if (node_entry(n, struct pl_id, by_ctx)->ctx_id == ctx_id)
			return node_entry(n, struct pl_id, by_ctx);
	return NULL;
}

struct pl_mc *pl_mc_by_cookie(uint64_t cookie)
{
	struct pl_node *n = pl_table_find(&pl.mcs, cookie, NULL);

	return n ? node_entry(n, struct pl_mc, by_cookie) : NULL;
}

static struct pl_mc *mc_by_addr(const struct rdma_cm_id *id,
				const struct sockaddr *g)
{
	uint64_t key = addr_key(id, g);
	struct pl_node *n = pl_table_find(&pl.addrs, key, NULL);

	for (; n; n = pl_table_find(&pl.addrs, key, n)) {
		struct pl_mc *mc = node_entry(n, struct pl_mc, by_addr);

		if (mc->owner->id == id &&
		    same_group((struct sockaddr *)&mc->group, g))
			return mc;
	}
	return NULL;
}

static int is_sync(const struct rdma_cm_id *id)
{
	struct pl_node *n = pl_table_find(&syncs, ptr_key(id), NULL);

	for (; n; n = pl_table_find(&syncs, ptr_key(id), n))
		if (node_entry(n, struct pl_sync, node)->id == id)
			return 1;
	return 0;
}

static void sync_set(struct rdma_cm_id *id, int sync)
{
	struct pl_node *n = pl_table_find(&syncs, ptr_key(id), NULL);
	struct pl_sync *s;

	for (; n; n = pl_table_find(&syncs, ptr_key(id), n)) {
		s = node_entry(n, struct pl_sync, node);
		if (s->id == id) {
			if (!sync) {
				pl_table_del(&syncs, n);
				free(s);
			}
			return;
		}
	}
	if (!sync)
		return;
	s = calloc(1, sizeof(*s));
	if (!s)
		return;
	s->id = id;
	if (pl_table_add(&syncs, &s->node, ptr_key(id)))
		free(s);
}

/* The id's source address as a GID, for its index in the port's table */
static int local_gid(const struct sockaddr *sa, uint8_t gid[16])
{
	memset(gid, 0, 16);
	switch (sa->sa_family) {
	case AF_INET:
		gid[10] = 0xff;
		gid[11] = 0xff;
		memcpy(gid + 12, &((const struct sockaddr_in *)sa)->sin_addr, 4);
		return 0;
	case AF_INET6:
		memcpy(gid, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
		return 0;
	case AF_IB:
		memcpy(gid, (const char *)sa + 8, 16);
		return 0;
	}
	return -1;
}

/*
 * The source GID index of the id's address handles: the entry of its
 * source address (RoCE v2 on Ethernet, as rdma_mcm joins), as
 * librdmacm's event carries it; 0 if the table has none.
 */
int pl_sgid_index(struct pl_id *pid)
{
	struct rdma_cm_id *id = pid->id;
	struct ibv_port_attr pattr;
	struct ibv_gid_entry e;
	uint8_t gid[16];
	int i;

	if (pid->sgid_index >= 0)
		return pid->sgid_index;
	if (!id->verbs ||
	    local_gid(rdma_get_local_addr(id), gid) ||
	    ibv_query_port(id->verbs, id->port_num, &pattr))
		return 0;
	for (i = 0; i < pattr.gid_tbl_len && i <= 255; i++) {
		if (ibv_query_gid_ex(id->verbs, id->port_num, (uint32_t)i, &e, 0) ||
		    memcmp(e.gid.raw, gid, 16))
			continue;
		if (pattr.link_layer == IBV_LINK_LAYER_ETHERNET &&
		    e.gid_type != IBV_GID_TYPE_ROCE_V2)
			continue;
		pid->sgid_index = i;
		return i;
	}
	return 0;
}

static int ours(struct rdma_cm_id *id, const struct sockaddr *addr)
{
	if (pl_config.disabled || !id || !addr || !id->verbs ||
	    id->qp_type != IBV_QPT_UD || !pl_addr_len(addr) || is_sync(id))
		return 0;
	return 1;
}

/*
 * The id's record, with its context (pl.lock held). NULL with *@err 0:
 * not ours (an address rdma_mcm has no device for); with *@err: the
 * errno of a limit (EMFILE, ENOBUFS, EDQUOT, ENOMEM), the join's error
 */
static struct pl_id *id_get(struct rdma_cm_id *id, int *err)
{
	struct pl_id *pid = pl_id_find(id);
	struct sockaddr *src;
	uint32_t ctx_id;

	*err = 0;
	if (pid)
		return pid;
	src = rdma_get_local_addr(id);
	if (!src || !pl_addr_len(src))
		return NULL;
	if (rdma_mcm_create_ctx_ex(pl.mcm, src,
				   pl_config.heal ? RDMA_MCM_CTX_HEAL : 0,
				   &ctx_id)) {
		if (errno == EMFILE || errno == ENOBUFS || errno == EDQUOT ||
		    errno == ENOMEM) {
			*err = errno;
			return NULL;
		}
		pl_debug("no context for the id's address (%s): librdmacm joins",
			 strerror(errno));
		return NULL;
	}
	pid = calloc(1, sizeof(*pid));
	if (!pid || !pl_channel_get(id->channel, src))
		goto fail;
	pid->id = id;
	pid->ctx_id = ctx_id;
	pid->sgid_index = -1;
	if (pl_table_add(&pl.ids, &pid->by_id, ptr_key(id)))
		goto fail;
	if (pl_table_add(&pl.ctxs, &pid->by_ctx, ctx_id)) {
		pl_table_del(&pl.ids, &pid->by_id);
		goto fail;
	}
	return pid;
fail:
	free(pid);
	rdma_mcm_destroy_ctx(pl.mcm, ctx_id);
	return NULL;
}

static void mc_free(struct pl_mc *mc)
{
	struct pl_mc **pp;

	pl_mc_purge(mc);
	for (pp = &mc->owner->mcs; *pp; pp = &(*pp)->next)
		if (*pp == mc) {
			*pp = mc->next;
			break;
		}
	pl_table_del(&pl.mcs, &mc->by_cookie);
	pl_table_del(&pl.addrs, &mc->by_addr);
	free(mc);
}

/* Errnos that mean "rdma_mcm does not take this group": librdmacm's */
static int not_for_us(int err)
{
	return err == EINVAL || err == EOPNOTSUPP || err == EAFNOSUPPORT ||
	       err == ENOTTY || err == EPROTONOSUPPORT;
}

/* 0, -1 with errno, or 1: give the call to librdmacm */
static int serve_join(struct rdma_cm_id *id, struct sockaddr *addr,
		      int flags, void *context)
{
	const struct sockaddr *srcs[RDMA_MCM_MAX_SOURCES];
	const struct pl_sources *s;
	struct pl_id *pid;
	struct pl_mc *mc;
	unsigned int i;
	int ret, err;

	pl_lock();
	if (!ours(id, addr) || pl_start_reader()) {
		pl_unlock();
		return 1;
	}
	pid = id_get(id, &err);
	if (!pid) {
		pl_unlock();
		if (err) {
			errno = err;
			return -1;
		}
		return 1;
	}
	mc = calloc(1, sizeof(*mc));
	if (!mc) {
		pl_unlock();
		errno = ENOMEM;
		return -1;
	}
	mc->owner = pid;
	mc->context = context;
	mc->sendonly = flags == RDMA_MCM_JOIN_SENDONLY_FULLMEMBER;
	mc->group_len = pl_addr_len(addr);
	memcpy(&mc->group, addr, mc->group_len);
	mc->cookie = ++pl.next_cookie;
	if (pl_table_add(&pl.mcs, &mc->by_cookie, mc->cookie) ||
	    pl_table_add(&pl.addrs, &mc->by_addr, addr_key(id, addr))) {
		pl_table_del(&pl.mcs, &mc->by_cookie);
		pl_unlock();
		free(mc);
		errno = ENOMEM;
		return -1;
	}
	mc->next = pid->mcs;
	pid->mcs = mc;
	s = pl_sources_for(addr);
	if (s) {
		for (i = 0; i < s->count; i++)
			srcs[i] = (const struct sockaddr *)&s->addr[i];
		ret = rdma_mcm_join_source(pl.mcm, pid->ctx_id, addr, srcs,
					   s->count, flags, mc->cookie,
					   &mc->handle);
	} else {
		ret = rdma_mcm_join(pl.mcm, pid->ctx_id, addr, flags,
				    mc->cookie, &mc->handle);
	}
	err = errno;
	if (ret)
		mc_free(mc);
	pl_unlock();
	if (!ret) {
		pl_debug("ctx %u: joined%s through rdma_mcm", pid->ctx_id,
			 s ? " source-specific" : "");
		return 0;
	}
	pl_debug("rdma_mcm join: %s%s", strerror(err),
		 not_for_us(err) ? ": librdmacm joins" : "");
	if (not_for_us(err))
		return 1;
	errno = err;
	return -1;
}

EXPORT int rdma_join_multicast(struct rdma_cm_id *id, struct sockaddr *addr,
			       void *context)
{
	int ret;

	pl_real_init();
	ret = serve_join(id, addr, RDMA_MCM_JOIN_FULLMEMBER, context);
	return ret <= 0 ? ret : pl_real.join(id, addr, context);
}

EXPORT int rdma_join_multicast_ex(struct rdma_cm_id *id,
				  struct rdma_cm_join_mc_attr_ex *attr,
				  void *context)
{
	int ret = 1;

	pl_real_init();
	/* what librdmacm refuses, it refuses itself */
	if (attr && !(attr->comp_mask & ~(RDMA_CM_JOIN_MC_ATTR_ADDRESS |
					   RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS)) &&
	    (attr->comp_mask & RDMA_CM_JOIN_MC_ATTR_ADDRESS) &&
	    (attr->comp_mask & RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS) &&
	    (attr->join_flags == RDMA_MC_JOIN_FLAG_FULLMEMBER ||
	     attr->join_flags == RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER))
		ret = serve_join(id, attr->addr,
				 attr->join_flags == RDMA_MC_JOIN_FLAG_FULLMEMBER ?
				 RDMA_MCM_JOIN_FULLMEMBER :
				 RDMA_MCM_JOIN_SENDONLY_FULLMEMBER, context);
	return ret <= 0 ? ret : pl_real.join_ex(id, attr, context);
}

EXPORT int rdma_leave_multicast(struct rdma_cm_id *id, struct sockaddr *addr)
{
	struct pl_mc *mc;
	int ret, err;

	pl_real_init();
	if (!pl.ready || !id || !addr || !pl_addr_len(addr))
		return pl_real.leave(id, addr);
	pl_lock();
	mc = mc_by_addr(id, addr);
	if (!mc) {
		pl_unlock();
		return pl_real.leave(id, addr);
	}
	/* detach first, as librdmacm does; the leave cancels a join under way */
	if (mc->attached && id->qp)
		ibv_detach_mcast(id->qp, &mc->mgid, mc->mlid);
	mc->attached = 0;
	ret = rdma_mcm_leave(pl.mcm, mc->owner->ctx_id, mc->handle);
	err = errno;
	mc_free(mc);
	pl_unlock();
	pl_unring(id->channel);		/* its event may have rung the bell */
	/* gone already (its device went away): left all the same */
	if (ret && err == ENOENT)
		ret = 0;
	errno = err;
	return ret ? -1 : 0;
}

EXPORT int rdma_create_id(struct rdma_event_channel *channel,
			  struct rdma_cm_id **id, void *context,
			  enum rdma_port_space ps)
{
	int ret;

	pl_real_init();
	ret = pl_real.create_id(channel, id, context, ps);
	if (ret || !id || !*id)
		return ret;
	pl_lock();
	if (!channel)
		sync_set(*id, 1);
	else if ((ps == RDMA_PS_UDP || ps == RDMA_PS_IPOIB) &&
		 !pl_config.disabled)
		/*
		 * An id that may join: open /dev/rdma_mcm and start the
		 * reader now, as librdmacm opens its devices at its first
		 * call, not inside the first join
		 */
		pl_start_reader();
	pl_unlock();
	return ret;
}

/* rdma_create_ep() makes a synchronous id without rdma_create_id() */
EXPORT int rdma_create_ep(struct rdma_cm_id **id, struct rdma_addrinfo *res,
			  struct ibv_pd *pd, struct ibv_qp_init_attr *qp_init_attr)
{
	int ret;

	pl_real_init();
	ret = pl_real.create_ep(id, res, pd, qp_init_attr);
	if (!ret && id && *id) {
		pl_lock();
		sync_set(*id, 1);
		pl_unlock();
	}
	return ret;
}

EXPORT int rdma_destroy_id(struct rdma_cm_id *id)
{
	struct rdma_event_channel *ch;
	struct pl_id *pid;

	pl_real_init();
	if (!id)
		return pl_real.destroy_id(id);
	ch = id->channel;
	pl_lock();
	sync_set(id, 0);
	pid = pl.ready ? pl_id_find(id) : NULL;
	if (pid) {
		/* the context's destruction leaves every group, in the kernel */
		while (pid->mcs)
			mc_free(pid->mcs);
		pl_id_purge(pid);
		rdma_mcm_destroy_ctx(pl.mcm, pid->ctx_id);
		pl_table_del(&pl.ids, &pid->by_id);
		pl_table_del(&pl.ctxs, &pid->by_ctx);
		free(pid);
	}
	pl_unlock();
	if (pid)
		pl_unring(ch);
	return pl_real.destroy_id(id);
}

/*
 * The QP goes, and its attachments with it. Under pl.lock: the reader
 * thread attaches and detaches id->qp at REJOINING and REJOINED, never
 * while librdmacm destroys it (and clears id->qp).
 */
EXPORT void rdma_destroy_qp(struct rdma_cm_id *id)
{
	struct pl_id *pid;
	struct pl_mc *mc;

	pl_real_init();
	if (!pl.ready || !id) {
		pl_real.destroy_qp(id);
		return;
	}
	pl_lock();
	pid = pl_id_find(id);
	for (mc = pid ? pid->mcs : NULL; mc; mc = mc->next) {
		mc->attached = 0;
		mc->healing = 0;
	}
	pl_real.destroy_qp(id);
	pl_unlock();
}

EXPORT int rdma_migrate_id(struct rdma_cm_id *id,
			   struct rdma_event_channel *channel)
{
	struct rdma_event_channel *old_ch = NULL;
	struct pl_channel *from = NULL, *to = NULL;
	struct pl_event *e, *next;
	struct pl_id *pid;
	int ret;

	pl_real_init();
	/*
	 * The destination's record exists before librdmacm switches
	 * id->channel: an event the reader routes meanwhile finds it
	 */
	if (pl.ready && id && channel) {
		pl_lock();
		pid = pl_id_find(id);
		from = pid ? pl_channel_find(id->channel) : NULL;
		if (from) {
			old_ch = from->ch;
			to = pl_channel_get(channel,
					    (struct sockaddr *)&from->bell_addr);
		}
		pl_unlock();
	}
	ret = pl_real.migrate_id(id, channel);
	if (ret || !id)
		return ret;
	pl_lock();
	sync_set(id, !channel);
	pid = pl.ready ? pl_id_find(id) : NULL;
	from = old_ch ? pl_channel_find(old_ch) : NULL;
	/* its undelivered events follow it, in order */
	for (e = pid && from && to && to != from ? from->head : NULL; e;
	     e = next) {
		struct pl_mc *mc = e->mc;
		struct pl_id *own = e->pid;

		next = e->next;
		if ((!mc || mc->owner != pid) && own != pid)
			continue;
		pl_event_unqueue(e);
		if (mc) {
			e->mc = mc;
			e->mc_next = mc->queued;
			mc->queued = e;
		}
		e->pid = own;
		e->chan = to;
		e->prev = to->tail;
		if (to->tail)
			to->tail->next = e;
		else
			to->head = e;
		to->tail = e;
		to->queued++;
	}
	pl_unlock();
	if (old_ch) {
		pl_unring(old_ch);	/* what it rang for may have moved */
		pl_ring(channel);
	}
	return 0;
}

EXPORT void rdma_destroy_event_channel(struct rdma_event_channel *channel)
{
	struct rdma_cm_id *bell = NULL;
	struct pl_channel *c;

	pl_real_init();
	if (pl.ready && channel) {
		pl_lock();
		c = pl_channel_find(channel);
		if (c) {
			pl_bell_wait(c);
			bell = c->bell;
			pl_channel_free(c);
		}
		pl_unlock();
		if (bell)
			pl_real.destroy_id(bell);
	}
	pl_real.destroy_channel(channel);
}
